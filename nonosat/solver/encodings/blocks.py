"""The block-position encoding: the start of each block, in an order encoding.

See encodings/blocks.md for the variables, the clause schemas and their counts. Variable
`start(j, t)` means "block j starts at cell t or later"; only starts the line solver left
feasible get variables, and no cover variables are needed: a cell is filled exactly when the
last block starting at or before it still reaches it.
"""

from __future__ import annotations

from pysat.formula import IDPool

from nonosat.clues import clue_span
from nonosat.model import Clue
from nonosat.solver.compiled import core
from nonosat.solver.encodings.base import Clause, Line, Literal, UnnamedPool, add_clause, fresh_variables, negate
from nonosat.solver.line_logic import Contradiction, automaton


def unpruned_counts(clue: Clue, n: int) -> tuple[int, int]:
    """(variables, clauses) of a black-and-white line of `n` cells with none known
    (encodings/blocks.md, "Unpruned"): exact, but not a bound when cells are known."""
    k, d = len(clue), n - clue_span(clue)
    if d < 0:
        return 0, 2  # the first cell both ways (encodings/automaton.md, "A clue longer than its line")
    if not k:
        return 0, n
    return k * d, 4 * k * d + sum(clue) - 1 + (k if d == 0 else 0)


def feasible_starts(line: Line) -> list[list[int]]:
    """For each block, the cells where it can start in some completion of the line. Raises
    Contradiction when none fits the known cells."""
    if core is not None and line.colours is None:
        found: list[list[int]] | None = core.block_starts(line.clue, line.cells)
        if found is None:
            raise Contradiction
        return found
    a = automaton(line.clue)
    alive = line.states()
    starts = []
    for j in range(len(line.clue)):
        bit = 1 << a.block_start(j)
        starts.append([i for i, states in enumerate(alive) if states & bit])
    return starts


def _bases(line: Line, starts: list[list[int]], pool: IDPool) -> list[int]:
    """For each block, the first of its variables "starts at low + 1 or later" (the later
    cells' following it), taken from the pool as the Python encoders take them."""
    if isinstance(pool, UnnamedPool):
        return [pool.reserve(s[-1] - s[0]) for s in starts]
    keys = [[(line.name, j, t) for t in range(s[0] + 1, s[-1] + 1)] for j, s in enumerate(starts)]
    return [(fresh_variables(pool, named) or [0])[0] for named in keys]


_TRUE = 1 << 62
"""A literal known true; 0 is a literal known false. Both are folded away before a clause is kept."""


def encode(line: Line, pool: IDPool) -> list[Clause]:
    """Clauses true exactly when `line.cells` meet the clue, over block-start variables.

    Written for speed (this runs for every line of every puzzle that line logic leaves open):
    literals are looked up in per-block tables in which the constants are `_TRUE` and 0, and a
    clause is written only when no literal in it is `_TRUE`, without its 0s. The clauses and
    their order are those of encodings/blocks.md. Where the compiled core is built it writes them
    (`nonosat/core/blocks.c`, the same clauses in the same order, tests/test_encodings_compiled.py).
    """
    if line.colours is not None:
        return encode_colours(line, pool)
    clue, cells = line.clue, line.cells
    n = len(cells)
    starts = feasible_starts(line)
    low = [s[0] for s in starts]
    high = [s[-1] for s in starts]
    k = len(clue)
    if core is not None:  # the same clauses, in C: most of a small puzzle's formula time otherwise
        clauses: list[Clause] = core.blocks(clue, starts, cells, _bases(line, starts, pool))
        return clauses
    names = [fresh_variables(pool, [(line.name, j, t) for t in range(low[j] + 1, high[j] + 1)]) for j in range(k)]

    # at[j][t] is the literal of "block j starts at t or later", and off[j][t] its negation, for
    # t = 0 .. n + 1. off[j] then has c_j more entries, for t = -c_j .. -1 through Python's
    # negative indices: the cover clause (V) asks about starts before the line.
    at: list[list[int]] = []
    off: list[list[int]] = []
    for j in range(k):
        named = names[j]
        before = low[j] + 1
        after = n + 2 - high[j] - 1
        at.append([_TRUE] * before + named + [0] * after)
        off.append([0] * before + [-v for v in named] + [_TRUE] * after + [0] * clue[j])
    unknown = [_TRUE if x is True or x is False else x for x in cells]  # (V) is for unknown cells
    uncell = [0 if x is True else _TRUE if x is False else -x for x in cells]

    zeros = [0] * (n + 2)
    clauses = []
    append = clauses.append
    for j, size in enumerate(clue):
        at_j, off_j = at[j], off[j]
        feasible = set(starts[j])
        at_next = at[j + 1] if j + 1 < k else None
        for t in range(low[j] + 1, high[j] + 1):
            if t + 1 <= high[j]:
                append([off_j[t + 1], at_j[t]])  # (O) order: both are variables
            if t not in feasible:
                append([off_j[t], at_j[t + 1]])  # (H) never exactly t: t < high, a variable
            if at_next is not None:  # (G) gap after block j
                later = at_next[t + size + 1]  # t + c_j + 1 <= h_{j+1} < n: in the table
                if later != _TRUE:
                    append([off_j[t], later] if later else [off_j[t]])
    first_off = off[0] if k else None
    for i in range(n):
        x = uncell[i]
        if x == _TRUE:
            continue  # a known empty cell: no feasible start covers it
        # (E) before the first block (or anywhere, in an empty line) the cell is empty
        b = first_off[i + 1] if first_off is not None else 0
        if b != _TRUE:
            append([lit for lit in (b, x) if lit])
    for j, size in enumerate(clue):
        at_j, off_j = at[j], off[j]
        # (V) block j covering cell i fills it; (R) if block j is the last to start at or before
        # cell i, it must reach i. Built whole, then folded: constants are rare.
        cover = [[off_j[i - size + 1], at_j[i + 1], unknown[i]] for i in range(low[j], min(high[j] + size, n))]
        last = j == k - 1
        off_next = zeros if last else off[j + 1]
        end = n if last else min(high[j + 1], n)
        reach = [[at_j[i + 1], off_next[i + 1], uncell[i], at_j[i - size + 1]] for i in range(low[j] + size, end)]
        for group in (cover, reach):
            for clause in group:
                if _TRUE in clause:
                    continue
                append([lit for lit in clause if lit] if 0 in clause else clause)
    return clauses


