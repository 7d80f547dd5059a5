"""A compiled search asked for many grids stops in time to hand them over: each grid it keeps
brings its deadline sooner by what Python takes to make it a grid, check it and write it out
(`outcome.handing_over`). A review: LalaFrogKK's `solve --count 100000 --timeout 6` kept 56,927
grids, made them grids up to the search's deadline, had time to check 655 of them, and ended at
6.9 s; a count of 20,000 gave 20,000."""

from __future__ import annotations

import pytest

import nonosat.solver.compiled_search as compiled_search
from nonosat.deadline import Deadline
from nonosat.model import Grid, Puzzle
from nonosat.palette import BLACK_AND_WHITE, Colour
from nonosat.solver.compiled import colour_core, core_for
from nonosat.solver.propagation import line_solve

RED = (*BLACK_AND_WHITE[:1], Colour("red", "#ff0000", "r"))


def permutations(side: int, colour: bool) -> Puzzle:
    """One cell a row and a column: side! solutions, each found by a few steps."""
    ones = ((1,),) * side
    if not colour:
        return Puzzle(rows=ones, columns=ones)
    reds = ((1,),) * side
    return Puzzle(rows=ones, columns=ones, palette=RED, row_colours=reds, column_colours=reds)


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("engine", ["cdcl", "dfs"])
def test_each_grid_kept_brings_the_searchs_end_sooner(
    monkeypatch: pytest.MonkeyPatch, engine: str, colour: bool
) -> None:
    puzzle = permutations(9, colour)  # 362,880 solutions
    if (core_for(puzzle) if not colour else colour_core()) is None:
        pytest.skip("the compiled core is not built")
    board = line_solve(puzzle)
    found: list[Grid] = []
    assert compiled_search.CoreSearch(board, engine, Deadline.after(1000)).run(20_000, found) is False
    assert len(found) == 20_000  # (handing over 20,000 grids takes seconds, not 1,000)
    monkeypatch.setattr(compiled_search, "handing_over", lambda *args, **kwargs: 1000.0)  # each grid: all the time
    found.clear()
    assert compiled_search.CoreSearch(board, engine, Deadline.after(1000)).run(20_000, found) is None  # out of time
    assert 1 <= len(found) < 20_000  # the first grid kept, then those found until the core next looked
