"""What every line encoding shares: literals that may be constants, and clause building."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pysat.formula import IDPool

from nonosat.model import Clue, Colours

Literal = int | bool
"""A DIMACS literal, or True/False for a value already known (a cell the line solver fixed)."""

Clause = list[int]


FREEING_A_CLAUSE = 7e-8
"""Seconds to free one clause list (41-68 ns measured, on formulas of 0.9-2.1 million clauses):
a formula's clauses are let go of by its deadline, not after it (`Deadline.check`'s `keep`)."""

FREEING_A_NAME = 1.2e-7
"""Seconds to free one named variable of the pool (114 ns measured, the automaton encoding's
887,192 names of a random 130x130 grid): a review found a build cut short at `timeout=2` ending
at 2.05 s, its keep counting the clauses alone (the blocks encoding names none in C)."""


class collection_paused:  # noqa: N801 - used as a context manager, named as contextlib's are
    """Python's cyclic garbage collector off while a formula is built and loaded into a solver
    (and on again at the end of the block, or at `resume`, unless it was off before): millions of
    clause lists make no cycles, but each full collection walks them all (bench/README.md,
    "Building the CNF without the garbage collector"). Lists are still freed as they are let go.
    Let the clauses go before the collector is on again: a formula still held then is walked all
    at once (0.4-0.5 s for 2.1 million clauses). The collector is the whole process's: it is not
    kept off while a search runs (hours, and a host's other threads would keep their garbage)."""

    def __enter__(self) -> collection_paused:
        self.was_on = gc.isenabled()
        self.paused = True
        gc.disable()
        return self

    def resume(self) -> None:
        """The collector on again now (once; the end of the block then does nothing)."""
        if self.paused:
            self.paused = False
            if self.was_on:
                gc.enable()

    def __exit__(self, *exception: object) -> None:
        self.resume()


def negate(literal: Literal) -> Literal:
    """The opposite literal; constants flip too."""
    if literal is True or literal is False:
        return not literal
    return -literal


def add_clause(clauses: list[Clause], literals: Sequence[Literal]) -> None:
    """Append a clause, folding constants: a true literal drops it, false literals vanish."""
    kept: Clause = []
    for literal in literals:
        if literal is True:
            return
        if literal is not False:
            kept.append(literal)
    clauses.append(kept)


def fresh_variables(pool: IDPool, keys: Sequence[object]) -> list[int]:
    """New consecutive variables for `keys`, as `pool.id(key)` for each key in turn would give,
    at a fraction of the cost (encoders ask for thousands per puzzle)."""
    if not keys:
        return []
    if pool._occupied or keys[0] in pool.obj2id:
        return [pool.id(key) for key in keys]  # the general path, for pools made elsewhere
    first = pool.top + 1
    ids = list(range(first, first + len(keys)))
    pool.top += len(keys)
    pool.obj2id.update(zip(keys, ids, strict=True))
    pool.id2obj.update(zip(ids, keys, strict=True))
    return ids


class UnnamedPool(IDPool):  # type: ignore[misc]  # PySAT is untyped
    """An IDPool whose auxiliary variables need no names: the whole grid's formula, whose
    blocking clauses and grids are over the cell variables only. An encoder may `reserve`
    variables there without a key each (the block encoding does, in C); `id` names as usual."""

    def reserve(self, count: int) -> int:
        """The first of `count` new variables."""
        first = int(getattr(self, "top")) + 1  # noqa: B009 - PySAT's attribute, untyped
        setattr(self, "top", first + count - 1)  # noqa: B010
        return first

    def named(self) -> int:
        """How many variables have names: each is freed with the pool (FREEING_A_NAME)."""
        return len(getattr(self, "obj2id"))  # noqa: B009

    def let_go(self) -> None:
        """Break PySAT's cycle (its `obj2id` makes new ids through a function that holds the pool),
        so that the pool's names are freed as soon as it is let go, not at the collector's next
        full pass (0.1 s after a 200x200 build is cut short)."""
        getattr(self, "obj2id").default_factory = None  # noqa: B009


@dataclass(frozen=True)
class Line:
    """One row or column to encode.

    `cells` holds each cell's literal (a constant when known); `alive[i]` is the mask of the clue
    automaton's states that some completion passes through at cell i (see `line_logic`): in black
    and white it may be left out (None), and `states()` works it out from the cells when an
    encoding asks (the block encoding in C does not: `nonosat/core/starts.c`); `name` keys the
    line's auxiliary variables in the pool.

    A colour line also has its blocks' `colours` and, in `choices`, for each cell the literal of
    each colour 1..K (`choices[i][k - 1]`: "cell i has colour k"; blank is none of them); its
    `cells` are empty and `alive` holds the states of the colour automaton.
    """

    name: tuple[str, int]
    clue: Clue
    cells: Sequence[Literal]
    alive: Sequence[int] | None = None
    colours: Colours | None = None
    choices: Sequence[Sequence[Literal]] = ()

    def states(self) -> Sequence[int]:
        """`alive`, from the cells when it was left out. Raises Contradiction when no completion
        of the line fits its known cells."""
        if self.alive is not None:
            return self.alive
        if self.colours is not None:
            raise ValueError("a colour line's live states are the colour automaton's: give them")
        from nonosat.solver.line_logic import alive_states

        filled = sum(1 << i for i, cell in enumerate(self.cells) if cell is True)
        empty = sum(1 << i for i, cell in enumerate(self.cells) if cell is False)
        return alive_states(self.clue, len(self.cells), filled, empty)


def at_most_one(literals: Sequence[Literal]) -> list[Clause]:
    """Pairwise clauses: no two of the literals both true (one cell, at most one colour)."""
    clauses: list[Clause] = []
    for i, first in enumerate(literals):
        for second in literals[i + 1 :]:
            add_clause(clauses, [negate(first), negate(second)])
    return clauses


class LineEncoder(Protocol):
    """An encoding: the clauses that hold exactly when the line's cells meet its clue."""

    def __call__(self, line: Line, pool: IDPool) -> list[Clause]: ...
