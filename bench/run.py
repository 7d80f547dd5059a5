"""The speed benchmark: nonosat against the CP-SAT peer, set by set, on the same files in one run.

    python -m bench                       # every set, all of each tournament set
    python -m bench --sets webpbn,minizinc --json today.json
    python -m bench --sets taai2011 --first 200 --mode single

Each set runs twice in fresh child processes, one after the other: once with nonosat, once with
the peer (OR-tools CP-SAT, one AddAutomaton per line, and a second solve with the first solution
blocked). Both sides get the same cores, used the same way (`--mode`):

- `batch` (default): N puzzles at a time, one core each, on N worker processes: nonosat through
  `nonosat.batch.solve_many`, the peer with one CP-SAT worker per puzzle. This is how a set is
  solved for throughput.
- `single`: one puzzle at a time with all N cores: nonosat's `solve(jobs=N)` (a race of two
  solvers on a puzzle past 0.1 s), CP-SAT with N workers. This is each puzzle's latency.

Every solution either side returns is checked against the clues, and the verdicts must agree; a
wrong answer is reported instead of a time. Printed per set: puzzles solved, verdicts, the set's
wall-clock time, the median and maximum time of one puzzle, each side's peak memory, the
ratio of wall-clock times nonosat/peer, and the ratio of summed puzzle times over the puzzles
both sides decided.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bench.verdicts import (
    PACKAGES,
    Answer,
    BadAnswer,
    Comparison,
    corpus_root,
    display_name,
    nonosat_answer,
    peer_answer,
    puzzle_number,
    warm_up,
)
from nonosat import NonosatError, Puzzle, load_all
from nonosat.batch import solve_many
from nonosat.formats.atomic import write_text_atomic

SETS: dict[str, list[str]] = {
    "webpbn": ["webpbn/*.non"],
    "jwilk": ["jwilk/*.nin"],
    "nonogram-db": ["nonogram-db/**/*.non"],
    "minizinc": ["minizinc/*.dzn"],
    "pynogram": ["pynogram/*.txt"],
    "taai2011": ["tcga/question/taai2011.txt"],
    "tcga2014": ["tcga/question/tcga2014.txt"],
    "icga2018": ["tcga/question/icga2018.txt"],
    "taai2020": ["tcga/question/taai2020.txt"],
}
"""The benchmark sets, as globs under the corpus root."""


def set_puzzles(name: str, first: int | None) -> tuple[list[tuple[str, Puzzle]], list[str]]:
    """The (label, puzzle) pairs of a set, and the files that could not be read, with why."""
    found: list[tuple[str, Puzzle]] = []
    skipped: list[str] = []
    for pattern in SETS[name]:
        for path in sorted(corpus_root().glob(pattern)):
            if path.name in ("SOURCE", "LICENSE") or path.suffix in (".md", ".out", ".survey"):
                continue
            try:
                puzzles = load_all(path)[:first]
            except NonosatError as error:
                skipped.append(f"{display_name(path)}: {error}")
                continue
            for index, puzzle in enumerate(puzzles):
                label = display_name(path) + (f"#{puzzle_number(puzzle, index)}" if len(puzzles) > 1 else "")
                found.append((label, puzzle))
    return found, skipped


MODES = ("batch", "single")


def side_answers(side: str, puzzles: list[Puzzle], timeout: float | None, jobs: int, mode: str) -> list[Answer]:
    """One side's answers on some puzzles, in their order, with the cores used as `mode` says."""
    if mode == "single":
        if side == "nonosat":
            return [nonosat_answer(puzzle, timeout, jobs) for puzzle in puzzles]
        return [peer_answer(puzzle, timeout, jobs) for puzzle in puzzles]
    if side == "nonosat":
        answers: dict[int, Answer] = {}
        for index, result in solve_many(puzzles, jobs=jobs, timeout=timeout):
            grids = tuple(solution.grid for solution in result.solutions)
            answers[index] = Answer(result.status.value, grids, result.seconds)
        return [answers[index] for index in range(len(puzzles))]  # a missing answer is a KeyError
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(_peer_answer_one_core, puzzles, [timeout] * len(puzzles), chunksize=4))


def _peer_answer_one_core(puzzle: Puzzle, timeout: float | None) -> Answer:
    return peer_answer(puzzle, timeout, 1)


