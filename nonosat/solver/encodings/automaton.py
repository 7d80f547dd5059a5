"""The regular-language encoding: one variable per live automaton state per cell.

See encodings/automaton.md for the variables, the clause schemas and their counts. Unit
propagation on these clauses makes every deduction a complete line solver makes.
"""

from __future__ import annotations

from pysat.formula import IDPool

from nonosat.clues import clue_span
from nonosat.model import Clue
from nonosat.solver.encodings.base import Clause, Line, Literal, add_clause, negate
from nonosat.solver.line_logic import automaton, colour_automaton


def _states(mask: int) -> list[int]:
    """The state numbers set in a mask, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def unpruned_counts(clue: Clue, n: int) -> tuple[int, int]:
    """(variables, clauses) of a black-and-white line of `n` cells with none known
    (encodings/automaton.md, "Unpruned"): exact, and an upper bound when cells are known."""
    d, states = n - clue_span(clue), sum(clue) + len(clue) + 1
    if d < 0:
        return 0, 2  # the first cell both ways (encodings/automaton.md, "A clue longer than its line")
    if not clue or d == 0:
        return 0, n
    variables = (d + 1) * states - 2
    return variables, 3 * variables + 2 * n - 3


def encode(line: Line, pool: IDPool) -> list[Clause]:
    """Clauses true exactly when `line.cells` spell a word of the clue's language."""
    if line.colours is not None:
        return encode_colours(line, pool)
    a = automaton(line.clue)
    alive, cells = line.states(), line.cells
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


def encode_colours(line: Line, pool: IDPool) -> list[Clause]:
    """The same clauses for a colour line: a state reads one colour (or the background), and a
    state at the last cell of a block may step over the gap state when the next block's colour
    differs. With at most one colour per cell (the grid adds it), the cells spell a word of the
    clue's language exactly when the clauses hold."""
    assert line.colours is not None
    choices, alive = line.choices, line.states()
    length = len(choices)
    count = len(choices[0]) if length else 0
    a = colour_automaton(line.clue, line.colours, count)
    zeros, skip = a.chain.zeros, a.skip
    reads = {p: colour for colour, mask in enumerate(a.reads) for p in _states(mask)}

    def state(i: int, p: int) -> Literal:
        if alive[i] == 1 << p:
            return True
        return int(pool.id((line.name, i, p)))

    clauses: list[Clause] = []
    add_clause(clauses, [state(0, p) for p in _states(alive[0])])
    for i in range(length):
        cell = choices[i]
        for p in _states(alive[i]):
            q = state(i, p)
            if q is True:
                continue
            colour = reads[p]
            if colour:
                add_clause(clauses, [-q, cell[colour - 1]])
            else:
                for literal in cell:
                    add_clause(clauses, [-q, negate(literal)])
            stay = 1 << p if zeros >> p & 1 else 0
            if i + 1 < length:
                jump = 1 << (p + 2) if skip >> p & 1 else 0
                nxt = alive[i + 1] & ((1 << (p + 1)) | stay | jump)
                add_clause(clauses, [-q] + [state(i + 1, s) for s in _states(nxt)])
            if i:
                back = (1 << (p - 1) if p else 0) | stay | (1 << (p - 2) if p >= 2 and skip >> (p - 2) & 1 else 0)
                add_clause(clauses, [-q] + [state(i - 1, s) for s in _states(alive[i - 1] & back)])
        if all(literal is True or literal is False for literal in cell):
            continue
        for colour, literal in enumerate(cell, start=1):
            if literal is not True and literal is not False:
                add_clause(clauses, [-literal] + [state(i, p) for p in _states(alive[i] & a.reads[colour])])
        add_clause(clauses, list(cell) + [state(i, p) for p in _states(alive[i] & zeros)])
    return clauses
