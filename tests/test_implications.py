"""Line implications (nonosat/solver/encodings/implications.py, encodings/implications.md) against
brute force: `implied` on every short line, the clauses are exactly one line's binary
consequences, and a grid's solutions are the same with them and without them."""

from __future__ import annotations

import itertools
import random
from functools import cache, reduce
from operator import and_, or_
from pathlib import Path

import pytest
from pysat.solvers import Solver

from nonosat.formats import load_all
from nonosat.model import Clue, Puzzle, clue_of
from nonosat.solver import compiled
from nonosat.solver.encodings import implications
from nonosat.solver.encodings.grid import build_formula
from nonosat.solver.encodings.implications import grid_implications, line_implications
from nonosat.solver.line_logic import implied
from nonosat.solver.propagation import line_solve


@cache
def lines_of(length: int) -> dict[Clue, list[int]]:
    """Every line of `length` cells as a bitmask, grouped by its clue."""
    grouped: dict[Clue, list[int]] = {}
    for cells in itertools.product((0, 1), repeat=length):
        grouped.setdefault(clue_of(cells), []).append(sum(bit << i for i, bit in enumerate(cells)))
    return grouped


def completions(clue: Clue, length: int, filled: int, empty: int) -> list[int]:
    return [w for w in lines_of(length).get(tuple(clue), []) if w & filled == filled and not w & empty]


def brute_settle(clue: Clue, length: int, filled: int, empty: int) -> tuple[int, int] | None:
    found = completions(clue, length, filled, empty)
    if not found:
        return None
    full = (1 << length) - 1
    return reduce(and_, found) & full, full & ~reduce(or_, found)  # filled in all, empty in all


def brute_implied(clue: Clue, length: int, filled: int, empty: int) -> object:
    settled = brute_settle(clue, length, filled, empty)
    if settled is None:
        return None
    known = settled[0] | settled[1]
    return tuple(
        None
        if known >> i & 1
        else brute_settle(clue, length, filled | 1 << i, empty) + brute_settle(clue, length, filled, empty | 1 << i)  # type: ignore[operator]
        for i in range(length)
    )


def known_pairs(length: int) -> list[tuple[int, int]]:
    return [
        (sum(1 << i for i, v in enumerate(values) if v == 1), sum(1 << i for i, v in enumerate(values) if v == 2))
        for values in itertools.product((0, 1, 2), repeat=length)
    ]


