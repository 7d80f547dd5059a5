"""What the tests of signals share (tests/test_signals_*.py): how long a command gets to be well
into its work before the signal, how long after it before it is taken to hang, and a command
interrupted in a subprocess of its own session, the signal going to its whole process group as a
terminal sends it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from bench.processes import in_group, start

HANG = 10.0
"""Seconds after a signal by which a command that has not ended is taken to hang."""

STARTED = 2.5
"""Seconds a command gets to be well into its work before the signal."""


def interrupt(
    args: list[str], cwd: Path, sig: int = signal.SIGINT, temporary: Path | None = None
) -> tuple[int, str, list[int], list[int]]:
    """Run `nonosat ARGS` (with `temporary` as its TMPDIR), send `sig` to its process group after
    STARTED seconds: the exit code, standard error, the processes of the group before the signal
    and those left after it."""
    env = None if temporary is None else dict(os.environ, TMPDIR=str(temporary))
    command = start(args, cwd, env)
    time.sleep(STARTED)
    assert command.poll() is None, (
        f"the command ended before the signal: {command.stderr.read() if command.stderr else ''}"
    )
    before = in_group(command.pid)
    if sig == signal.SIGKILL:
        command.kill()
    else:
        os.killpg(command.pid, sig)
    _, stderr = waited(command, f"nonosat {' '.join(args)} was still running {HANG} s after the signal")
    settled = time.monotonic() + HANG
    while in_group(command.pid) and time.monotonic() < settled:
        time.sleep(0.05)
    return command.returncode, stderr, before, in_group(command.pid)


def waited(process: subprocess.Popen[str], hang: str) -> tuple[str, str]:
    """What a process that was sent a signal printed (standard output and error) once it ended;
    if it has not within HANG seconds, its group is killed and the test fails with `hang`."""
    try:
        return process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(hang)
