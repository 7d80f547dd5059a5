"""The two sides of the speed benchmark: nonosat with an engine, or a peer (CP-SAT, pbnsolve),
each run on a whole set in a fresh process."""

from __future__ import annotations

import multiprocessing
import resource
import time
from dataclasses import dataclass

from bench.colour_set import COLOURS
from bench.sets import set_puzzles
from bench.verdicts import Answer, nonosat_answer, peer_answer, warm_up
from nonosat import Puzzle
from nonosat.batch import solve_many

MODES = ("batch", "single")


@dataclass(frozen=True)
class Side:
    """Who answers: nonosat with an engine, or a peer (CP-SAT, or pbnsolve's binary)."""

    kind: str
    """"nonosat" or "peer"."""
    engine: str = "auto"
    peer: str = "cpsat"
    pbnsolve: str | None = None


PEERS = ("cpsat", "pbnsolve")

CPSAT = Side("peer")
"""The default peer: OR-tools CP-SAT."""


def side_answers(side: Side, puzzles: list[Puzzle], timeout: float | None, jobs: int, mode: str) -> list[Answer | None]:
    """One side's answers on some puzzles, in their order, with the cores used as `mode` says;
    None for a puzzle nonosat's engine does not take (a compiled engine: colour, over 126)."""
    if side.kind == "nonosat" and side.engine != "auto":
        from nonosat.solver.engines import Engine, takes

        taken = [index for index, puzzle in enumerate(puzzles) if takes(Engine(side.engine), puzzle) is None]
        if len(taken) < len(puzzles):
            some = side_answers(side, [puzzles[index] for index in taken], timeout, jobs, mode)
            found: list[Answer | None] = [None] * len(puzzles)
            for index, answer in zip(taken, some, strict=True):
                found[index] = answer
            return found
    if side.kind == "peer" and side.peer == "pbnsolve":
        return pbnsolve_answers(puzzles, timeout, jobs if mode == "batch" else 1, side.pbnsolve)
    if mode == "single":
        if side.kind == "nonosat":
            return [nonosat_answer(puzzle, timeout, jobs, side.engine) for puzzle in puzzles]
        return [peer_answer(puzzle, timeout, jobs) for puzzle in puzzles]
    if side.kind == "nonosat":
        answers: dict[int, Answer] = {}
        for index, result in solve_many(puzzles, jobs=jobs, timeout=timeout, engine=side.engine):
            grids = tuple(solution.grid for solution in result.solutions)
            answers[index] = Answer(result.status.value, grids, result.seconds)
        return [answers[index] for index in range(len(puzzles))]  # a missing answer is a KeyError
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_warm_peer) as pool:
        return list(pool.map(_peer_answer_one_core, puzzles, [timeout] * len(puzzles), chunksize=4))


def _warm_peer() -> None:
    """In each of the peer's worker processes, before its first puzzle: import OR-tools and solve
    a tiny puzzle, black and white and colour, so that no puzzle's time holds the import (about
    1.5 s). nonosat's per-puzzle times are taken inside `solve`, after its worker has imported it."""
    peer_answer(Puzzle.from_grid([[1]]), None, 1)
    peer_answer(Puzzle.from_grid([[1, 2]], palette=COLOURS[:3]), None, 1)


def _peer_answer_one_core(puzzle: Puzzle, timeout: float | None) -> Answer:
    return peer_answer(puzzle, timeout, 1)


def pbnsolve_answers(
    puzzles: list[Puzzle], timeout: float | None, jobs: int, binary: str | None
) -> list[Answer | None]:
    """pbnsolve on each puzzle, `jobs` processes at a time (it runs on one core)."""
    from concurrent.futures import ThreadPoolExecutor

    from bench.peer_pbnsolve import pbnsolve_answer, pbnsolve_path

    path = pbnsolve_path(binary)
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda puzzle: pbnsolve_answer(puzzle, timeout, path), puzzles))


def _run_side(
    side: Side,
    name: str,
    first: int | None,
    timeout: float | None,
    jobs: int,
    mode: str,
    queue: multiprocessing.Queue[object],
) -> None:
    """In a child process: one side's answers on a whole set, the set's wall-clock time, and
    the peak memory of the largest process it ran (itself, or a worker)."""
    warm_up(jobs, peer=side.kind == "peer" and side.peer == "cpsat")
    puzzles, _ = set_puzzles(name, first)
    started = time.perf_counter()
    answers = side_answers(side, [puzzle for _label, puzzle in puzzles], timeout, jobs, mode)
    wall = time.perf_counter() - started
    peak_kib = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    queue.put((answers, wall, peak_kib))


def run_side(
    side: Side, name: str, first: int | None, timeout: float | None, jobs: int, mode: str = "batch"
) -> tuple[list[Answer | None], float, int]:
    """Run one side on a set in a fresh process; returns its answers, the set's wall-clock
    seconds and the peak memory in KiB."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[object] = context.Queue()
    child = context.Process(target=_run_side, args=(side, name, first, timeout, jobs, mode, queue))
    child.start()
    while True:
        try:
            got: tuple[list[Answer | None], float, int] = queue.get(timeout=5)  # type: ignore[assignment]
            break
        except Exception:  # queue.Empty: is the child still there?
            if not child.is_alive():
                raise RuntimeError(
                    f"the {side.kind} process for set {name} died (exit code {child.exitcode})"
                ) from None
    child.join()
    return got
