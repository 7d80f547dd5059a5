"""The command line run in a process of its own, as the tests of its faults run it, and the one
clean line it must print for bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"
FOREVER = PUZZLES / "webpbn-06574-forever.non"


def nonosat(
    *args: str, cwd: Path | None = None, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nonosat", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120
    )


def into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line writing its standard output into a pipe whose reader is gone (every
    write fails with EPIPE), as `nonosat ... | head -1` leaves it."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return nonosat(*args, stdout=write_end)
    finally:
        os.close(write_end)


def one_clean_line(stderr: str) -> None:
    assert len(stderr.splitlines()) == 1, stderr
    assert "Traceback" not in stderr and stderr.startswith("nonosat: ")
