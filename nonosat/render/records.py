"""The JSON shapes of nonosat's answers, one each, shared by the command line's --format json,
batch's results file and the web API: a result, a verdict, the lines at fault, the steps of
line logic, a rating, a hint, a generated puzzle and suggested edits. Each is a dict of JSON
values; cells are counted from 1.

A colour puzzle's records also carry its "palette" (as its JSON file holds it: a list of
{"name", "rgb", "char"}, the background first), and its solutions are rows of those characters.
Black-and-white records have no palette, and their rows are of '#' and '.'."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from nonosat.explain.diagnosis import Diagnosis
    from nonosat.explain.hint import Hint
    from nonosat.explain.rating import Rating
    from nonosat.explain.step import Step
    from nonosat.explain.trace import Trace
    from nonosat.generate import Generated, Suggestions
    from nonosat.model import Grid, Puzzle
    from nonosat.palette import Palette
    from nonosat.solver import Result, Verdict

Record = dict[str, Any]

RECORD_KEYS = (
    "path",
    "width",
    "height",
    "status",
    "method",
    "solutions",
    "seconds",
    "solution_sha1",
    "goal_ok",
    "error",
    "puzzle_sha1",
)
"""A batch record's keys, in order (`batch_record`); a colour puzzle's record adds "palette"."""


def puzzle_sha1(puzzle: Puzzle) -> str:
    """SHA-1 of what a batch record says of a puzzle depends on: its clues and their colours, its
    palette and its goal (not its title nor other metadata). A record whose `puzzle_sha1` is not
    that of its puzzle now is of an earlier version of the file (a review: a CI run passed on
    the record of a puzzle since changed to have two solutions), and batch solves it again."""
    palette = tuple((colour.char, colour.rgb) for colour in puzzle.palette)
    shape = (puzzle.rows, puzzle.columns, puzzle.row_colours, puzzle.column_colours, palette, puzzle.goal)
    unreadable = puzzle.goal_problem is not None  # (its text names a line, which a new title shifts)
    return hashlib.sha1(repr((*shape, unreadable)).encode()).hexdigest()


def solution_sha1(grid: Grid, palette: Palette | None = None) -> str:
    """SHA-1 of the grid written as rows of '#' and '.' (in colour, of the palette's characters)
    joined by newlines."""
    from nonosat.model import Solution

    return hashlib.sha1(Solution(grid).text(palette=palette).encode()).hexdigest()


def palette_record(puzzle: Puzzle) -> Record:
    """{"palette": [...]} for a colour puzzle, as its JSON file holds it; {} in black and white."""
    if not puzzle.is_colour:
        return {}
    from nonosat.formats.jsonfmt import palette_list

    return {"palette": palette_list(puzzle)}


def solution_rows(result: Result) -> list[list[str]]:
    """Every solution as rows of '#' and '.', or in colour of the palette's characters."""
    return [grid_rows(solution.grid, result.puzzle.palette) for solution in result.solutions]


MAX_RECORD_BYTES = 1 << 20
"""The longest line a results file may hold: a record is a few hundred bytes."""

RECORD_START = b'{"path": '
"""How every record begins: a half-written last line is cut off only if it begins so, or
follows records (a file of something else is never cut)."""


def batch_record(
    path: str, puzzle: Puzzle | None, result: Result | None = None, error: str | None = None, seconds: float = 0.0
) -> Record:
    """One puzzle of a batch run, as its results file holds it: its size, status, method, how many
    solutions, the seconds, the first solution's SHA-1, whether the file's goal satisfies the
    clues (None without a goal), and the error (status `error`) when there is no result; in
    colour, then the palette."""
    record: Record = dict.fromkeys(RECORD_KEYS)
    record.update(path=path, solutions=0, seconds=round(seconds, 6))
    if puzzle is not None:
        record.update(width=puzzle.width, height=puzzle.height)
        record.update(goal_ok=puzzle.goal_fits(), puzzle_sha1=puzzle_sha1(puzzle))
        record.update(palette_record(puzzle))
    if result is None:
        record.update(status="error", error=error)
        return record
    status = result.status.value
    if status == "solved":  # count=1: a solution, uniqueness not asked
        status = "unique" if result.complete else "solved"
    record.update(
        status=status,
        method=result.method.value,
        solutions=len(result.solutions),
        seconds=round(result.seconds, 6),
        solution_sha1=solution_sha1(result.solutions[0].grid, result.puzzle.palette) if result.solutions else None,
    )
    return record


def result_record(result: Result, path: str) -> Record:
    """A solve: its status, how it was decided (the engine, the PySAT solver and encoding whose
    grids these are, if any, and whether the race's rival answered), every solution found (rows
    of # and ., or in colour of the palette's characters, with the palette)."""
    return {
        "path": path,
        "width": result.puzzle.width,
        "height": result.puzzle.height,
        **palette_record(result.puzzle),
        "status": result.status.value,
        "method": result.method,
        "solver": result.solver,
        "encoding": result.encoding,
        "rival": result.rival,
        "solutions": solution_rows(result),
        "count_is_exact": result.complete,
        "seconds": round(result.seconds, 6),
        "stats": result.stats,
        "cut_short": result.cut_short,
    }


def verdict_record(
    verdict: Verdict, path: str, rating: Rating | None, diagnosis: Record | None, with_diagnosis: bool
) -> Record:
    """A check: the result, its rating, the lines at fault (for none), the goal, the differences."""
    result = verdict.result
    data = result_record(result, path)
    data["level"] = rating.level if rating else None
    data["difficulty"] = rating.score if rating else None
    if rating is not None and rating.cut_short:
        data["rating_cut_short"] = rating.cut_short
    if result.status.value == "none" and with_diagnosis:
        data["diagnosis"] = diagnosis
    data["goal_satisfies_clues"] = verdict.goal_satisfies_clues
    data["goal_breaks"] = goal_breaks(result.puzzle, verdict.goal_satisfies_clues)
    if result.puzzle.goal_problem is not None:
        data["goal_problem"] = result.puzzle.goal_problem
    data["differences"] = [[r + 1, c + 1] for r, c in verdict.differences]
    return data


def goal_breaks(puzzle: Puzzle, goal_ok: bool | None) -> list[str] | None:
    """The lines whose clues the file's goal breaks (`check` prints them; a site reading the JSON
    needs them as much: a review), empty when it satisfies them, None without a goal."""
    if goal_ok is None or puzzle.goal is None:
        return None
    return [] if goal_ok else list(puzzle.violations(puzzle.goal))


def diagnosis_record(puzzle: Puzzle, found: Diagnosis | None, cut_short: str | None) -> Record | None:
    """The lines whose clues cannot all hold (None when the puzzle has a solution after all)."""
    if cut_short is not None:
        return {"lines": None, "problems": puzzle.problems(), "cut_short": cut_short}
    if found is None:
        return None
    return {"lines": found.names(puzzle), "problems": list(found.problems), "cut_short": None}


def refuted_record(
    puzzle: Puzzle, problems: Sequence[str], path: str, diagnosis: Record | None, goal_ok: bool | None
) -> Record:
    """A puzzle refuted before any search, by the cheap checks that failed (the `problems` of a
    `none` result of method `checks`, or of the ImpossiblePuzzle rate, explain and hint raise)."""
    data: Record = {
        "path": path,
        "width": puzzle.width,
        "height": puzzle.height,
        **palette_record(puzzle),
        "status": "none",
        "method": "checks",
        "problems": list(problems),
        "diagnosis": diagnosis,
    }
    if goal_ok is not None:
        data["goal_satisfies_clues"] = goal_ok
        data["goal_breaks"] = goal_breaks(puzzle, goal_ok)
    if puzzle.goal_problem is not None:
        data["goal_problem"] = puzzle.goal_problem
    return data


def refuted_as(kind: str, puzzle: Puzzle, problems: Sequence[str], path: str) -> Record:
    """`rate`'s, `explain`'s or `hint`'s own shape for a puzzle the cheap checks refute (the
    library raises ImpossiblePuzzle: there is nothing to rate or explain), with no solution
    said as that shape says it, and the `problems`."""
    if kind == "rate":
        shape: Record = {"path": path, "level": "none", "difficulty": None, "line_passes": 0}
        shape.update(passes_per_line=0.0, probes=0, cut_short=None)
    elif kind == "explain":
        from nonosat.model import Line

        overfull = puzzle.overfull_lines()  # the first line that cannot hold its clue, as line logic names one
        first = str(Line.of(*overfull[0])) if overfull else None
        shape = {"path": path, "steps": [], "level": None, "contradiction": first}
        shape.update(open_cells=puzzle.width * puzzle.height, search=None, cut_short=None)
    else:
        from nonosat.explain.hint import Hint
        from nonosat.render.text import hint_lines

        found = Hint((), impossible=True, palette=puzzle.palette)
        shape = {**hint_record(found), "text": hint_lines(found)}
    return {**shape, "problems": list(problems)}


def step_record(step: Step) -> Record:
    """One deduction of line logic or probing. In colour, each block of the clue is [length,
    "colour name"] (as a colour JSON file writes it), and "narrowed" lists the cells the step
    rules colours out of without fixing them, each with the names of the colours it may still
    have (the background's among them)."""
    record: Record = {
        "step": step.number,
        "kind": step.kind,
        "line": step.line.name,
        "clue": list(step.clue),
        "before": step.before,
        "after": step.after,
        "fixed": [[r + 1, c + 1] for r, c in step.fixed],
        "reason": step.describe(),
    }
    if step.colours is not None:
        names = [colour.name for colour in step.palette]
        record["clue"] = [[size, names[colour]] for size, colour in zip(step.clue, step.colours, strict=True)]
        record["narrowed"] = [
            {"cell": [r + 1, c + 1], "colours": [names[k] for k in left]} for (r, c), left in step.narrowed
        ]
    return record


def step_writing(*, indented: bool) -> Callable[[Step], float]:
    """Seconds to make a step's record and write it out as JSON (`explain(writing=)`), indented
    by two (the command line) or not (the web API, which also hands it over from a worker),
    measured here on a 512x512 puzzle: most for each cell it fixes (a pair in a list of pairs),
    a little for each cell of its line; in colour, more for each cell it narrows (a record of
    its own: left out, a 512x512 colour grid's `explain --format json --timeout 1` wrote 30 MB
    until 2.3 s). Half as much again as the steps' own records took: one dump of them all, tens
    of megabytes, takes 1.3-1.7 times as long as each dumped alone."""
    per_fixed, per_cell, per_narrowed = (4.5e-6, 0.2e-6, 13e-6) if indented else (1.8e-6, 0.22e-6, 3e-6)
    return lambda step: per_fixed * len(step.fixed) + per_cell * len(step.before) + per_narrowed * len(step.narrowed)


def trace_record(path: str, logic: Trace, open_cells: int, search: Result | None) -> Record:
    """The steps of a logical solve, where it ended, and the search's verdict if one was needed."""
    return {
        "path": path,
        "steps": [step_record(step) for step in logic.steps],
        "level": logic.level if logic.complete else None,
        "contradiction": logic.contradiction,
        "open_cells": open_cells,
        "search": None if search is None else search.status.value,
        "cut_short": logic.cut_short or (search.cut_short if search is not None else None),
    }


def rating_record(path: str, rating: Rating) -> Record:
    """How hard a puzzle is for a person."""
    return {
        "path": path,
        "level": rating.level,
        "difficulty": rating.score,  # None for no solution, or not rated in time
        "line_passes": rating.passes,
        "passes_per_line": round(rating.passes_per_line, 3),
        "probes": rating.probes,
        "cut_short": rating.cut_short,
    }


def cut_short_record(reason: str) -> Record:
    """Work that ran out of time before it had an answer (a generated puzzle, a picture's grid):
    status `unknown`, and why."""
    return {"status": "unknown", "cut_short": reason}


def unread_record(path: str, reason: str) -> Record:
    """A puzzle whose time ran out before it was read (or, on the server, before a worker took
    it): its path, status `unknown`, and why; the shape `--format json` and the web API share."""
    return {"path": path, **cut_short_record(reason)}


def puzzle_record(puzzle: Puzzle) -> Record:
    """A puzzle as nonosat's JSON file holds it (clues, palette, goal, metadata)."""
    from nonosat.formats.jsonfmt import json_object

    return json_object(puzzle)


def grid_rows(grid: Grid, palette: Palette) -> list[str]:
    """A grid as rows of '#' and '.', or in colour of the palette's characters."""
    from nonosat.model import Solution

    return Solution(grid).text(palette=palette).split("\n")


def generated_record(made: Generated) -> Record:
    """A generated (or repaired) puzzle: the puzzle with its goal, the picture it started from,
    the cells changed, how far the picture moved, and the proof's status and method."""
    puzzle = made.puzzle
    return {
        "puzzle": puzzle_record(puzzle),
        "start": grid_rows(made.start, puzzle.palette),
        "changed": [[r + 1, c + 1] for r, c in made.changed],
        "distance": round(made.distance, 6),
        "status": made.result.status.value,
        "method": made.result.method,
        "threshold": made.threshold,
        "seconds": round(made.seconds, 6),
    }


def suggestions_record(found: Suggestions) -> Record:
    """The best one-cell edits: the cells line logic leaves open now, and each edit's cell, the
    colour it takes ('#' or '.', in colour the palette's character) and the cells open after it."""
    chars = [colour.char for colour in found.palette]
    return {
        "open": found.open,
        "edits": [
            {"cell": [r + 1, c + 1], "colour": chars[edit.colour], "open": edit.open, "cost": round(edit.cost, 6)}
            for edit in found.edits
            for r, c in (edit.cell,)
        ],
    }


def hint_record(found: Hint) -> Record:
    """The next step from a partial grid: the steps of logic, or the cell search decides, or the
    wrong cell, or the marks that cannot all hold; values as '#' and '.' (in colour, the
    palette's characters)."""
    chars = [colour.char for colour in found.palette]

    def cell(pair: tuple[tuple[int, int], int] | None, key: str) -> Record | None:
        if pair is None:
            return None
        (r, c), value = pair
        return {"cell": [r + 1, c + 1], key: chars[value]}

    return {
        "steps": [step_record(step) for step in found.steps],
        "wrong": cell(found.wrong, "should_be"),
        "conflict": [cell(mark, "value") for mark in found.conflict],
        "searched": cell(found.searched, "value"),
        "solved": found.solved,
        "ambiguous": found.ambiguous,
        "impossible": found.impossible,
        "cut_short": found.cut_short,
        "stalled": found.stalled,
        "completed": found.completed,
    }
