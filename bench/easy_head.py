"""The easy head against pbnsolve: whole commands, start-up included, as people run them.

    python -m bench.easy_head --pbnsolve ~/pbnsolve/src/pbnsolve
    python -m bench.easy_head --sets taai2011,icga2018 --runs 5 --json head.json

pbnsolve 1.10 (Jan Wolter's C solver, `pbnsolve -b -u FILE`: the verdict, unique or multiple)
is built from its source (`make` in its `src/`, with libxml2) and named by `--pbnsolve` or
$PBNSOLVE. It reads one puzzle a file, so it runs once per file, as a loop of processes.

- Tournament heads: the first `--first` puzzles (100) of each tournament set, written as `.non`
  files in a temporary folder; `nonosat batch --jobs 1 FOLDER --out -` against pbnsolve once per
  file. Issue 19's target: nonosat faster on every set.
- The line-solvable corpus: every corpus puzzle line logic finishes that pbnsolve reads (`.non`,
  `.nin`); the same two commands over those files.
- `check FILE` on each line-solvable puzzle up to 50x50: the installed `nonosat check FILE`
  (its fastest of `--runs`), against the target of 0.1 s and pbnsolve on the same file.

Each side runs `--runs` times in turn (ours, theirs, ours...), and the fastest run counts. Every
verdict is compared: pbnsolve's `unique`/`multiple` against nonosat's records; a disagreement
stops the run with exit code 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.cli_times import line_solvable
from bench.verdicts import corpus_root
from nonosat import load, load_all
from nonosat.formats import dumps
from nonosat.formats.atomic import write_text_atomic

TOURNAMENT_SETS = tuple(path.stem for path in sorted((corpus_root() / "tcga" / "question").glob("*.txt")))
CHECK_LIMIT = 0.1
"""Seconds: the target for `nonosat check FILE` on a line-solvable puzzle up to 50x50."""
PBNSOLVE_READS = (".non", ".nin")
PARTS = ("heads", "line-solvable", "check")


def timed(command: list[str]) -> tuple[float, str]:
    """Wall-clock seconds of a command, and its standard output; an exit over 1 is an error
    (0 unique, 1 multiple)."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd="/")
    took = time.perf_counter() - started
    if done.returncode > 1:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-300:]}")
    return took, done.stdout


def pbnsolve_loop(pbnsolve: str, files: Sequence[Path]) -> tuple[float, dict[str, str]]:
    """pbnsolve once per file: the wall-clock time of the loop, and each file's verdict."""
    verdicts = {}
    started = time.perf_counter()
    for file in files:
        done = subprocess.run([pbnsolve, "-b", "-u", str(file)], capture_output=True, text=True, cwd="/")
        verdicts[str(file)] = pbnsolve_verdict(done.stdout, done.returncode)
    return time.perf_counter() - started, verdicts


def pbnsolve_verdict(text: str, code: int) -> str:
    """pbnsolve's terse answer (`unique logical`, `trivial unique`, `unique depth-2`, `multiple`,
    `contradiction`...) in nonosat's words."""
    words = text.split()
    for word, status in (("unique", "unique"), ("multiple", "multiple"), ("contradiction", "none")):
        if word in words:
            return status
    return f"{' '.join(words[-3:])} (exit {code})"


def nonosat_batch(nonosat: str, targets: Sequence[str]) -> tuple[float, dict[str, str]]:
    """`nonosat batch --jobs 1 ... --out -`: its wall-clock time, and each puzzle's status."""
    took, out = timed([nonosat, "batch", "--jobs", "1", *targets, "--out", "-"])
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return took, {str(Path(record["path"]).resolve()): str(record["status"]) for record in records}


def compare(name: str, ours: dict[str, str], theirs: dict[str, str]) -> int:
    """How many verdicts agree; a disagreement ends the run."""
    agree = 0
    for file, verdict in theirs.items():
        mine = ours.get(str(Path(file).resolve()))
        if mine != verdict:
            raise SystemExit(f"{name}: {file}: nonosat says {mine}, pbnsolve {verdict}")
        agree += 1
    return agree


def race(runs: int, ours: list[str], pbnsolve: str, files: Sequence[Path], name: str) -> dict[str, object]:
    """Both sides `runs` times in turn; the fastest of each, and the verdicts compared."""
    best_ours = best_theirs = float("inf")
    for _ in range(runs):
        took, mine = nonosat_batch(ours[0], ours[1:])
        best_ours = min(best_ours, took)
        took, theirs = pbnsolve_loop(pbnsolve, files)
        best_theirs = min(best_theirs, took)
    agree = compare(name, mine, theirs)
    return {"set": name, "puzzles": len(files), "nonosat": best_ours, "pbnsolve": best_theirs, "agree": agree}


