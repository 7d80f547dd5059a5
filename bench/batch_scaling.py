"""How `nonosat batch` scales with worker processes: throughput with --jobs 1, then --jobs N.

    python -m bench.batch_scaling                         # taai2011, all 1,000 puzzles, jobs 1 vs 2
    python -m bench.batch_scaling --set tcga2014 --first 300 --jobs 2

Both runs go through `nonosat.batch.run` on the same puzzles (a tournament file under the corpus),
one after the other, and must give the same statuses, solution counts and (for unique puzzles)
solution hashes; the wall-clock throughput of each and their ratio are printed (the issue's bar:
at least 1.7x with 2 jobs on this 2-core machine). With 2 or more jobs, a worker races a puzzle
still unsolved after 1 s (`nonosat.batch.work.RACE_AFTER`), and which solver wins decides which of
several solutions comes first, so hashes are compared only where the solution is unique.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.batch import run
from nonosat.formats.tournament import dump_tournament


def timed(path: Path, jobs: int) -> tuple[float, set[tuple[object, ...]]]:
    started = time.perf_counter()
    records = list(run([str(path)], jobs=jobs))
    seconds = time.perf_counter() - started
    return seconds, {
        (r["path"], r["status"], r["solutions"], r["solution_sha1"] if r["status"] == "unique" else None)
        for r in records
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.batch_scaling")
    parser.add_argument("--set", default="taai2011", help="a tournament set under tcga/question/ (default taai2011)")
    parser.add_argument("--first", type=int, default=1000, metavar="N", help="its first N puzzles (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="the parallel run's workers (default 2)")
    args = parser.parse_args(argv)
    puzzles = load_all(corpus_root() / "tcga" / "question" / f"{args.set}.txt")[: args.first]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{args.set}.txt"
        path.write_text(dump_tournament(puzzles))
        one, serial = timed(path, 1)
        many, parallel = timed(path, args.jobs)
    if serial != parallel:
        print("bench.batch_scaling: the two runs disagree", file=sys.stderr)
        return 1
    print(f"{args.set}, first {len(puzzles)} puzzles, same results in both runs")
    print(f"--jobs 1: {one:.1f} s, {len(puzzles) / one:.1f} puzzles/s")
    print(f"--jobs {args.jobs}: {many:.1f} s, {len(puzzles) / many:.1f} puzzles/s")
    print(f"speed-up: {one / many:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
