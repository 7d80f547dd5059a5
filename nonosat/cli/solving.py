"""solve and check: a puzzle's solution, and the proof that it is the only one."""

from pathlib import Path
from typing import Annotated

import typer

from nonosat.cli.base import (
    AsciiOption,
    ConflictsOption,
    EncodingOption,
    Engine,
    EngineOption,
    FormatOption,
    JobsOption,
    JsonOption,
    OutputFormat,
    PuzzleFile,
    SolverOption,
    TimeoutOption,
    app,
    check_outputs,
    draw_solution,
    friendly,
    write_solution,
)
from nonosat.cli.certifying import refuse_certificate_past_limit, write_certificate
from nonosat.cli.show import cores, load_puzzle, ready_to_show, show_checked, show_solved, showing_time
from nonosat.limits import MAX_COUNT


@app.command(short_help="Solve a puzzle and say whether its solution is unique.")
@friendly
def solve(
    file: PuzzleFile,
    count: Annotated[
        int, typer.Option("--count", min=1, max=MAX_COUNT, help="Look for up to N solutions (2 proves uniqueness).")
    ] = 2,
    timeout: TimeoutOption = None,
    engine: EngineOption = Engine.auto,
    solver: SolverOption = None,
    jobs: JobsOption = None,
    encoding: EncodingOption = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the solution: .non or .xml (as goal), or .json.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --render if it exists.")] = False,
    format: FormatOption = OutputFormat.text,
    as_json: JsonOption = False,
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
    from nonosat.cli.explaining import live_line_logic, show_line_stats
    from nonosat.deadline import Deadline
    from nonosat.reports import solve_report

    deadline = Deadline.for_command(timeout)
    as_json = as_json or format is OutputFormat.json
    puzzle = load_puzzle(file, deadline, as_json=as_json, verdict=True)
    check_outputs(output, render, force)
    if live:
        from nonosat.render.terminal import draws_blocks

        live_line_logic(puzzle, ascii_cells or not draws_blocks(), deadline)
    ready_to_show(deadline, as_json)
    before_showing = deadline.sooner(showing_time(puzzle, min(count, 2) if as_json else 1, as_json))
    answer = solve_report(
        puzzle,
        file,
        before_showing,
        count=count,
        engine=engine.value,
        solver=solver,
        encoding=None if encoding is None else encoding.value,
        jobs=cores(jobs),
        conflicts=conflicts,
        diagnose=as_json,
        written=as_json,  # the text view shows one grid: all it found, with time to spare, counted (a review)
    )
    result = answer.result
    if output is not None:
        write_solution(result, output, force)
    if render is not None:
        draw_solution(result, render, force, before_showing)  # the grid is shown after (a review: 0.3 s late)
    code = show_solved(answer, ascii_cells, as_json, deadline)
    if linestats and not as_json:
        show_line_stats(puzzle, deadline)
    raise typer.Exit(code)


@app.command(short_help="Prove the solution unique, or show two that differ.")
@friendly
def check(
    file: PuzzleFile,
    timeout: TimeoutOption = None,
    engine: EngineOption = Engine.auto,
    solver: SolverOption = None,
    jobs: JobsOption = None,
    encoding: EncodingOption = None,
    format: FormatOption = OutputFormat.text,
    as_json: JsonOption = False,
    ascii_cells: AsciiOption = False,
    rating: Annotated[
        bool,
        typer.Option(
            "--rating/--no-rating",
            help="Rate the puzzle's difficulty for people, after the verdict, within 10 times "
            "the verdict's time (at least 1 s); nonosat rate takes longer.",
        ),
    ] = True,
    conflicts: ConflictsOption = True,
    certificate: Annotated[
        Path | None,
        typer.Option(
            "--certificate",
            metavar="DIR",
            help="Write the verdict's evidence into DIR: the whole CNF and a DRAT proof (unique, none) or "
            "two solutions (multiple), checkable by drat-trim or nonosat verify DIR.",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the files of --certificate.")] = False,
) -> None:
    """Prove a puzzle's solution unique, or show two solutions and the cells where they differ.

    Exits 6 when the file's goal does not satisfy its clues, whatever the verdict.
    Example: nonosat check puzzles/webpbn-06574-forever.non --certificate forever-proof
    """
    from nonosat.deadline import Deadline
    from nonosat.reports import check_report

    deadline = Deadline.for_command(timeout)
    if certificate is not None:
        from nonosat.certificate import check_certificate_folder

        check_certificate_folder(certificate, force)  # before any work, as for -o
    as_json = as_json or format is OutputFormat.json
    puzzle = load_puzzle(file, deadline, as_json, verdict=True)
    if certificate is not None:
        refuse_certificate_past_limit(puzzle, encoding)
    ready_to_show(deadline, as_json)
    answer = check_report(
        puzzle,
        file,
        deadline.sooner(showing_time(puzzle, 2, as_json)),
        engine=engine.value,
        solver=solver,
        encoding=None if encoding is None else encoding.value,
        jobs=cores(jobs),
        rating=False,
        conflicts=conflicts,
        diagnose=as_json,
        line_deadline=deadline.sooner(showing_time(puzzle, 1, as_json)),  # unique by line logic: one grid shown
    )
    code = show_checked(answer, ascii_cells, as_json, deadline, rating=rating)
    if certificate is not None:
        write_certificate(answer, certificate, encoding, force, deadline, quiet=as_json)
    raise typer.Exit(code)
