"""The repair search on hard pictures: few changes (within one of the fewest on small pictures),
along the edges of thin lines, none that could be undone, repeatable by seed, every claim proved;
the probe requirement, the distance budget in grey levels, never overshot; the repair's line logic
keeps to its deadline, and giving back changes keeps the puzzle proved and leaves the caller its
time."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path
from typing import Any

import pytest
from generate_shared import (
    proved_line_solvable,
    smiley_fixture,  # noqa: F401  (fixture)
)

from nonosat.deadline import NO_DEADLINE
from nonosat.errors import GenerateFailed
from nonosat.explain.rating import rate
from nonosat.generate import from_image
from nonosat.generate.random_picture import random_picture
from nonosat.generate.repair import Requirement, no_cost, repair
from nonosat.model import Grid, Puzzle
from nonosat.solver import Status, solve
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")


def changes(a: Grid, b: Grid) -> int:
    return sum(x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("size", [20, 30])
def test_a_picture_of_thin_lines_becomes_line_solvable_with_few_changes_along_its_edges(
    smiley: Path, size: int
) -> None:
    made = from_image(smiley, width=size, require="line", timeout=120)
    proved_line_solvable(made.puzzle)
    assert made.puzzle.goal is not None
    assert len(made.changed) == changes(made.start, made.puzzle.goal) <= 0.05 * size * size
    # shapes kept: a changed cell has a neighbour of its new colour (no specks, no holes), nearly always
    goal = made.puzzle.goal
    lonely = [
        (r, c)
        for r, c in made.changed
        if all(
            not (0 <= i < size and 0 <= j < size and goal[i][j] == goal[r][c])
            and not (goal[r][c] == 0 and not (0 <= i < size and 0 <= j < size))
            for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        )
    ]
    assert len(lonely) <= len(made.changed) // 4
    assert made.distance > 0 and rate(made.puzzle).level == "line"


def _exhaustive(grid: Grid, most: int) -> int | None:
    """The fewest flips that make the picture line-solvable, trying every set of up to `most`."""
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    for size in range(most + 1):
        for chosen in itertools.combinations(cells, size):
            picture = [list(row) for row in grid]
            for r, c in chosen:
                picture[r][c] ^= 1
            if line_solve(Puzzle.from_grid(picture)).is_complete():
                return size
    return None


def test_on_small_pictures_the_changes_are_within_one_of_the_fewest_possible() -> None:
    near, counted = 0, 0
    for seed in range(1, 41):
        grid = tuple(tuple(int(v) for v in row) for row in random_picture(6, 6, 0.5, 1, random.Random(seed)))
        fewest = _exhaustive(grid, 2)
        if not fewest:
            continue  # already line-solvable, or needing more than two flips: too slow to prove here
        made = repair(grid, no_cost, Requirement.LINE, max_changes=10, seed=seed)
        proved_line_solvable(Puzzle.from_grid(made.grid))
        assert len(made.changed) >= fewest  # (fewer would mean the exhaustive search is wrong)
        counted += 1
        near += len(made.changed) <= fewest + 1
    assert counted >= 5 and near >= 0.9 * counted


@pytest.mark.parametrize("size", [24, 32])
def test_no_change_of_a_line_repair_can_be_undone_and_stay_line_solvable(smiley: Path, size: int) -> None:
    made = from_image(smiley, width=size, require="line")
    assert made.puzzle.goal is not None and made.changed
    for r, c in made.changed:
        picture = [list(row) for row in made.puzzle.goal]
        picture[r][c] = made.start[r][c]
        assert not line_solve(Puzzle.from_grid(picture)).is_complete()


@pytest.mark.slow
def test_the_same_seed_gives_the_same_repair_and_another_seed_may_not(smiley: Path) -> None:
    first = from_image(smiley, width=24, require="line", seed=1)
    again = from_image(smiley, width=24, require="line", seed=1)
    assert first.puzzle == again.puzzle and first.changed == again.changed


def test_probe_puzzles_are_rated_line_or_probe(smiley: Path) -> None:
    for size in (18, 26):
        made = from_image(smiley, width=size, require="probe", timeout=120)
        assert rate(made.puzzle).level in ("line", "probe")
        assert solve(made.puzzle, count=2).status is Status.UNIQUE


def test_a_distance_budget_too_small_fails_without_a_claim(smiley: Path) -> None:
    with pytest.raises(GenerateFailed, match="and a picture distance of 0.5"):
        from_image(smiley, width=30, require="line", max_distance=0.5)


@pytest.mark.slow
@pytest.mark.parametrize("budget", [2.0, 6.0, 12.0])
def test_a_distance_budget_is_never_overshot(smiley: Path, budget: float) -> None:
    try:
        made = from_image(smiley, width=24, require="line", max_distance=budget)
    except GenerateFailed:
        return
    assert made.distance <= budget
    unbounded = from_image(smiley, width=24, require="line")
    assert unbounded.distance > 2.0  # so the smallest budget is a real limit


def test_the_distance_counts_grey_levels_not_the_pictures_own_contrast(tmp_path: Path) -> None:
    """A faint picture (greys 120 and 135, cut between) moves less than a black-and-white one."""
    grid = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
    for name, dark, light in (("faint", 120, 135), ("bold", 0, 255)):
        picture = Image.new("L", (4, 4))
        picture.putdata([dark if cell else light for row in grid for cell in row])
        picture.save(tmp_path / f"{name}.png")
    faint = from_image(tmp_path / "faint.png", width=4, require="line")
    bold = from_image(tmp_path / "bold.png", width=4, require="line")
    assert len(faint.changed) == len(bold.changed) > 0
    assert faint.distance < 0.1 * len(faint.changed) and bold.distance >= len(bold.changed)


def test_a_small_drawing_that_probing_solves_needs_no_change() -> None:
    """A 6x6 drawing whose puzzle is unique but needs probing (20 cells left open by line logic,
    over a quarter of the grid): `require=probe` proves it as it is, where line logic alone
    cannot, and changes nothing; `require=line` must change it."""
    rows = ["001001", "000111", "100110", "011000", "011101", "100101"]
    drawing = tuple(tuple(int(cell) for cell in row) for row in rows)
    as_it_is = repair(drawing, no_cost, Requirement.PROBE, max_changes=3)
    assert as_it_is.changed == () and as_it_is.grid == drawing
    assert rate(as_it_is.result.puzzle).level == "probe"
    assert repair(drawing, no_cost, Requirement.LINE, max_changes=3).changed


def test_every_line_logic_of_the_repair_keeps_to_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found `random --colours 4 --timeout 1.5` at 256x256 taking 3.3 s (8.6 s in pure
    Python): the repair's line logic ran with no deadline."""
    from nonosat.deadline import Deadline
    from nonosat.generate import random_puzzle
    from nonosat.generate import search as searching

    seen: list[Deadline | None] = []
    real = searching.propagate  # type: ignore[attr-defined]

    def watched(*args: Any, **options: Any) -> Any:
        seen.append(options.get("deadline", None))
        return real(*args, **options)

    monkeypatch.setattr(searching, "propagate", watched)
    deadline = Deadline.after(600)
    random_puzzle(12, 12, colours=3, seed=2, require="line", timeout=deadline)
    assert seen and all(given is deadline for given in seen)


