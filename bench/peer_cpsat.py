"""An independent nonogram solver on OR-tools CP-SAT, to cross-check nonosat's verdicts.

One Boolean variable per cell and one `add_automaton` constraint per row and per column. The
automaton is built here from the clue; nothing of nonosat's line solver or CNF encodings is used,
only its puzzle model. Uniqueness is decided as nonosat decides it, but by a different solver: a
clause that the next grid differs from the first in at least one cell, and a second solve.

    >>> from nonosat import load
    >>> peer_check(load("puzzles/webpbn-00001-dancer.non")).status
    'unique'
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from nonosat.model import Clue, Grid, Puzzle

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

PeerStatus = Literal["unique", "multiple", "none", "unknown"]

Transition = tuple[int, int, int]
"""(state, cell value, next state) of a clue automaton."""


@dataclass(frozen=True)
class Automaton:
    """A deterministic automaton over cell values (0 empty, 1 filled) that accepts one clue."""

    start: int
    finals: tuple[int, ...]
    transitions: tuple[Transition, ...]


@dataclass(frozen=True)
class PeerResult:
    """CP-SAT's verdict on a puzzle, with every solution it found (each checked against the clues)."""

    status: PeerStatus
    solutions: list[Grid]
    seconds: float


class PeerError(Exception):
    """CP-SAT rejected the model or returned a grid that breaks the clues: a bug in this module."""


def cp_model_module() -> ModuleType:
    """OR-tools' CP-SAT module, imported only when needed, with an install hint if it is missing."""
    try:
        from ortools.sat.python import cp_model
    except ImportError as error:
        raise ImportError("the CP-SAT peer needs OR-tools: pip install -e '.[bench]'") from error
    module: ModuleType = cp_model
    return module


def clue_automaton(clue: Clue) -> Automaton:
    """The regular automaton of `0* 1^c1 0+ 1^c2 ... 0*`, its states numbered along a chain.

    State 0 is the gap before the first block. Each block cell has a state, and after each block
    comes a gap state, entered by the block's closing 0 and looping on further 0s. The accepting
    states are the last block's last cell and the gap after it. An empty clue is one gap state
    that loops on 0, so the line must be all zeros.
    """
    transitions: list[Transition] = [(0, 0, 0)]
    gap = 0
    for length in clue:
        first = gap + 1
        transitions.append((gap, 1, first))
        transitions += [(cell, 1, cell + 1) for cell in range(first, first + length - 1)]
        last = first + length - 1
        gap = last + 1
        transitions += [(last, 0, gap), (gap, 0, gap)]
    finals = (gap - 1, gap) if clue else (0,)
    return Automaton(start=0, finals=finals, transitions=tuple(transitions))


def grid_model(puzzle: Puzzle) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    """A CP-SAT model of the puzzle: a Boolean per cell, an automaton per row and per column."""
    model = cp_model_module().CpModel()
    cells = [[model.new_bool_var(f"r{r}c{c}") for c in range(puzzle.width)] for r in range(puzzle.height)]
    lines = [(clue, cells[r]) for r, clue in enumerate(puzzle.rows)]
    lines += [(clue, [row[c] for row in cells]) for c, clue in enumerate(puzzle.columns)]
    for clue, line in lines:
        automaton = clue_automaton(clue)
        model.add_automaton(line, automaton.start, list(automaton.finals), list(automaton.transitions))
    return model, cells


def block(model: cp_model.CpModel, cells: list[list[cp_model.IntVar]], grid: Grid) -> None:
    """Add a clause that at least one cell differs from `grid`."""
    model.add_bool_or(
        [
            cell.Not() if value else cell
            for row, values in zip(cells, grid, strict=True)
            for cell, value in zip(row, values, strict=True)
        ]
    )


def peer_check(puzzle: Puzzle, timeout: float | None = None, workers: int = 1) -> PeerResult:
    """Decide whether a puzzle has no, one or several solutions, with CP-SAT alone.

    `timeout` bounds the whole check in seconds (status "unknown" when it runs out); `workers`
    is CP-SAT's number of search workers. Black and white only: a colour puzzle raises PeerError
    (bench/peer_cpsat_colour.py is the colour peer), where reading its cells as filled or empty
    would give a wrong verdict.
    """
    if puzzle.is_colour:
        raise PeerError(f"{puzzle.name}: a colour puzzle; the colour peer is bench.peer_cpsat_colour")
    started = time.monotonic()
    model, cells = grid_model(puzzle)
    solutions: list[Grid] = []
    while len(solutions) < 2:
        remaining = None if timeout is None else timeout - (time.monotonic() - started)
        if remaining is not None and remaining <= 0:
            return PeerResult("unknown", solutions, time.monotonic() - started)
        grid = solve_once(puzzle, model, cells, remaining, workers)
        if grid is None:
            return PeerResult("unknown", solutions, time.monotonic() - started)
        if grid is False:
            status: PeerStatus = "unique" if solutions else "none"
            return PeerResult(status, solutions, time.monotonic() - started)
        solutions.append(grid)
        block(model, cells, grid)
    return PeerResult("multiple", solutions, time.monotonic() - started)


def solve_once(
    puzzle: Puzzle,
    model: cp_model.CpModel,
    cells: list[list[cp_model.IntVar]],
    timeout: float | None,
    workers: int,
) -> Grid | Literal[False] | None:
    """One CP-SAT solve: a verified grid, False if there is none, None if time ran out."""
    cp_model = cp_model_module()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if timeout is not None:
        solver.parameters.max_time_in_seconds = timeout
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return False
    if status == cp_model.UNKNOWN:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise PeerError(f"CP-SAT answered {solver.status_name(status)}: {model.validate()}")
    grid = tuple(tuple(int(solver.value(cell)) for cell in row) for row in cells)
    if not puzzle.satisfied_by(grid):
        raise PeerError(f"CP-SAT's grid breaks {', '.join(puzzle.violations(grid)[:5])}")
    return grid


EXIT_FOR_STATUS = {"unique": 0, "multiple": 1, "none": 3, "unknown": 4}
"""The exit codes of `python bench/peer_cpsat.py FILE`, as nonosat's."""


def main(argv: list[str]) -> int:
    """The peer as a command, for end-to-end timing (bench/cli_times.py): check one puzzle file,
    print its verdict and exit as `nonosat check` does."""
    from nonosat import load

    result = peer_check(load(argv[0]), workers=1)
    print(result.status)
    return EXIT_FOR_STATUS[result.status]


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
