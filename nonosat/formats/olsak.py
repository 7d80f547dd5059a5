"""Mirek and Pavel Olšák's formats: `.mk` and `.g` (black and white only).

`.mk`: a first line `H W` (height first), then H row clues, a line `#`, then W column clues.
Numbers are separated by spaces or commas; `0` or a blank line is an empty clue (as in
pbnsolve's reader).

`.g`: lines before the first line starting with `:` are comments, except that `#d` starts
colour declarations and `#t` marks a triddler. The line `: rows` (any text may follow the
colon) starts the row clues, one per line, a blank line being an empty clue; the next `:`
line starts the column clues, which end at a third `:` line (after which anything is
ignored) or at the end of the file, where trailing blank lines are then dropped. A block
followed by a colour letter (`3m`) is a colour puzzle and is refused.
"""

from __future__ import annotations

import re

from nonosat.errors import ParseError
from nonosat.formats.common import (
    COLOUR_UNSUPPORTED,
    PathName,
    clue_count,
    clue_lines,
    make_puzzle,
    parse_clue,
    parse_size,
    split_lines,
)
from nonosat.model import Clue, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by spaces"
_COLOUR_DECLARATION = re.compile(r"\s*(\S):")

Numbered = list[tuple[int, str]]
"""Lines of a file, each with its 1-based line number."""


def read_clue(line: str, number: int, path: PathName) -> Clue:
    """Read one clue line: numbers separated by spaces, tabs or commas; blank or `0` is empty."""
    return parse_clue(line.replace(",", " "), None, path, number, CLUE_SHAPE)


def fit(lines: Numbered, count: int, kind: str, end: tuple[int | None, str], path: PathName) -> list[Clue]:
    """Read `count` clues from `lines`, which may go on only with blank lines until `end`."""
    if len(lines) < count:
        line, what = end
        raise ParseError(path, line, f"expected {clue_count(count, kind)}, found {len(lines)} before {what}")
    extra = next((number for number, line in lines[count:] if line.strip()), None)
    if extra is not None:
        raise ParseError(path, extra, f"expected {clue_count(count, kind)}, found more")
    return [read_clue(line, number, path) for number, line in lines[:count]]


def read_mk_size(lines: Numbered, path: PathName) -> tuple[int, int]:
    """Read the `H W` first line of a `.mk` file."""
    number, line = lines[0]
    words = line.split()
    if len(words) != 2:
        raise ParseError(path, number, f"expected a first line 'height width', found {line.strip()!r}")
    return parse_size(words[0], path, number, "height"), parse_size(words[1], path, number, "width")


def load_mk(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from the text of an Olšák `.mk` file."""
    lines = list(enumerate(split_lines(text), start=1))
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise ParseError(path, None, "expected a first line 'height width', found nothing")
    height, width = read_mk_size(lines, path)
    body = lines[1:]
    hash_at = next((i for i, (_, line) in enumerate(body) if line.strip() == "#"), None)
    if hash_at is None:
        raise ParseError(path, lines[-1][0], "expected a line '#' between the row and the column clues, found none")
    rows = fit(body[:hash_at], height, "row", (body[hash_at][0], "'#'"), path)
    columns = fit(body[hash_at + 1 :], width, "column", (lines[-1][0], "the end of the file"), path)
    return make_puzzle(path, lines[0][0], rows=rows, columns=columns, source=path)


def dump_mk(puzzle: Puzzle) -> str:
    """Write a puzzle as an Olšák `.mk` file (clues only)."""
    lines = [
        f"{puzzle.height} {puzzle.width}",
        *clue_lines(puzzle.rows, " "),
        "#",
        *clue_lines(puzzle.columns, " "),
    ]
    return "\n".join(lines) + "\n"


def check_g_preamble(lines: Numbered, path: PathName) -> None:
    """Refuse triddlers and colour declarations beyond the background (0) and the default (1)."""
    declaring = False
    for number, line in lines:
        if line[:2].lower() == "#t":
            raise ParseError(path, number, "found a triddler ('#t'); only grid puzzles are supported")
        if line[:2].lower() == "#d":
            declaring = True
            continue
        declaration = _COLOUR_DECLARATION.match(line) if declaring else None
        if declaration and declaration.group(1) not in ("0", "1"):
            raise ParseError(path, number, f"found colour {declaration.group(1)!r}: {COLOUR_UNSUPPORTED}")


def load_g(text: str, path: PathName = None) -> Puzzle:
    """Read a black-and-white puzzle from the text of an Olšák `.g` file."""
    lines = list(enumerate(split_lines(text), start=1))
    colons = [i for i, (_, line) in enumerate(lines) if line.startswith(":")]
    check_g_preamble(lines[: colons[0]] if colons else lines, path)
    if len(colons) < 2:
        where = lines[colons[0]][0] if colons else None
        raise ParseError(path, where, "expected a ': rows' line and then a ': columns' line (lines starting with ':')")
    rows = lines[colons[0] + 1 : colons[1]]
    columns = lines[colons[1] + 1 : colons[2] if len(colons) > 2 else len(lines)]
    while len(colons) == 2 and columns and not columns[-1][1].strip():
        columns.pop()
    return make_puzzle(
        path,
        lines[colons[0]][0],
        rows=[read_clue(line, number, path) for number, line in rows],
        columns=[read_clue(line, number, path) for number, line in columns],
        source=path,
    )
