"""`.nonpack`: several `.non` puzzles in one file, separated by lines of `====` (four or more).

Each part is read as a `.non` file, and errors name the line in the whole file. Parts that
are blank (before the first separator, say) are skipped. `FILE#N` selects the N-th puzzle.
"""

from __future__ import annotations

import re
from dataclasses import replace

from nonosat.errors import ParseError
from nonosat.formats.common import PathName, split_lines
from nonosat.formats.non import load_non
from nonosat.formats.select import check_number, choose, numbered
from nonosat.model import Puzzle

SEPARATOR = re.compile(r"\s*={4,}\s*")
NONE_FOUND = "expected .non puzzles separated by '====' lines, found none"


def parts(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank parts between separator lines, each with the line number it starts on."""
    found: list[tuple[int, list[str]]] = [(1, [])]
    for number, line in enumerate(split_lines(text), start=1):
        if SEPARATOR.fullmatch(line):
            found.append((number + 1, []))
        else:
            found[-1][1].append(line)
    return [(start, lines) for start, lines in found if any(line.strip() for line in lines)]


def load_part(start: int, lines: list[str], path: PathName) -> Puzzle:
    """Read one part as a `.non` puzzle, keeping the whole file's line numbers."""
    try:  # numbered from the part's start (blank lines put before it made reading quadratic)
        return load_non("\n".join(lines), path, first_line=start)
    except ParseError as error:
        if error.line is None:
            raise ParseError(path, start, error.expected) from None
        raise


def load_nonpack_all(text: str, path: PathName = None) -> list[Puzzle]:
    """Read every puzzle of a `.nonpack` file, in file order."""
    found = [load_part(start, lines, path) for start, lines in parts(text)]
    if not found:
        raise ParseError(path, None, NONE_FOUND)
    return numbered(found, path)


def pick_nonpack(text: str, path: PathName, number: int) -> Puzzle:
    """Read puzzle `number` (from 1) of a `.nonpack` file, and only that one: picking one of a
    file of 27,000 read them all first (18 s)."""
    found = parts(text)
    if not found:
        raise ParseError(path, None, NONE_FOUND)
    check_number(number, len(found), path)
    puzzle = load_part(*found[number - 1], path)
    return puzzle if len(found) < 2 or path is None else replace(puzzle, source=f"{path}#{number}")


def load_nonpack(text: str, path: PathName = None) -> Puzzle:
    """Read the one puzzle of a `.nonpack` file (one of several needs FILE#N)."""
    return choose(load_nonpack_all(text, path), None, path)
