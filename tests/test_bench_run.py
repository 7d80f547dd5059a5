"""The colour sets of the speed benchmark (bench/run.py) and its checks: what the sets hold, a
goal that refutes a verdict, per-puzzle ratios, and a disagreement that fails the run."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bench import run, sets
from bench.colour_set import NOISE_BLANK, noise_picture, noise_puzzle, noise_set
from bench.peer_cpsat import PeerError, peer_check
from bench.verdicts import Answer, BadAnswer, Comparison
from nonosat.model import Puzzle
from nonosat.palette import WHITE, Colour

RED_BLUE = (WHITE, Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"))


@pytest.mark.slow
def test_the_colour_set_holds_every_corpus_colour_file_that_reads_and_the_random_pictures(corpus: Path) -> None:
    puzzles, skipped = sets.set_puzzles("colour", None)
    labels = [label for label, _ in puzzles]
    assert not skipped
    assert len(labels) == len(set(labels)) == 29 + 25 * len(sets.COLOUR_SEEDS)
    corpus_labels = [label for label in labels if label.startswith("colour/")]
    assert len(corpus_labels) == 29  # as tests/test_solve_colour.py counts them
    assert "colour/olsak-grid/viceres.g" in corpus_labels
    assert "colour/ianprime0509-nonograms/puzzles/easy.pbn#2" in corpus_labels
    assert not any("color-nonogram" in label for label in labels)  # its JSON is refused, on purpose
    assert sum(puzzle.is_colour for _, puzzle in puzzles) == len(puzzles) - 1  # easy.pbn#1 is black and white
    generated = [label for label in labels if not label.startswith("colour/")]
    assert generated[0] == "random colour 20x20 k2 seed 0"
    assert generated[-1] == f"random colour 60x60 k6 seed {sets.COLOUR_SEEDS[-1]}"


def test_the_noise_set_is_generated_and_the_other_sets_are_not() -> None:
    puzzles, skipped = sets.set_puzzles("colour-noise", None)
    assert not skipped
    assert [label for label, _ in puzzles] == [p.name for p in noise_set()]
    assert len(puzzles) == 30
    assert sets.generated("webpbn") == []


def test_a_noise_grid_is_the_same_for_the_same_seed_shows_every_colour_and_is_half_blank() -> None:
    grid = noise_picture(30, 30, 4, seed=3)
    assert grid == noise_picture(30, 30, 4, seed=3)
    assert grid != noise_picture(30, 30, 4, seed=4)
    cells = [cell for row in grid for cell in row]
    assert set(cells) == {0, 1, 2, 3, 4}
    assert abs(cells.count(0) / len(cells) - NOISE_BLANK) < 0.1
    puzzle = noise_puzzle(25, 20, 2, seed=1)
    assert (puzzle.width, puzzle.height, puzzle.colour_count) == (25, 20, 2)
    assert puzzle.goal is not None and puzzle.satisfied_by(puzzle.goal)
    with pytest.raises(ValueError):
        noise_picture(5, 5, 7)


def unique_puzzle() -> Puzzle:
    return Puzzle.from_grid([[1, 2], [2, 0]], palette=RED_BLUE)


def test_a_goal_that_meets_the_clues_refutes_none_and_another_unique_grid() -> None:
    puzzle = unique_puzzle()
    assert puzzle.goal is not None
    run.check_against_goal("p", puzzle, Answer("unique", (puzzle.goal,), 0.1))
    run.check_against_goal("p", puzzle, Answer("unknown", (), 0.1))
    with pytest.raises(BadAnswer, match="refuted by the puzzle's goal"):
        run.check_against_goal("p", puzzle, Answer("none", (), 0.1))
    other = ((2, 1), (1, 0))
    with pytest.raises(BadAnswer, match="refuted"):
        run.check_against_goal("p", puzzle, Answer("unique", (other,), 0.1))
    no_goal = Puzzle(rows=((1,),), columns=((1,),))
    run.check_against_goal("p", no_goal, Answer("none", (), 0.1))  # nothing to refute it with


def test_the_per_puzzle_ratio_and_its_geometric_mean() -> None:
    puzzle = unique_puzzle()
    assert puzzle.goal is not None
    fast = Comparison(1, puzzle, Answer("unique", (puzzle.goal,), 0.1), Answer("unique", (puzzle.goal,), 0.4))
    tiny = Comparison(2, puzzle, Answer("unique", (puzzle.goal,), 0.0), Answer("unique", (puzzle.goal,), 0.0004))
    assert run.puzzle_ratio(fast) == pytest.approx(0.25)
    assert run.puzzle_ratio(tiny) == pytest.approx(0.25)  # 0 s counts as FLOOR_S
    assert run.geometric_mean([0.25, 4.0]) == pytest.approx(1.0)
    assert run.geometric_mean([]) is None
    line = run.puzzle_line("p", fast)
    assert "(2x2, 2 colours)" in line and "nonosat/peer 0.250" in line and "DISAGREE" not in line


def fake_result(name: str, comparisons: list[Comparison]) -> run.SetResult:
    labels = [f"puzzle {c.number}" for c in comparisons]
    return run.SetResult(name, labels, comparisons, [], {"nonosat": 1024, "peer": 1024}, {"nonosat": 1.0, "peer": 2.0})


def test_a_disagreement_is_reported_on_stderr_and_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = unique_puzzle()
    assert puzzle.goal is not None
    agree = Comparison(1, puzzle, Answer("unique", (puzzle.goal,), 0.1), Answer("unique", (puzzle.goal,), 0.2))
    differ = Comparison(2, puzzle, Answer("unique", (puzzle.goal,), 0.1), Answer("none", (), 0.2))
    monkeypatch.setattr(run, "run_set", lambda name, *args: fake_result(name, [agree, differ]))
    monkeypatch.setattr(run, "missing", lambda name: None)  # the sets are faked: no corpus needed
    monkeypatch.setattr(run, "version", lambda package: "0")  # OR-tools need not be installed
    assert run.main(["--sets", "colour"]) == 1
    out, err = capsys.readouterr()
    assert "DISAGREEMENT on puzzle 2: nonosat unique, peer none; refuted: CP-SAT" in err
    assert "puzzle 2 (2x2, 2 colours): nonosat unique 0.100 s, peer none 0.200 s" in out and "DISAGREE" in out
    assert "puzzle 1 (2x2, 2 colours)" in out  # the colour sets print every puzzle
    assert "geometric mean" in out
    monkeypatch.setattr(run, "run_set", lambda name, *args: fake_result(name, [agree]))
    assert run.main(["--sets", "webpbn"]) == 0
    out, _ = capsys.readouterr()
    assert "puzzle 1 (" not in out  # a black-and-white set prints its puzzles only with --per-puzzle
    row = out.strip().splitlines()[-3]
    assert row.startswith("| webpbn | 1 | 1 | 1 | 0 | 0 | 0 | 1 |") and row.endswith(f"| {round(0.5, 4)} |")


def test_an_unknown_set_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run.main(["--sets", "colour,nosuch"]) == 2
    assert "unknown set(s) nosuch" in capsys.readouterr().err


def test_a_set_with_no_files_is_refused_not_run_empty(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run from a checkout with no corpus beside it, the bench printed rows of 0 puzzles."""
    monkeypatch.setenv("NONOSAT_CORPUS", str(tmp_path / "nowhere"))
    assert run.main(["--sets", "webpbn"]) == 2
    assert f"no corpus at {tmp_path / 'nowhere'}" in capsys.readouterr().err
    monkeypatch.setenv("NONOSAT_CORPUS", str(tmp_path))
    assert run.main(["--sets", "taai2011"]) == 2
    assert "set taai2011: no file under" in capsys.readouterr().err
    assert sets.missing("colour-noise") is None  # generated: no files needed


def test_the_black_and_white_peer_refuses_colour_rather_than_answering_wrong() -> None:
    with pytest.raises(PeerError, match="colour peer"):
        peer_check(unique_puzzle())


@pytest.mark.slow
def test_the_peer_of_a_colour_puzzle_is_the_colour_peer() -> None:
    pytest.importorskip("ortools")
    from bench.verdicts import peer_answer

    puzzle = unique_puzzle()
    answer = peer_answer(puzzle, None, 1)
    assert answer.status == "unique" and answer.solutions == (puzzle.goal,)
    assert math.isfinite(answer.seconds)
