"""The dfs engine: the compiled core's depth-first search, with line logic at every node.

Black and white up to 126x126 (`nonosat/core/dfs.c`): at each node every open cell is probed
both ways with line logic; a value that leads to a contradiction gives the other, until no probe
fixes anything (a probe's result is kept while the board has not changed on its lines:
tests/test_probe_records.py). Then it guesses the cell whose probes fixed the most, and
backtracks on a dead end; restarts take other ways of choosing. It decides about 85% of random
tournament puzzles within 200 guesses, but the conflict-driven search is faster on whole sets.
The generator asks it first (`generate.repair`): the pairs of solutions it finds steer the repair
best. With a second core, the same search on the puzzle upside down races it
(`compiled_search.raced`).

Every other puzzle, colour or over 126 cells a side (`nonosat/core/colour_search.c`): the open
cell with the fewest colours left takes each of them in turn, line logic after each, without
probing and without a race.
"""

from __future__ import annotations

from nonosat.model import Grid
from nonosat.solver.compiled import colour_core, core_for
from nonosat.solver.compiled_lines import painted
from nonosat.solver.compiled_search import raced
from nonosat.solver.engines import Found, Request


def search(request: Request) -> Found:
    """The grids of the board line logic left open, by the depth-first search (within
    `request.guesses` guesses, when given; its count: the guesses made)."""
    if core_for(request.board.puzzle) is not None:
        return raced("dfs", request)
    return search_painted(request)


class _Flag:
    """A stop flag the core's search reads, registered with `interrupts` while it runs."""

    def __init__(self) -> None:
        self.flag = bytearray(1)

    def stop(self) -> None:
        self.flag[0] = 1


def search_painted(request: Request) -> Found:
    """The depth-first search of core/colour_search.c, for any palette and size: `complete`
    when the grids found are all there are (fewer than `request.count`)."""
    from nonosat import interrupts

    core = colour_core()
    assert core is not None, "engines.takes lets dfs take such a puzzle only where the core is built"
    board, deadline = request.board, request.deadline
    puzzle = board.puzzle
    row_colours, col_colours, row_not, col_not = painted(board)
    remaining = deadline.remaining()
    if remaining is not None and remaining <= 0:
        return Found([], False, "time limit reached while searching")
    flag = _Flag()
    interrupts.running(flag)
    try:
        ended, found, nodes = core.search_colours(
            puzzle.rows,
            row_colours,
            puzzle.columns,
            col_colours,
            row_not,
            col_not,
            request.count,
            request.guesses or 0,
            remaining or 0.0,
            flag.flag,
        )
    finally:
        interrupts.finished(flag)
    width = board.width
    grids: list[Grid] = [tuple(tuple(data[r * width : (r + 1) * width]) for r in range(board.height)) for data in found]
    cut = None
    if not ended:
        out_of_guesses = request.guesses and not deadline.passed() and not flag.flag[0]
        cut = (
            f"the depth-first search made its {request.guesses} guesses"
            if out_of_guesses
            else "time limit reached while searching"
        )
    return Found(grids, bool(ended) and len(grids) < request.count, cut, {"guesses": int(nodes)})
