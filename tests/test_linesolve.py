"""Complete line deduction against brute force, and its propagation over small grids."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest

from nonosat.model import Clue, Puzzle, clue_of
from nonosat.solver import line_logic as linelogic
from nonosat.solver.line_logic import _settle_by_states
from nonosat.solver.propagation import (
    Board,
    Contradiction,
    _cached_settle,
    line_solve,
    propagate,
    settle_line,
)

MAX_LENGTH = 12

Known = tuple[int, int]
"""A line's known cells as (filled, empty) bitmasks; bit i is cell i."""


@cache
def words(length: int) -> dict[Clue, list[int]]:
    """Every line of `length` cells as a bitmask, grouped by its clue."""
    grouped: dict[Clue, list[int]] = {}
    for cells in product((0, 1), repeat=length):
        grouped.setdefault(clue_of(cells), []).append(sum(b << i for i, b in enumerate(cells)))
    return grouped


def brute_settle(clue: Clue, length: int, filled: int, empty: int) -> Known | None:
    """The cells every completion agrees on, or None when there is no completion."""
    fits = [w for w in words(length).get(clue, []) if w & filled == filled and not w & empty]
    if not fits:
        return None
    full = (1 << length) - 1
    always, ever = full, 0
    for word in fits:
        always &= word
        ever |= word
    return always, full & ~ever


def settled(clue: Clue, length: int, filled: int, empty: int) -> Known | None:
    try:
        return settle_line(clue, length, filled, empty)
    except Contradiction:
        return None


@pytest.fixture(params=["blockwise", "by states"])
def solver_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once with every line going through the blockwise line solver, and once with
    every line going through the automaton (`settle_line` picks one by the line's shape)."""
    monkeypatch.setattr(linelogic, "BLOCKWISE_FROM", 0 if request.param == "blockwise" else 10**9)
    return str(request.param)


def random_case(rng: random.Random) -> tuple[Clue, int, int, int]:
    """A clue (possibly too long for the line) and some known cells, none both filled and empty."""
    length = rng.randint(1, MAX_LENGTH)
    if rng.random() < 0.85:
        clue = clue_of([rng.random() < 0.55 for _ in range(length)])
    else:
        clue = tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 4)))
    share = rng.choice((0.05, 0.15, 0.3, 0.5))
    filled = empty = 0
    for i in range(length):
        if rng.random() < share:
            if rng.random() < 0.5:
                filled |= 1 << i
            else:
                empty |= 1 << i
    return clue, length, filled, empty


def test_settle_line_matches_brute_force_on_every_small_line(solver_kind: str) -> None:
    """Every clue and every pattern of known cells, for lines of 1 to 6 cells."""
    for length in range(1, 7):
        for clue in words(length):
            for marks in product((0, 1, 2), repeat=length):
                filled = sum(1 << i for i, m in enumerate(marks) if m == 1)
                empty = sum(1 << i for i, m in enumerate(marks) if m == 2)
                assert settled(clue, length, filled, empty) == brute_settle(clue, length, filled, empty), (
                    clue,
                    length,
                    bin(filled),
                    bin(empty),
                )


def test_settle_line_matches_brute_force_on_random_lines(solver_kind: str) -> None:
    """Lines of 1 to 12 cells, contradictions included: it raises exactly when none fits."""
    rng = random.Random(7)
    refuted = 0
    for _ in range(5000):
        clue, length, filled, empty = random_case(rng)
        expected = brute_settle(clue, length, filled, empty)
        assert settled(clue, length, filled, empty) == expected, (clue, length, filled, empty)
        refuted += expected is None
    assert 500 < refuted < 2500  # both outcomes are well represented


@pytest.mark.parametrize(
    "clue, length",
    [((3,), 2), ((1, 1), 2), ((2, 2), 4), ((1,) * 4, 6)],
)
def test_a_clue_longer_than_its_line_is_a_contradiction(clue: Clue, length: int, solver_kind: str) -> None:
    with pytest.raises(Contradiction):
        settle_line(clue, length, 0, 0)


