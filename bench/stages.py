"""Where a puzzle's time goes, stage by stage, with one SAT solver and no race.

    python -m bench.stages tcga/question/taai2011.txt --from 501 --to 600
    python -m bench.stages tcga/question/taai2011.txt --from 501 --to 600 --solver cadical195

For each puzzle of the range: line logic, building the CNF, loading it into the solver, the
first SAT solve, the 2x2-switch finder, and (when no switch shows a second solution) the second
SAT solve with the first solution blocked. Prints each stage's total, median and maximum, how
the puzzles were settled, and the slowest puzzles with their solver conflicts. Every grid is
checked against the clues.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.solver import Search, resolve_solver
from nonosat.solver.encodings.grid import build_formula
from nonosat.solver.propagation import line_solve
from nonosat.solver.switch import switched_solution

STAGES = ("line", "build", "load", "sat1", "switch", "sat2")


def stage_times(puzzle: object, solver: str) -> tuple[list[float], str, int]:
    """The seconds of each stage, how the puzzle was settled, and the solver's conflicts."""
    times = [0.0] * len(STAGES)
    clock = time.perf_counter
    started = clock()
    board = line_solve(puzzle)  # type: ignore[arg-type]
    times[0] = clock() - started
    if board.is_complete():
        return times, "line", 0
    started = clock()
    formula = build_formula(board)
    times[1] = clock() - started
    started = clock()
    search = Search(formula.clauses, solver)
    times[2] = clock() - started
    try:
        started = clock()
        model = search.next_model()
        times[3] = clock() - started
        if not model:
            return times, "none", 0
        grid = formula.grid(model)
        if not puzzle.satisfied_by(grid):  # type: ignore[attr-defined]
            raise SystemExit("a solver's grid breaks the clues")
        started = clock()
        switched = switched_solution(puzzle, grid)  # type: ignore[arg-type]
        times[4] = clock() - started
        how = "switch"
        if switched is None:
            started = clock()
            search.sat.add_clause(formula.blocking_clause(model))
            how = "sat2 multiple" if search.next_model() else "sat2 unique"
            times[5] = clock() - started
        return times, how, int(search.sat.accum_stats().get("conflicts", 0))
    finally:
        search.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stages", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a puzzle file, as given or under the corpus root")
    parser.add_argument("--from", dest="first", type=int, default=1, help="first puzzle, counted from 1")
    parser.add_argument("--to", dest="last", type=int, help="last puzzle (default: the end)")
    parser.add_argument("--solver", default="minisat22")
    args = parser.parse_args(argv)
    path = args.file if Path(args.file).exists() else str(corpus_root() / args.file)
    puzzles = load_all(path)[args.first - 1 : args.last]
    solver = resolve_solver(args.solver)
    rows = []
    for number, puzzle in enumerate(puzzles, args.first):
        times, how, conflicts = stage_times(puzzle, solver)
        rows.append((number, times, how, conflicts))
    print(f"{len(rows)} puzzles of {args.file}, {solver}, one core")
    for i, stage in enumerate(STAGES):
        values = [row[1][i] for row in rows]
        print(
            f"  {stage:7} total {sum(values):8.2f} s  median {statistics.median(values):.4f} s  max {max(values):.3f} s"
        )
    print(f"  all     total {sum(sum(row[1]) for row in rows):8.2f} s")
    print("settled by:", ", ".join(f"{how} {n}" for how, n in Counter(row[2] for row in rows).most_common()))
    print("slowest (number, seconds, conflicts):")
    for number, times, _, conflicts in sorted(rows, key=lambda row: -sum(row[1]))[:5]:
        print(f"  #{number}  {sum(times):.2f} s  {conflicts} conflicts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
