"""The README's promises under faults, for the exit codes of faults: a bug of ours is one line and
exit 70, never a traceback and 1 (which means "multiple"); an output on a full disk or device is
exit 74 (its batch's certificates stop the run), while a message that cannot be written changes
no exit code and a full disk met elsewhere is no output failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import DANCER, PUZZLES, one_clean_line


@pytest.mark.parametrize("command", [["solve", str(DANCER)], ["solve", str(DANCER), "--ascii"]])
def test_an_internal_error_is_one_line_and_exit_70(command: list[str]) -> None:
    code = (
        "import sys, nonosat.reports as answers\n"
        "def broken(*args, **kwargs): raise TypeError('a bug')\n"
        "answers.solve_report = broken\n"
        f"sys.argv = ['nonosat', *{command!r}]\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 70
    one_clean_line(done.stderr)
    assert "internal error (TypeError: a bug)" in done.stderr
    shown = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, NONOSAT_DEBUG="1"),
    )
    assert shown.returncode == 70 and "Traceback" in shown.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command",
    [
        ["solve", str(DANCER)],
        ["check", str(DANCER), "--format", "json"],
        ["encode", str(DANCER), "-o", "-"],
        ["--help"],
    ],
)
def test_output_on_a_full_device_is_one_line_and_exit_74_not_a_bug(command: list[str]) -> None:
    """A review wrote standard output to /dev/full: every command said "internal error ... this
    is a bug" with exit 70. A full disk is not a bug of nonosat's."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", *command], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert done.returncode == 74
    one_clean_line(done.stderr)
    assert done.stderr == "nonosat: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("command", "code", "written"),
    [
        (["convert", str(DANCER), "d.nin"], 0, "d.nin"),
        (
            ["generate", str(PUZZLES / "knot-picture.png"), "--width", "25", "--require", "line", "-o", "k.non"],
            0,
            "k.non",
        ),
        (["solve", str(DANCER), "-o", "s.non"], 0, "s.non"),
        (["solve", str(PUZZLES / "cat-half-done.txt")], 2, None),
    ],
)
def test_messages_on_a_full_device_change_no_exit_code_and_lose_no_work(
    tmp_path: Path, command: list[str], code: int, written: str | None
) -> None:
    """A review sent standard error to /dev/full (a log on a full disk): `convert` and `solve -o`
    exited 74 with their files written, `generate` worked for seconds and then wrote nothing,
    a bad file was 74, not 2. A message that cannot be written is dropped, as on a closed
    standard error; the command's own exit code and outputs stand."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", *command], stdout=subprocess.PIPE, stderr=full, cwd=tmp_path, timeout=120
        )
    assert done.returncode == code
    if written is not None:
        assert (tmp_path / written).stat().st_size > 0 and [path.name for path in tmp_path.iterdir()] == [written]


def test_a_full_disk_met_elsewhere_than_the_output_is_not_called_an_output_failure() -> None:
    """A review: exit 74 took every ENOSPC for the output's, wherever it came from."""
    code = (
        "import sys, errno, nonosat.reports as answers\n"
        "def broken(*args, **kwargs): raise OSError(errno.ENOSPC, 'No space left on device')\n"
        "answers.solve_report = broken\n"
        f"sys.argv = ['nonosat', 'solve', {str(DANCER)!r}]\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 70 and "internal error (OSError" in done.stderr


@pytest.mark.parametrize(("fault", "code"), [("ENOSPC", 74), ("EDQUOT", 74), ("EIO", 74), ("EACCES", 2)])
def test_an_output_file_on_a_full_disk_is_exit_74_not_usage(tmp_path: Path, fault: str, code: int) -> None:
    """A review: `-o` on a full disk said exit 2, "bad input or usage"; the disk's fault is not the
    user's usage (a folder one may not write in still is)."""
    script = (
        "import sys, errno, nonosat.formats.atomic as atomic\n"
        f"def broken(*args, **kwargs): raise OSError(errno.{fault}, 'it failed')\n"
        "atomic.write_new_file = broken\n"
        f"sys.argv = ['nonosat', 'encode', {str(DANCER)!r}, '-o', 'out.cnf']\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert done.stderr == "nonosat: cannot write out.cnf: it failed\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batchs_certificates_on_a_full_disk_stop_the_run_with_exit_74(tmp_path: Path, jobs: str) -> None:
    """A diff's review: `batch --certificates` on a full disk solved every puzzle and exited 0,
    each record saying "no certificate". A full disk (here the file size limit, in the workers
    too) now stops the run, exit 74, as one under the results file does; the puzzle whose
    certificate failed has no record (a resumed run solves it again)."""
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("webpbn-00001-dancer.non", "webpbn-00006-cat.non"):
        (folder / name).write_bytes((PUZZLES / name).read_bytes())
    import resource

    def small_files() -> None:  # a file over 4 KB: EFBIG, as from a full disk (the certificate's CNF is larger)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    command = ["batch", "set", "--out", "r.jsonl", "--certificates", "certs", "--jobs", jobs]
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        preexec_fn=small_files,  # noqa: PLW1509 - no threads in the child yet
    )
    assert done.returncode == 74, done.stderr
    assert "cannot write certs/" in done.stderr and "File too large" in done.stderr
    records = (tmp_path / "r.jsonl").read_text().splitlines() if (tmp_path / "r.jsonl").exists() else []
    assert all("no certificate" not in line for line in records) and len(records) < 2
