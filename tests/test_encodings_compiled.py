"""The compiled core's side of the encodings: the block encoding writes the clauses blocks.py
writes, and each block's feasible starts (nonosat/core/starts.c, or the automaton's live states in
Python) are where it starts in some completion, on long lines too; a line's states are worked out
from its cells when left out."""

from __future__ import annotations

import random

import pytest
from encodings_shared import completions, encoded_alike, random_lines
from reference_cnf import cell_literals, known_masks

from nonosat.model import clue_of
from nonosat.solver.encodings import Line, blocks
from nonosat.solver.encodings.blocks import feasible_starts
from nonosat.solver.propagation import Contradiction


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
