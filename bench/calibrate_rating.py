"""Recompute the cut points of `nonosat rate`'s 1-3 scores for line-solvable puzzles.

    python -m bench.calibrate_rating

For every corpus puzzle up to 100x100 in webpbn, nonogram-db and jwilk that line logic alone
solves, it takes the line passes per line (`Rating.passes_per_line`) and prints the first and
second thirds of their distribution; `nonosat.explain.rating.PASS_CUTS` holds these figures.
"""

from __future__ import annotations

import statistics
import sys

from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.errors import NonosatError
from nonosat.explain.steps import trace

PATTERNS = ("webpbn/*.non", "nonogram-db/**/*.non", "jwilk/*.nin")
LARGEST = 100


def main() -> int:
    ratios = []
    for pattern in PATTERNS:
        for path in sorted(corpus_root().glob(pattern)):
            try:
                puzzles = load_all(path)
            except NonosatError:
                continue
            for puzzle in puzzles:
                if max(puzzle.width, puzzle.height) > LARGEST or puzzle.problems():
                    continue
                logic = trace(puzzle, probing=False)
                if logic.complete:
                    ratios.append(logic.passes / (puzzle.width + puzzle.height))
    if len(ratios) < 2:  # (a new user's review: a clone without the corpus beside it was a traceback)
        raise SystemExit(
            f"bench.calibrate_rating: no line-solvable puzzles under {corpus_root()} ({', '.join(PATTERNS)}): "
            "put ../shared beside the checkout, or set NONOSAT_CORPUS"
        )
    low, high = statistics.quantiles(ratios, n=3)
    print(f"{len(ratios)} line-solvable puzzles; passes per line: thirds at {low:.2f} and {high:.2f}")
    print(f"PASS_CUTS = ({low:.2f}, {high:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
