"""The board: what is known of a partly solved grid, for every colour (0 the background) and
every row and column, the mask of the cells that cannot have that colour. Line logic over the
grid (`propagation`) narrows it; the engines search what it leaves open."""

from __future__ import annotations

from operator import or_

from nonosat.model import Grid, Puzzle
from nonosat.solver.line_logic import Contradiction

__all__ = ["Board", "settled_cells", "solved_board"]


class Board:
    """A partly solved grid: for every colour (0 the background) and every row and column, the
    mask of cells that cannot have that colour. In black and white, colour 0's masks are the
    cells known filled and colour 1's those known empty (`row_filled`, `row_empty`)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.height = puzzle.height
        self.width = puzzle.width
        self.colours = puzzle.colour_count
        self.row_not = [[0] * self.height for _ in range(self.colours + 1)]
        self.col_not = [[0] * self.width for _ in range(self.colours + 1)]
        self.passes = 0

    @property
    def row_filled(self) -> list[int]:
        """Per row, the cells known not blank."""
        return self.row_not[0]

    @property
    def col_filled(self) -> list[int]:
        return self.col_not[0]

    @property
    def row_empty(self) -> list[int]:
        """Per row, the cells known blank (every colour ruled out); read-only in colour."""
        return self.row_not[1] if self.colours == 1 else _all_of(self.row_not[1:])

    @property
    def col_empty(self) -> list[int]:
        return self.col_not[1] if self.colours == 1 else _all_of(self.col_not[1:])

    def masks(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """The board as the compiled core's searches take it (black and white): rows filled, rows
        empty, columns filled, columns empty (bit i of a mask is cell i)."""
        return self.row_not[0], self.row_not[1], self.col_not[0], self.col_not[1]

    def copy(self) -> Board:
        """An independent copy, for trying a guess."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.row_not = [list(masks) for masks in self.row_not]
        other.col_not = [list(masks) for masks in self.col_not]
        return other

    def excluded(self, is_row: bool, index: int) -> tuple[int, ...]:
        """For each colour, the cells of one line that cannot have it."""
        return tuple(masks[index] for masks in (self.row_not if is_row else self.col_not))

    def known(self, is_row: bool, index: int) -> int:
        """The mask of a line's cells whose colour is known."""
        masks = self.row_not if is_row else self.col_not
        if self.colours == 1:
            return masks[0][index] | masks[1][index]
        return settled_cells(
            tuple(colour_masks[index] for colour_masks in masks), self.width if is_row else self.height
        )

    def cell(self, row: int, column: int) -> int | None:
        """The cell's colour if known (in black and white 1 filled, 0 empty), else None."""
        bit = 1 << column
        if self.colours == 1:
            if self.row_not[0][row] & bit:
                return 1
            if self.row_not[1][row] & bit:
                return 0
            return None
        possible = [c for c, masks in enumerate(self.row_not) if not masks[row] & bit]
        return possible[0] if len(possible) == 1 else None

    def possible(self, row: int, column: int) -> list[int]:
        """The colours a cell may still have."""
        bit = 1 << column
        return [c for c, masks in enumerate(self.row_not) if not masks[row] & bit]

    def unknown_count(self) -> int:
        """How many cells are not yet decided."""
        if self.colours == 1:
            known = sum(map(int.bit_count, map(or_, self.row_not[0], self.row_not[1])))  # C speed: repairs count often
            return self.width * self.height - known
        return sum(self.width - self.known(True, r).bit_count() for r in range(self.height))

    def is_complete(self) -> bool:
        return self.unknown_count() == 0

    def grid(self) -> Grid:
        """The picture so far, with unknown cells shown as empty (use when complete)."""
        if self.colours == 1:  # each row's mask as text, read right to left: C speed at 512x512
            width = f"0{self.width}b"
            return tuple(tuple(format(f, width)[::-1].encode().translate(_BITS)) for f in self.row_not[0])
        return tuple(self._colour_row(r) for r in range(self.height))

    def _colour_row(self, row: int) -> tuple[int, ...]:
        """A colour row of `grid`: each cell's colour where one is left, else 0; a colour's cells
        as text read right to left, as in black and white."""
        width, full = self.width, (1 << self.width) - 1
        allowed = [full & ~masks[row] for masks in self.row_not]
        one = many = 0
        for cells in allowed:
            many |= one & cells
            one |= cells
        settled, spelled, cells = one & ~many, f"0{width}b", 0
        for colour in range(1, self.colours + 1):
            if bits := allowed[colour] & settled:
                text = format(bits, spelled)[::-1].encode().translate(_COLOUR_BITS[colour])
                cells |= int.from_bytes(text, "little")
        return tuple(cells.to_bytes(width, "little"))

    def set_cell(self, row: int, column: int, value: int) -> None:
        """Fix one cell's colour (used for guesses); raises `Contradiction` if it was ruled out."""
        if self.row_not[value][row] >> column & 1:
            raise Contradiction
        for colour in range(self.colours + 1):
            if colour != value:
                self.exclude(row, column, colour)

    def exclude(self, row: int, column: int, colour: int) -> None:
        """Rule out one colour of one cell; raises `Contradiction` if it was the last one left."""
        self.row_not[colour][row] |= 1 << column
        self.col_not[colour][column] |= 1 << row
        if not self.possible(row, column):
            raise Contradiction


_BITS = bytes.maketrans(b"01", b"\x00\x01")
"""The characters of a binary number as the values 0 and 1."""
_COLOUR_BITS = [bytes.maketrans(b"01", bytes((0, colour))) for colour in range(64)]
"""For each colour, the characters of a binary number as the values 0 and the colour."""


def solved_board(puzzle: Puzzle, grid: Grid) -> Board:
    """The board of a finished grid: every cell's colour known."""
    board = Board(puzzle)
    for colour in range(board.colours + 1):
        for r, row in enumerate(grid):
            board.row_not[colour][r] = sum(1 << c for c, value in enumerate(row) if value != colour)
        for c in range(board.width):
            board.col_not[colour][c] = sum(1 << r for r, row in enumerate(grid) if row[c] != colour)
    return board


def settled_cells(excluded: tuple[int, ...], length: int) -> int:
    """The mask of a line's cells with one colour left, from each colour's mask of the cells
    that cannot have it."""
    one = two = 0
    for masks in excluded:
        possible = ~masks
        two |= one & possible
        one |= possible
    return ((1 << length) - 1) & ~two


def _all_of(masks: list[list[int]]) -> list[int]:
    """Per line, the cells set in every one of the colours' masks."""
    found = list(masks[0])
    for colour_masks in masks[1:]:
        found = [a & b for a, b in zip(found, colour_masks, strict=True)]
    return found
