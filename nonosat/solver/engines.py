"""The engines that search what line logic leaves open, by name, behind one small interface.

- `cdcl`: the compiled core's conflict-driven search, line logic as each line's propagator
  (`nonosat.solver.cdcl`; black and white, up to 126x126);
- `dfs`: the compiled core's depth-first search, with line logic at every node (and probing,
  in black and white up to 126x126; `nonosat.solver.dfs`; every puzzle);
- `sat`: the CNF of each open line (the `encoding`) and a PySAT solver (the `solver`), solutions
  enumerated by blocking clauses (`nonosat.solver.sat`; every puzzle, colour too);
- `auto`: `cdcl` where it takes the puzzle; else `dfs` within AUTO_GUESSES guesses, then `sat`.

Each engine's module has `search(request) -> Found`. With `request.race`, a search still going
after `race_after` seconds is joined by a rival in a worker process (`nonosat.solver.race`): the
same search on the puzzle upside down (cdcl, dfs), or another PySAT solver (sat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

from nonosat.choices import Choice
from nonosat.errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from nonosat.deadline import Deadline
    from nonosat.model import Grid, Puzzle
    from nonosat.solver.propagation import Board


class Engine(Choice):
    """How what line logic leaves open is searched."""

    AUTO = "auto"
    """`cdcl` where it takes the puzzle (black and white, up to 126x126); else `dfs` within
    AUTO_GUESSES guesses, then `sat`."""
    CDCL = "cdcl"
    DFS = "dfs"
    SAT = "sat"


ENGINES = tuple(Engine)

SEARCHES = {
    Engine.CDCL: "nonosat.solver.cdcl",
    Engine.DFS: "nonosat.solver.dfs",
    Engine.SAT: "nonosat.solver.sat",
}
"""Each engine's module, imported when the engine first runs (a puzzle line logic solves
imports none)."""


@dataclass(frozen=True)
class Request:
    """What an engine is asked: the grids of a board line logic left open."""

    board: Board
    count: int
    """How many grids to look for (2 decides uniqueness)."""
    deadline: Deadline
    race: bool = False
    """Whether a rival may join the search in a worker process."""
    race_after: float = 0.1
    """Seconds the search gets alone before the rival joins."""
    solver: str = "minisat22"
    """The SAT engine's PySAT solver."""
    encoding: str = "blocks"
    """The SAT engine's encoding of a line's clue."""
    guesses: int | None = None
    """The dfs engine's most guesses before it gives up (None: as many as it takes)."""


@dataclass(frozen=True)
class Found:
    """What an engine found: grids (not yet verified), whether they are all there are, why it
    stopped short if it did, and its counts (its own statistics)."""

    grids: list[Grid]
    complete: bool
    cut_short: str | None = None
    stats: dict[str, int] = field(default_factory=dict)


def check_engine(name: str) -> Engine:
    """The engine of that name, or a UsageError naming those there are."""
    if name not in ENGINES:
        raise UsageError(f"{{engine}} is {', '.join(ENGINES)}, not {name!r}", engine="engine")
    return Engine(name)


def takes(engine: Engine, puzzle: Puzzle) -> str | None:
    """Why an engine cannot take a puzzle, or None when it can."""
    if engine not in (Engine.CDCL, Engine.DFS):
        return None
    from nonosat.solver.compiled import WIDE_SIDE, colour_core, core_for

    if core_for(puzzle) is not None or (engine is Engine.DFS and colour_core() is not None):
        return None
    if puzzle.is_colour or max(puzzle.width, puzzle.height) > WIDE_SIDE:
        what = "colour" if puzzle.is_colour else f"{puzzle.width}x{puzzle.height}"
        return (
            f"the {engine} engine takes black-and-white puzzles of up to {WIDE_SIDE}x{WIDE_SIDE} "
            f"(this one is {what}); the sat engine takes any"
        )
    return f"the {engine} engine needs the compiled core, which is not built here; the sat engine needs none"


def choose(puzzle: Puzzle, engine: str, solver: str | None, encoding: str | None) -> Engine:
    """The engine that searches a puzzle, as asked: `auto` is `cdcl` where it takes the puzzle,
    and `sat` where it does not, or where a solver or an encoding is named (only the SAT engine
    has them). Raises UsageError for a solver or an encoding named with another engine, and for
    an engine that cannot take the puzzle."""
    chosen = check_engine(engine)
    named = [name for name, value in (("solver", solver), ("encoding", encoding)) if value is not None]
    if chosen is Engine.AUTO:
        return Engine.SAT if named or takes(Engine.CDCL, puzzle) is not None else Engine.CDCL
    if named and chosen is not Engine.SAT:
        one = len(named) == 1
        shown = " and ".join(f"{{{name}}}" for name in named)
        raise UsageError(
            f"{shown} {'is' if one else 'are'} the SAT engine's; the {chosen} engine has "
            f"{'no ' + named[0] if one else 'neither'} (drop {{engine}} {chosen}, or make it {{engine}} sat)",
            engine="engine",
            **{name: name for name in named},
        )
    why = takes(chosen, puzzle)
    if why is not None:
        raise UsageError(why)
    return chosen


AUTO_GUESSES = 200
"""The guesses `auto` gives the depth-first search on a puzzle the conflict-driven search does
not take (colour, or over 126 cells a side) before the SAT engine takes over: the colour set of
`python -m bench` needs 13 at most, random colour noise from 9 to over 90,000, where the SAT
engine is faster past a few hundred. Measured on colour-noise (bench/README.md): 50, 100, 200,
500, 1000 and 2000 guesses gave 0.59, 0.57, 0.58, 0.68, 0.77 and 0.98 s for the set."""
AUTO_SECONDS = 1.0
"""And the most seconds it gives it (a node of a 200x200 grid takes a millisecond)."""


def search_as_asked(
    puzzle: Puzzle, engine: str, solver: str | None, encoding: str | None, chosen: Engine, request: Request
) -> tuple[Engine, Found]:
    """The engine that answered and what it found: `chosen`'s search, but where `auto` chose the
    SAT engine only because the conflict-driven search does not take the puzzle (no solver or
    encoding named), the depth-first search first, within AUTO_GUESSES guesses and AUTO_SECONDS
    and without a race; the SAT engine when that leaves the verdict open."""
    if engine == Engine.AUTO and chosen is Engine.SAT and solver is None and encoding is None:
        if takes(Engine.DFS, puzzle) is None:
            from dataclasses import replace

            first = replace(request, guesses=AUTO_GUESSES, deadline=request.deadline.within(AUTO_SECONDS), race=False)
            found = search(Engine.DFS, first)
            if found.complete or len(found.grids) >= request.count:
                return Engine.DFS, found
    return chosen, search(chosen, request)


def search(engine: Engine, request: Request) -> Found:
    """The engine's search of a board line logic left open."""
    found: Found = import_module(SEARCHES[engine]).search(request)
    return found
