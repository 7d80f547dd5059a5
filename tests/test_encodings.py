"""Each line encoding against brute force, its written specification and its reference CNFs.

A line here is a clue and a pattern of known cells (`?` unknown, `#` filled, `.` empty); the
helpers in `reference_cnf` turn it into the `Line` the encoders take, with cell i as variable i+1.
The count formulas are those of encodings/automaton.md and encodings/blocks.md.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from pysat.solvers import Solver
from reference_cnf import (
    LINES,
    REFERENCE,
    Pattern,
    cell_literals,
    encode_line,
    file_name,
    known_masks,
    make_line,
    read_reference,
)

from nonosat.model import Clue, clue_of
from nonosat.solver.encodings import ENCODINGS, Clause, Line, automaton, blocks
from nonosat.solver.encodings.blocks import feasible_starts
from nonosat.solver.propagation import Contradiction, settle_line

SOLVERS = ("glucose4", "cadical195")
MAX_LENGTH = 10


# Brute force ---------------------------------------------------------------------------------


@cache
def words(length: int) -> dict[Clue, list[int]]:
    """Every line of `length` cells as a bitmask (bit i is cell i), grouped by its clue."""
    grouped: dict[Clue, list[int]] = {}
    for cells in product((0, 1), repeat=length):
        word = sum(bit << i for i, bit in enumerate(cells))
        grouped.setdefault(clue_of(cells), []).append(word)
    return grouped


def completions(clue: Clue, pattern: Pattern) -> list[int]:
    """The lines that meet the clue and agree with the pattern's known cells."""
    filled, empty = known_masks(pattern)
    return [w for w in words(len(pattern)).get(clue, []) if w & filled == filled and not w & empty]


def random_line(rng: random.Random, max_length: int = MAX_LENGTH) -> tuple[Clue, Pattern]:
    """A clue and known cells, mostly taken from one hidden line, sometimes clashing with it."""
    length = rng.randint(1, max_length)
    hidden = [rng.random() < 0.55 for _ in range(length)]
    other = [rng.random() < 0.5 for _ in range(length)]
    clue = clue_of(hidden if rng.random() < 0.85 else other)
    source = hidden if rng.random() < 0.8 else other
    share = rng.choice((0.05, 0.15, 0.3, 0.6))
    pattern = "".join(("#" if cell else ".") if rng.random() < share else "?" for cell in source)
    return clue, pattern


def random_lines(seed: int, count: int) -> list[tuple[Clue, Pattern]]:
    rng = random.Random(seed)
    return [random_line(rng) for _ in range(count)]


def free_lines(max_length: int = MAX_LENGTH) -> list[tuple[Clue, int]]:
    """Every clue of every line of 1..max_length cells, with no known cells."""
    return [(clue, n) for n in range(1, max_length + 1) for clue in sorted(words(n))]


# Counting models -----------------------------------------------------------------------------


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


# Unit propagation ----------------------------------------------------------------------------


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


# Reference CNFs ------------------------------------------------------------------------------

REFERENCE_FILES = sorted(REFERENCE.glob("*/*.cnf"))


def test_every_reference_file_exists() -> None:
    """Each encoding has a reference CNF for each tiny line, and nothing else."""
    expected = {REFERENCE / encoding / file_name(clue, pattern) for encoding in ENCODINGS for clue, pattern in LINES}
    assert set(REFERENCE_FILES) == expected


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reference_cnf_matches_encoder(path: Path) -> None:
    """(e) The file's clauses are the encoder's clauses, in the order it emits them (the specs
    list them in that order: a review found a reversed encoder passing when sets were compared)."""
    reference = read_reference(path)
    assert reference.encoding == path.parent.name
    assert path.name == file_name(reference.clue, reference.pattern)
    clauses, pool = encode_line(reference.encoding, reference.clue, reference.pattern)
    assert [list(c) for c in clauses] == [list(c) for c in reference.clauses]
    assert max(len(reference.pattern), pool.top) == reference.variables


# Count formulas ------------------------------------------------------------------------------


def automaton_exact(line: Line) -> tuple[int, int]:
    """automaton.md, exact for any line: (variables, clauses) from the alive-state counts."""
    a = [bin(mask).count("1") for mask in line.states()]
    n = len(a)
    unknown = [i for i, cell in enumerate(line.cells) if not isinstance(cell, bool)]
    variables = sum(size for size in a if size >= 2)
    clauses = (
        (a[0] >= 2)
        + sum(a[i] for i in unknown if a[i] >= 2)
        + sum(a[i] for i in range(n - 1) if a[i] >= 2 and a[i + 1] >= 2)
        + sum(a[i] for i in range(1, n) if a[i] >= 2 and a[i - 1] >= 2)
        + sum(1 + (a[i] >= 2) for i in unknown)
    )
    return variables, clauses


