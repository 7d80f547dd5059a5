"""Explain, rate, hint and diagnose: steps a person can follow, levels, next moves, faulty lines."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from core_marks import SEARCH_SAID
from pysat.formula import IDPool
from pysat.solvers import Solver
from typer.testing import CliRunner

from nonosat import load, load_all
from nonosat.cli import app
from nonosat.errors import UsageError
from nonosat.explain.diagnosis import diagnose
from nonosat.explain.hint import hint, parse_state
from nonosat.explain.rating import PASS_CUTS, rate, score_for
from nonosat.explain.steps import trace
from nonosat.model import Line as GridLine
from nonosat.model import Puzzle
from nonosat.render.text import hint_lines
from nonosat.solver import solve
from nonosat.solver.encodings import ENCODINGS, Line
from nonosat.solver.propagation import alive_states

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
CAT = ROOT / "puzzles" / "webpbn-00006-cat.non"
FOREVER = ROOT / "puzzles" / "webpbn-06574-forever.non"
RING = ROOT / "puzzles" / "ring.non"


# --- explain -----------------------------------------------------------------------------------


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


# --- rate --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_levels() -> None:
    assert rate(load(DANCER)).level == "line"
    assert rate(load(FOREVER)).level in ("probe", "search")
    assert rate(load(RING)).level == "ambiguous"
    refuted = Puzzle(rows=((1, 1), (), (1,)), columns=((2,), (), (1,)))
    assert rate(refuted).level == "none"


def test_probing_level_for_a_puzzle_that_needs_lookahead(corpus: Path) -> None:
    """Some corpus puzzle needs probing but not search; every probe step is sound."""
    for path in sorted((corpus / "jwilk").glob("*.nin")):
        puzzle = load(path)
        logic = trace(puzzle)
        if logic.complete and logic.level == "probe":
            solution = rate(puzzle).trace.board.grid()
            assert puzzle.satisfied_by(solution)
            for step in logic.steps:
                if step.kind == "probe":
                    ((r, c),) = step.fixed
                    assert "impossible" in step.reason
            assert rate(puzzle).score == 4
            return
    pytest.fail("no jwilk puzzle needs probing")


@pytest.mark.slow
def test_rating_from_the_solvers_line_logic_is_the_traced_rating(corpus: Path) -> None:
    """When the solver's line logic finished the grid, `rate` takes its pass count instead of
    tracing again: level, score, passes and the board are the same as a rating from scratch (in
    black and white: in colour the trace first rules out the colours a line lacks, a step)."""
    paths = sorted((corpus / "webpbn").glob("*.non")) + sorted((corpus / "jwilk").glob("*.nin"))[:60]
    compared = 0
    for path in paths:
        puzzle = load(path)
        result = solve(puzzle)
        if result.method != "line" or result.status != "unique":
            continue
        quick, traced = rate(puzzle, result=result), rate(puzzle)
        assert (quick.level, quick.score, quick.passes, quick.probes) == (
            traced.level,
            traced.score,
            traced.passes,
            traced.probes,
        ), path.name
        assert quick.trace.board.grid() == traced.trace.board.grid() == result.solutions[0].grid
        assert quick.trace.complete and not quick.trace.steps
        compared += 1
    assert compared >= 12


def test_a_puzzle_with_several_solutions_is_rated_without_probing(corpus: Path) -> None:
    """The verdict is the level of a puzzle with several solutions: probing, which cannot finish
    its grid, is skipped, with the solver's result given (check) or not (rate)."""
    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[:6] + [load(RING)]
    rated = 0
    for puzzle in puzzles:
        result = solve(puzzle)
        if result.status != "multiple":
            continue
        rated += 1
        given, alone = rate(puzzle, result=result), rate(puzzle)
        logic = trace(puzzle, probing=False)
        for rating in (given, alone):
            assert (rating.level, rating.score, rating.probes) == ("ambiguous", 5, 0)
            assert rating.passes == logic.passes and not any(step.kind == "probe" for step in rating.trace.steps)
    assert rated >= 4


def test_scores_follow_the_level_and_the_calibrated_cuts() -> None:
    low, high = PASS_CUTS
    assert [score_for("line", x) for x in (low - 0.1, low + 0.01, high + 0.01)] == [1, 2, 3]
    assert [score_for(level, 0) for level in ("probe", "search", "ambiguous")] == [4, 5, 5]
    assert rate(load(CAT)).score in (1, 2, 3)