def encode_colours(line: Line, pool: IDPool) -> list[Clause]:
    """The same schemas for a colour line: the gap after block j is one cell only when block j + 1
    has its colour, a covered cell has its block's colour, and a cell of colour k is covered by
    the last block to start at or before it, which must have colour k. With at most one colour per
    cell (the grid adds it), the clauses hold exactly when the cells meet the clue."""
    assert line.colours is not None
    clue, colours, choices = line.clue, line.colours, line.choices
    n = len(choices)
    starts = feasible_starts(line)
    k = len(clue)
    zeros = automaton(clue).zeros
    if core is not None:  # the same clauses in C (nonosat/core/blocks.c): most of a colour formula's time
        bases = _bases(line, starts, pool)
        solid = [not alive & zeros for alive in line.states()]
        clauses: list[Clause] = core.blocks_colour(clue, colours, starts, choices, bases, solid)
        return clauses
    table: list[list[Literal]] = []  # table[j][t]: block j starts at t or later, t = 0 .. n + 1
    for j in range(k):
        low, high = starts[j][0], starts[j][-1]
        named = fresh_variables(pool, [(line.name, j, t) for t in range(low + 1, high + 1)])
        table.append([True] * (low + 1) + list(named) + [False] * (n + 1 - high))

    def at(j: int, t: int) -> Literal:
        return True if t <= 0 else False if t > n + 1 else table[j][t]

    clauses = []
    for j, size in enumerate(clue):
        feasible = set(starts[j])
        gap = size + (1 if j + 1 < k and colours[j + 1] == colours[j] else 0)
        for t in range(starts[j][0] + 1, starts[j][-1] + 1):
            add_clause(clauses, [negate(at(j, t + 1)), at(j, t)])  # (O)
            if t not in feasible:
                add_clause(clauses, [negate(at(j, t)), at(j, t + 1)])  # (H)
            if j + 1 < k:
                add_clause(clauses, [negate(at(j, t)), at(j + 1, t + gap)])  # (G)
    alive = line.states()
    for i in range(n):
        before_first = at(0, i + 1) if k else True
        for literal in choices[i]:
            add_clause(clauses, [negate(before_first), negate(literal)])  # (E)
        if not alive[i] & zeros:
            add_clause(clauses, list(choices[i]))  # (F) a cell that cannot be blank has a colour
    for j, size in enumerate(clue):
        colour_j = colours[j]
        end = n if j + 1 == k else min(starts[j + 1][-1], n)
        for i in range(starts[j][0], min(max(starts[j][-1] + size, end), n)):
            cell = choices[i]
            add_clause(clauses, [negate(at(j, i - size + 1)), at(j, i + 1), cell[colour_j - 1]])  # (V)
            later = at(j + 1, i + 1) if j + 1 < k else True
            for colour, literal in enumerate(cell, start=1):  # (R)
                reach = [at(j, i + 1), negate(later), negate(literal)]
                add_clause(clauses, reach + ([at(j, i - size + 1)] if colour == colour_j else []))
    return clauses
