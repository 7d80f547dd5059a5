"""Large black-and-white grids: `python -m bench.large` (issue 37's targets).

Smoothed random pictures as Simon Tatham's Pattern draws them (each cell the 3x3 mean of random
numbers, the top half filled: nonosat.generate.random_picture, before any repair), of 100 to
200 cells a side, and the corpus's Cauldron (512x512). Each is written as a `.non` file, then
`nonosat check FILE --no-rating` runs on it as a user runs it (a fresh process, the cores the
machine has) and pbnsolve (`pbnsolve -u FILE`, one core: it has no other) in the same run, each
with the same time limit; the wall-clock time and the peak memory (resident set, from the
process's rusage) of each, and the verdicts, which must agree where both decide.

    python -m bench.large --pbnsolve ~/pbnsolve/src/pbnsolve --sides 100,130,160,200 --seeds 1,2
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from bench.peer_pbnsolve import pbnsolve_path, read_answer
from bench.verdicts import corpus_root
from nonosat.formats import dumps, load
from nonosat.generate.random_picture import random_picture
from nonosat.model import Puzzle

VERDICTS = ("unique", "multiple", "none", "unknown")


@dataclass(frozen=True)
class Run:
    verdict: str
    seconds: float
    peak_mb: float


GNU_TIME = "/usr/bin/time"
"""GNU time, which reports a child's peak memory from a small process of its own (a child forked
from this Python would count this Python's memory too)."""


def timed(command: list[str], timeout: float) -> tuple[str, float, float]:
    """A child's output, wall-clock seconds and peak resident memory in MB (0 without GNU time);
    killed at `timeout`, when its output is dropped."""
    measured = Path(GNU_TIME).is_file()
    started = time.perf_counter()
    child = subprocess.Popen(
        [GNU_TIME, "-f", "%M", *command] if measured else command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, 9)  # the command and anything it started
        child.communicate()
        return "", time.perf_counter() - started, 0.0
    took = time.perf_counter() - started
    lines = err.strip().splitlines()
    peak = int(lines[-1]) / 1024 if measured and lines and lines[-1].isdigit() else 0.0  # KB
    return out, took, peak


def ours(path: Path, timeout: float) -> Run:
    out, took, peak = timed([sys.executable, "-m", "nonosat", "check", str(path), "--no-rating"], timeout + 5)
    found = [word for line in out.splitlines() for word in VERDICTS if line.startswith(word)]
    return Run(found[0] if found else "unknown", took, peak)


def theirs(path: Path, puzzle: Puzzle, timeout: float, binary: str) -> Run:
    out, took, peak = timed([binary, "-u", str(path)], timeout)
    verdict, _ = read_answer(out, puzzle.height)
    return Run(verdict, took, peak)


def smoothed(side: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """A side x side picture, half filled, as Simon Tatham's Pattern draws one."""
    return random_picture(side, side, 0.5, 1, random.Random(seed))


def puzzles(sides: list[int], seeds: list[int], cauldron: bool) -> list[tuple[str, Puzzle]]:
    made = [(f"smoothed {n}x{n} seed {seed}", Puzzle.from_grid(smoothed(n, seed))) for n in sides for seed in seeds]
    path = corpus_root() / "webpbn" / "cauldron-512x512.non"
    if cauldron and path.is_file():
        made.append(("Cauldron 512x512", load(path)))
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.large", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbnsolve", metavar="PATH", help="pbnsolve's binary (default $PBNSOLVE)")
    parser.add_argument("--sides", default="100,130,160,200", help="sides of the smoothed pictures")
    parser.add_argument("--seeds", default="1,2", help="seeds of the smoothed pictures")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for each side on each puzzle")
    parser.add_argument("--no-cauldron", action="store_true", help="leave out the corpus's 512x512")
    args = parser.parse_args(argv)
    binary = pbnsolve_path(args.pbnsolve)
    sides = [int(side) for side in args.sides.split(",") if side]
    seeds = [int(seed) for seed in args.seeds.split(",") if seed]
    print("| puzzle | nonosat | s | MB | pbnsolve | s | MB | agree |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    disagree = 0
    with tempfile.TemporaryDirectory(prefix="bench-large-") as folder:
        for name, puzzle in puzzles(sides, seeds, not args.no_cauldron):
            path = Path(folder) / f"{name.replace(' ', '-')}.non"
            path.write_text(dumps(replace(puzzle, goal=None), "non"))  # the clues alone
            a, b = ours(path, args.timeout), theirs(path, puzzle, args.timeout, binary)
            decided = "unknown" not in (a.verdict, b.verdict)
            agree = "yes" if decided and a.verdict == b.verdict else "-" if not decided else "NO"
            disagree += agree == "NO"
            print(
                f"| {name} | {a.verdict} | {a.seconds:.2f} | {a.peak_mb:.0f} "
                f"| {b.verdict} | {b.seconds:.2f} | {b.peak_mb:.0f} | {agree} |",
                flush=True,
            )
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
