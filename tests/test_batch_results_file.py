"""The README's promises under faults, for a batch run's results file: one that is not a file (in
a missing folder, a device), standard output (closed too), a file that cannot grow, or one that
holds something else or a record without what every record has, is one line and never cut; no
temporary files are left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_process import DANCER, PUZZLES, into_closed_pipe, nonosat, one_clean_line

from nonosat.errors import UsageError
from nonosat.formats.atomic import write_text_atomic


def test_results_in_a_missing_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = nonosat("batch", str(DANCER), "--out", str(tmp_path / "missing" / "r.jsonl"))
    assert done.returncode == 2
    one_clean_line(done.stderr)
    assert "does not exist" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_results_in_a_device_are_refused_before_reading_it() -> None:
    done = nonosat("batch", str(DANCER), "--out", "/dev/full")
    assert done.returncode == 2 and "not a regular file" in done.stderr
    one_clean_line(done.stderr)


@pytest.mark.slow
def test_results_to_standard_output(tmp_path: Path) -> None:
    done = nonosat("batch", str(PUZZLES / "ring.non"), str(DANCER), "--out", "-", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "unique"]
    assert not (tmp_path / "-").exists()
    assert "2 puzzles in standard output" in done.stderr


def test_stale_temporary_files_are_removed_on_the_next_write(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".c.svg.{dead.pid}.967d2853.tmp"
    stale.write_text("half a picture")
    old = tmp_path / ".c.svg.967d2853.tmp"  # named before temporary files carried a process id
    old.write_text("half a picture")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    busy = tmp_path / f".c.svg.{os.getpid()}.0badf00d.tmp"  # a writer still at work
    busy.write_text("being written")
    other = tmp_path / f".d.svg.{dead.pid}.967d2853.tmp"  # another target's
    other.write_text("not ours to touch")
    write_text_atomic(tmp_path / "c.svg", "<svg/>")
    assert (tmp_path / "c.svg").read_text() == "<svg/>"
    assert not stale.exists() and not old.exists()
    assert busy.exists() and other.exists()


def limited(resource_name: str, value: int) -> Callable[[], None]:
    import resource

    def set_limit() -> None:
        which = getattr(resource, resource_name)
        resource.setrlimit(which, (value, value))

    return set_limit


@pytest.mark.slow
def test_a_results_file_that_cannot_grow_is_one_line_and_exit_74(tmp_path: Path) -> None:
    """Past the process's file size limit (EFBIG), as on a full disk: the output's fault, exit 74."""
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "batch", str(PUZZLES), "--out", "r.jsonl", "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        preexec_fn=limited("RLIMIT_FSIZE", 600),
        timeout=120,
    )  # noqa: PLW1509
    assert done.returncode == 74, done.stderr
    assert "Traceback" not in done.stderr and "nonosat: cannot write r.jsonl" in done.stderr


def test_a_results_file_of_something_else_is_never_cut(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text('{"rows": [[1]], "cols": [[1]], "title": "my only copy"}')  # no newline at the end
    done = nonosat("batch", str(DANCER), "--out", str(mine))
    assert done.returncode == 2 and "not a nonosat batch record" in done.stderr
    assert mine.read_text() == '{"rows": [[1]], "cols": [[1]], "title": "my only copy"}'


@pytest.mark.parametrize(
    "line",
    [
        '{"path": "x", "status": "unique"}',
        '{"path": "x", "status": "unique", "seconds": "0.1"}',
        '{"path": "x", "status": "unique", "seconds": true}',
        '{"path": 7, "status": "unique", "seconds": 0.1}',
        '{"path": "x", "seconds": 0.1}',
    ],
)
def test_a_record_without_what_every_record_has_is_refused_untouched(tmp_path: Path, line: str) -> None:
    """A line with a path but no seconds was taken for a record, the run went on, and its summary
    ended in an internal error (KeyError, exit 70) after appending to the file."""
    from nonosat.batch.results import read_results

    other = tmp_path / "half.jsonl"
    other.write_text(line + "\n")
    with pytest.raises(UsageError, match="line 1: not a nonosat batch record"):
        read_results(other)
    assert other.read_text() == line + "\n"


@pytest.mark.slow
def test_results_to_a_closed_standard_output_stop_the_run(tmp_path: Path) -> None:
    done = into_closed_pipe("batch", str(PUZZLES), "--out", "-", "--jobs", "1")
    assert done.returncode == 2 and "standard output was closed" in done.stderr
    assert "Traceback" not in done.stderr
