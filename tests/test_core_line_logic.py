"""The compiled core (nonosat._core) against the Python line logic it mirrors, and its
search against brute force and the tournament sets' published solutions."""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from test_cdcl import unpacked

from nonosat.formats import load, load_all
from nonosat.formats.tournament import load_tournament_solutions
from nonosat.model import Clue, Grid, Puzzle, clue_of
from nonosat.solver.line_logic import Contradiction, settle_line
from nonosat.solver.propagation import Board, propagate

core = pytest.importorskip("nonosat._core")


def python_propagate(board: Board, lines: list[tuple[bool, int]] | None = None) -> Board:
    """propagation.propagate in Python, even where it would hand the work to the compiled core."""
    return propagate(board, lines, compiled=False)


def python_settle(clue: Clue, length: int, filled: int, empty: int) -> tuple[int, int] | None:
    try:
        return settle_line(clue, length, filled, empty)
    except Contradiction:
        return None


def clues_fitting(length: int) -> list[Clue]:
    """Every clue of a line of `length` cells, the empty one included."""
    found: list[Clue] = [()]

    def extend(clue: Clue, used: int) -> None:
        for size in range(1, length - used + 1):
            found.append(clue + (size,))
            extend(clue + (size,), used + size + 1)

    extend((), 0)
    return found


def known_pairs(length: int) -> list[tuple[int, int]]:
    """Every (filled, empty) pair of disjoint masks over `length` cells."""
    return [
        (sum(1 << i for i, v in enumerate(values) if v == 1), sum(1 << i for i, v in enumerate(values) if v == 2))
        for values in itertools.product((0, 1, 2), repeat=length)
    ]


# ---------------------------------------------------------------- settle


