"""The generator benchmark's hard set (bench/hard_*.py): its own line solver agrees with
nonosat's, the exhaustive minimum is a minimum, the pictures are the same every run, and the
command writes the hard set into its JSON."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("PIL.Image")

from bench import generate  # noqa: E402
from bench.hard_minimum import exhaustive_minimum, line_solvable  # noqa: E402
from bench.hard_pictures import (  # noqa: E402
    KINDS,
    SHAPES,
    random_grid,
    random_pictures,
    shape_pictures,
    small_pictures,
    start_grid,
)
from nonosat.model import Grid, Puzzle  # noqa: E402
from nonosat.solver.propagation import line_solve  # noqa: E402


def _rows(grid: Grid) -> list[int]:
    return [sum(cell << c for c, cell in enumerate(row)) for row in grid]


def _solvable(grid: Grid) -> bool:
    return line_solve(Puzzle.from_grid(grid)).is_complete()


def test_line_solvable_agrees_with_nonosat_on_random_grids() -> None:
    rng = random.Random(7)
    for _ in range(400):
        width, height, density = rng.randint(1, 8), rng.randint(1, 8), rng.choice((0.3, 0.5, 0.7))
        grid = tuple(tuple(int(rng.random() < density) for _ in range(width)) for _ in range(height))
        assert line_solvable(_rows(grid), width, height) == _solvable(grid), grid


def test_exhaustive_minimum_is_the_fewest_flips() -> None:
    two_ways = ((1, 0, 0), (0, 1, 0), (0, 0, 0))  # its 2x2 corner reads both ways
    best = exhaustive_minimum(two_ways, cap=3)
    assert best.minimum == 1 and len(best.flips) == 1 and best.searched == 0
    flipped = [list(row) for row in two_ways]
    for r, c in best.flips:
        flipped[r][c] ^= 1
    assert _solvable(tuple(map(tuple, flipped)))
    assert not _solvable(two_ways)
    assert exhaustive_minimum(((1, 1), (0, 1))).minimum == 0


def test_exhaustive_minimum_agrees_with_brute_force_through_nonosat() -> None:
    for seed in range(1, 6):
        grid = random_grid(4, seed)
        cells = list(itertools.product(range(4), repeat=2))
        fewest = next(
            k
            for k in range(4)
            for chosen in itertools.combinations(cells, k)
            if _solvable(tuple(tuple(v ^ ((r, c) in chosen) for c, v in enumerate(row)) for r, row in enumerate(grid)))
        )
        assert exhaustive_minimum(grid, cap=3).minimum == fewest


def test_exhaustive_minimum_says_how_far_it_searched() -> None:
    needs_two = random_grid(8, 2)
    best = exhaustive_minimum(needs_two, cap=1)
    assert best.minimum is None and best.searched == 1 and best.text == ">1" and best.checks == 1 + 64
    assert exhaustive_minimum(needs_two, cap=2).minimum == 2


def test_pictures_are_the_same_every_time(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    pictures = shape_pictures(first)
    shape_pictures(second)
    assert [p.kind for p in pictures] == [name for name in SHAPES for _ in range(3)]
    for name in SHAPES:
        assert (first / f"{name}.png").read_bytes() == (second / f"{name}.png").read_bytes()
    star = next(p for p in pictures if p.kind == "star" and p.width == 20)
    grid = start_grid(star)
    assert len(grid) == 20 and len(grid[0]) == 20 and 0 < sum(map(sum, grid)) < 400
    assert len(random_pictures()) == 30 and {p.size for p in random_pictures()} == {"25x25", "30x30", "40x40"}


def test_small_random_grids_threshold_back_to_themselves(tmp_path: Path) -> None:
    randoms = [p for p in small_pictures(tmp_path) if p.kind == "random"][:3]
    assert [start_grid(p) for p in randoms] == [random_grid(p.width, p.seed) for p in randoms]


@pytest.mark.slow
def test_the_command_runs_the_hard_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen.json"
    code = generate.main(["--sets", "hard", "--kinds", "star", "--first", "1", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert "| star 20x20 | 1 |" in printed and "| star | star | 6x6 |" in printed and "against the issue's" in printed
    hard = json.loads(out.read_text())["hard"]
    assert [g["size"] for g in hard["generations"]] == ["20x20"]
    assert hard["small"][0]["exhaustive"]["minimum"] is not None
    assert generate.main(["--sets", "hard", "--kinds", "moon"]) == 2
    assert "moon" not in KINDS
