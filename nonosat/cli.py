"""The `nonosat` command line: a thin layer over the library.

Exit codes: 0 unique or solved, 1 multiple solutions, 2 bad input or usage, 3 no solution,
4 unknown (time limit reached), 5 generate found nothing, 6 the file's goal breaks its clues,
130 interrupted (Ctrl-C).
"""

import functools
import json
import math
import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from nonosat.errors import ImpossiblePuzzle, NonosatError
from nonosat.render.terminal import one_line

if TYPE_CHECKING:
    from rich.console import Console

    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle
    from nonosat.solver import Result

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


class _LazyConsole:
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


out = _LazyConsole()
err = _LazyConsole(stderr=True)

EXIT_FOR_STATUS = {"unique": 0, "solved": 0, "multiple": 1, "none": 3, "unknown": 4}
EXIT_FOR_LEVEL = {"line": 0, "probe": 0, "search": 0, "ambiguous": 1, "none": 3, "unknown": 4}
"""`rate` exits as `check` would: a level is a verdict (ambiguous is multiple)."""
EXIT_GOAL_BREAKS_CLUES = 6
CONFLICTS_SECONDS = 10.0
"""Without --timeout, the most time spent looking for the conflicting lines of an impossible puzzle."""


class Encoding(str, Enum):
    blocks = "blocks"
    automaton = "automaton"


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


PuzzleFile = Annotated[
    str, typer.Argument(help="Puzzle file (or a Tatham game ID); FILE#N picks puzzle N of a file that holds several.")
]


def _seconds(value: float | None) -> float | None:
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
        callback=_seconds,
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
AsciiOption = Annotated[bool, typer.Option("--ascii", help="Draw cells as # and . with no colour.")]
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
            typer.echo(f"nonosat: {one_line(str(error))}", err=True)
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt:
            interrupts.announce()
            raise typer.Exit(interrupts.EXIT_INTERRUPTED) from None

    return wrapper  # type: ignore[return-value]


def _status_line(result: "Result") -> str:
    """unique / multiple / none / unknown, how it was decided, and the time."""
    found = len(result.solutions)
    how = "line logic" if result.method == "line" else "SAT"
    status = result.status.value
    if status == "multiple":
        status += f" (exactly {found} solutions)" if result.complete else f" (at least {found} solutions)"
    elif status == "none":
        status += " (no solution)"
    elif status == "solved":
        status += " (uniqueness not checked)"
    elif status == "unknown":
        why = result.cut_short or "time limit reached"
        status += f" ({why}; {found} solution{'s' if found != 1 else ''} found)"
    return f"{status} · {how} · {result.seconds:.3f} s"


def _show_grid(puzzle: "Puzzle", grid: Any, ascii_cells: bool) -> None:
    """The grid with its clues if it fits the terminal, else the bare cells (half-blocks, or # and .
    with --ascii), else one line on how to draw it as a picture."""
    from nonosat.render.views import grid_view, grid_width, half_block_grid, plain_grid

    if grid_width(puzzle, ascii_cells) <= out.width:
        out.print(grid_view(puzzle, grid, ascii_cells=ascii_cells))
    elif grid is not None and puzzle.width <= out.width:
        out.print(plain_grid(grid, ascii_cells=True) if ascii_cells else half_block_grid(grid))
    else:
        draw = f"nonosat render {puzzle.source or 'FILE'}{' --solution' if grid is not None else ''} -o out.png"
        out.print(
            f"(the {puzzle.width}x{puzzle.height} grid is wider than the terminal; draw it with "
            f"{draw}, or save it with --output)",
            markup=False,
            soft_wrap=True,
        )


def _result_json(result: "Result", path: str) -> dict[str, Any]:
    return {
        "path": path,
        "width": result.puzzle.width,
        "height": result.puzzle.height,
        "status": result.status.value,
        "method": result.method,
        "solutions": [solution.text().split("\n") for solution in result.solutions],
        "count_is_exact": result.complete,
        "seconds": round(result.seconds, 6),
        "stats": result.stats,
        "cut_short": result.cut_short,
    }


def _load(file: str, deadline: "Deadline") -> "Puzzle":
    """Read the puzzle within the command's deadline (a reader does not look at the clock)."""
    from nonosat.deadline import alarm
    from nonosat.formats import load

    with alarm(deadline, f"reading {file}"):
        return load(file)


def _jobs(jobs: int | None) -> int:
    """The command line races by default, on every core this process may use."""
    from nonosat.solver.race import usable_cores

    return jobs if jobs is not None else usable_cores()


def _write_solution(result: "Result", target: Path, force: bool) -> None:
    """Write the first solution; with none, say that nothing was written (the verdict's exit
    code stands)."""
    from dataclasses import replace

    from nonosat.formats import dump_solution_json, save
    from nonosat.formats.atomic import write_text_atomic

    if result.solution is None:
        err.print(f"nothing written to {target}: {result.status.value}, no solution found", markup=False)
        return
    grid = result.solution.grid
    if target.suffix.lower() == ".json":
        text = dump_solution_json(result.puzzle, grid, result.status.value)
        write_text_atomic(target, text, force=force)
    else:
        save(replace(result.puzzle, goal=grid), target, force=force)


