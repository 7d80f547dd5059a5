"""The PySAT driver: solve and check a puzzle, and everything a search needs.

- `drive`: `solve` and `check`, line logic first, then the CNF of what is left, then the search;
- `outcome`: `Status`, `Result`, `Verdict`; every grid is verified against the clues;
- `backends`: the PySAT solvers, how each is stopped, and which one races which;
- `session`: one incremental PySAT search, with a deadline, that Ctrl-C or another thread can stop;
- `enumerate`: solutions up to a count by blocking clauses;
- `race`: a rival solver in a worker process from the fork server;
- `switch`: a second solution by a 2x2 switch.

The names below are imported when first used, so that reading `backends` alone (the command
line's defaults) does not load the rest.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

    from nonosat.errors import WrongAnswer
    from nonosat.solver.backends import DEFAULT_SOLVER, SOLVERS, resolve_solver
    from nonosat.solver.drive import check, solve
    from nonosat.solver.enumeration import enumerate_solutions
    from nonosat.solver.outcome import Result, Status, Verdict
    from nonosat.solver.session import Search

_LAZY = {
    "WrongAnswer": "nonosat.errors",
    "DEFAULT_SOLVER": "nonosat.solver.backends",
    "SOLVERS": "nonosat.solver.backends",
    "resolve_solver": "nonosat.solver.backends",
    "check": "nonosat.solver.drive",
    "solve": "nonosat.solver.drive",
    "enumerate_solutions": "nonosat.solver.enumeration",
    "Result": "nonosat.solver.outcome",
    "Status": "nonosat.solver.outcome",
    "Verdict": "nonosat.solver.outcome",
    "Search": "nonosat.solver.session",
}

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


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nonosat.solver' has no attribute {name!r}")
