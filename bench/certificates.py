"""What a certificate costs: `python -m bench.certificates [FILES...] [--first N] [--drat-trim PATH]`.

For each puzzle (default: the webpbn survey puzzles of the corpus): the plain `check` in this
process on one core, then `check` with `certificate=` in the same encoding (the verdict again,
the whole formula and its proof), the proof's size, and the time `verify` takes with dratify
and, given `--drat-trim`, with drat-trim. Prints one line a puzzle and the totals; the ratio
that matters is certificate time over plain check time (the issue's bound: 10x on Gettys-sized
puzzles). A tournament file's puzzles are all taken, or the first N with --first; only the
unique ones are certified (none and multiple ones need no proof but a refutation or two grids).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.verdicts import corpus_root
from nonosat import check
from nonosat.certificate_check import verify
from nonosat.errors import CutShort
from nonosat.formats import load_all
from nonosat.model import Puzzle


def timed_check(puzzle: Puzzle, encoding: str) -> tuple[str, float]:
    started = time.perf_counter()
    status = check(puzzle, jobs=1, encoding=encoding, timeout=600).result.status.value
    return status, time.perf_counter() - started


def certified(puzzle: Puzzle, encoding: str, folder: Path) -> float:
    started = time.perf_counter()
    check(puzzle, jobs=1, encoding=encoding, timeout=600, certificate=folder, force=True)
    return time.perf_counter() - started


def checked(folder: Path, checker: str) -> float:
    started = time.perf_counter()
    verify(folder, checker)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.certificates", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="puzzle files (default: the corpus's webpbn/*.non)")
    parser.add_argument("--first", type=int, help="only the first N puzzles of each file")
    parser.add_argument("--encoding", default="automaton", choices=("automaton", "blocks"))
    parser.add_argument("--drat-trim", metavar="PATH", help="also check each proof with this drat-trim")
    args = parser.parse_args(argv)
    if args.drat_trim:
        import os

        os.environ["PATH"] = f"{Path(args.drat_trim).resolve().parent}{os.pathsep}{os.environ['PATH']}"
    paths = [Path(f) for f in args.files] or sorted((corpus_root() / "webpbn").glob("*.non"))
    rows: list[tuple[float, float, float, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="certificates-") as scratch:
        for path in paths:
            for number, puzzle in enumerate(load_all(path)[: args.first], start=1):
                status, alone = timed_check(puzzle, args.encoding)
                if status != "unique":
                    print(f"{path.name}#{number}: {status}, not certified")
                    continue
                folder = Path(scratch) / "cert"
                try:
                    made = certified(puzzle, args.encoding, folder)
                except CutShort as error:
                    print(f"{path.name}#{number}: check {alone:.3f} s, no certificate: {error}")
                    continue
                proof = folder / "unique.drat"
                bytes_, lines = proof.stat().st_size, len(proof.read_text().splitlines())
                one_dratify = checked(folder, "dratify")
                one_trim = checked(folder, "drat-trim") if args.drat_trim else float("nan")
                rows.append((alone, made, one_dratify, one_trim, bytes_))
                print(
                    f"{path.name}#{number} {puzzle.width}x{puzzle.height}: check {alone:.3f} s, certificate "
                    f"{made:.3f} s ({made / alone:.1f}x), proof {lines} lines {bytes_ / 1024:.1f} KiB, "
                    f"dratify {one_dratify:.3f} s, drat-trim {one_trim:.3f} s"
                )
    if not rows:
        return 1
    plain = [row[0] for row in rows]
    making = [row[1] for row in rows]
    by_dratify = [row[2] for row in rows]
    by_trim = [row[3] for row in rows]
    size = [row[4] for row in rows]
    ratios = sorted(m / p for m, p in zip(making, plain, strict=True))
    print(
        f"{len(rows)} unique puzzles ({args.encoding}): check {sum(plain):.2f} s, certificates {sum(making):.2f} s "
        f"({sum(making) / sum(plain):.1f}x; per puzzle median {statistics.median(ratios):.1f}x, most "
        f"{ratios[-1]:.1f}x), proofs {sum(size) / 1024:.0f} KiB (largest {max(size) / 1024:.0f} KiB), "
        f"dratify {sum(by_dratify):.2f} s, drat-trim {sum(by_trim):.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
