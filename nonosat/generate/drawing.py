"""The picture under repair: its cells, its clues kept current a change at a time, and what a
change costs the picture.

A change gives one cell another colour (in black and white, flips it). Its cost has two parts,
both in the same unit, where 1 is a change of full contrast (in black and white, a cell whose
grey level is as far from the threshold as black is from mid-grey; in colour, a change that
moves the cell 100 delta E further from the picture, as far as black is from white):
- how much further the cell moves from the picture (`Cost`: in black and white, the cell's grey
  level's distance from the threshold, so that cells near the threshold are cheap; in colour,
  how much further its colour moves from the picture's, in delta E), and
- the shape: a cell that takes a colour none of its four neighbours has (a speck, or a hole)
  costs `SPECK` more, so that repairs grow or trim shapes along their edges rather than
  scatter dots.
Giving a changed cell its colour back costs the negative of what changing it cost.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from nonosat.clues import Colours, clue_of, clue_span, runs_of
from nonosat.model import Cell, Clue, Grid, Puzzle
from nonosat.palette import Palette

Cost = Callable[[int, int, int], float]
"""cost(row, column, colour): how much further from the picture a cell moves when it takes
`colour` (0 the blank) instead of its colour in the picture (0 for that colour itself)."""

SPECK = 1.0
"""What a change costs beyond its colour when it leaves the cell unlike all four neighbours."""

Move = tuple[int, int, int]
"""(row, column, colour): one cell takes a colour."""


def flip_cost(margin: Sequence[Sequence[float]], grid: Grid) -> Cost:
    """In black and white, the cost of flipping a cell of `grid`: its grey level's distance from
    the threshold (nothing for its own colour)."""
    return lambda row, column, colour: 0.0 if colour == grid[row][column] else margin[row][column]


def no_cost(row: int, column: int, colour: int) -> float:
    """Every change as cheap (a random grid): the seed breaks the ties."""
    return 0.0


class Drawing:
    """The picture being repaired, and the puzzle (the clues) it makes now."""

    def __init__(self, grid: Grid, palette: Palette, cost: Cost, unit: float | None = None) -> None:
        self.start = grid
        self.palette = palette
        self.cells = [list(row) for row in grid]
        self.height, self.width = len(grid), len(grid[0])
        self.puzzle = Puzzle.from_grid(grid, palette)
        self.colour_count = len(palette) - 1
        self._cost = cost
        if unit is None:
            everything = range(len(palette))
            unit = max(
                (cost(r, c, k) for r in range(self.height) for c in range(self.width) for k in everything), default=0
            )
        self._unit = unit or 1.0
        """What a change of full contrast costs, in `cost`'s units (without one given: the
        dearest change there is, or 1 when every change is free)."""
        self._left = Counter(k for row in grid for k in row)
        self._changed: dict[Cell, int] = {}
        self._after: dict[tuple[bool, int], dict[tuple[int, int], tuple[Clue, Colours]]] = {}
        """Per line, the clue (and colours) after one of its cells takes a colour: each step
        weighs the same changes again, and a step changes one row and one column."""

    def colour_cost(self, row: int, column: int, colour: int) -> float:
        """How far from the picture the cell is with `colour`, in units of a full-contrast change."""
        return self._cost(row, column, colour) / self._unit

    def move_cost(self, move: Move) -> float:
        """What making `move` costs: the picture moved (negative when back toward it) and the
        shape (a speck or a hole costs SPECK more)."""
        r, c, k = move
        cost = self.colour_cost(r, c, k) - self.colour_cost(r, c, self.cells[r][c])
        if k != self.start[r][c] and k not in self.neighbours(r, c):
            cost += SPECK
        return cost

    def neighbours(self, row: int, column: int) -> list[int]:
        """The colours of a cell's four neighbours (outside the grid, the blank)."""
        cells = self.cells
        return [
            cells[i][j] if 0 <= i < self.height and 0 <= j < self.width else 0
            for i, j in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
        ]

    def moves(self, rows: set[int], columns: set[int]) -> list[Move]:
        """The changes worth weighing: in the given (open) rows and columns, each cell may take
        the colours of its neighbours or the blank (in black and white, flip); anywhere, a
        changed cell may take its colour back. A colour's last cell is never taken away."""
        found = []
        black_and_white = self.colour_count == 1
        for r in range(self.height):
            row_open = r in rows
            for c in range(self.width):
                own = self.cells[r][c]
                if own and self._left[own] <= 1:
                    continue
                back = self.start[r][c]
                if not (row_open or c in columns):
                    if own != back:
                        found.append((r, c, back))
                    continue
                if black_and_white:
                    found.append((r, c, 1 - own))
                    continue
                for k in sorted({0, back, *self.neighbours(r, c)} - {own}):
                    found.append((r, c, k))
        return found

    def _line_after(self, is_row: bool, index: int, at: int, colour: int) -> tuple[Clue, Colours]:
        """A line's clue and block colours after its cell `at` takes `colour`."""
        known = self._after.setdefault((is_row, index), {})
        found = known.get((at, colour))
        if found is None:
            line = list(self.cells[index]) if is_row else [row[index] for row in self.cells]
            line[at] = colour
            found = (clue_of(line), ()) if self.colour_count == 1 else runs_of(line)
            known[(at, colour)] = found
        return found

    def clues_after(self, move: Move) -> tuple[Clue, Clue]:
        """The clues of the move's row and column after it (black and white)."""
        r, c, k = move
        return self._line_after(True, r, c, k)[0], self._line_after(False, c, r, k)[0]

    def painted_after(self, move: Move) -> tuple[Clue, Colours, Clue, Colours]:
        """The clues and block colours of the move's row and column after it (in black and white
        each block's colour 1), as the compiled core's colour functions take them."""
        r, c, k = move
        row, row_colours = self._line_after(True, r, c, k)
        column, column_colours = self._line_after(False, c, r, k)
        if self.colour_count == 1:
            row_colours, column_colours = (1,) * len(row), (1,) * len(column)
        return row, row_colours, column, column_colours

    def edited(self, move: Move) -> Puzzle:
        """The puzzle the picture makes after `move`: only its row's and column's clues change
        (no goal: this is for line logic)."""
        r, c, k = move
        old = self.puzzle
        # the clues are already in normal form: a copy without the checks of a new Puzzle
        puzzle = Puzzle.__new__(Puzzle)
        fields = puzzle.__dict__
        fields.update(old.__dict__)
        row, row_colours = self._line_after(True, r, c, k)
        column, column_colours = self._line_after(False, c, r, k)
        fields["rows"] = old.rows[:r] + (row,) + old.rows[r + 1 :]
        fields["columns"] = old.columns[:c] + (column,) + old.columns[c + 1 :]
        if self.colour_count > 1:
            rows, columns = old.row_colours or (), old.column_colours or ()
            fields["row_colours"] = rows[:r] + (row_colours,) + rows[r + 1 :]
            fields["column_colours"] = columns[:c] + (column_colours,) + columns[c + 1 :]
        fields["goal"] = None
        return puzzle

    def apply(self, move: Move) -> None:
        """Make `move`."""
        r, c, k = move
        puzzle = self.edited(move)
        self._left[self.cells[r][c]] -= 1
        self._left[k] += 1
        self.cells[r][c] = k
        if k == self.start[r][c]:
            self._changed.pop((r, c), None)
        else:
            self._changed[(r, c)] = k
        self.puzzle = puzzle
        self._after.pop((True, r), None)
        self._after.pop((False, c), None)

    def grid(self) -> Grid:
        return tuple(tuple(row) for row in self.cells)

    def changed(self) -> list[Cell]:
        """The cells whose colour differs from the start, row by row."""
        return sorted(self._changed)

    def changes(self) -> dict[Cell, int]:
        """The changed cells and their colours now."""
        return dict(self._changed)

    def distance(self) -> float:
        """How far the picture has moved: the colour cost of every changed cell, summed (a
        full-contrast change counts 1)."""
        return sum(self.colour_cost(r, c, self.cells[r][c]) for r, c in self.changed())

    def freedom_now(self, is_row: bool, index: int) -> float:
        """The log of how many ways a line's clue can be placed in an empty line: the fewer, the
        nearer line logic is to a deduction there."""
        puzzle = self.puzzle
        clue: Clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        colours = puzzle.colours_of(is_row, index) if self.colour_count > 1 else None
        return freedom(clue, colours, self.width if is_row else self.height)

    def freedom_after(self, is_row: bool, index: int, at: int, colour: int) -> float:
        """`freedom_now` of a line after its cell `at` takes `colour`."""
        clue, colours = self._line_after(is_row, index, at, colour)
        return freedom(clue, colours if self.colour_count > 1 else None, self.width if is_row else self.height)


@lru_cache(maxsize=1 << 14)
def freedom(clue: Clue, colours: Colours | None, length: int) -> float:
    """The log of the number of placements of a clue's blocks in an empty line of `length`."""
    if not clue:
        return 0.0
    slack = length - clue_span(clue, colours)
    blocks = len(clue)
    return math.lgamma(slack + blocks + 1) - math.lgamma(slack + 1) - math.lgamma(blocks + 1)
