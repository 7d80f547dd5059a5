"""A case of the generator benchmark's hard set made and judged: made with require="line"
(`make_hard`) and checked from its clues alone (`falsehood`); a small case also beside its
exhaustive minimum (`small_case`, `small_table`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bench.hard_minimum import Exhaustive, exhaustive_minimum
from bench.hard_pictures import Picture, start_grid
from nonosat.errors import CutShort, GenerateFailed
from nonosat.explain.rating import rate
from nonosat.generate import Generated, from_image, random_puzzle
from nonosat.model import Puzzle
from nonosat.solver import Status, solve
from nonosat.solver.propagation import line_solve


@dataclass(frozen=True)
class SmallCase:
    """The exhaustive minimum of flips for line logic beside the number ours changed."""

    kind: str
    name: str
    size: str
    exhaustive: Exhaustive
    ours: int | None
    within_1: bool | None
    """None when the exhaustive search stopped too early to tell."""
    why: str | None = None
    same_start: bool | None = None
    false_claim: bool = False


def make_hard(picture: Picture, timeout: float | None) -> Generated:
    """One hard picture made into a puzzle with require="line" (seed 0, or a random grid's seed)."""
    if picture.path is None:
        return random_puzzle(picture.width, picture.height, seed=picture.seed, require="line", timeout=timeout)
    return from_image(picture.path, width=picture.width, height=picture.height, require="line", timeout=timeout)


def falsehood(made: Generated) -> str | None:
    """What is wrong with a claimed puzzle, or None: it must be unique from its clues alone with its
    goal the solution, rated "line", and differ from `start` in exactly the cells `changed` says."""
    puzzle = made.puzzle
    bare = Puzzle(rows=puzzle.rows, columns=puzzle.columns)
    proof = solve(bare, jobs=1)
    if proof.status is not Status.UNIQUE or proof.solutions[0].grid != puzzle.goal:
        return f"solved from its clues: {proof.status.value}"
    level = rate(bare, timeout=60).level
    if level != "line":
        return f"rated {level.value}"
    assert puzzle.goal is not None
    differ = {(r, c) for r, row in enumerate(puzzle.goal) for c, cell in enumerate(row) if cell != made.start[r][c]}
    if differ != set(made.changed):
        return f"{len(differ)} cells differ from the start, {len(made.changed)} claimed changed"
    return None


def small_case(picture: Picture, cap: int, budget: float, timeout: float | None) -> SmallCase:
    start = start_grid(picture)
    best = exhaustive_minimum(start, cap, budget)
    fixed = [list(row) for row in start]
    for r, c in best.flips:
        fixed[r][c] ^= 1
    if best.minimum is not None and not line_solve(Puzzle.from_grid(fixed)).is_complete():
        raise SystemExit(f"bench.generate: {picture.name} {picture.size}: nonosat's line logic refutes {best.flips}")
    named = (picture.kind, picture.name, picture.size, best)
    try:
        made = make_hard(picture, timeout)
    except (GenerateFailed, CutShort) as failure:
        return SmallCase(*named, None, False, why=type(failure).__name__)
    false = falsehood(made)
    if false is not None:
        return SmallCase(*named, None, False, why=f"FALSE CLAIM: {false}", false_claim=True)
    ours = len(made.changed)
    at_least = best.minimum if best.minimum is not None else best.searched + 1
    if made.start == start and ours < at_least:
        raise SystemExit(f"bench.generate: {picture.name} {picture.size}: ours changed {ours}, below {best.text}")
    if best.minimum is not None:
        within: bool | None = ours <= best.minimum + 1
    else:  # the minimum is over best.searched: ours is within 1 of it if at most best.searched + 2
        within = True if ours <= at_least + 1 else None
    return SmallCase(*named, ours, within, same_start=made.start == start)


def small_table(cases: Sequence[SmallCase]) -> str:
    lines = [
        "| kind | name | size | exhaustive min | ours | within 1 | exhaustive s |",
        "|---|---|---|---:|---:|---|---:|",
    ]
    for c in cases:
        ours = c.ours if c.ours is not None else f"failed ({c.why})"
        within = {True: "yes", False: "no", None: "unknown"}[c.within_1] + (" (other start)" * (c.same_start is False))
        lines.append(
            f"| {c.kind} | {c.name} | {c.size} | {c.exhaustive.text} | {ours} | {within} | {c.exhaustive.seconds:.2f} |"
        )
    return "\n".join(lines)
