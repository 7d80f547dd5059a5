"""The speed benchmark: nonosat against a peer (CP-SAT, or pbnsolve), set by set, on the same
files in one run.

    python -m bench                       # every set, all of each tournament set
    python -m bench --sets webpbn,minizinc --json today.json
    python -m bench --sets taai2011 --first 200 --mode single
    python -m bench --sets colour,colour-noise    # colour: the peer is bench/peer_cpsat_colour.py
    python -m bench --engine cdcl,sat --peer pbnsolve --pbnsolve ~/pbnsolve/pbnsolve

Each set runs in fresh child processes (bench/sides.py), one after the other: once with nonosat
(once an engine, with --engine), once with the peer (OR-tools CP-SAT, one AddAutomaton per line,
and a second solve with the first solution blocked; for a colour puzzle, the same over integer
cell colours; or pbnsolve, bench/peer_pbnsolve.py). The sets are in bench/sets.py. Both sides get the same cores,
used the same way (`--mode`):

- `batch` (default): N puzzles at a time, one core each, on N worker processes: nonosat through
  `nonosat.batch.solve_many`, the peer with one CP-SAT worker per puzzle. This is how a set is
  solved for throughput.
- `single`: one puzzle at a time with all N cores: nonosat's `solve(jobs=N)` (a race of two
  solvers on a puzzle past 0.1 s), CP-SAT with N workers. This is each puzzle's latency.

Every solution either side returns is checked against the clues (and against the puzzle's goal,
when it has one that meets them), and the verdicts must agree; a wrong answer is reported instead
of a time, and a disagreement is reported on stderr and makes the exit code 1. Printed per set:
puzzles solved, verdicts, the set's wall-clock time, the median and maximum time of one puzzle,
each side's peak memory, the ratio of wall-clock times nonosat/peer, the ratio of summed puzzle
times over the puzzles both sides decided, and the geometric mean of the per-puzzle ratios. The
colour sets (and any set with --per-puzzle) also print every puzzle.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bench.sets import PER_PUZZLE_SETS, SETS, missing, set_puzzles
from bench.sides import CPSAT, MODES, PEERS, Side, run_side
from bench.verdicts import PACKAGES, Answer, BadAnswer, Comparison
from nonosat import Puzzle
from nonosat.formats.atomic import write_text_atomic

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
            "geomean": self.geomean(),
            "slowest": {side: self.slowest(side) for side in ("nonosat", "peer")},
            "skipped": self.skipped,
        }

    def slowest(self, side: str, shown: int = SLOWEST) -> list[tuple[str, float]]:
        """The `shown` puzzles that took `side` longest, slowest first, with their seconds."""
        timed = sorted(zip(self.labels, self.times(side), strict=True), key=lambda pair: -pair[1])
        return [(label, round(seconds, 3)) for label, seconds in timed[:shown]]

    def geomean(self) -> float | None:
        """The geometric mean of nonosat/peer per puzzle, over the puzzles both sides decided."""
        found = geometric_mean([puzzle_ratio(c) for c in self.comparisons if c.decided])
        return None if found is None else round(found, 4)

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


def run_set(
    name: str,
    first: int | None,
    timeout: float | None,
    jobs: int = 1,
    mode: str = "batch",
    engine: str = "auto",
    peer: Side = CPSAT,
    peer_runs: dict[str, tuple[list[Answer | None], float, int]] | None = None,
) -> SetResult:
    """Run nonosat (with `engine`) and the peer on a set, check every answer, and pair them up.
    The peer runs once a set: its run is kept in `peer_runs`, for the next engine."""
    puzzles, skipped = set_puzzles(name, first)
    ours, our_wall, our_memory = run_side(Side("nonosat", engine), name, first, timeout, jobs, mode)
    runs = {} if peer_runs is None else peer_runs
    if name not in runs:
        runs[name] = run_side(peer, name, first, timeout, jobs, mode)
    theirs, their_wall, their_memory = runs[name]
    comparisons: list[Comparison] = []
    kept = []
    for (label, puzzle), mine, their in zip(puzzles, ours, theirs, strict=True):
        if mine is None or their is None:
            who = f"the {engine} engine" if mine is None else "the peer"
            skipped.append(f"{label}: {who} does not take it ({puzzle.width}x{puzzle.height})")
            continue
        kept.append(label)
        for answer in (mine, their):
            if any(not puzzle.satisfied_by(grid) for grid in answer.solutions):
                raise BadAnswer(f"{label}: a solver returned a grid that breaks the clues")
            if answer.status == "multiple" and len(set(answer.solutions)) < 2:
                raise BadAnswer(f"{label}: a solver said multiple without two different grids")
            check_against_goal(label, puzzle, answer)
        comparisons.append(Comparison(len(comparisons) + 1, puzzle, mine, their))
    labels = kept
    memory = {"nonosat": our_memory, "peer": their_memory}
    shown = name if engine == "auto" else f"{name} ({engine})"
    return SetResult(shown, labels, comparisons, skipped, memory, {"nonosat": our_wall, "peer": their_wall})


def check_against_goal(label: str, puzzle: Puzzle, answer: Answer) -> None:
    """A goal that meets the clues is a solution: "none" is then wrong, and "unique" must give it."""
    goal = puzzle.goal
    if goal is None or not puzzle.satisfied_by(goal):
        return
    if answer.status == "none" or (answer.status == "unique" and answer.solutions[0] != goal):
        raise BadAnswer(f"{label}: a solver said {answer.status}, refuted by the puzzle's goal")


def geometric_mean(values: Sequence[float]) -> float | None:
    """The geometric mean of positive numbers (None for none)."""
    if not values:
        return None
    return math.exp(statistics.fmean(math.log(v) for v in values))


FLOOR_S = 1e-4
"""A time below this counts as this much in a per-puzzle ratio (a puzzle decided in microseconds)."""


def puzzle_ratio(comparison: Comparison) -> float:
    """nonosat/peer on one puzzle."""
    return max(comparison.nonosat.seconds, FLOOR_S) / max(comparison.peer.seconds, FLOOR_S)


def puzzle_line(label: str, comparison: Comparison) -> str:
    """One puzzle: its size and colours, both verdicts and times, and their ratio."""
    c, p = comparison, comparison.puzzle
    colours = f", {p.colour_count} colour{'s' if p.colour_count > 1 else ''}" if p.is_colour else ""
    mark = "" if c.agrees else "  DISAGREE" if c.disagrees else "  (undecided)"
    return (
        f"  {label} ({p.width}x{p.height}{colours}): nonosat {c.nonosat.status} {c.nonosat.seconds:.3f} s, "
        f"peer {c.peer.status} {c.peer.seconds:.3f} s, nonosat/peer {puzzle_ratio(c):.3f}{mark}"
    )


def summary_line(result: SetResult) -> str:
    """A set's totals and the geometric mean of its per-puzzle ratios, both ways round."""
    both = [c for c in result.comparisons if c.decided]
    ours, peer = sum(c.nonosat.seconds for c in both), sum(c.peer.seconds for c in both)
    mean = result.geomean()
    if not both or mean is None:
        return f"  {result.name}: no puzzle decided by both sides"
    return (
        f"  {result.name}, {len(both)} puzzles both decided: nonosat {ours:.3f} s, peer {peer:.3f} s in all, "
        f"nonosat/peer {ours / peer:.3f} (peer/nonosat {peer / ours:.2f}); per puzzle, geometric mean "
        f"nonosat/peer {mean:.3f} (peer/nonosat {1 / mean:.2f})"
    )


