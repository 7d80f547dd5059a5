"""The next move from a partly filled grid: the cells logic decides next, and why.

A partial grid comes as text, one line per row: `#` (or `1`) filled, `.` (or `x`) empty, `?` (or
`0`, `-`) not decided yet; or as the `saved` string of a `.non` file, row after row in the same
characters. If no completion of the partial grid meets the clues, the hint names a marked cell
that is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from nonosat.errors import ParseError
from nonosat.linesolve import Board, Contradiction, propagate
from nonosat.model import Puzzle
from nonosat.steps import Step, trace

FILLED, EMPTY, UNKNOWN = set("#1"), set(".xX"), set("?0-_ ")

Cell = tuple[int, int]
State = tuple[tuple[Optional[int], ...], ...]
"""A partial grid: 1 filled, 0 empty, None not decided."""


@dataclass(frozen=True)
class Hint:
    """What to do next: logical steps, a cell from search, or the wrong cell."""

    steps: tuple[Step, ...]
    wrong: Optional[tuple[Cell, int]] = None
    """A marked cell that no solution allows, and the value it should have."""
    searched: Optional[tuple[Cell, int]] = None
    """When logic finds nothing: one cell and its value in a solution (from SAT)."""
    solved: bool = False
    """The partial grid is already complete and correct."""


def parse_state(text: str, puzzle: Puzzle, path: str) -> State:
    """Read a partial grid, from lines of cells or a `.non` file's `saved "..."` string."""
    saved = re.search(r'^\s*saved\s+"?([^"\n]*)"?\s*$', text, flags=re.M)
    if saved:
        flat = saved.group(1)
        if len(flat) != puzzle.width * puzzle.height:
            raise ParseError(path, text[: saved.start()].count("\n") + 1,
                             f"expected a saved string of {puzzle.width * puzzle.height} cells, found {len(flat)}")  # fmt: skip
        rows = [flat[r * puzzle.width : (r + 1) * puzzle.width] for r in range(puzzle.height)]
        first_line = text[: saved.start()].count("\n") + 1
        numbers = [first_line] * puzzle.height
    else:
        lines = [(n, line.rstrip("\n")) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) != puzzle.height:
            raise ParseError(path, None, f"expected {puzzle.height} rows of cells, found {len(lines)}")
        numbers = [n for n, _ in lines]
        rows = [line.strip() for _, line in lines]
    state = []
    for number, row in zip(numbers, rows):
        if len(row) != puzzle.width:
            raise ParseError(path, number, f"expected {puzzle.width} cells (# . ?), found {len(row)}")
        cells: list[Optional[int]] = []
        for mark in row:
            if mark in FILLED:
                cells.append(1)
            elif mark in EMPTY:
                cells.append(0)
            elif mark in UNKNOWN:
                cells.append(None)
            else:
                raise ParseError(path, number, f"expected cells as # (filled), . (empty) or ? (unknown), found {mark!r}")
        state.append(tuple(cells))
    return tuple(state)


def load_state(path: str | Path, puzzle: Puzzle) -> State:
    from nonosat.formats import read_text

    return parse_state(read_text(path), puzzle, str(path))


def _board(puzzle: Puzzle, state: State) -> Board:
    board = Board(puzzle)
    for r, row in enumerate(state):
        for c, value in enumerate(row):
            if value is not None:
                board.set_cell(r, c, value)
    return board


def _a_solution(puzzle: Puzzle, board: Optional[Board]) -> Optional[tuple[tuple[int, ...], ...]]:
    """A solution that agrees with the board's cells (any solution, with board None)."""
    from nonosat.cnf import build_formula
    from nonosat.linesolve import line_solve
    from nonosat.solver import _enumerate

    try:
        settled = line_solve(puzzle) if board is None else propagate(board.copy())
    except Contradiction:
        return None
    if settled.is_complete():
        grid = settled.grid()
        return grid if puzzle.satisfied_by(grid) else None
    solutions, _ = _enumerate(build_formula(settled), 1, "minisat22", None)
    return solutions[0].grid if solutions else None


def hint(puzzle: Puzzle, state: State, steps: int = 1) -> Hint:
    """The next `steps` logical steps from a partial grid, or the cell that is wrong."""
    puzzle.ensure_possible()
    board = _board(puzzle, state)
    if _a_solution(puzzle, board) is None:  # no completion: some marked cell is wrong
        solution = _a_solution(puzzle, None)
        if solution is None:
            return Hint(())
        for r, row in enumerate(state):
            for c, value in enumerate(row):
                if value is not None and value != solution[r][c]:
                    return Hint((), wrong=((r, c), solution[r][c]))
    if board.is_complete():
        return Hint((), solved=True)
    found: list[Step] = []

    class Enough(Exception):
        pass

    def keep(step: Step, _board: Board) -> None:
        found.append(step)
        if len(found) >= steps:
            raise Enough

    try:
        trace(puzzle, board, on_step=keep)
    except Enough:
        pass
    if found:
        return Hint(tuple(found))
    solution = _a_solution(puzzle, board)
    assert solution is not None
    for r, row in enumerate(state):
        for c, value in enumerate(row):
            if value is None and board.cell(r, c) is None:
                return Hint((), searched=((r, c), solution[r][c]))
    return Hint((), solved=True)
