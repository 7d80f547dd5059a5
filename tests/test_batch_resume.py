"""A batch run's results file, resumable after a stop or a kill: nothing lost or repeated, a
half-written last line dropped and redone, and a second run on the same file (under any of its
names) refused while the first holds it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pytest
from batch_shared import (
    key,
    lines,
    tournament_fixture,  # noqa: F401  (fixture)
    verdict,
)
from typer.testing import CliRunner

from nonosat import UsageError, load_all
from nonosat.batch import read_results, resume_results, run
from nonosat.batch.tasks import pending
from nonosat.cli import app
from nonosat.formats.tournament import dump_tournament


@pytest.mark.slow
def test_a_stopped_run_resumes_without_losing_or_repeating(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    stream = run([str(tournament)], out=out, jobs=2)
    assert isinstance(stream, Generator)
    first = [next(stream) for _ in range(30)]
    stream.close()  # as Ctrl-C does: the file keeps what was written
    kept = lines(out)
    assert 30 <= len(kept) < 120 and kept[:30] == first
    rest = list(run([str(tournament)], out=out, jobs=2))
    final = lines(out)
    assert len(rest) == 120 - len(kept)
    assert len(final) == 120 and len({r["path"] for r in final}) == 120


@pytest.mark.slow
def test_a_half_written_last_line_is_dropped_and_redone(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    reference = {key(r) for r in run([str(tournament)], out=out, jobs=1)}
    text = out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:50]) + text[50][:25])  # killed while writing line 51
    cut = "".join(text[:50]) + text[50][:25]
    assert len(read_results(out)) == 50 and out.read_text() == cut  # reading changes nothing
    assert len(resume_results(out)) == 50 and out.read_text() == "".join(text[:50])
    list(run([str(tournament)], out=out, jobs=1))
    assert {key(r) for r in lines(out)} == reference


@pytest.fixture(scope="module")
def hard_tournament(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """120 of the harder TAAI 2011 puzzles (#501-620): 40-80 ms each, where the first 120 take
    1-2 ms, so that a batch over them is still running when the test kills it (the first 120
    were all done before the first look at the results file, on a quiet machine)."""
    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[500:620]
    path = tmp_path_factory.mktemp("hard") / "taai2011-hard.txt"
    path.write_text(dump_tournament(puzzles))
    return path


@pytest.mark.slow
def test_a_killed_command_leaves_a_valid_file_and_the_rerun_completes(hard_tournament: Path, tmp_path: Path) -> None:
    tournament = hard_tournament
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "nonosat", "batch", str(tournament), "--out", str(out), "--jobs", "2"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 20):
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGKILL)  # the command and its workers, with no chance to clean up
    child.wait()
    partial = read_results(out)
    assert 20 <= len(partial) < 120
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = lines(out)
    assert len(final) == 120 and len({r["path"] for r in final}) == 120
    reference = {verdict(r) for r in run([str(tournament)], jobs=1)}
    assert {verdict(r) for r in final} == reference


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="results files are held with flock")
def test_a_second_run_on_the_same_results_file_at_once_is_refused(tmp_path: Path) -> None:
    """A review ran two batches on one results file at once: both appended every record (2,000
    records for 1,000 puzzles, and a resume counted them twice). A run holds its file now."""
    puzzle = tmp_path / "ring.non"
    puzzle.write_text((Path(__file__).resolve().parent.parent / "puzzles" / "ring.non").read_text())
    out = tmp_path / "r.jsonl"
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += f"hold(Path({str(out)!r})); print('held', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        with pytest.raises(UsageError, match="another batch run is writing it"):
            pending([str(puzzle)], out)
        refused = CliRunner().invoke(app, ["batch", str(puzzle), "--out", str(out)])
        assert refused.exit_code == 2 and not out.exists()
    finally:
        other.communicate("")
    assert [record["status"] for record in run([str(puzzle)], out=out, jobs=1)] == ["multiple"]
    assert len(out.read_text().splitlines()) == 1 and not (tmp_path / ".r.jsonl.lock").exists()


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="results files are held with flock")
def test_a_second_run_on_another_name_of_the_same_results_file_is_refused(tmp_path: Path) -> None:
    """A review ran two batches at once on two hard links to one results file: both were let
    in (each name had a lock file of its own) and 944 of 1,000 records were written twice."""
    puzzle = tmp_path / "ring.non"
    puzzle.write_text((Path(__file__).resolve().parent.parent / "puzzles" / "ring.non").read_text())
    out, link = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    out.touch()
    os.link(out, link)
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += f"hold(Path({str(out)!r})); print('held', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        with pytest.raises(
            UsageError, match="another batch run is writing it under another name \\(a link to it\\); wait for"
        ):
            pending([str(puzzle)], link)
        assert not (tmp_path / ".b.jsonl.lock").exists() and (tmp_path / ".a.jsonl.lock").exists()
        refused = CliRunner().invoke(app, ["batch", str(puzzle), "--out", str(link)])
        assert refused.exit_code == 2 and out.read_text() == ""
    finally:
        other.communicate("")
    assert [record["status"] for record in run([str(puzzle)], out=link, jobs=1)] == ["multiple"]
    assert len(out.read_text().splitlines()) == 1
    # the mends' review: a results file the run made (or rewrote by a rename) was not held itself
    made, link = tmp_path / "made.jsonl", tmp_path / "made-link.jsonl"
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += "from nonosat.batch.results import Writer; "
    code += f"hold(Path({str(made)!r})); Writer(Path({str(made)!r})); print('made', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "made\n"
        os.link(made, link)
        with pytest.raises(UsageError, match="under another name"):
            pending([str(puzzle)], link)
    finally:
        other.communicate("")
