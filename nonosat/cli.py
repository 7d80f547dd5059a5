"""The `nonosat` command line: a thin layer over the library.

Exit codes: 0 unique or solved, 1 multiple solutions, 2 bad input or usage,
3 no solution, 4 unknown (time limit reached).
"""

from __future__ import annotations

import functools
import json
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional, TypeVar

import typer

from nonosat.errors import NonosatError

if TYPE_CHECKING:
    from rich.console import Console

    from nonosat.model import Puzzle
    from nonosat.solver import Result

EXIT_CODES = """\
Exit codes: 0 unique (or solved, with --count 1); 1 multiple solutions;
2 bad input or usage; 3 no solution; 4 unknown (time limit reached)."""

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
        self._console: Optional[Console] = None

    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, **self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console(), name)


out = _LazyConsole()
err = _LazyConsole(stderr=True)

EXIT_FOR_STATUS = {"unique": 0, "solved": 0, "multiple": 1, "none": 3, "unknown": 4}


class Encoding(str, Enum):
    blocks = "blocks"
    automaton = "automaton"


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


PuzzleFile = Annotated[str, typer.Argument(help="Puzzle file (or a Tatham game ID); FILE#N picks puzzle N of a file that holds several.")]
TimeoutOption = Annotated[Optional[float], typer.Option("--timeout", min=0.0, help="Give up after S seconds: status unknown.")]
SolverOption = Annotated[str, typer.Option("--solver", help="PySAT solver name, e.g. minisat22, cadical195, glucose4.")]
JobsOption = Annotated[Optional[int], typer.Option("--jobs", min=1, help="Cores a hard puzzle may use: with 2 or more (the default on a multi-core machine), a search that takes over 0.1 s races two solvers.")]
EncodingOption = Annotated[Encoding, typer.Option("--encoding", help="CNF encoding of each line's clue.")]
FormatOption = Annotated[OutputFormat, typer.Option("--format", help="text for people, json for programs.")]
AsciiOption = Annotated[bool, typer.Option("--ascii", help="Draw cells as # and . with no colour.")]

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Turn nonosat's own errors into one line on stderr and their documented exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except NonosatError as error:
            typer.echo(f"nonosat: {error}", err=True)
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt:
            err.print("nonosat: interrupted")
            raise typer.Exit(130) from None

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
        status += f" (time limit reached; {found} solution{'s' if found != 1 else ''} found)"
    return f"{status} · {how} · {result.seconds:.3f} s"


def _show_grid(puzzle: "Puzzle", grid: Any, ascii_cells: bool) -> None:
    """The grid with its clues if it fits the terminal, else the bare cells (half-blocks, or # and .
    with --ascii), else one line on how to draw it as a picture."""
    from nonosat.render import grid_view, grid_width, half_block_grid, plain_grid

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
    }


def _write_solution(result: "Result", target: Path, force: bool) -> None:
    from dataclasses import replace

    from nonosat.errors import UsageError
    from nonosat.files import write_text_atomic
    from nonosat.formats import dump_solution_json, save

    if result.solution is None:
        raise UsageError(f"no solution to write to {target}")
    grid = result.solution.grid
    if target.suffix.lower() == ".json":
        text = dump_solution_json(result.puzzle, grid, result.status.value)
        write_text_atomic(target, text, force=force)
    else:
        save(replace(result.puzzle, goal=grid), target, force=force)


