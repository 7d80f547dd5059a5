"""Explain in black and white: steps a person can follow, one line at a time to the picture,
numbered, saying where logic stalls and that the search goes on, from the command line and from
Python; the steps and the search after them end in time to be written out, each face saying what
writing a step costs; and the line statistics of `--linestats` and `--live`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from core_marks import SEARCH_SAID
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.rating import rate
from nonosat.explain.steps import trace
from nonosat.model import Puzzle

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
CAT = ROOT / "puzzles" / "webpbn-00006-cat.non"
FOREVER = ROOT / "puzzles" / "webpbn-06574-forever.non"


@pytest.mark.parametrize("path", [DANCER, CAT])
def test_the_steps_lead_to_the_picture_one_line_at_a_time(path: Path) -> None:
    puzzle = load(path)
    goal = puzzle.goal
    assert goal is not None
    logic = trace(puzzle)
    assert logic.complete and logic.level == "line" and logic.steps
    known: dict[tuple[int, int], int] = {}
    for number, step in enumerate(logic.steps, 1):
        assert step.number == number and step.kind == "line"
        index_0 = step.line.index
        cells = [(index_0, i) if step.line.is_row else (i, index_0) for i in range(len(step.before))]
        # "before" is exactly what earlier steps fixed on this line; "after" adds the fixed cells
        assert step.before == "".join("?" if cell not in known else "#" if known[cell] else "." for cell in cells)
        assert step.fixed and all(cell not in known for cell in step.fixed)
        for cell in step.fixed:
            known[cell] = 1 if step.after[cells.index(cell)] == "#" else 0
            assert known[cell] == goal[cell[0]][cell[1]]
        assert step.after == "".join("?" if cell not in known else "#" if known[cell] else "." for cell in cells)
    assert len(known) == puzzle.width * puzzle.height


def test_explain_prints_numbered_steps_and_says_how_it_ended() -> None:
    done = runner.invoke(app, ["explain", str(DANCER)])
    assert done.exit_code == 0
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("1. row ") and "->" in lines[0]
    assert lines[-1] == f"solved by line logic in {len(lines) - 1} steps"
    data = runner.invoke(app, ["explain", str(DANCER), "--format", "json"])
    import json

    parsed = json.loads(data.stdout)
    assert parsed["level"] == "line" and parsed["open_cells"] == 0 and len(parsed["steps"]) == len(lines) - 1


def test_explain_says_where_logic_stalls_and_that_search_goes_on() -> None:
    done = runner.invoke(app, ["explain", str(FOREVER)])
    assert done.exit_code == 0
    assert "stall with" in done.stdout and "search goes on from here:" in done.stdout
    assert f"unique · {SEARCH_SAID}" in done.stdout


def test_explain_from_python_gives_the_steps_and_the_search_where_logic_stalls() -> None:
    from nonosat.explain.steps import explain

    solved = explain(load(DANCER))
    assert solved.open_cells == 0 and solved.search is None and solved.logic.complete
    stalled = explain(load(FOREVER))
    assert stalled.open_cells > 0 and stalled.search is not None
    assert stalled.search.status.value == "unique" and stalled.logic.steps


def test_linestats_lists_every_line_with_passes() -> None:
    done = runner.invoke(app, ["solve", str(DANCER), "--linestats"], env={"COLUMNS": "120"})
    assert done.exit_code == 0
    table = done.stdout.split("line logic, per line")[1]
    dancer = load(DANCER)
    for r in range(dancer.height):
        assert f"row {r + 1} " in table
    for c in range(dancer.width):
        assert f"column {c + 1} " in table


@pytest.mark.slow
def test_live_still_solves() -> None:
    done = runner.invoke(app, ["solve", str(DANCER), "--live"], env={"COLUMNS": "120"})
    assert done.exit_code == 0 and "unique" in done.stdout


def test_the_steps_end_in_time_to_be_written_out() -> None:
    """A review found `explain --json --timeout 1` on a 512x512 puzzle ending at 1.8-1.9 s: the
    3,000 steps found by the deadline took as long again to write as JSON. Each step found now
    brings the steps' end forward by the time it takes to write (`writing`), so that they are
    written by the deadline; here a step takes ten seconds of a minute to write."""
    from nonosat.deadline import Deadline
    from nonosat.explain.steps import explain
    from nonosat.render.records import step_writing
    from nonosat.render.text import line_writing

    knot = load(ROOT / "puzzles" / "webpbn-00016-knot.non")
    whole = explain(knot, Deadline.after(60))
    assert whole.logic.cut_short is None and whole.open_cells == 0 and len(whole.logic.steps) > 50
    written = explain(knot, Deadline.after(60), writing=lambda step: 10.0)
    assert written.logic.cut_short is not None and 6 <= len(written.logic.steps) < len(whole.logic.steps)
    assert written.logic.steps == whole.logic.steps[: len(written.logic.steps)]
    step = whole.logic.steps[0]
    indented, compact = step_writing(indented=True)(step), step_writing(indented=False)(step)
    assert indented > compact > line_writing(step) > 0


def test_the_command_line_and_the_web_api_say_what_writing_a_step_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps end in time to be written only if each face tells `explain` what writing a step
    costs it: the command line as indented JSON or as a line of text, the web API as compact
    JSON (a review found that dropping either went unnoticed by every test)."""
    import nonosat.explain.steps as steps
    from nonosat.deadline import Deadline
    from nonosat.render.records import step_writing
    from nonosat.render.text import line_writing
    from nonosat.web.jobs import Job
    from nonosat.web.jobs import explain as web_explain

    told: list[Any] = []
    real = steps.explain

    def spy(*args: Any, **kwargs: Any) -> Any:
        told.append(kwargs.get("writing"))
        return real(*args, **kwargs)

    monkeypatch.setattr(steps, "explain", spy)
    knot = ROOT / "puzzles" / "webpbn-00016-knot.non"
    for arguments in (["--json"], []):
        assert CliRunner().invoke(app, ["explain", str(knot), *arguments]).exit_code == 0
    web_explain(Job("explain", knot.read_bytes(), knot.name, None, 10.0, 80), Deadline.after(10))
    step = real(load(knot)).logic.steps[0]
    expected = [step_writing(indented=True)(step), line_writing(step), step_writing(indented=False)(step)]
    assert [writing(step) for writing in told] == expected


