"""What a command leaves behind when it ends by itself: nothing of its own still running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.processes import in_group
from nonosat.solver import race as portfolio

ROOT = Path(__file__).resolve().parent.parent


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.slow
@pytest.mark.skipif(not portfolio.can_race(), reason="racing needs a fork server and two cores")
def test_a_command_that_raced_has_ended_its_fork_server_when_it_exits(corpus: Path) -> None:
    """A review: `nonosat check frans_faase --timeout 0.3 | cat` took 0.4-0.5 s. The fork server,
    started for the race and still importing its preload, held the command's standard output
    open after the command's exit, until it looked for its owner. It is ended with the command.
    The shortest time limit at which the search got to start its fork server counts (on a loaded
    machine, the command may not get that far in 0.45 s)."""
    for timeout in ("0.45", "0.6", "1", "2"):
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nonosat",
                "check",
                str(corpus / "pynogram" / "frans_faase.txt"),
                "--timeout",
                timeout,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        started: list[int] = []
        while process.poll() is None:
            started += [
                pid for pid in in_group(process.pid) if "forkserver" in command_line(pid) and pid not in started
            ]
        process.wait()
        assert process.returncode == 4, process.stderr.read() if process.stderr else ""  # unknown: time is up
        if started:
            left = [pid for pid in in_group(process.pid) if "forkserver" in command_line(pid)]
            assert left == [], [command_line(pid) for pid in left]  # (the resource tracker ends by itself)
            return
    pytest.fail("the search started no fork server at any time limit: the test shows nothing")
