"""Belief propagation over the lines (nonosat/core/beliefs.c), where the conflict-driven search
turns when it has not found a grid in `beliefs_after` conflicts.

A line's message is a sum over its completions: checked against every completion counted by
brute force on short lines. The search that turns to the beliefs must lose nothing: its counts
are checked against the depth-first search, and its grids against the clues and against the
published solutions of tournament puzzles.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from test_cdcl import meets_clues, unpacked

from nonosat import Puzzle, load_all
from nonosat.formats.tournament import load_tournament_solutions
from nonosat.solver.propagation import line_solve

core = pytest.importorskip("nonosat._core")


def runs(cells: tuple[int, ...]) -> list[int]:
    return [len(list(group)) for value, group in itertools.groupby(cells) if value]


def by_brute_force(clue: list[int], filled: int, empty: int, chances: list[float]) -> list[float] | None:
    """Each cell's chance of being filled over every completion of the line, each weighed by the
    other cells' chances (its own left out)."""
    n = len(chances)
    fits = [
        cells
        for cells in itertools.product((0, 1), repeat=n)
        if runs(cells) == clue
        and all(cells[i] for i in range(n) if filled >> i & 1)
        and not any(cells[i] for i in range(n) if empty >> i & 1)
    ]
    if not fits:
        return None
    message = []
    for i in range(n):
        weight = [0.0, 0.0]  # empty, filled
        for cells in fits:
            w = 1.0
            for j, value in enumerate(cells):
                if j != i:
                    w *= chances[j] if value else 1 - chances[j]
            weight[cells[i]] += w
        message.append(weight[1] / (weight[0] + weight[1]))
    return message


def test_a_lines_message_is_its_completions_weighed() -> None:
    """Every clue of lines of 1-7 cells, with random known cells and chances: the forward and
    backward sums give what counting every completion gives."""
    rng = random.Random(40)
    checked = none = 0
    for n in range(1, 8):
        clues = {tuple(runs(cells)) for cells in itertools.product((0, 1), repeat=n)}
        for clue in sorted(clues):
            for _ in range(6):
                known = rng.getrandbits(n) & rng.getrandbits(n)
                filled = known & rng.getrandbits(n)
                empty = known & ~filled
                chances = [rng.uniform(0.05, 0.95) for _ in range(n)]
                expected = by_brute_force(list(clue), filled, empty, chances)
                got = core.line_beliefs(list(clue), n, filled, empty, chances)
                if expected is None:
                    assert got is None, (clue, filled, empty)
                    none += 1
                else:
                    assert got == pytest.approx(expected, abs=1e-9), (clue, filled, empty)
                    checked += 1
    assert checked > 300 and none > 50


def test_a_grids_beliefs_hold_its_known_cells_and_its_symmetry() -> None:
    """A 2x2 switch is even (every cell 0.5); a grid line logic settles is certain; known cells
    keep their values; a clue that cannot fit gives None."""
    assert core.beliefs([[1], [1]], [[1], [1]], [0, 0], [0, 0], [0, 0], [0, 0]) == pytest.approx([0.5] * 4)
    settled = core.beliefs([[2], [1]], [[1], [2]], [0, 0], [0, 0], [0, 0], [0, 0])
    assert settled == pytest.approx([1, 1, 0, 1], abs=1e-6)
    with_known = core.beliefs([[1], [1]], [[1], [1]], [1, 0], [2, 0], [1, 0], [2, 0])
    assert with_known[:2] == [1.0, 0.0]
    assert core.beliefs([[3], [1]], [[1], [1]], [0, 0], [0, 0], [0, 0], [0, 0]) is None


def learn(puzzle: Puzzle, count: int, beliefs_after: int) -> tuple[bool, list[Any], dict[str, int]]:
    board = line_solve(puzzle)
    views = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    complete, packed, stats = core.cdcl(puzzle.rows, puzzle.columns, *views, count, 0, 0.0, True, None, beliefs_after)
    return complete, unpacked(core, packed, puzzle.height), stats


@pytest.mark.slow
@pytest.mark.heavy
def test_turning_to_the_beliefs_loses_no_grid() -> None:
    """Up to 3 solutions of random puzzles, the search turning at its first restart: the same
    counts and completeness as the depth-first search, every grid meeting the clues, none twice,
    and the turn taken on many of them."""
    rng = random.Random(2027)
    turned = 0
    for _ in range(60):
        height, width = rng.randint(18, 25), rng.randint(18, 25)
        puzzle = Puzzle.from_grid([[int(rng.random() < 0.4) for _ in range(width)] for _ in range(height)])
        count = rng.choice((1, 2, 3))
        complete, grids, stats = learn(puzzle, count, 1)
        board = line_solve(puzzle)
        views = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
        expected_complete, packed, _ = core.search(puzzle.rows, puzzle.columns, *views, count, 0, 0)
        expected = unpacked(core, packed, puzzle.height)
        assert (complete, len(grids)) == (expected_complete, len(expected)), puzzle.rows
        assert all(meets_clues(puzzle, rows) for rows in grids)
        assert len(set(grids)) == len(grids)
        turned += stats["beliefs"]
    assert turned >= 10


@pytest.mark.slow
def test_tournament_grids_with_and_without_the_turn(corpus: Path) -> None:
    """Tournament puzzles that take thousands of conflicts: turning at once, turning after 2,000
    (the default) and never give the same verdict, and the published grid where it is unique."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))
    published = load_tournament_solutions((corpus / "tcga" / "solution" / "taai2011.txt").read_text())
    turned = 0
    for number in (372, 483, 597, 742, 891, 998):
        puzzle = puzzles[number - 1]
        goal = tuple(sum(cell << c for c, cell in enumerate(row)) for row in published[number])
        answers = []
        for beliefs_after in (1, 2000, 0):
            complete, grids, stats = learn(puzzle, 2, beliefs_after)
            assert complete and all(meets_clues(puzzle, rows) for rows in grids)
            if len(grids) == 1:
                assert grids[0] == goal
            answers.append(len(grids))
            turned += stats["beliefs"]
            if beliefs_after == 0:
                assert stats["beliefs"] == 0
        assert len(set(answers)) == 1, number
    assert turned >= 6
