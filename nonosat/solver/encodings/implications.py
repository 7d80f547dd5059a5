"""Line implications: binary clauses, implied by one line's clue, that let unit propagation see
more of the line than the line's own encoding shows it.

For every cell a line's clue leaves open and each of its two values, line logic settles the
line again with the cell assumed (`line_logic.implied`). Every other open cell that this decides
gives a clause "if this cell has this value, that cell has that one": `-a | b`, where `a` and
`b` are the two cells' literals. Line logic is complete for one line, so `a -> b` is found
exactly when `-b -> -a` is: each clause is kept once, from the cell nearer the line's start.
Every clause holds in every completion of the line, so the grid's solutions are the same with
them or without them; the SAT solver only finds them sooner (bench/README.md, "Line
implications"). The specification is encodings/implications.md.

The compiled core does the same for lines of any length (`_core.implications`), with
probes that stop where their effect ends; the Python below is its fallback.
"""

from __future__ import annotations

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.model import Clue
from nonosat.solver.compiled import core
from nonosat.solver.encodings.base import Clause
from nonosat.solver.line_logic import implied
from nonosat.solver.propagation import Board

COMPILED_STEPS = 20_000_000
"""The most work the compiled core may put into one grid's implications, in cells stepped over
(times the 64-bit words of a state set): about a tenth of a second. Lines past it get none."""
PYTHON_PROBES = 20_000
"""The most assumptions a grid's implications may settle in Python (no compiled core): about a
second of work. Lines past it get none."""
COMPILED_LONGEST = 4096
"""The longest line the compiled core takes here."""


def _in_core(length: int) -> bool:
    return core is not None and length <= COMPILED_LONGEST


def line_implications(clue: Clue, length: int, filled: int, empty: int, first: int, step: int) -> list[Clause]:
    """The implication clauses of one line whose cell i is variable `first + i * step` (true:
    filled), given the cells known filled and empty (masks). Empty when the known cells admit no
    completion: the line's own encoding says so."""
    if _in_core(length):
        return _compiled(clue, length, filled, empty, first, step, COMPILED_STEPS)[0]
    return _python(clue, length, filled, empty, first, step)


def _compiled(
    clue: Clue, length: int, filled: int, empty: int, first: int, step: int, max_steps: int
) -> tuple[list[Clause], int]:
    """The compiled core's clauses and the steps they took."""
    assert core is not None
    size = (length + 7) // 8
    found = core.implications(
        tuple(clue), length, filled.to_bytes(size, "little"), empty.to_bytes(size, "little"), first, step, max_steps
    )
    return ([], 0) if found is None else found


def _python(clue: Clue, length: int, filled: int, empty: int, first: int, step: int) -> list[Clause]:
    cells = implied(clue, length, filled, empty)
    if cells is None:
        return []
    known = 0  # the cells the line decides alone: no clause names them
    for i, entry in enumerate(cells):
        known |= (entry is None) << i
    clauses: list[Clause] = []
    for i, entry in enumerate(cells):
        if entry is None:
            continue
        later = ~((2 << i) - 1) & ~known  # open cells after i: the ones before gave these clauses already
        variable = first + i * step
        for literal, now_filled, now_empty in ((variable, *entry[0:2]), (-variable, *entry[2:4])):
            for mask, sign in ((now_filled & later, 1), (now_empty & later, -1)):
                while mask:
                    low = mask & -mask
                    clauses.append([-literal, sign * (first + (low.bit_length() - 1) * step)])
                    mask ^= low
    return clauses


def grid_implications(board: Board, limit: int, deadline: Deadline = NO_DEADLINE) -> list[Clause]:
    """The implication clauses of every open line of a black-and-white board (rows, then
    columns; cell (r, c) is variable r * width + c + 1), stopping after the line that brings
    them to `limit` clauses, and when the work allowed (COMPILED_STEPS, PYTHON_PROBES) is spent."""
    puzzle = board.puzzle
    width, height = puzzle.width, puzzle.height
    lines = [
        (clue, width, board.row_filled[r], board.row_empty[r], r * width + 1, 1) for r, clue in enumerate(puzzle.rows)
    ]
    lines += [
        (clue, height, board.col_filled[c], board.col_empty[c], c + 1, width) for c, clue in enumerate(puzzle.columns)
    ]
    clauses: list[Clause] = []
    steps_left, probes_left = COMPILED_STEPS, PYTHON_PROBES
    for clue, length, filled, empty, first, step in lines:
        open_cells = length - (filled | empty).bit_count()
        if not open_cells:
            continue
        deadline.check("building the CNF")
        if _in_core(length):
            if steps_left <= 0:
                break
            found, steps = _compiled(clue, length, filled, empty, first, step, steps_left)
            steps_left -= steps
        else:
            probes_left -= 2 * open_cells
            if probes_left < 0:
                break
            found = _python(clue, length, filled, empty, first, step)
        clauses += found
        if len(clauses) >= limit:
            break
    return clauses