def test_a_puzzle_without_a_solution_has_no_difficulty() -> None:
    """`rate` called broken-cross.non "none · difficulty 5/5", and check's JSON gave it 5."""
    from nonosat.render.records import rating_record
    from nonosat.render.text import rating_line

    rating = rate(load(ROOT / "puzzles" / "broken-cross.non"))
    assert (rating.level, rating.score) == ("none", None)  # as the JSON's null (a review: 0)
    assert rating_line(rating).startswith("none (no solution) · ") and "difficulty" not in rating_line(rating)
    assert rating_record("broken-cross.non", rating)["difficulty"] is None


def test_rate_and_explain_take_a_json_flag() -> None:
    import json

    rated = json.loads(runner.invoke(app, ["rate", str(DANCER), "--json"]).stdout)
    assert rated["level"] == "line" and rated["difficulty"] == 1
    explained = json.loads(runner.invoke(app, ["explain", str(DANCER), "--json"]).stdout)
    assert explained["level"] == "line" and explained["steps"][0]["step"] == 1


def test_solve_and_check_take_the_json_flag_too() -> None:
    """`--json` was explain's and rate's only: `solve --json` was "No such option" (a review)."""
    import json

    for command in ("solve", "check"):
        flagged = runner.invoke(app, [command, str(DANCER), "--json"])
        spelled = runner.invoke(app, [command, str(DANCER), "--format", "json"])
        assert flagged.exit_code == spelled.exit_code == 0, flagged.output
        record, same = json.loads(flagged.stdout), json.loads(spelled.stdout)
        assert record["status"] == "unique" and record.keys() == same.keys()


def test_check_shows_the_level() -> None:
    done = runner.invoke(app, ["check", str(FOREVER)])
    assert "level: search · difficulty 5/5" in done.stdout or "level: probe" in done.stdout


# --- hint --------------------------------------------------------------------------------------


def half_solved(puzzle: Puzzle, seed: int) -> str:
    rng = random.Random(seed)
    goal = puzzle.goal
    assert goal is not None
    return "\n".join("".join(("#" if v else ".") if rng.random() < 0.5 else "?" for v in row) for row in goal)


@pytest.mark.parametrize("seed", range(5))
def test_hint_on_a_half_solved_cat_gives_correct_cells(seed: int) -> None:
    cat = load(CAT)
    state = parse_state(half_solved(cat, seed), cat, "cat.txt")
    found = hint(cat, state, steps=3)
    assert found.wrong is None
    assert found.steps or found.solved
    for step in found.steps:
        along_row = step.line.is_row
        for r, c in step.fixed:
            assert state[r][c] is None
            mark = step.after[c if along_row else r]
            assert (mark == "#") == bool(cat.goal[r][c])  # type: ignore[index]


def test_hint_names_the_wrong_cell() -> None:
    cat = load(CAT)
    text = half_solved(cat, 1).splitlines()
    r, c = next((r, c) for r, row in enumerate(text) for c, mark in enumerate(row) if mark != "?")
    flipped = "." if text[r][c] == "#" else "#"
    text[r] = text[r][:c] + flipped + text[r][c + 1 :]
    found = hint(cat, parse_state("\n".join(text), cat, "cat.txt"))
    assert found.wrong is not None
    (wr, wc), value = found.wrong
    assert text[wr][wc] != "?" and value == cat.goal[wr][wc]  # type: ignore[index]
    assert (text[wr][wc] == "#") != bool(value)


