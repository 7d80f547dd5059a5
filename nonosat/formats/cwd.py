"""The `.cwd` format of Copris, QNonograms and Sukhoy's solver: H, W, rows, a blank line, columns.

The first line holds the height and the second the width. The H row clues follow, one per
line, then one blank line, then the W column clues. Numbers are separated by spaces; a clue
line left blank (or `0`) is an empty clue, as in Copris's reader, which counts lines rather
than looking for the blank one. Blank lines may follow the last column clue.
"""

from __future__ import annotations

from nonosat.errors import ParseError
from nonosat.formats.common import (
    PathName,
    clue_count,
    make_puzzle,
    parse_clue,
    parse_size,
    refuse_past_the_limits,
    split_lines,
)
from nonosat.model import Clue, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by spaces"

Numbered = list[tuple[int, str]]
"""Lines of a file, each with its 1-based line number."""


def read_number(lines: Numbered, index: int, what: str, path: PathName) -> int:
    """Read the height or width, alone on its line."""
    if index >= len(lines):
        raise ParseError(
            path, lines[-1][0] if lines else None, f"expected the {what} on a line of its own, the file ends"
        )
    number, line = lines[index]
    return parse_size(line.strip(), path, number, what)


def read_clues(lines: Numbered, start: int, count: int, kind: str, path: PathName) -> list[Clue]:
    """Read `count` clue lines from `lines[start:]`."""
    found = lines[start : start + count]
    if len(found) < count:
        raise ParseError(path, lines[-1][0], f"expected {clue_count(count, kind)}, the file ends after {len(found)}")
    return [parse_clue(line, None, path, number, CLUE_SHAPE) for number, line in found]


def expect_blank(lines: Numbered, index: int, expected: str, path: PathName) -> None:
    """Refuse a non-blank line where only blank lines (or the end of the file) may be."""
    for number, line in lines[index:]:
        if line.strip():
            raise ParseError(path, number, f"expected {expected}, found {line.strip()!r}")


def load_cwd(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from the text of a `.cwd` file."""
    lines = list(enumerate(split_lines(text), start=1))
    while lines and not lines[0][1].strip():
        lines.pop(0)
    height = read_number(lines, 0, "height", path)
    width = read_number(lines, 1, "width", path)
    refuse_past_the_limits(width, height, path, lines[1][0])
    rows = read_clues(lines, 2, height, "row", path)
    expect_blank(lines[: 3 + height], 2 + height, f"a blank line after the {clue_count(height, 'row')}", path)
    columns = read_clues(lines, 3 + height, width, "column", path)
    expect_blank(lines, 3 + height + width, f"the end of the file after the {clue_count(width, 'column')}", path)
    return make_puzzle(path, lines[0][0], rows=rows, columns=columns, source=path)