def table(rows: list[dict[str, object]]) -> str:
    """The per-set table in Markdown, as bench/README.md shows it."""
    head = (
        "| set | puzzles | solved | unique | multiple | none | unknown | agree | nonosat wall s | median s | max s "
        "| peak MiB | peer wall s | median s | max s | peak MiB | peer unknown | nonosat/peer | both decided "
        "| geo mean |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for r in rows:
        v, n, p = r["verdicts"], r["nonosat"], r["peer"]
        lines.append(
            f"| {r['set']} | {r['puzzles']} | {r['solved']} | {v['unique']} | {v['multiple']} | {v['none']} "  # type: ignore[index]
            f"| {v['unknown']} | {r['agree']} | {n['wall_s']} | {n['median_s']} | {n['max_s']} | {n['peak_mib']} "  # type: ignore[index]
            f"| {p['wall_s']} | {p['median_s']} | {p['max_s']} | {p['peak_mib']} | {r['peer_unknown']} | {r['ratio']} "  # type: ignore[index]
            f"| {r['ratio_decided']} | {r['geomean']} |"
        )
    return "\n".join(lines)


def versions(peer: Side) -> str:
    """The versions of nonosat, PySAT and the peer (pbnsolve: its binary's path)."""
    shown = [f"{package} {version(package)}" for package in PACKAGES if package != "ortools" or peer.peer == "cpsat"]
    if peer.peer == "pbnsolve":
        shown.append(f"pbnsolve {peer.pbnsolve}")
    return ", ".join(shown)


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
    parser.add_argument(
        "--engine",
        default="auto",
        help="nonosat's engines, comma-separated, each against the same peer run: auto, cdcl, dfs, sat (default auto)",
    )
    parser.add_argument(
        "--peer", choices=PEERS, default="cpsat", help="cpsat (OR-tools, needs nonosat[bench]) or pbnsolve (--pbnsolve)"
    )
    parser.add_argument("--pbnsolve", metavar="PATH", help="pbnsolve's binary (default $PBNSOLVE), for --peer pbnsolve")
    parser.add_argument("--per-puzzle", action="store_true", help="print every puzzle (the colour sets always do)")
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
    empty = [why for why in map(missing, names) if why is not None]
    if empty:
        print(f"bench: {empty[0]}", file=sys.stderr)
        return 2
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    from nonosat.solver.engines import ENGINES

    engines = [engine.strip() for engine in args.engine.split(",") if engine.strip()]
    if not engines or any(engine not in ENGINES for engine in engines):
        print(f"bench: --engine takes {', '.join(ENGINES)}, comma-separated, not {args.engine!r}", file=sys.stderr)
        return 2
    peer = Side("peer", peer=args.peer, pbnsolve=args.pbnsolve)
    if args.peer == "pbnsolve":
        from bench.peer_pbnsolve import pbnsolve_path

        peer = Side("peer", peer="pbnsolve", pbnsolve=pbnsolve_path(args.pbnsolve))
    rows = []
    disagreements = 0
    started = time.time()

    def each_result() -> Iterator[tuple[str, SetResult]]:
        """Each set's results, an engine at a time, as they come (the peer runs once a set)."""
        peer_runs: dict[str, tuple[list[Answer | None], float, int]] = {}
        for name in names:
            for engine in engines:
                yield name, run_set(name, args.first, args.timeout, args.jobs, args.mode, engine, peer, peer_runs)

    try:
        for name, result in each_result():
            row = result.row()
            rows.append(row)
            print(table([row]).splitlines()[-1], flush=True)
            every = args.per_puzzle or name in PER_PUZZLE_SETS
            for label, c in zip(result.labels, result.comparisons, strict=True):
                if every or not c.agrees:
                    print(puzzle_line(label, c), flush=True)
                if c.disagrees:
                    disagreements += 1
                    print(
                        f"bench: DISAGREEMENT on {label}: nonosat {c.nonosat.status}, peer {c.peer.status}; "
                        f"refuted: {c.wrong()}",
                        file=sys.stderr,
                        flush=True,
                    )
            if every:
                print(summary_line(result), flush=True)
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
    print(f"\n{time.time() - started:.0f} s in all; versions: " + versions(peer))
    if args.json is not None:
        settings = {
            "first": args.first,
            "timeout": args.timeout,
            "jobs": args.jobs,
            "mode": args.mode,
            "engines": engines,
            "peer": args.peer,
            "versions": versions(peer),
        }
        write_text_atomic(
            args.json, json.dumps({"settings": settings, "sets": rows}, indent=2) + "\n", force=args.force
        )
    if disagreements:
        print(f"bench: {disagreements} DISAGREEMENT(S) between nonosat and the peer, listed above", file=sys.stderr)
        return 1
    return 0
