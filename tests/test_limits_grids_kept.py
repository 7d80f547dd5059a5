"""The grids a search keeps: past 126 cells a side it holds its limit of cells and keeps to the
deadline; no more grids are kept than can be written by the deadline, and only where all are
written out (JSON); the time kept back for making and writing them grows with their cells."""

from __future__ import annotations

import pytest

from nonosat import Puzzle, solve
from nonosat.deadline import Deadline
from nonosat.limits import MAX_COUNT
from nonosat.solver import Status


@pytest.mark.slow
def test_a_search_over_126_cells_a_side_holds_its_limit_of_cells_and_keeps_to_the_deadline() -> None:
    """A review: a million solutions asked of a 200x200 puzzle (a 1 in each line: every
    permutation matrix) took the compiled search 2.4 GB, and `--timeout 10` ended at 14.5 s,
    making and writing all it held. It keeps MOST_HELD_CELLS' worth and says "at least"."""
    from nonosat.limits import MOST_HELD_CELLS
    from nonosat.solver.compiled import colour_core

    if colour_core() is None:
        pytest.skip("the compiled core was not built")
    side = 200
    puzzle = Puzzle(rows=((1,),) * side, columns=((1,),) * side)
    kept = MOST_HELD_CELLS // (side * side)
    for engine in ("dfs", "cdcl"):
        result = solve(puzzle, count=MAX_COUNT, engine=engine, jobs=1, timeout=20)
        assert result.status is Status.MULTIPLE and not result.complete, engine
        assert len({solution.grid for solution in result.solutions}) == len(result.solutions) == kept, engine
    assert len(solve(puzzle, count=kept - 1, engine="dfs", jobs=1).solutions) == kept - 1
    # The diff's review: a first cap of 2M cells cut a 33x33 colour puzzle's 2,048 solutions (eleven
    # 2x2 squares, each either way) to "at least 1,925"; they are counted exactly.
    eleven = 11
    side = 3 * eleven

    def line(i: int) -> str:
        return f"{side}b" if i % 3 == 2 else ",".join("1r,1b" if j == i // 3 else "1b" for j in range(eleven))

    clues = "\n".join(line(i) for i in range(side))
    text = f"width {side}\nheight {side}\ncolor r #d62728\ncolor b #1f77b4\n\nrows\n{clues}\n\ncolumns\n{clues}\n"
    from nonosat.formats import load_bytes

    squares = load_bytes(text.encode(), "squares.non")
    for engine in ("cdcl", "dfs", "sat"):
        counted = solve(squares, count=5000, engine=engine, jobs=1)
        assert counted.complete and len(counted.solutions) == 2**eleven, engine


def test_no_more_grids_are_kept_than_can_be_written_by_the_deadline() -> None:
    """The diff's review: 209 grids of 200x200 found by 1.6 s of `--timeout 2.5` were written
    out as JSON by 2.8 s. A search keeps what can be written by the deadline (two at least)."""
    from nonosat.solver.outcome import verified_within

    side = 130  # over 126 cells a side
    puzzle = Puzzle(rows=((1,),) * side, columns=((1,),) * side)
    grids = [solution.grid for solution in solve(puzzle, count=20, engine="dfs", jobs=1).solutions]
    assert len(grids) == 20
    everything, complete = verified_within(puzzle, grids, Deadline(None))
    assert complete and len(everything) == 20
    two, complete = verified_within(puzzle, grids, Deadline(None), Deadline.after(0.0))
    assert not complete and [solution.grid for solution in two] == grids[:2]
    small = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6, title="6x6, over 126 cells a side it is not")
    assert len(solve(small, count=1000, engine="dfs").solutions) == 720  # black and white in words: all


def test_the_time_kept_for_making_and_writing_grids_grows_with_their_cells() -> None:
    """The search of a 200x200 puzzle asked for 52 grids keeps back 64 times as long as one of a
    25x25 (HAND_OVER_EACH is for a 25x25 grid), up to HAND_OVER_MOST."""
    from nonosat.solver import drive
    from nonosat.solver.outcome import HAND_OVER_EACH, HAND_OVER_MOST

    kept: list[float] = []

    class Kept(Exception):
        pass

    def leaving(self: Deadline, share: float, most: float) -> tuple[Deadline, Deadline]:
        kept.append(most)
        raise Kept  # the search need not run

    for side in (25, 200):
        puzzle = Puzzle(rows=((1,),) * side, columns=((1,),) * side)
        with pytest.MonkeyPatch.context() as patch, pytest.raises(Kept):
            patch.setattr(Deadline, "leaving", leaving)
            drive.solve(puzzle, count=52, engine="dfs", jobs=1, timeout=30)
    assert kept == [pytest.approx(52 * HAND_OVER_EACH), pytest.approx(min(HAND_OVER_MOST, 52 * 64 * HAND_OVER_EACH))]


def test_only_grids_that_are_all_written_out_are_kept_to_what_can_be_written() -> None:
    """The review of the mend: the cap on grids that can be written by the deadline was applied
    to the library, the text view and batch too, which write none or one: a 200x200 colour
    puzzle's 128 solutions became "at least 49" with half the time left. Only JSON's caller
    (`written`) keeps no more than it can write; here writing a cell is made to take a second."""
    from nonosat.solver import drive, outcome

    side = 130  # over 126 cells a side; a 1 in each of the first five rows and columns: 5! grids
    clues = tuple((1,) if i < 5 else () for i in range(side))
    puzzle = Puzzle(rows=clues, columns=clues)
    every = drive.solve_within(puzzle, Deadline.after(60), count=1000, engine="dfs", jobs=1)
    assert every.complete and len(every.solutions) == 120
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outcome, "WRITING_A_CELL", 1.0)
        kept = drive.solve_within(puzzle, Deadline.after(60), count=1000, engine="dfs", jobs=1)
        assert kept.complete and len(kept.solutions) == 120  # not written: all counted
        written = drive.solve_within(puzzle, Deadline.after(60), count=1000, engine="dfs", jobs=1, written=True)
        assert not written.complete and len(written.solutions) == 2 and written.status is Status.MULTIPLE
