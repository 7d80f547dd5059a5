"""explain, rate and hint: the puzzle as a person solves it, how hard that is, the next move."""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nonosat.cli.base import (
    EXIT_FOR_LEVEL,
    Engine,
    EngineOption,
    FormatOption,
    JsonOption,
    OutputFormat,
    PuzzleFile,
    TimeoutOption,
    app,
    friendly,
)
from nonosat.cli.show import EXIT_FOR_STATUS, cores, err, load_puzzle, out, say, show_diagnosis, write_json

if TYPE_CHECKING:
    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle


@app.command(short_help="The solution as steps a person can follow.")
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
    from nonosat.explain.steps import explain as explain_puzzle
    from nonosat.render.records import step_writing, trace_record
    from nonosat.render.text import ending_line, explain_line, line_writing, status_line

    if as_json:
        format = OutputFormat.json
    deadline = Deadline.for_command(timeout)
    puzzle = load_puzzle(file, deadline, as_json=format is OutputFormat.json)
    writing = step_writing(indented=True) if format is OutputFormat.json else line_writing
    with refuted_in_json("explain", puzzle, file, format):
        explained = explain_puzzle(puzzle, deadline, jobs=cores(None), writing=writing)
    logic, result = explained.logic, explained.search
    if format is OutputFormat.json:
        write_json(trace_record(file, logic, explained.open_cells, result))
    else:
        say(*(explain_line(step) for step in logic.steps))
        out.print(ending_line(explained), markup=False)
        if logic.contradiction is not None:
            show_diagnosis(puzzle, False, deadline)
        elif result is not None:
            out.print(status_line(result), markup=False)
    if logic.contradiction is not None:
        raise typer.Exit(EXIT_FOR_STATUS["none"])
    if logic.cut_short is not None:
        raise typer.Exit(EXIT_FOR_STATUS["unknown"])
    if result is not None:
        raise typer.Exit(EXIT_FOR_STATUS[result.status.value])


@app.command(short_help="How hard the puzzle is for a person, 1 to 5.")
@friendly
def rate(
    file: PuzzleFile,
    format: FormatOption = OutputFormat.text,
    as_json: JsonOption = False,
    timeout: TimeoutOption = None,
    engine: EngineOption = Engine.auto,
) -> None:
    """How hard the puzzle is for a person: line, probe, search or ambiguous, and a 1-5 score.

    Exits as check does: 0 for line, probe and search (unique), 1 ambiguous, 3 none, 4 unknown.
    Example: nonosat rate puzzles/webpbn-06574-forever.non
    """
    from nonosat.deadline import Deadline
    from nonosat.explain.rating import rate as rate_puzzle
    from nonosat.render.records import rating_record
    from nonosat.render.text import rating_line

    if as_json:
        format = OutputFormat.json
    deadline = Deadline.for_command(timeout)
    puzzle = load_puzzle(file, deadline, as_json=format is OutputFormat.json)
    with refuted_in_json("rate", puzzle, file, format):
        rating = rate_puzzle(puzzle, timeout=deadline, engine=engine.value)
    if format is OutputFormat.json:
        write_json(rating_record(file, rating))
    else:
        out.print(f"{puzzle.name}: {puzzle.width}x{puzzle.height}", markup=False)
        out.print(rating_line(rating), markup=False)
    raise typer.Exit(EXIT_FOR_LEVEL[rating.level])


@app.command(short_help="The next cells logic decides from a partial grid.")
@friendly
def hint(
    file: PuzzleFile,
    state: Annotated[
        Path,
        typer.Option(
            "--state",
            help="The grid so far: rows of # . ? (in colour, the colours' characters and ?), or a .non's saved string.",
        ),
    ],
    steps: Annotated[
        int,
        typer.Option(
            "--steps",
            min=1,
            help="How many logical steps that fix cells to show (in colour, with the steps before them "
            "that only rule colours out, which a state file cannot hold).",
        ),
    ] = 1,
    timeout: TimeoutOption = None,
) -> None:
    """The next cells logic decides from a partly filled grid, with the reason, or the wrong cell.

    Exits 3 when a marked cell is wrong, 1 when no cell is forced (several solutions from here),
    4 when the time ran out before as many steps as asked for (those found are shown).
    Example: nonosat hint puzzles/webpbn-00006-cat.non --state cat-so-far.txt
    """
    from nonosat.deadline import Deadline, alarm
    from nonosat.explain.hint import hint as next_hint
    from nonosat.explain.hint import load_state
    from nonosat.render.text import hint_lines, hint_writing

    deadline = Deadline.for_command(timeout)
    puzzle = load_puzzle(file, deadline)
    with alarm(deadline, f"reading {state}"):
        so_far = load_state(state, puzzle)
    found = next_hint(puzzle, so_far, steps, timeout=deadline, writing=hint_writing)
    say(*hint_lines(found))  # (Rich's print per line took 0.2-0.4 s for a thousand long steps, past --timeout)
    if found.impossible or found.wrong is not None or found.conflict:
        raise typer.Exit(EXIT_FOR_STATUS["none"])
    if found.ambiguous:
        raise typer.Exit(EXIT_FOR_STATUS["multiple"])
    if found.cut_short is not None:
        raise typer.Exit(EXIT_FOR_STATUS["unknown"])


@contextmanager
def refuted_in_json(kind: str, puzzle: "Puzzle", file: str, format: OutputFormat) -> Iterator[None]:
    """With --format json, a puzzle the cheap checks refute is written in the command's own shape
    (`refuted_as`: no solution, and the problems), exit 3; as text, the one line on standard
    error that any command's ImpossiblePuzzle gives."""
    from nonosat.errors import ImpossiblePuzzle
    from nonosat.render.records import refuted_as

    try:
        yield
    except ImpossiblePuzzle as refuted:
        if format is not OutputFormat.json:
            raise
        write_json(refuted_as(kind, puzzle, refuted.problems, file))
        raise typer.Exit(EXIT_FOR_STATUS["none"]) from None


def partial(board: Any) -> Any:
    return tuple(tuple(board.cell(r, c) for c in range(board.width)) for r in range(board.height))


def live_line_logic(puzzle: "Puzzle", ascii_cells: bool, deadline: "Deadline") -> None:
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
            if not step.fixed:
                return  # in colour: colours ruled out, no cell fixed, nothing new to see
            view.update(grid_view(puzzle, partial(board), highlight=step.fixed, ascii_cells=ascii_cells))
            deadline.check("showing line logic")
            time.sleep(min(LIVE_DELAY, deadline.remaining() or LIVE_DELAY))

        trace(puzzle, probing=False, on_step=show, deadline=deadline)


LIVE_DELAY = 0.02
"""Seconds each line step stays on screen with --live, so that people can follow it."""


def show_line_stats(puzzle: "Puzzle", deadline: "Deadline") -> None:
    """Per line: how many passes line logic made over it, the cells it fixed, and the time
    (up to the deadline, if it passes first)."""
    from nonosat.render.tables import line_stats_table
    from nonosat.solver.propagation import line_stats

    out.print(line_stats_table(puzzle, *line_stats(puzzle, deadline)))
