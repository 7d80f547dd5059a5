"""End-to-end command-line times on the puzzles line logic solves, against the peer's command.

    python -m bench.cli_times                  # every line-solvable corpus puzzle up to 100x100
    python -m bench.cli_times --runs 5 --json cli.json

The target (issue 3): a line-solvable puzzle up to 100x100 takes under 0.3 s from the command
line, start-up included. For each such puzzle (line logic finishes it, both sides at most 100
cells) this runs, as a user would, the installed `nonosat solve FILE` and the peer's command
`python -m bench.peer_cpsat FILE` (OR-tools CP-SAT with its uniqueness check), each `--runs`
times in turn with output to /dev/null, and keeps each side's fastest run. It prints the median
and the slowest puzzles, how many take over 0.3 s, and the ratio of total times nonosat/peer.
A run that exits other than 0 (unique) is an error, not a time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench.verdicts import corpus_root
from nonosat import NonosatError, load_all
from nonosat.formats.atomic import write_text_atomic
from nonosat.solver.propagation import Contradiction, line_solve

SETS = ("webpbn/*.non", "jwilk/*.nin", "nonogram-db/**/*.non", "minizinc/*.dzn", "pynogram/*.txt")
LIMIT = 0.3
"""Seconds: the target for a line-solvable puzzle, end to end."""


def line_solvable(largest: int) -> list[Path]:
    """The corpus files holding one black-and-white puzzle that line logic finishes, at most
    `largest` cells a side."""
    found = []
    for pattern in SETS:
        for path in sorted(corpus_root().glob(pattern)):
            try:
                puzzles = load_all(path)
            except NonosatError:
                continue
            if len(puzzles) != 1 or puzzles[0].is_colour or max(puzzles[0].width, puzzles[0].height) > largest:
                continue  # the peer is black and white (pynogram's apples.txt and uk.txt are colour)
            try:
                if line_solve(puzzles[0]).is_complete():
                    found.append(path)
            except Contradiction:
                continue
    return found


def best_time(command: list[str], runs: int) -> float:
    """The fastest of `runs` wall-clock times of a command that must exit 0."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/")
        took = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
        best = min(best, took)
    return best


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.cli_times", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per puzzle and side; the fastest counts (default 3)")
    parser.add_argument("--largest", type=int, default=100, help="the most cells on a side (default 100)")
    parser.add_argument("--nonosat", default=shutil.which("nonosat"), help="the nonosat command (default: on PATH)")
    parser.add_argument("--json", type=Path, help="write every puzzle's times here")
    parser.add_argument("--force", action="store_true", help="overwrite --json")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    if not args.nonosat:
        raise SystemExit("no nonosat command on PATH: pip install . first, or give --nonosat")
    files = line_solvable(args.largest)
    repo = Path(__file__).resolve().parent.parent
    rows: list[dict[str, float | str]] = []
    for path in files:
        ours = best_time([args.nonosat, "solve", str(path)], args.runs)
        peer = best_time([sys.executable, str(repo / "bench" / "peer_cpsat.py"), str(path)], args.runs)
        rows.append({"file": str(path.relative_to(corpus_root())), "nonosat": ours, "peer": peer})
    ours_times = [float(row["nonosat"]) for row in rows]
    peer_times = [float(row["peer"]) for row in rows]
    over = [time for time in ours_times if time > LIMIT]
    print(f"{len(rows)} line-solvable puzzles up to {args.largest}x{args.largest}, fastest of {args.runs} runs each")
    print(
        f"nonosat: median {statistics.median(ours_times):.3f} s, "
        f"max {max(ours_times):.3f} s, over {LIMIT} s: {len(over)}"
    )
    print(f"peer:    median {statistics.median(peer_times):.3f} s, max {max(peer_times):.3f} s")
    print(
        f"total nonosat/peer: {sum(ours_times):.1f} s / "
        f"{sum(peer_times):.1f} s = {sum(ours_times) / sum(peer_times):.3f}"
    )
    print("slowest (nonosat s, peer s):")
    for row in sorted(rows, key=lambda r: -float(r["nonosat"]))[:8]:
        print(f"  {row['nonosat']:.3f}  {row['peer']:.3f}  {row['file']}")
    if args.json:
        write_text_atomic(
            args.json, json.dumps({"runs": args.runs, "puzzles": rows}, indent=2) + "\n", force=args.force
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