def _draw_solution(result: "Result", target: Path, force: bool) -> None:
    from nonosat.render.sheets import save_picture

    if result.solution is None:
        err.print(f"nothing drawn in {target}: {result.status.value}, no solution found", markup=False)
        return
    save_picture(result.puzzle, result.solution.grid, target, force=force)


@app.command()
@friendly
def solve(
    file: PuzzleFile,
    count: Annotated[int, typer.Option("--count", min=1, help="Look for up to N solutions (2 proves uniqueness).")] = 2,
    timeout: TimeoutOption = None,
    solver: SolverOption = "minisat22",
    jobs: JobsOption = None,
    encoding: EncodingOption = Encoding.blocks,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the solution: .non (as goal) or .json.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --render if it exists.")] = False,
    format: FormatOption = OutputFormat.text,
    ascii_cells: AsciiOption = False,
    render: Annotated[
        Path | None, typer.Option("--render", help="Draw the solved picture with its clues: .svg or .png.")
    ] = None,
    live: Annotated[
        bool, typer.Option("--live", help="Show the grid filling in as line logic works (when it fits the terminal).")
    ] = False,
    linestats: Annotated[
        bool, typer.Option("--linestats", help="After solving, a table per line: passes, cells fixed, time.")
    ] = False,
    conflicts: ConflictsOption = True,
) -> None:
    """Solve a puzzle, draw it with its clues, and say whether the solution is unique.

    Example: nonosat solve puzzles/webpbn-00001-dancer.non
    """
    from nonosat.deadline import Deadline
    from nonosat.solver import solve as solve_puzzle

    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    _check_outputs(output, render, force)
    if live:
        _live_line_logic(puzzle, ascii_cells, deadline)
    try:
        result = solve_puzzle(
            puzzle, count=count, timeout=deadline.remaining(), solver=solver, encoding=encoding.value, jobs=_jobs(jobs)
        )
    except ImpossiblePuzzle as error:
        for target, verb in ((output, "written to"), (render, "drawn in")):
            if target is not None:
                err.print(f"nothing {verb} {target}: none, no solution found", markup=False)
        _no_solution(puzzle, error, ascii_cells, format is OutputFormat.json, file, deadline, conflicts)
    if output is not None:
        _write_solution(result, output, force)
    if render is not None:
        _draw_solution(result, render, force)
    if format is OutputFormat.json:
        data = _result_json(result, file)
        if result.status.value == "none" and conflicts:
            data["diagnosis"] = _diagnosis_json(puzzle, deadline)
        out.print_json(json.dumps(data))
    else:
        if result.solution is not None:
            _show_grid(puzzle, result.solution.grid, ascii_cells)
        out.print(_status_line(result), markup=False)
        if result.status.value == "none" and conflicts:
            _show_diagnosis(puzzle, ascii_cells, deadline)
        if linestats:
            _show_line_stats(puzzle, deadline)
    raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


def _check_outputs(output: Path | None, render: Path | None, force: bool) -> None:
    """Refuse an --output or --render that exists (without --force) before any work."""
    if output is not None:
        from nonosat.formats.atomic import ensure_writable

        ensure_writable(output, force=force)
    if render is not None:
        from nonosat.render.sheets import check_picture_path

        check_picture_path(render, force=force)


@app.command()
@friendly
def check(
    file: PuzzleFile,
    timeout: TimeoutOption = None,
    solver: SolverOption = "minisat22",
    jobs: JobsOption = None,
    encoding: EncodingOption = Encoding.blocks,
    format: FormatOption = OutputFormat.text,
    ascii_cells: AsciiOption = False,
    rating: Annotated[
        bool,
        typer.Option(
            "--rating/--no-rating",
            help="Rate the puzzle's difficulty for people (it can take longer than the verdict).",
        ),
    ] = True,
    conflicts: ConflictsOption = True,
) -> None:
    """Prove a puzzle's solution unique, or show two solutions and the cells where they differ.

    Exits 6 when the file's goal does not satisfy its clues, whatever the verdict.
    Example: nonosat check puzzles/webpbn-06574-forever.non
    """
    from nonosat.deadline import Deadline
    from nonosat.explain.rating import rate
    from nonosat.render.views import describe_cells, side_by_side
    from nonosat.solver import check as check_puzzle

    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    goal_ok = None if puzzle.goal is None else puzzle.satisfied_by(puzzle.goal)
    try:
        verdict = check_puzzle(
            puzzle, timeout=deadline.remaining(), solver=solver, encoding=encoding.value, jobs=_jobs(jobs)
        )
    except ImpossiblePuzzle as error:
        _no_solution(puzzle, error, ascii_cells, format is OutputFormat.json, file, deadline, conflicts, goal_ok)
    result = verdict.result
    rated = (
        rate(puzzle, result=result, timeout=deadline.remaining())
        if rating and result.status.value != "unknown"
        else None
    )
    code = EXIT_FOR_STATUS[result.status.value] if goal_ok is not False else EXIT_GOAL_BREAKS_CLUES
    if format is OutputFormat.json:
        data = _result_json(result, file)
        data["level"] = rated.level if rated else None
        data["difficulty"] = rated.score if rated and rated.level != "unknown" else None
        if rated is not None and rated.cut_short:
            data["rating_cut_short"] = rated.cut_short
        if result.status.value == "none" and conflicts:
            data["diagnosis"] = _diagnosis_json(puzzle, deadline)
        data["goal_satisfies_clues"] = goal_ok
        data["differences"] = [[r + 1, c + 1] for r, c in verdict.differences]
        out.print_json(json.dumps(data))
        raise typer.Exit(code)
    out.print(f"{puzzle.name}: {puzzle.width}x{puzzle.height}", markup=False)
    if len(result.solutions) >= 2:
        first, second = (s.grid for s in result.solutions[:2])
        view = side_by_side(puzzle, first, second, width=out.width, ascii_cells=ascii_cells)
        if view is not None:
            out.print(view)
        else:
            out.print("(the two solutions are wider than the terminal; --format json lists them)")
        out.print(f"{len(verdict.differences)} cells differ: {describe_cells(verdict.differences)}", markup=False)
    out.print(_status_line(result), markup=False)
    if rated is not None and rated.level == "unknown":
        out.print(f"level: unknown ({rated.cut_short or 'time limit reached'})", markup=False)
    elif rated is not None and rated.level != "none":
        out.print(f"level: {rated.level} · difficulty {rated.score}/5", markup=False)
    if result.status.value == "none" and conflicts:
        _show_diagnosis(puzzle, ascii_cells, deadline)
    _show_goal(puzzle, goal_ok)
    raise typer.Exit(code)