def test_the_search_after_the_steps_ends_in_time_to_write_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where line logic stalls, the search that says how the puzzle ends keeps to the steps' end
    too, not to the whole deadline: a search that ran to the deadline left the steps found
    before it to be written late (a review read this in the code)."""
    import nonosat.solver as solver
    from nonosat.deadline import Deadline
    from nonosat.explain.steps import explain

    given: list[Any] = []
    real = solver.solve

    def spy(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs["timeout"])
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "solve", spy)
    deadline = Deadline.after(600)
    explained = explain(load(FOREVER), deadline, writing=lambda step: 0.5)
    assert explained.search is not None and explained.logic.steps and len(given) == 1
    assert deadline.at is not None and given[0].at == pytest.approx(deadline.at - 0.5 * len(explained.logic.steps))


def test_writing_a_colour_step_counts_the_cells_it_narrows() -> None:
    """A colour step's record lists each cell it narrows with the colours left (a record of its
    own, two to three times a fixed cell's cost): left out of `step_writing`, a 512x512 colour
    grid's `explain --format json --timeout 1` wrote 30 MB until 2.3 s."""
    from dataclasses import replace

    from nonosat.explain.steps import explain
    from nonosat.palette import WHITE, Colour
    from nonosat.render.records import step_writing

    palette = (WHITE, Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"))
    colour = Puzzle.from_grid([[1, 2, 0, 1, 1], [2, 2, 1, 0, 2], [0, 1, 1, 2, 2], [1, 1, 2, 2, 0]], palette)
    step = next(step for step in explain(colour).logic.steps if step.narrowed)
    for indented in (True, False):
        cost = step_writing(indented=indented)
        plain = cost(replace(step, narrowed=()))
        per_narrowed = (cost(step) - plain) / len(step.narrowed)
        per_fixed = cost(replace(step, fixed=(*step.fixed, (0, 0)))) - cost(step)
        assert per_narrowed > 1.5 * per_fixed > 0


def test_one_cell_probed_is_said_in_the_singular() -> None:
    """A review found "1 cells probed"."""
    from dataclasses import replace

    from nonosat.explain.rating import Level
    from nonosat.render.text import rating_line

    rating = rate(load(ROOT / "puzzles" / "broken-cross.non"))
    assert rating_line(replace(rating, probes=1)).endswith(" · 1 cell probed")
    assert rating_line(replace(rating, probes=2, level=Level.LINE, score=1)).endswith(" · 2 cells probed")
