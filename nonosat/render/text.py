"""Sentences for people, one line each: a result's status, a step of line logic, a rating."""

from __future__ import annotations

from nonosat.model import clue_text
from nonosat.render.terminal import shown_chars

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from nonosat.explain.hint import Hint
    from nonosat.explain.rating import Rating
    from nonosat.explain.step import Step
    from nonosat.explain.steps import Explanation
    from nonosat.generate import Generated, Suggestions
    from nonosat.solver import Result
    from nonosat.solver.outcome import Method


def method_words(method: Method) -> str:
    """How a verdict was reached, as the sentences name it."""
    return {"line": "line logic", "dfs": "DFS", "cdcl": "CDCL", "checks": "checks"}.get(method.value, "SAT")


def status_line(result: Result) -> str:
    """unique / multiple / none / unknown, how it was decided, and the time."""
    found = len(result.solutions)
    how = method_words(result.method)
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
    return f"{status} · {answered_words(result, how)} · {result.seconds:.3f} s"


def answered_words(result: Result, how: str) -> str:
    """How the answer came: the engine's words, the PySAT solver and encoding whose grids these
    are, and the race's rival when its grids are among them ("SAT (cadical195, blocks), the
    race's rival"; "SAT (minisat22+cadical195, blocks)", both sides' grids when neither
    finished; "CDCL, with its rival: SAT (cadical195, blocks)")."""
    solver = f" ({result.solver}, {result.encoding})" if result.solver else ""
    if not result.rival:
        return how + solver
    if result.method == "sat":
        return how + solver + ("" if "+" in (result.solver or "") else ", the race's rival")
    return f"{how}, with its rival: " + (f"SAT{solver}" if result.solver else "the same search upside down")


def line_writing(step: Step) -> float:
    """Seconds to write a step as its line of text (`explain(writing=)`): 0.05 us for each cell
    of its line."""
    return 0.05e-6 * len(step.before)


def hint_writing(step: Step) -> float:
    """Seconds to write a step as `hint` gives it (`hint(writing=)`): 0.4 us for each cell of its
    line (measured: 2,021 steps of 512 cells put into words in 0.12 s and written in 0.05 s, 0.17
    us a cell), with room for a slower machine."""
    return 0.4e-6 * len(step.before)


def explain_line(step: Step) -> str:
    """A numbered step as `explain` lists it: the line, its clue, before -> after, the cells (in
    colour, what each became: "columns 4-6 red; column 1 blank; columns 2-3 not blank")."""
    if step.kind == "probe":
        return f"{step.number}. {step.reason}"
    if step.colours is not None:
        before, after = cells_shown(step)
        after = _after(before, after)
        return f"{step.number}. {step.line}, clue {step.clue_text}: {before} -> {after} ({step.fixed_text()})"
    along_row = step.line.is_row
    cells = ", ".join(f"{c + 1}" if along_row else f"{r + 1}" for r, c in step.fixed)
    where = ("column" if along_row else "row") + ("s" if len(step.fixed) > 1 else "")
    return (
        f"{step.number}. {step.line}, clue {clue_text(step.clue)}: "
        f"{step.before} -> {step.after} (fixes {where} {cells})"
    )


def hint_line(step: Step) -> str:
    """A step as `hint` gives it: the deduction, then which cells it decides, in words."""
    if step.kind == "probe":
        return step.reason
    before, after = cells_shown(step)
    after = _after(before, after)
    return f"{step.line}, clue {step.clue_text}: {before} -> {after}, so in {step.line}: {step.fixed_text()}"


def _after(before: str, after: str) -> str:
    """A colour step's line after it, or what it did where no cell was fixed (the same line twice
    read as a step that did nothing: a review)."""
    return "no cell fixed, colours ruled out" if after == before else after


def cells_shown(step: Step) -> tuple[str, str]:
    """A step's line before and after, each colour's character as the output can write it (as a
    grid draws it: `shown_chars`), so that two colours never look alike."""
    chars = [colour.char for colour in step.palette]
    shown = shown_chars(chars)
    if shown == chars:
        return step.before, step.after
    table = {ord(char): other for char, other in zip(chars, shown, strict=True) if char != other}
    return step.before.translate(table), step.after.translate(table)


def rating_line(rating: Rating) -> str:
    """The level, the 1-5 score and what they rest on."""
    probed = f"{rating.probes} {'cell' if rating.probes == 1 else 'cells'} probed"
    if rating.level == "unknown":
        return f"unknown ({rating.cut_short or 'time limit reached'}) · {rating.passes} line passes · {probed}"
    if rating.level == "none":
        return f"none (no solution) · {rating.passes} line passes ({rating.passes_per_line:.1f} per line) · {probed}"
    return (
        f"{rating.level} · difficulty {rating.score}/5 · {rating.passes} line passes "
        f"({rating.passes_per_line:.1f} per line) · {probed}"
    )


