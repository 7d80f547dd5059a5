"""The depth-first search for any palette and size (nonosat/core/colour_search.c, the dfs engine
on puzzles the black-and-white core does not take) against brute force on small colour grids,
against the SAT engine on larger ones, and within its guesses and time."""

from __future__ import annotations

import random
from itertools import product

import pytest

from nonosat import Puzzle, solve
from nonosat.model import Grid, runs_of
from nonosat.palette import BLACK_AND_WHITE, Colour, Palette
from nonosat.solver import Status, check
from nonosat.solver.compiled import colour_core

pytestmark = pytest.mark.skipif(colour_core() is None, reason="the compiled core was not built")

RED, GREEN = Colour("red", "#ff0000", "r"), Colour("green", "#00ff00", "g")
PALETTES: dict[int, Palette] = {1: BLACK_AND_WHITE, 2: (*BLACK_AND_WHITE, RED), 3: (*BLACK_AND_WHITE, RED, GREEN)}


def grid_of(rng: random.Random, height: int, width: int, palette: int, fill: float) -> Grid:
    return tuple(
        tuple(rng.randint(1, palette) if rng.random() < fill else 0 for _ in range(width)) for _ in range(height)
    )


def every_solution(puzzle: Puzzle) -> set[Grid]:
    """Every grid that meets the puzzle's clues: each row one of the lines its own clue allows
    (all lines of the width, filtered), then the columns checked."""
    values = range(puzzle.colour_count + 1)
    rows = []
    for r in range(puzzle.height):
        wanted = (puzzle.rows[r], puzzle.colours_of(True, r))
        rows.append([line for line in product(values, repeat=puzzle.width) if runs_of(line) == wanted])
    return {grid for grid in product(*rows) if puzzle.satisfied_by(grid)}


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


def test_the_search_stops_at_its_guesses_and_its_deadline_and_says_so() -> None:
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
    timed = search(Engine.DFS, Request(board, 10**9, Deadline.after(0.2)))
    assert not timed.complete and timed.cut_short == "time limit reached while searching" and timed.grids
    assert all(puzzle.satisfied_by(found) for found in timed.grids[:50])


def test_auto_gives_the_search_its_guesses_then_hands_over_to_the_sat_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random colour noise the depth-first search needs 573 guesses for: `auto` answers by the
    SAT engine after the search's AUTO_GUESSES (200); given more guesses, the search answers,
    with the same verdict (a puzzle decided within them is the search's: test_engines.py)."""
    from bench.colour_set import noise_puzzle
    from nonosat.solver import engines

    noise = noise_puzzle(30, 30, 2, 3)
    by_dfs = check(noise, engine="dfs", jobs=1).result
    assert by_dfs.method == "dfs" and by_dfs.stats["guesses"] > engines.AUTO_GUESSES
    handed_over = check(noise, jobs=1).result
    assert handed_over.method == "sat" and handed_over.status is by_dfs.status is Status.MULTIPLE
    monkeypatch.setattr(engines, "AUTO_GUESSES", 10_000)
    kept = check(noise, jobs=1).result
    assert kept.method == "dfs" and kept.status is Status.MULTIPLE
