"""Each line encoding against its written specification and its reference CNFs: the reference
files are the encoder's clauses in its order, and the count formulas of encodings/automaton.md and
encodings/blocks.md (unpruned, and exact on lines with known cells) are the encoders' counts.

A line here is a clue and a pattern of known cells (`?` unknown, `#` filled, `.` empty); the
helpers in `reference_cnf` turn it into the `Line` the encoders take, with cell i as variable i+1."""

from __future__ import annotations

from pathlib import Path

import pytest
from encodings_shared import free_lines, random_lines
from reference_cnf import LINES, REFERENCE, Pattern, encode_line, file_name, make_line, read_reference

from nonosat.model import Clue
from nonosat.solver.encodings import ENCODINGS, Line, automaton, blocks
from nonosat.solver.encodings.blocks import feasible_starts
from nonosat.solver.propagation import Contradiction

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
