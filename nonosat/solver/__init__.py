"""The solving wing: every technique that solves a puzzle, a module each.

- `drive`: `solve` and `check`: the cheap checks, line logic, the engine, every grid verified;
- `outcome`: `Status`, `Method`, `Result`, `Verdict`; every grid is verified against the clues;
- `line_logic`: one line's complete deduction (the clue's automaton);
- `propagation`: the board, and line logic over the grid to a fixed point;
- `engines`: the engines by name (`auto`, `cdcl`, `dfs`, `sat`), their request and what they find;
- `cdcl`, `dfs`: the compiled core's conflict-driven and depth-first searches (`compiled`: its
  builds; `compiled_search`: a search of it run from Python, and raced upside down, or in
  colour by the SAT engine);
- `sat`: the CNF (`encodings/`) and a PySAT solver (`backends`), in one incremental session
  (`session`), solutions enumerated by blocking clauses (`enumeration`), a second one by a 2x2
  switch (`switch`);
- `race`: a rival search in a worker process, the first to finish answers.

The names below are imported when first used, so that reading `backends` alone (the command
line's defaults) does not load the rest.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

    from nonosat.errors import WrongAnswer
    from nonosat.solver.backends import DEFAULT_SOLVER, SOLVERS, resolve_solver
    from nonosat.solver.drive import check, check_within, solve, solve_within
    from nonosat.solver.engines import ENGINES, Engine
    from nonosat.solver.enumeration import enumerate_solutions
    from nonosat.solver.outcome import Result, Status, Verdict
    from nonosat.solver.session import Search

_LAZY = {
    "WrongAnswer": "nonosat.errors",
    "DEFAULT_SOLVER": "nonosat.solver.backends",
    "SOLVERS": "nonosat.solver.backends",
    "resolve_solver": "nonosat.solver.backends",
    "check": "nonosat.solver.drive",
    "check_within": "nonosat.solver.drive",
    "solve": "nonosat.solver.drive",
    "solve_within": "nonosat.solver.drive",
    "ENGINES": "nonosat.solver.engines",
    "Engine": "nonosat.solver.engines",
    "enumerate_solutions": "nonosat.solver.enumeration",
    "Result": "nonosat.solver.outcome",
    "Status": "nonosat.solver.outcome",
    "Verdict": "nonosat.solver.outcome",
    "Search": "nonosat.solver.session",
}

__all__ = [
    "DEFAULT_SOLVER",
    "ENGINES",
    "Engine",
    "SOLVERS",
    "Result",
    "Search",
    "Status",
    "Verdict",
    "WrongAnswer",
    "check",
    "check_within",
    "enumerate_solutions",
    "resolve_solver",
    "solve",
    "solve_within",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nonosat.solver' has no attribute {name!r}")
