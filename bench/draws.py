"""A change to the search judged on puzzles neither side selected (issue 40):

    git worktree add ../before HEAD~1
    python -m bench.draws ../before . --seeds 2021,2022 --over 0.25

A hard puzzle's time is a draw: the same search on the puzzle upside down can take a tenth of the
time, or ten times. So puzzles picked because one search is slow on them flatter any other
search, which draws again: most draws beat the slowest (regression to the mean). Here the
puzzles are picked by a draw that is in neither compared run. A (the first checkout, the
baseline) solves every puzzle of the fresh sets (bench/fresh_tournament.py's, from the seeds)
both ways up, `solve(puzzle, jobs=1)`: one core, no race; upside down is the rows in the other
order. The puzzles A takes over `--over` seconds upside down are those on which A and B (the
second checkout) are compared right way up, and those A takes over it right way up are compared
upside down. A and B take turns puzzle by puzzle (A first on one, B on the next), each in a
worker process of its own (bench/version_worker.py), every grid is checked against the clues and
the two verdicts must agree (exit 1 otherwise). For each way up it prints the puzzles, each
side's sum, slowest and count over 2 s, the ratio of the sums B/A, and the geometric mean of the
per-puzzle ratios B/A with its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.fresh_tournament import fresh_set
from bench.version_checkouts import check_answer, check_pair, command, start_workers, with_workers
from bench.version_times import geometric_mean
from nonosat import Puzzle, load_all
from nonosat.formats.tournament import dump_tournament
from nonosat.solver.compiled_search import clues_upside_down

WAYS = ("right way up", "upside down")
SLOW = 2.0
"""Seconds from which a puzzle counts as slow in the summary."""


def upside_down(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its rows in the other order, each column's clue read from the bottom, as
    the race's rival turns it (compiled_search.clues_upside_down)."""
    rows, columns = clues_upside_down(puzzle.rows, puzzle.columns)
    return Puzzle(rows=rows, columns=columns)


def write_sets(folder: Path, seeds: Sequence[int], size: int) -> tuple[list[Path], list[str]]:
    """Each seed's fresh set as two tournament files, right way up and upside down; the files and
    a label per puzzle, in the order the workers read them."""
    files: list[Path] = []
    labels: list[str] = []
    for seed in seeds:
        puzzles = fresh_set(seed, size)
        for way, turned in zip(WAYS, (puzzles, [upside_down(p) for p in puzzles]), strict=True):
            path = folder / f"fresh-{seed}-{way.split()[0]}.txt"
            path.write_text(dump_tournament(turned))
            files.append(path)
            labels += [f"fresh-{seed}.txt#{i + 1} {way}" for i in range(size)]
    return files, labels


def summary(way: str, picked_by: str, indexes: list[int], times: tuple[list[float], list[float]]) -> str:
    """One way up's lines: each side's sum, slowest and slow count, and the ratios B/A."""
    a, b = ([side[i] for i in indexes] for side in times)
    if not indexes:
        return f"{way}: no puzzle that A takes over the threshold {picked_by}"
    mean, low, high = geometric_mean([y / x for x, y in zip(a, b, strict=True) if x > 0 and y > 0])
    sides = "; ".join(
        f"{name} {sum(t):.2f} s, slowest {max(t):.2f} s, {sum(x > SLOW for x in t)} over {SLOW:g} s"
        for name, t in (("A", a), ("B", b))
    )
    return (
        f"{way}, on the {len(indexes)} puzzles A takes over the threshold {picked_by}: {sides}; "
        f"B/A {sum(b) / sum(a):.3f}, per puzzle geometric mean {mean:.3f} (95% {low:.3f}-{high:.3f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.draws", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="the baseline checkout (it picks the puzzles)")
    parser.add_argument("b", type=Path, help="the checkout compared with it")
    parser.add_argument("--seeds", default="2021,2022", help="fresh sets' seeds (bench/fresh_tournament.py)")
    parser.add_argument("--size", type=int, default=1000, help="puzzles a set")
    parser.add_argument("--over", type=float, default=0.25, help="seconds of A that pick a puzzle")
    parser.add_argument("--timeout", type=float, default=30.0, help="per solve")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="draws-") as scratch:
        files, labels = write_sets(Path(scratch), seeds, args.size)
        puzzles = [p for path in files for p in load_all(path)]
        workers = start_workers([("A", args.a), ("B", args.b)])

        def work() -> None:
            for worker in workers:
                worker.call({"op": "load", "files": [str(f) for f in files], "first": None})
            started = time.perf_counter()
            screen = [
                workers[0].call({"op": "solve", "index": i, "timeout": args.timeout}) for i in range(len(puzzles))
            ]
            print(
                f"A solved {len(puzzles)} puzzles (both ways up) in {time.perf_counter() - started:.1f} s", flush=True
            )
            times: tuple[list[float], list[float]] = ([0.0] * len(puzzles), [0.0] * len(puzzles))
            for way in (0, 1):  # index of a puzzle: its set's two files, right way up then upside down
                other = 1 - way
                picked = [
                    seed_at * 2 * args.size + way * args.size + i
                    for seed_at in range(len(seeds))
                    for i in range(args.size)
                    if screen[seed_at * 2 * args.size + other * args.size + i]["seconds"] > args.over
                ]
                for turn, index in enumerate(picked):
                    answers = {}
                    for s in (0, 1) if turn % 2 == 0 else (1, 0):
                        reply = workers[s].call({"op": "solve", "index": index, "timeout": args.timeout})
                        times[s][index] = float(reply["seconds"])
                        answers[s] = check_answer(puzzles[index], labels[index], "AB"[s], reply)
                    check_pair(labels[index], answers[0], answers[1])
                print(summary(WAYS[way], WAYS[other], picked, times), flush=True)

        return with_workers(workers, work)


if __name__ == "__main__":
    command(main)
