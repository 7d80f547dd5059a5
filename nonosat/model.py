"""The puzzle's own vocabulary: clues, lines, cells, grids, puzzles and solutions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from nonosat.basics import printable
from nonosat.errors import ImpossiblePuzzle, InvalidPuzzle
from nonosat.limits import grid_size_problem

Clue = tuple[int, ...]
"""The block lengths of one line, in order; `()` is an empty line."""

Row = tuple[int, ...]
"""One row of a grid: 1 for a filled cell, 0 for an empty one."""

Grid = tuple[Row, ...]
"""A complete picture, row by row (row 0 is the top row)."""

Cell = tuple[int, int]
"""A cell as (row, column), counted from 0."""


TEXT_FIELDS = ("title", "author", "copyright", "license", "catalogue")


def line_name(kind: str, index: int) -> str:
    """Name a line as people count it: `line_name("row", 0)` is "row 1"."""
    return f"{kind} {index + 1}"


class Line:
    """A row or a column of the grid, by its index from 0: `Line("row", 2)` is "row 3".

    A plain class rather than a dataclass: it is made at every start of the command line, and a
    frozen dataclass costs most of a millisecond to create."""

    __slots__ = ("kind", "index")

    kind: str
    """"row" or "column"."""
    index: int

    def __init__(self, kind: str, index: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Line cannot be changed (its {name})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and (self.kind, self.index) == (other.kind, other.index)

    def __hash__(self) -> int:
        return hash((self.kind, self.index))

    def __repr__(self) -> str:
        return f"Line({self.kind!r}, {self.index})"

    def __reduce__(self) -> tuple[type[Line], tuple[str, int]]:
        return Line, (self.kind, self.index)

    @classmethod
    def of(cls, is_row: bool, index: int) -> Line:
        return cls("row" if is_row else "column", index)

    @property
    def is_row(self) -> bool:
        return self.kind == "row"

    @property
    def name(self) -> str:
        """As people count lines: "row 3"."""
        return line_name(self.kind, self.index)

    def __str__(self) -> str:
        return self.name

    def clue_in(self, puzzle: Puzzle) -> Clue:
        return puzzle.rows[self.index] if self.is_row else puzzle.columns[self.index]

    def length_in(self, puzzle: Puzzle) -> int:
        return puzzle.width if self.is_row else puzzle.height


def clue_text(clue: Clue) -> str:
    """Write a clue the way puzzles print it: "3 1 2", or "0" for an empty line."""
    return " ".join(map(str, clue)) if clue else "0"


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


def clue_span(clue: Clue) -> int:
    """The fewest cells a clue needs: its blocks plus one gap between each pair."""
    return sum(clue) + len(clue) - 1 if clue else 0


def _normalise_clue(numbers: Iterable[object], kind: str, index: int) -> Clue:
    """Check that a clue holds whole numbers >= 0 and drop zeros (a lone 0 is an empty line)."""
    clue: list[int] = []
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int):
            raise InvalidPuzzle(f"{line_name(kind, index)}: {number!r} is not a whole number")
        if number < 0:
            raise InvalidPuzzle(f"{line_name(kind, index)}: {number} is negative")
        if number:
            clue.append(number)
    return tuple(clue)


def _normalise_grid(grid: Iterable[Iterable[object]]) -> Grid:
    return tuple(tuple(1 if cell else 0 for cell in row) for row in grid)


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: a clue per row (top to bottom) and per column (left to right)."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    license: str | None = None
    catalogue: str | None = None
    goal: Grid | None = None
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        too_large = grid_size_problem(len(self.columns), len(self.rows))
        if too_large is not None:
            raise InvalidPuzzle(too_large)
        rows = tuple(_normalise_clue(c, "row", i) for i, c in enumerate(self.rows))
        columns = tuple(_normalise_clue(c, "column", i) for i, c in enumerate(self.columns))
        if not rows or not columns:
            raise InvalidPuzzle("a puzzle needs at least one row and one column")
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "columns", columns)
        for name in TEXT_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, printable(value))
        if self.goal is not None:
            goal = _normalise_grid(self.goal)
            if len(goal) != len(rows) or any(len(r) != len(columns) for r in goal):
                raise InvalidPuzzle(f"the goal must be {len(rows)} row(s) of {len(columns)} cell(s)")
            object.__setattr__(self, "goal", goal)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def name(self) -> str:
        """A short name for messages: the title, else the source (made printable), else the size."""
        return self.title or (printable(self.source) if self.source else None) or f"{self.width}x{self.height} puzzle"

    def problems(self) -> list[str]:
        """What makes this puzzle plainly impossible, found without search (empty if nothing)."""
        found: list[str] = []
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.columns, self.height)):
            for index, clue in enumerate(clues):
                if clue_span(clue) > length:
                    found.append(
                        f"{line_name(kind, index)}: clue {clue_text(clue)} needs "
                        f"{clue_span(clue)} cells but the line has {length}"
                    )
        row_total = sum(map(sum, self.rows))
        column_total = sum(map(sum, self.columns))
        if row_total != column_total:
            found.append(f"the row clues fill {row_total} cells but the column clues fill {column_total}")
        return found

    def ensure_possible(self) -> None:
        """Raise `ImpossiblePuzzle` naming every line that plainly cannot be satisfied."""
        found = self.problems()
        if found:
            raise ImpossiblePuzzle(found, self.source)

    def satisfied_by(self, grid: Grid) -> bool:
        """Whether a grid meets every row and column clue of this puzzle."""
        return not self.violations(grid)

    def violations(self, grid: Grid) -> list[str]:
        """The lines whose clue a grid does not meet, named as people count them."""
        if len(grid) != self.height or any(len(row) != self.width for row in grid):
            return [f"the grid is not {self.height} rows of {self.width} cells"]
        wrong = [line_name("row", r) for r, clue in enumerate(self.rows) if clue_of(grid[r]) != clue]
        wrong += [
            line_name("column", c) for c, clue in enumerate(self.columns) if clue_of([row[c] for row in grid]) != clue
        ]
        return wrong

    @classmethod
    def from_grid(cls, grid: Iterable[Iterable[object]], **metadata: object) -> Puzzle:
        """The puzzle whose clues a picture satisfies, with that picture as its goal."""
        cells = _normalise_grid(grid)
        rows = tuple(clue_of(row) for row in cells)
        columns = tuple(clue_of(column) for column in zip(*cells, strict=True))
        return cls(rows=rows, columns=columns, goal=cells, **metadata)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Solution:
    """A grid that satisfies a puzzle's clues."""

    grid: Grid

    def differences(self, other: Solution) -> list[tuple[int, int]]:
        """The (row, column) cells, counted from 0, where two solutions differ."""
        return [
            (r, c)
            for r, (mine, theirs) in enumerate(zip(self.grid, other.grid, strict=True))
            for c, (a, b) in enumerate(zip(mine, theirs, strict=True))
            if a != b
        ]

    def text(self, filled: str = "#", empty: str = ".") -> str:
        """The grid as lines of characters, one per row."""
        return "\n".join("".join(filled if cell else empty for cell in row) for row in self.grid)
