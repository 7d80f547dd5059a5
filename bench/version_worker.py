"""The worker of bench/versions.py: nonosat from one checkout, driven over a pipe.

    PYTHONPATH=/path/to/checkout python bench/version_worker.py

It is run as a script, never imported as `bench.version_worker`, and imports nothing of `bench`:
the checkout on PYTHONPATH may have a `bench` of its own, and the nonosat it imports must be that
checkout's, whatever its age (the commands below use only `load_all`, `solve` and `Puzzle`, which
every version has). It reads one JSON command a line on stdin and answers each with one JSON line
on its own stdout; whatever nonosat prints goes to stderr. The commands:

- `{"op": "hello"}`: where nonosat was imported from, and Python's version.
- `{"op": "load", "files": [PATH, ...], "first": N}`: read the puzzles (the first N of each file,
  all when N is null); answers how many and a SHA-1 of their clues, so that both sides can be
  seen to hold the same puzzles.
- `{"op": "solve", "index": I, "timeout": S}`: `solve(puzzle, jobs=1)` on puzzle I, one core, no
  race; answers its status, method, stats, solutions and its wall-clock and CPU seconds.
- `{"op": "race", "index": I, "timeout": S, "race_after": R}`: `solve(puzzle, jobs=2,
  race_after=R)` on puzzle I, as a batch worker races a hard puzzle (two cores from R seconds);
  answers as `solve` does (the CPU is this process's only).
- `{"op": "stages", "index": I, "repeat": R}`: puzzle I stage by stage (line logic, CNF, loading,
  first SAT solve, 2x2 switch, the check of the grid), each the fastest of R runs.
- `{"op": "batch", "jobs": N, "timeout": S}`: every puzzle through `nonosat.batch.solve_many`,
  as `python -m bench` runs a set; answers the wall-clock seconds of the set and every answer.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import sys
import time
from typing import Any

PROTOCOL = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)  # anything printed by nonosat goes to stderr, not into the answers

from nonosat import ImpossiblePuzzle, Puzzle, load_all, solve  # noqa: E402

PUZZLES: list[Puzzle] = []


def clue_digest(puzzles: list[Puzzle]) -> str:
    """A SHA-1 of every puzzle's clues, as block lengths (what every version of the model has)."""
    text = repr([(p.rows, p.columns) for p in puzzles])
    return hashlib.sha1(text.encode()).hexdigest()


def answer(result: Any, seconds: float, cpu: float | None) -> dict[str, Any]:
    """One result as JSON: status, method, stats, solutions and times."""
    return {
        "status": result.status.value,
        "method": result.method.value,
        "stats": dict(result.stats),
        "grids": [[list(row) for row in solution.grid] for solution in result.solutions],
        "seconds": seconds,
        "cpu": cpu,
    }


def solve_one(index: int, timeout: float | None) -> dict[str, Any]:
    """Solve one puzzle on one core, timed by the wall clock and by this process's CPU."""
    puzzle = PUZZLES[index]
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        result = solve(puzzle, jobs=1, timeout=timeout)
    except ImpossiblePuzzle:  # versions before solve() gave such puzzles a `none` result
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        return {"status": "none", "method": "line", "stats": {}, "grids": [], "seconds": seconds, "cpu": cpu}
    return answer(result, time.perf_counter() - started, time.process_time() - cpu_started)


def race_one(index: int, timeout: float | None, race_after: float) -> dict[str, Any]:
    """Solve one puzzle with a rival from `race_after` seconds, timed by the wall clock. The
    fork server is started first, untimed, as a batch worker has it (a search in a process
    that has not started it runs alone for a moment first, then again with its rival)."""
    try:
        from nonosat.processes import warm_up
    except ImportError:  # a version before the fork server
        pass
    else:
        warm_up()
    started = time.perf_counter()
    result = solve(PUZZLES[index], jobs=2, race_after=race_after, timeout=timeout)
    return answer(result, time.perf_counter() - started, None)


STAGES = ("line", "build", "load", "sat", "switch", "check")


def stage_times(index: int, repeat: int) -> dict[str, Any]:
    """The stages of one puzzle's solve, as bench/stages.py takes them, each the fastest of
    `repeat` runs (the SAT solve, run once, aside): line logic, building the CNF, loading it into
    MiniSat, the first SAT solve, the 2x2-switch finder and checking the grid against the clues.
    These are internal functions, the same in every version since the blockwise line solver."""
    from nonosat.solver import Search
    from nonosat.solver.encodings.grid import build_formula
    from nonosat.solver.propagation import line_solve
    from nonosat.solver.switch import switched_solution

    puzzle = PUZZLES[index]
    clock = time.perf_counter
    best = dict.fromkeys(STAGES, math.inf)

    def timed(stage: str, work: Any, *args: Any) -> Any:
        started = clock()
        found = work(*args)
        best[stage] = min(best[stage], clock() - started)
        return found

    for _ in range(repeat):
        board = timed("line", line_solve, puzzle)
        if board.is_complete():
            continue
        formula = timed("build", build_formula, board)
        timed("load", Search, formula.clauses, "minisat22").close()
    if board.is_complete():
        grid = board.grid()
    else:
        search = Search(formula.clauses, "minisat22")
        try:
            grid = formula.grid(timed("sat", search.next_model))
        finally:
            search.close()
        for _ in range(repeat):
            timed("switch", switched_solution, puzzle, grid)
    for _ in range(repeat):
        if not timed("check", puzzle.satisfied_by, grid):
            raise AssertionError("a grid that breaks the clues")
    return {stage: (seconds if seconds < math.inf else 0.0) for stage, seconds in best.items()}


def solve_all(jobs: int, timeout: float | None) -> dict[str, Any]:
    """Every puzzle through solve_many on `jobs` workers; per-puzzle times are its own."""
    from nonosat.batch import solve_many

    found: dict[int, dict[str, Any]] = {}
    started = time.perf_counter()
    for index, result in solve_many(PUZZLES, jobs=jobs, timeout=timeout):
        found[index] = answer(result, result.seconds, None)  # the CPU was a worker's
    wall = time.perf_counter() - started
    return {"wall": wall, "answers": [found[index] for index in range(len(PUZZLES))]}


def handle(command: dict[str, Any]) -> dict[str, Any]:
    op = command["op"]
    if op == "hello":
        import nonosat

        return {"nonosat": nonosat.__file__, "python": platform.python_version()}
    if op == "load":
        PUZZLES.clear()
        for path in command["files"]:
            PUZZLES.extend(load_all(path)[: command.get("first")])
        return {"puzzles": len(PUZZLES), "clues_sha1": clue_digest(PUZZLES)}
    if op == "solve":
        return solve_one(command["index"], command.get("timeout"))
    if op == "race":
        return race_one(command["index"], command.get("timeout"), command["race_after"])
    if op == "stages":
        return stage_times(command["index"], command.get("repeat", 3))
    if op == "batch":
        return solve_all(command["jobs"], command.get("timeout"))
    raise ValueError(f"unknown command {op!r}")


def main() -> int:
    for line in sys.stdin:
        try:
            reply = handle(json.loads(line))
        except Exception as error:  # the parent reports it and stops
            reply = {"error": f"{type(error).__name__}: {error}"}
        PROTOCOL.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C reached the whole process group: the parent says so, once
        sys.exit(130)
