"""Which records a batch run counts as its own, and which files a folder gives: what a site
operator's review found (2026-11-29): a file's error record never retried once the file read
again, `solved` records that no option could name, a FIFO or a link to nothing in a folder
passed over in silence, the run's own results file read as a puzzle, and an `--out` under a
file called a missing folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_process import nonosat, one_clean_line

from nonosat.batch.policy import failing_statuses, parse_statuses
from nonosat.batch.results import check_results_path
from nonosat.batch.tasks import pending
from nonosat.errors import UsageError
from nonosat.formats.tournament import dump_tournament
from nonosat.generate import random_puzzle

ONE_CELL = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"


def _record(path: str, status: str) -> str:
    return json.dumps(
        {"path": path, "width": 1, "height": 1, "status": status, "method": "line", "solutions": 1, "seconds": 0.001,
         "solution_sha1": None, "goal_ok": None, "error": "c.txt: bad" if status == "error" else None}
    )  # fmt: skip


def _three_puzzles(file: Path) -> str:
    text = dump_tournament([random_puzzle(5, 5, seed=seed).puzzle for seed in range(3)])
    file.write_text(text)
    return text


def test_a_files_error_record_is_retried_once_the_file_reads_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of several with one bad line is one error record, `c.txt`; mended, its puzzles are
    `c.txt#1`.. and `--retry error` took out nothing (`c.txt` was no puzzle of the run): the
    error stayed, and `--fail-on error` failed every run after."""
    monkeypatch.chdir(tmp_path)
    text = _three_puzzles(tmp_path / "c.txt")
    (tmp_path / "c.txt").write_text("x\n" + text)  # no puzzle's fault: the file's
    (broken,) = pending(["c.txt"], None).todo
    assert broken.path == "c.txt" and broken.puzzle is None and broken.error
    (tmp_path / "r.jsonl").write_text(_record("c.txt", "error") + "\n" + _record("other.non", "error") + "\n")
    (tmp_path / "c.txt").write_text(text)
    todo, done, already, *_ = pending(["c.txt"], tmp_path / "r.jsonl", retry=("error",))
    assert [task.path for task in todo] == ["c.txt#1", "c.txt#2", "c.txt#3"] and already == 0
    assert [record["path"] for record in done] == ["other.non"]  # another file's record is kept
    assert [json.loads(line)["path"] for line in (tmp_path / "r.jsonl").read_text().splitlines()] == ["other.non"]


def test_records_of_a_files_puzzles_are_retried_when_the_file_no_longer_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = _three_puzzles(tmp_path / "c.txt")
    (tmp_path / "c.txt").write_text("x\n" + text)
    lines = [_record("c.txt#1", "unknown"), _record("c.txt#2", "unique"), _record("c.txt#30", "unknown")]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    todo, done, *_ = pending(["c.txt"], tmp_path / "r.jsonl", retry=("unknown",))
    assert [task.path for task in todo] == ["c.txt"] and [record["path"] for record in done] == ["c.txt#2"]


