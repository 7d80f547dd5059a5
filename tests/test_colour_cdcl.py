"""The conflict-driven search for any palette and size (nonosat/core/paint_*.c, the cdcl engine on
puzzles the black-and-white core does not take): every solution of small colour grids as brute
force finds them, with every explanation checked by the line's automaton; the same solutions as
the SAT engine on larger ones; upside down in the race; grids over 126 cells a side; its budget,
deadline and stop flag."""

from __future__ import annotations

import random

import pytest
from colour_grids import PALETTES, every_solution, grid_of

from nonosat import Puzzle, solve
from nonosat.deadline import Deadline
from nonosat.model import Grid
from nonosat.solver import Status, check
from nonosat.solver.board import Board
from nonosat.solver.compiled import colour_core
from nonosat.solver.compiled_lines import painted
from nonosat.solver.compiled_search import CoreSearch
from nonosat.solver.outcome import Method
from nonosat.solver.propagation import line_solve

pytestmark = pytest.mark.skipif(colour_core() is None, reason="the compiled core was not built")


def cdcl_colours(
    puzzle: Puzzle, count: int, budget: int = 0, seconds: float = 0.0
) -> tuple[bool, set[bytes], dict[str, int]]:
    """The core's search from the empty board (no line logic first), every explanation checked."""
    core = colour_core()
    assert core is not None
    row_colours, col_colours, row_not, col_not = painted(Board(puzzle))
    clues = (puzzle.rows, row_colours, puzzle.columns, col_colours, row_not, col_not)
    complete, found, stats = core.cdcl_colours(*clues, count, budget, seconds, None, True)
    return complete, set(found), stats


def flat(grid: tuple[tuple[int, ...], ...]) -> bytes:
    return bytes(cell for row in grid for cell in row)


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("palette", [1, 2, 3])
def test_every_solution_of_small_colour_grids_as_brute_force_finds_them(palette: int) -> None:
    rng = random.Random(100 + palette)
    several = 0
    for height, width in [(3, 4), (4, 4), (4, 5), (5, 5)]:
        for _ in range(10):
            puzzle = Puzzle.from_grid(grid_of(rng, height, width, palette, 0.5), palette=PALETTES[palette])
            expected = {flat(grid) for grid in every_solution(puzzle)}
            complete, found, _ = cdcl_colours(puzzle, len(expected) + 1)
            assert complete and found == expected, puzzle.rows
            several += len(expected) > 1
    assert several >= 2  # not only puzzles with one solution


def test_the_cdcl_and_sat_engines_find_the_same_solutions_of_random_colour_grids() -> None:
    rng = random.Random(12)
    compared = explained = 0
    cases = [(2, 8, 0.5), (3, 8, 0.6), (2, 10, 0.7), (3, 12, 0.6), (1, 9, 0.5), (2, 14, 0.5), (2, 18, 0.5)]
    for palette, side, fill in cases:
        for _ in range(4):
            grid = grid_of(rng, side, side + 1, palette, fill)
            puzzle = Puzzle.from_grid(grid, palette=PALETTES[palette])
            complete, found, stats = cdcl_colours(puzzle, 11, seconds=20)
            explained += stats["explanations"]
            theirs = solve(puzzle, engine="sat", count=11, timeout=20)
            assert flat(grid) in found or len(found) == 11
            if complete and theirs.complete:
                assert found == {flat(s.grid) for s in theirs.solutions}
                compared += 1
    assert compared >= 15 and explained > 100  # explanations made, and each checked


def test_the_search_upside_down_finds_the_same_grids() -> None:
    """The race's rival: the puzzle with its rows in the other order, its grids turned back."""
    rng = random.Random(3)
    for palette in (1, 2, 3):
        puzzle = Puzzle.from_grid(grid_of(rng, 7, 9, palette, 0.55), palette=PALETTES[palette])
        board = line_solve(puzzle)
        ways = []
        for upside_down in (False, True):
            grids: list[Grid] = []
            ended = CoreSearch(board, "cdcl", upside_down=upside_down).run(50, grids)
            assert ended is True and all(puzzle.satisfied_by(grid) for grid in grids)
            ways.append(set(grids))
        assert ways[0] == ways[1] and len(ways[0]) >= 1


