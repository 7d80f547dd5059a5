"""bench/versions.py (with version_checkouts.py and version_times.py), two checkouts of nonosat on
the same puzzles: its checks (grids, verdicts, the checkout each worker imports) and its
statistics, with this checkout on both sides."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bench import version_checkouts, version_times, versions
from nonosat import NonosatError, Puzzle

ROOT = Path(__file__).resolve().parent.parent

CROSS = Puzzle.from_grid([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


def reply(status: str, *grids: list[list[int]]) -> dict[str, object]:
    return {"status": status, "grids": list(grids)}


def test_a_grid_that_breaks_the_clues_or_a_lone_multiple_is_refused() -> None:
    good = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    bad = [[1, 1, 0], [1, 1, 1], [0, 1, 0]]
    status, grids = version_checkouts.check_answer(CROSS, "p", "A", reply("unique", good))
    assert status == "unique" and grids == (((0, 1, 0), (1, 1, 1), (0, 1, 0)),)
    with pytest.raises(version_checkouts.VersionMismatch, match="breaks the clues"):
        version_checkouts.check_answer(CROSS, "p", "B", reply("unique", bad))
    with pytest.raises(version_checkouts.VersionMismatch, match="without two different grids"):
        version_checkouts.check_answer(CROSS, "p", "B", reply("multiple", good, good))


def test_the_two_sides_must_agree_when_both_decided() -> None:
    grid = ((0, 1, 0), (1, 1, 1), (0, 1, 0))
    other = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    version_checkouts.check_pair("p", ("unique", (grid,)), ("unique", (grid,)))
    version_checkouts.check_pair("p", ("multiple", (grid, other)), ("unknown", ()))  # a timeout is no verdict
    with pytest.raises(version_checkouts.VersionMismatch, match="A says unique, B says multiple"):
        version_checkouts.check_pair("p", ("unique", (grid,)), ("multiple", (grid, other)))
    with pytest.raises(version_checkouts.VersionMismatch):
        version_checkouts.check_pair("p", ("unique", (grid,)), ("unique", (other,)))


def test_the_geometric_mean_and_its_interval() -> None:
    mean, low, high = version_times.geometric_mean([2.0, 0.5, 2.0, 0.5])
    assert mean == pytest.approx(1.0)
    assert low < 1.0 < high
    assert version_times.geometric_mean([1.5]) == pytest.approx((1.5, 1.5, 1.5))
    assert version_times.ratios([0.2, 0.0], [0.1, 0.0]) == [pytest.approx(2.0), 1.0]  # 0 s counts as FLOOR


def test_a_side_keeps_each_puzzles_fastest_round() -> None:
    side = version_times.Side(seconds=[[0.3, 0.1], [0.2, 0.4]], cpu=[[0.3, 0.1], [0.25, 0.05]])
    assert side.best() == [0.2, 0.1]
    assert side.best(cpu=True) == [0.25, 0.05]


def comparison() -> version_times.SetComparison:
    a = version_times.Side(seconds=[[0.1, 0.2, 0.001], [0.1, 0.2, 0.001]], cpu=[[0.1, 0.2, 0.001]] * 2)
    b = version_times.Side(seconds=[[0.2, 0.2, 0.001], [0.2, 0.2, 0.001]], cpu=[[0.2, 0.2, 0.001]] * 2)
    verdicts = {"unique": 1, "multiple": 2, "none": 0, "unknown": 0}
    return version_times.SetComparison("s", "single", ["x", "y", "z"], a, b, 3, verdicts)


def test_a_sets_row_and_its_printed_lines() -> None:
    row = comparison().row()
    assert row["a_total_s"] == 0.301 and row["b_total_s"] == 0.401
    assert row["geomean"][0] == pytest.approx(2 ** (1 / 3), abs=1e-4)
    assert row["a_against_itself"][0] == 1.0
    assert row["largest_b_over_a"][0] == ("x", 0.1, 0.2)  # z, under 10 ms, is left out
    assert [label for label, _, _ in row["largest_b_over_a"]] == ["x", "y"]
    text = version_times.describe(row)
    assert "s (single): 3 puzzles, 1 unique, 2 multiple" in text
    assert "most slowed by B: x 0.1 -> 0.2 s" in text


def test_bad_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert versions.main([str(tmp_path), str(ROOT)]) == 2
    assert "is not a checkout of nonosat" in capsys.readouterr().err
    assert versions.main([str(ROOT), str(ROOT), "--sets", "nosuch"]) == 2
    assert "unknown set nosuch" in capsys.readouterr().err


@pytest.mark.slow
def test_a_worker_must_import_the_checkout_it_was_given(tmp_path: Path) -> None:
    """An empty folder on PYTHONPATH: the worker imports the installed nonosat, and is refused."""
    with pytest.raises(NonosatError, match="not from"):
        version_checkouts.Worker("A", tmp_path)


@pytest.mark.slow
def test_both_sides_on_two_tournament_puzzles(corpus: Path) -> None:
    workers = (version_checkouts.Worker("A", ROOT), version_checkouts.Worker("B", ROOT))
    try:
        result = versions.compare_set("taai2011", workers, first=2, rounds=2, timeout=60, mode="single")
        stages = versions.compare_stages("taai2011", workers, first=2, rounds=1, repeat=1)
    finally:
        for worker in workers:
            worker.close()
    assert result.labels == ["tcga/question/taai2011.txt#1", "tcga/question/taai2011.txt#2"]
    assert sum(result.verdicts.values()) == 2 and result.verdicts["unknown"] == 0
    assert result.same_formula == 2  # the same code builds the same formula
    assert [len(r) for r in result.a.seconds] == [2, 2] and [len(r) for r in result.b.cpu] == [2, 2]
    assert set(stages["stages"]) == set(versions.STAGES)
    assert all(figures["puzzles"] <= 2 for figures in stages["stages"].values())
    assert stages["stages"]["line"]["puzzles"] == 2  # every puzzle goes through line logic
    assert "check" in version_times.describe_stages(stages)


@pytest.mark.slow
def test_start_up_times_of_two_checkouts() -> None:
    found = versions.startup_times((ROOT, ROOT), runs=2)
    assert found["runs"] == 2
    assert found["a_median_s"] > 0 and found["b_median_s"] > 0
    assert len(found["geomean"]) == 3


@pytest.mark.slow
def test_a_worker_ends_quietly_with_ctrl_c(capfd: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C reaches a worker with its benchmark (one process group): exit 130, no traceback;
    the benchmark itself says "interrupted" once."""
    worker = version_checkouts.Worker("A", ROOT)
    worker.process.send_signal(signal.SIGINT)
    assert worker.process.wait(timeout=10) == 130  # (an uncaught KeyboardInterrupt: -2)
    worker.close()
    assert "Traceback" not in capfd.readouterr().err