def level_line(rating: Rating) -> str | None:
    """The level as `check` adds it under the verdict (nothing when there is no solution)."""
    if rating.level == "unknown":
        return f"level: unknown ({rating.cut_short or 'time limit reached'})"
    if rating.level != "none":
        return f"level: {rating.level} · difficulty {rating.score}/5"
    return None


def hint_lines(found: Hint) -> list[str]:
    """What `hint` found, in sentences: the steps, the cell search decides, or why there is none."""
    if found.impossible:
        return ["the puzzle has no solution, whatever the grid so far (nonosat check names the lines at fault)"]
    if found.wrong is not None:
        (r, c), value = found.wrong
        return [
            f"(row {r + 1}, column {c + 1}) is wrong: it must be {found.word(value)}; "
            f"no completion of this grid meets the clues"
        ]
    if len(found.conflict) == 1:
        (((r, c), value),) = found.conflict
        return [
            f"(row {r + 1}, column {c + 1}) is wrong: no solution has it {found.word(value)}; "
            f"no completion of this grid meets the clues"
        ]
    if found.conflict:
        marks = ", ".join(f"(row {r + 1}, column {c + 1}) {found.word(value)}" for (r, c), value in found.conflict)
        return [
            f"these marked cells cannot all hold: {marks}; one of them is wrong, "
            f"and no completion of this grid meets the clues"
        ]
    lines = ["the grid is complete and meets every clue"] if found.solved else []
    lines += [hint_line(step) for step in found.steps]
    if found.searched is not None:
        (r, c), value = found.searched
        lines.append(
            f"logic finds nothing more; search shows (row {r + 1}, column {c + 1}) is "
            f"{found.word(value)} in every solution"
        )
    if found.ambiguous:
        lines.append(
            "logic finds nothing more, and no open cell has the same value in every solution: "
            "the puzzle has several solutions from here"
        )
    fixing = sum(1 for step in found.steps if step.fixed)
    if found.cut_short is not None:
        lines.append(f"{found.cut_short} after {fixing} step{'' if fixing == 1 else 's'}: there may be more")
    if found.stalled:
        lines.append(f"logic finds nothing more after {fixing} step{'' if fixing == 1 else 's'}")
    if found.completed:
        lines.append(f"{'this step completes' if fixing == 1 else f'these {fixing} steps complete'} the grid")
    return lines


def generated_line(made: Generated, output: Path | None, preview: Path | None, dropped: Sequence[str] = ()) -> str:
    """What a generated puzzle is, what was proved, how much of the picture changed, where it went
    (and what of it the output's format could not hold, as `convert` says)."""
    puzzle = made.puzzle
    how = method_words(made.result.method)
    lost = f" (dropped: {', '.join(dropped)})" if dropped else ""
    where = f"; wrote {output}{lost}" if output is not None else ""
    shown = f"; preview {preview}" if preview is not None else ""
    count = len(made.changed)
    from_picture = made.threshold is not None or made.colour_error is not None
    distance = f", picture distance {made.distance:.2f}" if count and from_picture else ""
    return (
        f"{puzzle.name}: {puzzle.width}x{puzzle.height}, unique (proved by {how}), "
        f"{count} {'cell' if count == 1 else 'cells'} changed ({100 * made.changed_share:.1f}%){distance}{where}{shown}"
    )


def suggestion_lines(source: object, found: Suggestions) -> list[str]:
    """The best one-cell edits of a picture's puzzle, one a line, after what line logic leaves."""
    left = found.open
    if not left:
        return [f"{source}: line logic solves the puzzle already; no edit needed"]
    cells = f"{left} {'cell' if left == 1 else 'cells'}"
    if not found.edits:
        return [
            f"{source}: line logic leaves {cells} open, and no one-cell edit frees any "
            "(generate changes several cells at a time)"
        ]
    lines = [f"{source}: line logic leaves {cells} open; the best one-cell edits:"]
    for edit in found.edits:
        r, c = edit.cell
        if not edit.colour:
            what = "clear it"
        elif len(found.palette) == 2:
            what = "fill it"
        else:
            what = f"make it {found.palette[edit.colour].name}"
        lines.append(f"  row {r + 1}, column {c + 1}: {what} -> {edit.open} left open (cost {edit.cost:.2f})")
    return lines


def ending_line(explained: Explanation) -> str:
    """Where the steps of `explain` end: a contradiction, the deadline, solved, or a stall."""
    logic, left = explained.logic, explained.open_cells
    if logic.contradiction is not None:
        return f"line logic finds {logic.contradiction} impossible: the puzzle has no solution"
    if logic.cut_short is not None:
        return f"{logic.cut_short}, with {left} cells open: unknown"
    if not left:
        how = "line logic" if logic.level == "line" else "line logic and probing"
        return f"solved by {how} in {len(logic.steps)} steps"
    return f"line logic and probing stall with {left} cells open; search goes on from here:"
