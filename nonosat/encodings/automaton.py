"""The regular-language encoding: one variable per live automaton state per cell.

See encodings/automaton.md for the variables, the clause schemas and their counts. Unit
propagation on these clauses makes every deduction a complete line solver makes.
"""

from __future__ import annotations

from pysat.formula import IDPool

from nonosat.encodings.base import Clause, Line, Literal, add_clause
from nonosat.linesolve import automaton


def _states(mask: int) -> list[int]:
    """The state numbers set in a mask, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def encode(line: Line, pool: IDPool) -> list[Clause]:
    """Clauses true exactly when `line.cells` spell a word of the clue's language."""
    a = automaton(line.clue)
    alive, cells = line.alive, line.cells
    length = len(cells)

    def state(i: int, p: int) -> Literal:
        if alive[i] == 1 << p:
            return True  # the only live state at this cell
        return int(pool.id((line.name, i, p)))

    clauses: list[Clause] = []
    add_clause(clauses, [state(0, p) for p in _states(alive[0])])
    for i in range(length):
        here = _states(alive[i])
        cell = cells[i]
        for p in here:
            q = state(i, p)
            if q is True:
                continue
            is_one = (a.ones >> p) & 1
            if cell is not True and cell is not False:
                add_clause(clauses, [-q, cell if is_one else -cell])
            if i + 1 < length:
                nxt = alive[i + 1] & ((1 << (p + 1)) | ((1 << p) if not is_one else 0))
                add_clause(clauses, [-q] + [state(i + 1, s) for s in _states(nxt)])
            if i:
                before = alive[i - 1] & ((1 << (p - 1) if p else 0) | ((1 << p) if not is_one else 0))
                add_clause(clauses, [-q] + [state(i - 1, s) for s in _states(before)])
        if cell is not True and cell is not False:
            add_clause(clauses, [-cell] + [state(i, p) for p in _states(alive[i] & a.ones)])
            add_clause(clauses, [cell] + [state(i, p) for p in _states(alive[i] & a.zeros)])
    return clauses
