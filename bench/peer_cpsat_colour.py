"""An independent colour nonogram solver on OR-tools CP-SAT, to cross-check nonosat's verdicts.

One integer variable per cell, its colour (0 blank, 1..K the palette's colours), and one
`add_automaton` constraint per row and per column over those colours. The automaton is built here
from the clue and its block colours: blocks of the same colour need at least one blank between
them, blocks of different colours may touch. Nothing of nonosat's solving code is used, only its
puzzle model (`Puzzle.colours_of`, `Puzzle.satisfied_by`). Uniqueness is decided as nonosat
decides it: after a first solution, a constraint that the next grid differs from it in at least
one cell, and a second solve. Black and white is the case K = 1 and goes through the same model.

    >>> from nonosat import Puzzle
    >>> from nonosat.palette import WHITE, Colour
    >>> palette = (WHITE, Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"))
    >>> colour_peer_check(Puzzle.from_grid([[1, 2], [2, 0]], palette=palette)).status
    'unique'
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from bench.peer_cpsat import (
    EXIT_FOR_STATUS,
    Automaton,
    PeerError,
    PeerResult,
    PeerStatus,
    Transition,
    cp_model_module,
    solve_once,
)
from nonosat.model import Clue, Colours, Grid, Puzzle

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "colour_automaton",
    "colour_grid_model",
    "colour_peer_check",
    "differ_from",
    "peer_times",
]


def colour_automaton(clue: Clue, colours: Colours) -> Automaton:
    """The regular automaton over cell colours that accepts exactly the lines meeting a colour clue.

    Its states are numbered along a chain. State 0 is the gap before the first block and loops on
    0. Each block cell has a state, entered by the block's colour. After each block comes a gap
    state, entered by a 0 and looping on 0; the next block starts from that gap, and, when its
    colour differs from this block's, also straight from this block's last cell. The accepting
    states are the last block's last cell and the gap after it. An empty clue is one gap state
    that loops on 0, so the line must be all blank.
    """
    if len(clue) != len(colours):
        raise PeerError(f"a clue of {len(clue)} block(s) with {len(colours)} colour(s)")
    transitions: list[Transition] = [(0, 0, 0)]
    gap = 0
    previous: tuple[int, int] | None = None  # the last cell's state and colour of the block before
    for length, colour in zip(clue, colours, strict=True):
        first = gap + 1
        transitions.append((gap, colour, first))
        if previous is not None and previous[1] != colour:
            transitions.append((previous[0], colour, first))
        transitions += [(cell, colour, cell + 1) for cell in range(first, first + length - 1)]
        last = first + length - 1
        gap = last + 1
        transitions += [(last, 0, gap), (gap, 0, gap)]
        previous = (last, colour)
    finals = (gap - 1, gap) if clue else (0,)
    return Automaton(start=0, finals=finals, transitions=tuple(transitions))


def accepts(automaton: Automaton, line: Iterable[int]) -> bool:
    """Whether the automaton accepts a line of cell colours (for tests; CP-SAT runs it otherwise)."""
    table = {(state, value): target for state, value, target in automaton.transitions}
    state: int | None = automaton.start
    for value in line:
        state = table.get((state, value)) if state is not None else None
        if state is None:
            return False
    return state in automaton.finals


def colour_grid_model(puzzle: Puzzle) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    """A CP-SAT model of the puzzle: an integer 0..K per cell, an automaton per row and per column."""
    model = cp_model_module().CpModel()
    top = puzzle.colour_count
    cells = [[model.new_int_var(0, top, f"r{r}c{c}") for c in range(puzzle.width)] for r in range(puzzle.height)]
    lines = [(True, r, cells[r]) for r in range(puzzle.height)]
    lines += [(False, c, [row[c] for row in cells]) for c in range(puzzle.width)]
    for is_row, index, line in lines:
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        automaton = colour_automaton(clue, puzzle.colours_of(is_row, index))
        model.add_automaton(line, automaton.start, list(automaton.finals), list(automaton.transitions))
    return model, cells


def differ_from(model: cp_model.CpModel, cells: list[list[cp_model.IntVar]], grid: Grid) -> None:
    """Add a constraint that at least one cell's colour differs from `grid`: a Boolean per cell
    that forces `cell != value` when true, and a clause over those Booleans."""
    chosen = []
    for r, (row, values) in enumerate(zip(cells, grid, strict=True)):
        for c, (cell, value) in enumerate(zip(row, values, strict=True)):
            differs = model.new_bool_var(f"d{r}_{c}")
            model.add(cell != value).only_enforce_if(differs)
            chosen.append(differs)
    model.add_bool_or(chosen)


def colour_peer_check(puzzle: Puzzle, timeout: float | None = None, workers: int = 1, count: int = 2) -> PeerResult:
    """Decide whether a colour (or black-and-white) puzzle has no, one or several solutions, with
    CP-SAT alone.

    `timeout` bounds the whole check in seconds (status "unknown" when it runs out); `workers` is
    CP-SAT's number of search workers; `count` is how many solutions to look for (2 decides
    uniqueness; more counts the solutions of a small puzzle, each one differing from all found
    before). "multiple" is any verdict with two or more solutions.
    """
    if count < 2:
        raise ValueError("count must be at least 2: one solution alone decides nothing")
    started = time.monotonic()
    model, cells = colour_grid_model(puzzle)
    solutions: list[Grid] = []
    while len(solutions) < count:
        remaining = None if timeout is None else timeout - (time.monotonic() - started)
        if remaining is not None and remaining <= 0:
            return PeerResult("unknown", solutions, time.monotonic() - started)
        grid = solve_once(puzzle, model, cells, remaining, workers)
        if grid is None:
            return PeerResult("unknown", solutions, time.monotonic() - started)
        if grid is False:
            return PeerResult(verdict(len(solutions)), solutions, time.monotonic() - started)
        solutions.append(grid)
        differ_from(model, cells, grid)
    return PeerResult("multiple", solutions, time.monotonic() - started)


def verdict(found: int) -> PeerStatus:
    """The verdict once the search proved there is no further solution."""
    return "none" if found == 0 else "unique" if found == 1 else "multiple"


def peer_times(
    puzzles: Iterable[Puzzle], timeout: float | None = None, workers: int = 1
) -> Iterator[tuple[Puzzle, PeerResult]]:
    """Run the peer on each puzzle in turn, one after the other, and yield it with its result.
    CP-SAT is warmed up on a 1x1 puzzle first, so its import and first start are not counted. A
    verdict that a goal refutes (a goal that meets the clues makes "none" wrong, and "unique" must
    give the goal) raises PeerError."""
    colour_peer_check(Puzzle.from_grid([[1]]))
    for puzzle in puzzles:
        result = colour_peer_check(puzzle, timeout=timeout, workers=workers)
        goal = puzzle.goal
        if goal is not None and puzzle.satisfied_by(goal):
            if result.status == "none" or (result.status == "unique" and result.solutions[0] != goal):
                raise PeerError(f"{puzzle.name}: the peer says {result.status}, refuted by the goal")
        yield puzzle, result


def summary(results: list[PeerResult]) -> str:
    """One line: how many puzzles, the verdicts, the total, median and largest time."""
    if not results:
        return "0 puzzles"
    times = [r.seconds for r in results]
    counts = {s: sum(r.status == s for r in results) for s in ("unique", "multiple", "none", "unknown")}
    verdicts = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return (
        f"{len(results)} puzzle{'s' if len(results) > 1 else ''} ({verdicts}): total {sum(times):.3f} s, "
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s"
    )


def main(argv: list[str]) -> int:
    """The colour peer as a command, `python -m bench.peer_cpsat_colour FILE`: check one puzzle
    file, print its verdict and exit as `nonosat check` does."""
    from nonosat import load

    result = colour_peer_check(load(argv[0]), workers=1)
    print(result.status)
    return EXIT_FOR_STATUS[result.status]


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