def test_a_time_limit_while_giving_back_changes_keeps_the_puzzle_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: `random --timeout 10` with the puzzle proved unique at 5.6 s wrote nothing, the
    time limit having come while changes no longer needed were given back. The puzzle proved
    is kept, every change given back put again."""
    import importlib

    from nonosat import check
    from nonosat.errors import TimeUp

    repairing = importlib.import_module("nonosat.generate.repair")
    grid = random_picture(15, 15, 0.3, 1, random.Random(2), NO_DEADLINE)  # three changes, all needed
    whole = repair(grid, no_cost, Requirement.UNIQUE, max_changes=40, tries=0, line_first=False)
    tried: list[int] = []

    def holds(*args: Any) -> bool:  # a first change given back, then the time limit
        tried.append(1)
        if len(tried) > 1:
            raise TimeUp("giving back changes no longer needed")
        return True

    monkeypatch.setattr(repairing, "_holds", holds)
    cut = repair(grid, no_cost, Requirement.UNIQUE, max_changes=40, tries=0, line_first=False)
    assert len(tried) == 2 and len(whole.changed) == 3
    assert (cut.grid, cut.changed) == (whole.grid, whole.changed)  # the change given back is put again
    assert cut.result.status.value == "unique" and cut.result.solutions[0].grid == cut.grid
    assert check(Puzzle.from_grid(cut.grid)).result.status.value == "unique"


def test_giving_back_leaves_the_caller_its_time_and_goes_on_past_an_undecided_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review of the mend: giving back ran to the deadline itself, so that a preview could no
    longer be drawn (exit 4, nothing written); it now ends by `_later`'s share, leaving the caller
    as long as the repair took. And a check cut short for another reason than time (a formula
    too large) stopped all giving back: it keeps that one cell and goes on."""
    import importlib

    from nonosat.deadline import Deadline
    from nonosat.errors import CutShort

    repairing = importlib.import_module("nonosat.generate.repair")
    grid = random_picture(15, 15, 0.3, 1, random.Random(2), NO_DEADLINE)  # three changes, all needed
    given: list[Deadline] = []
    real_pruned, real_holds = repairing._pruned, repairing._holds

    def pruned(require: Any, drawing: Any, proof: Any, deadline: Deadline) -> Any:
        given.append(deadline)
        return real_pruned(require, drawing, proof, deadline)

    tried: list[int] = []

    def holds(*args: Any) -> bool:
        tried.append(1)
        if len(tried) == 1:
            raise CutShort("the formula is too large")
        return bool(real_holds(*args))

    monkeypatch.setattr(repairing, "_pruned", pruned)
    monkeypatch.setattr(repairing, "_holds", holds)
    overall = Deadline.after(600)
    assert overall.at is not None
    started = time.monotonic()
    made = repair(grid, no_cost, Requirement.UNIQUE, max_changes=40, tries=0, line_first=False, timeout=overall)
    whole = time.monotonic() - started  # what the repair took, at most (not a speed: a share of it)
    assert len(given) == 1 and given[0].at is not None
    assert 0 < overall.at - given[0].at <= whole  # as long as the repair took is kept from the giving back
    assert len(tried) == 3 and len(made.changed) == 3  # each of the three tried, none given back
    assert made.result.status.value == "unique" and made.result.solutions[0].grid == made.grid
