"""What solve and check print and the exit code they end with, how every command reads its
puzzle and counts its cores: the command line's parts that need no Typer.

Both the Typer commands (`solving`) and the quick start (`quick`, which runs `check FILE` and
`solve FILE` before Typer is even imported) print through these functions, so the two cannot
drift. Lines of plain printable text are written as they are; Rich is imported only to draw a
grid or a JSON record.
"""

from __future__ import annotations

import contextlib
import os
import sys

from nonosat.errors import NonosatError
from nonosat.render.terminal import draws_blocks, one_line, writes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from rich.console import Console

    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle
    from nonosat.reports import Report

EXIT_FOR_STATUS = {"unique": 0, "solved": 0, "multiple": 1, "none": 3, "unknown": 4}
EXIT_GOAL_BREAKS_CLUES = 6

FLAGS = {
    "force": "--force",
    "invert": "--invert",
    "threshold": "--threshold",
    "width": "--width",
    "max_changes": "--max-changes",
    "max_distance": "--max-distance",
    "seed": "--seed",
    "count": "--suggest",
    "require": "--require",
    "density": "--density",
    "colours": "--colours",
    "executor": "--executor",
    "scheduler": "--scheduler",
    "pictures": "--pictures",
    "engine": "--engine",
    "solver": "--solver",
    "encoding": "--encoding",
}
"""How the command line names the library's parameters in a message (NonosatError.worded)."""


UNWRAPPED = 10_000
"""The width of a console that writes to a pipe or a file (unless COLUMNS says otherwise): no
line is wrapped or cut (Rich's 80 columns would), and every grid is drawn whole."""


