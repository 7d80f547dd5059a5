"""The engines that search what line logic leaves open, by name, behind one small interface.

- `cdcl`: the compiled core's conflict-driven search, line logic as each line's propagator
  (`nonosat.solver.cdcl`; every puzzle, colour too, where the core is built);
- `dfs`: the compiled core's depth-first search, with line logic at every node (and probing,
  in black and white up to 126x126; `nonosat.solver.dfs`; every puzzle, where the core is built);
- `sat`: the CNF of each open line (the `encoding`) and a PySAT solver (the `solver`), solutions
  enumerated by blocking clauses (`nonosat.solver.sat`; every puzzle, colour too);
- `auto`: `cdcl` where the core is built; for black and white over 126 cells a side `cdcl` for
  half a second, then `sat` (the CNF's block variables and implications serve those pictures
  better), and `cdcl` again if the formula outgrows the clause limit; `sat` where the core is
  not built.

Each engine's module has `search(request) -> Found`. With `request.race`, a search still going
after `race_after` seconds is joined by a rival in a worker process (`nonosat.solver.race`): the
same search on the puzzle upside down (cdcl, dfs; in colour, the SAT engine), or another PySAT
solver (sat).
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
    """`cdcl` where the compiled core is built (it takes every puzzle), but for black and white over
    126 cells a side `cdcl` briefly, then `sat` (`search_as_asked`); `sat` where the core is not
    built."""
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
    """The compiled searches' most steps before they give up (None: as many as it takes): the
    dfs engine's guesses, the cdcl engine's conflicts. A bound of work, not of time, so that
    what depends on it (the generator's repair) comes out the same on any machine."""
    written: bool = False
    """Every grid found is written out by the deadline (JSON): a compiled search keeps that time
    for each grid too (`outcome.handing_over`)."""


@dataclass(frozen=True)
class Found:
    """What an engine found: grids (not yet verified), whether they are all there are, why it
    stopped short if it did, and its counts (its own statistics)."""

    grids: list[Grid]
    complete: bool
    cut_short: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    outgrown: bool = False
    """The SAT engine's formula grew past the clause limit before it searched (another engine,
    whose memory does not grow with a formula, may take the puzzle)."""
    solver: str | None = None
    """The PySAT solver whose grids these are (the SAT engine's, or a SAT rival's), else None."""
    encoding: str | None = None
    """That solver's encoding of the clues."""
    rival: bool = False
    """Whether the race's rival's grids are among these (it answered, or both sides' were merged)."""


def check_engine(name: str) -> Engine:
    """The engine of that name, or a UsageError naming those there are."""
    if name not in ENGINES:
        raise UsageError(f"{{engine}} is {', '.join(ENGINES)}, not {name!r}", engine="engine")
    return Engine(name)


def takes(engine: Engine, puzzle: Puzzle) -> str | None:
    """Why an engine cannot take a puzzle, or None when it can."""
    if engine not in (Engine.CDCL, Engine.DFS):
        return None
    from nonosat.solver.compiled import colour_core, core_for

    if core_for(puzzle) is not None or colour_core() is not None:
        return None
    from nonosat.solver.compiled import TURNED_OFF

    why = "NONOSAT_PURE_PYTHON turns it off" if TURNED_OFF else "not built here"
    return f"the {engine} engine needs the compiled core ({why}); the sat engine needs none"


def choose(puzzle: Puzzle, engine: str, solver: str | None, encoding: str | None) -> Engine:
    """The engine that searches a puzzle, as asked: `auto` is `cdcl` where it takes the puzzle,
    and `sat` where it does not, or where a solver or an encoding is named (only the SAT engine
    has them). Raises UsageError for a solver or an encoding named with another engine, and for
    an engine that cannot take the puzzle."""
    chosen = check_engine(engine)
    named = [name for name, value in (("solver", solver), ("encoding", encoding)) if value is not None]
    if chosen is Engine.AUTO:
        return Engine.SAT if named or takes(Engine.CDCL, puzzle) is not None or sat_first(puzzle) else Engine.CDCL
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


def sat_first(puzzle: Puzzle) -> bool:
    """Whether `auto` asks the SAT engine first: a black-and-white grid over 126 cells a side.
    On smoothed random pictures of 130x130 the SAT engine takes 10.1 and 2.5 s, the conflict-driven
    search over the cells 51 s and over 60 s (bench/README.md, issue 37); on colour, the
    other way round (30x30 noise 0.10 s against 0.11 s, 300x300 pictures 0.04 s against 0.22 s)."""
    from nonosat.solver.compiled import WIDE_SIDE

    return not puzzle.is_colour and max(puzzle.width, puzzle.height) > WIDE_SIDE


CDCL_FIRST_SECONDS = 0.5
"""The seconds `auto` gives the conflict-driven search on a black-and-white grid over 126 cells a
side before the SAT engine's turn: such a grid that line logic leaves nearly solved is decided
well within it (130x127, 60% filled at random: 0.05 s, where building the CNF alone takes 0.8 s)."""


def search_as_asked(engine: str, chosen: Engine, request: Request, named: bool = False) -> tuple[Engine, Found]:
    """The engine that answered and what it found: `chosen`'s search; but where `auto` chose the
    SAT engine for a black-and-white grid over 126 cells a side (`sat_first`; no solver or
    encoding `named`), the conflict-driven search first for CDCL_FIRST_SECONDS without a race,
    and again, within what is left of the deadline, if the SAT engine's formula outgrows the
    clause limit."""
    puzzle = request.board.puzzle
    fallback = engine == Engine.AUTO and not named and sat_first(puzzle) and takes(Engine.CDCL, puzzle) is None
    if fallback:
        from dataclasses import replace

        first = replace(request, deadline=request.deadline.within(CDCL_FIRST_SECONDS), race=False)
        found = search(Engine.CDCL, first)
        if found.complete or len(found.grids) >= request.count:
            return Engine.CDCL, found
    found = search(chosen, request)
    if found.outgrown and fallback:
        return Engine.CDCL, search(Engine.CDCL, request)
    return chosen, found


def search(engine: Engine, request: Request) -> Found:
    """The engine's search of a board line logic left open."""
    found: Found = import_module(SEARCHES[engine]).search(request)
    return found