def test_a_cell_with_no_colour_left_has_no_solution_and_bad_arguments_are_refused() -> None:
    core = colour_core()
    assert core is not None
    puzzle = Puzzle.from_grid(((1, 0), (0, 1)))
    board = Board(puzzle)
    board.row_not[0][0] |= 1  # cell (0, 0): neither background
    board.row_not[1][0] |= 1  # nor black
    row_colours, col_colours, row_not, col_not = painted(board)
    clues = (puzzle.rows, row_colours, puzzle.columns, col_colours, row_not, col_not)
    assert core.cdcl_colours(*clues, 2, 0, 0.0)[:2] == (True, [])
    with pytest.raises(ValueError, match="max_solutions"):
        core.cdcl_colours(*clues, 0, 0, 0.0)
    with pytest.raises(ValueError, match="stop"):
        core.cdcl_colours(*clues, 2, 0, 0.0, bytearray(0))


@pytest.mark.slow
def test_the_search_stops_at_its_budget_its_deadline_and_its_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat import limits

    monkeypatch.setattr(limits, "MOST_HELD_CELLS", 2**40)  # the deadline before the grids it holds
    grid = grid_of(random.Random(5), 30, 30, 2, 0.5)  # noise: many solutions
    puzzle = Puzzle.from_grid(grid, palette=PALETTES[2])
    complete, found, stats = cdcl_colours(puzzle, 10**6, budget=20)
    assert not complete and stats["conflicts"] == 21  # the 21st is not learnt from
    board = line_solve(puzzle)
    search = CoreSearch(board, "cdcl", Deadline.after(0.2))
    grids: list[Grid] = []
    assert search.run(10**6, grids) is None and grids and all(puzzle.satisfied_by(g) for g in grids[:50])
    stopped = CoreSearch(board, "cdcl")
    stopped.stop()
    assert stopped.run(10**6, []) is None


@pytest.mark.slow
def test_grids_over_126_cells_a_side_are_decided_by_the_conflict_driven_search() -> None:
    """Black and white of 200x127 and colour of 130x130, past the word-sized core: cdcl decides
    them, as SAT does."""
    rng = random.Random(200)
    for palette, height, width in [(1, 127, 200), (2, 130, 130)]:
        grid = grid_of(rng, height, width, palette, 0.7)
        puzzle = Puzzle.from_grid(grid, palette=PALETTES[palette])
        verdict = check(puzzle, engine="cdcl", timeout=120).result
        assert verdict.method in ("cdcl", "line") and verdict.status in (Status.UNIQUE, Status.MULTIPLE)
        assert grid in {s.grid for s in verdict.solutions} or verdict.status is Status.MULTIPLE
        by_sat = check(puzzle, engine="sat", timeout=120).result
        assert by_sat.status is verdict.status


def picture_with_a_patch(side: int, palette: int, patch: int, seed: int) -> Grid:
    """Rectangles of random colours on a side x side grid (line logic settles most of it), with a
    patch x patch square of colour noise in the middle that only search decides."""
    rng = random.Random(seed)
    rows = [[0] * side for _ in range(side)]
    for _ in range(400):
        colour, x, y = rng.randint(0, palette), rng.randrange(side), rng.randrange(side)
        width, height = rng.randint(2, 60), rng.randint(2, 60)
        for r in range(y, min(side, y + height)):
            rows[r][x : x + width] = [colour] * len(rows[r][x : x + width])
    noise, middle = grid_of(rng, patch, patch, palette, 0.5), side // 2 - patch // 2
    for r in range(patch):
        rows[middle + r][middle : middle + patch] = noise[r]
    return tuple(tuple(row) for row in rows)


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("palette", [2, 3])
def test_a_512x512_colour_picture_is_decided_by_both_engines_and_they_agree(palette: int) -> None:
    grid = picture_with_a_patch(512, palette, 24, seed=palette)
    puzzle = Puzzle.from_grid(grid, palette=PALETTES[palette])
    verdicts = {engine: check(puzzle, engine=engine, jobs=1, timeout=120).result for engine in ("cdcl", "sat")}
    assert {v.method for v in verdicts.values()} == {Method.CDCL, Method.SAT}  # both searched
    statuses = {v.status for v in verdicts.values()}
    assert len(statuses) == 1 and statuses <= {Status.UNIQUE, Status.MULTIPLE}
    for verdict in verdicts.values():
        assert all(puzzle.satisfied_by(s.grid) for s in verdict.solutions)
        if verdict.status is Status.MULTIPLE:
            first, second = (s.grid for s in verdict.solutions)
            differ = [(r, c) for r in range(512) for c in range(512) if first[r][c] != second[r][c]]
            assert differ and all(244 <= r < 268 and 244 <= c < 268 for r, c in differ)  # inside the noise
        else:
            assert verdict.solutions[0].grid == grid
