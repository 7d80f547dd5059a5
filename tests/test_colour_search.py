"""The depth-first search for any palette and size (nonosat/core/colour_search.c, the dfs engine
on puzzles the black-and-white core does not take) against brute force on small colour grids,
against the SAT engine on larger ones, and within its guesses and time."""

from __future__ import annotations

import random

import pytest
from colour_grids import PALETTES, every_solution, grid_of

from nonosat import Puzzle, solve
from nonosat.solver import Status, check
from nonosat.solver.compiled import colour_core

pytestmark = pytest.mark.skipif(colour_core() is None, reason="the compiled core was not built")


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("palette", [1, 2, 3])
def test_every_solution_of_small_colour_grids_as_brute_force_finds_them(palette: int) -> None:
    rng = random.Random(palette)
    several = 0
    for height, width in [(3, 4), (4, 4), (4, 5), (5, 5)]:
        for _ in range(8):
            puzzle = Puzzle.from_grid(grid_of(rng, height, width, palette, 0.5), palette=PALETTES[palette])
            expected = every_solution(puzzle)
            found = solve(puzzle, engine="dfs", count=len(expected) + 1)
            assert found.complete and {s.grid for s in found.solutions} == expected
            several += len(expected) > 1
    assert several >= 2  # not only puzzles with one solution


def test_the_dfs_and_sat_engines_find_the_same_solutions_of_random_colour_grids() -> None:
    rng = random.Random(11)
    compared = 0
    for palette, side, fill in [(2, 8, 0.5), (3, 8, 0.6), (2, 10, 0.7), (3, 12, 0.6), (1, 9, 0.5)]:
        for _ in range(4):
            grid = grid_of(rng, side, side + 1, palette, fill)
            puzzle = Puzzle.from_grid(grid, palette=PALETTES[palette])
            ours = solve(puzzle, engine="dfs", count=11, timeout=20)
            theirs = solve(puzzle, engine="sat", count=11, timeout=20)
            assert ours.status == theirs.status and grid in {s.grid for s in ours.solutions}
            if theirs.complete and ours.complete:
                assert {s.grid for s in ours.solutions} == {s.grid for s in theirs.solutions}
                compared += 1
    assert compared >= 10


@pytest.mark.slow
def test_grids_over_126_cells_a_side_are_searched() -> None:
    """Black and white of 130x127 (past the word-sized core) and colour of 127x127."""
    rng = random.Random(130)
    for palette, height, width in [(1, 127, 130), (2, 127, 127)]:
        grid = grid_of(rng, height, width, palette, 0.75)
        puzzle = Puzzle.from_grid(grid, palette=PALETTES[palette])
        verdict = check(puzzle, engine="dfs", timeout=60).result
        assert verdict.method in ("dfs", "line") and verdict.status in (Status.UNIQUE, Status.MULTIPLE)
        assert grid in {s.grid for s in verdict.solutions} or verdict.status is Status.MULTIPLE


@pytest.mark.slow
def test_the_search_stops_at_its_guesses_and_its_deadline_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat import limits
    from nonosat.deadline import Deadline
    from nonosat.solver.engines import Engine, Request, search
    from nonosat.solver.propagation import line_solve

    grid = grid_of(random.Random(5), 24, 24, 3, 0.45)  # random noise: many solutions
    puzzle = Puzzle.from_grid(grid, palette=PALETTES[3])
    board = line_solve(puzzle)
    counted = search(Engine.DFS, Request(board, 1000, Deadline.after(30), guesses=5))
    assert not counted.complete and counted.stats["guesses"] == 5
    assert counted.cut_short == "the depth-first search made its 5 guesses"
    late = search(Engine.DFS, Request(board, 1000, Deadline.after(1e-9)))
    assert not late.complete and late.cut_short == "time limit reached while searching"
    monkeypatch.setattr(limits, "MOST_HELD_CELLS", 2**40)  # the deadline before the grids it holds
    timed = search(Engine.DFS, Request(board, 10**9, Deadline.after(0.2)))
    assert not timed.complete and timed.cut_short == "time limit reached while searching" and timed.grids
    assert all(puzzle.satisfied_by(found) for found in timed.grids[:50])


def test_auto_answers_colour_noise_by_the_conflict_driven_search_as_the_others_do() -> None:
    """Random colour noise the depth-first search needs hundreds of guesses for: `auto` is the
    conflict-driven search (core/paint_*.c), and it finds what the dfs and SAT engines find."""
    from bench.colour_set import noise_puzzle

    noise = noise_puzzle(30, 30, 2, 3)
    by_auto = check(noise, jobs=1).result
    assert by_auto.method == "cdcl" and by_auto.stats["conflicts"] > 0
    for engine in ("dfs", "sat"):
        other = check(noise, engine=engine, jobs=1).result
        assert other.method == engine and other.status is by_auto.status is Status.MULTIPLE
