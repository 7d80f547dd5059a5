"""Ctrl-C and killed processes: every command ends at once, with exit 130 and one line, and no
process of ours is left running; a batch keeps its records and resumes, SIGTERM ends it as
Ctrl-C does (exit 143), and a command started ignoring Ctrl-C keeps ignoring it.

Each command runs in a subprocess of its own session, on work that would take minutes, and the
signal goes to its whole process group, as a terminal sends it. How fast they end is measured
by `python -m bench.faults` (bench/README.md); here a command that does not end within
`HANG` seconds fails as a hang."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from signals_shared import HANG, STARTED, interrupt, waited

from bench.processes import ignoring_ctrl_c, in_group, start

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")


ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def noise(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A picture of random pixels: a long repair for the generator."""
    pytest.importorskip("PIL")
    from PIL import Image

    rng = random.Random(5)
    picture = Image.new("L", (120, 120))
    picture.putdata([rng.choice((0, 255)) for _ in range(120 * 120)])
    path = tmp_path_factory.mktemp("pictures") / "noise.png"
    picture.save(path)
    return path


def commands(corpus: Path, noise: Path, work: Path) -> dict[str, list[str]]:
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    state = work / "empty-state.txt"
    state.write_text("\n".join("?" * 95 for _ in range(80)) + "\n")
    twice = work / "hard"
    twice.mkdir(exist_ok=True)
    for name in ("a.txt", "b.txt", "c.txt"):
        (twice / name).write_text(Path(faase).read_text())
    return {
        "solve --jobs 1": ["solve", faase, "--jobs", "1"],
        "solve --jobs 2": ["solve", faase, "--jobs", "2"],
        "solve --solver cadical195 --jobs 1": ["solve", faase, "--jobs", "1", "--solver", "cadical195"],
        "check": ["check", faase],
        "explain": ["explain", faase],
        "rate": ["rate", faase],
        "hint": ["hint", faase, "--state", str(state), "--steps", "100000"],  # logic's, then the search where it stalls
        "generate": ["generate", str(noise), "--width", "120", "-o", str(work / "noise.non")],
        "random": ["random", "--width", "100", "--height", "100", "-o", str(work / "random.non")],
        "batch --jobs 1": ["batch", str(twice), "--out", str(work / "one.jsonl"), "--jobs", "1"],
        "batch --jobs 2": ["batch", str(twice), "--out", str(work / "two.jsonl"), "--jobs", "2"],
    }


