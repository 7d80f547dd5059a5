"""The block-position encoding: the start of each block, in an order encoding.

See encodings/blocks.md for the variables, the clause schemas and their counts. Variable
`start(j, t)` means "block j starts at cell t or later"; only starts the line solver left
feasible get variables, and no cover variables are needed: a cell is filled exactly when the
last block starting at or before it still reaches it.
"""

from __future__ import annotations

from pysat.formula import IDPool

from nonosat.encodings.base import Clause, Line, Literal, add_clause, negate
from nonosat.linesolve import automaton


def feasible_starts(line: Line) -> list[list[int]]:
    """For each block, the cells where it can start in some completion of the line."""
    a = automaton(line.clue)
    starts = []
    for j in range(len(line.clue)):
        bit = 1 << a.block_start(j)
        starts.append([i for i, states in enumerate(line.alive) if states & bit])
    return starts


def encode(line: Line, pool: IDPool) -> list[Clause]:
    """Clauses true exactly when `line.cells` meet the clue, over block-start variables."""
    clue, cells = line.clue, line.cells
    starts = feasible_starts(line)
    low = [s[0] for s in starts]
    high = [s[-1] for s in starts]

    named: list[list[int]] = [[pool.id((line.name, j, t)) for t in range(low[j] + 1, high[j] + 1)] for j in range(len(clue))]

    def start(j: int, t: int) -> Literal:
        """Block j starts at t or later."""
        if t <= low[j]:
            return True
        if t > high[j]:
            return False
        return named[j][t - low[j] - 1]

    clauses: list[Clause] = []
    for j, size in enumerate(clue):
        feasible = set(starts[j])
        for t in range(low[j] + 1, high[j] + 1):
            if t + 1 <= high[j]:
                add_clause(clauses, [negate(start(j, t + 1)), start(j, t)])  # order
            if t not in feasible:
                add_clause(clauses, [negate(start(j, t)), start(j, t + 1)])  # never exactly t
            if j + 1 < len(clue):
                add_clause(clauses, [negate(start(j, t)), start(j + 1, t + size + 1)])  # gap after j
    for i, cell in enumerate(cells):
        if cell is False:
            continue  # no feasible start covers a known empty cell
        # before the first block (or anywhere, in an empty line) the cell is empty
        add_clause(clauses, [negate(start(0, i + 1)) if clue else False, negate(cell)])
    last = len(clue) - 1
    for j, size in enumerate(clue):
        # block j covering cell i fills it (only starts low..high can cover)
        for i in range(low[j], min(high[j] + size, len(cells))):
            cell = cells[i]
            if cell is not True and cell is not False:
                add_clause(clauses, [negate(start(j, i - size + 1)), start(j, i + 1), cell])
        # if block j is the last to start at or before cell i, it must reach i; other cells
        # make the clause true by a constant, so only these are written
        end = len(cells) if j == last else min(high[j + 1], len(cells))
        for i in range(low[j] + size, end):
            cell = cells[i]
            if cell is False:
                continue
            later = False if j == last else negate(start(j + 1, i + 1))
            add_clause(clauses, [start(j, i + 1), later, negate(cell), start(j, i - size + 1)])
    return clauses
