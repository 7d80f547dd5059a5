"""How long the generator's repair takes, against another checkout in the same run:
`python -m bench.repair_speed --against ../old-checkout [--cases smiley-70,random-90]`.

Each case (a picture of puzzles/ or a random picture, made line-solvable, or in colour) runs in
a fresh process of each checkout in turn (PYTHONPATH set to it: its own compiled core), which
times `from_image` or `random_puzzle` alone and prints the seconds and a digest of the puzzle
it made (the clues, the changed cells and the distance). Printed per case: both times, their
ratio (this / other) and whether the puzzles are the same; a speed change must not change the
puzzle. Without --against, this checkout alone.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

CASES = {
    "smiley-50": f"from_image({str(PUZZLES / 'smiley-picture.png')!r}, width=50, require='line')",
    "smiley-70": f"from_image({str(PUZZLES / 'smiley-picture.png')!r}, width=70, require='line', seed=3)",
    "smiley-100": f"from_image({str(PUZZLES / 'smiley-picture.png')!r}, width=100, require='line')",
    "random-90": "random_puzzle(90, 90, seed=6, require='line')",
    "colour-40": "random_puzzle(40, 40, colours=2, seed=5, require='line')",
    "colour-60": "random_puzzle(60, 60, colours=3, seed=8, require='line')",
}
"""The default cases; random 140x100 (beyond 126 cells a side) takes minutes: `--cases wide`."""
SLOW = {"wide": "random_puzzle(140, 100, seed=7, require='line')"}

PROGRAM = """
import hashlib, time
from nonosat.generate import from_image, random_puzzle
started = time.perf_counter()
made = {call}
seconds = time.perf_counter() - started
digest = repr((made.puzzle.rows, made.puzzle.columns, made.changed, round(made.distance, 6)))
print(seconds, hashlib.sha1(digest.encode()).hexdigest()[:12], len(made.changed))
"""


def run_case(tree: Path, call: str) -> tuple[float, str, int]:
    """One case in a fresh process of the checkout `tree`: seconds, digest, cells changed."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(call=call)], env=env, cwd=tree, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{tree}: {call} failed: {done.stderr.strip()[-500:]}")
    seconds, digest, changed = done.stdout.split()
    return float(seconds), digest, int(changed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.repair_speed", description=__doc__)
    parser.add_argument("--against", type=Path, help="another checkout of nonosat, run in turn")
    parser.add_argument("--cases", default=",".join(CASES), help=f"of {', '.join([*CASES, *SLOW])}")
    args = parser.parse_args(argv)
    everything = {**CASES, **SLOW}
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in everything]
    if unknown:
        parser.error(f"unknown cases: {', '.join(unknown)}")
    differ = 0
    print(f"{'case':12} {'this s':>8} {'other s':>8} {'ratio':>6}  same puzzle  changed")
    for name in names:
        mine = run_case(ROOT, everything[name])
        if args.against is None:
            print(f"{name:12} {mine[0]:8.2f} {'':>8} {'':>6}  {'':11}  {mine[2]}", flush=True)
            continue
        theirs = run_case(args.against.resolve(), everything[name])
        same = mine[1] == theirs[1]
        differ += not same
        ratio = mine[0] / theirs[0] if theirs[0] else float("inf")
        print(f"{name:12} {mine[0]:8.2f} {theirs[0]:8.2f} {ratio:6.3f}  {'yes' if same else 'NO':11}  {mine[2]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