def _run_side(
    side: str,
    name: str,
    first: int | None,
    timeout: float | None,
    jobs: int,
    mode: str,
    queue: multiprocessing.Queue[object],
) -> None:
    """In a child process: one side's answers on a whole set, the set's wall-clock time, and
    the peak memory of the largest process it ran (itself, or a worker)."""
    warm_up(jobs)
    puzzles, _ = set_puzzles(name, first)
    started = time.perf_counter()
    answers = side_answers(side, [puzzle for _label, puzzle in puzzles], timeout, jobs, mode)
    wall = time.perf_counter() - started
    peak_kib = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    queue.put((answers, wall, peak_kib))


def run_side(
    side: str, name: str, first: int | None, timeout: float | None, jobs: int, mode: str = "batch"
) -> tuple[list[Answer], float, int]:
    """Run one side on a set in a fresh process; returns its answers, the set's wall-clock
    seconds and the peak memory in KiB."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[object] = context.Queue()
    child = context.Process(target=_run_side, args=(side, name, first, timeout, jobs, mode, queue))
    child.start()
    while True:
        try:
            got: tuple[list[Answer], float, int] = queue.get(timeout=5)  # type: ignore[assignment]
            break
        except Exception:  # queue.Empty: is the child still there?
            if not child.is_alive():
                raise RuntimeError(f"the {side} process for set {name} died (exit code {child.exitcode})") from None
    child.join()
    return got


SLOWEST = 5
"""How many of a set's slowest puzzles the JSON names, per side."""


@dataclass(frozen=True)
class SetResult:
    """Both sides' answers on one set."""

    name: str
    labels: list[str]
    comparisons: list[Comparison]
    skipped: list[str]
    memory_kib: dict[str, int]
    wall_s: dict[str, float]

    def times(self, side: str) -> list[float]:
        return [getattr(c, side).seconds for c in self.comparisons]

    def row(self) -> dict[str, object]:
        """The figures of the set, as printed and as written to JSON."""
        ours, peer = self.times("nonosat"), self.times("peer")
        decided = [c for c in self.comparisons if c.nonosat.status in ("unique", "multiple", "none")]
        verdicts = {
            s: sum(c.nonosat.status == s for c in self.comparisons) for s in ("unique", "multiple", "none", "unknown")
        }
        return {
            "set": self.name,
            "puzzles": len(self.comparisons),
            "solved": len(decided),
            "agree": sum(c.agrees for c in self.comparisons),
            "peer_unknown": sum(c.peer.status == "unknown" for c in self.comparisons),
            "verdicts": verdicts,
            "nonosat": _summary(ours, self.wall_s["nonosat"], self.memory_kib["nonosat"]),
            "peer": _summary(peer, self.wall_s["peer"], self.memory_kib["peer"]),
            "ratio": round(self.wall_s["nonosat"] / self.wall_s["peer"], 4) if self.wall_s["peer"] else None,
            "ratio_decided": self.ratio_decided(),
            "slowest": {side: self.slowest(side) for side in ("nonosat", "peer")},
            "skipped": self.skipped,
        }

    def slowest(self, side: str, shown: int = SLOWEST) -> list[tuple[str, float]]:
        """The `shown` puzzles that took `side` longest, slowest first, with their seconds."""
        timed = sorted(zip(self.labels, self.times(side), strict=True), key=lambda pair: -pair[1])
        return [(label, round(seconds, 3)) for label, seconds in timed[:shown]]

    def ratio_decided(self) -> float | None:
        """nonosat/peer over the puzzles both sides decided: the ratio of their summed puzzle times.

        A puzzle both leave unknown costs each side its whole time limit, which pulls the
        wall-clock ratio towards 1 whatever happens on the rest of the set.
        """
        both = [c for c in self.comparisons if c.decided]
        peer = sum(c.peer.seconds for c in both)
        return round(sum(c.nonosat.seconds for c in both) / peer, 4) if peer else None


def _summary(times: list[float], wall_s: float, memory_kib: int) -> dict[str, float]:
    return {
        "wall_s": round(wall_s, 3),
        "total_s": round(sum(times), 3),
        "median_s": round(statistics.median(times), 4) if times else 0.0,
        "max_s": round(max(times), 3) if times else 0.0,
        "peak_mib": round(memory_kib / 1024, 1),
    }