def test_a_hint_of_fewer_steps_than_asked_for_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A review: `hint --steps 100000 --timeout 1` on a large puzzle printed the steps found in
    time, exit 0, not a word of the time running out (a different number each run); and fewer
    steps than asked for where logic stalls, as if that were all asked for."""
    forever = load(FOREVER)
    blank = tuple((None,) * forever.width for _ in range(forever.height))
    stalled = hint(forever, blank, steps=1000)
    fixing = sum(1 for step in stalled.steps if step.fixed)
    assert stalled.stalled and stalled.cut_short is None and 0 < fixing < 1000
    assert hint_lines(stalled)[-1] == f"logic finds nothing more after {fixing} steps"
    assert not hint(forever, blank, steps=fixing).stalled  # as many as logic has: nothing to say
    dancer = load(DANCER)  # the mends' review: logic that completes the grid did not "stall"
    whole = hint(dancer, tuple((None,) * dancer.width for _ in range(dancer.height)), steps=1000)
    assert whole.completed and not whole.stalled
    assert hint_lines(whole)[-1] == f"these {sum(1 for step in whole.steps if step.fixed)} steps complete the grid"

    import nonosat.explain.hint as hinting

    real = trace  # (the one hint calls)

    def running_out(puzzle: Puzzle, board: Any, *, on_step: Any, deadline: Any) -> Any:
        def step_then_out_of_time(step: Any, board: Any) -> None:
            on_step(step, board)
            deadline.at = 0.0  # the time runs out after the first step (trace sees it soon after)

        return real(puzzle, board, on_step=step_then_out_of_time, deadline=deadline)

    monkeypatch.setattr(hinting, "trace", running_out)
    cut = hint(forever, blank, steps=1000, timeout=600)
    shown = sum(1 for step in cut.steps if step.fixed)
    assert 0 < shown < fixing and cut.cut_short is not None and not cut.stalled
    assert hint_lines(cut)[-1] == f"{cut.cut_short} after {shown} step{'' if shown == 1 else 's'}: there may be more"
    state = tmp_path / "blank.txt"
    state.write_text("\n".join(["?" * forever.width] * forever.height) + "\n")
    done = runner.invoke(app, ["hint", str(FOREVER), "--state", str(state), "--steps", "1000", "--timeout", "600"])
    assert done.exit_code == 4 and done.output.splitlines()[-1].endswith(": there may be more"), done.output


def test_a_hint_keeps_time_to_write_the_steps_it_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A review: `hint --steps 100000 --timeout 1.5` on Cauldron (512x512) ended at 1.62 s, its
    2,021 steps put into words and written after the limit. `writing` (as `explain`'s) ends the
    steps earlier by what each takes to write: here more than the limit for one step, so the hint
    ends after its first, and says why; the command line passes its own (`hint_writing`)."""
    forever = load(FOREVER)
    blank = tuple((None,) * forever.width for _ in range(forever.height))
    cut = hint(forever, blank, steps=1000, timeout=600, writing=lambda step: 1000.0)  # past the limit
    whole = hint(forever, blank, steps=1000, timeout=600, writing=lambda step: 1e-9)
    assert whole.cut_short is None and 0 < len(cut.steps) < len(whole.steps) / 10  # (trace sees it soon after)
    assert cut.cut_short is not None and cut.cut_short.startswith("time limit reached")
    assert hint(forever, blank, steps=1000, writing=lambda step: 1000.0).steps == whole.steps  # no limit: none kept
    for wrong, said in (("a", "writing is a function"), (lambda step: -1.0, "not -1.0"), (lambda step: "x", "not 'x'")):
        with pytest.raises(UsageError, match=said):
            hint(forever, blank, steps=1000, timeout=600, writing=wrong)  # type: ignore[arg-type]
    import nonosat.render.text as text

    monkeypatch.setattr(text, "hint_writing", lambda step: 1000.0)
    state = tmp_path / "blank.txt"
    state.write_text("\n".join(["?" * forever.width] * forever.height) + "\n")
    done = runner.invoke(app, ["hint", str(FOREVER), "--state", str(state), "--steps", "1000", "--timeout", "600"])
    shown = done.output.splitlines()[-1]
    assert done.exit_code == 4 and shown.startswith("time limit reached") and shown.endswith(": there may be more")
    assert len(done.output.splitlines()) - 1 < len(whole.steps) / 10, done.output


def test_hint_reads_a_saved_string_and_reports_bad_states(tmp_path: Path) -> None:
    dancer = load(DANCER)
    cells = [v for row in dancer.goal for v in row]  # type: ignore[union-attr]
    complete = "".join("1" if v else "x" for v in cells)
    assert hint(dancer, parse_state(f'saved "{complete}"\n', dancer, "d.non")).solved
    marked = "".join("1" if v else "0" for v in cells)  # 0: not marked yet, as in a goal's blanks
    (step,) = hint(dancer, parse_state(f'saved "{marked}"\n', dancer, "d.non")).steps
    assert "?" in step.before and set(step.after) - set(step.before) == {"."}
    state = tmp_path / "state.txt"
    state.write_text("#####\n")
    done = runner.invoke(app, ["hint", str(DANCER), "--state", str(state)])
    assert done.exit_code == 2 and "line 1: expected 10 rows of cells, found 1 by the end" in done.output
    state.write_text("\n".join(["....."] * 10 + ["#####"]) + "\n")
    done = runner.invoke(app, ["hint", str(DANCER), "--state", str(state)])
    assert done.exit_code == 2 and "line 11: expected 10 rows of cells, found more" in done.output
    done = runner.invoke(app, ["hint", str(DANCER), "--state", str(DANCER)])  # a .non with no saved grid
    assert done.exit_code == 2 and done.output.endswith(
        f'{DANCER}, line 1: expected a .non file\'s saved "..." line (the grid so far), or rows of cells\n'
    ), done.output
    state.write_text("\n".join(["....."] * 9 + ["?????"]) + "\n")  # rows of cells are read as before
    done = runner.invoke(app, ["hint", str(DANCER), "--state", str(state)])
    assert done.exit_code == 3 and "is wrong: it must be filled" in done.output, done.output
    picture = "\n".join("".join(map(str, row)) for row in dancer.goal)  # type: ignore[union-attr]
    state.write_text(picture + "\n")  # a solution written in 0 and 1: its 0 was read as undecided
    done = runner.invoke(app, ["hint", str(DANCER), "--state", str(state)])
    assert done.exit_code == 2 and "found '0' (write . for empty, ? for not decided)" in done.output


