"""The plain clue list: row clues one per line, a blank line, then column clues one per line.

Numbers are separated by spaces or commas, and `0` or `-` is an empty clue (an empty line
cannot be one, since a blank line separates the rows from the columns).
"""

from __future__ import annotations

from nonosat.errors import ParseError
from nonosat.formats.common import (
    PathName,
    clue_lines,
    make_puzzle,
    parse_clue,
    refuse_past_the_limits,
    refuse_past_the_side,
    split_lines,
)
from nonosat.limits import MAX_SIDE
from nonosat.model import Clue, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by spaces or commas ('0' or '-' if empty)"

Group = list[tuple[int, str]]
"""Consecutive non-blank lines, each with its 1-based line number."""


def line_groups(text: str, path: PathName = None) -> list[Group]:
    """The runs of non-blank lines of a text, split where blank lines come; one past the limit
    a side is refused as it reaches it."""
    groups: list[Group] = [[]]
    for number, line in enumerate(split_lines(text), start=1):
        if line.strip():
            groups[-1].append((number, line))
            if len(groups[-1]) > MAX_SIDE:
                refuse_past_the_side(len(groups[-1]), "row" if len(groups) == 1 else "column", path, number)
        elif groups[-1]:
            groups.append([])
    return [group for group in groups if group]


def read_clue(line: str, number: int, path: PathName) -> Clue:
    """Read one clue line: numbers split by spaces or commas, or `-` for an empty clue."""
    if line.strip() == "-":
        return ()
    return parse_clue(line, "," if "," in line else None, path, number, CLUE_SHAPE)


def load_cluelist(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from a clue list: rows, a blank line, columns."""
    groups = line_groups(text, path)
    if len(groups) == 2:
        refuse_past_the_limits(len(groups[1]), len(groups[0]), path, groups[0][0][0])
    clues = [[read_clue(line, number, path) for number, line in group] for group in groups]
    if not groups:
        raise ParseError(path, None, "expected row clues, a blank line, then column clues; found nothing")
    if len(groups) == 1:
        last = groups[0][-1][0]
        raise ParseError(path, last, "expected a blank line and then the column clues, the file ends")
    if len(groups) > 2:
        raise ParseError(
            path,
            groups[2][0][0],
            "expected one blank line between row and column clues, found a third group of lines",
        )
    return make_puzzle(path, groups[0][0][0], rows=clues[0], columns=clues[1], source=path)


def dump_cluelist(puzzle: Puzzle) -> str:
    """Write a puzzle as a clue list (clues only: no metadata, no goal)."""
    return "\n".join([*clue_lines(puzzle.rows, " "), "", *clue_lines(puzzle.columns, " ")]) + "\n"
