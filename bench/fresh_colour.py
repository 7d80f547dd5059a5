"""Colour puzzles nobody tuned on: `python -m bench.fresh_colour --pbnsolve PATH`.

The colour noise grids and random colour pictures of bench/colour_set.py, made with seeds other
than those of `python -m bench`'s colour sets (on which `auto`'s guesses were chosen), and large
colour pictures (100x100 to 300x300, 2 to 4 colours): each solved by `check` in this process
with `auto` and with the SAT engine, one core, and by pbnsolve once per file (its start
included); the totals, their ratios, and whether the verdicts agree.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from bench.colour_set import colour_set, noise_set
from bench.peer_pbnsolve import pbnsolve_answer, pbnsolve_path
from nonosat import Puzzle, check


def timed(puzzles: list[Puzzle], engine: str, timeout: float) -> tuple[float, list[str]]:
    check(puzzles[0], engine=engine, jobs=1)  # the imports and the first compile, out of the time
    started = time.perf_counter()
    verdicts = [check(p, engine=engine, jobs=1, timeout=timeout).result.status.value for p in puzzles]
    return time.perf_counter() - started, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fresh_colour", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbnsolve", metavar="PATH", help="pbnsolve's binary (default $PBNSOLVE)")
    parser.add_argument("--noise-seeds", default="5,6,7,8,9", help="seeds of the noise grids")
    parser.add_argument("--picture-seeds", default="3,4,5", help="seeds of the random pictures")
    parser.add_argument("--large-sizes", default="100,200,300", help="sides of the large pictures (seed 0)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for each side on each puzzle")
    args = parser.parse_args(argv)
    binary = pbnsolve_path(args.pbnsolve)
    noise = tuple(int(seed) for seed in args.noise_seeds.split(",") if seed)
    pictures = [int(seed) for seed in args.picture_seeds.split(",") if seed]
    sets = {
        f"noise, seeds {args.noise_seeds}": noise_set(seeds=noise),
        f"pictures, seeds {args.picture_seeds}": [p for seed in pictures for p in colour_set(seed=seed)],
    }
    large = [int(side) for side in args.large_sizes.split(",") if side]
    if large:
        sets[f"large pictures, {args.large_sizes}"] = colour_set(sizes=large, colour_counts=(2, 3, 4))
    disagree = 0
    for name, puzzles in sets.items():
        auto, by_auto = timed(puzzles, "auto", args.timeout)
        sat, by_sat = timed(puzzles, "sat", args.timeout)
        started = time.perf_counter()
        peer = [answer.status if (answer := pbnsolve_answer(p, args.timeout, binary)) else "unknown" for p in puzzles]
        theirs = time.perf_counter() - started
        decided = [(a, b) for a, b in zip(by_auto, peer, strict=True) if "unknown" not in (a, b)]
        disagree += sum(a != b for a, b in decided) + (by_auto != by_sat)
        print(
            f"{name}: {len(puzzles)} puzzles; auto {auto:.3f} s, sat {sat:.3f} s, pbnsolve {theirs:.3f} s "
            f"(auto/pbnsolve {auto / theirs:.2f}, sat/pbnsolve {sat / theirs:.2f}); "
            f"{len(decided)} decided by both, {sum(a == b for a, b in decided)} agree; "
            f"auto and sat agree: {by_auto == by_sat}"
        )
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
