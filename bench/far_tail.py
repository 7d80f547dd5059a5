"""The far tail of issue 40, raced as `nonosat batch` races it:

    python -m bench.far_tail                              # this checkout, once
    python -m bench.far_tail --against ../before --runs 2

The puzzles are every one of the 150,000 fresh puzzles of bench/fresh_tournament.py's seeds
1001-1010 and 3001-3140 whose race took over 2.9 s in `nonosat batch --jobs 2` with the race
from 1 s (the records of 2026-11-26 and 2026-11-27, bench/README.md, "Block positions and shared
clauses..."): 28 puzzles, the whole population of that tail. Each is solved by
`solve(puzzle, jobs=2, race_after=1.0)`, the search and from 1 s its rival on a second core, as
a batch worker races a hard puzzle, in a worker process of each checkout
(bench/version_worker.py), taking turns puzzle by puzzle; every grid is checked against the
clues and the verdicts compared (exit 1 otherwise). Each run prints its sum, its slowest
puzzle and how many took over 6, 4 and 3 s (the issue's target: none over 6 s), with
`--verbose` every puzzle's time.

Which changes this judges fairly: a change that does nothing before 3 s into a race (a later
stage of the race, say) goes exactly as today's race until then, so puzzles picked by today's
race passing 3 s favour neither side. Any other change to the search is a new draw, and on
puzzles picked for being slow to today's search most new draws look better (regression to the
mean): judge it with `python -m bench.draws` first. These seeds were measurement seeds; with
this list they are a tuning pool, so measure a change that this list chose on fresh seeds
(3141 on) with `python -m bench.fresh_tournament`.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.fresh_tournament import fresh_set
from bench.version_checkouts import check_answer, check_pair, command, start_workers, with_workers
from nonosat import Puzzle, load_all
from nonosat.formats.tournament import dump_tournament

ROOT = Path(__file__).resolve().parent.parent

FAR_TAIL = (
    (3094, 863), (3031, 187), (3064, 115), (3130, 44), (3037, 731), (3099, 930), (3076, 242), (3088, 44),
    (3129, 139), (3023, 456), (3041, 326), (3082, 23), (3085, 916), (3083, 327), (3067, 634), (3111, 404),
    (3045, 435), (3057, 43), (3120, 891), (3106, 613), (3034, 969), (3052, 813), (3023, 365), (3080, 17),
    (3075, 236), (3092, 736), (3080, 144), (3138, 104),
)  # fmt: skip
"""(seed, index from 0) of each puzzle in its fresh set of 1,000 (`fresh_set(seed, 1000)`),
the fastest first as the batch records had them (2.92-13.09 s); named `fresh-SEED #INDEX+1` in
the output, as the records name them."""

OVER = (6.0, 4.0, 3.0)
"""The counts each run prints: puzzles over these many seconds."""


def label(seed: int, index: int) -> str:
    return f"fresh-{seed} #{index + 1}"


def far_tail_puzzles(keys: Sequence[tuple[int, int]] = FAR_TAIL) -> list[Puzzle]:
    """The puzzles of `keys`, each drawn again from its seed's fresh set."""
    sets: dict[int, list[Puzzle]] = {}
    for seed, _ in keys:
        if seed not in sets:
            sets[seed] = fresh_set(seed, 1000)
    return [sets[seed][index] for seed, index in keys]


def run_summary(name: str, times: Sequence[float]) -> str:
    """One run of one side: the sum, the slowest, and the counts over OVER."""
    counts = ", ".join(f"{sum(t > over for t in times)} over {over:g} s" for over in OVER)
    return f"{name}: {len(times)} puzzles, {sum(times):.1f} s in all, slowest {max(times):.2f} s; {counts}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.far_tail", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout of nonosat to race every puzzle too")
    parser.add_argument("--runs", type=int, default=1, help="rounds over the puzzles (a race's time varies)")
    parser.add_argument("--first", type=int, help="only the first N puzzles of the list")
    parser.add_argument("--race-after", type=float, default=1.0, help="seconds before the rival starts")
    parser.add_argument("--timeout", type=float, default=60.0, help="per puzzle")
    parser.add_argument("--verbose", action="store_true", help="every puzzle's time")
    args = parser.parse_args(argv)
    keys = FAR_TAIL[: args.first]
    puzzles = far_tail_puzzles(keys)
    sides = [("this", ROOT)] + ([("against", args.against)] if args.against else [])
    names = [name for name, _ in sides]
    with tempfile.TemporaryDirectory(prefix="far-tail-") as scratch:
        path = Path(scratch) / "far-tail.txt"
        path.write_text(dump_tournament(puzzles))
        if [(p.rows, p.columns) for p in load_all(path)] != [(p.rows, p.columns) for p in puzzles]:
            raise SystemExit("the far tail's puzzles did not survive the tournament format")
        workers = start_workers(sides)

        def work() -> None:
            for worker in workers:
                worker.call({"op": "load", "files": [str(path)], "first": None})
            for run in range(args.runs):
                times: list[list[float]] = [[] for _ in workers]
                for turn, (puzzle, key) in enumerate(zip(puzzles, keys, strict=True)):
                    order = range(len(workers)) if (run + turn) % 2 == 0 else reversed(range(len(workers)))
                    answers = {}
                    for side in order:
                        command = {"op": "race", "index": turn, "timeout": args.timeout, "race_after": args.race_after}
                        reply = workers[side].call(command)
                        times[side].append(float(reply["seconds"]))
                        answers[side] = check_answer(puzzle, label(*key), names[side], reply)
                    if len(workers) == 2:
                        check_pair(label(*key), answers[0], answers[1])
                    if args.verbose:
                        said = "; ".join(f"{names[s]} {times[s][-1]:.2f} s {answers[s][0]}" for s in sorted(answers))
                        print(f"  {label(*key)}: {said}", flush=True)
                for side, name in enumerate(names):
                    print(f"run {run + 1}, " + run_summary(name, times[side]), flush=True)

        return with_workers(workers, work)


if __name__ == "__main__":
    command(main)