def test_settle_matches_settle_line_on_every_short_line() -> None:
    for length in range(1, 7):
        clues = clues_fitting(length) + [(length + 1,), (1,) * (length // 2 + 2)]  # and two that cannot fit
        for clue in clues:
            for filled, empty in known_pairs(length):
                assert core.settle(clue, length, filled, empty) == python_settle(clue, length, filled, empty), (
                    clue,
                    length,
                    filled,
                    empty,
                )


def test_settle_matches_settle_line_on_sampled_lines_of_7_to_10_cells() -> None:
    rng = random.Random(7)
    for length in range(7, 11):
        pairs = known_pairs(length)
        for clue in clues_fitting(length):
            for filled, empty in rng.sample(pairs, 40):
                assert core.settle(clue, length, filled, empty) == python_settle(clue, length, filled, empty)


def random_line(rng: random.Random, longest: int) -> tuple[Clue, int, int, int]:
    """A random line of up to `longest` cells: its clue (a block mangled one time in five, so
    that it often no longer fits), its length, and some of its cells known (filled, empty)."""
    length = rng.randint(1, longest)
    density = rng.random()
    cells = [rng.random() < density for _ in range(length)]
    clue = clue_of([int(c) for c in cells])
    if clue and rng.random() < 0.2:
        j = rng.randrange(len(clue))
        clue = clue[:j] + (max(1, clue[j] + rng.choice((-1, 1))),) + clue[j + 1 :]
    known = [rng.random() < 0.4 for _ in range(length)]
    filled = sum(1 << i for i in range(length) if known[i] and cells[i])
    empty = sum(1 << i for i in range(length) if known[i] and not cells[i])
    return clue, length, filled, empty


def test_settle_matches_settle_line_on_random_long_lines() -> None:
    rng = random.Random(64)
    contradictions = 0
    for _ in range(3000):
        clue, length, filled, empty = random_line(rng, 64)
        expected = python_settle(clue, length, filled, empty)
        contradictions += expected is None
        assert core.settle(clue, length, filled, empty) == expected, (clue, length, filled, empty)
    assert contradictions > 50  # the sample holds contradictions too


def test_settle_decides_full_64_cell_lines() -> None:
    full = (1 << 64) - 1
    assert core.settle((64,), 64, 0, 0) == (full, 0)
    alternate = 0x5555555555555555 & ((1 << 63) - 1)
    assert core.settle((1,) * 32, 63, 0, 0) == (alternate, alternate ^ ((1 << 63) - 1))
    assert core.settle((1,) * 32, 64, 0, 0) == (0, 0) == python_settle((1,) * 32, 64, 0, 0)
    assert core.settle((31, 32), 64, 0, 0) == (full ^ (1 << 31), 1 << 31)
    assert core.settle((1,) * 33, 64, 0, 0) is None
    assert core.settle((65,), 64, 0, 0) is None
    assert core.settle((), 64, 0, 0) == (0, full)
    assert core.settle((), 64, 1, 0) is None


def test_settle_refuses_bad_input() -> None:
    bad = [((1,), 0, 0, 0), ((1,), 65, 0, 0), ((1,), 3, 8, 0), ((1,), 3, 1, 1), ((0,), 3, 0, 0), ((-2,), 3, 0, 0)]
    for args in bad:
        with pytest.raises(ValueError):
            core.settle(*args)
    with pytest.raises(TypeError):
        core.settle(("a",), 3, 0, 0)


# ---------------------------------------------------------------- propagate


def core_propagate(puzzle: Puzzle, board: Board | None = None, lines: list[tuple[bool, int]] | None = None) -> Any:
    board = board or Board(puzzle)
    if lines is None:
        lines = [(True, r) for r in range(puzzle.height)] + [(False, c) for c in range(puzzle.width)]
    return core.propagate(
        puzzle.rows, puzzle.columns, board.row_filled, board.row_empty, board.col_filled, board.col_empty, lines
    )


def assert_propagates_alike(
    puzzle: Puzzle, lines: list[tuple[bool, int]] | None = None, board: Board | None = None
) -> str:
    """Run both; returns "solved", "stuck" or "contradiction" for the caller's tally."""
    start = board or Board(puzzle)
    before = (list(start.row_filled), list(start.row_empty), list(start.col_filled), list(start.col_empty))
    passes, bad, *masks = core_propagate(puzzle, start, lines)
    assert (list(start.row_filled), list(start.row_empty), list(start.col_filled), list(start.col_empty)) == before
    board = start.copy()
    try:
        python_propagate(board, lines)
        expected_bad = None
    except Contradiction as error:
        expected_bad = error.line
    assert (passes, bad) == (board.passes - start.passes, expected_bad)
    if bad is not None:
        return "contradiction"
    assert masks == [board.row_filled, board.row_empty, board.col_filled, board.col_empty]
    return "solved" if board.is_complete() else "stuck"


def random_grid(rng: random.Random, height: int, width: int, density: float) -> Grid:
    return tuple(tuple(int(rng.random() < density) for _ in range(width)) for _ in range(height))


def puzzle_of(grid: Grid) -> Puzzle:
    return Puzzle(
        rows=tuple(clue_of(list(row)) for row in grid),
        columns=tuple(clue_of(list(col)) for col in zip(*grid, strict=True)),
    )


def test_propagate_matches_python_on_random_puzzles() -> None:
    rng = random.Random(3)
    outcomes = set()
    for _ in range(150):
        height, width = rng.randint(1, 12), rng.randint(1, 12)
        puzzle = puzzle_of(random_grid(rng, height, width, rng.uniform(0.3, 0.7)))
        outcomes.add(assert_propagates_alike(puzzle))
        # some lines only, in a shuffled order with a repeat, as a search step would queue them
        lines = [(True, r) for r in range(height)] + [(False, c) for c in range(width)]
        rng.shuffle(lines)
        lines = lines[: rng.randint(1, len(lines))]
        lines.append(lines[0])
        assert_propagates_alike(puzzle, lines)
    assert outcomes == {"solved", "stuck"}


def test_propagate_names_the_same_line_in_contradiction() -> None:
    rng = random.Random(5)
    outcomes = []
    for _ in range(150):
        height, width = rng.randint(2, 10), rng.randint(2, 10)
        puzzle = puzzle_of(random_grid(rng, height, width, 0.5))
        rows, columns = list(puzzle.rows), list(puzzle.columns)
        side = rows if rng.random() < 0.5 else columns
        length = width if side is rows else height
        j = rng.randrange(len(side))
        side[j] = clue_of([int(rng.random() < 0.5) for _ in range(length)])  # a made-up clue
        mangled = Puzzle(rows=tuple(rows), columns=tuple(columns))
        outcomes.append(assert_propagates_alike(mangled))
    assert outcomes.count("contradiction") > 30


def test_propagate_starts_from_known_cells() -> None:
    rng = random.Random(11)
    for _ in range(50):
        grid = random_grid(rng, 8, 9, 0.5)
        puzzle = puzzle_of(grid)
        board = Board(puzzle)
        for r, c in itertools.product(range(8), range(9)):
            if rng.random() < 0.15:
                board.set_cell(r, c, grid[r][c])
        assert_propagates_alike(puzzle, [(True, 0), (False, 8)], board)


def test_propagate_refuses_bad_input() -> None:
    rows, columns = ((1,), (1,)), ((1,), (1,))
    z = [0, 0]
    with pytest.raises(ValueError):
        core.propagate(((1,),) * 65, columns, [0] * 65, [0] * 65, z, z, [])
    with pytest.raises(ValueError):
        core.propagate(rows, columns, [4, 0], z, z, z, [])  # a cell past the row's end
    with pytest.raises(ValueError):
        core.propagate(rows, columns, [1, 0], [1, 0], z, z, [])  # filled and empty
    with pytest.raises(ValueError):
        core.propagate(rows, columns, z, z, z, z, [(True, 2)])
    with pytest.raises(ValueError):
        core.propagate(rows, columns, [0], z, z, z, [])


def corpus_puzzles(corpus: Path) -> list[Puzzle]:
    """Black-and-white corpus puzzles of up to 64x64: 30 from the survey and nonogram-db, 30
    tournament puzzles."""
    found = []
    for path in sorted(corpus.glob("webpbn/*.non")) + sorted(corpus.glob("nonogram-db/**/*.non")):
        puzzle = load(str(path))
        if puzzle.colour_count == 1 and puzzle.width <= 64 and puzzle.height <= 64:
            found.append(puzzle)
    return found[:30] + load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:30]


@pytest.mark.slow
def test_propagate_matches_python_on_corpus_puzzles(corpus: Path) -> None:
    outcomes = [assert_propagates_alike(puzzle) for puzzle in corpus_puzzles(corpus)]
    assert len(outcomes) == 60
    assert {"solved", "stuck"} <= set(outcomes)


# ---------------------------------------------------------------- search


def core_search(puzzle: Puzzle, board: Board | None = None, most: int = 2, budget: int = 0, seconds: float = 0) -> Any:
    """core.search's answer, its grids unpacked (tuples of row masks)."""
    board = board or Board(puzzle)
    masks = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    complete, packed, made = core.search(puzzle.rows, puzzle.columns, *masks, most, budget, seconds)
    return complete, unpacked(core, packed, puzzle.height), made


def grid_of(masks: tuple[int, ...], width: int) -> Grid:
    return tuple(tuple((mask >> c) & 1 for c in range(width)) for mask in masks)


@functools.cache
def every_puzzle(height: int, width: int) -> dict[tuple[tuple[Clue, ...], tuple[Clue, ...]], list[Grid]]:
    """Brute force: every grid of this size, by its clues."""
    row_clue = [clue_of([(bits >> c) & 1 for c in range(width)]) for bits in range(1 << width)]
    found: dict[tuple[tuple[Clue, ...], tuple[Clue, ...]], list[Grid]] = {}
    for rows in itertools.product(range(1 << width), repeat=height):
        columns = tuple(clue_of([(rows[r] >> c) & 1 for r in range(height)]) for c in range(width))
        found.setdefault((tuple(row_clue[bits] for bits in rows), columns), []).append(grid_of(rows, width))
    return found


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("height, width", [(4, 4), (3, 5)])
def test_search_finds_exactly_every_solution_of_small_puzzles(height: int, width: int) -> None:
    everything = every_puzzle(height, width)
    rng = random.Random(height * 10 + width)
    sample = rng.sample(sorted(everything), 300)
    multiple = 0
    for rows, columns in sample:
        puzzle = Puzzle(rows=rows, columns=columns)
        solutions = sorted(everything[(rows, columns)])
        multiple += len(solutions) > 1
        complete, found, _ = core_search(puzzle, most=1000)
        assert complete and sorted(grid_of(s, width) for s in found) == solutions
        complete, found, _ = core_search(puzzle, most=2)
        assert complete and len(found) == min(2, len(solutions)) and len(set(found)) == len(found)
        assert all(grid_of(s, width) in solutions for s in found)
    assert multiple > 20


@pytest.mark.slow
def test_search_says_none_when_clues_clash() -> None:
    rng = random.Random(9)
    clashes = 0
    for _ in range(100):
        puzzle = puzzle_of(random_grid(rng, 4, 4, 0.5))
        rows, columns = list(puzzle.rows), list(puzzle.columns)
        columns[0] = clue_of([int(rng.random() < 0.5) for _ in range(4)])
        mangled = Puzzle(rows=tuple(rows), columns=tuple(columns))
        solutions = every_puzzle(4, 4).get((mangled.rows, mangled.columns), [])
        clashes += not solutions
        complete, found, _ = core_search(mangled, most=1000)
        assert complete and sorted(grid_of(s, 4) for s in found) == sorted(solutions)
    assert clashes > 30


def test_search_keeps_to_known_cells_and_sides_up_to_64() -> None:
    rng = random.Random(2)
    grid = random_grid(rng, 64, 40, 0.6)
    puzzle = puzzle_of(grid)
    board = Board(puzzle)
    for r, c in itertools.product(range(64), range(40)):
        if rng.random() < 0.8:  # known in the row view or the column view alone: either is taken
            (board.row_filled if grid[r][c] else board.row_empty)[r] |= 1 << c
        elif rng.random() < 0.5:
            (board.col_filled if grid[r][c] else board.col_empty)[c] |= 1 << r
    complete, found, _ = core_search(puzzle, board, most=2)
    assert complete and found and all(puzzle.satisfied_by(grid_of(s, 40)) for s in found)
    in_column = [board.col_filled[c] | board.col_empty[c] for c in range(40)]
    known = [(r, c) for r in range(64) for c in range(40) if board.cell(r, c) is not None or in_column[c] >> r & 1]
    assert all((s[r] >> c) & 1 == grid[r][c] for s in found for r, c in known)
    # a known cell against every solution: none is left
    r, c = next((r, c) for r in range(64) for c in range(40) if board.cell(r, c) is None)
    (board.row_empty if found[0][r] >> c & 1 else board.row_filled)[r] |= 1 << c
    complete, others, _ = core_search(puzzle, board, most=2)
    assert complete and found[0] not in others


def test_search_refuses_bad_input() -> None:
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    with pytest.raises(ValueError):
        core.search(puzzle.rows, puzzle.columns, [1, 0], [0, 0], [0, 0], [1, 0], 2, 0, 0)  # (0, 0) both ways
    with pytest.raises(ValueError):
        core.search(puzzle.rows, puzzle.columns, [0, 0], [0, 0], [0, 0], [0, 0], 0, 0, 0)
    with pytest.raises(ValueError):
        core.search(((1,),) * 65, ((1,),), [0] * 65, [0] * 65, [0], [0], 2, 0, 0)
    assert core.MAX_SIDE == 64


TAAI2011_UNIQUE = {3, 14, 33, 58, 65, 66, 74, 77}
"""The puzzles of taai2011's first 100 with one solution (nonosat.solver.solve agrees)."""


@pytest.mark.slow
def test_search_agrees_with_published_tournament_solutions(corpus: Path) -> None:
    question = corpus / "tcga" / "question" / "taai2011.txt"
    published = load_tournament_solutions((corpus / "tcga" / "solution" / "taai2011.txt").read_text())
    for number, puzzle in enumerate(load_all(str(question))[:100], start=1):
        board = propagate(Board(puzzle))
        complete, found, _ = core_search(puzzle, board, seconds=10)
        assert complete
        grids = [grid_of(s, 25) for s in found]
        assert all(puzzle.satisfied_by(grid) for grid in grids)
        if number in TAAI2011_UNIQUE:
            assert grids == [published[number]]
        else:
            assert len(grids) == 2 and grids[0] != grids[1]
        # half the published solution given: the search must still find it among the rest
        if number <= 20:
            given = board.copy()
            goal = published[number]
            for r, c in itertools.product(range(25), range(25)):
                if (r + c) % 2 == 0 and given.cell(r, c) is None:
                    given.set_cell(r, c, goal[r][c])
            complete, found, _ = core_search(puzzle, given, most=1000)
            assert complete and goal in [grid_of(s, 25) for s in found]


@pytest.mark.slow
def test_search_stops_at_its_budget_and_clock(corpus: Path) -> None:
    puzzle = load_all(str(corpus / "tcga" / "question" / "tcga2012.txt"))[913]  # #914: a thousand choices
    complete, found, nodes = core_search(puzzle, budget=5)
    assert (complete, nodes) == (False, 5)
    complete, found, nodes = core_search(puzzle, seconds=0.002)
    assert not complete  # the clock stopped it: unbounded, it ends (below)
    # unbounded, it restarts a few times before it finds two solutions
    complete, found, nodes = core_search(puzzle)
    grids = [grid_of(s, 25) for s in found]
    assert complete and nodes > 500 and len(set(grids)) == 2 and all(puzzle.satisfied_by(g) for g in grids)
