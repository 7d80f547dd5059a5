"""Every colour puzzle the benchmarks know, in one `nonosat batch --jobs 1` against pbnsolve once per
file: `python -m bench.colour_batch --pbnsolve PATH`.

The puzzles: the colour corpus and `python -m bench`'s generated colour sets (`colour`,
`colour-noise`), the fresh sets of bench/fresh_colour.py (noise seeds 5-9, picture seeds 3-5) and
the large colour pictures (100x100 to 300x300, 2 to 4 colours). Each is written as an XML file
(the colour format both read) into one folder; `nonosat batch --jobs 1 FOLDER` is timed as a whole
command (its start and reading every file included), pbnsolve as one process per file (its start
included), and their verdicts compared file by file. The issue's target: batch at most 1.0x
pbnsolve's time, every verdict agreeing where both decide.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bench import sets
from bench.colour_set import colour_set, noise_set
from bench.peer_pbnsolve import pbnsolve_path, read_answer
from nonosat import Puzzle
from nonosat.formats import dumps


def every_colour_puzzle() -> list[tuple[str, Puzzle]]:
    """(name, puzzle) of every puzzle of the sets above, colour ones only."""
    found = sets.set_puzzles("colour", None)[0] + sets.set_puzzles("colour-noise", None)[0]
    fresh = noise_set(seeds=(5, 6, 7, 8, 9)) + [p for seed in (3, 4, 5) for p in colour_set(seed=seed)]
    fresh += colour_set(sizes=(100, 200, 300), colour_counts=(2, 3, 4))
    found += [(f"fresh {p.name}", p) for p in fresh]
    return [(name, puzzle) for name, puzzle in found if puzzle.is_colour]


def write_all(puzzles: list[tuple[str, Puzzle]], folder: Path) -> list[Path]:
    """Each puzzle's clues as folder/NNNN.xml (no DOCTYPE: pbnsolve would fetch it)."""
    paths = []
    for number, (_, puzzle) in enumerate(puzzles):
        text = dumps(replace(puzzle, goal=None), "xml")
        path = folder / f"{number:04d}.xml"
        path.write_text("".join(line for line in text.splitlines(True) if not line.startswith("<!DOCTYPE")))
        paths.append(path)
    return paths


def run_batch(folder: Path, out: Path, timeout: float) -> tuple[float, dict[str, str]]:
    """The whole `nonosat batch --jobs 1` command's time and each file's status."""
    out.unlink(missing_ok=True)
    command = [sys.executable, "-m", "nonosat", "batch", "--jobs", "1", "--out", str(out), str(folder)]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False, timeout=timeout)
    took = time.perf_counter() - started
    records = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return took, {Path(r["path"]).name: r["status"] for r in records}


def run_pbnsolve(
    paths: list[Path], puzzles: list[tuple[str, Puzzle]], binary: str, timeout: float
) -> tuple[float, dict[str, str]]:
    """pbnsolve's time over every file, one process each, and each file's verdict."""
    verdicts: dict[str, str] = {}
    total = 0.0
    for path, (_, puzzle) in zip(paths, puzzles, strict=True):
        chars = {colour.char: index for index, colour in enumerate(puzzle.palette)}
        started = time.perf_counter()
        try:
            done = subprocess.run([binary, "-u", str(path)], capture_output=True, text=True, timeout=timeout)
            status = read_answer(done.stdout, puzzle.height, chars)[0]
        except subprocess.TimeoutExpired:
            status = "unknown"
        total += time.perf_counter() - started
        verdicts[path.name] = status
    return total, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.colour_batch", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbnsolve", metavar="PATH", help="pbnsolve's binary (default $PBNSOLVE)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side; the best is reported")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for pbnsolve on one file")
    args = parser.parse_args(argv)
    binary = pbnsolve_path(args.pbnsolve)
    puzzles = every_colour_puzzle()
    with tempfile.TemporaryDirectory(prefix="colour-batch-") as name:
        folder = Path(name) / "puzzles"
        folder.mkdir()
        paths = write_all(puzzles, folder)
        runs = [run_batch(folder, Path(name) / "out.jsonl", 600) for _ in range(args.runs)]
        peer = [run_pbnsolve(paths, puzzles, binary, args.timeout) for _ in range(args.runs)]
    ours, by_ours = min(runs)[0], runs[0][1]
    theirs, by_theirs = min(peer)[0], peer[0][1]
    decided = [p.name for p in paths if "unknown" not in (by_ours.get(p.name, "missing"), by_theirs[p.name])]
    wrong = [name for name in decided if by_ours.get(name) != by_theirs[name]]
    print(
        f"{len(puzzles)} colour puzzles: nonosat batch --jobs 1 {ours:.2f} s (best of {args.runs}: "
        f"{', '.join(f'{t:.2f}' for t, _ in runs)}), pbnsolve per file {theirs:.2f} s "
        f"({', '.join(f'{t:.2f}' for t, _ in peer)}): {ours / theirs:.2f}x; {len(decided)} decided by both, "
        f"{len(decided) - len(wrong)} agree"
    )
    for name in wrong:
        number = int(name.split(".")[0])
        print(f"  disagree: {puzzles[number][0]}: nonosat {by_ours.get(name)}, pbnsolve {by_theirs[name]}")
    undecided = [p.name for p in paths if p.name not in decided]
    for name in undecided:
        number = int(name.split(".")[0])
        print(f"  undecided: {puzzles[number][0]}: nonosat {by_ours.get(name)}, pbnsolve {by_theirs[name]}")
    return 1 if wrong or len(by_ours) != len(paths) else 0


if __name__ == "__main__":
    sys.exit(main())
