"""Two checkouts of nonosat on the same puzzles in the same run: is one of them slower?

    git worktree add ../before-colour c303ee6
    python -m bench.versions ../before-colour . --sets taai2011,tcga2014 --first 250
    python -m bench.versions ../before-colour . --sets taai2011 --mode batch
    python -m bench.versions ../before-colour . --sets taai2011 --first 300 --mode stages
    python -m bench.versions ../before-colour . --startup 30

Each checkout's nonosat runs in a worker process of its own (bench/version_worker.py with
PYTHONPATH set to that checkout: A the first, B the second), started once and kept for the whole
run. In `single` mode (the default) the two take turns puzzle by puzzle, `solve(puzzle, jobs=1)`
on one core with no race: A then B on one puzzle, B then A on the next, and the whole set again
for each further round (default 2), so A, B, A, B on every puzzle and a drift of the machine's
speed falls on both. In `batch` mode each side solves the whole set through
`nonosat.batch.solve_many` (as `python -m bench` does), A, B, then B, A in the next round. In
`stages` mode they take turns as in `single`, but time each stage of a solve apart (line logic,
building the CNF, loading it, the first SAT solve, the 2x2 switch, checking the grid; each the
fastest of three runs), to find where a difference comes from.

Every grid either side returns is checked against the clues (by the nonosat running this
module), a `multiple` needs two different grids, and the two sides' verdicts must agree, with the
same grid for `unique`; a difference stops the run with exit code 1. Per set it prints each side's
total (each puzzle's fastest round), the ratio of the totals B/A, and the geometric mean of the
per-puzzle ratios B/A with its 95% confidence interval; beside it the same figure for A against
itself (its first round against its second), which shows how much the machine alone moves a
time. `--startup N` times the command `nonosat --help` of each checkout instead, N times each in
turn.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.sets import SETS
from bench.verdicts import corpus_root, display_name, puzzle_number
from bench.version_checkouts import DECIDED, VersionMismatch, Worker, check_answer, check_pair
from bench.version_times import SetComparison, Side, describe, describe_stages, geometric_mean
from nonosat import NonosatError, Puzzle, load_all
from nonosat.formats.atomic import write_text_atomic

TOURNAMENT_SETS = ("taai2011", "tcga2014", "icga2018", "taai2020")
MODES = ("single", "batch", "stages")
STAGES = ("line", "build", "load", "sat", "switch", "check")
"""The stages of version_worker.stage_times."""


def set_files(name: str) -> list[Path]:
    """The files of one of `python -m bench`'s sets."""
    return [path for pattern in SETS[name] for path in sorted(corpus_root().glob(pattern))]


def compare_set(
    name: str, workers: tuple[Worker, Worker], first: int | None, rounds: int, timeout: float | None, mode: str
) -> SetComparison:
    """Both checkouts on one set, interleaved, every answer checked."""
    puzzles, labels = read_both(name, workers, first)
    sides = (Side(), Side())
    answers: list[list[dict[str, Any]]] = [[], []]
    for round_ in range(rounds):
        if mode == "batch":
            order = (0, 1) if round_ % 2 == 0 else (1, 0)
            for s in order:
                reply = workers[s].call({"op": "batch", "jobs": os.cpu_count() or 1, "timeout": timeout})
                sides[s].walls.append(reply["wall"])
                sides[s].seconds.append([r["seconds"] for r in reply["answers"]])
                answers[s] = reply["answers"]
        else:
            for side in sides:
                side.seconds.append([0.0] * len(puzzles))
                side.cpu.append([0.0] * len(puzzles))
            answers = [[{}] * len(puzzles), [{}] * len(puzzles)]
            for index in range(len(puzzles)):
                order = (0, 1) if (index + round_) % 2 == 0 else (1, 0)
                for s in order:
                    reply = workers[s].call({"op": "solve", "index": index, "timeout": timeout})
                    sides[s].seconds[-1][index] = reply["seconds"]
                    sides[s].cpu[-1][index] = reply["cpu"]
                    answers[s][index] = reply
        for index, (puzzle, label) in enumerate(zip(puzzles, labels, strict=True)):
            a = check_answer(puzzle, label, "A", answers[0][index])
            b = check_answer(puzzle, label, "B", answers[1][index])
            check_pair(label, a, b)
    same = sum(x["stats"] == y["stats"] for x, y in zip(*answers, strict=True))
    verdicts = {s: sum(r["status"] == s for r in answers[1]) for s in (*DECIDED, "unknown")}
    return SetComparison(name, mode, labels, sides[0], sides[1], same, verdicts)


def read_both(name: str, workers: tuple[Worker, Worker], first: int | None) -> tuple[list[Puzzle], list[str]]:
    """Have both workers read a set, check that they hold the same puzzles, and read it here too."""
    files = set_files(name)
    puzzles: list[Puzzle] = []
    labels: list[str] = []
    for path in files:
        found = load_all(path)[:first]
        puzzles += found
        labels += [f"{display_name(path)}#{puzzle_number(p, i)}" for i, p in enumerate(found)]
    loaded = [w.call({"op": "load", "files": [str(f) for f in files], "first": first}) for w in workers]
    if loaded[0] != loaded[1] or loaded[0]["puzzles"] != len(puzzles):
        raise VersionMismatch(f"{name}: the two checkouts read different puzzles: {loaded}")
    return puzzles, labels


