"""What the command line prints for people: `--help` lists every command with a whole summary and
describes the time limit as it holds; into a pipe or a file, output is neither wrapped nor cut,
and two solutions mark the cells that differ without colour."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_shared import AMBIGUOUS, run

ROOT = Path(__file__).resolve().parent.parent


def test_the_timeout_is_described_as_it_holds() -> None:
    """A review found `batch --help` calling --timeout a limit for the whole command: in batch it
    holds for each puzzle (README), in solve for the whole command."""
    assert "A time limit for each puzzle" in run("batch", "--help")[1]
    assert "A time limit for the whole command" in run("solve", "--help")[1]


def test_help_lists_every_command_with_a_whole_summary() -> None:
    """Click cuts a summary that does not fit the terminal with "...": each command has its own
    short one, whole on an 80-column terminal."""
    import os

    from nonosat.cli.commands import ORDER

    env = dict(os.environ, COLUMNS="80")
    done = subprocess.run([sys.executable, "-m", "nonosat", "--help"], capture_output=True, text=True, env=env)
    listing = done.stdout.split("Commands:\n", 1)[1].splitlines()
    summaries = dict(line.split(None, 1) for line in listing if line.strip())
    assert tuple(summaries) == ORDER
    assert all(summary.endswith(".") and not summary.endswith("...") for summary in summaries.values()), summaries


@pytest.mark.slow  # 0.50 s in CI
def test_piped_output_is_not_wrapped_or_cut(tmp_path: Path) -> None:
    """A pipe or a file is no 80-column terminal: lines are as long as they are (unless COLUMNS
    says otherwise), and batch's progress line is whole."""
    import os

    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    check = ring_checked(env)
    differ = [line for line in check.stdout.splitlines() if "cells differ" in line]
    assert len(differ) == 1 and differ[0].endswith("(row 4, column 1), (row 4, column 3)")
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(30):
        (folder / f"puzzle-with-a-long-name-{n:02}.non").write_text(
            AMBIGUOUS if n % 3 else (ROOT / "puzzles" / "ring.non").read_text()
        )
    (folder / "broken.non").write_text("width 2\n")
    batch = subprocess.run(
        [sys.executable, "-m", "nonosat", "batch", str(folder), "--out", str(tmp_path / "r.jsonl"), "--jobs", "1"],
        capture_output=True,
        text=True,
        env=env,
    )
    progress = [line for line in batch.stderr.splitlines() if line.startswith("solving ·")]
    assert len(progress) == 1 and "solving · error 1 · multiple 30 " in progress[0] and " 31/31 " in progress[0]
    assert batch.stderr.startswith("solving 31 puzzles\n")  # a log's first line (no terminal here)
    narrow = subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"],
        capture_output=True,
        text=True,
        env=dict(env, COLUMNS="60"),
        cwd=ROOT,
    )
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60


def ring_checked(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`nonosat check puzzles/ring.non` (two solutions) in the environment `env`."""
    return subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_a_pipes_two_solutions_mark_the_cells_that_differ() -> None:
    """Red does not show in a pipe or a log: there a black-and-white cell that differs reads X
    (filled) or o (empty), as with --ascii (a review found the pipe's grids unmarked, where a
    colour puzzle's had its `differ` grid)."""
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"], capture_output=True, text=True, cwd=ROOT
    )
    grids = [line for line in done.stdout.splitlines() if line.strip() and line.lstrip()[0].isdigit()][2:6]
    marks = "".join(grids)
    assert len(grids) == 4 and marks.count("X") == 8 and marks.count("o") == 8, done.stdout
    # a terminal (as Rich takes FORCE_COLOR) with NO_COLOR: no red either (a review found bold)
    for no_colour, marked in ((False, 0), (True, 8)):
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env |= {"FORCE_COLOR": "1", "COLUMNS": "100"} | ({"NO_COLOR": "1"} if no_colour else {})
        done = ring_checked(env)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
        grids = [line for line in plain.splitlines() if line.strip() and line.lstrip()[0].isdigit()][2:6]
        assert "".join(grids).count("X") == marked, (no_colour, done.stdout)
