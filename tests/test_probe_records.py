"""The compiled search keeps each probe's record while it holds and does not probe again
(`ProbeRecord` in nonosat/core/core.h). The records only save work: with them and without them
(`reuse=False`, every cell probed again at every round) the search makes the same choices, so it
must end the same way, with the same solutions after the same number of choices."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_cdcl import unpacked

from nonosat.formats import load_all
from nonosat.model import Puzzle
from nonosat.solver.propagation import line_solve

core = pytest.importorskip("nonosat._core")


def search_both_ways(puzzle: Puzzle, budget: int) -> tuple[Any, Any]:
    """The search from what line logic leaves, with the records and without them."""
    board = line_solve(puzzle)
    masks = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    answers = [core.search(puzzle.rows, puzzle.columns, *masks, 2, budget, 0, reuse) for reuse in (True, False)]
    with_records, without = (
        (complete, unpacked(core, packed, puzzle.height), made) for complete, packed, made in answers
    )
    return with_records, without


def random_puzzle(rng: random.Random, height: int, width: int, density: float) -> Puzzle:
    return Puzzle.from_grid([[int(rng.random() < density) for _ in range(width)] for _ in range(height)])


def test_records_change_nothing_on_random_puzzles() -> None:
    rng = random.Random(19)
    ends = set()
    choices = 0
    for _ in range(300):
        height, width = rng.randint(4, 25), rng.randint(4, 25)
        puzzle = random_puzzle(rng, height, width, rng.choice((0.45, 0.5, 0.55)))
        budget = rng.choice((0, 10))  # 10: runs out on some
        with_records, without = search_both_ways(puzzle, budget)
        assert with_records == without
        complete, found, made = with_records
        ends.add((complete, len(found)))
        choices += made
    assert {(True, 1), (True, 2), (False, 0)} <= ends  # unique, multiple, and out of choices
    assert choices > 500


@pytest.mark.slow
def test_records_change_nothing_on_hard_tournament_puzzles(corpus: Path) -> None:
    """taai2011 #501-#540: the part of the set where the search makes the most choices."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[500:540]
    choices = 0
    for puzzle in puzzles:
        with_records, without = search_both_ways(puzzle, 300)
        assert with_records == without
        choices += with_records[2]
    assert choices > 2000
