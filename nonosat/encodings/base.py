"""What every line encoding shares: literals that may be constants, and clause building."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, Union

from pysat.formula import IDPool

from nonosat.model import Clue

Literal = Union[int, bool]
"""A DIMACS literal, or True/False for a value already known (a cell the line solver fixed)."""

Clause = list[int]


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


@dataclass(frozen=True)
class Line:
    """One row or column to encode.

    `cells` holds each cell's literal (a constant when known); `alive[i]` is the mask of the clue
    automaton's states that some completion passes through at cell i (see `linesolve`); `name`
    keys the line's auxiliary variables in the pool.
    """

    name: tuple[str, int]
    clue: Clue
    cells: Sequence[Literal]
    alive: Sequence[int]


class LineEncoder(Protocol):
    """An encoding: the clauses that hold exactly when the line's cells meet its clue."""

    def __call__(self, line: Line, pool: IDPool) -> list[Clause]: ...
