"""Clues: writing them, the clue a line of cells meets, and checking the numbers a file gives."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from itertools import groupby

from nonosat.errors import InvalidPuzzle
from nonosat.palette import BLACK_AND_WHITE, Palette, is_black_and_white

Clue = tuple[int, ...]
"""The block lengths of one line, in order; `()` is an empty line."""

Colours = tuple[int, ...]
"""The colour of each block of a clue, as indices into the puzzle's palette (1 is the first colour)."""

Grid = tuple[tuple[int, ...], ...]


def line_name(kind: str, index: int) -> str:
    """Name a line as people count it: `line_name("row", 0)` is "row 1"."""
    return f"{kind} {index + 1}"


def clue_text(clue: Clue, colours: Colours | None = None, palette: Palette = BLACK_AND_WHITE) -> str:
    """Write a clue the way puzzles print it: "3 1 2", or "0" for an empty line; in colour each
    block names its colour: "3red 1blue"."""
    if not clue:
        return "0"
    if colours is None or is_black_and_white(palette):
        return " ".join(map(str, clue))
    return " ".join(f"{size}{block_colour(palette, colour)}" for size, colour in zip(clue, colours, strict=True))


def block_colour(palette: Palette, colour: int) -> str:
    """A block's colour as a clue writes it after its length: the colour's name when it is all
    letters ("3red"), else its character when that is a letter ("7a" for a colour a file names
    "a00CDFF", which "7a00CDFF" would hide), else the name in brackets ("2[#1]")."""
    name, char = palette[colour].name, palette[colour].char
    if name.isalpha():
        return name
    return char if char.isalpha() else f"[{name}]"


def clue_of(cells: Sequence[int]) -> Clue:
    """The clue that a line of filled (1) and empty (0) cells satisfies."""
    blocks: list[int] = []
    run = 0
    for cell in cells:
        if cell:
            run += 1
        elif run:
            blocks.append(run)
            run = 0
    if run:
        blocks.append(run)
    return tuple(blocks)


def runs_of(cells: Sequence[int]) -> tuple[Clue, Colours]:
    """The clue a line of coloured cells satisfies, and its blocks' colours: a block is a run of
    one colour (0, the background, separates blocks)."""
    runs = [(colour, len(list(run))) for colour, run in groupby(cells) if colour]
    return tuple(size for _, size in runs), tuple(colour for colour, _ in runs)


def clue_span(clue: Clue, colours: Colours | None = None) -> int:
    """The fewest cells a clue needs: its blocks plus one gap between each pair (in colour, only
    between neighbours of the same colour)."""
    if not clue:
        return 0
    if colours is None:
        return sum(clue) + len(clue) - 1
    return sum(clue) + sum(a == b for a, b in zip(colours, colours[1:], strict=False))


def _whole(number: object, kind: str, index: int) -> int:
    """A clue's number as an int: an int, or any whole number with __index__ (NumPy's)."""
    whole: int | None = None
    if not isinstance(number, bool):
        try:
            whole = operator.index(number)  # type: ignore[arg-type]
        except TypeError:
            pass
    if whole is None:
        raise InvalidPuzzle(f"{line_name(kind, index)}: {number!r} is not a whole number")
    if whole < 0:
        raise InvalidPuzzle(f"{line_name(kind, index)}: {whole} is negative")
    return whole


ZERO_BETWEEN = "a 0 between other numbers (a 0 alone is an empty line)"
"""What every reader and the library say of a clue like `1,0,1`."""


def zero_between(sizes: Sequence[int]) -> bool:
    """Whether a 0 stands between two other numbers of a clue (`1,0,1`): refused everywhere (see
    normalise_clue). Zeros before or after the other numbers, or alone, are not."""
    first = next((i for i, n in enumerate(sizes) if n), None)
    if first is None:
        return False
    last = max(i for i, n in enumerate(sizes) if n)
    return 0 in sizes[first:last]


def normalise_clue(numbers: Iterable[object], kind: str, index: int) -> Clue:
    """Check that a clue holds whole numbers >= 0, and drop zeros: a 0 alone is an empty line,
    zeros before or after the numbers pad a clue (MiniZinc's tables), but `1,0,1` is refused:
    read as `1 1` it was another puzzle than the author's (`1,10,1`, say)."""
    clue = tuple(_whole(number, kind, index) for number in numbers)
    if zero_between(clue):
        raise InvalidPuzzle(f"{line_name(kind, index)}: {ZERO_BETWEEN}")
    return tuple(n for n in clue if n)


def normalise_colours(
    numbers: Sequence[object], colours: Sequence[object], kind: str, index: int, count: int
) -> tuple[Clue, Colours]:
    """A colour clue: its sizes and colours side by side, zero-size blocks dropped, each colour
    an index 1..count into the palette. A clue of zeros alone with no colours is an empty line,
    as in black and white (`(0,)` was "1 block(s) but 0 colour(s)", a review)."""
    if not colours and all(not isinstance(n, bool) and isinstance(n, int) and n == 0 for n in numbers):
        return (), ()
    if len(numbers) != len(colours):
        raise InvalidPuzzle(f"{line_name(kind, index)}: {len(numbers)} block(s) but {len(colours)} colour(s)")
    wholes = [_whole(number, kind, index) for number in numbers]
    if zero_between(wholes):
        raise InvalidPuzzle(f"{line_name(kind, index)}: {ZERO_BETWEEN}")
    sizes: list[int] = []
    kept: list[int] = []
    for size, colour in zip(wholes, colours, strict=True):
        if isinstance(colour, bool) or not isinstance(colour, int) or not 1 <= colour <= count:
            raise InvalidPuzzle(f"{line_name(kind, index)}: {colour!r} is not a colour of the palette (1..{count})")
        if size:
            sizes.append(size)
            kept.append(colour)
    return tuple(sizes), tuple(kept)


def normalise_grid(grid: Iterable[Iterable[object]], colours: int = 1) -> Grid:
    """Each cell a palette index: 0 (empty) or 1 (filled) in black and white (True and False
    too). Anything else is refused: '#' and '.' were both taken as filled, as any true value was."""
    rows = tuple(tuple(_index(cell) for cell in row) for row in grid)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if not 0 <= cell <= colours:
                what = "0 (empty) or 1 (filled)" if colours == 1 else f"a colour of the palette, 0 to {colours}"
                raise InvalidPuzzle(f"the goal's cell (row {r + 1}, column {c + 1}): expected {what}")
    return rows


def _index(cell: object) -> int:
    """A cell as a whole number (an int, a bool, a NumPy integer: whatever has __index__), or -1."""
    try:
        return operator.index(cell)  # type: ignore[arg-type]
    except TypeError:
        return -1
