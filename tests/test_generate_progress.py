"""Where a repair stands, shown while it runs: `generate` toward `unique` took a minute on a
sparse picture with nothing shown (a review)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat.generate import from_image, random_puzzle
from nonosat.generate.progress import told, watched

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def test_a_watched_repair_says_each_step_and_an_unwatched_one_nothing() -> None:
    heard: list[str] = []
    with watched(heard.append):
        made = random_puzzle(16, 12, density=0.3, seed=4, require="line")
    assert heard and all(line.startswith("toward a line-solvable puzzle: ") for line in heard)
    last = heard[-1].rsplit(": ", 1)[1].split(" · ")[0]  # the last step: every change made, nothing left open
    assert last == f"{len(made.changed)} changed, 0 open", heard[-3:]
    told("line", 1, 2)  # outside `watched`: no one hears it, and nothing fails
    with watched(None):
        told("line", 1, 2)


def test_once_a_puzzle_is_in_hand_each_line_says_the_closest_so_far() -> None:
    """A review: the closing tries of a colour picture at 60 wide ran for a minute, their line
    starting again at "0 changed" each, with no word that a puzzle was in hand after 8 s. From
    the first puzzle on, each line says the closest so far, which never moves further away, and
    the puzzle made is at least as close."""
    heard: list[str] = []
    with watched(heard.append):
        made = from_image(PUZZLES / "smiley-picture.png", width=16, require="line")
    first = next(i for i, line in enumerate(heard) if " · closest so far " in line)
    assert first > 0 and all(" · closest so far " in line for line in heard[first:])
    closest = []
    for line in heard[first:]:
        cells, distance = re.fullmatch(r".* · closest so far (\d+) cells? at ([\d.]+)", line).groups()  # type: ignore[union-attr]
        closest.append((float(distance), int(cells)))
    assert closest == sorted(closest, reverse=True) and len(set(closest)) > 1, heard
    assert (round(made.distance, 2), len(made.changed)) <= min(closest)


@pytest.mark.slow
def test_the_command_line_shows_it_on_a_terminal_and_in_a_pipe_now_and_then(tmp_path: Path) -> None:
    """On a terminal (Rich takes FORCE_COLOR for one) a line on standard error follows the repair
    and is gone at its end; into a pipe or a log, a line every LOG_EVERY seconds (30: none in a
    repair this short), then the result's line."""
    args = [sys.executable, "-m", "nonosat", "random", "--width", "16", "--height", "12", "--density", "0.3"]
    args += ["--seed", "4", "--require", "line", "-o", str(tmp_path / "r.non"), "--force"]
    for terminal in (True, False):
        env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR")}
        env |= {"FORCE_COLOR": "1"} if terminal else {}
        done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        assert ("toward a line-solvable puzzle: " in done.stderr) is terminal, done.stderr
        assert "unique (proved by line logic)" in done.stdout + done.stderr


@pytest.mark.slow
def test_in_a_pipe_the_repair_says_where_it_stands_every_log_every_seconds(tmp_path: Path) -> None:
    """A review: `generate --require unique` ran for minutes in a pipe without a word. Here with
    LOG_EVERY 0, a line at each step, each with the seconds so far."""
    script = (
        "import sys, nonosat.cli.making as making\n"
        "making.LOG_EVERY = 0.0\n"
        "sys.argv = ['nonosat', 'random', '--width', '16', '--height', '12', '--density', '0.3', '--seed', '4',"
        f" '--require', 'line', '-o', {str(tmp_path / 'r.non')!r}]\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stderr.splitlines() if line.startswith("toward a line-solvable puzzle: ")]
    assert len(steps) > 1 and all(line.endswith(" s") and " changed, " in line for line in steps), done.stderr
    assert steps[-1].split(" · ")[0].endswith(" changed, 0 open")  # the last step: nothing left open
