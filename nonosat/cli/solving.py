"""solve and check: a puzzle's solution, and the proof that it is the only one."""

import json
from pathlib import Path
from typing import Annotated

import typer

from nonosat.cli.base import (
    DEFAULT_SOLVER,
    EXIT_FOR_STATUS,
    EXIT_GOAL_BREAKS_CLUES,
    AsciiOption,
    ConflictsOption,
    Encoding,
    EncodingOption,
    FormatOption,
    JobsOption,
    OutputFormat,
    PuzzleFile,
    SolverOption,
    TimeoutOption,
    app,
    check_outputs,
    cores,
    draw_solution,
    err,
    friendly,
    load_puzzle,
    no_solution,
    out,
    show_diagnosis,
    show_goal,
    show_grid,
    write_solution,
)


@app.command()
@friendly
def solve(
    file: PuzzleFile,
    count: Annotated[int, typer.Option("--count", min=1, help="Look for up to N solutions (2 proves uniqueness).")] = 2,
    timeout: TimeoutOption = None,
    solver: SolverOption = DEFAULT_SOLVER,
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
    from nonosat.answers import solve_answer
    from nonosat.cli.explaining import live_line_logic, show_line_stats
    from nonosat.deadline import Deadline
    from nonosat.render.text import status_line

    deadline = Deadline.after(timeout)
    puzzle = load_puzzle(file, deadline)
    check_outputs(output, render, force)
    if live:
        live_line_logic(puzzle, ascii_cells, deadline)
    as_json = format is OutputFormat.json
    answer = solve_answer(
        puzzle,
        file,
        deadline,
        count=count,
        solver=solver,
        encoding=encoding.value,
        jobs=cores(jobs),
        conflicts=conflicts,
        diagnose=as_json,
    )
    result = answer.result
    if result is None:
        for target, verb in ((output, "written to"), (render, "drawn in")):
            if target is not None:
                err.print(f"nothing {verb} {target}: none, no solution found", markup=False)
        no_solution(answer, ascii_cells, as_json, deadline)
    if output is not None:
        write_solution(result, output, force)
    if render is not None:
        draw_solution(result, render, force)
    if as_json:
        out.print_json(json.dumps(answer.record()))
    else:
        if result.solution is not None:
            show_grid(puzzle, result.solution.grid, ascii_cells)
        out.print(status_line(result), markup=False)
        if result.status.value == "none" and conflicts:
            show_diagnosis(puzzle, ascii_cells, deadline)
        if linestats:
            show_line_stats(puzzle, deadline)
    raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


@app.command()
@friendly
def check(
    file: PuzzleFile,
    timeout: TimeoutOption = None,
    solver: SolverOption = DEFAULT_SOLVER,
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
    from nonosat.answers import check_answer
    from nonosat.deadline import Deadline
    from nonosat.render.text import level_line, status_line
    from nonosat.render.views import describe_cells, side_by_side

    deadline = Deadline.after(timeout)
    puzzle = load_puzzle(file, deadline)
    as_json = format is OutputFormat.json
    answer = check_answer(
        puzzle,
        file,
        deadline,
        solver=solver,
        encoding=encoding.value,
        jobs=cores(jobs),
        rating=rating,
        conflicts=conflicts,
        diagnose=as_json,
    )
    goal_ok, rated, verdict = answer.goal_ok, answer.rating, answer.verdict
    if verdict is None:
        no_solution(answer, ascii_cells, as_json, deadline)
    result = verdict.result
    code = EXIT_FOR_STATUS[result.status.value] if goal_ok is not False else EXIT_GOAL_BREAKS_CLUES
    if as_json:
        out.print_json(json.dumps(answer.record()))
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
    out.print(status_line(result), markup=False)
    level = level_line(rated) if rated is not None else None
    if level is not None:
        out.print(level, markup=False)
    if result.status.value == "none" and conflicts:
        show_diagnosis(puzzle, ascii_cells, deadline)
    show_goal(puzzle, goal_ok)
    raise typer.Exit(code)
