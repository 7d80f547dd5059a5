"""Line logic over a whole grid in the compiled core, for `propagation.propagate`: the board's
masks go over to C and come back, the passes the same as in Python.

`propagate_compiled` takes black and white up to 126x126 (a line is a machine word: core/line_logic.c);
`propagate_painted` any palette and any size (a cell is its set of colours: core/colour_grid.c).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from nonosat.deadline import Deadline
from nonosat.errors import TimeUp
from nonosat.solver.line_logic import Contradiction

TYPE_CHECKING = False  # typing is not imported on the way to a check (ARCHITECTURE.md, Start-up)
if TYPE_CHECKING:
    from nonosat.model import Clue
    from nonosat.solver.board import Board

DEADLINE_PASSES = 32
"""Line passes between looks at the deadline in Python's loop (a pass over a 512-cell line takes
about 0.1 ms); a compiled propagation of that many passes or more looks once, after."""


def propagate_compiled(core: ModuleType, board: Board, lines: Sequence[tuple[bool, int]], deadline: Deadline) -> Board:
    """`propagate` in a compiled core (`compiled.core_for`). It takes a few milliseconds at
    most, and looks at the deadline after, as the Python loop would have every
    DEADLINE_PASSES passes: a short propagation finishes whatever the time."""
    puzzle, row_not, col_not = board.puzzle, board.row_not, board.col_not
    passes, bad, row_f, row_e, col_f, col_e = core.propagate(
        puzzle.rows, puzzle.columns, row_not[0], row_not[1], col_not[0], col_not[1], lines
    )
    board.passes += passes
    row_not[0][:], row_not[1][:], col_not[0][:], col_not[1][:] = row_f, row_e, col_f, col_e
    if passes >= DEADLINE_PASSES:
        deadline.check("running line logic")
    if bad is not None:
        raise Contradiction(bad)
    return board


def painted(board: Board) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[bytes], list[bytes]]:
    """The board as the core's colour functions take it (core/colour_grid.c): the blocks' colours
    of each row and column, and each colour's masks of the rows and of the columns as bytes."""
    puzzle, height, width = board.puzzle, board.height, board.width
    row_colours = [puzzle.colours_of(True, r) for r in range(height)]
    col_colours = [puzzle.colours_of(False, c) for c in range(width)]
    return row_colours, col_colours, _packed(board.row_not, width), _packed(board.col_not, height)


def painted_upside_down(
    board: Board,
) -> tuple[tuple[Clue, ...], list[tuple[int, ...]], tuple[Clue, ...], list[tuple[int, ...]], list[bytes], list[bytes]]:
    """The clues and the board as `painted` gives them, of the puzzle with its rows in the other
    order: the rows in reverse, each column's clue, colours and cells reversed."""
    puzzle, height, width = board.puzzle, board.height, board.width
    row_colours = [puzzle.colours_of(True, r) for r in reversed(range(height))]
    col_colours = [puzzle.colours_of(False, c)[::-1] for c in range(width)]

    def reversed_cells(mask: int) -> int:
        return int(format(mask & ((1 << height) - 1), f"0{height}b")[::-1], 2)

    row_not = _packed([masks[::-1] for masks in board.row_not], width)
    col_not = _packed([[reversed_cells(mask) for mask in masks] for masks in board.col_not], height)
    return puzzle.rows[::-1], row_colours, tuple(c[::-1] for c in puzzle.columns), col_colours, row_not, col_not


def _packed(masks_of_colours: list[list[int]], length: int) -> list[bytes]:
    size, full = (length + 7) // 8, (1 << length) - 1
    return [b"".join((mask & full).to_bytes(size, "little") for mask in masks) for masks in masks_of_colours]


def propagate_painted(core: ModuleType, board: Board, lines: Sequence[tuple[bool, int]], deadline: Deadline) -> Board:
    """`propagate` in the compiled core for any palette and size (`colour_core`): each colour's
    masks go over as bytes, a line's cells one after the other. It looks at the deadline and at
    Ctrl-C every 64 passes, without Python's lock while it works."""
    deadline.check("running line logic")
    puzzle, height, width = board.puzzle, board.height, board.width
    row_bytes, col_bytes = (width + 7) // 8, (height + 7) // 8

    def unpacked(data: bytes, count: int, size: int) -> list[int]:
        return [int.from_bytes(data[i * size : (i + 1) * size], "little") for i in range(count)]

    row_colours, col_colours, row_masks, col_masks = painted(board)
    remaining = deadline.remaining()
    passes, bad, stopped, row_not, col_not = core.propagate_colours(
        puzzle.rows,
        row_colours,
        puzzle.columns,
        col_colours,
        row_masks,
        col_masks,
        lines,
        0.0 if remaining is None else max(remaining, 1e-9),
    )
    board.passes += passes
    for colour, data in enumerate(row_not):
        board.row_not[colour][:] = unpacked(data, height, row_bytes)
    for colour, data in enumerate(col_not):
        board.col_not[colour][:] = unpacked(data, width, col_bytes)
    if stopped:
        raise TimeUp("running line logic")
    if bad is not None:
        raise Contradiction(bad)
    return board