class LazyConsole:
    """A Rich console made on first use, so that `nonosat --help` does not import Rich. Written
    to a pipe or a file, it wraps nothing (`UNWRAPPED`)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            options = dict(self._options)
            if "width" not in options and not os.environ.get("COLUMNS") and self._plainly_not_a_terminal():
                options["width"] = UNWRAPPED  # a pipe or a file: lines as long as they are
            self._console = Console(highlight=False, **options)
        return self._console

    def _plainly_not_a_terminal(self) -> bool:
        """Whether the stream is no terminal and nothing forces Rich to take it for one."""
        if self._options.get("force_terminal") or {"FORCE_COLOR", "TTY_COMPATIBLE"} & set(os.environ):
            return False
        stream = self._options.get("file") or (sys.stderr if self._options.get("stderr") else sys.stdout)
        try:
            return not stream.isatty()
        except (AttributeError, ValueError):
            return True

    @property
    def is_terminal(self) -> bool:
        """Rich's `is_terminal`, without making the console (and importing Rich) for a stream that
        is plainly not a terminal."""
        if self._console is None and self._plainly_not_a_terminal():
            return False
        return bool(self.console().is_terminal)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console(), name)


out = LazyConsole()
err = LazyConsole(stderr=True)


def write_json(data: Any) -> None:
    """A record as JSON on standard output, indented by two: through Rich in a terminal (which
    colours it), else written as it is, as Rich would write it: Rich took 16 s to lay out the
    JSON of 40,000 solutions for a pipe."""
    import json

    escaped = not writes("\u00e9\u2588")  # an output not in UTF: \u00e9 for é, lossless (a second dump cost 0.1 s)
    if out.is_terminal:
        out.print_json(json.dumps(data), ensure_ascii=escaped)
        return
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=escaped) + "\n")


def say(*lines: str) -> None:
    """Plain lines on standard output: written as they are when printable, else through Rich
    (which makes tabs and control characters safe)."""
    for line in lines:
        if line.isprintable():
            sys.stdout.write(line + "\n")
        else:
            out.print(line, markup=False, emoji=False, soft_wrap=True)
    sys.stdout.flush()


@contextlib.contextmanager
def waiting(what: str) -> Iterator[None]:
    """Say on standard error, while the block runs, what it does: a Rich status on a terminal
    (gone when the block ends), nothing elsewhere."""
    if not err.is_terminal:
        yield
        return
    from rich.live import Live
    from rich.spinner import Spinner

    from nonosat import interrupts

    spinner = Spinner("dots", text=what)
    status = Live(spinner, console=err.console(), transient=True, redirect_stdout=False, redirect_stderr=False)
    with interrupts.deaf_threads():  # Rich's refresh thread leaves Ctrl-C to the main thread
        status.start(refresh=True)  # shown now, not at the refresh thread's first tick
    try:
        yield
    finally:
        status.stop()


def load_puzzle(file: str, deadline: Deadline, as_json: bool = False, verdict: bool = False) -> Puzzle:
    """Read the puzzle within the command's deadline (a reader does not look at the clock).
    When the time runs out first, `as_json` writes the record of a puzzle not read on standard
    output, as the web API answers, before the line on standard error; `verdict` (solve and
    check) the status line `unknown (time limit reached while reading FILE)` in text (a new
    user's review: the README's status line was missing there, and JSON had it)."""
    from nonosat.deadline import finished_by
    from nonosat.errors import TimeUp
    from nonosat.formats import load

    try:
        return finished_by(deadline, f"reading {file}", lambda: load(file))  # Pillow's C hears no timer signal
    except TimeUp as error:
        if as_json:
            from nonosat.render.records import unread_record

            write_json(unread_record(file, str(error)))
        elif verdict:
            out.print(f"unknown ({error})", markup=False, highlight=False, soft_wrap=True)
        raise


LOG_EVERY = 30.0
"""Seconds between the lines of progress a long command (batch, generate's repair) writes where
standard error is not a terminal (a log of a long run, which Rich's bar, drawn only at the end
there, left empty until then)."""

SHOWING_A_CELL = 1.5e-6
"""Seconds to draw one cell of a grid in the terminal (a 512x512 grid drawn and printed takes
about 0.1 s on a fast machine, 0.3 s on a slow one), with room: the time kept from a command's
deadline for showing what it found, so that the whole command ends by its `--timeout`."""


def showing_time(puzzle: Puzzle, grids: int, as_json: bool = False) -> float:
    """The seconds kept from the deadline to show `grids` grids of `puzzle` once found: as JSON,
    the search's own figure for writing one out (`outcome.WRITING_A_CELL`: 1.5 us a cell for JSON
    too turned Cauldron's `--format json --timeout 1.2`, decided in 0.39 s, into `unknown`)."""
    from nonosat.solver.outcome import WRITING_A_CELL  # (the search's module, loaded to search)

    return 0.01 + (WRITING_A_CELL if as_json else SHOWING_A_CELL) * grids * puzzle.width * puzzle.height


def ready_to_show(deadline: Deadline, as_json: bool) -> None:
    """Under a time limit, import what drawing a grid in the terminal imports (Rich's console and
    render.views: 25-35 ms here) before the search, so that the time `showing_time` keeps is the
    drawing's alone: a review found `solve dom_14.dzn --timeout 3` ending at 3.01-3.05 s, the
    imports made after the search. (Without a limit they are made after it, as before.)"""
    if deadline.at is None or as_json:
        return
    import nonosat.render.views  # noqa: F401 - imported for its cost, here rather than after the search

    out.console()


def cores(jobs: int | None) -> int:
    """The command line races by default, on every core this process may use."""
    from nonosat.processes import usable_cores

    return jobs if jobs is not None else usable_cores()


def error_line(error: NonosatError) -> str:
    """A library error as the command line's one line on standard error."""
    return f"nonosat: {one_line(error.worded(FLAGS))}"


def usage_line(error: Any) -> str:
    """A usage error of Click's (a click.ClickException) as one line, as every other bad input
    is: what was wrong, and where the command's options are listed."""
    context = getattr(error, "ctx", None)
    where = context.command_path if context is not None else "nonosat"
    told = one_line(error.format_message().rstrip("."), 300)
    return f"nonosat: {told} (see '{where} --help')"


def complain(line: str) -> None:
    """One line on standard error, after what standard output holds so far."""
    sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def show_json(answer: Report) -> None:
    write_json(answer.record())


def show_grid(puzzle: Puzzle, grid: Any, ascii_cells: bool) -> None:
    """The grid as large as the terminal allows (see render.views.fitted_grid)."""
    from nonosat.render.views import fitted_grid

    view = fitted_grid(puzzle, grid, ascii_cells, out.width)
    if view is not None and not out.is_terminal and out.color_system is None and writes("".join(set(view.plain))):
        sys.stdout.write(view.plain + "\n")  # no styles to show: as Rich would write it, in a third of the time
        sys.stdout.flush()  # (a review: a 512x512 grid printed after --timeout had passed)
        return
    if view is not None:
        out.print(view, soft_wrap=True)  # it fits: no lines to divide (which took a 512x512 grid a second)
        return
    draw = f"nonosat render {puzzle.source or 'FILE'}{' --solution' if grid is not None else ''} -o out.png"
    out.print(
        f"(the {puzzle.width}x{puzzle.height} grid is wider than the terminal; draw it with "
        f"{draw}, or save it with --output)",
        markup=False,
        soft_wrap=True,
    )


def show_goal(puzzle: Puzzle, goal_ok: bool | None) -> None:
    """Whether the file's goal satisfies the clues, when it has one (or one it could not read)."""
    if puzzle.goal_problem is not None:
        say(f"goal: cannot be read ({one_line(puzzle.goal_problem)}): the clues were solved without it")
        return
    if goal_ok is None or puzzle.goal is None:
        return
    if goal_ok:
        say("goal: satisfies the clues")
    else:
        wrong = puzzle.violations(puzzle.goal)
        out.print(f"goal: does NOT satisfy the clues of {', '.join(wrong[:8])}", markup=False)


def show_diagnosis(puzzle: Puzzle, ascii_cells: bool, deadline: Deadline) -> None:
    """Name a minimal set of lines whose clues cannot all hold, and mark them on the grid."""
    from nonosat.explain.diagnosis import conflicting_lines
    from nonosat.render.views import grid_view, grid_width

    found, cut_short = conflicting_lines(puzzle, deadline)
    if cut_short is not None:
        out.print(f"({cut_short}; --no-conflicts skips this)", markup=False, soft_wrap=True)
        return
    if found is None:
        return
    count = len(found.lines)
    lead = (
        "this line's clue cannot hold, whatever the others say"
        if count == 1
        else f"these {count} lines cannot all hold together (drop any one and the rest can)"
    )
    out.print(f"{lead}: {', '.join(found.names(puzzle))}", markup=False, soft_wrap=True)
    if grid_width(puzzle, ascii_cells) + 2 <= out.width:
        no_colour = shows_no_colour()  # a pipe, a log, NO_COLOR: the red clues would not show
        out.print(grid_view(puzzle, None, lines=found.lines, ascii_cells=ascii_cells, no_colour=no_colour))


def show_refuted(answer: Report) -> None:
    """A puzzle refuted before any search: the cheap checks that failed, one line on standard
    error as for any error (the verdict follows on standard output, as for any `none`)."""
    if answer.refuted is not None:
        complain(f"nonosat: {one_line(str(answer.refuted))}")


def as_characters(puzzle: Puzzle, ascii_cells: bool) -> bool:
    """Whether grids are drawn as characters (as `--ascii`): asked for; or the output cannot
    write the block characters; or, in colour, it shows no colours (a pipe, a file, NO_COLOR),
    where every colour's blocks would look alike."""
    if ascii_cells or not draws_blocks():
        return True
    if len(puzzle.palette) <= 2:
        return False
    return shows_no_colour()


def shows_no_colour() -> bool:
    """Whether the output shows no colour: a pipe, a file, or NO_COLOR (a review found NO_COLOR's
    black-and-white `check` marking the differing cells in bold, not X and o)."""
    console = out.console()
    return console.color_system is None or console.no_color


def show_solved(answer: Report, ascii_cells: bool, as_json: bool, deadline: Deadline) -> int:
    """solve's answer: the grid and the verdict (the lines at fault when there is no solution)."""
    from nonosat.render.text import status_line

    ascii_cells = as_characters(answer.puzzle, ascii_cells)
    result = answer.result
    show_refuted(answer)
    if as_json:
        show_json(answer)
    else:
        if result.solution is not None:
            show_grid(answer.puzzle, result.solution.grid, ascii_cells)
        say(status_line(result))
        if result.status.value == "none" and answer.conflicts:
            show_diagnosis(answer.puzzle, ascii_cells, deadline)
    return EXIT_FOR_STATUS[result.status.value]


def show_checked(answer: Report, ascii_cells: bool, as_json: bool, deadline: Deadline, rating: bool = False) -> int:
    """check's answer: the verdict, two solutions side by side with the cells that differ, the
    level, and whether the file's goal meets the clues. With `rating`, the answer is rated here,
    after the verdict is on the screen (probing can take a while: a status on a terminal says
    it runs, and how to skip it)."""
    from nonosat.render.text import level_line, status_line
    from nonosat.reports import rated

    ascii_cells = as_characters(answer.puzzle, ascii_cells)
    puzzle, verdict = answer.puzzle, answer.verdict
    assert verdict is not None
    result = verdict.result
    code = EXIT_FOR_STATUS[result.status.value] if answer.goal_ok is not False else EXIT_GOAL_BREAKS_CLUES
    show_refuted(answer)
    if as_json:
        show_json(rated(answer, deadline.sooner(showing_time(puzzle, 2, as_json=True))) if rating else answer)
        return code
    say(f"{puzzle.name}: {puzzle.width}x{puzzle.height}")
    if len(result.solutions) >= 2:
        from nonosat.render.views import describe_cells, side_by_side

        first, second = (s.grid for s in result.solutions[:2])
        no_colour = shows_no_colour()  # a pipe, a log, NO_COLOR: the red cells would not show
        view = side_by_side(puzzle, first, second, width=out.width, ascii_cells=ascii_cells, no_colour=no_colour)
        if view is not None:
            out.print(view)
        else:
            say("(the two solutions are wider than the terminal; --format json lists them)")
        out.print(f"{len(verdict.differences)} cells differ: {describe_cells(verdict.differences)}", markup=False)
    say(status_line(result))
    if rating:
        with waiting("rating the puzzle for people: probing (--no-rating skips it)"):
            answer = rated(answer, deadline)
    level = level_line(answer.rating) if answer.rating is not None else None
    if level is not None:
        say(level)
    if answer.rating is not None and answer.rating.bounded:
        say(f"(nonosat rate {puzzle.source or 'FILE'} rates it without check's bound)")
    if result.status.value == "none" and answer.conflicts:
        show_diagnosis(puzzle, ascii_cells, deadline)
    show_goal(puzzle, answer.goal_ok)
    return code
