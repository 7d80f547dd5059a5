"""The sat engine: each open line's clue as CNF (the `encoding`, `nonosat.solver.encodings`),
solved by a PySAT solver (the `solver`, `backends`) in one incremental session (`session`),
every solution blocked by a clause over the open cells to look for the next (`enumeration`),
and a second solution of a grid with a 2x2 switch found at once (`switch`).

It takes every puzzle nonosat reads: black and white or colour, of any size within the limits.
Only the lines line logic left open are encoded, with their known cells as constants, and in
black and white each such line's implications follow (`encodings.implications`). With a second
core, a search still going after a moment is joined by another solver in a worker process
(CaDiCaL, or MiniSat when CaDiCaL was chosen), and the first to finish answers.
"""

from __future__ import annotations

from typing import Any

from nonosat.errors import CutShort, FormulaTooLarge
from nonosat.solver.engines import Found, Request


def search(request: Request) -> Found:
    """The grids of the board line logic left open, by the CNF and PySAT (its counts: the open
    cells, the formula's variables and clauses, and the solver's conflicts, decisions,
    propagations and restarts where it searched in this process)."""
    from nonosat.solver.encodings.base import collection_paused
    from nonosat.solver.encodings.grid import build_formula  # PySAT only now: line logic never needs it
    from nonosat.solver.enumeration import enumerate_grids

    with collection_paused() as pause:  # until the clauses are in the solver and let go of here
        try:
            formula = build_formula(request.board, request.encoding, request.deadline)
        except FormulaTooLarge as error:
            return Found([], False, str(error), outgrown=True)
        except CutShort as error:
            return Found([], False, str(error))
        stats = {"unknown_cells": formula.open_cells, "variables": formula.variables, "clauses": len(formula.clauses)}
        answered: dict[str, Any] = {}
        grids, complete, cut = enumerate_grids(
            formula,
            request.count,
            request.solver,
            request.deadline,
            race=request.race,
            race_after=request.race_after,
            counts=stats,
            loaded=pause.resume,
            answered=answered,
        )
    by, rival = answered["solver"], answered["rival"]
    return Found(grids, complete, cut, stats, solver=by, encoding=request.encoding, rival=rival)  # checked by `drive`