def test_solved_is_a_status_to_retry_fail_on_and_require_unique_against(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--count 1` records are `solved`; `--retry solved` and `--fail-on solved` were refused
    ("statuses are unique, multiple, none, unknown, error"), so such a record stayed for good."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.non").write_text(ONE_CELL)
    (tmp_path / "r.jsonl").write_text(_record("one.non", "solved") + "\n")
    assert not pending(["one.non"], tmp_path / "r.jsonl").todo
    todo, done, *_ = pending(["one.non"], tmp_path / "r.jsonl", retry=("solved",))
    assert [task.path for task in todo] == ["one.non"] and not done
    assert parse_statuses("solved,unknown") == {"solved", "unknown"}
    assert "solved" in failing_statuses(None, "solved") and "solved" in failing_statuses("unique", None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_and_a_link_to_nothing_in_a_folder_get_error_records(tmp_path: Path) -> None:
    """Named outright, a FIFO gets an error record and a link to nothing is refused; in a folder
    both were passed over in silence (exit 0, no word of them)."""
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "one.non").write_text(ONE_CELL)
    os.mkfifo(folder / "fifo.non")
    (folder / "dangling.non").symlink_to(tmp_path / "gone.non")
    done = nonosat("batch", "set", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    records = {r["path"]: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["set/one.non"]["status"] == "unique", done.stderr
    assert records["set/fifo.non"]["status"] == "error" and "regular file" in records["set/fifo.non"]["error"]
    assert records["set/dangling.non"]["status"] == "error" and records["set/dangling.non"]["error"]


def test_the_runs_own_results_file_in_a_folder_it_reads_is_no_puzzle(tmp_path: Path) -> None:
    """`batch . --out results.txt` run twice read results.txt as a puzzle the second time (an
    error record, "expected JSON")."""
    (tmp_path / "one.non").write_text(ONE_CELL)
    for _ in range(2):
        done = nonosat("batch", ".", "--out", "results.txt", "--jobs", "1", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "results.txt").read_text().splitlines()]
    assert [record["path"] for record in records] == ["one.non"]
    assert "nothing to do" in done.stderr


def test_a_results_path_under_a_file_or_through_a_link_to_nothing_says_so(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    with pytest.raises(UsageError, match="notes.txt is a file, not a folder"):
        check_results_path(tmp_path / "notes.txt" / "r.jsonl")
    (tmp_path / "r.jsonl").symlink_to(tmp_path / "nowhere" / "r.jsonl")
    with pytest.raises(UsageError, match="a link to .*nowhere/r.jsonl, which does not exist"):
        check_results_path(tmp_path / "r.jsonl")
    with pytest.raises(UsageError, match="does not exist"):
        check_results_path(tmp_path / "missing" / "r.jsonl")


def test_a_results_path_under_a_file_is_one_line_before_reading(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "one.non").write_text(ONE_CELL)
    done = nonosat("batch", "one.non", "--out", "notes.txt/r.jsonl", cwd=tmp_path)
    assert done.returncode == 2 and "is a file, not a folder" in done.stderr
    one_clean_line(done.stderr)


def test_one_bad_puzzle_of_a_tournament_file_costs_its_own_verdict_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One bad clue line in a file of 1,000 made the whole file one error record: 999 verdicts
    lost. Now the bad puzzle is an error record `FILE#N`, at its line, and the others are solved."""
    monkeypatch.chdir(tmp_path)
    text = _three_puzzles(tmp_path / "c.txt")
    (tmp_path / "c.txt").write_text(text.replace("$2\n", "$2\nx", 1))
    todo = pending(["c.txt"], None).todo
    assert [task.path for task in todo] == ["c.txt#1", "c.txt#2", "c.txt#3"]
    assert todo[0].puzzle is not None and todo[2].puzzle is not None and todo[1].puzzle is None
    assert todo[1].error is not None and "c.txt, line 13: expected a clue" in todo[1].error
    assert [task.file for task in todo] == ["c.txt"] * 3
    done = nonosat("batch", "c.txt", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    statuses = [json.loads(line)["status"] for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert statuses[1] == "error" and statuses[0] != "error" and statuses[2] != "error", done.stderr


def test_a_puzzle_of_a_tournament_file_with_a_number_too_long_to_read_is_its_own_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python refuses to read a number of 5,000 digits (ValueError): read puzzle by puzzle, it
    escaped and ended the whole batch run (the diff's review); now it is that puzzle's error."""
    monkeypatch.chdir(tmp_path)
    text = _three_puzzles(tmp_path / "c.txt")
    (tmp_path / "c.txt").write_text(text.replace("$2\n", "$2\n" + "9" * 5000, 1))
    todo = pending(["c.txt"], None).todo
    assert [task.path for task in todo] == ["c.txt#1", "c.txt#2", "c.txt#3"]
    assert todo[1].error is not None and "a number too long to read" in todo[1].error


def test_a_results_path_that_cannot_be_written_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only mount (root may write anywhere else): refused only after reading the puzzles,
    a review found; `os.access` says so at once (made to say it here)."""
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(UsageError, match="cannot be written \\(its folder is read-only\\)"):
        check_results_path(tmp_path / "r.jsonl")
    (tmp_path / "r.jsonl").write_text("")
    with pytest.raises(UsageError, match="cannot be written \\(the file is read-only\\)"):
        check_results_path(tmp_path / "r.jsonl")