NAMES = [
    "solve --jobs 1",
    "solve --jobs 2",
    "solve --solver cadical195 --jobs 1",
    "check",
    "explain",
    "rate",
    "hint",
    "generate",
    "random",
    "batch --jobs 1",
    "batch --jobs 2",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_ctrl_c_ends_every_command_with_130_and_one_line(corpus: Path, noise: Path, tmp_path: Path, name: str) -> None:
    args = commands(corpus, noise, tmp_path)[name]
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    code, stderr, before, left = interrupt(args, tmp_path, temporary=temporary)
    assert code == 130, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert "nonosat: interrupted" in stderr.splitlines()
    assert left == [], f"left running: {left} of {before}"
    assert not list(tmp_path.glob(".*.tmp"))
    assert list(temporary.iterdir()) == []  # a review: multiprocessing's pymp-* folder was left


@pytest.mark.slow
@pytest.mark.parametrize("name", ["solve --jobs 2", "batch --jobs 2"])
def test_a_killed_command_leaves_nothing_running(corpus: Path, noise: Path, tmp_path: Path, name: str) -> None:
    """SIGKILL to the command alone (not its group): its rivals, workers, fork server and
    resource tracker end by themselves."""
    args = commands(corpus, noise, tmp_path)[name]
    code, _, before, left = interrupt(args, tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert len(before) >= 3, before  # the command and at least two helpers were running
    assert left == [], f"left running: {left} of {before}"


@pytest.mark.slow
def test_an_interrupted_batch_resumes_where_it_stopped(corpus: Path, tmp_path: Path) -> None:
    """Ctrl-C after some puzzles: their records are kept, and the rerun does only the rest."""
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("a.non", "b.non"):
        (folder / name).write_text((ROOT / "puzzles" / "webpbn-00001-dancer.non").read_text())
    (folder / "z.txt").write_text((corpus / "pynogram" / "frans_faase.txt").read_text())
    out = tmp_path / "r.jsonl"
    code, stderr, _, left = interrupt(["batch", str(folder), "--out", str(out), "--jobs", "1"], tmp_path)
    assert code == 130 and left == []
    assert "run the same command again to resume" in stderr
    assert len(out.read_text().splitlines()) == 2
    assert not (tmp_path / ".r.jsonl.lock").exists()  # let go of, though atexit does not run
    code, stderr, _, left = interrupt(["batch", str(folder), "--out", "-", "--jobs", "1"], tmp_path)
    assert code == 130 and left == []  # to standard output: nothing to resume, and it says so
    assert "no resuming" in stderr and "resume" not in stderr.replace("no resuming", "")


@pytest.mark.slow
def test_a_batch_interrupted_while_reading_lets_go_of_its_results_file(corpus: Path, tmp_path: Path) -> None:
    """24,000 puzzles take seconds to read, with the results file held: Ctrl-C then ended the
    run without atexit, and `.r.jsonl.lock` was left beside it (a site operator's review)."""
    out = tmp_path / "r.jsonl"
    code, stderr, _, left = interrupt(["batch", str(corpus / "tcga" / "question"), "--out", str(out)], tmp_path)
    assert code == 130 and left == [] and "interrupted" in stderr
    assert not (tmp_path / ".r.jsonl.lock").exists()


@pytest.mark.slow
def test_sigterm_ends_a_batch_as_ctrl_c_does_with_exit_143(corpus: Path, tmp_path: Path) -> None:
    """`timeout` and `kill` send SIGTERM to the command alone: it was killed outright, its lock
    file left, and multiprocessing's resource tracker printed a warning of leaked semaphores (a
    site operator's review). Now the records so far are kept, the run resumes, exit 143."""
    out = tmp_path / "r.jsonl"
    args = ["batch", str(corpus / "tcga" / "question" / "taai2011.txt"), "--out", str(out), "--jobs", "2"]
    command = start(args, tmp_path)
    time.sleep(STARTED + 2)  # past the reading, into the solving
    assert command.poll() is None
    before = in_group(command.pid)
    os.kill(command.pid, signal.SIGTERM)
    _, stderr = waited(command, f"nonosat batch was still running {HANG} s after SIGTERM")
    settled = time.monotonic() + HANG
    while in_group(command.pid) and time.monotonic() < settled:
        time.sleep(0.05)
    assert command.returncode == 143, stderr
    assert "nonosat: terminated" in stderr and "run the same command again to resume" in stderr
    assert "leaked" not in stderr and "Warning" not in stderr and "Traceback" not in stderr, stderr
    assert len(before) >= 3 and in_group(command.pid) == []
    assert not (tmp_path / ".r.jsonl.lock").exists()
    kept = len(out.read_text().splitlines())
    assert 0 < kept < 1000
    # Ctrl-C and SIGTERM together, before the command ends (once it has ended, SIGTERM kills it
    # outright again): two handlers raised one KeyboardInterrupt each, the second inside the
    # first's unwinding (exit 70, "release unlocked lock"), and the message and the exit code
    # came from different signals (a diff review). Which is heard first is the kernel's choice.
    for signals in ((signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)):
        command = start(args, tmp_path)
        time.sleep(STARTED)
        for sig in signals:
            os.kill(command.pid, sig)
        _, stderr = waited(command, f"nonosat batch was still running {HANG} s after {signals}")
        said = "terminated" if command.returncode == 143 else "interrupted"
        assert command.returncode in (130, 143) and f"nonosat: {said}\n" in stderr, stderr
        assert "internal error" not in stderr and stderr.count("nonosat: ") == 1, stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "check --jobs 2", "batch --jobs 2"])