def blocks_exact(line: Line) -> tuple[int, int]:
    """blocks.md, exact for any line: (variables, clauses) from the feasible starts."""
    clue, n, k = line.clue, len(line.cells), len(line.clue)
    starts = feasible_starts(line)
    low = [s[0] for s in starts]
    high = [s[-1] for s in starts] + [n]
    width = [high[j] - low[j] for j in range(k)]
    not_empty = [i for i, cell in enumerate(line.cells) if cell is not False]
    unknown = [i for i in not_empty if not isinstance(line.cells[i], bool)]
    clauses = (
        sum(max(w - 1, 0) for w in width)
        + sum(width[j] + 1 - len(starts[j]) for j in range(k))
        + sum(t + clue[j] + 1 > low[j + 1] for j in range(k - 1) for t in range(low[j] + 1, high[j] + 1))
        + (sum(i < high[0] for i in not_empty) if k else len(not_empty))
        + sum(low[j] <= i < high[j] + clue[j] for j in range(k) for i in unknown)
        + sum(low[j] + clue[j] <= i < high[j + 1] for j in range(k) for i in not_empty)
    )
    return sum(width), clauses


UNPRUNED = {"automaton": automaton.unpruned_counts, "blocks": blocks.unpruned_counts}
EXACT = {"automaton": automaton_exact, "blocks": blocks_exact}


def actual_counts(encoding: str, clue: Clue, pattern: Pattern) -> tuple[int, int]:
    clauses, pool = encode_line(encoding, clue, pattern)
    return pool.top - len(pattern), len(clauses)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_unpruned_count_formulas(encoding: str) -> None:
    """(f) The closed forms for lines with no known cells, on every clue up to 10 cells."""
    for clue, n in free_lines():
        assert actual_counts(encoding, clue, "?" * n) == UNPRUNED[encoding](clue, n), (clue, n)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_exact_count_formulas_on_partial_lines(encoding: str) -> None:
    """The specs' exact counts, from alive states or feasible starts, on lines with known cells."""
    for clue, pattern in random_lines(seed=5, count=1500):
        try:
            line = make_line(clue, pattern)
        except Contradiction:
            continue
        assert actual_counts(encoding, clue, pattern) == EXACT[encoding](line), (clue, pattern)


def test_automaton_unpruned_counts_bound_pruned_ones() -> None:
    """automaton.md: known cells never add variables or clauses to the automaton encoding."""
    for clue, pattern in random_lines(seed=6, count=1500):
        try:
            variables, clauses = actual_counts("automaton", clue, pattern)
        except Contradiction:
            continue
        bound = automaton.unpruned_counts(clue, len(pattern))
        assert variables <= bound[0] and clauses <= bound[1], (clue, pattern)


def test_blocks_unpruned_clause_count_is_not_a_bound() -> None:
    """blocks.md: a known cell can add clauses (holes in a range); the spec's two examples."""
    for clue, pattern in (((1, 1, 1), "????#????"), ((1, 1, 2), "????#?????")):
        variables, clauses = actual_counts("blocks", clue, pattern)
        unpruned = blocks.unpruned_counts(clue, len(pattern))
        assert variables == unpruned[0] and clauses == unpruned[1] + 1, (clue, pattern)


def test_the_compiled_block_encoding_writes_the_pythons_clauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """nonosat/core/blocks.c writes the clauses blocks.py writes, in the same order, over the
    same variables, on random lines of 1 to 30 cells with known cells (the tests above count
    models through whichever is built; this keeps the other as true)."""

    from nonosat.solver.compiled import core
    from nonosat.solver.propagation import alive_states

    if core is None:
        pytest.skip("the compiled core was not built")
    rng = random.Random(36)
    compared = 0
    for _ in range(2000):
        n = rng.randint(1, 30)
        picture = [int(rng.random() < 0.55) for _ in range(n)]
        clue = clue_of(picture)
        known = [i for i in range(n) if rng.random() < 0.25]
        filled = sum(1 << i for i in known if picture[i])
        empty = sum(1 << i for i in known if not picture[i])
        cells = [True if filled >> i & 1 else False if empty >> i & 1 else 7 + 3 * i for i in range(n)]
        line = Line(("row", 4), clue, cells, alive_states(clue, n, filled, empty))
        compared += encoded_alike(line, 200, monkeypatch)
    assert compared > 1500


