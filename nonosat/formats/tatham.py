"""Simon Tatham's Pattern game IDs, such as `5x5:2/1.1/3/1/2/1/3/2.1/1/1`.

`WxH:` is followed by the W column clues (left to right) and then the H row clues (top to
bottom), separated by `/`; the blocks of a clue are separated by `.`, and an empty clue is
written as nothing. Tatham's optional given squares (a `,` suffix) are refused rather than
ignored. A game ID can be typed on the command line in place of a file name, or saved in a
file on a line of its own.
"""

from __future__ import annotations

import re

from nonosat.errors import ParseError
from nonosat.formats.common import LONG_CLUE, PathName, make_puzzle, parse_size, refuse_past_the_limits, split_lines
from nonosat.limits import MAX_SIDE
from nonosat.model import Clue, Puzzle

_GAME_ID = re.compile(r"[0-9]+x[0-9]+:[0-9.]*(?:/[0-9.]*)+(?:,[A-Za-z]*)?")
"""What passes for a game ID: strict, so that a mistyped file name is not read as one."""
_BLOCK = re.compile(r"[1-9][0-9]*")


def is_game_id(text: str) -> bool:
    """Whether a text (a command-line argument, say) has the shape of a Pattern game ID."""
    return _GAME_ID.fullmatch(text.strip()) is not None


def read_clue(part: str, path: PathName, line: int | None) -> Clue:
    """Read one clue: blocks separated by `.`, nothing for an empty clue."""
    if not part:
        return ()
    blocks = part.split(".", MAX_SIDE)
    if len(blocks) > MAX_SIDE:  # read before it was counted: a clue of 3 million blocks ran for minutes
        raise ParseError(path, line, LONG_CLUE)
    for block in blocks:
        if not _BLOCK.fullmatch(block):
            raise ParseError(
                path,
                line,
                f"expected a clue like 2.1 (blocks of at least 1 separated by '.'), found {part!r}",
            )
    return tuple(map(int, blocks))


def read_size(text: str, what: str, path: PathName, line: int | None) -> int:
    """Read the width or the height: a whole number of at least 1 (at most the limit a side)."""
    if not _BLOCK.fullmatch(text):
        raise ParseError(path, line, f"expected the {what} as a whole number of at least 1, found {text!r}")
    return parse_size(text, path, line, what)


def read_game_id(game_id: str, path: PathName, line: int | None = None) -> Puzzle:
    """Read a puzzle from a game ID; `path` and `line` say where it came from, for errors."""
    text = game_id.strip()
    size, colon, description = text.partition(":")
    if not colon or size.count("x") != 1:
        raise ParseError(path, line, f"expected a game ID like 5x5:2/1.1/3/1/2/1/3/2.1/1/1, found {text!r}")
    width_text, height_text = size.split("x")
    width = read_size(width_text, "width", path, line)
    height = read_size(height_text, "height", path, line)
    refuse_past_the_limits(width, height, path, line)
    clues, comma, _ = description.partition(",")
    if comma:
        raise ParseError(path, line, "found given squares (after ','), which are not supported")
    parts = clues.split("/")
    if len(parts) != width + height:
        raise ParseError(
            path,
            line,
            f"expected {width} + {height} = {width + height} clues separated by '/', found {len(parts)}",
        )
    found = [read_clue(part, path, line) for part in parts]
    return make_puzzle(path, line, columns=found[:width], rows=found[width:], source=path)


def load_tatham(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from a text holding one game ID on a line of its own."""
    lines = [(number, line) for number, line in enumerate(split_lines(text), start=1) if line.strip()]
    if len(lines) > 1:
        raise ParseError(path, lines[1][0], f"expected one game ID, found a second line {lines[1][1].strip()!r}")
    number, line = lines[0]
    return read_game_id(line, path, number)


def dump_tatham(puzzle: Puzzle) -> str:
    """Write a puzzle as a game ID (clues only), on a line of its own."""
    clues = "/".join(".".join(map(str, clue)) for clue in (*puzzle.columns, *puzzle.rows))
    return f"{puzzle.width}x{puzzle.height}:{clues}\n"