def test_both_line_solvers_agree_on_long_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines of up to 600 cells, too long for brute force: the blockwise solver and the automaton
    are independent, and must fix the same cells and refute the same lines."""
    rng = random.Random(11)
    refuted = 0
    for _ in range(400):
        length = rng.randint(13, 600)
        density = rng.choice((0.3, 0.5, 0.7, 0.9))
        picture = [rng.random() < density for _ in range(length)]
        clue = clue_of(picture)
        filled = empty = 0
        share = rng.choice((0.0, 0.05, 0.2, 0.5))
        for i, cell in enumerate(picture):
            if rng.random() < share:
                if rng.random() < 0.05:  # now and then a wrong mark, to make contradictions
                    cell = not cell
                if cell:
                    filled |= 1 << i
                else:
                    empty |= 1 << i
        monkeypatch.setattr(linelogic, "BLOCKWISE_FROM", 0)  # every line blockwise
        blockwise = settled(clue, length, filled, empty)
        assert blockwise == _settled_by_states(clue, length, filled, empty), (clue, length)
        refuted += blockwise is None
    assert 20 < refuted < 300


def _settled_by_states(clue: Clue, length: int, filled: int, empty: int) -> Known | None:
    try:
        return _settle_by_states(clue, length, filled, empty)
    except Contradiction:
        return None


HEART = [".#.#.", "#####", "#####", ".###.", "..#.."]
CORNERS = ["#.#", "...", "#.#"]
NOT_LINE_SOLVABLE = ["##..#", "#..##", "..###", ".#.#.", "###.."]


def puzzle_of(picture: list[str]) -> Puzzle:
    return Puzzle.from_grid([[mark == "#" for mark in row] for row in picture])


@pytest.mark.parametrize("picture", [HEART, CORNERS], ids=["heart", "corners"])
def test_line_solve_finds_a_line_solvable_picture(picture: list[str]) -> None:
    puzzle = puzzle_of(picture)
    board = line_solve(puzzle)
    assert board.is_complete() and board.unknown_count() == 0
    assert board.grid() == puzzle.goal


@pytest.mark.parametrize("picture", [HEART, CORNERS], ids=["heart", "corners"])
def test_propagate_from_some_lines_reaches_the_same_picture(picture: list[str]) -> None:
    """Starting from the rows alone, the queue brings in the columns whose cells change."""
    puzzle = puzzle_of(picture)
    board = propagate(Board(puzzle), [(True, r) for r in range(puzzle.height)])
    assert board.grid() == puzzle.goal and board.is_complete()


def test_line_solve_decides_only_true_cells() -> None:
    """On a picture line logic cannot finish, every decided cell agrees with the picture."""
    puzzle = puzzle_of(NOT_LINE_SOLVABLE)
    board = line_solve(puzzle)
    assert not board.is_complete()
    for r, row in enumerate(puzzle.goal or ()):
        for c, cell in enumerate(row):
            assert board.cell(r, c) in (None, cell)


def test_line_solve_refutes_an_impossible_puzzle() -> None:
    """Row 1 fills both cells, but column 2 must be empty."""
    puzzle = Puzzle(rows=((2,), ()), columns=((1,), ()))
    with pytest.raises(Contradiction):
        line_solve(puzzle)


def test_propagate_refutes_a_wrong_guess() -> None:
    puzzle = puzzle_of(HEART)
    board = Board(puzzle)
    board.set_cell(0, 0, 1)  # the heart's top-left corner is empty
    with pytest.raises(Contradiction):
        propagate(board)


def test_cached_settle_agrees_with_settle_line() -> None:
    """The line cache returns what the uncached function returns, on first and repeated calls."""
    _cached_settle.cache_clear()
    rng = random.Random(8)
    cases = [random_case(rng) for _ in range(1500)]
    for _ in range(2):
        for case in cases:
            try:
                cached = _cached_settle(*case)
            except Contradiction:
                cached = None
            assert cached == settled(*case), case
    assert _cached_settle.cache_info().hits > 0
