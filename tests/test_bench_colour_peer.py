"""The colour CP-SAT peer (bench/peer_cpsat_colour.py) against brute force, against the black-and-
white peer, and on the generated colour set (bench/colour_set.py)."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from pathlib import Path

import pytest

pytest.importorskip("ortools")

from bench.colour_set import COLOURS, colour_puzzle, colour_set, main, palette_of  # noqa: E402
from bench.peer_cpsat import clue_automaton, peer_check  # noqa: E402
from bench.peer_cpsat_colour import (  # noqa: E402
    accepts,
    colour_automaton,
    colour_peer_check,
    peer_times,
    summary,
    verdict,
)
from nonosat.model import Grid, Puzzle, runs_of  # noqa: E402

Signature = tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]
"""Every row's and every column's (sizes, colours)."""


def signature(grid: Grid) -> Signature:
    return tuple(runs_of(row) for row in grid), tuple(runs_of(column) for column in zip(*grid, strict=True))


def puzzle_of(key: Signature, colours: int) -> Puzzle:
    rows, columns = key
    return Puzzle(
        rows=tuple(r[0] for r in rows),
        columns=tuple(c[0] for c in columns),
        row_colours=tuple(r[1] for r in rows),
        column_colours=tuple(c[1] for c in columns),
        palette=palette_of(colours),
    )


def brute_force(puzzle: Puzzle) -> set[Grid]:
    """Every solution, by trying every grid whose rows meet their clues: each row ranges over all
    (K+1)^width lines that give its clue, and a grid counts when its columns give theirs."""
    top = puzzle.colour_count
    lines = list(itertools.product(range(top + 1), repeat=puzzle.width))
    choices = [
        [line for line in lines if runs_of(line) == (puzzle.rows[r], puzzle.colours_of(True, r))]
        for r in range(puzzle.height)
    ]
    return {grid for grid in itertools.product(*choices) if puzzle.satisfied_by(grid)}


def check_against(puzzle: Puzzle, solutions: set[Grid]) -> None:
    """The peer's verdict, and with a count one past the brute force, every solution."""
    result = colour_peer_check(puzzle)
    assert result.status == verdict(len(solutions))
    assert set(result.solutions) <= solutions
    counted = colour_peer_check(puzzle, count=max(2, len(solutions) + 1))
    assert counted.status == verdict(len(solutions))
    assert len(counted.solutions) == len(solutions)
    assert set(counted.solutions) == solutions


# The automaton, by itself


@pytest.mark.parametrize(("length", "colours"), [(4, 3), (5, 2), (6, 1)])
def test_automaton_accepts_exactly_the_lines_of_its_clue(length: int, colours: int) -> None:
    lines = [line for n in range(length + 1) for line in itertools.product(range(colours + 1), repeat=n)]
    clues = {runs_of(line) for line in lines} | {((length + 1,), (1,)), ((1, 1), (1, 1))}
    for clue, clue_colours in clues:
        automaton = colour_automaton(clue, clue_colours)
        for line in lines:
            assert accepts(automaton, line) == (runs_of(line) == (clue, clue_colours)), (clue, clue_colours, line)


def test_same_colours_need_a_gap_and_different_colours_may_touch() -> None:
    assert accepts(colour_automaton((1, 1), (1, 2)), (1, 2))
    assert not accepts(colour_automaton((1, 1), (1, 1)), (1, 1))
    assert accepts(colour_automaton((1, 1), (1, 1)), (1, 0, 1))
    assert accepts(colour_automaton((2, 1), (2, 1)), (0, 2, 2, 0, 0, 1))
    assert accepts(colour_automaton((), ()), (0, 0)) and not accepts(colour_automaton((), ()), (0, 2))


def test_black_and_white_automaton_is_the_black_and_white_peers() -> None:
    for clue in [(), (1,), (3,), (1, 1), (2, 1, 3)]:
        assert colour_automaton(clue, (1,) * len(clue)) == clue_automaton(clue)


# Against brute force


