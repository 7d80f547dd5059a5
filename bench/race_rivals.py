"""Which rival should race the conflict-driven search? `python -m bench.race_rivals [--seeds 2001,2002]`.

(`--seeds "" --colour 40:2:300-319` asks the same of colour noise grids: in colour the rival is
the SAT engine with CaDiCaL since the twenty-first session; the report's ratios stay to the
search upside down.)

Issue 40's study, runnable again. Each puzzle of the fresh sets (`bench.fresh_tournament`'s draw;
the seeds here are for tuning, not those of its measurements) and of the named corpus sets is
solved by cdcl alone on one core after line logic (count 2, as `check` asks). Each puzzle slower
than `--slower-than` seconds is then solved by every candidate rival from the start, one core
each: the same search upside down (today's rival), and the SAT engine with MiniSat, CaDiCaL or
Glucose on the blocks encoding. From these times each
race policy is worked out per puzzle, with the processes of a race sharing two cores evenly
(`finish`): the rival joining after `race_after` (1 s as in `nonosat batch`, 0.1 s as in `solve
--jobs 2`), or a third process joining later. Printed per policy and collection (fresh, corpus):
the sum, the slowest, how many over 2 and 3 s, and the sum's ratio to today's policy.

Every time is appended to `--out` (JSON lines) as it is measured, and a run started again with
the same file goes on where it stopped. The candidates see each puzzle after the screen chose it
by the search's own time, so only the candidates compare fairly with each other: the screen's
time is a biased draw (slow by choice).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from bench.fresh_tournament import DENSITIES, fresh_set
from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.deadline import Deadline
from nonosat.model import Grid, Puzzle

CANDIDATES = ("upside-down", "minisat22", "cadical195", "glucose4")
OVERHEAD = 0.03
"""Seconds a rival loses to starting its worker (the fork server's, measured by `bench.faults`)."""


def solve_with(puzzle: Puzzle, how: str, timeout: float) -> tuple[float, bool]:
    """Seconds to two grids (or the proof there are fewer) by `how` on one core, line logic
    included, and whether it finished within `timeout`."""
    from nonosat.solver.compiled_search import CoreSearch
    from nonosat.solver.engines import Request
    from nonosat.solver.propagation import line_solve

    started = time.perf_counter()
    deadline = Deadline.of(timeout)
    board = line_solve(puzzle, deadline)
    if how in ("cdcl", "upside-down"):
        grids: list[Grid] = []
        search = CoreSearch(board, "cdcl", deadline, upside_down=how == "upside-down")
        done = search.run(2, grids) is not None
    else:
        from nonosat.solver import sat

        found = sat.search(Request(board, 2, deadline, solver=how, encoding="blocks"))
        done = found.complete or len(found.grids) == 2
    return time.perf_counter() - started, done


def finish(processes: Sequence[tuple[float, float]], cores: float = 2.0) -> float:
    """When the first of some processes ends, each (start, seconds of work alone), all sharing
    `cores` evenly once there are more processes than cores."""
    left = [work for _, work in processes]
    now = 0.0
    while True:
        running = [i for i, (start, _) in enumerate(processes) if start <= now]
        speed = min(1.0, cores / len(running))
        first_end = now + min(left[i] for i in running) / speed
        next_start = min((start for start, _ in processes if start > now), default=float("inf"))
        if first_end <= next_start:
            return first_end
        for i in running:
            left[i] -= (next_start - now) * speed
        now = next_start


Policy = Callable[[dict[str, float], float], float]

POLICIES: dict[str, Policy] = {
    "alone": lambda t, after: t["cdcl"],
    "upside-down (today)": lambda t, after: finish([(0, t["cdcl"]), (after, t["upside-down"] + OVERHEAD)]),
    "minisat22": lambda t, after: finish([(0, t["cdcl"]), (after, t["minisat22"] + OVERHEAD)]),
    "cadical195": lambda t, after: finish([(0, t["cdcl"]), (after, t["cadical195"] + OVERHEAD)]),
    "glucose4": lambda t, after: finish([(0, t["cdcl"]), (after, t["glucose4"] + OVERHEAD)]),
    "upside-down, minisat22 from 1 s": lambda t, after: finish(
        [(0, t["cdcl"]), (after, t["upside-down"] + OVERHEAD), (max(after, 1.0), t["minisat22"] + OVERHEAD)]
    ),
    "upside-down, minisat22 from 2 s": lambda t, after: finish(
        [(0, t["cdcl"]), (after, t["upside-down"] + OVERHEAD), (2.0, t["minisat22"] + OVERHEAD)]
    ),
    "upside-down, relayed by minisat22 from 3 s (the relay now)": lambda t, after: relayed(t, after, "minisat22"),
    "upside-down, relayed by cadical195 from 3 s": lambda t, after: relayed(t, after, "cadical195"),
}


def relayed(times: dict[str, float], after: float, solver: str, at: float = 3.0) -> float:
    """The race as it is in black and white (`compiled_search.SAT_AFTER`): the search, joined
    after `after` by the search upside down, whose place the SAT engine with `solver` takes at
    `at` seconds; two processes on two cores, each at full speed."""
    upside_down = after + times["upside-down"] + OVERHEAD
    return min(times["cdcl"], upside_down if upside_down < at else float("inf"), at + times[solver] + OVERHEAD)


def puzzles(
    seeds: list[int], size: int, corpus_sets: list[str], colour: str = "", large: str = ""
) -> Iterator[tuple[str, str, Puzzle]]:
    """(collection, key, puzzle) for every puzzle of the fresh sets, of the corpus sets, of the
    colour noise grids `colour` names (SIDE:COLOURS:FIRST-LAST, `bench.colour_set`'s
    noise_puzzle for each seed from FIRST to LAST), then of the black-and-white random grids
    `large` names (SIDE:FIRST-LAST: a density from 0.35 to 0.5, as the fresh sets' 25x25)."""
    for seed in seeds:
        for number, puzzle in enumerate(fresh_set(seed, size), 1):
            yield "fresh", f"fresh {seed}#{number}", puzzle
    for name in corpus_sets:
        for number, puzzle in enumerate(load_all(corpus_root() / "tcga" / "question" / f"{name}.txt"), 1):
            yield "corpus", f"{name}#{number}", puzzle
    if colour:
        from bench.colour_set import noise_puzzle

        side, colours, span = colour.split(":")
        first, last = (int(part) for part in span.split("-"))
        for seed in range(first, last + 1):
            puzzle = noise_puzzle(int(side), int(side), int(colours), seed)
            yield "colour", f"noise {side} k{colours} seed {seed}", puzzle
    if large:
        side, span = large.split(":")
        first, last = (int(part) for part in span.split("-"))
        for seed in range(first, last + 1):
            draw = random.Random(f"nonosat large random {side} {seed}")
            density = draw.uniform(*DENSITIES)
            grid = tuple(tuple(int(draw.random() < density) for _ in range(int(side))) for _ in range(int(side)))
            yield "large", f"random {side}x{side} seed {seed}", Puzzle.from_grid(grid)


def measure(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """Every puzzle's times, read back from `args.out` and measured where missing."""
    out = Path(args.out)
    known: dict[str, dict[str, object]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                known.setdefault(record["key"], {"collection": record["collection"]})[record["how"]] = record["seconds"]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    sets = [s for s in args.corpus_sets.split(",") if s]
    with out.open("a") as sink:
        for collection, key, puzzle in puzzles(
            seeds, args.size, sets, getattr(args, "colour", ""), getattr(args, "large", "")
        ):
            times = known.setdefault(key, {"collection": collection})
            for how in ("cdcl", *CANDIDATES):
                if how != "cdcl" and float(times["cdcl"]) <= args.slower_than:  # type: ignore[arg-type]
                    break
                if how not in times:
                    seconds, done = solve_with(puzzle, how, args.timeout)
                    times[how] = seconds if done else float("inf")  # over the timeout
                    sink.write(
                        json.dumps({"key": key, "collection": collection, "how": how, "seconds": times[how]}) + "\n"
                    )
                    sink.flush()
    return known


def report(known: dict[str, dict[str, object]], slower_than: float) -> list[str]:
    """A line per race start, policy and collection (see the module's docstring)."""
    lines = []
    for collection in ("fresh", "corpus", "colour", "large"):
        slow = [
            {how: float(t) for how, t in times.items() if how != "collection"}  # type: ignore[arg-type]
            for times in known.values()
            if times["collection"] == collection and all(how in times for how in ("cdcl", *CANDIDATES))
        ]
        slow = [t for t in slow if t["cdcl"] > slower_than]
        if not slow:
            continue
        screened = sum(1 for times in known.values() if times["collection"] == collection)
        lines.append(f"{collection}: {len(slow)} of {screened} puzzles over {slower_than} s by cdcl alone")
        for after in (1.0, 0.1):
            today = sum(POLICIES["upside-down (today)"](t, after) for t in slow)
            for name, policy in POLICIES.items():
                ends = sorted(policy(t, after) for t in slow)
                line = (
                    f"  race after {after} s, {name}: sum {sum(ends):.1f} s ({sum(ends) / today:.3f} of today's), "
                    f"slowest {ends[-1]:.2f} s, over 2 s {sum(e > 2 for e in ends)}, "
                    f"over 3 s {sum(e > 3 for e in ends)}"
                )
                unfinished = sum(math.isinf(end) for end in ends)
                if unfinished:  # no candidate within --timeout on some: the sums are of the rest
                    done = [end for end in ends if not math.isinf(end)]
                    line = f"  race after {after} s, {name}: {unfinished} not within the timeout; the other {len(done)}"
                    line += f" sum {sum(done):.1f} s, slowest {max(done, default=0.0):.2f} s"
                lines.append(line)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.race_rivals", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seeds", default="2001,2002", help="fresh sets to screen (tuning seeds, 2001-2020 in issue 40)"
    )
    parser.add_argument("--size", type=int, default=1000, help="puzzles a fresh set")
    parser.add_argument(
        "--corpus-sets", default="", help="corpus tournament sets to screen too, e.g. taai2020,tcga2019"
    )
    parser.add_argument(
        "--colour",
        default="",
        help="colour noise grids to screen too, SIDE:COLOURS:FIRST-LAST, e.g. 40:2:300-319 (cdcl's colour rival)",
    )
    parser.add_argument(
        "--large",
        default="",
        help="black-and-white random grids to screen too, SIDE:FIRST-LAST, e.g. 65:1-10 (the relay's solver)",
    )
    parser.add_argument("--slower-than", type=float, default=0.25, help="seconds by cdcl alone that make a puzzle slow")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a candidate gets on a puzzle")
    parser.add_argument("--out", default="race-rivals.jsonl", help="the times, appended (a run resumes from it)")
    args = parser.parse_args(argv)
    for line in report(measure(args), args.slower_than):
        print(line)
    return 0


if __name__ == "__main__":
    from nonosat import interrupts

    interrupts.watch_ctrl_c()  # Ctrl-C stops a SAT candidate at once too (PySAT holds it till its deadline)
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the solvers end with it; the JSON lines so far stay, to resume from
        print("interrupted", file=sys.stderr)
        sys.exit(130)