def tournament_heads(args: argparse.Namespace, folder: Path) -> list[dict[str, object]]:
    rows = []
    for name in args.sets:
        puzzles = load_all(corpus_root() / "tcga" / "question" / f"{name}.txt")[: args.first]
        here = folder / name
        here.mkdir()
        files = []
        for number, puzzle in enumerate(puzzles, start=1):
            file = here / f"{number:04d}.non"
            file.write_text(dumps(puzzle, "non"))
            files.append(file)
        rows.append(race(args.runs, [args.nonosat, str(here)], args.pbnsolve, files, name))
        show(rows[-1])
    return rows


def show(row: dict[str, object]) -> None:
    ours, theirs = float(str(row["nonosat"])), float(str(row["pbnsolve"]))
    print(
        f"{row['set']:<14} {row['puzzles']:>5} {ours:>9.3f} {theirs:>9.3f} {ours / theirs:>6.2f} {row['agree']:>6}",
        flush=True,
    )


def check_times(args: argparse.Namespace, files: Sequence[Path]) -> list[dict[str, object]]:
    rows = []
    for file in files:
        ours = theirs = float("inf")
        for _ in range(args.runs):
            ours = min(ours, timed([args.nonosat, "check", str(file)])[0])
            theirs = min(theirs, pbnsolve_loop(args.pbnsolve, [file])[0])
        rows.append({"file": str(file.relative_to(corpus_root())), "nonosat": ours, "pbnsolve": theirs})
    return rows


def longest_side(path: Path) -> int:
    puzzle = load(path)
    return max(puzzle.width, puzzle.height)


def report_checks(checks: list[dict[str, object]], largest: int) -> None:
    ours = [float(str(row["nonosat"])) for row in checks]
    theirs = [float(str(row["pbnsolve"])) for row in checks]
    over = sum(time > CHECK_LIMIT for time in ours)
    print(f"\nnonosat check FILE, {len(checks)} line-solvable puzzles up to {largest}x{largest}:")
    print(f"  nonosat median {statistics.median(ours):.3f} s, max {max(ours):.3f} s, over {CHECK_LIMIT} s: {over}")
    print(f"  pbnsolve median {statistics.median(theirs):.3f} s, max {max(theirs):.3f} s")
    for row in sorted(checks, key=lambda r: -float(str(r["nonosat"])))[:5]:
        print(f"  {float(str(row['nonosat'])):.3f}  {float(str(row['pbnsolve'])):.3f}  {row['file']}")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.easy_head", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbnsolve", default=os.environ.get("PBNSOLVE") or shutil.which("pbnsolve"))
    parser.add_argument("--nonosat", default=shutil.which("nonosat"), help="the nonosat command (default: on PATH)")
    parser.add_argument("--sets", default=",".join(TOURNAMENT_SETS), help="tournament sets (default: all 24)")
    parser.add_argument("--first", type=int, default=100, help="puzzles from the start of each set (default 100)")
    parser.add_argument("--runs", type=int, default=3, help="runs per side; the fastest counts (default 3)")
    parser.add_argument("--largest", type=int, default=50, help="check FILE on puzzles up to this side (default 50)")
    parser.add_argument("--parts", default="heads,line-solvable,check", help="which of the three (default: all)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--force", action="store_true", help="overwrite --json")
    args = parser.parse_args(argv)
    args.sets = [name for name in args.sets.split(",") if name]
    args.parts = set(args.parts.split(","))
    if not args.parts <= set(PARTS):
        parser.error(f"--parts takes {', '.join(PARTS)}")
    unknown = set(args.sets) - set(TOURNAMENT_SETS)
    if unknown:
        parser.error(f"no tournament set {', '.join(sorted(unknown))}; the sets are {', '.join(TOURNAMENT_SETS)}")
    if not args.pbnsolve or not Path(args.pbnsolve).is_file():
        parser.error("pbnsolve not found: build it (make in its src/) and give --pbnsolve PATH or $PBNSOLVE")
    if not args.nonosat:
        parser.error("no nonosat command on PATH: pip install . first, or give --nonosat")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    print(f"nonosat batch --jobs 1 against pbnsolve -b -u once per file; fastest of {args.runs} runs")
    print(f"{'set':<14} {'files':>5} {'nonosat':>9} {'pbnsolve':>9} {'ratio':>6} {'agree':>6}")
    heads: list[dict[str, object]] = []
    whole: dict[str, object] = {}
    checks: list[dict[str, object]] = []
    if "heads" in args.parts:
        with tempfile.TemporaryDirectory(prefix="nonosat-head-") as temporary:
            heads = tournament_heads(args, Path(temporary))
    easy = [path for path in line_solvable(100) if path.suffix in PBNSOLVE_READS] if args.parts - {"heads"} else []
    if "line-solvable" in args.parts:
        whole = race(args.runs, [args.nonosat, *map(str, easy)], args.pbnsolve, easy, "line-solvable")
        show(whole)
    if "check" in args.parts:
        small = [path for path in easy if longest_side(path) <= args.largest]
        checks = check_times(args, small)
        report_checks(checks, args.largest)
    if args.json:
        figures = {"runs": args.runs, "heads": heads, "line_solvable": whole, "check": checks}
        write_text_atomic(args.json, json.dumps(figures, indent=2) + "\n", force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
