"""The PySAT driver: solve and check a puzzle, and everything a search needs.

- `drive`: `solve` and `check`, line logic first, then the CNF of what is left, then the search;
- `outcome`: `Status`, `Result`, `Verdict`; every grid is verified against the clues;
- `backends`: the PySAT solvers, how each is stopped, and which one races which;
- `search`: one incremental search, with a deadline, that Ctrl-C or another thread can stop;
- `enumerate`: solutions up to a count by blocking clauses (and from a partial board);
- `race`: a rival solver in a worker process from the fork server;
- `switch`: a second solution by a 2x2 switch.
"""

from __future__ import annotations

from nonosat.errors import WrongAnswer
from nonosat.solver.backends import DEFAULT_SOLVER, SOLVERS, resolve_solver
from nonosat.solver.drive import check, solve
from nonosat.solver.enumerate import enumerate_solutions
from nonosat.solver.outcome import Result, Status, Verdict
from nonosat.solver.search import Search

__all__ = [
    "DEFAULT_SOLVER",
    "SOLVERS",
    "Result",
    "Search",
    "Status",
    "Verdict",
    "WrongAnswer",
    "check",
    "enumerate_solutions",
    "resolve_solver",
    "solve",
]
