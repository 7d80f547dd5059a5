"""The PySAT solvers nonosat drives: their names, how each is stopped, and which one races which."""

from __future__ import annotations

from nonosat.errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

DEFAULT_SOLVER = "minisat22"
"""Fastest on the tournament sets and the n-Dom puzzles (bench/README.md)."""

SOLVERS = (
    "cadical103",
    "cadical153",
    "cadical195",
    "cadical300",
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatep",
)
"""PySAT's incremental solvers that honour a time limit (by interrupt or conflict budget)."""


def budgeted(name: str) -> bool:
    """Whether a solver has no interrupt() (CaDiCaL): its time limits are a loop of conflict
    budgets, and it holds Python's GIL while it searches."""
    return name.startswith("cadical")


SLOW_TO_STOP = ("maplecm",)
"""Solvers with interrupt() that do not hear it at the start of a search on a large formula:
MapleCM simplifies it first (its first two solves on frans_faase.txt's formula took 0.78 and
0.50 s, however small their conflict budget; an interrupt after 0.3 s was heard at 0.77 s)."""

LATE_TO_STOP = ("glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "mergesat3")
"""Solvers that hear interrupt() late, but within the second Ctrl-C has: the Glucose family
looks at it only between restarts, and MergeSat while it simplifies (on dom_14.dzn's formula,
from the interrupt to the solve's return: Glucose 4 up to 0.09 s, Glucose 3 0.11 s, Gluecard 3
0.04 s, MergeSat 0.30 s, where MiniSat, MiniCard and the Maple solvers took under 2 ms: a review
found `solve dom_14.dzn --timeout 3 --solver glucose4` ending at 3.01-3.26 s). Under a time
limit they run apart; without one they search here (a worker costs 0.1 s to start and hides
the solver's counts: the review of the mend)."""


def runs_apart(name: str, timed: bool = True) -> bool:
    """Whether the command line runs a solver's search in a worker process killed at the
    deadline or on Ctrl-C: those that hold Python's lock (`budgeted`) or are slow to stop, and,
    `timed` (under a time limit), those that stop late."""
    return budgeted(name) or name in SLOW_TO_STOP or (timed and name in LATE_TO_STOP)


def resolve_solver(name: str) -> str:
    """The canonical name of a PySAT solver, given any of PySAT's names for it ("g4", "cd19", ...).

    Only solvers that enumerate incrementally and honour a time limit are accepted.
    """
    if name in SOLVERS:
        return name  # without importing PySAT, which a puzzle solved by line logic never needs
    from pysat.solvers import SolverNames

    for canonical in SOLVERS:
        if name == canonical or name in getattr(SolverNames, canonical, ()):
            return canonical
    for left_out in ("kissat", "lingeling"):
        if name == left_out or name in getattr(SolverNames, left_out, ()):
            raise UsageError(
                f"solver {name!r} is left out: it cannot add clauses after a solve or honour a time limit;"
                f" choose one of {', '.join(SOLVERS)}"
            )
    raise UsageError(f"unknown or unsupported solver {name!r}; choose one of {', '.join(SOLVERS)}")


def rival(solver: str) -> str:
    """The solver raced against the chosen one: CaDiCaL, or MiniSat when a CaDiCaL was chosen
    (a review: cadical153 was raced by CaDiCaL 1.9.5, a solver of its own kind).
    On hard tournament puzzles each is the faster on a good share of them (bench/README.md)."""
    return "minisat22" if solver.startswith("cadical") else "cadical195"


RAW_ADD = {"cadical195": ("cadical195_add_cl", "cadical"), "minisat22": ("minisat22_add_cl", "minisat")}
"""PySAT's C function that adds one clause, and the wrapper's handle that it takes, for the
solvers used by default: calling it directly halves the cost of loading a formula."""


def pysolvers() -> Any:
    import pysolvers  # type: ignore[import-not-found]  # PySAT's C extension

    return pysolvers
