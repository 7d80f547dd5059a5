"""encode, convert and render: a puzzle written as CNF, in another format, or as a picture."""

from pathlib import Path
from typing import Annotated

import typer

from nonosat.cli.base import Encoding, PuzzleFile, TargetFormat, TimeoutOption, app, friendly
from nonosat.cli.show import EXIT_FOR_STATUS, err, load_puzzle, out


@app.command(short_help="Write the puzzle as DIMACS CNF for any SAT solver.")
@friendly
def encode(
    file: PuzzleFile,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the DIMACS CNF ('-' for stdout).")],
    encoding: Annotated[
        Encoding, typer.Option("--encoding", help="The CNF encoding of each line's clue.")
    ] = Encoding.blocks,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Write the puzzle as DIMACS CNF for any SAT solver; comments map cells to variables.

    Cells that line logic decides become unit clauses. Example:
    nonosat encode puzzles/webpbn-06574-forever.non -o forever.cnf
    """
    from nonosat.formats import load
    from nonosat.formats.atomic import write_text_atomic
    from nonosat.solver.encodings.grid import encoded_puzzle

    text, refuted = encoded_puzzle(load(file), encoding.value)
    unsatisfiable = "" if refuted is None else f" (no solution: {refuted}; the formula is unsatisfiable)"
    if str(output) == "-":
        out.file.write(text)
        if refuted is not None:
            err.print(f"nonosat: {file}: {unsatisfiable[2:-1]}", markup=False, soft_wrap=True)
    else:
        write_text_atomic(output, text, force=force)
        err.print(f"wrote {output}{unsatisfiable}", markup=False, soft_wrap=True)
    if refuted is not None:
        raise typer.Exit(EXIT_FOR_STATUS["none"])


@app.command(short_help="Write a puzzle in another file format.")
@friendly
def convert(
    file: PuzzleFile,
    output: Annotated[
        Path, typer.Argument(help="File to write, in the format its suffix names ('-' for stdout, with --to).")
    ],
    to: Annotated[TargetFormat | None, typer.Option("--to", help="Format to write, whatever the suffix.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output if it exists.")] = False,
) -> None:
    """Write a puzzle in another file format, and say which fields that format cannot hold.

    Example: nonosat convert puzzles/webpbn-00001-dancer.non dancer.xml
    """
    from nonosat.formats import convert as convert_puzzle

    if str(output) == "-":  # as encode -o -: the text on standard output, what it drops on standard error
        if to is None:
            raise typer.BadParameter("standard output has no suffix: name the format with --to", param_hint="OUTPUT")
        from nonosat.formats import dropped_fields, dumps, load

        puzzle = load(file)
        out.file.write(dumps(puzzle, to.value))
        left_out = dropped_fields(puzzle, to.value)
        if left_out:
            err.print(f"dropped: {', '.join(left_out)}", markup=False, soft_wrap=True)
        return
    dropped = convert_puzzle(file, output, to=None if to is None else to.value, force=force)
    note = f" (dropped: {', '.join(dropped)})" if dropped else ""
    err.print(f"wrote {output}{note}", markup=False, soft_wrap=True)
    from nonosat.formats.detection import SUFFIXES, suffix_of

    named = SUFFIXES.get(suffix_of(output))
    if to is not None and named is not None and named != to.value:  # a review: `--to nin out.non` read back as .non
        err.print(
            f"note: {output} holds {to.value}, but its suffix names {named}: nonosat will read it as {named}",
            markup=False,
            soft_wrap=True,
        )


@app.command(short_help="Draw the puzzle as printed, as SVG or PNG.")
@friendly
def render(
    file: PuzzleFile,
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="The picture to write: .svg, or .png (needs nonosat[image]); '-' writes the SVG to stdout.",
        ),
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
    from nonosat.render.text import status_line
    from nonosat.solver import solve as solve_puzzle

    deadline = Deadline.for_command(timeout)
    puzzle = load_puzzle(file, deadline)
    to_stdout = str(output) == "-"  # a site's script: `render FILE -o - > sheet.svg`, or a pipe
    if not to_stdout:
        check_picture_path(output, force=force)
    grid, unproved = None, ""
    if solution:
        result = solve_puzzle(puzzle, count=1, timeout=deadline)
        if result.solution is None:
            typer.echo(f"nonosat: {file}: nothing to draw: {status_line(result)}", err=True)
            raise typer.Exit(EXIT_FOR_STATUS[result.status.value])
        grid = result.solution.grid
        if result.status.value != "unique":  # a search's first grid: an author may take it for the only one
            unproved = f" (the first solution found; nonosat check {file} says whether it is the only one)"
    if to_stdout:
        from nonosat.deadline import finished_by
        from nonosat.render.sheets import to_svg

        out.file.write(finished_by(deadline, "drawing the picture", lambda: to_svg(puzzle, grid)))
        if unproved:
            err.print(f"nonosat: {file}: the picture drawn is{unproved}", markup=False)
        return
    save_picture(puzzle, grid, output, force=force, deadline=deadline)
    err.print(f"wrote {output}{unproved}", markup=False)
