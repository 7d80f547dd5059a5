"""Jakub Wilk's `.nin` format: `W H`, then H row clues, then W column clues.

Numbers in a clue are separated by spaces and `0` is an empty clue. As in jwilk's own reader,
blank lines are skipped rather than read as clues. Lines after the last column clue are refused
(a header with the wrong width or height leaves some there, and the clues would be read as
another puzzle), unless they are whole sets of clue lines for a puzzle of the same size: one
file of his corpus, data142.nin, carries four such stray sets (not every clue of which fits its
line), which his reader ignores, as this one does.
"""

from __future__ import annotations

from nonosat.errors import ParseError
from nonosat.formats.common import (
    PathName,
    clue_count,
    clue_lines,
    make_puzzle,
    parse_clue,
    parse_size,
    refuse_many_lines,
    refuse_past_the_limits,
    split_lines,
)
from nonosat.limits import MAX_SIDE, grid_size_problem
from nonosat.model import Clue, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by spaces"


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of a text, each with its 1-based line number."""
    return [(number, line) for number, line in enumerate(split_lines(text), start=1) if line.strip()]


def read_size(lines: list[tuple[int, str]], path: PathName) -> tuple[int, int]:
    """Read the `W H` header line."""
    if not lines:
        raise ParseError(path, None, "expected a first line 'width height', found nothing")
    number, line = lines[0]
    words = line.split()
    if len(words) != 2:
        raise ParseError(path, number, f"expected a first line 'width height', found {line.strip()!r}")
    width, height = parse_size(words[0], path, number, "width"), parse_size(words[1], path, number, "height")
    refuse_past_the_limits(width, height, path, number)
    return width, height


def read_clues(lines: list[tuple[int, str]], start: int, count: int, kind: str, path: PathName) -> list[Clue]:
    """Read `count` clues of one kind from `lines[start:]`."""
    if len(lines) < start + count:
        last = lines[-1][0]
        found = max(0, len(lines) - start)
        raise ParseError(path, last, f"expected {clue_count(count, kind)}, the file ends after {found}")
    return [parse_clue(line, None, path, number, CLUE_SHAPE) for number, line in lines[start : start + count]]


MOST_NIN_LINES = 1 + 8 * 2 * MAX_SIDE
"""The most lines of a `.nin` file: the header, and up to eight sets of clues of the largest
puzzle (its own and stray ones: data142 carries four)."""


def load_nin(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from the text of a `.nin` file."""
    refuse_many_lines(text, path, MOST_NIN_LINES)
    lines = numbered_lines(text)
    width, height = read_size(lines, path)
    rows = read_clues(lines, 1, height, "row", path)
    columns = read_clues(lines, 1 + height, width, "column", path)
    _check_the_end(lines[1 + height + width :], width, height, path)
    if len(lines) > 1 + height + width:
        _refuse_another_size([*rows, *columns], lines[1 + height + width :], width, path)
    return make_puzzle(path, lines[0][0], rows=rows, columns=columns, source=path)


def _check_the_end(after: list[tuple[int, str]], width: int, height: int, path: PathName) -> None:
    """Refuse lines after the column clues, but for stray sets of clues (see the module's notes):
    whole sets of `height + width` clue lines (not each of data142's fits its line)."""
    if not after or (len(after) % (width + height) == 0 and all(_is_clue(text) for _, text in after)):
        return
    number, line = after[0]
    raise ParseError(
        path, number, f"expected the end of the file after the {clue_count(width, 'column')}, found {line.strip()!r}"
    )


def _refuse_another_size(clues: list[Clue], after: list[tuple[int, str]], width: int, path: PathName) -> None:
    """Refuse stray sets when every clue line of the file also reads as one puzzle of another
    size: the file reads two ways, and the header may be the slip (a fuzz review: a 6x6 puzzle
    headed `3 3` was read as a 3x3 puzzle, `multiple`; jwilk's 10x10 headed `5 5` as a 5x5 one,
    `none`). A split into H rows and W columns reads when every clue fits its line and both
    sides fill as many cells; data142's four stray sets read as no such puzzle."""
    every = clues + [parse_clue(line, None, path, number, CLUE_SHAPE) for number, line in after]
    need = [sum(clue) + len(clue) - 1 if clue else 0 for clue in every]
    cells = [sum(clue) for clue in every]
    total, count = sum(cells), len(every)
    widest_before, widest_after = [0], [0] * (count + 1)
    for length in need:
        widest_before.append(max(widest_before[-1], length))
    for index in range(count - 1, -1, -1):
        widest_after[index] = max(widest_after[index + 1], need[index])
    filled = 0
    for height in range(1, count):
        filled += cells[height - 1]
        across = count - height
        within = grid_size_problem(across, height) is None  # (a reading past the limits is none)
        if within and widest_before[height] <= across and widest_after[height] <= height and 2 * filled == total:
            raise ParseError(
                path,
                after[0][0],
                f"expected the end of the file after the {clue_count(width, 'column')}, found sets of clue lines"
                " that jwilk's reader skips, but with those before them every line also reads as one"
                f" {across}x{height} puzzle: the file reads two ways (is the first line 'width height' wrong?)",
            )


def _is_clue(text: str) -> bool:
    try:
        parse_clue(text, None, None, 0, CLUE_SHAPE)
    except ParseError:
        return False
    return True


def dump_nin(puzzle: Puzzle) -> str:
    """Write a puzzle as a `.nin` file (clues only: the format has no metadata or goal)."""
    lines = [
        f"{puzzle.width} {puzzle.height}",
        *clue_lines(puzzle.rows, " "),
        *clue_lines(puzzle.columns, " "),
    ]
    return "\n".join(lines) + "\n"