def _draw_solution(result: "Result", target: Path, force: bool) -> None:
    from nonosat.errors import UsageError
    from nonosat.picture import save_picture

    if result.solution is None:
        raise UsageError(f"no solution to draw in {target}")
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
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the solution: .non (as goal) or .json.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --render if it exists.")] = False,
    format: FormatOption = OutputFormat.text,
    ascii_cells: AsciiOption = False,
    render: Annotated[Optional[Path], typer.Option("--render", help="Draw the solved picture with its clues: .svg or .png.")] = None,
) -> None:
    """Solve a puzzle, draw it with its clues, and say whether the solution is unique.

    Example: nonosat solve puzzles/webpbn-00001-dancer.non
    """
    from nonosat.formats import load
    from nonosat.solver import solve as solve_puzzle

    puzzle = load(file)
    if render is not None:
        from nonosat.picture import check_picture_path

        check_picture_path(render, force=force)
    result = solve_puzzle(puzzle, count=count, timeout=timeout, solver=solver, encoding=encoding.value, jobs=jobs)
    if output is not None:
        _write_solution(result, output, force)
    if render is not None:
        _draw_solution(result, render, force)
    if format is OutputFormat.json:
        out.print_json(json.dumps(_result_json(result, file)))
    else:
        if result.solution is not None:
            _show_grid(puzzle, result.solution.grid, ascii_cells)
        out.print(_status_line(result), markup=False)
    raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


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
) -> None:
    """Prove a puzzle's solution unique, or show two solutions and the cells where they differ.

    Example: nonosat check puzzles/webpbn-06574-forever.non
    """
    from nonosat.formats import load
    from nonosat.render import describe_cells, side_by_side
    from nonosat.solver import check as check_puzzle

    puzzle = load(file)
    verdict = check_puzzle(puzzle, timeout=timeout, solver=solver, encoding=encoding.value, jobs=jobs)
    result = verdict.result
    if format is OutputFormat.json:
        data = _result_json(result, file)
        data["goal_satisfies_clues"] = verdict.goal_satisfies_clues
        data["differences"] = [[r + 1, c + 1] for r, c in verdict.differences]
        out.print_json(json.dumps(data))
        raise typer.Exit(EXIT_FOR_STATUS[result.status.value])
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
    if verdict.goal_satisfies_clues is not None:
        if verdict.goal_satisfies_clues:
            out.print("goal: satisfies the clues")
        else:
            wrong = puzzle.violations(puzzle.goal)  # type: ignore[arg-type]
            out.print(f"goal: does NOT satisfy the clues of {', '.join(wrong[:8])}", markup=False)
    raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


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
    from nonosat.cnf import encode_puzzle
    from nonosat.files import write_text_atomic
    from nonosat.formats import load

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
    to: Annotated[Optional[str], typer.Option("--to", help="Format to write, whatever the suffix: non, xml, nin, mk, json, tatham, clues, tournament.")] = None,
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
    output: Annotated[Path, typer.Option("--output", "-o", help="The picture to write: .svg, or .png (needs nonosat[image]).")],
    solution: Annotated[bool, typer.Option("--solution", help="Draw the solved picture (the first found), not the empty sheet.")] = False,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Draw the puzzle as printed, clues and all, as SVG or PNG: the empty sheet, or with --solution solved.

    Example: nonosat render puzzles/webpbn-00016-knot.non -o knot.svg
    """
    from nonosat.formats import load
    from nonosat.picture import check_picture_path, save_picture
    from nonosat.solver import solve as solve_puzzle

    puzzle = load(file)
    check_picture_path(output, force=force)
    grid = None
    if solution:
        result = solve_puzzle(puzzle, count=1, timeout=timeout)
        if result.solution is None:
            typer.echo(f"nonosat: {file}: nothing to draw: {_status_line(result)}", err=True)
            raise typer.Exit(EXIT_FOR_STATUS[result.status.value])
        grid = result.solution.grid
    save_picture(puzzle, grid, output, force=force)
    err.print(f"wrote {output}", markup=False)


RequireOption = Annotated[str, typer.Option("--require", help="unique (proved by SAT), or line: solvable by line logic alone, as puzzles for people are.")]
MaxChangesOption = Annotated[Optional[int], typer.Option("--max-changes", min=0, help="Give up after changing this many cells (default: 5% of the grid, at least 10).")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed for tie-breaks (and the random grid): same seed, same puzzle.")]
GeneratedOutput = Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the puzzle here (.non, or any format convert writes); default: print it as .non.")]


def _write_generated(made: Any, output: Optional[Path], preview: Optional[Path], force: bool) -> None:
    """Write (or print) a generated puzzle and its preview, then say what was proved."""
    from nonosat.formats import dumps, save

    puzzle = made.puzzle
    if preview is not None:
        from nonosat.picture import save_picture

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
        markup=False, soft_wrap=True,
    )  # fmt: skip


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
    width: Annotated[Optional[int], typer.Option("--width", min=1, help="Cells across; alone, the height follows the picture's aspect.")] = None,
    height: Annotated[Optional[int], typer.Option("--height", min=1, help="Cells down; alone, the width follows the picture's aspect.")] = None,
    threshold: Annotated[str, typer.Option("--threshold", help="otsu, or a grey level 0..255: darker cells are filled.")] = "otsu",
    invert: Annotated[bool, typer.Option("--invert", help="Fill the light cells instead of the dark ones.")] = False,
    require: RequireOption = "unique",
    max_changes: MaxChangesOption = None,
    seed: SeedOption = 0,
    preview: Annotated[Optional[Path], typer.Option("--preview", help="Also draw the final picture with its clues: .png or .svg.")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="Title (default: from the file name).")] = None,
    author: Annotated[Optional[str], typer.Option("--author", help="Author, written into the puzzle.")] = None,
    license: Annotated[Optional[str], typer.Option("--license", help="Licence, written into the puzzle.")] = None,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a puzzle from a picture, changing as few cells as needed to prove it has one solution.

    Example: nonosat generate docs/heart.png --width 20 --require line -o heart.non
    """
    from nonosat.generate import from_image
    from nonosat.picture import check_picture_path

    if output is not None:
        from nonosat.files import ensure_writable

        ensure_writable(output, force=force)
    if preview is not None:
        check_picture_path(preview, force=force)
    made = from_image(
        image, width=width, height=height, threshold_level=_threshold(threshold), invert=invert,
        require=require, max_changes=max_changes, seed=seed, timeout=timeout,
        title=title, author=author, license=license,
    )  # fmt: skip
    _write_generated(made, output, preview, force)