def _show_goal(puzzle: "Puzzle", goal_ok: bool | None) -> None:
    """Whether the file's goal satisfies the clues, when it has one."""
    if goal_ok is None or puzzle.goal is None:
        return
    if goal_ok:
        out.print("goal: satisfies the clues")
    else:
        wrong = puzzle.violations(puzzle.goal)
        out.print(f"goal: does NOT satisfy the clues of {', '.join(wrong[:8])}", markup=False)


def _spans(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5" (numbers counted from 1)."""
    parts: list[str] = []
    for n in numbers:
        if parts and parts[-1].split("-")[-1] == str(n - 1):
            parts[-1] = parts[-1].split("-")[0] + f"-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def _fixed_text(step: Any) -> str:
    """A step's fixed cells along its line: "columns 4-19 filled; column 1 empty"."""
    along_row = step.line.startswith("row")
    across = "column" if along_row else "row"
    found = []
    for mark, word in (("#", "filled"), (".", "empty")):
        positions = sorted(
            (c if along_row else r) + 1 for r, c in step.fixed if step.after[c if along_row else r] == mark
        )
        if positions:
            found.append(f"{across}{'s' if len(positions) > 1 else ''} {_spans(positions)} {word}")
    return "; ".join(found)


def _no_solution(
    puzzle: "Puzzle",
    error: ImpossiblePuzzle,
    ascii_cells: bool,
    as_json: bool,
    file: str,
    deadline: "Deadline",
    conflicts: bool,
    goal_ok: bool | None = None,
) -> NoReturn:
    """A puzzle refuted before search: the cheap checks that failed (one line on stderr, as for
    any error), then the lines at fault on stdout; exit 3 (6 from check, when a goal breaks)."""
    typer.echo(f"nonosat: {one_line(str(error))}", err=True)
    if as_json:
        data = {
            "path": file,
            "width": puzzle.width,
            "height": puzzle.height,
            "status": "none",
            "method": "checks",
            "problems": error.problems,
            "diagnosis": _diagnosis_json(puzzle, deadline) if conflicts else None,
        }
        if goal_ok is not None:
            data["goal_satisfies_clues"] = goal_ok
        out.print_json(json.dumps(data))
    else:
        if conflicts:
            _show_diagnosis(puzzle, ascii_cells, deadline)
        _show_goal(puzzle, goal_ok)
    raise typer.Exit(3 if goal_ok is not False else EXIT_GOAL_BREAKS_CLUES)


def _diagnosis_limit(deadline: "Deadline") -> "Deadline":
    """The command's deadline, or CONFLICTS_SECONDS from now when it has none."""
    from nonosat.deadline import Deadline

    return deadline if deadline.at is not None else Deadline.after(CONFLICTS_SECONDS)


def _diagnosis_json(puzzle: "Puzzle", deadline: "Deadline") -> dict[str, Any] | None:
    from nonosat.errors import CutShort
    from nonosat.explain.diagnosis import diagnose

    try:
        found = diagnose(puzzle, deadline=_diagnosis_limit(deadline))
    except CutShort as error:
        return {"lines": None, "problems": puzzle.problems(), "cut_short": str(error)}
    if found is None:
        return None
    return {"lines": found.names(puzzle), "problems": list(found.problems), "cut_short": None}


def _show_diagnosis(puzzle: "Puzzle", ascii_cells: bool, deadline: "Deadline") -> None:
    """Name a minimal set of lines whose clues cannot all hold, and mark them on the grid."""
    from nonosat.errors import CutShort
    from nonosat.explain.diagnosis import diagnose
    from nonosat.render.views import grid_view, grid_width

    try:
        found = diagnose(puzzle, deadline=_diagnosis_limit(deadline))
    except CutShort as error:
        out.print(f"({error}; --no-conflicts skips this)", markup=False, soft_wrap=True)
        return
    if found is None:
        return
    count = len(found.lines)
    lead = "this line's clue cannot hold" if count == 1 else f"these {count} lines cannot all hold together"
    out.print(f"{lead} (drop any one and the rest can): {', '.join(found.names(puzzle))}", markup=False, soft_wrap=True)
    if grid_width(puzzle, ascii_cells) + 2 <= out.width:
        out.print(grid_view(puzzle, None, lines=found.lines, ascii_cells=ascii_cells))


def _partial(board: Any) -> Any:
    return tuple(tuple(board.cell(r, c) for c in range(board.width)) for r in range(board.height))


def _live_line_logic(puzzle: "Puzzle", ascii_cells: bool, deadline: "Deadline") -> None:
    """Show the grid filling in, step by step, while line logic works (then the solve goes on);
    the display stops where the deadline passes."""
    from nonosat.explain.steps import trace
    from nonosat.render.views import grid_view, grid_width

    if grid_width(puzzle, ascii_cells) > out.width:
        err.print("(--live: the grid is wider than the terminal; solving without it)", markup=False)
        return
    from rich.live import Live

    from nonosat import interrupts

    view = Live(
        grid_view(puzzle, None, ascii_cells=ascii_cells), console=out.console(), refresh_per_second=15, transient=True
    )
    with interrupts.deaf_threads():  # Rich's refresh thread leaves Ctrl-C to the main thread
        view.start()
    with view:

        def show(step: Any, board: Any) -> None:
            view.update(grid_view(puzzle, _partial(board), highlight=step.fixed, ascii_cells=ascii_cells))
            deadline.check("showing line logic")
            time.sleep(min(LIVE_DELAY, deadline.remaining() or LIVE_DELAY))

        trace(puzzle, probing=False, on_step=show, deadline=deadline)


LIVE_DELAY = 0.02
"""Seconds each line step stays on screen with --live, so that people can follow it."""


def _show_line_stats(puzzle: "Puzzle", deadline: "Deadline") -> None:
    """Per line: how many passes line logic made over it, the cells it fixed, and the time
    (up to the deadline, if it passes first)."""
    from rich.table import Table

    from nonosat.errors import TimeUp
    from nonosat.linesolve import Board, Contradiction, propagate
    from nonosat.model import clue_text, line_name

    stats: dict[tuple[bool, int], list[float]] = {}

    def count(is_row: bool, index: int, fixed: int, seconds: float) -> None:
        entry = stats.setdefault((is_row, index), [0, 0, 0.0])
        entry[0] += 1
        entry[1] += fixed
        entry[2] += seconds

    title = "line logic, per line"
    try:
        propagate(Board(puzzle), on_pass=count, deadline=deadline)
    except Contradiction:
        pass
    except TimeUp as error:
        title += f" ({error})"
    table = Table(title=title, title_justify="left")
    for name, justify in (
        ("line", "left"),
        ("clue", "left"),
        ("passes", "right"),
        ("cells fixed", "right"),
        ("ms", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for (is_row, index), (passes, fixed, seconds) in sorted(stats.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        table.add_row(
            line_name("row" if is_row else "column", index),
            clue_text(clue),
            str(int(passes)),
            str(int(fixed)),
            f"{1000 * seconds:.2f}",
        )
    out.print(table)


@app.command()
@friendly
def explain(
    file: PuzzleFile,
    format: FormatOption = OutputFormat.text,
    as_json: JsonOption = False,
    timeout: TimeoutOption = None,
) -> None:
    """The solution as numbered steps of line logic (and probing), then search if logic stalls.

    Example: nonosat explain puzzles/webpbn-00001-dancer.non
    """
    from nonosat.deadline import Deadline
    from nonosat.explain.steps import trace
    from nonosat.model import clue_text
    from nonosat.solver import solve as solve_puzzle

    if as_json:
        format = OutputFormat.json
    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    puzzle.ensure_possible()
    logic = trace(puzzle, deadline=deadline)
    board = logic.board
    left = board.unknown_count()
    result = None
    if logic.contradiction is None and logic.cut_short is None and left:
        result = solve_puzzle(puzzle, count=2, timeout=deadline.remaining(), jobs=_jobs(None))
    if format is OutputFormat.json:
        data = {
            "path": file,
            "steps": [
                {
                    "step": s.number,
                    "kind": s.kind,
                    "line": s.line,
                    "clue": list(s.clue),
                    "before": s.before,
                    "after": s.after,
                    "fixed": [[r + 1, c + 1] for r, c in s.fixed],
                    "reason": s.describe(),
                }
                for s in logic.steps
            ],
            "level": logic.level if logic.complete else None,
            "contradiction": logic.contradiction,
            "open_cells": left,
            "search": None if result is None else result.status.value,
            "cut_short": logic.cut_short or (result.cut_short if result is not None else None),
        }
        out.print_json(json.dumps(data))
    else:
        for step in logic.steps:
            if step.kind == "probe":
                out.print(f"{step.number}. {step.reason}", markup=False, soft_wrap=True)
            else:
                cells = ", ".join(f"{c + 1}" if step.line.startswith("row") else f"{r + 1}" for r, c in step.fixed)
                where = ("column" if step.line.startswith("row") else "row") + ("s" if len(step.fixed) > 1 else "")
                out.print(
                    f"{step.number}. {step.line}, clue {clue_text(step.clue)}: "
                    f"{step.before} -> {step.after} (fixes {where} {cells})",
                    markup=False,
                    soft_wrap=True,
                )
        if logic.contradiction is not None:
            out.print(f"line logic finds {logic.contradiction} impossible: the puzzle has no solution", markup=False)
            _show_diagnosis(puzzle, False, deadline)
            raise typer.Exit(3)
        if logic.cut_short is not None:
            out.print(f"{logic.cut_short}, with {left} cells open: unknown", markup=False)
            raise typer.Exit(EXIT_FOR_STATUS["unknown"])
        if not left:
            out.print(
                f"solved by {'line logic' if logic.level == 'line' else 'line logic and probing'} "
                f"in {len(logic.steps)} steps",
                markup=False,
            )
        else:
            out.print(
                f"line logic and probing stall with {left} cells open; search (SAT) goes on from here:", markup=False
            )
            assert result is not None
            out.print(_status_line(result), markup=False)
    if logic.contradiction is not None:
        raise typer.Exit(3)
    if logic.cut_short is not None:
        raise typer.Exit(EXIT_FOR_STATUS["unknown"])
    if result is not None:
        raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


@app.command()
@friendly
def rate(
    file: PuzzleFile,
    format: FormatOption = OutputFormat.text,
    as_json: JsonOption = False,
    timeout: TimeoutOption = None,
) -> None:
    """How hard the puzzle is for a person: line, probe, search or ambiguous, and a 1-5 score.

    Exits as check does: 0 for line, probe and search (unique), 1 ambiguous, 3 none, 4 unknown.
    Example: nonosat rate puzzles/webpbn-06574-forever.non
    """
    from nonosat.deadline import Deadline
    from nonosat.explain.rating import rate as rate_puzzle

    if as_json:
        format = OutputFormat.json
    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    rating = rate_puzzle(puzzle, timeout=deadline.remaining())
    if format is OutputFormat.json:
        out.print_json(
            json.dumps(
                {
                    "path": file,
                    "level": rating.level,
                    "difficulty": rating.score,
                    "line_passes": rating.passes,
                    "passes_per_line": round(rating.passes_per_line, 3),
                    "probes": rating.probes,
                    "cut_short": rating.cut_short,
                }
            )
        )
    else:
        out.print(f"{puzzle.name}: {puzzle.width}x{puzzle.height}", markup=False)
        if rating.level == "unknown":
            out.print(
                f"unknown ({rating.cut_short or 'time limit reached'}) · {rating.passes} line passes · "
                f"{rating.probes} cells probed",
                markup=False,
            )
        else:
            out.print(
                f"{rating.level} · difficulty {rating.score}/5 · {rating.passes} line passes "
                f"({rating.passes_per_line:.1f} per line) · {rating.probes} cells probed",
                markup=False,
            )
    raise typer.Exit(EXIT_FOR_LEVEL[rating.level])


@app.command()
@friendly
def hint(
    file: PuzzleFile,
    state: Annotated[
        Path, typer.Option("--state", help="The grid so far: rows of # . ? (or a .non with a saved string).")
    ],
    steps: Annotated[int, typer.Option("--steps", min=1, help="How many logical steps to show.")] = 1,
    timeout: TimeoutOption = None,
) -> None:
    """The next cells logic decides from a partly filled grid, with the reason, or the wrong cell.

    Exits 3 when a marked cell is wrong, 1 when no cell is forced (several solutions from here).
    Example: nonosat hint puzzles/webpbn-00006-cat.non --state cat-so-far.txt
    """
    from nonosat.deadline import Deadline, alarm
    from nonosat.explain.hint import hint as next_hint
    from nonosat.explain.hint import load_state

    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    with alarm(deadline, f"reading {state}"):
        so_far = load_state(state, puzzle)
    found = next_hint(puzzle, so_far, steps, timeout=deadline.remaining())
    if found.impossible:
        out.print(
            "the puzzle has no solution, whatever the grid so far (nonosat check names the lines at fault)",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(3)
    if found.wrong is not None:
        (r, c), value = found.wrong
        out.print(
            f"(row {r + 1}, column {c + 1}) is wrong: it must be {'filled' if value else 'empty'}; "
            f"no completion of this grid meets the clues",
            markup=False,
        )
        raise typer.Exit(3)
    if found.solved:
        out.print("the grid is complete and meets every clue", markup=False)
    for step in found.steps:
        if step.kind == "probe":
            out.print(f"{step.reason}", markup=False, soft_wrap=True)
        else:
            out.print(
                f"{step.line}, clue {' '.join(map(str, step.clue)) or '0'}: {step.before} -> {step.after}, "
                f"so in {step.line}: {_fixed_text(step)}",
                markup=False,
                soft_wrap=True,
            )
    if found.searched is not None:
        (r, c), value = found.searched
        out.print(
            f"logic finds nothing more; search shows (row {r + 1}, column {c + 1}) is "
            f"{'filled' if value else 'empty'} in every solution",
            markup=False,
            soft_wrap=True,
        )
    if found.ambiguous:
        out.print(
            "logic finds nothing more, and no open cell has the same value in every solution: "
            "the puzzle has several solutions from here",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(EXIT_FOR_STATUS["multiple"])


@app.command()
@friendly
def encode(
    file: PuzzleFile,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the DIMACS CNF ('-' for stdout).")],
    encoding: EncodingOption = Encoding.blocks,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Write the puzzle as DIMACS CNF for any SAT solver; comments map cells to variables.

    Cells that line logic decides become unit clauses. Example:
    nonosat encode puzzles/webpbn-06574-forever.non -o forever.cnf
    """
    from nonosat.encodings.grid import encode_puzzle
    from nonosat.formats import load
    from nonosat.formats.atomic import write_text_atomic

    text = encode_puzzle(load(file), encoding.value)
    if str(output) == "-":
        out.file.write(text)
    else:
        write_text_atomic(output, text, force=force)
        err.print(f"wrote {output}", markup=False)


@app.command()
@friendly
def convert(
    file: PuzzleFile,
    output: Annotated[Path, typer.Argument(help="File to write, in the format its suffix names.")],
    to: Annotated[
        str | None,
        typer.Option(
            "--to", help="Format to write, whatever the suffix: non, xml, nin, mk, json, tatham, clues, tournament."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Write a puzzle in another file format, and say which fields that format cannot hold.

    Example: nonosat convert puzzles/webpbn-00001-dancer.non dancer.xml
    """
    from nonosat.formats import convert as convert_puzzle

    dropped = convert_puzzle(file, output, to=to, force=force)
    note = f" (dropped: {', '.join(dropped)})" if dropped else ""
    err.print(f"wrote {output}{note}", markup=False, soft_wrap=True)


@app.command()
@friendly
def render(
    file: PuzzleFile,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The picture to write: .svg, or .png (needs nonosat[image]).")
    ],
    solution: Annotated[
        bool, typer.Option("--solution", help="Draw the solved picture (the first found), not the empty sheet.")
    ] = False,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Draw the puzzle as printed, clues and all, as SVG or PNG: the empty sheet, or with --solution solved.

    Example: nonosat render puzzles/webpbn-00016-knot.non -o knot.svg
    """
    from nonosat.deadline import Deadline
    from nonosat.render.sheets import check_picture_path, save_picture
    from nonosat.solver import solve as solve_puzzle

    deadline = Deadline.after(timeout)
    puzzle = _load(file, deadline)
    check_picture_path(output, force=force)
    grid = None
    if solution:
        result = solve_puzzle(puzzle, count=1, timeout=deadline.remaining())
        if result.solution is None:
            typer.echo(f"nonosat: {file}: nothing to draw: {_status_line(result)}", err=True)
            raise typer.Exit(EXIT_FOR_STATUS[result.status.value])
        grid = result.solution.grid
    save_picture(puzzle, grid, output, force=force)
    err.print(f"wrote {output}", markup=False)


RequireOption = Annotated[
    str,
    typer.Option(
        "--require", help="unique (proved by SAT), or line: solvable by line logic alone, as puzzles for people are."
    ),
]
MaxChangesOption = Annotated[
    int | None,
    typer.Option(
        "--max-changes", min=0, help="Give up after changing this many cells (default: 5% of the grid, at least 10)."
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", help="Seed for tie-breaks (and the random grid): same seed, same puzzle.")
]
GeneratedOutput = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="Write the puzzle here (.non, or any format convert writes); default: print it as .non."
    ),
]


def _write_generated(made: Any, output: Path | None, preview: Path | None, force: bool) -> None:
    """Write (or print) a generated puzzle and its preview, then say what was proved."""
    from nonosat.formats import dumps, save

    puzzle = made.puzzle
    if preview is not None:
        from nonosat.render.sheets import save_picture

        save_picture(puzzle, puzzle.goal, preview, force=force)
    if output is None:
        out.file.write(dumps(puzzle, "non"))
    else:
        save(puzzle, output, force=force)
    how = "line logic" if made.result.method == "line" else "SAT"
    where = f"; wrote {output}" if output is not None else ""
    shown = f"; preview {preview}" if preview is not None else ""
    err.print(
        f"{puzzle.name}: {puzzle.width}x{puzzle.height}, unique (proved by {how}), "
        f"{len(made.changed)} cells changed ({100 * made.changed_share:.1f}%){where}{shown}",
        markup=False,
        soft_wrap=True,
    )


def _threshold(text: str) -> Any:
    if text == "otsu":
        return text
    if text.isdigit() and 0 <= int(text) <= 255:
        return int(text)
    raise typer.BadParameter("otsu, or a grey level from 0 to 255", param_hint="--threshold")


@app.command()
@friendly
def generate(
    image: Annotated[Path, typer.Argument(help="A picture: PNG, JPEG, GIF, BMP or WebP.")],
    output: GeneratedOutput = None,
    width: Annotated[
        int | None, typer.Option("--width", min=1, help="Cells across; alone, the height follows the picture's aspect.")
    ] = None,
    height: Annotated[
        int | None, typer.Option("--height", min=1, help="Cells down; alone, the width follows the picture's aspect.")
    ] = None,
    threshold: Annotated[
        str, typer.Option("--threshold", help="otsu, or a grey level 0..255: darker cells are filled.")
    ] = "otsu",
    invert: Annotated[bool, typer.Option("--invert", help="Fill the light cells instead of the dark ones.")] = False,
    require: RequireOption = "unique",
    max_changes: MaxChangesOption = None,
    seed: SeedOption = 0,
    preview: Annotated[
        Path | None, typer.Option("--preview", help="Also draw the final picture with its clues: .png or .svg.")
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="Title (default: from the file name).")] = None,
    author: Annotated[str | None, typer.Option("--author", help="Author, written into the puzzle.")] = None,
    license: Annotated[str | None, typer.Option("--license", help="Licence, written into the puzzle.")] = None,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a puzzle from a picture, changing as few cells as needed to prove it has one solution.

    Example: nonosat generate docs/heart.png --width 20 --require line -o heart.non
    """
    from nonosat.generate import from_image
    from nonosat.render.sheets import check_picture_path

    if output is not None:
        from nonosat.formats.atomic import ensure_writable

        ensure_writable(output, force=force)
    if preview is not None:
        check_picture_path(preview, force=force)
    made = from_image(
        image,
        width=width,
        height=height,
        threshold_level=_threshold(threshold),
        invert=invert,
        require=require,
        max_changes=max_changes,
        seed=seed,
        timeout=timeout,
        title=title,
        author=author,
        license=license,
    )
    _write_generated(made, output, preview, force)


@app.command("random")
@friendly
def random_command(
    width: Annotated[int, typer.Option("--width", min=1, help="Cells across.")],
    height: Annotated[int, typer.Option("--height", min=1, help="Cells down.")],
    output: GeneratedOutput = None,
    density: Annotated[
        float, typer.Option("--density", min=0.0, max=1.0, help="Share of filled cells in the random grid.")
    ] = 0.5,
    seed: SeedOption = 0,
    require: RequireOption = "unique",
    max_changes: MaxChangesOption = None,
    preview: Annotated[
        Path | None, typer.Option("--preview", help="Also draw the puzzle's picture with its clues: .png or .svg.")
    ] = None,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a random puzzle with one solution, proved, as Simon Tatham's Pattern does.

    Example: nonosat random --width 15 --height 15 --require line --seed 7
    """
    from nonosat.generate import random_puzzle
    from nonosat.render.sheets import check_picture_path

    if output is not None:
        from nonosat.formats.atomic import ensure_writable

        ensure_writable(output, force=force)
    if preview is not None:
        check_picture_path(preview, force=force)
    made = random_puzzle(
        width, height, density=density, seed=seed, require=require, max_changes=max_changes, timeout=timeout
    )
    _write_generated(made, output, preview, force)


@app.command()
@friendly
def batch(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Puzzle files, folders (searched recursively) and globs; files of several puzzles count each one."
        ),
    ],
    results: Annotated[
        str,
        typer.Option(
            "--out",
            help="Results, one JSON object per line; rerunning with the "
            "same file resumes. '-' writes them to standard output.",
        ),
    ],
    jobs: Annotated[
        int | None, typer.Option("--jobs", min=1, help="Worker processes (default: the cores this process may use).")
    ] = None,
    timeout: TimeoutOption = None,
    count: Annotated[
        int, typer.Option("--count", min=1, help="Look for up to N solutions per puzzle (2 decides uniqueness).")
    ] = 2,
    require: Annotated[
        str | None,
        typer.Option(
            "--require",
            help="unique: exit 1 unless every puzzle is unique and every goal "
            "satisfies its clues (as --fail-on multiple,none,unknown,error,goal).",
        ),
    ] = None,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on",
            help="Exit 1 if any puzzle has one of these statuses, e.g. "
            "multiple,none,unknown,error; 'goal' for a goal that breaks its clues.",
        ),
    ] = None,
    retry: Annotated[
        str | None,
        typer.Option(
            "--retry",
            help="Solve again the puzzles whose records have these statuses, e.g. unknown (with this run's --timeout).",
        ),
    ] = None,
    executor: Annotated[
        str, typer.Option("--executor", help="local (worker processes) or dask (needs nonosat[dask]).")
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786; without it a LocalCluster is started."
        ),
    ] = None,
) -> None:
    """Solve whole collections into a JSON Lines file, with progress, resumable after Ctrl-C or a kill.

    --timeout is per puzzle. Example: nonosat batch puzzles/ --out results.jsonl
    """
    from nonosat.batch import STATUSES, check_executor, pending, run

    failing = _fail_statuses(require, fail_on, STATUSES)
    retried = _statuses(retry, STATUSES, "--retry")
    check_executor(executor)
    to_stdout = results == "-"
    out_path = None if to_stdout else Path(results)
    todo, done = pending(paths, out_path, retry=tuple(retried))
    records = list(done)
    stream = run(
        paths, out=out_path, jobs=jobs, timeout=timeout, count=count, executor=executor, scheduler=scheduler, todo=todo
    )
    if to_stdout:
        stream = _echo_records(stream)
    if todo:
        records += _run_with_progress(stream, len(todo), len(done))
    else:
        err.print(f"nothing to do: all {len(done)} puzzles are already in {results}", markup=False)
    _print_summary(records, "standard output" if to_stdout else results, err if to_stdout else out)
    bad = sorted({r["status"] for r in records} & failing)
    if "goal" in failing and any(r.get("goal_ok") is False for r in records):
        bad.append("goal (a goal that breaks its clues)")
    if bad:
        err.print(f"failing: some puzzles are {', '.join(bad)}", markup=False)
        raise typer.Exit(1)


def _echo_records(stream: Any) -> Any:
    """Write each record to standard output as a line of JSON, as it comes; stop the run when
    its reader has gone (the records so far were read, the rest would be lost)."""
    import sys

    from nonosat.batch.results import dumps
    from nonosat.errors import UsageError

    for record in stream:
        out.file.write(dumps(record) + "\n")
        out.file.flush()
        if getattr(sys.stdout, "closed_pipe", False):
            stream.close()
            raise UsageError("cannot write the results: standard output was closed")
        yield record


def _statuses(text: str | None, statuses: tuple[str, ...], option: str, extra: tuple[str, ...] = ()) -> set[str]:
    """A comma-separated list of statuses, each one of `statuses` (or `extra`)."""
    named = {name.strip() for name in (text or "").split(",") if name.strip()}
    unknown = named - set(statuses) - set(extra)
    if unknown:
        raise typer.BadParameter(
            f"statuses are {', '.join(statuses + extra)}; not {', '.join(sorted(unknown))}", param_hint=option
        )
    return named


def _fail_statuses(require: str | None, fail_on: str | None, statuses: tuple[str, ...]) -> set[str]:
    failing: set[str] = set()
    if require is not None:
        if require != "unique":
            raise typer.BadParameter("the only requirement is unique", param_hint="--require")
        failing |= {"multiple", "none", "unknown", "error", "goal"}
    return failing | _statuses(fail_on, statuses, "--fail-on", extra=("goal",))


def _run_with_progress(stream: Any, total: int, before: int) -> list[dict[str, Any]]:
    """Consume the records, showing a progress bar with the ETA and running counts by status."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from nonosat import interrupts

    counts: dict[str, int] = {}
    records = []
    note = f" (resuming: {before} already done)" if before else ""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    progress = Progress(*columns, console=err.console(), transient=False)
    with interrupts.deaf_threads():  # Rich's refresh thread leaves Ctrl-C to the main thread
        progress.start()
    with progress:
        task = progress.add_task(f"solving{note}", total=total)
        try:
            for record in stream:
                records.append(record)
                counts[record["status"]] = counts.get(record["status"], 0) + 1
                shown = " · ".join(f"{name} {n}" for name, n in sorted(counts.items()))
                progress.update(task, advance=1, description=f"solving{note} · {shown}")
        except KeyboardInterrupt:
            stream.close()  # the workers end now
            progress.stop()
            interrupts.announce()
            err.print(
                f"interrupted after {len(records)} new puzzles; run the same command again to resume", markup=False
            )
            raise typer.Exit(interrupts.EXIT_INTERRUPTED) from None
    return records


SLOW = 0.25
"""Puzzles taking at least this many seconds are listed after a batch run (the five slowest)."""


def _print_summary(records: list[dict[str, Any]], results: str, console: Any) -> None:
    from rich.table import Table

    from nonosat.render.terminal import clean

    counts: dict[str, int] = {}
    for record in records:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    table = Table(title=f"{len(records)} puzzles in {clean(results)}", title_justify="left")
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    table.add_column("total s", justify="right")
    table.add_column("slowest s", justify="right")
    for status in sorted(counts):
        times = [r["seconds"] for r in records if r["status"] == status]
        table.add_row(status, str(counts[status]), f"{sum(times):.2f}", f"{max(times):.3f}")
    console.print(table)
    slowest = sorted((r for r in records if r["seconds"] >= SLOW), key=lambda r: r["seconds"], reverse=True)[:5]
    if slowest:
        console.print(
            f"slowest (over {SLOW} s): "
            + ", ".join(f"{clean(str(r['path']))} ({r['status']}, {r['seconds']:.2f} s)" for r in slowest),
            markup=False,
            soft_wrap=True,
        )
    broken = [clean(str(r["path"])) for r in records if r.get("goal_ok") is False]
    if broken:
        console.print(
            f"goals that break their clues: {', '.join(broken[:10])}" + (" ..." if len(broken) > 10 else ""),
            markup=False,
            soft_wrap=True,
        )


def _version(value: bool) -> None:
    if value:
        from nonosat import __version__

        out.print(f"nonosat {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool | None, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = None,
) -> None:
    """Solve nonograms with SAT and prove whether the solution is unique."""


def _only_the_command_asked_for(args: list[str]) -> None:
    """Register only the subcommand on the command line, when there is one: Typer builds a
    Click command for every registered function (reading its signature and annotations) before
    it runs any, and for one command that is a fifth of a small solve's start-up. `nonosat
    --help`, `--version` and unknown names still see every command."""
    name = args[0] if args else ""
    chosen = [info for info in app.registered_commands if _command_name(info) == name]
    if chosen:
        app.registered_commands = chosen


def _command_name(info: Any) -> str:
    from typer.main import get_command_name  # how Typer names a command after its function

    return info.name or get_command_name(info.callback.__name__)


def main() -> None:
    """Entry point of the `nonosat` console script: Ctrl-C ends any command within a second
    (nonosat.interrupts), and a closed standard output does not change the exit code."""
    import sys

    from nonosat.interrupts import watch_ctrl_c
    from nonosat.render.terminal import guard_stdout

    guard_stdout()
    watch_ctrl_c()
    _only_the_command_asked_for(sys.argv[1:])
    app()
