"""`check` keeps time from its deadline to show what it found: one grid when line logic completes
the only one, two when a search finds two (a review: Cauldron's `check --timeout 1` said
unknown at 0.16 s, having kept two 512x512 grids' drawing time from line logic, where it is
unique by line logic in 0.2 s and one grid is drawn)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.cli import show as shown
from nonosat.deadline import Deadline
from nonosat.formats import load
from nonosat.solver.drive import check_within
from nonosat.solver.outcome import Method, Status

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"  # line logic completes it
runner = CliRunner()


def test_line_logic_keeps_to_its_own_deadline() -> None:
    puzzle = load(DANCER)
    passed = Deadline(0.0)  # long gone: the search would have no time at all
    verdict = check_within(puzzle, passed, jobs=1, line_deadline=Deadline.after(30))
    assert verdict.result.status is Status.UNIQUE and verdict.result.method is Method.LINE
    late = check_within(puzzle, passed, jobs=1)  # line logic under the search's deadline: no time
    assert late.result.status is Status.UNKNOWN


def test_check_keeps_one_grids_drawing_time_when_line_logic_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load(DANCER)
    cells = puzzle.width * puzzle.height
    # one grid "takes" 1.5 s to draw, two 3 s: more than the whole --timeout of 2.5 s
    monkeypatch.setattr(shown, "SHOWING_A_CELL", 1.5 / cells)
    done = runner.invoke(app, ["check", str(DANCER), "--timeout", "2.5", "--no-rating"])
    assert done.exit_code == 0, done.output
    assert "unique · line logic" in done.output


def test_check_keeps_two_grids_drawing_time_for_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    many = PUZZLES / "ring.non"  # two solutions, found by a search
    puzzle = load(many)
    monkeypatch.setattr(shown, "SHOWING_A_CELL", 1.5 / (puzzle.width * puzzle.height))
    done = runner.invoke(app, ["check", str(many), "--timeout", "2.5", "--no-rating"])
    assert done.exit_code == 4 and "unknown" in done.output, done.output  # the search had no time left
