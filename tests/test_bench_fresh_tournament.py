"""bench/fresh_tournament.py: the fresh sets are the same for the same seed, drawn as the corpus's
tournament sets are (25x25, a density from 0.35 to 0.5 a grid), and a batch run's records are
summed up as the benchmark prints them."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from bench.fresh_tournament import DENSITIES, disagreements, fresh_set, main, run_set, summary
from nonosat.formats.tournament import dump_tournament


def test_a_fresh_set_is_the_same_for_its_seed_and_drawn_as_the_corpus_sets_are() -> None:
    first, again, other = fresh_set(7, 200), fresh_set(7, 200), fresh_set(8, 200)
    assert [p.rows for p in first] == [p.rows for p in again] != [p.rows for p in other]
    densities = [sum(map(sum, p.goal)) / 625 for p in first if p.goal is not None]
    assert len(densities) == 200 and all((p.width, p.height) == (25, 25) for p in first)
    assert DENSITIES[0] - 0.08 < min(densities) and max(densities) < DENSITIES[1] + 0.08
    assert abs(statistics.mean(densities) - 0.424) < 0.02  # the corpus sets' mean


def test_a_batch_run_is_summed_up(tmp_path: Path) -> None:
    path = tmp_path / "fresh.txt"
    path.write_text(dump_tournament(fresh_set(3, 6)))
    took, records = run_set(path, 1, None)
    assert took > 0 and len(records) == 6 and {r["status"] for r in records} <= {"unique", "multiple"}
    line = summary("fresh 3", took, records)
    assert line.startswith("fresh 3: 6 puzzles in ") and "99.9%" in line
    slowest = max(records, key=lambda r: float(r["seconds"]))  # type: ignore[arg-type]
    assert f"({Path(str(slowest['path'])).name})" in line and str(tmp_path) not in line  # found again by seed


def test_two_runs_of_a_set_disagree_on_another_status_or_unique_grid() -> None:
    ours: list[dict[str, object]] = [
        {"path": "a#1", "status": "unique", "solutions": [["#."]]},
        {"path": "a#2", "status": "multiple"},
    ]
    assert disagreements(ours, [dict(record) for record in ours]) == []
    other_grid = [{**ours[0], "solutions": [[".#"]]}, ours[1]]
    assert disagreements(ours, other_grid) == ["a#1: another unique grid"]
    assert disagreements(ours, [ours[0], {"path": "a#2", "status": "unknown"}]) == ["a#2: multiple against unknown"]
    assert disagreements(ours, ours[:1]) == ["2 records against 1", "a#2: multiple against None"]
    gone: list[dict[str, object]] = [
        {"path": "/tmp/fresh-tournament-x/fresh-7.txt#5", "status": "unique", "solutions": [["#"]]}
    ]
    assert disagreements(gone, [{**gone[0], "status": "none"}]) == ["fresh-7.txt#5: unique against none"]


@pytest.mark.slow
def test_another_checkout_runs_the_set_too(tmp_path: Path) -> None:
    """--against runs each set by the nonosat of another checkout as well (here this one, by its
    path): the same verdicts, each line naming its side."""
    here = Path(__file__).resolve().parent.parent
    path = tmp_path / "fresh.txt"
    path.write_text(dump_tournament(fresh_set(4, 4)))
    _, ours = run_set(path, 1, None)
    _, theirs = run_set(path, 1, None, here)
    assert len(ours) == len(theirs) == 4 and disagreements(ours, theirs) == []
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["fresh-other.jsonl", "fresh-this.jsonl"]


def test_a_batch_run_ended_by_ctrl_c_ends_the_benchmark(tmp_path: Path) -> None:
    """A batch run that exits 130 (Ctrl-C reached its process group first) is not summed up as
    a set: the benchmark is interrupted too."""
    fake = tmp_path / "checkout" / "nonosat"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "__main__.py").write_text("raise SystemExit(130)\n")
    path = tmp_path / "fresh.txt"
    path.write_text(dump_tournament(fresh_set(3, 2)))
    with pytest.raises(KeyboardInterrupt):
        run_set(path, 1, None, fake.parent)


@pytest.mark.slow
def test_records_are_kept_set_by_set_and_never_overwritten_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--records keeps every puzzle's record of every set, named by set and side; an existing
    file is refused unless --force."""
    kept = tmp_path / "records.jsonl"
    assert main(["--seeds", "5,6", "--size", "3", "--jobs", "1", "--records", str(kept)]) == 0
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    assert [(r["set"], r["side"]) for r in lines] == [("fresh seed 5", "this")] * 3 + [("fresh seed 6", "this")] * 3
    assert all(r["status"] in {"unique", "multiple"} and float(r["seconds"]) >= 0 for r in lines)
    out = capsys.readouterr().out
    assert out.count("3 puzzles in") == 2 and "6 puzzles in" in out  # two sets, then both together
    with pytest.raises(SystemExit):
        main(["--seeds", "5", "--size", "1", "--jobs", "1", "--records", str(kept)])
    assert "exists; give --force" in capsys.readouterr().err and len(kept.read_text().splitlines()) == 6
    assert main(["--seeds", "5", "--size", "1", "--jobs", "1", "--records", str(kept), "--force"]) == 0
    assert len(kept.read_text().splitlines()) == 1
    with pytest.raises(SystemExit):  # a folder is refused before any set runs, --force or not
        main(["--seeds", "5", "--size", "1", "--jobs", "1", "--records", str(tmp_path), "--force"])
    assert "a folder, not a file" in capsys.readouterr().err