# --- diagnosis ---------------------------------------------------------------------------------


def satisfiable(puzzle: Puzzle, lines: list[GridLine]) -> bool:
    """Whether these lines' clues can hold together: a check apart from `diagnose`'s own SAT
    calls, with another solver (CaDiCaL; diagnose uses MiniSat) and no assumptions."""
    pool = IDPool(start_from=puzzle.width * puzzle.height + 1)
    with Solver("cadical195") as sat:
        for kind, index in ((line.kind, line.index) for line in lines):
            if kind == "row":
                cells = [index * puzzle.width + c + 1 for c in range(puzzle.width)]
                clue = puzzle.rows[index]
            else:
                cells = [r * puzzle.width + index + 1 for r in range(puzzle.height)]
                clue = puzzle.columns[index]
            alive = alive_states(clue, len(cells), 0, 0)
            for clause in ENCODINGS["blocks"](Line((kind, index), clue, cells, alive), pool):
                sat.add_clause(clause)
        return bool(sat.solve())


def mutated(puzzle: Puzzle, rng: random.Random) -> tuple[Puzzle, GridLine]:
    """The puzzle with one clue number of one line changed by one."""
    kind = rng.choice(["rows", "columns"])
    clues = list(getattr(puzzle, kind))
    index = rng.choice([i for i, clue in enumerate(clues) if clue])
    clue = list(clues[index])
    j = rng.randrange(len(clue))
    clue[j] += 1 if clue[j] == 1 or rng.random() < 0.5 else -1
    clues[index] = tuple(clue)
    changed = Puzzle(
        rows=tuple(clues) if kind == "rows" else puzzle.rows,
        columns=tuple(clues) if kind == "columns" else puzzle.columns,
    )
    return changed, GridLine("row" if kind == "rows" else "column", index)


@pytest.mark.slow
def test_diagnoses_of_mutated_corpus_puzzles_name_the_changed_line_and_are_minimal(corpus: Path) -> None:
    rng = random.Random(2026)
    sources = [
        load(corpus / "webpbn" / name)
        for name in ("webpbn-00006-cat.non", "webpbn-00016-knot.non", "webpbn-00021-skid.non")
    ]
    sources += load_all(corpus / "tcga" / "question" / "taai2011.txt")[:2]
    checked = 0
    for puzzle in sources:
        for _ in range(5):
            broken, key = mutated(puzzle, rng)
            found = diagnose(broken)
            assert found is not None, key
            lines = list(found.lines)
            assert key in lines
            assert not satisfiable(broken, lines)
            for line in lines:
                assert satisfiable(broken, [other for other in lines if other != line]), (key, line)
            checked += 1
    assert checked == 25


def test_a_solvable_puzzle_has_no_diagnosis() -> None:
    assert diagnose(load(CAT)) is None


def test_no_solution_names_the_lines_on_the_grid(tmp_path: Path) -> None:
    path = tmp_path / "broken.non"
    path.write_text("width 3\nheight 3\nrows\n1,1\n1\n1\ncolumns\n2\n0\n2\n")
    done = runner.invoke(app, ["check", str(path), "--ascii"])
    assert done.exit_code == 3
    assert "row 2 (clue 1), column 1 (clue 2), column 3 (clue 2)" in done.stdout
    assert " <" in done.stdout and "^" in done.stdout
    for command in ("check", "explain"):  # into a pipe, no red shows: the pointers, without --ascii
        piped = runner.invoke(app, [command, str(path)])
        assert piped.exit_code == 3 and " <" in piped.stdout and "^" in piped.stdout, piped.stdout
    totals = tmp_path / "totals.non"
    totals.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")
    done = runner.invoke(app, ["solve", str(totals)])
    assert done.exit_code == 3 and "the row clues fill 2 cells but the column clues fill 1" in done.output
    assert "cannot all hold" in done.stdout


# --- live and line statistics ------------------------------------------------------------------


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
