"""`python -m bench.calibrate_rating`, which the README's `rate` section names, where there is
no corpus: one line and exit 1, not a traceback (a new user's review, in a fresh clone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_without_the_corpus_it_says_where_it_looked_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.calibrate_rating"],
        cwd=ROOT,
        env={"NONOSAT_CORPUS": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"bench.calibrate_rating: no line-solvable puzzles under {tmp_path} ")
    assert "NONOSAT_CORPUS" in line
