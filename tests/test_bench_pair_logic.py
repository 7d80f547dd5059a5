"""bench/pair_logic.py: line logic over pairs of neighbouring lines, checked against brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.pair_logic import Cells, allowed_pairs, cells_of, known, main, pair_logic, settle_pair
from nonosat import Puzzle, solve
from nonosat.clues import clue_of
from nonosat.solver.line_logic import Contradiction
from nonosat.solver.propagation import line_solve


def every_line(width: int) -> list[tuple[int, ...]]:
    return list(itertools.product((0, 1), repeat=width))


def agreed(lines: list[tuple[int, ...]]) -> Cells:
    """Each cell's value where all the lines agree on it, -1 where they do not."""
    return [lines[0][k] if len({line[k] for line in lines}) == 1 else -1 for k in range(len(lines[0]))]


def count_known(lines: list[Cells]) -> int:
    return sum(value >= 0 for line in lines for value in line)


def test_two_lines_settle_as_brute_force_says() -> None:
    """Two rows of 1-6 cells, random clues and random allowances for each column's pair of
    cells: the cells every completion of both agrees on (by trying all of both rows' fillings),
    or no completion at all; both kinds come up, and cells neither row's clue fixes alone."""
    rng = random.Random(40)
    outcomes = {"none": 0, "fixed": 0, "fixed beyond each line": 0}
    for _ in range(400):
        width = rng.randint(1, 6)
        first, second = (clue_of(rng.choices((0, 1), k=width)) for _ in range(2))
        allowed = [rng.sample([(0, 0), (0, 1), (1, 0), (1, 1)], rng.randint(1, 4)) for _ in range(width)]
        completions = [
            (one, two)
            for one in every_line(width)
            for two in every_line(width)
            if clue_of(one) == first
            and clue_of(two) == second
            and all((one[k], two[k]) in allowed[k] for k in range(width))
        ]
        if not completions:
            with pytest.raises(Contradiction):
                settle_pair(first, second, allowed)
            outcomes["none"] += 1
            continue

        expected = agreed([one for one, _ in completions]), agreed([two for _, two in completions])
        assert settle_pair(first, second, allowed) == expected, (first, second, allowed)
        outcomes["fixed"] += count_known(list(expected)) > 0
        alone = agreed([one for one in every_line(width) if clue_of(one) == first])
        outcomes["fixed beyond each line"] += count_known([expected[0]]) > count_known([alone])
    assert min(outcomes.values()) >= 10, outcomes


def test_a_crossing_line_allows_the_pairs_its_clue_admits() -> None:
    # a column "2" of 4 cells, its top cell empty: rows 1-2 hold (0, 1) or (1, 1), never a lone
    # filled cell at row 1 nor two empty cells (no room for the block below)
    assert allowed_pairs((2,), [0, -1, -1, -1], 1) == [(0, 1), (1, 1)]
    assert allowed_pairs((2,), [0, -1, 0, -1], 1) == []  # no room left for the block
    assert allowed_pairs((1, 1), [-1, -1, -1], 0) == [(1, 0)]


@pytest.mark.slow
def test_what_pair_logic_fixes_every_grid_has() -> None:
    """Random 6x6 puzzles: every cell pair logic (with line logic) fixes has that value in every
    grid of the puzzle; on some it fixes cells that line logic leaves open."""
    rng = random.Random(7)
    beyond = 0
    for _ in range(60):
        puzzle = Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(6)] for _ in range(6)])
        grids = [solution.grid for solution in solve(puzzle, count=1000, jobs=1).solutions]
        board = line_solve(puzzle)
        by_lines = known(board)
        board, _ = pair_logic(board)
        grid = cells_of(board)
        for r, c in itertools.product(range(6), repeat=2):
            if grid[r][c] >= 0:
                assert all(each[r][c] == grid[r][c] for each in grids), puzzle.rows
        beyond += known(board) > by_lines
    assert beyond >= 3


@pytest.mark.slow
def test_the_benchmark_prints_what_each_logic_knows(capsys: pytest.CaptureFixture[str]) -> None:
    """Fresh 3263 #7: line logic knows 601 cells of 625; pair logic at least as many, and with
    30 cells of a solution set first, at least those too."""
    main(["--puzzles", "3263:7"])
    main(["--puzzles", "3263:7", "--reveal", "30"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("3263:7 #1: line logic 601 cells, with pair logic ")
    assert lines[1].startswith("in all: line logic 601 cells")
    counts = [[int(word) for word in line.replace("(", " ").split() if word.isdigit()] for line in lines]
    assert counts[0][1] >= counts[0][0] == 601 and counts[2][1] >= counts[2][0] >= 601


@pytest.mark.parametrize("puzzles", ["3263", "3263:0", "3263:1001", "x:1", "3263:1,"])
def test_a_puzzle_not_named_seed_colon_index_is_one_line_and_exit_2(
    puzzles: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["--puzzles", puzzles])
    assert ended.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert "expected seed:index pairs" in said and "Traceback" not in said
