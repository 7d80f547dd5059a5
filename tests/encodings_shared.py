"""What the tests of the line encodings share (tests/test_encodings_*.py): lines by brute force
(every line of a length by its clue, the completions of a clue and known cells, random and free
lines to test on), and the block encoding compared with the compiled core and without it."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest
from reference_cnf import Pattern, known_masks

from nonosat.model import Clue, clue_of
from nonosat.solver.encodings import Line

MAX_LENGTH = 10


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
