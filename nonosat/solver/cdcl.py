"""The cdcl engine: the compiled core's conflict-driven search (`nonosat/core/cdcl_*.c`).

It learns from conflicts as a SAT solver does, but needs no CNF: the cells are its only
variables, and each line's clue is a propagator, line logic, that explains a cell it fixed only
when a conflict's analysis asks (lazy clause generation). It decides by conflict history-based
scores (CHB) with saved phases, learns first-UIP clauses over the cells, restarts (Luby), and
blocks each solution found, by a clause over its decisions, to look for the next. Black and
white, up to 126x126.

With a second core, the same search on the puzzle upside down races it
(`compiled_search.raced`): it beats MiniSat on the CNF, the rival before it, on most hard
puzzles either way up (bench/README.md, "The race upside down"). In colour, on grids of up to
7,500 open cells and colours, the SAT engine with CaDiCaL races it instead ("The colour race's
rival").
"""

from __future__ import annotations

from nonosat.solver.compiled_search import raced
from nonosat.solver.engines import Found, Request


def search(request: Request) -> Found:
    """The grids of the board line logic left open, by the conflict-driven search (its counts:
    conflicts, line settles, explanations, restarts)."""
    return raced("cdcl", request)