def encoded_alike(line: Line, first: int, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Assert that the block encoding writes the same clauses over the same variables (from
    `first`) with the compiled core and without it; whether it wrote any."""
    from pysat.formula import IDPool

    from nonosat.solver.encodings import blocks

    pools = [IDPool(start_from=first), IDPool(start_from=first)]
    compiled = blocks.encode(line, pools[0])
    monkeypatch.setattr(blocks, "core", None)
    in_python = blocks.encode(line, pools[1])
    monkeypatch.undo()
    assert compiled == in_python, line
    assert pools[0].top == pools[1].top and pools[0].obj2id == pools[1].obj2id
    return bool(compiled)


def block_starts_of(word: int, length: int) -> list[int]:
    """Where each block of a line (a bitmask) starts."""
    return [i for i in range(length) if word >> i & 1 and not (i and word >> (i - 1) & 1)]


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_feasible_starts_are_those_of_the_completions(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each block's feasible starts (nonosat/core/starts.c, or the automaton's live states in
    Python) are exactly where it starts in some completion of the line, on random lines of up to
    10 cells with known cells, some of them with no completion (then Contradiction)."""
    from nonosat.solver.compiled import core

    if compiled and core is None:
        pytest.skip("the compiled core was not built")
    if not compiled:
        monkeypatch.setattr(blocks, "core", None)
    seen = {"none": 0, "some": 0}
    for clue, pattern in random_lines(41, 3000):
        n = len(pattern)
        ways = [block_starts_of(word, n) for word in completions(clue, pattern)]
        line = Line(("row", 0), clue, cell_literals(pattern))
        if not ways:
            with pytest.raises(Contradiction):
                feasible_starts(line)
            seen["none"] += 1
            continue
        expected = [sorted({starts[j] for starts in ways}) for j in range(len(clue))]
        assert feasible_starts(line) == expected, (clue, pattern)
        seen["some"] += 1
    assert seen["none"] > 100 and seen["some"] > 2000, seen


def test_a_lines_states_are_worked_out_from_its_cells_when_left_out() -> None:
    """`Line.states()` gives the automaton's live states from the cells when `alive` is None, the
    same as line logic's; a colour line must be given them."""
    from nonosat.solver.propagation import alive_states

    for clue, pattern in random_lines(43, 300):
        cells = cell_literals(pattern)
        try:
            expected = alive_states(clue, len(pattern), *known_masks(pattern))
        except Contradiction:
            with pytest.raises(Contradiction):
                Line(("row", 0), clue, cells).states()
            continue
        assert list(Line(("row", 0), clue, cells).states()) == expected
    with pytest.raises(ValueError, match="colour automaton"):
        Line(("row", 0), (1,), (), None, (1,), ((1,),)).states()


def test_compiled_feasible_starts_match_the_automatons_on_long_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """On lines of up to 400 cells (past the compiled line logic's 126), with known cells taken
    from a hidden line or at random, the compiled starts are the automaton's, and both see the
    same lines with no completion."""
    from nonosat.solver.compiled import core

    if core is None:
        pytest.skip("the compiled core was not built")
    rng = random.Random(44)
    agreed = {"none": 0, "some": 0}
    for _ in range(300):
        n = rng.randint(1, 400)
        hidden = [int(rng.random() < 0.6) for _ in range(n)]
        clue = clue_of(hidden)
        source = hidden if rng.random() < 0.8 else [int(rng.random() < 0.5) for _ in range(n)]
        share = rng.choice((0.02, 0.1, 0.3))
        cells = [(cell == 1) if rng.random() < share else i + 1 for i, cell in enumerate(source)]
        line = Line(("row", 0), clue, cells)
        outcomes: list[list[list[int]] | None] = []
        for compiled in (True, False):
            if not compiled:
                monkeypatch.setattr(blocks, "core", None)
            try:
                outcomes.append(feasible_starts(line))
            except Contradiction:
                outcomes.append(None)
        monkeypatch.undo()
        assert outcomes[0] == outcomes[1], (clue, cells)
        agreed["none" if outcomes[0] is None else "some"] += 1
    assert agreed["none"] > 10 and agreed["some"] > 200, agreed
