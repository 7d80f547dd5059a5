"""The dfs engine: the compiled core's depth-first search, with line logic at every node.

Black and white up to 126x126 (`nonosat/core/dfs.c`): at each node every open cell is probed
both ways with line logic; a value that leads to a contradiction gives the other, until no probe
fixes anything (a probe's result is kept while the board has not changed on its lines:
tests/test_probe_records.py). Then it guesses the cell whose probes fixed the most, and
backtracks on a dead end; restarts take other ways of choosing. It decides about 85% of random
tournament puzzles within 200 guesses, but the conflict-driven search is faster on whole sets.
The generator asks it first (`generate.repair`): the pairs of solutions it finds steer the repair
best. With a second core, the same search on the puzzle upside down races it
(`compiled_search.raced`); in colour, the SAT engine with CaDiCaL does.

Every other puzzle, colour or over 126 cells a side (`nonosat/core/colour_search.c`): the open
cell with the fewest colours left takes each of them in turn, line logic after each, without
probing and without a race.
"""

from __future__ import annotations

from nonosat.solver.compiled_search import raced
from nonosat.solver.engines import Found, Request


def search(request: Request) -> Found:
    """The grids of the board line logic left open, by the depth-first search (within
    `request.guesses` guesses, when given; its count: the guesses made)."""
    return raced("dfs", request)
