"""The 2x2 switch finder: what it returns always meets the clues, and it finds the usual ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonosat import Puzzle, load, load_all, solve
from nonosat.solver.switch import line_swaps, switched_solution


def test_line_swaps_keep_the_clue_and_miss_none_within_reach() -> None:
    import itertools

    from nonosat.model import clue_of

    for cells in (c for n in range(1, 11) for c in itertools.product("01", repeat=n)):
        line = "".join(cells)
        n = len(line)
        expected = {
            (a, b)
            for a in range(n)
            for b in range(a + 1, min(n, a + 4))
            if line[a] != line[b]
            and clue_of([int(x) for x in line[:a] + line[b] + line[a + 1 : b] + line[a] + line[b + 1 :]])
            == clue_of([int(x) for x in line])
        }
        assert line_swaps(line) == expected


def test_the_diagonals_switch_into_each_other() -> None:
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    assert switched_solution(puzzle, ((1, 0), (0, 1))) == ((0, 1), (1, 0))


def test_a_unique_puzzle_has_no_switch(corpus: Path) -> None:
    for name in ("webpbn-00001-dancer.non", "webpbn-00006-cat.non", "webpbn-06574-forever.non"):
        puzzle = load(str(corpus / "webpbn" / name))
        assert puzzle.goal is not None
        assert switched_solution(puzzle, puzzle.goal) is None


@pytest.mark.slow
def test_switches_found_in_tournament_solutions_meet_the_clues(corpus: Path) -> None:
    found = 0
    for puzzle in load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:30]:
        first = solve(puzzle, count=1).solutions[0].grid
        other = switched_solution(puzzle, first)
        if other is not None:
            found += 1
            assert other != first and puzzle.satisfied_by(other)
            assert sum(a != b for r1, r2 in zip(first, other, strict=True) for a, b in zip(r1, r2, strict=True)) == 4
    assert found > 0