def some_clues(length: int) -> list[Clue]:
    """Every clue of the line's length, and two that cannot fit."""
    return sorted(lines_of(length)) + [(length + 1,), (1,) * (length // 2 + 2)]


def test_implied_is_brute_force_on_every_short_line() -> None:
    checked = failed = 0
    for length in range(1, 7):
        for clue in some_clues(length):
            for filled, empty in known_pairs(length):
                expected = brute_implied(clue, length, filled, empty)
                assert implied(clue, length, filled, empty) == expected, (clue, length, filled, empty)
                checked += 1
                failed += expected is None
    assert checked > 15000 and 0 < failed < checked


def as_set(clauses: list[list[int]]) -> set[tuple[int, ...]]:
    found = {tuple(c) for c in clauses}
    assert len(found) == len(clauses)  # each clause once
    return found


@pytest.mark.slow
@pytest.mark.heavy
def test_compiled_clauses_are_the_pythons_on_short_and_long_lines() -> None:
    """Lines of 1..300 cells, most of them open, some with known cells (and some with a clue
    that does not fit them): the compiled core's clauses are the Python fallback's."""
    if compiled.core is None:
        pytest.skip("the compiled core is not built")
    rng = random.Random(11)
    compared = 0
    for _ in range(400):
        length = rng.choice([rng.randint(1, 12), rng.randint(20, 80), rng.randint(100, 300)])
        density = rng.choice([0.3, 0.6, 0.85])
        picture = [int(rng.random() < density) for _ in range(length)]
        clue = clue_of(picture)
        share = rng.choice([0.0, 0.05, 0.2])
        filled = sum(1 << i for i, v in enumerate(picture) if v and rng.random() < share)
        empty = sum(1 << i for i, v in enumerate(picture) if not v and rng.random() < share)
        if rng.random() < 0.05:
            filled, empty = empty, filled  # known cells that clash with the clue
        first, step = rng.randint(1, 50), rng.randint(1, 30)
        python = implications._python(clue, length, filled, empty, first, step)
        ours, steps = implications._compiled(clue, length, filled, empty, first, step, 10**12)
        assert as_set(ours) == as_set(python), (clue, length, filled, empty)
        compared += len(python)
        assert steps > 0 or not python
    assert compared > 10000


def test_compiled_stops_at_its_steps() -> None:
    if compiled.core is None:
        pytest.skip("the compiled core is not built")
    clue, length = (30, 20), 100
    every, steps = implications._compiled(clue, length, 0, 0, 1, 1, 10**12)
    few, few_steps = implications._compiled(clue, length, 0, 0, 1, 1, steps // 4)
    assert 0 < len(few) < len(every) and as_set(few) < as_set(every)
    assert steps // 4 < few_steps < steps


def test_compiled_refuses_bad_masks() -> None:
    if compiled.core is None:
        pytest.skip("the compiled core is not built")
    with pytest.raises(ValueError):
        compiled.core.implications((1,), 4, b"\x01", b"\x01", 1, 1, 100)  # a cell filled and empty
    with pytest.raises(ValueError):
        compiled.core.implications((1,), 4, b"\x10", b"\x00", 1, 1, 100)  # a cell past the line
    with pytest.raises(ValueError):
        compiled.core.implications((1,), 12, b"\x00", b"\x00", 1, 1, 100)  # one byte for 12 cells
    with pytest.raises(ValueError):
        compiled.core.implications((0,), 4, b"\x00", b"\x00", 1, 1, 100)
    assert compiled.core.implications((5,), 4, b"\x00", b"\x00", 1, 1, 100) is None


def binary_consequences(clue: Clue, length: int, filled: int, empty: int) -> set[tuple[int, ...]]:
    """By brute force: every clause -a | b over two open cells i < j (cell i is variable i + 1;
    open: it takes both values in the completions) that all completions meet."""
    lines = completions(clue, length, filled, empty)
    open_cells = [i for i in range(length) if 0 < sum(w >> i & 1 for w in lines) < len(lines)]
    found: set[tuple[int, ...]] = set()
    for i in open_cells:
        for a in (i + 1, -(i + 1)):
            with_a = [w for w in lines if (w >> i & 1) == (a > 0)]
            for j in open_cells:
                if j <= i:
                    continue
                for b in (j + 1, -(j + 1)):
                    if all((w >> j & 1) == (b > 0) for w in with_a):
                        found.add((-a, b))
    return found


@pytest.mark.parametrize("pure", [False, True])
def test_line_clauses_are_exactly_the_binary_consequences(pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if pure:
        monkeypatch.setattr(implications, "core", None)
    rng = random.Random(5)
    clauses_seen = 0
    for _ in range(600):
        length = rng.randint(1, 9)
        picture = [int(rng.random() < 0.55) for _ in range(length)]
        clue = clue_of(picture)
        filled = sum(1 << i for i, v in enumerate(picture) if v and rng.random() < 0.2)
        empty = sum(1 << i for i, v in enumerate(picture) if not v and rng.random() < 0.2)
        if not completions(clue, length, filled, empty):
            continue
        got = line_implications(clue, length, filled, empty, 1, 1)
        assert as_set(got) == binary_consequences(clue, length, filled, empty), (clue, filled, empty)
        clauses_seen += len(got)
    assert clauses_seen > 500


def test_line_clauses_use_the_lines_own_variables() -> None:
    """Cell i of a column is variable first + i * step: clue 3 on 5 cells, as column 2 of a
    grid 5 wide (variables 3, 8, 13, 18, 23). The middle cell is filled in every completion:
    no clause names it."""
    got = as_set(line_implications((3,), 5, 0, 0, 3, 5))
    assert (-3, -18) in got and (3, 18) in got and (-8, -23) in got
    assert {abs(v) for c in got for v in c} == {3, 8, 18, 23}


def random_puzzle(rng: random.Random, width: int, height: int) -> Puzzle:
    return Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(width)] for _ in range(height)])


def solution_grids(puzzle: Puzzle, with_implications: bool) -> set[tuple[int, ...]]:
    """Every solution of the grid formula, as the values of the open cells' variables."""
    formula = build_formula(line_solve(puzzle), implications=with_implications)
    found = set()
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        while sat.solve():
            model = set(sat.get_model())
            key = tuple(v if v in model else -v for v in formula.unknown)
            found.add(key)
            sat.add_clause([-v for v in key])
    return found


def test_grid_solutions_are_the_same_with_implications() -> None:
    rng = random.Random(2)
    several = 0
    for _ in range(60):
        puzzle = random_puzzle(rng, rng.randint(4, 7), rng.randint(4, 7))
        board = line_solve(puzzle)
        if board.is_complete():
            continue
        plain = solution_grids(puzzle, False)
        assert solution_grids(puzzle, True) == plain
        several += len(plain) > 1
        formula = build_formula(board)
        assert len(formula.clauses) > len(build_formula(board, implications=False).clauses)
    assert several > 10


def test_grid_limit_stops_after_a_line(corpus: Path) -> None:
    puzzle = load_all(corpus / "tcga" / "question" / "taai2011.txt")[1]  # #2: line logic leaves 558 of 625 cells open
    board = line_solve(puzzle)
    every = grid_implications(board, limit=10**9)
    few = grid_implications(board, limit=1)
    assert 0 < len(few) < len(every)
    assert few == every[: len(few)]  # rows first, whole lines
    # Every clause holds in the solution the plain formula gives.
    formula = build_formula(board, implications=False)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = set(sat.get_model())
    assert all(any(literal in model for literal in clause) for clause in every)
    assert {abs(v) for c in every for v in c} <= set(formula.unknown)


@pytest.mark.slow
def test_grid_python_probes_are_capped(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_all(corpus / "tcga" / "question" / "taai2011.txt")[1]
    board = line_solve(puzzle)
    monkeypatch.setattr(implications, "core", None)
    pure = grid_implications(board, limit=10**9)
    if compiled.core is not None:
        monkeypatch.setattr(implications, "core", compiled.core)
        assert as_set(grid_implications(board, limit=10**9)) == as_set(pure)
        monkeypatch.setattr(implications, "COMPILED_STEPS", 5000)
        assert 0 < len(grid_implications(board, limit=10**9)) < len(pure)
        monkeypatch.setattr(implications, "core", None)
    monkeypatch.setattr(implications, "PYTHON_PROBES", 100)
    capped = grid_implications(board, limit=10**9)
    assert 0 < len(capped) < len(pure)
    monkeypatch.setattr(implications, "PYTHON_PROBES", 0)
    assert grid_implications(board, limit=10**9) == []
