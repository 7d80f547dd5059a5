"""What the tests of the limits share (tests/test_limits_*.py): the command line run in a process of
its own, taken to hang when it runs `SLACK` seconds past its deadline (the bound the issue sets is
1 s; `python -m bench.faults` measures it, and bench/README.md has the figures)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SLACK = 4.0


def nonosat(*args: str, limit: float, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line; fail as a hang if it is still running `limit` + SLACK seconds on."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "nonosat", *args], capture_output=True, text=True, timeout=limit + SLACK, cwd=cwd
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"nonosat {' '.join(args)} ran past its deadline of {limit} s by {SLACK} s")
