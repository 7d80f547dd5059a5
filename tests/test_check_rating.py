"""check says its verdict first, then rates within a bound, and says when the bound cut the
rating short; probing goes on from the last cell it fixed instead of from the top each time."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest
from core_marks import SEARCH_SAID
from typer.testing import CliRunner

from nonosat import load, reports
from nonosat.cli import app, show
from nonosat.explain import rating
from nonosat.explain.steps import trace
from nonosat.model import Puzzle
from nonosat.solver.propagation import Board, Contradiction, propagate

ROOT = Path(__file__).resolve().parent.parent
FOREVER = str(ROOT / "puzzles" / "webpbn-06574-forever.non")


def test_check_prints_the_verdict_before_it_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    printed_when_rating: list[str] = []
    real_rate = rating.rate

    def spy(*args: object, **kwargs: object) -> rating.Rating:
        sys.stdout.flush()
        printed_when_rating.append(sys.stdout.buffer.getvalue().decode())  # type: ignore[union-attr]
        return real_rate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rating, "rate", spy)
    done = CliRunner().invoke(app, ["check", FOREVER])
    assert done.exit_code == 0, done.output
    assert len(printed_when_rating) == 1
    assert f"Forever: 25x25\nunique · {SEARCH_SAID}" in printed_when_rating[0]
    assert "level:" not in printed_when_rating[0] and "level: search · difficulty 5/5" in done.stdout


def test_check_bounds_the_rating_and_says_when_the_bound_cut_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "RATING_SECONDS", 0.0)
    monkeypatch.setattr(reports, "RATING_TIMES", 0)
    done = CliRunner().invoke(app, ["check", FOREVER])
    assert done.exit_code == 0  # the verdict stands: a rating cut short changes no exit code
    assert f"unique · {SEARCH_SAID}" in done.stdout
    assert "level: unknown (the rating's bound of 0 s reached while running line logic)" in done.stdout
    assert f"(nonosat rate {FOREVER} rates it without check's bound)" in done.stdout
    unbounded = CliRunner().invoke(app, ["rate", FOREVER])
    assert unbounded.exit_code == 0 and "search" in unbounded.stdout


def test_the_bound_is_ten_times_the_verdict_and_at_least_a_second() -> None:
    assert reports.rating_bound(0.001) == 1.0
    assert reports.rating_bound(0.5) == 5.0


def test_a_bound_that_holds_leaves_the_rating_alone() -> None:
    puzzle = load(FOREVER)
    bounded, free = rating.rate(puzzle, probing_seconds=60), rating.rate(puzzle)
    assert (bounded.level, bounded.score, bounded.passes, bounded.probes, bounded.cut_short, bounded.bounded) == (
        free.level,
        free.score,
        free.passes,
        free.probes,
        None,
        False,
    )


def test_while_it_rates_a_terminal_shows_what_runs_and_how_to_skip_it(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(show, "err", show.LazyConsole(stderr=True, file=screen, force_terminal=True))
    seen: list[str] = []
    real_rate = rating.rate

    def spy(*args: object, **kwargs: object) -> rating.Rating:
        seen.append(screen.getvalue())
        return real_rate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rating, "rate", spy)
    done = CliRunner().invoke(app, ["check", FOREVER])
    assert done.exit_code == 0
    assert "rating the puzzle for people: probing (--no-rating skips it)" in seen[0]


def _probed_from_the_top(puzzle: Puzzle) -> Board:
    """Line logic, then probing as it was: after each cell fixed, from the first cell again."""
    board = propagate(Board(puzzle))
    while True:
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                if board.cell(r, c) is not None:
                    continue
                for value in (1, 0):
                    guess = board.copy()
                    guess.set_cell(r, c, value)
                    try:
                        propagate(guess, [(True, r), (False, c)])
                    except Contradiction:
                        board.set_cell(r, c, 1 - value)
                        propagate(board, [(True, r), (False, c)])
                        break
                else:
                    continue
                break
            else:
                continue
            break
        else:
            return board


def test_probing_onward_ends_where_probing_from_the_top_ends() -> None:
    """What probing can fix does not depend on the order it tries the cells in."""
    rng = random.Random(35)
    probed = 0
    for _ in range(300):
        side = rng.randint(5, 9)
        grid = tuple(tuple(int(rng.random() < 0.55) for _ in range(side)) for _ in range(side))
        puzzle = Puzzle.from_grid(grid)
        logic = trace(puzzle)
        if not any(step.kind == "probe" for step in logic.steps):
            continue
        probed += 1
        reference = _probed_from_the_top(puzzle)
        assert [logic.board.excluded(True, r) for r in range(side)] == [
            reference.excluded(True, r) for r in range(side)
        ]
    assert probed >= 10


@pytest.mark.slow
def test_probing_a_big_picture_sweeps_the_grid_a_few_times_not_once_a_cell(corpus: Path) -> None:
    """non_awful_1 (55x55) took 334,124 probes from the top each time; onward, a few sweeps."""
    puzzle = load(corpus / "minizinc" / "non_awful_1.dzn")
    rated = rating.rate(puzzle)
    assert rated.level == "probe"
    assert rated.probes < 4 * puzzle.width * puzzle.height


def test_a_rating_prints_short() -> None:
    """`print(rate(puzzle))` printed every step of the trace and the board (7 KB for Dancer; a
    site operator's review): its repr is the verdict's fields, the trace and result kept."""
    from nonosat.explain.rating import rate

    rating = rate(load(ROOT / "puzzles" / "webpbn-00001-dancer.non"))
    text = repr(rating)
    assert text.startswith("Rating(level=<Level.LINE: 'line'>, score=1") and len(text) < 200, text
    assert rating.trace.board.is_complete()
