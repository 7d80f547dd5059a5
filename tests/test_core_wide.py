"""The compiled core's wide build (nonosat._core_wide: the same C files with CORE_WIDE,
a line's cells in one 128-bit word, lines of up to 126 cells) against the Python line logic, the
narrow build, and its own depth-first search (which learns nothing)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_marks import needs_core
from test_cdcl import meets_clues, unpacked
from test_core_line_logic import python_settle, random_line

from nonosat import Puzzle, solve
from nonosat.solver import Status, compiled
from nonosat.solver.line_logic import Contradiction
from nonosat.solver.propagation import Board, line_solve, propagate

wide = pytest.importorskip("nonosat._core_wide")
narrow = pytest.importorskip("nonosat._core")


def random_puzzle(rng: random.Random, height: int, width: int, density: float) -> Puzzle:
    return Puzzle.from_grid([[int(rng.random() < density) for _ in range(width)] for _ in range(height)])


def views(board: Board) -> tuple[list[int], list[int], list[int], list[int]]:
    return board.row_filled, board.row_empty, board.col_filled, board.col_empty


def test_the_builds_and_their_sides() -> None:
    assert (narrow.MAX_SIDE, wide.MAX_SIDE) == (compiled.MAX_SIDE, compiled.WIDE_SIDE) == (64, 126)
    tall = Puzzle(rows=((1,),) * 100, columns=((100,),))
    assert compiled.core_for(Puzzle(rows=((1,),), columns=((1,),))) is compiled.core
    assert compiled.core_for(tall) is compiled.wide_core
    assert compiled.core_for(Puzzle(rows=((1,),) * 127, columns=((127,),))) is None


def test_settle_matches_settle_line_on_random_lines_up_to_126_cells() -> None:
    rng = random.Random(126)
    contradictions = long_lines = 0
    for _ in range(3000):
        clue, length, filled, empty = random_line(rng, 126)
        expected = python_settle(clue, length, filled, empty)
        contradictions += expected is None
        long_lines += length > 64
        assert wide.settle(clue, length, filled, empty) == expected, (clue, length, filled, empty)
        if length <= 64:
            assert narrow.settle(clue, length, filled, empty) == expected
    assert contradictions > 50 and long_lines > 1000


def test_settle_decides_full_126_cell_lines() -> None:
    full = (1 << 126) - 1
    assert wide.settle((126,), 126, 0, 0) == (full, 0)
    alternate = sum(1 << i for i in range(0, 125, 2))
    assert wide.settle((1,) * 63, 125, 0, 0) == (alternate, alternate ^ ((1 << 125) - 1))
    assert wide.settle((62, 63), 126, 0, 0) == (full ^ (1 << 62), 1 << 62)  # 128 automaton states
    assert wide.settle((1,) * 63, 126, 0, 0) == (0, 0) == python_settle((1,) * 63, 126, 0, 0)
    assert wide.settle((1,) * 64, 126, 0, 0) is None
    assert wide.settle((127,), 126, 0, 0) is None
    assert wide.settle((), 126, 0, 0) == (0, full)
    assert wide.settle((), 126, 1 << 125, 0) is None


def test_settle_refuses_bad_input() -> None:
    bad = [
        ((1,), 127, 0, 0),
        ((1,), 126, 1 << 126, 0),
        ((1,), 100, 0, 1 << 100),
        ((1,), 70, -1, 0),
        ((1,), 126, 0, -(1 << 70)),
        ((1,), 126, 1 << 128, 0),
        ((1,), 126, 0, 1 << 200),
        ((1,), 70, 1 << 69, 1 << 69),
        ((0,), 70, 0, 0),
    ]
    for args in bad:
        with pytest.raises(ValueError):
            wide.settle(*args)


def test_masks_come_back_bit_for_bit() -> None:
    """A board's masks go over to C and back (through their bytes) unchanged, at the bits where a
    64-bit word ends and the last of 126."""
    rng = random.Random(64)
    side = 126
    puzzle = random_puzzle(rng, side, side, 0.5)
    edges = [0, 1, (1 << 63), (1 << 64), (1 << 64) - 1, (1 << 65) - 1, (1 << 125), (1 << 126) - 1]
    masks = [[rng.choice(edges) | rng.getrandbits(side) for _ in range(side)] for _ in range(2)]
    filled = [mask & ~(1 << 5) for mask in masks[0]]
    empty = [mask & ~filled_mask for mask, filled_mask in zip(masks[1], filled, strict=True)]
    passes, bad, *back = wide.propagate(puzzle.rows, puzzle.columns, filled, empty, filled, empty, [])
    assert (passes, bad) == (0, None)
    assert back == [filled, empty, filled, empty]
    assert any(mask >> 64 for mask in filled) and any(mask < 1 << 64 for mask in empty)


def test_propagate_matches_python_on_wide_random_puzzles() -> None:
    """The same passes, the same line in contradiction, the same masks as propagation in Python."""
    rng = random.Random(7)
    outcomes = set()
    for height, width in [(8, 100), (100, 8), (20, 70), (126, 5), (3, 126), (66, 66)] * 5:
        puzzle = random_puzzle(rng, height, width, rng.choice((0.5, 0.65, 0.8)))
        if rng.random() < 0.3:  # another puzzle's columns: mostly a contradiction
            puzzle = Puzzle(rows=puzzle.rows, columns=random_puzzle(rng, height, width, 0.7).columns)
        start = Board(puzzle)
        lines = [(True, r) for r in range(height)] + [(False, c) for c in range(width)]
        passes, bad, *masks = wide.propagate(puzzle.rows, puzzle.columns, *views(start), lines)
        board = start.copy()
        try:
            propagate(board, lines, compiled=False)
            expected_bad = None
        except Contradiction as error:
            expected_bad = error.line
        assert (passes, bad) == (board.passes, expected_bad)
        if bad is None:
            assert masks == list(views(board))
            outcomes.add("solved" if board.is_complete() else "stuck")
        else:
            outcomes.add("contradiction")
    assert outcomes == {"solved", "stuck", "contradiction"}


def test_both_builds_search_alike_where_both_fit() -> None:
    """The same code on other words: the same grids, guesses and conflicts on grids up to 64."""
    rng = random.Random(64)
    conflicts = 0
    for _ in range(60):
        puzzle = random_puzzle(rng, rng.randint(12, 20), rng.randint(12, 20), rng.choice((0.35, 0.4)))
        board = line_solve(puzzle)
        for name in ("search", "cdcl"):
            ours: Any = getattr(wide, name)(puzzle.rows, puzzle.columns, *views(board), 2, 0, 0.0)
            theirs: Any = getattr(narrow, name)(puzzle.rows, puzzle.columns, *views(board), 2, 0, 0.0)
            grids = unpacked(wide, ours[1], puzzle.height)  # 16 bytes a row here, 8 there
            assert grids == unpacked(narrow, theirs[1], puzzle.height) and len(grids) in (1, 2)
            assert (ours[0], ours[2]) == (theirs[0], theirs[2]), (name, puzzle.rows)
        conflicts += ours[2]["conflicts"]
    assert conflicts > 1000


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("shrink", [True, False])
def test_cdcl_counts_agree_with_sat_on_wide_puzzles(shrink: bool) -> None:
    """Up to 2 solutions of 40 random puzzles with a side over 64 (the first 20 with the weaker
    clauses of shrink=False, which take 5 times the conflicts): the conflict-driven search and
    MiniSat on the CNF (`solve` without the wide core) agree on the count; every grid meets the
    clues, and a unique one is the grid the clues came from."""
    rng = random.Random(2027)
    counts, conflicts = set(), 0
    for _ in range(40 if shrink else 20):
        height, width = rng.choice(((8, 80), (80, 8), (12, 70), (70, 12)))
        density = rng.choice((0.45, 0.5))
        grid = tuple(tuple(int(rng.random() < density) for _ in range(width)) for _ in range(height))
        puzzle = Puzzle.from_grid(grid)
        board = line_solve(puzzle)
        complete, packed, stats = wide.cdcl(puzzle.rows, puzzle.columns, *views(board), 2, 0, 0.0, shrink)
        grids = unpacked(wide, packed, puzzle.height)
        by_sat = solve(puzzle, count=2, jobs=1, engine="sat")
        assert by_sat.method.value in ("line", "sat") and complete and len(grids) == len(by_sat.solutions), puzzle.rows
        assert all(meets_clues(puzzle, rows) for rows in grids) and len(set(grids)) == len(grids)
        if len(grids) == 1:
            assert grids[0] == tuple(sum(v << c for c, v in enumerate(row)) for row in grid)
            assert by_sat.solutions[0].grid == grid
        counts.add(len(grids))
        conflicts += stats["conflicts"]
    assert counts == {1, 2} and conflicts > 10000


@needs_core
def test_solve_takes_a_wide_puzzle_to_the_conflict_driven_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 12x80 puzzle line logic leaves open: the wide core decides it (method cdcl); without
    it the search for any palette and size does (method cdcl, core/paint_*.c), and without
    either SAT does, with the same verdict."""
    rng = random.Random(80)
    puzzle = next(p for p in (random_puzzle(rng, 12, 80, 0.45) for _ in range(50)) if not line_solve(p).is_complete())
    by_core = solve(puzzle, jobs=1)
    assert by_core.method.value == "cdcl" and by_core.status in (Status.UNIQUE, Status.MULTIPLE)
    monkeypatch.setattr(compiled, "wide_core", None)
    by_paint = solve(puzzle, jobs=1)
    assert by_paint.method.value == "cdcl" and by_paint.status is by_core.status
    monkeypatch.setattr(compiled, "core", None)
    by_sat = solve(puzzle, jobs=1)
    assert by_sat.method.value == "sat" and by_sat.status is by_core.status
    for other in (by_paint, by_sat):
        assert other.solutions[0].grid in {s.grid for s in by_core.solutions} or by_core.status is Status.MULTIPLE
