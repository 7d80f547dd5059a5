"""What every command shares: the consoles, the options, the exit codes, errors as one line."""

import functools
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from nonosat.basics import Choice
from nonosat.errors import NonosatError, UsageError
from nonosat.render.terminal import one_line

if TYPE_CHECKING:
    from rich.console import Console

    from nonosat.answers import Answer
    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle
    from nonosat.solver import Result

T = TypeVar("T")

EXIT_CODES = """\
Exit codes: 0 unique (or solved, with --count 1); 1 multiple solutions;
2 bad input or usage; 3 no solution; 4 unknown (time limit reached);
5 generate found no puzzle; 6 the file's goal breaks its clues; 130 interrupted."""

app = typer.Typer(
    help=f"Solve nonograms with SAT and prove whether the solution is unique.\n\n{EXIT_CODES}",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class LazyConsole:
    """A Rich console made on first use, so that `nonosat --help` does not import Rich."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def console(self) -> "Console":
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, **self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console(), name)


out = LazyConsole()
err = LazyConsole(stderr=True)

EXIT_FOR_STATUS = {"unique": 0, "solved": 0, "multiple": 1, "none": 3, "unknown": 4}
EXIT_FOR_LEVEL = {"line": 0, "probe": 0, "search": 0, "ambiguous": 1, "none": 3, "unknown": 4}
"""`rate` exits as `check` would: a level is a verdict (ambiguous is multiple)."""
EXIT_GOAL_BREAKS_CLUES = 6


# The command line's choices. Those the library also names are spelt out here, so that --help
# does not import the library; tests/test_layout.py keeps each equal to the library's own.


DEFAULT_SOLVER = "minisat22"
"""nonosat.solver.backends.DEFAULT_SOLVER."""


class Encoding(Choice):
    blocks = "blocks"
    automaton = "automaton"


class OutputFormat(Choice):
    text = "text"
    json = "json"


class Requirement(Choice):
    """nonosat.generate.repair.Requirement."""

    unique = "unique"
    probe = "probe"
    line = "line"


class Executor(Choice):
    """nonosat.batch.executors.Executor."""

    local = "local"
    dask = "dask"


class Require(Choice):
    """nonosat.batch.policy.Require."""

    unique = "unique"


class TargetFormat(Choice):
    """The formats nonosat writes (nonosat.formats.FORMATS with a `dump`)."""

    non = "non"
    xml = "xml"
    nin = "nin"
    mk = "mk"
    json = "json"
    tatham = "tatham"
    clues = "clues"
    tournament = "tournament"
    g = "g"


PuzzleFile = Annotated[
    str, typer.Argument(help="Puzzle file (or a Tatham game ID); FILE#N picks puzzle N of a file that holds several.")
]


def seconds(value: float | None) -> float | None:
    """--timeout: a positive number of seconds; inf (or over a billion) means none."""
    from nonosat.deadline import NEVER

    if value is None:
        return None
    if math.isnan(value) or value <= 0:
        raise typer.BadParameter(f"expected a positive number of seconds (or inf for none), not {value}")
    return None if value > NEVER else value


TimeoutOption = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        callback=seconds,
        help="A time limit for the whole command, in seconds: what is not decided by then is unknown.",
    ),
]
SolverOption = Annotated[str, typer.Option("--solver", help="PySAT solver name, e.g. minisat22, cadical195, glucose4.")]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
        help="Cores a hard puzzle may use (default: all this process may use): "
        "with 2 or more, a search that takes over 0.1 s races two solvers.",
    ),
]
EncodingOption = Annotated[Encoding, typer.Option("--encoding", help="CNF encoding of each line's clue.")]
FormatOption = Annotated[OutputFormat, typer.Option("--format", help="text for people, json for programs.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Short for --format json.")]
AsciiOption = Annotated[
    bool, typer.Option("--ascii", help="Cells as # and . (a character per colour), no colour codes.")
]
ConflictsOption = Annotated[
    bool,
    typer.Option(
        "--conflicts/--no-conflicts",
        help="With no solution, name a minimal set of lines that "
        "cannot all hold (within --timeout, else at most 10 s).",
    ),
]

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
}
"""How the command line names the library's parameters in a message (NonosatError.worded)."""

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Turn nonosat's own errors into one line on stderr and their documented exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from nonosat import interrupts

        try:
            return command(*args, **kwargs)
        except NonosatError as error:
            typer.echo(f"nonosat: {one_line(error.worded(FLAGS))}", err=True)
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt:
            interrupts.announce()
            raise typer.Exit(interrupts.EXIT_INTERRUPTED) from None

    return wrapper  # type: ignore[return-value]


def usage(option: str, call: Callable[[], T]) -> T:
    """`call()`, its UsageError shown as Click shows a bad value of `option`."""
    try:
        return call()
    except UsageError as error:
        raise typer.BadParameter(error.worded(FLAGS), param_hint=option) from None


def show_grid(puzzle: "Puzzle", grid: Any, ascii_cells: bool) -> None:
    """The grid as large as the terminal allows (see render.views.fitted_grid)."""
    from nonosat.render.views import fitted_grid

    view = fitted_grid(puzzle, grid, ascii_cells, out.width)
    if view is not None:
        out.print(view)
        return
    draw = f"nonosat render {puzzle.source or 'FILE'}{' --solution' if grid is not None else ''} -o out.png"
    out.print(
        f"(the {puzzle.width}x{puzzle.height} grid is wider than the terminal; draw it with "
        f"{draw}, or save it with --output)",
        markup=False,
        soft_wrap=True,
    )


def load_puzzle(file: str, deadline: "Deadline") -> "Puzzle":
    """Read the puzzle within the command's deadline (a reader does not look at the clock)."""
    from nonosat.deadline import alarm
    from nonosat.formats import load

    with alarm(deadline, f"reading {file}"):
        return load(file)


def cores(jobs: int | None) -> int:
    """The command line races by default, on every core this process may use."""
    from nonosat.solver.race import usable_cores

    return jobs if jobs is not None else usable_cores()


def check_outputs(output: Path | None, render: Path | None, force: bool) -> None:
    """Refuse an --output or --render that exists (without --force) before any work."""
    if output is not None:
        from nonosat.formats.atomic import ensure_writable

        ensure_writable(output, force=force)
    if render is not None:
        from nonosat.render.sheets import check_picture_path

        check_picture_path(render, force=force)


def write_solution(result: "Result", target: Path, force: bool) -> None:
    """Write the first solution; with none, say that nothing was written (the verdict's exit
    code stands)."""
    from nonosat.formats import save_solution

    if result.solution is None:
        err.print(f"nothing written to {target}: {result.status.value}, no solution found", markup=False)
        return
    save_solution(result.puzzle, result.solution.grid, result.status.value, target, force=force)


def draw_solution(result: "Result", target: Path, force: bool) -> None:
    from nonosat.render.sheets import save_picture

    if result.solution is None:
        err.print(f"nothing drawn in {target}: {result.status.value}, no solution found", markup=False)
        return
    save_picture(result.puzzle, result.solution.grid, target, force=force)


def show_goal(puzzle: "Puzzle", goal_ok: bool | None) -> None:
    """Whether the file's goal satisfies the clues, when it has one."""
    if goal_ok is None or puzzle.goal is None:
        return
    if goal_ok:
        out.print("goal: satisfies the clues")
    else:
        wrong = puzzle.violations(puzzle.goal)
        out.print(f"goal: does NOT satisfy the clues of {', '.join(wrong[:8])}", markup=False)


def show_diagnosis(puzzle: "Puzzle", ascii_cells: bool, deadline: "Deadline") -> None:
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
    lead = "this line's clue cannot hold" if count == 1 else f"these {count} lines cannot all hold together"
    out.print(f"{lead} (drop any one and the rest can): {', '.join(found.names(puzzle))}", markup=False, soft_wrap=True)
    if grid_width(puzzle, ascii_cells) + 2 <= out.width:
        out.print(grid_view(puzzle, None, lines=found.lines, ascii_cells=ascii_cells))


def no_solution(answer: "Answer", ascii_cells: bool, as_json: bool, deadline: "Deadline") -> NoReturn:
    """A puzzle refuted before search: the cheap checks that failed (one line on stderr, as for
    any error), then the lines at fault on stdout; exit 3 (6 from check, when a goal breaks)."""
    assert answer.refuted is not None
    typer.echo(f"nonosat: {one_line(str(answer.refuted))}", err=True)
    if as_json:
        out.print_json(json.dumps(answer.record()))
    else:
        if answer.conflicts:
            show_diagnosis(answer.puzzle, ascii_cells, deadline)
        show_goal(answer.puzzle, answer.goal_ok)
    raise typer.Exit(3 if answer.goal_ok is not False else EXIT_GOAL_BREAKS_CLUES)