def test_a_command_started_ignoring_ctrl_c_keeps_ignoring_it(
    request: pytest.FixtureRequest, tmp_path: Path, name: str
) -> None:
    """Unix's convention, and Python's: a script's background job (`nonosat ... &`) is started
    with SIGINT ignored, so that Ctrl-C at the script's terminal is not for it. Then it goes on
    to its own end (here its time limit: unknown, exit 4, nothing written; a batch's records of
    unknown), its workers too: a race's rival, a batch's workers and their rivals."""
    out = tmp_path / "r.non"
    if name == "random":
        args = ["random", "--width", "100", "--height", "100", "-o", str(out), "--timeout", "4"]
    else:  # racing in two processes after a second
        corpus: Path = request.getfixturevalue("corpus")
        faase = corpus / "pynogram" / "frans_faase.txt"
        args = ["check", str(faase), "--timeout", "4", "--jobs", "2"]
        if name.startswith("batch"):
            (tmp_path / "hard").mkdir()
            for copy in ("a.txt", "b.txt"):
                (tmp_path / "hard" / copy).write_text(faase.read_text())
            args = [
                "batch",
                str(tmp_path / "hard"),
                "--out",
                str(tmp_path / "b.jsonl"),
                "--timeout",
                "4",
                "--jobs",
                "2",
            ]
    command = subprocess.Popen(
        ignoring_ctrl_c(args),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(2.0)
    assert command.poll() is None
    before = in_group(command.pid)
    assert len(before) > (name != "random"), before  # the race's worker and fork server as well
    os.killpg(command.pid, signal.SIGINT)
    time.sleep(0.5)
    assert command.poll() is None, command.stderr.read() if command.stderr else ""
    assert set(in_group(command.pid)) == set(before)
    _, stderr = waited(command, "the command did not end at its own time limit")
    assert command.returncode == (0 if name.startswith("batch") else 4), stderr
    assert "interrupted" not in stderr and "Traceback" not in stderr, stderr
    assert not out.exists()
    if name.startswith("batch"):
        statuses = [json.loads(line)["status"] for line in (tmp_path / "b.jsonl").read_text().splitlines()]
        assert statuses == ["unknown", "unknown"]
    settled = time.monotonic() + HANG
    while in_group(command.pid) and time.monotonic() < settled:
        time.sleep(0.05)
    assert in_group(command.pid) == []


@pytest.mark.slow
def test_a_worker_whose_parent_died_while_it_started_ends_at_once() -> None:
    """A review killed `batch` (kill -9) while its spawned workers were still importing: they
    took the process that adopted them for their parent and ran on for good. A batch worker is
    told its parent's id; finding another parent, it ends at once."""
    code = (
        "import os, time; from nonosat.processes import die_with_parent; "
        "die_with_parent(os.getppid() + 1 if os.getppid() != 1 else 2); time.sleep(60)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG * 3)
    assert done.returncode == 1, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["check Faase", "batch --jobs 2"])
def test_ctrl_c_at_any_moment_of_the_start(corpus: Path, tmp_path: Path, name: str) -> None:
    """Ctrl-C at moments spread over the first second, while the fork server, its resource
    tracker and the batch workers start: never a traceback from a half-started process, never
    an interrupt lost (each ran for seconds without one). The first tens of milliseconds, while
    Python itself starts and before any nonosat code runs, are left out."""
    faase = str(corpus / "pynogram" / "frans_faase.txt")  # minutes of SAT, past the compiled core's 64 cells
    for step in range(8):
        out = tmp_path / f"r{step}.jsonl"
        args = ["check", faase] if name.startswith("check") else ["batch", faase, "--out", str(out), "--jobs", "2"]
        command = start(args, tmp_path)
        time.sleep(0.15 + 0.13 * step)
        if command.poll() is not None:
            continue  # it ended first (the race can be quick): nothing to interrupt
        os.killpg(command.pid, signal.SIGINT)
        _, stderr = waited(command, f"Ctrl-C at {0.15 + 0.13 * step:.2f} s was lost")
        assert command.returncode == 130, (step, stderr)
        assert "Traceback" not in stderr and "Error" not in stderr, (step, stderr)


@pytest.mark.slow
def test_an_interrupted_command_removes_only_its_own_multiprocessing_folder(tmp_path: Path) -> None:
    """Ctrl-C removes the `pymp-*` folder the command made (atexit's cleanup does not run then: a
    review found one left at every interrupt), never one it was handed by a parent that forked it
    (the mend's review: a parent's folder went, and the parent's own cleanup failed)."""
    script = tmp_path / "forked.py"
    script.write_text(
        "import multiprocessing, os, sys\n"
        "from multiprocessing import util\n"
        "from nonosat.__main__ import _remove_multiprocessing_folder\n"
        "def child():\n"
        "    _remove_multiprocessing_folder()\n"
        "if __name__ == '__main__':\n"
        "    theirs = util.get_temp_dir()\n"
        "    process = multiprocessing.get_context('fork').Process(target=child)\n"
        "    process.start(); process.join()\n"
        "    kept = os.path.isdir(theirs)\n"
        "    _remove_multiprocessing_folder()\n"
        "    print(kept, os.path.isdir(theirs))\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, TMPDIR=str(tmp_path)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]