@app.command("random")
@friendly
def random_command(
    width: Annotated[int, typer.Option("--width", min=1, help="Cells across.")],
    height: Annotated[int, typer.Option("--height", min=1, help="Cells down.")],
    output: GeneratedOutput = None,
    density: Annotated[float, typer.Option("--density", min=0.0, max=1.0, help="Share of filled cells in the random grid.")] = 0.5,
    seed: SeedOption = 0,
    require: RequireOption = "unique",
    max_changes: MaxChangesOption = None,
    preview: Annotated[Optional[Path], typer.Option("--preview", help="Also draw the puzzle's picture with its clues: .png or .svg.")] = None,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a random puzzle with one solution, proved, as Simon Tatham's Pattern does.

    Example: nonosat random --width 15 --height 15 --require line --seed 7
    """
    from nonosat.generate import random_puzzle
    from nonosat.picture import check_picture_path

    if output is not None:
        from nonosat.files import ensure_writable

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
    paths: Annotated[list[str], typer.Argument(help="Puzzle files, folders (searched recursively) and globs; files of several puzzles count each one.")],
    results: Annotated[Path, typer.Option("--out", help="Results, one JSON object per line; rerunning with the same file resumes.")],
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, help="Worker processes (default: the cores).")] = None,
    timeout: TimeoutOption = None,
    count: Annotated[int, typer.Option("--count", min=1, help="Look for up to N solutions per puzzle (2 decides uniqueness).")] = 2,
    require: Annotated[Optional[str], typer.Option("--require", help="unique: exit 1 unless every puzzle is unique (as --fail-on multiple,none,unknown,error).")] = None,
    fail_on: Annotated[Optional[str], typer.Option("--fail-on", help="Exit 1 if any puzzle has one of these statuses, e.g. multiple,none,unknown,error.")] = None,
    executor: Annotated[str, typer.Option("--executor", help="local (worker processes) or dask (needs nonosat[dask]).")] = "local",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786; without it a LocalCluster is started.")] = None,
) -> None:
    """Solve whole collections into a JSON Lines file, with progress, resumable after Ctrl-C or a kill.

    Example: nonosat batch puzzles/ --out results.jsonl
    """
    from nonosat.batch import STATUSES, pending, run

    failing = _fail_statuses(require, fail_on, STATUSES)
    todo, done = pending(paths, results)
    records = list(done)
    if todo:
        records += _run_with_progress(run(paths, out=results, jobs=jobs, timeout=timeout, count=count,
                                          executor=executor, scheduler=scheduler, todo=todo), len(todo), len(done))  # fmt: skip
    else:
        err.print(f"nothing to do: all {len(done)} puzzles are already in {results}", markup=False)
    _print_summary(records, results)
    bad = sorted({r["status"] for r in records} & failing)
    if bad:
        err.print(f"failing: some puzzles are {', '.join(bad)}", markup=False)
        raise typer.Exit(1)


def _fail_statuses(require: Optional[str], fail_on: Optional[str], statuses: tuple[str, ...]) -> set[str]:
    failing: set[str] = set()
    if require is not None:
        if require != "unique":
            raise typer.BadParameter("the only requirement is unique", param_hint="--require")
        failing |= {"multiple", "none", "unknown", "error"}
    if fail_on:
        named = {name.strip() for name in fail_on.split(",") if name.strip()}
        unknown = named - set(statuses)
        if unknown:
            raise typer.BadParameter(f"statuses are {', '.join(statuses)}; not {', '.join(sorted(unknown))}", param_hint="--fail-on")
        failing |= named
    return failing


def _run_with_progress(stream: Any, total: int, before: int) -> list[dict[str, Any]]:
    """Consume the records, showing a progress bar with the ETA and running counts by status."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    counts: dict[str, int] = {}
    records = []
    note = f" (resuming: {before} already done)" if before else ""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=err.console(), transient=False) as progress:
        task = progress.add_task(f"solving{note}", total=total)
        try:
            for record in stream:
                records.append(record)
                counts[record["status"]] = counts.get(record["status"], 0) + 1
                shown = " · ".join(f"{name} {n}" for name, n in sorted(counts.items()))
                progress.update(task, advance=1, description=f"solving{note} · {shown}")
        except KeyboardInterrupt:
            progress.stop()
            err.print(f"interrupted after {len(records)} new puzzles; run the same command again to resume", markup=False)
            raise typer.Exit(130) from None
    return records


SLOW = 0.25
"""Puzzles taking at least this many seconds are listed after a batch run (the five slowest)."""


def _print_summary(records: list[dict[str, Any]], results: Path) -> None:
    from rich.table import Table

    counts: dict[str, int] = {}
    for record in records:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    table = Table(title=f"{len(records)} puzzles in {results}", title_justify="left")
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    table.add_column("total s", justify="right")
    table.add_column("slowest s", justify="right")
    for status in sorted(counts):
        times = [r["seconds"] for r in records if r["status"] == status]
        table.add_row(status, str(counts[status]), f"{sum(times):.2f}", f"{max(times):.3f}")
    out.print(table)
    slowest = sorted((r for r in records if r["seconds"] >= SLOW), key=lambda r: r["seconds"], reverse=True)[:5]
    if slowest:
        out.print(f"slowest (over {SLOW} s): " + ", ".join(f"{r['path']} ({r['status']}, {r['seconds']:.2f} s)" for r in slowest), markup=False, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        from nonosat import __version__

        out.print(f"nonosat {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")] = None,
) -> None:
    """Solve nonograms with SAT and prove whether the solution is unique."""


def main() -> None:
    """Entry point of the `nonosat` console script."""
    app()