@pytest.mark.slow
def test_3x3_two_colour_puzzles_match_brute_force_over_every_grid() -> None:
    """All 3^9 = 19,683 grids of 3x3 in two colours, grouped by their clues: each group is every
    solution of its puzzle (18,833 puzzles: 18,027 unique, 778 with 2 solutions, 28 with 3 to 6).
    The peer must find them all, on every puzzle with 3 or more solutions and on a fixed sample of
    40 with 2 and 40 with 1."""
    groups: dict[Signature, set[Grid]] = defaultdict(set)
    for cells in itertools.product(range(3), repeat=9):
        grid = (cells[0:3], cells[3:6], cells[6:9])
        groups[signature(grid)].add(grid)
    by_count: dict[int, list[Signature]] = defaultdict(list)
    for key in sorted(groups):
        by_count[min(len(groups[key]), 3)].append(key)
    assert (len(by_count[1]), len(by_count[2]), len(by_count[3])) == (18027, 778, 28)
    rng = random.Random(16)
    for key in by_count[3] + rng.sample(by_count[2], 40) + rng.sample(by_count[1], 40):
        puzzle = puzzle_of(key, 2)
        assert brute_force(puzzle) == groups[key]
        check_against(puzzle, groups[key])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "height", "colours"), [(3, 3, 2), (4, 4, 2), (4, 3, 3), (3, 4, 3), (5, 4, 1), (4, 4, 3)]
)
def test_random_tiny_puzzles_match_brute_force(width: int, height: int, colours: int) -> None:
    """Random grids, and puzzles whose columns come from another grid (mostly without a solution)."""
    rng = random.Random(f"{width}x{height}k{colours}")
    found = set()
    for _ in range(12):
        grids = [tuple(tuple(rng.randint(0, colours) for _ in range(width)) for _ in range(height)) for _ in range(2)]
        for rows_from, columns_from in ((0, 0), (0, 1)):
            key = (signature(grids[rows_from])[0], signature(grids[columns_from])[1])
            puzzle = puzzle_of(key, colours)
            solutions = brute_force(puzzle)
            check_against(puzzle, solutions)
            found.add(verdict(len(solutions)))
    assert found >= {"unique", "none"}


def test_viceres_built_by_hand_has_four_solutions() -> None:
    """Olšák's viceres.g ("of course it has 4 different solutions"): rows and columns alternate 1
    blue and 1 black."""
    blue, black = 1, 2
    clues = ((1,),) * 4
    colours = ((blue,), (black,), (blue,), (black,))
    palette = (COLOURS[0], COLOURS[3], COLOURS[1])
    puzzle = Puzzle(rows=clues, columns=clues, row_colours=colours, column_colours=colours, palette=palette)
    solutions = brute_force(puzzle)
    assert len(solutions) == 4
    check_against(puzzle, solutions)


def test_viceres_from_the_corpus(corpus: Path) -> None:
    from nonosat import load

    puzzle = load(corpus / "colour" / "olsak-grid" / "viceres.g")  # read since issue 37 (a skip hid a regression)
    assert puzzle.colour_count == 2
    result = colour_peer_check(puzzle, count=5)
    assert result.status == "multiple"
    assert len(set(result.solutions)) == 4


# Black and white through the colour peer


def test_black_and_white_agrees_with_the_black_and_white_peer() -> None:
    rng = random.Random(1)
    puzzles = [Puzzle.from_grid([[rng.random() < 0.55 for _ in range(8)] for _ in range(8)]) for _ in range(20)]
    root = Path(__file__).resolve().parent.parent
    from nonosat import load

    puzzles += [load(root / "puzzles" / name) for name in ("knot-25.non", "ring.non")]
    statuses = set()
    for puzzle in puzzles:
        ours, theirs = colour_peer_check(puzzle), peer_check(puzzle)
        assert ours.status == theirs.status
        if ours.status == "unique":
            assert ours.solutions == theirs.solutions
        statuses.add(ours.status)
    assert statuses == {"unique", "multiple"}


def test_a_timeout_of_zero_is_unknown() -> None:
    result = colour_peer_check(colour_puzzle(20, 20, 3), timeout=0)
    assert result.status == "unknown" and result.solutions == []


# The generated set


@pytest.mark.slow
def test_the_colour_set_is_fixed_and_as_described() -> None:
    puzzles = colour_set()
    assert len(puzzles) == 25
    assert [(p.width, p.colour_count) for p in puzzles] == [(s, k) for s in (20, 30, 40, 50, 60) for k in range(2, 7)]
    assert puzzles[:5] == colour_set(sizes=(20,))
    assert colour_puzzle(30, 30, 4, seed=1).goal != colour_puzzle(30, 30, 4, seed=0).goal
    for puzzle in puzzles:
        assert puzzle.goal is not None and puzzle.satisfied_by(puzzle.goal)
        assert 20 <= puzzle.width == puzzle.height <= 60
        assert 2 <= puzzle.colour_count <= 6 and puzzle.is_colour
        cells = [cell for row in puzzle.goal for cell in row]
        assert set(cells) == set(range(puzzle.colour_count + 1))
        assert 0.25 <= cells.count(0) / len(cells) <= 0.65
        rgbs = [colour.rgb for colour in puzzle.palette]
        assert len(set(rgbs)) == len(rgbs)


def test_the_peer_on_the_smallest_of_the_set() -> None:
    """Every verdict is decided; a unique one gives the goal (peer_times checks it)."""
    results = [result for _, result in peer_times(colour_set(sizes=(20, 30)), timeout=60)]
    assert all(r.status in ("unique", "multiple") for r in results)
    assert summary(results).startswith("10 puzzles (")


def test_the_command_prints_pictures_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sizes", "20", "--colours", "2", "--show"]) == 0
    assert capsys.readouterr().out.startswith("random colour 20x20 k2 seed 0\n")
    assert main(["--sizes", "20", "--colours", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("random colour 20x20 k3 seed 0: ") and lines[-1].startswith("1 puzzle (")
    assert main(["--colours", "7"]) == 2
