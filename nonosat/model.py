"""The puzzle's own vocabulary: clues, lines, cells, grids, puzzles and solutions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from nonosat.arguments import check_grid
from nonosat.clues import (
    Clue,
    Colours,
    clue_of,
    clue_span,
    clue_text,
    line_name,
    normalise_clue,
    normalise_colours,
    normalise_grid,
    runs_of,
)
from nonosat.errors import ImpossiblePuzzle, InvalidPuzzle, UsageError
from nonosat.limits import grid_size_problem
from nonosat.palette import BLACK_AND_WHITE, Palette, check_palette, grid_chars, is_black_and_white
from nonosat.text import counted, printable

__all__ = [
    "Cell",
    "Clue",
    "Colours",
    "Grid",
    "Line",
    "Puzzle",
    "Row",
    "Solution",
    "clue_of",
    "clue_span",
    "clue_text",
    "line_name",
    "runs_of",
]

Row = tuple[int, ...]
"""One row of a grid: each cell's colour, 0 for an empty (background) cell; 1 is filled in black
and white."""

Grid = tuple[Row, ...]
"""A complete picture, row by row (row 0 is the top row)."""

Cell = tuple[int, int]
"""A cell as (row, column), counted from 0."""


TEXT_FIELDS = ("title", "author", "copyright", "license", "catalogue", "description")


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


_BLACK_AND_WHITE_CELLS = frozenset((0, 1))
"""The values a black-and-white grid's cells may take."""


def _check_shapes(puzzle: Puzzle) -> None:
    """Refuse (InvalidPuzzle) fields of the wrong shape before they are read (a None or a number
    there was a TypeError from deep inside): rows and columns, the colour lists, the goal and the
    palette must be collections (any iterable but text: a list, a tuple, a NumPy array, a
    generator, taken as a tuple here), and each line's clue, colours or cells one too."""
    what = {"rows": "row", "columns": "column", "row_colours": "row", "column_colours": "column", "goal": "goal row"}
    for name, each in what.items():
        value = getattr(puzzle, name)
        if value is None and name not in ("rows", "columns"):
            continue
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise InvalidPuzzle(f"{name}: expected a list, not {type(value).__name__}")
        value = tuple(value)
        object.__setattr__(puzzle, name, value)
        for index, item in enumerate(value):
            if not isinstance(item, Iterable):
                raise InvalidPuzzle(f"{line_name(each, index)}: expected a list, not {type(item).__name__}")
    if isinstance(puzzle.palette, str) or not isinstance(puzzle.palette, Iterable):
        raise InvalidPuzzle(f"palette: expected a list of colours, not {type(puzzle.palette).__name__}")


