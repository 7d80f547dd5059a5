"""Rate in black and white: the levels (probing for a puzzle that needs lookahead, none probed for
one with several solutions, no difficulty for one without a solution), the solver's own line
logic taken for the traced rating, scores that follow the level and the calibrated cuts; the
level `check` shows, and the `--json` flag of rate, explain, solve and check."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from nonosat import load, load_all
from nonosat.cli import app
from nonosat.explain.rating import PASS_CUTS, rate, score_for
from nonosat.explain.steps import trace
from nonosat.model import Puzzle
from nonosat.solver import solve

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
CAT = ROOT / "puzzles" / "webpbn-00006-cat.non"
FOREVER = ROOT / "puzzles" / "webpbn-06574-forever.non"
RING = ROOT / "puzzles" / "ring.non"


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