def run_set(name: str, first: int | None, timeout: float | None, jobs: int = 1, mode: str = "batch") -> SetResult:
    """Run both sides on a set, check every answer, and pair them up."""
    puzzles, skipped = set_puzzles(name, first)
    ours, our_wall, our_memory = run_side("nonosat", name, first, timeout, jobs, mode)
    theirs, their_wall, their_memory = run_side("peer", name, first, timeout, jobs, mode)
    comparisons: list[Comparison] = []
    for (label, puzzle), mine, peer in zip(puzzles, ours, theirs, strict=True):
        for answer in (mine, peer):
            if any(not puzzle.satisfied_by(grid) for grid in answer.solutions):
                raise BadAnswer(f"{label}: a solver returned a grid that breaks the clues")
            if answer.status == "multiple" and len(set(answer.solutions)) < 2:
                raise BadAnswer(f"{label}: a solver said multiple without two different grids")
        comparisons.append(Comparison(len(comparisons) + 1, puzzle, mine, peer))
    labels = [label for label, _ in puzzles]
    memory = {"nonosat": our_memory, "peer": their_memory}
    return SetResult(name, labels, comparisons, skipped, memory, {"nonosat": our_wall, "peer": their_wall})


def table(rows: list[dict[str, object]]) -> str:
    """The per-set table in Markdown, as bench/README.md shows it."""
    head = (
        "| set | puzzles | solved | unique | multiple | none | unknown | agree | nonosat wall s | median s | max s "
        "| peak MiB | peer wall s | median s | max s | peak MiB | peer unknown | nonosat/peer | both decided |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for r in rows:
        v, n, p = r["verdicts"], r["nonosat"], r["peer"]
        lines.append(
            f"| {r['set']} | {r['puzzles']} | {r['solved']} | {v['unique']} | {v['multiple']} | {v['none']} "  # type: ignore[index]
            f"| {v['unknown']} | {r['agree']} | {n['wall_s']} | {n['median_s']} | {n['max_s']} | {n['peak_mib']} "  # type: ignore[index]
            f"| {p['wall_s']} | {p['median_s']} | {p['max_s']} | {p['peak_mib']} | {r['peer_unknown']} | {r['ratio']} "  # type: ignore[index]
            f"| {r['ratio_decided']} |"
        )
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, from: {', '.join(SETS)}")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N puzzles of each multi-puzzle file")
    parser.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="time limit per puzzle per side (default 60)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="cores for each side (default: all); --mode says how they are used",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="batch",
        help="batch: N puzzles at a time, one core each (default); single: one puzzle at a time on N cores",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    names = [name.strip() for name in args.sets.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETS]
    if unknown:
        print(f"bench: unknown set(s) {', '.join(unknown)}; choose from {', '.join(SETS)}", file=sys.stderr)
        return 2
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    rows = []
    started = time.time()
    try:
        for name in names:
            result = run_set(name, args.first, args.timeout, args.jobs, args.mode)
            row = result.row()
            rows.append(row)
            print(table([row]).splitlines()[-1], flush=True)
            for label, c in zip(result.labels, result.comparisons, strict=True):
                if not c.agrees:
                    print(
                        f"  {label}: nonosat {c.nonosat.status} {c.nonosat.seconds:.2f} s, "
                        f"peer {c.peer.status} {c.peer.seconds:.2f} s",
                        flush=True,
                    )
            for side in ("nonosat", "peer"):
                slowest = ", ".join(f"{label} {seconds:.2f} s" for label, seconds in result.slowest(side, 3))
                print(f"  slowest for {side}: {slowest}", flush=True)
            for skipped in result.skipped:
                print(f"  skipped {skipped}", flush=True)
    except BadAnswer as error:
        print(f"bench: wrong answer, no time reported: {error}", file=sys.stderr)
        return 1
    print()
    print(table(rows))
    print(f"\n{time.time() - started:.0f} s in all; versions: " + ", ".join(f"{p} {version(p)}" for p in PACKAGES))
    if args.json is not None:
        settings = {
            "first": args.first,
            "timeout": args.timeout,
            "jobs": args.jobs,
            "mode": args.mode,
            "versions": {p: version(p) for p in PACKAGES},
        }
        write_text_atomic(
            args.json, json.dumps({"settings": settings, "sets": rows}, indent=2) + "\n", force=args.force
        )
    return 0
