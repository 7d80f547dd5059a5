"""A batch run in an author's CI (a review, 2026-11-29): a puzzle changed since its record was
written is solved again, not passed on its old record; `--fail-on` and `--require` judge this
run's puzzles, not other paths' records in the same results file; and a failure names the
puzzles that fail."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_process import nonosat

from nonosat.batch.tasks import pending
from nonosat.formats import load
from nonosat.render.records import puzzle_sha1

ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
RING = ROOT / "puzzles" / "ring.non"
BROKEN = ROOT / "puzzles" / "broken-cross.non"


def _records(file: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in file.read_text().splitlines()]


@pytest.mark.slow
def test_a_puzzle_changed_since_its_record_is_solved_again(tmp_path: Path) -> None:
    """Dancer (unique) recorded, then the file replaced by the ring (two solutions): the next run
    with --require unique passed on the old record, exit 0."""
    folder = tmp_path / "a"
    folder.mkdir()
    shutil.copy(DANCER, folder / "p.non")
    first = nonosat("batch", "a", "--out", "r.jsonl", "--jobs", "1", "--require", "unique", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    shutil.copy(RING, folder / "p.non")
    again = nonosat("batch", "a", "--out", "r.jsonl", "--jobs", "1", "--require", "unique", cwd=tmp_path)
    assert again.returncode == 1 and "1 puzzle changed since r.jsonl was written: solved again" in again.stderr
    assert "failing: multiple: a/p.non" in again.stderr, again.stderr
    (record,) = _records(tmp_path / "r.jsonl")  # the old record taken out, the new one in
    assert (record["status"], record["width"], record["puzzle_sha1"]) == ("multiple", 4, puzzle_sha1(load(RING)))
    unchanged = nonosat("batch", "a", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert unchanged.returncode == 0 and "nothing to do" in unchanged.stderr and "changed" not in unchanged.stderr


def test_only_what_the_verdict_depends_on_makes_a_record_stale(tmp_path: Path) -> None:
    """A new title changes no verdict: the record stands; a new goal (goal_ok) does not. A record
    written before records had `puzzle_sha1` is taken as it is."""
    text = DANCER.read_text()
    (tmp_path / "p.non").write_text(text)
    record = {
        "path": str(tmp_path / "p.non"),
        "status": "unique",
        "seconds": 0.0,
        "puzzle_sha1": puzzle_sha1(load(DANCER)),
    }
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps(record) + "\n")
    (tmp_path / "p.non").write_text(text.replace('title "Dancer"', 'title "Dancer, again"'))
    assert 'title "Dancer, again"' in (tmp_path / "p.non").read_text()
    kept = pending([str(tmp_path / "p.non")], results)
    assert (kept.todo, kept.changed, kept.already) == ([], 0, 1)
    goal = text.index('goal "') + len('goal "')
    (tmp_path / "p.non").write_text(text[:goal] + ("1" if text[goal] == "0" else "0") + text[goal + 1 :])
    stale = pending([str(tmp_path / "p.non")], results)
    assert (len(stale.todo), stale.changed, stale.already) == (1, 1, 0)
    assert results.read_text() == ""  # taken out, to be written again
    old = {key: value for key, value in record.items() if key != "puzzle_sha1"}
    results.write_text(json.dumps(old) + "\n")
    assert pending([str(tmp_path / "p.non")], results).todo == []


@pytest.mark.slow
def test_fail_on_judges_this_runs_puzzles_and_names_them(tmp_path: Path) -> None:
    """An earlier run's records of other files in the same results file failed a run of a good
    puzzle alone ("failing: some puzzles are multiple, none"), and named no puzzle."""
    for source in (DANCER, RING, BROKEN):
        shutil.copy(source, tmp_path / source.name)
    everything = nonosat("batch", ".", "--out", "r.jsonl", "--jobs", "1", "--require", "unique", cwd=tmp_path)
    assert everything.returncode == 1
    assert "failing: multiple: ring.non; none: broken-cross.non" in everything.stderr, everything.stderr
    alone = nonosat("batch", DANCER.name, "--out", "r.jsonl", "--jobs", "1", "--require", "unique", cwd=tmp_path)
    assert alone.returncode == 0 and "failing" not in alone.stderr, alone.stderr
    ring = nonosat("batch", RING.name, "--out", "r.jsonl", "--jobs", "1", "--fail-on", "multiple", cwd=tmp_path)
    assert ring.returncode == 1 and "failing: multiple: ring.non" in ring.stderr  # its old record is this run's


@pytest.mark.slow
def test_records_of_puzzles_a_file_no_longer_holds_are_taken_out_with_their_certificates(tmp_path: Path) -> None:
    """A diff's review: a tournament file of three puzzles made two kept `c.txt#3`'s record, which
    --fail-on still judged; and a puzzle solved again with no certificate kept its old one."""
    from nonosat.formats.tournament import dump_tournament
    from nonosat.generate import random_puzzle

    three = [random_puzzle(5, 5, seed=seed).puzzle for seed in range(3)]
    (tmp_path / "c.txt").write_text(dump_tournament(three))
    shutil.copy(DANCER, tmp_path / "p.non")
    first = nonosat(
        "batch", "c.txt", "p.non", "--out", "r.jsonl", "--jobs", "1", "--certificates", "certs", cwd=tmp_path
    )
    assert first.returncode == 0, first.stderr
    assert len(list((tmp_path / "certs").iterdir())) == 4
    (tmp_path / "c.txt").write_text(dump_tournament(three[:2]))
    (tmp_path / "p.non").write_text("width 2\n")  # no puzzle now: an error, no certificate
    again = nonosat(
        "batch", "c.txt", "p.non", "--out", "r.jsonl", "--jobs", "1", "--certificates", "certs",
        "--fail-on", "unique,multiple", cwd=tmp_path,
    )  # fmt: skip
    assert "1 record of puzzles their files no longer hold taken out of r.jsonl" in again.stderr, again.stderr
    assert "c.txt#3" not in again.stderr and again.returncode == 1  # c.txt#1 and #2 still judged
    assert sorted(str(r["path"]) for r in _records(tmp_path / "r.jsonl")) == ["c.txt#1", "c.txt#2", "p.non"]
    left = sorted(path.name for path in (tmp_path / "certs").iterdir())
    assert len(left) == 2 and all(name.startswith("c.txt_") for name in left), left  # #3's and Dancer's gone
    assert not any(name.startswith("c.txt_3") for name in left)
