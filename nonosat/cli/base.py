"""What every command shares: the Typer app, the options, the exit codes, errors as one line
(the consoles and what needs no Typer are in `show`)."""

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from nonosat.choices import Choice
from nonosat.cli.show import FLAGS, complain, err, error_line
from nonosat.errors import NonosatError, UsageError
from nonosat.limits import MAX_JOBS

if TYPE_CHECKING:
    from nonosat.deadline import Deadline
    from nonosat.solver import Result

T = TypeVar("T")

EXIT_CODES = """\
Exit codes: 0 unique (or solved, with --count 1); 1 multiple solutions;
2 bad input or usage; 3 no solution; 4 unknown (time limit reached);
5 generate found no puzzle; 6 the file's goal breaks its clues; 7 a certificate
does not hold (verify); 70 internal error; 74 the output could not be written;
130 interrupted (Ctrl-C); 143 ended by SIGTERM."""

app = typer.Typer(
    help=f"Solve nonograms with SAT and prove whether the solution is unique.\n\n{EXIT_CODES}",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


EXIT_FOR_LEVEL = {"line": 0, "probe": 0, "search": 0, "ambiguous": 1, "none": 3, "unknown": 4}
"""`rate` exits as `check` would: a level is a verdict (ambiguous is multiple)."""


# The command line's choices. Those the library also names are spelt out here, so that --help
# does not import the library; tests/test_layout.py keeps each equal to the library's own.


DEFAULT_SOLVER = "minisat22"
"""nonosat.solver.backends.DEFAULT_SOLVER."""


class Engine(Choice):
    """nonosat.solver.engines.Engine."""

    auto = "auto"
    cdcl = "cdcl"
    dfs = "dfs"
    sat = "sat"


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


def seconds(text: str) -> float | None:
    """--timeout, read from its text as the web API reads its `timeout` (nonosat.values.seconds:
    a positive number of seconds in ASCII digits; inf, or over a billion, means none). Click's
    float would take '1_0' and other scripts' digits."""
    from nonosat.values import seconds as read_seconds

    return usage("--timeout", lambda: read_seconds(text))


TimeoutOption = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        parser=seconds,
        metavar="SECONDS",
        help="A time limit for the whole command, in seconds: what is not decided by then is unknown.",
    ),
]
PuzzleTimeoutOption = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        parser=seconds,
        metavar="SECONDS",
        help="A time limit for each puzzle, in seconds: a puzzle not decided by then is unknown.",
    ),
]
EngineOption = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help="What searches what line logic leaves open: cdcl (the compiled conflict-driven search), "
        "dfs (the compiled depth-first search), sat (CNF and PySAT, any puzzle), or auto: cdcl (on black "
        "and white over 126 cells a side, cdcl for 0.5 s, then sat); sat without the compiled core.",
    ),
]


def _known_solver(name: str | None) -> str | None:
    """--solver's name, refused as every bad option value is when PySAT has no such solver (a
    review found `--solver kissat` the one usage error without "see 'nonosat solve --help'")."""
    if name is not None:
        from nonosat.solver.backends import resolve_solver

        usage("--solver", lambda: resolve_solver(name))
    return name


SolverOption = Annotated[
    str | None,
    typer.Option(
        "--solver",
        help=f"The SAT engine's PySAT solver (default {DEFAULT_SOLVER}), e.g. cadical195, glucose4; "
        "naming one chooses the SAT engine.",
        callback=_known_solver,
    ),
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
        max=MAX_JOBS,
        help="Cores a hard puzzle may use (default: all this process may use): with 2 or more, a search "
        "still going after 0.1 s is joined by a rival (cdcl, dfs: the same search upside down, in "
        "colour the SAT engine with CaDiCaL, up to 7,500 open cells x colours; sat: CaDiCaL, or MiniSat "
        "against CaDiCaL), and the first to finish answers.",
    ),
]
EncodingOption = Annotated[
    Encoding | None,
    typer.Option(
        "--encoding", help="The SAT engine's CNF encoding of each line's clue (default blocks); naming one chooses it."
    ),
]
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

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Turn nonosat's own errors into one line on stderr and their documented exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from nonosat import interrupts

        try:
            return command(*args, **kwargs)
        except NonosatError as error:
            complain(error_line(error) + _see_help(error))
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt:
            interrupts.announce()
            raise typer.Exit(interrupts.EXIT_INTERRUPTED) from None
        except BrokenPipeError as error:  # not a standard stream's (guarded): Click made it a silent exit 1
            raise PipeBroken(f"a pipe between nonosat's processes broke ({error})") from error

    return wrapper  # type: ignore[return-value]


