"""bench/far_tail.py: the far tail of the fresh sets, raced as a batch worker races it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.far_tail import FAR_TAIL, far_tail_puzzles, main, run_summary
from nonosat.solver.compiled import core_for
from nonosat.solver.propagation import line_solve

HERE = Path(__file__).resolve().parent.parent


def test_the_far_tail_is_28_puzzles_of_the_measured_seeds() -> None:
    assert len(FAR_TAIL) == len(set(FAR_TAIL)) == 28
    assert all((1001 <= seed <= 1010 or 3001 <= seed <= 3140) and 0 <= index < 1000 for seed, index in FAR_TAIL)


@pytest.mark.slow
def test_its_puzzles_are_the_hard_ones() -> None:
    """The list points at the puzzles meant: its last, 3138 #105, keeps the search that picked
    it (right way up, never turning to the beliefs: beliefs_after 0) busy past 20,000 conflicts
    (it takes some 440,000), where nearly every fresh puzzle ends within a few hundred, as the
    one before it in its set does. Conflicts are counted, not timed: the same every run."""
    seed, index = FAR_TAIL[-1]
    puzzle = far_tail_puzzles([(seed, index)])[0]
    core = core_for(puzzle)
    if core is None:
        pytest.skip("the compiled core was not built")
    masks = line_solve(puzzle).masks()
    complete, _, stats = core.cdcl(puzzle.rows, puzzle.columns, *masks, 2, 20_000, 0.0, True, None, 0)
    assert not complete and stats["conflicts"] >= 20_000
    easy = far_tail_puzzles([(seed, index - 1)])[0]
    complete, _, stats = core.cdcl(easy.rows, easy.columns, *line_solve(easy).masks(), 2, 20_000, 0.0)
    assert complete and stats["conflicts"] < 20_000


def test_a_run_is_summed_up_with_the_targets_counts() -> None:
    line = run_summary("this", [6.5, 4.2, 3.1, 1.0])
    assert line == "this: 4 puzzles, 14.8 s in all, slowest 6.50 s; 1 over 6 s, 2 over 4 s, 3 over 3 s"


@pytest.mark.slow
def test_this_checkout_against_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """Two puzzles, a short limit (each race ends unknown or decided): both sides race each
    puzzle, every grid is checked and the verdicts compared, and each run is summed up."""
    assert main(["--against", str(HERE), "--first", "2", "--timeout", "0.3", "--verbose"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("  fresh-3094 #864: this ") and "; against " in out[0]
    assert out[2].startswith("run 1, this: 2 puzzles, ") and out[3].startswith("run 1, against: 2 puzzles, ")


def test_a_checkout_that_cannot_be_used_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench.far_tail and bench.draws end through version_checkouts.command: a folder that is not
    a checkout gives the reason on one line, no traceback; and the worker already started for
    the other checkout is closed (it was left running: a ResourceWarning at the end of the
    tests)."""
    from bench import version_checkouts
    from bench.version_checkouts import command

    started: list[version_checkouts.Worker] = []
    real_init = version_checkouts.Worker.__init__

    def init(worker: version_checkouts.Worker, name: str, tree: Path) -> None:
        started.append(worker)
        real_init(worker, name, tree)

    monkeypatch.setattr(version_checkouts.Worker, "__init__", init)
    with pytest.raises(SystemExit) as ended:
        command(lambda: main(["--against", str(HERE / "no-such-checkout"), "--first", "1"]))
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-checkout" in err and "Traceback" not in err
    assert [hasattr(w, "process") and w.process.poll() is not None for w in started] == [True, False]
