"""Each line encoding against brute force: its models, counted on the cells, are the lines that
meet the clue and agree with the known cells, and its auxiliaries are determined by the cells;
unit propagation on the automaton encoding decides exactly what line deduction does, and on the
blocks encoding less.

A line here is a clue and a pattern of known cells (`?` unknown, `#` filled, `.` empty); the
helpers in `reference_cnf` turn it into the `Line` the encoders take, with cell i as variable i+1."""

from __future__ import annotations

import random

import pytest
from encodings_shared import completions, free_lines, random_lines, words
from pysat.solvers import Solver
from reference_cnf import Pattern, encode_line, known_masks

from nonosat.model import Clue
from nonosat.solver.encodings import ENCODINGS, Clause
from nonosat.solver.propagation import Contradiction, settle_line

SOLVERS = ("glucose4", "cadical195")


def count_models(clauses: list[Clause], over: list[int], solver_name: str) -> int:
    """Models of the clauses, counted as distinct assignments of the variables `over`."""
    with Solver(name=solver_name, bootstrap_with=clauses) as solver:
        count = 0
        while solver.solve():
            count += 1
            if not over:
                break
            true = {literal for literal in solver.get_model() if literal > 0}
            solver.add_clause([-v if v in true else v for v in over])
        return count


def cell_variables(pattern: Pattern) -> list[int]:
    return [i + 1 for i, mark in enumerate(pattern) if mark == "?"]


@pytest.mark.parametrize("solver_name", SOLVERS)
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_projected_count_on_free_lines(encoding: str, solver_name: str) -> None:
    """(a) With no known cells, models on the cells = lines of that length with that clue."""
    for clue, n in free_lines():
        clauses, _ = encode_line(encoding, clue, "?" * n)
        got = count_models(clauses, list(range(1, n + 1)), solver_name)
        assert got == len(words(n)[clue]), (clue, n)


@pytest.mark.parametrize("solver_name", SOLVERS)
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_projected_count_on_partial_lines(encoding: str, solver_name: str) -> None:
    """(b) With known cells as constants, models on the cells = completions (0 if refuted)."""
    refuted = 0
    for clue, pattern in random_lines(seed=1, count=1000):
        expected = len(completions(clue, pattern))
        try:
            clauses, _ = encode_line(encoding, clue, pattern)
        except Contradiction:
            refuted += 1
            assert expected == 0, (clue, pattern)
            continue
        assert [] not in clauses, (clue, pattern)  # the specs say no clause is ever empty
        got = count_models(clauses, cell_variables(pattern), solver_name)
        assert got == expected, (clue, pattern)
    assert 0 < refuted < 500  # the sample holds both kinds of line


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_auxiliaries_are_determined_by_the_cells(encoding: str) -> None:
    """(c) Counted over all variables, models = completions: the bijection of the specs.

    Both specs claim it: blocks by the order encoding, automaton by the automaton's determinism.
    """
    for clue, pattern in random_lines(seed=2, count=600) + [(clue, "?" * n) for clue, n in free_lines(8)]:
        try:
            clauses, pool = encode_line(encoding, clue, pattern)
        except Contradiction:
            continue
        every = cell_variables(pattern) + list(range(len(pattern) + 1, pool.top + 1))
        assert count_models(clauses, every, "glucose4") == len(completions(clue, pattern)), (
            clue,
            pattern,
        )


def propagated_cells(
    clauses: list[Clause], pattern: Pattern, assumed: dict[int, bool], solver_name: str
) -> tuple[int, int] | None:
    """The (filled, empty) masks unit propagation reaches from the assumed cells; None on conflict.

    A selector g is added to every clause and assumed first, so that what follows from unit
    clauses is reported too (PySAT's `propagate` leaves out decision level 0).
    """
    guard = max([len(pattern)] + [abs(lit) for clause in clauses for lit in clause]) + 1
    with Solver(name=solver_name, bootstrap_with=[c + [-guard] for c in clauses]) as solver:
        assumptions = [guard] + [i + 1 if value else -(i + 1) for i, value in assumed.items()]
        ok, literals = solver.propagate(assumptions=assumptions)
    if not ok:
        return None
    filled, empty = known_masks(pattern)
    for literal in literals:
        if 0 < abs(literal) <= len(pattern):
            if literal > 0:
                filled |= 1 << (literal - 1)
            else:
                empty |= 1 << (-literal - 1)
    return filled, empty


def settled(clue: Clue, pattern: Pattern, assumed: dict[int, bool]) -> tuple[int, int] | None:
    """What complete line deduction decides from the known and the assumed cells."""
    filled, empty = known_masks(pattern)
    for i, value in assumed.items():
        filled |= value << i
        empty |= (not value) << i
    try:
        return settle_line(clue, len(pattern), filled, empty)
    except Contradiction:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("solver_name", SOLVERS)
def test_automaton_unit_propagation_is_line_deduction(solver_name: str) -> None:
    """(d) Unit propagation on the automaton encoding decides exactly what `settle_line` does."""
    rng = random.Random(3)
    checked = conflicts = 0
    for clue, pattern in random_lines(seed=4, count=2500):
        pattern = "".join(m if rng.random() < 0.4 else "?" for m in pattern)  # fewer constants
        try:
            clauses, _ = encode_line("automaton", clue, pattern)
        except Contradiction:
            continue
        unknown = [i for i, mark in enumerate(pattern) if mark == "?"]
        if not unknown:
            continue
        for _ in range(3):
            share = rng.random()
            assumed = {i: rng.random() < 0.5 for i in unknown if rng.random() < share}
            expected = settled(clue, pattern, assumed)
            assert propagated_cells(clauses, pattern, assumed, solver_name) == expected, (
                clue,
                pattern,
                assumed,
            )
            checked += 1
            conflicts += expected is None
    assert checked > 1000 and 0 < conflicts < checked // 2


def test_blocks_unit_propagation_is_weaker() -> None:
    """blocks.md: unit propagation misses cells 1 and 3 of clue 1 1 on 5 cells, cell 2 filled."""
    clauses, _ = encode_line("blocks", (1, 1), "?????")
    assert settled((1, 1), "?????", {2: True}) == (0b00100, 0b01010)
    assert propagated_cells(clauses, "?????", {2: True}, "glucose4") == (0b00100, 0)