def compare_stages(
    name: str, workers: tuple[Worker, Worker], first: int | None, rounds: int, repeat: int = 3
) -> dict[str, Any]:
    """Both checkouts on one set stage by stage, turn by turn puzzle by puzzle as in `single`
    mode: each stage's total (each puzzle's fastest) and the geometric mean of its per-puzzle
    ratios B/A, over the puzzles that went through that stage."""
    puzzles, _labels = read_both(name, workers, first)
    best: list[dict[str, list[float]]] = [{stage: [math.inf] * len(puzzles) for stage in STAGES} for _ in workers]
    for round_ in range(rounds):
        for index in range(len(puzzles)):
            for s in (0, 1) if (index + round_) % 2 == 0 else (1, 0):
                reply = workers[s].call({"op": "stages", "index": index, "repeat": repeat})
                for stage in STAGES:
                    best[s][stage][index] = min(best[s][stage][index], reply[stage])
    row: dict[str, Any] = {"set": name, "mode": "stages", "puzzles": len(puzzles), "stages": {}}
    for stage in STAGES:
        a, b = best[0][stage], best[1][stage]
        both = [(x, y) for x, y in zip(a, b, strict=True) if x > 0 and y > 0]
        row["stages"][stage] = {
            "puzzles": len(both),
            "a_total_s": round(sum(a), 4),
            "b_total_s": round(sum(b), 4),
            "geomean": [round(x, 4) for x in geometric_mean([y / x for x, y in both])] if both else None,
        }
    return row


def startup_times(trees: tuple[Path, Path], runs: int) -> dict[str, Any]:
    """`nonosat --help` of each checkout, `runs` times each in turn (A, B, B, A, ...), after one
    warm-up run each; bytecode is cached in a temporary folder, never in the checkouts."""
    script = shutil.which("nonosat", path=str(Path(sys.executable).parent)) or shutil.which("nonosat")
    if script is None:
        raise NonosatError("no `nonosat` command on PATH: pip install -e . first")
    times: list[list[float]] = [[], []]
    with tempfile.TemporaryDirectory() as cache:
        envs = []
        for s, tree in enumerate(trees):
            env = dict(os.environ, PYTHONPATH=str(tree.resolve()), PYTHONPYCACHEPREFIX=str(Path(cache) / str(s)))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs.append(env)
        for run in range(runs + 1):
            for s in (0, 1) if run % 2 == 0 else (1, 0):
                started = time.perf_counter()
                subprocess.run([script, "--help"], env=envs[s], stdout=subprocess.DEVNULL, check=True)
                if run:  # the first is the warm-up, which also writes the bytecode
                    times[s].append(time.perf_counter() - started)
    pairs = [b / a for a, b in zip(*times, strict=True)]
    return {
        "runs": runs,
        "a_median_s": round(statistics.median(times[0]), 4),
        "b_median_s": round(statistics.median(times[1]), 4),
        "median_pair_ratio": round(statistics.median(pairs), 4),
        "geomean": [round(x, 4) for x in geometric_mean(pairs)],
    }


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.versions", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, metavar="A", help="a checkout of nonosat (the one before)")
    parser.add_argument("b", type=Path, metavar="B", help="another checkout (the one after)")
    parser.add_argument("--sets", default=",".join(TOURNAMENT_SETS), help="comma-separated sets of python -m bench")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N puzzles of each file")
    parser.add_argument("--rounds", type=int, default=2, help="times each side solves each puzzle (default 2)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per puzzle (default 60)")
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="single",
        help="single: solve, one core, turn by turn (default); batch: whole sets; stages: solve's stages",
    )
    parser.add_argument("--startup", type=int, metavar="N", help="time `nonosat --help` N times each instead")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    names = [name.strip() for name in args.sets.split(",") if name.strip()]
    problems = [f"unknown set {n}" for n in names if n not in SETS]
    problems += [f"{tree} is not a checkout of nonosat" for tree in (args.a, args.b) if not (tree / "nonosat").is_dir()]
    if args.rounds < 1:
        problems.append("--rounds must be at least 1")
    if args.json is not None and args.json.exists() and not args.force:
        problems.append(f"{args.json} already exists; use --force to overwrite it")
    if problems:
        print(f"bench.versions: {'; '.join(problems)}", file=sys.stderr)
        return 2
    settings: dict[str, Any] = {
        "a": str(args.a),
        "b": str(args.b),
        "python": sys.version.split()[0],
        "python-sat": _version("python-sat"),
    }
    if args.startup:
        result: dict[str, Any] = startup_times((args.a, args.b), args.startup)
        g = result["geomean"]
        print(
            f"nonosat --help, {args.startup} runs each: A median {result['a_median_s']} s, B median "
            f"{result['b_median_s']} s; B/A median of pairs {result['median_pair_ratio']}, "
            f"geometric mean {g[0]} (95% {g[1]}-{g[2]})"
        )
        rows = [result]
    else:
        settings.update(first=args.first, rounds=args.rounds, timeout=args.timeout, mode=args.mode)
        workers = (Worker("A", args.a), Worker("B", args.b))
        rows = []
        try:
            for name in names:
                if args.mode == "stages":
                    row = compare_stages(name, workers, args.first, args.rounds)
                    print(describe_stages(row), flush=True)
                else:
                    row = compare_set(name, workers, args.first, args.rounds, args.timeout, args.mode).row()
                    print(describe(row), flush=True)
                rows.append(row)
        except VersionMismatch as error:
            print(f"bench.versions: THE CHECKOUTS DISAGREE: {error}", file=sys.stderr)
            return 1
        finally:
            for worker in workers:
                worker.close()
    if args.json is not None:
        text = json.dumps({"settings": settings, "results": rows}, indent=2) + "\n"
        write_text_atomic(args.json, text, force=args.force)
    return 0


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


if __name__ == "__main__":
    sys.exit(main())