def _see_help(error: NonosatError) -> str:
    """Where the options are listed, after a library's usage error that names one (a review:
    `random --colours 63` was the one bad option value without "see 'nonosat random --help'")."""
    import importlib

    clicks = typer.BadParameter.__module__.rpartition(".")[0]  # click, or Typer's copy of it (0.28)
    context = importlib.import_module(f"{clicks}.globals").get_current_context(silent=True)
    if not isinstance(error, UsageError) or not error.parameters or context is None:
        return ""
    command = " ".join(["nonosat", *context.command_path.split()[1:]])  # the program's name, as run or tested
    return f" (see '{command} --help')"


class PipeBroken(RuntimeError):
    """A broken pipe that is not standard output's or error's (a worker's, multiprocessing's
    resource tracker's): a bug's one line and exit 70 (`__main__`), where Click, which takes every
    broken pipe for a closed standard output, ended the command with exit 1 and no word (a
    review: a user whose processes could not share memory)."""


def usage(option: str, call: Callable[[], T]) -> T:
    """`call()`, its UsageError shown as Click shows a bad value of `option`."""
    try:
        return call()
    except UsageError as error:
        raise typer.BadParameter(error.worded(FLAGS), param_hint=option) from None


def check_outputs(output: Path | None, render: Path | None, force: bool) -> None:
    """Refuse an --output or --render that exists (without --force) before any work."""
    if output is not None:
        from nonosat.formats import check_solution_path
        from nonosat.formats.atomic import ensure_writable

        try:
            check_solution_path(output)
        except UsageError as error:
            if output.suffix.lower() in (".svg", ".png"):  # a picture of the solution is --render's
                raise UsageError(f"{error}; to draw it, use --render") from None
            raise
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
    say_unproved(result, target, "wrote")


def say_unproved(result: "Result", target: Path, done: str) -> None:
    """Say on standard error that the solution written or drawn in `target` is one of several,
    or not proved the only one (a new user's review: `solve ring.non -o r.non` wrote one of its
    solutions as the goal without a word; `render --solution` said so)."""
    status = result.status.value
    if status == "multiple":
        err.print(f"{done} {target}: the first solution found, of at least {len(result.solutions)}", markup=False)
    elif status != "unique":
        err.print(f"{done} {target}: the first solution found, not proved the only one ({status})", markup=False)
    else:  # as encode, convert and generate say what they wrote (a new user's review)
        err.print(f"{done} {target}: the solution, the only one", markup=False)


def draw_solution(result: "Result", target: Path, force: bool, deadline: "Deadline") -> None:
    """Draw the first solution; with none, or when the time limit passes while drawing, say that
    nothing was drawn (the verdict's exit code stands)."""
    from nonosat.errors import TimeUp
    from nonosat.render.sheets import save_picture

    if result.solution is None:
        err.print(f"nothing drawn in {target}: {result.status.value}, no solution found", markup=False)
        return
    try:
        save_picture(result.puzzle, result.solution.grid, target, force=force, deadline=deadline)
    except TimeUp as error:
        err.print(f"nothing drawn in {target}: {error}", markup=False)
    else:
        say_unproved(result, target, "drew")
