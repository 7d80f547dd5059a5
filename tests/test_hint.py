"""Hint in black and white: next moves on a half-solved grid that agree with the picture, a wrong
cell named, a saved state read and a bad one reported, and fewer steps than asked for (the time
running out, logic stalling) said why, with time kept to write the steps found."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.errors import UsageError
from nonosat.explain.hint import hint, parse_state
from nonosat.explain.steps import trace
from nonosat.model import Puzzle
from nonosat.render.text import hint_lines

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
CAT = ROOT / "puzzles" / "webpbn-00006-cat.non"
FOREVER = ROOT / "puzzles" / "webpbn-06574-forever.non"


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