@dataclass(frozen=True)
class Puzzle:
    """A nonogram: a clue per row (top to bottom) and per column (left to right).

    In colour, `palette` holds the background and the colours, and `row_colours` and
    `column_colours` the colour of each block, side by side with the clues. Black and white is the
    one-colour case: the palette is white and black, and the colours are None (every block is
    colour 1)."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    license: str | None = None
    catalogue: str | None = None
    goal: Grid | None = None
    source: str | None = field(default=None, compare=False)
    goal_problem: str | None = field(default=None, compare=False)
    """Why the file's goal could not be read ("line 12: expected a goal of 30 cells (6x5), found
    29"): the puzzle is read without it, and `check` reports it as a goal that breaks the clues."""
    palette: Palette = BLACK_AND_WHITE
    row_colours: tuple[Colours, ...] | None = None
    column_colours: tuple[Colours, ...] | None = None
    description: str | None = None
    """What the picture is, as webpbn's XML says it (`<description>Pill bottles</description>`)."""

    def __post_init__(self) -> None:
        _check_shapes(self)
        too_large = grid_size_problem(len(self.columns), len(self.rows))
        if too_large is not None:
            raise InvalidPuzzle(too_large)
        palette = tuple(self.palette)
        check_palette(palette)
        if is_black_and_white(palette):
            palette = BLACK_AND_WHITE
        object.__setattr__(self, "palette", palette)
        count = len(palette) - 1
        if count > 1 and (self.row_colours is None) != (self.column_colours is None):
            given, missing = ("row", "column") if self.column_colours is None else ("column", "row")
            raise InvalidPuzzle(  # each block of the other side was taken as colour 1 in silence (a review)
                f"{given} colours given without {missing} colours: a colour puzzle needs both"
                " (or neither: every block colour 1)"
            )
        for kind, name, colours_name in (("row", "rows", "row_colours"), ("column", "columns", "column_colours")):
            clues = getattr(self, name)
            colours = getattr(self, colours_name)
            if colours is None:
                clues = tuple(normalise_clue(c, kind, i) for i, c in enumerate(clues))
                if count > 1:
                    colours = tuple((1,) * len(clue) for clue in clues)
            else:
                if len(colours) != len(clues):
                    raise InvalidPuzzle(f"{len(clues)} {name} but {len(colours)} {kind} colour lists")
                pairs = [
                    normalise_colours(c, k, kind, i, count) for i, (c, k) in enumerate(zip(clues, colours, strict=True))
                ]
                clues = tuple(p[0] for p in pairs)
                colours = tuple(p[1] for p in pairs)
                if count == 1:
                    colours = None
            object.__setattr__(self, name, clues)
            object.__setattr__(self, colours_name, colours)
        if not self.rows or not self.columns:
            raise InvalidPuzzle("a puzzle needs at least one row and one column")
        for name in TEXT_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, printable(value))
            elif value is not None:  # `catalogue=12` was taken, and writing the puzzle failed
                raise InvalidPuzzle(f"{name} is text or None, not {type(value).__name__}")
        if self.goal is not None:
            goal = normalise_grid(self.goal, count)
            if len(goal) != len(self.rows) or any(len(r) != len(self.columns) for r in goal):
                raise InvalidPuzzle(f"the goal must be {len(self.rows)} row(s) of {len(self.columns)} cell(s)")
            object.__setattr__(self, "goal", goal)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def colour_count(self) -> int:
        """How many colours blocks can have: 1 in black and white."""
        return len(self.palette) - 1

    @property
    def is_colour(self) -> bool:
        """Whether this is anything but black on white."""
        return self.palette != BLACK_AND_WHITE  # by value: an unpickled puzzle holds a copy

    def colours_of(self, is_row: bool, index: int) -> Colours:
        """The colour of each block of a line's clue (all 1 in black and white)."""
        colours = self.row_colours if is_row else self.column_colours
        if colours is None:
            return (1,) * len(self.rows[index] if is_row else self.columns[index])
        return colours[index]

    def line_colours(self, is_row: bool) -> tuple[Colours, ...] | None:
        """Every row's (or column's) block colours; None in black and white."""
        return self.row_colours if is_row else self.column_colours

    def clue_text(self, is_row: bool, index: int) -> str:
        """A line's clue as people write it ("3 1", or "3red 1blue" in colour)."""
        clue = self.rows[index] if is_row else self.columns[index]
        if not self.is_colour:
            return clue_text(clue)
        return clue_text(clue, self.colours_of(is_row, index), self.palette)

    @property
    def name(self) -> str:
        """A short name for messages: the title, else the source (made printable), else the size."""
        return self.title or (printable(self.source) if self.source else None) or f"{self.width}x{self.height} puzzle"

    def overfull_lines(self) -> list[tuple[bool, int]]:
        """The lines, as (is_row, index), whose clue needs more cells than the line has."""
        found: list[tuple[bool, int]] = []
        for is_row, clues, length in ((True, self.rows, self.width), (False, self.columns, self.height)):
            all_colours = self.line_colours(is_row)
            for index, clue in enumerate(clues):
                if clue_span(clue, None if all_colours is None else all_colours[index]) > length:
                    found.append((is_row, index))
        return found

    def problems(self) -> list[str]:
        """What makes this puzzle plainly impossible, found without search (empty if nothing)."""
        found: list[str] = []
        for is_row, index in self.overfull_lines():
            clue, length = (self.rows[index], self.width) if is_row else (self.columns[index], self.height)
            all_colours = self.line_colours(is_row)
            colours = None if all_colours is None else all_colours[index]
            text = clue_text(clue, colours, self.palette)
            name, span = line_name("row" if is_row else "column", index), clue_span(clue, colours)
            found.append(f"{name}: clue {text} needs {span} cells but the line has {length}")
        row_totals, column_totals = self.totals(True), self.totals(False)
        for colour in range(1, len(self.palette)):
            row_total, column_total = row_totals.get(colour, 0), column_totals.get(colour, 0)
            if row_total != column_total:
                noun = f"{self.palette[colour].name} cell" if self.is_colour else "cell"
                rows_fill = f"the row clues fill {counted(row_total, noun)} but the column clues fill "
                found.append(rows_fill + (counted(column_total, noun) if self.is_colour else str(column_total)))
        return found

    def totals(self, is_row: bool) -> dict[int, int]:
        """How many cells the rows' (or columns') clues fill in each colour."""
        clues = self.rows if is_row else self.columns
        colours = self.line_colours(is_row)
        if colours is None:
            return {1: sum(map(sum, clues))}
        totals: dict[int, int] = {}
        for clue, cs in zip(clues, colours, strict=True):
            for size, c in zip(clue, cs, strict=True):
                totals[c] = totals.get(c, 0) + size
        return totals

    def ensure_possible(self) -> None:
        """Raise `ImpossiblePuzzle` naming every line that plainly cannot be satisfied."""
        found = self.problems()
        if found:
            raise ImpossiblePuzzle(found, self.source)

    def goal_fits(self) -> bool | None:
        """Whether the file's goal satisfies the clues: None without a goal, False when the goal
        could not be read (`goal_problem`)."""
        if self.goal_problem is not None:
            return False
        return None if self.goal is None else self.satisfied_by(self.goal)

    def satisfied_by(self, grid: Grid) -> bool:
        """Whether a grid meets every row and column clue of this puzzle."""
        return not self.violations(grid)

    def violations(self, grid: Grid) -> list[str]:
        """The lines whose clue a grid does not meet, named as people count them."""
        if len(grid) != self.height or any(len(row) != self.width for row in grid):
            return [f"the grid is not {self.height} rows of {self.width} cells"]
        if self.row_colours is None or self.column_colours is None:
            if not all(_BLACK_AND_WHITE_CELLS.issuperset(row) for row in grid):
                return ["the grid holds a colour that is not in the palette"]
            wrong = [line_name("row", r) for r, clue in enumerate(self.rows) if clue_of(grid[r]) != clue]
            return wrong + [
                line_name("column", c)
                for c, (clue, column) in enumerate(zip(self.columns, zip(*grid, strict=True), strict=True))
                if clue_of(column) != clue
            ]
        wrong = [
            line_name("row", r) for r, clue in enumerate(self.rows) if runs_of(grid[r]) != (clue, self.row_colours[r])
        ]
        return wrong + [
            line_name("column", c)
            for c, (clue, column) in enumerate(zip(self.columns, zip(*grid, strict=True), strict=True))
            if runs_of(column) != (clue, self.column_colours[c])
        ]

    @classmethod
    def from_grid(
        cls, grid: Iterable[Iterable[object]], palette: Palette = BLACK_AND_WHITE, **metadata: object
    ) -> Puzzle:
        """The puzzle whose clues a picture satisfies, that picture its goal (cells index `palette`, 0 blank)."""
        if isinstance(grid, str | bytes) or not isinstance(grid, Iterable):
            raise InvalidPuzzle(f"grid: expected a list of rows, not {type(grid).__name__}")
        check_palette(palette)
        grid = tuple(grid)
        for index, row in enumerate(grid):
            if isinstance(row, str | bytes) or not isinstance(row, Iterable):
                raise InvalidPuzzle(f"grid: {line_name('goal row', index)}: expected a list, not {type(row).__name__}")
        cells = normalise_grid(grid, len(palette) - 1)
        if not cells or len({len(row) for row in cells}) != 1 or not cells[0]:
            raise InvalidPuzzle("grid: expected rows of cells, all as long, at least one of at least one cell")
        if len(palette) <= 2:
            rows = tuple(clue_of(row) for row in cells)
            columns = tuple(clue_of(column) for column in zip(*cells, strict=True))
            return cls(rows=rows, columns=columns, goal=cells, palette=palette, **metadata)  # type: ignore[arg-type]
        row_runs = [runs_of(row) for row in cells]
        column_runs = [runs_of(column) for column in zip(*cells, strict=True)]
        return cls(
            rows=tuple(r[0] for r in row_runs),
            columns=tuple(c[0] for c in column_runs),
            row_colours=tuple(r[1] for r in row_runs),
            column_colours=tuple(c[1] for c in column_runs),
            goal=cells,
            palette=palette,
            **metadata,  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class Solution:
    """A grid that satisfies a puzzle's clues."""

    grid: Grid

    def __post_init__(self) -> None:
        check_grid(self.grid, "a Solution's grid")

    def differences(self, other: Solution) -> list[tuple[int, int]]:
        """The (row, column) cells, counted from 0, where two solutions differ."""
        if not isinstance(other, Solution) or list(map(len, other.grid)) != list(map(len, self.grid)):  # a review
            raise UsageError(f"differences compares with another Solution of the same size, not {other!r:.60}")
        return [
            (r, c)
            for r, (mine, theirs) in enumerate(zip(self.grid, other.grid, strict=True))
            for c, (a, b) in enumerate(zip(mine, theirs, strict=True))
            if a != b
        ]

    def text(self, filled: str = "#", empty: str = ".", palette: Palette | None = None) -> str:
        """The grid as lines of characters, one per row: in colour, each colour's character (the
        puzzle's `palette`; without it, a colour grid's cells are their colours' numbers, 1-9, a-z,
        A-Z and @ for the 62nd, never all `filled` alike)."""
        if palette is not None and palette != BLACK_AND_WHITE:
            chars = grid_chars(palette, max((cell for row in self.grid for cell in row), default=0))
            return "\n".join("".join(chars[cell] for cell in row) for row in self.grid)
        if any(cell > 1 for row in self.grid for cell in row):
            if palette is not None:  # black and white's: a review found 1s and 2s drawn
                raise UsageError("palette is black and white, but the grid is in colour: give the puzzle's palette")
            numbers = empty + "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@"
            return "\n".join("".join(numbers[cell] for cell in row) for row in self.grid)
        return "\n".join("".join(filled if cell else empty for cell in row) for row in self.grid)
