"""The marks to blame when a partial grid has no completion: which of them cannot all hold.

A search on the grid's formula (`nonosat.solver.session.Search`) is asked under assumptions,
one set for each mark: the marked cell's value. Its unsatisfiable core over those marks is shrunk
until every mark left is needed (`marks_at_odds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nonosat.errors import TimeUp

if TYPE_CHECKING:
    from nonosat.model import Cell
    from nonosat.solver.propagation import Board
    from nonosat.solver.session import Search


def has(board: Board, cell: Cell, colour: int) -> list[int]:
    """The assumptions under which an open cell has a colour: its variable true, or for blank
    the variable of every colour it may have false."""
    from nonosat.solver.encodings.grid import cell_variable

    r, c = cell
    if colour:
        return [cell_variable(board.puzzle, r, c, colour)]
    return [-cell_variable(board.puzzle, r, c, k) for k in board.possible(r, c) if k]


def holds(search: Search, assumptions: list[int]) -> bool:
    answer = search.solve(assumptions)
    if answer is None:
        raise TimeUp("looking for the wrong cell")
    return bool(answer)


def marks_at_odds(search: Search, board: Board, marks: list[tuple[Cell, int]]) -> list[tuple[Cell, int]]:
    """Marks, each possible on the board, that cannot all hold: the solver's unsatisfiable core
    of them, then each mark in turn left out while the rest still have no model (each one left
    is needed: without it, the others have a completion)."""
    literals = {cell: has(board, cell, value) for cell, value in marks}
    owner = {literal: cell for cell, cell_literals in literals.items() for literal in cell_literals}

    def assumed(cells: list[Cell]) -> list[int]:
        return [literal for cell in cells for literal in literals[cell]]

    def core() -> set[Cell]:
        return {owner[literal] for literal in search.sat.get_core() or () if literal in owner}

    if holds(search, assumed(list(literals))):
        raise AssertionError("internal error: marks that line logic refutes have a completion")
    kept = [cell for cell in literals if cell in core()]
    i = 0
    while i < len(kept):
        without = kept[:i] + kept[i + 1 :]
        if holds(search, assumed(without)):
            i += 1
        else:
            needed = core()
            kept = [cell for cell in without if cell in needed]
    value = dict(marks)
    return [(cell, value[cell]) for cell in kept]
