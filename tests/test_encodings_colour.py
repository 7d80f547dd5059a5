"""The colour line encodings against brute force: every colour line of up to 8 cells with up to 3
colours, lines with known and ruled-out colours, and the whole grid's formula on small puzzles.

A colour line here is a word over 0..K (0 the background); cell i's colour k is variable
i*K + k, and each cell gets at most one colour, as the grid formula adds.
"""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache
from itertools import product

import pytest
from pysat.formula import IDPool
from pysat.solvers import Solver

from nonosat.model import Clue, Colours, Grid, Puzzle, runs_of
from nonosat.palette import Colour, Palette
from nonosat.solver.encodings import ENCODINGS, Clause, Line, Literal, at_most_one
from nonosat.solver.line_logic import Contradiction, colour_alive_states

Word = tuple[int, ...]
ColourClue = tuple[Clue, Colours]


@cache
def words(length: int, count: int) -> dict[ColourClue, list[Word]]:
    """Every word of a length over `count` colours and the background, by its clue."""
    found: dict[ColourClue, list[Word]] = defaultdict(list)
    for word in product(range(count + 1), repeat=length):
        found[runs_of(word)].append(word)
    return dict(found)


def count_models(clauses: list[Clause], over: list[int]) -> int:
    """Models of the clauses, counted as distinct assignments of the variables `over`."""
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        found = 0
        while solver.solve():
            found += 1
            if not over:
                break
            true = {literal for literal in solver.get_model() if literal > 0}
            solver.add_clause([-v if v in true else v for v in over])
        return found


def encode(
    encoding: str, clue: ColourClue, length: int, count: int, excluded: tuple[int, ...] | None = None
) -> tuple[list[Clause], list[int], IDPool]:
    """The line's clauses plus at most one colour per cell, the open cell-colour variables and
    the pool. A colour ruled out of a cell (`excluded[k]`, k = 0 the background) is a constant;
    a cell with one colour left is that colour. Raises Contradiction when the line has no
    completion."""
    if excluded is None:
        excluded = (0,) * (count + 1)
    sizes, colours = clue
    _, alive = colour_alive_states(sizes, colours, length, excluded)
    choices: list[list[Literal]] = []
    for i in range(length):
        left = [k for k in range(count + 1) if not excluded[k] >> i & 1]
        cell: list[Literal] = []
        for k in range(1, count + 1):
            cell.append(False if k not in left else True if left == [k] else i * count + k)
        choices.append(cell)
    pool = IDPool(start_from=length * count + 1)
    clauses = ENCODINGS[encoding](Line(("row", 0), sizes, (), alive, colours, choices), pool)
    for cell in choices:
        clauses += at_most_one(cell)
    over = [v for cell in choices for v in cell if v is not True and v is not False]
    return clauses, over, pool


def fits(word: Word, excluded: tuple[int, ...]) -> bool:
    return all(not excluded[colour] >> i & 1 for i, colour in enumerate(word))


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_projected_count_on_every_colour_line(encoding: str) -> None:
    """Models on the cell-colour variables = words with that clue, for every clue of every line
    of up to 8 cells over up to 3 colours (over 3 colours from 7 cells on)."""
    lines = 0
    for length in range(1, 9):
        for count in (1, 2, 3) if length <= 6 else (3,):
            for clue, found in words(length, count).items():
                clauses, over, _ = encode(encoding, clue, length, count)
                assert count_models(clauses, over) == len(found), (clue, length, count)
                lines += 1
    assert lines > 20_000


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_projected_count_on_short_colour_lines(encoding: str) -> None:
    """The same on lines of up to 5 cells, for the quick run."""
    for length in range(1, 6):
        for count in (1, 2, 3):
            for clue, found in words(length, count).items():
                clauses, over, _ = encode(encoding, clue, length, count)
                assert count_models(clauses, over) == len(found), (clue, length, count)


def random_partial_lines(seed: int, number: int) -> list[tuple[ColourClue, int, int, tuple[int, ...]]]:
    """Clues of random words, with random colours ruled out of random cells."""
    rng = random.Random(seed)
    lines = []
    for _ in range(number):
        count = rng.randint(1, 3)
        length = rng.randint(1, 8)
        word = tuple(rng.choice([0, 0] + list(range(1, count + 1))) for _ in range(length))
        excluded = [0] * (count + 1)
        for i in range(length):
            for k in range(count + 1):
                if rng.random() < 0.2:
                    excluded[k] |= 1 << i
            if all(excluded[k] >> i & 1 for k in range(count + 1)):
                excluded[rng.randrange(count + 1)] &= ~(1 << i)
        clue = runs_of(word) if rng.random() < 0.8 else runs_of(tuple(rng.randint(0, count) for _ in range(length)))
        lines.append((clue, length, count, tuple(excluded)))
    return lines


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_projected_count_on_partial_colour_lines(encoding: str) -> None:
    """With ruled-out colours as constants, models = the words with the clue that avoid them."""
    refuted = 0
    for clue, length, count, excluded in random_partial_lines(seed=3, number=800):
        expected = sum(fits(word, excluded) for word in words(length, count).get(clue, []))
        try:
            clauses, over, _ = encode(encoding, clue, length, count, excluded)
        except Contradiction:
            refuted += 1
            assert expected == 0, (clue, length, excluded)
            continue
        assert count_models(clauses, over) == expected, (clue, length, count, excluded)
    assert 0 < refuted < 600


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_colour_auxiliaries_are_determined_by_the_cells(encoding: str) -> None:
    """Counted over every variable, models = words: each word has one run of auxiliaries."""
    for clue, length, count, excluded in random_partial_lines(seed=4, number=300):
        try:
            clauses, over, pool = encode(encoding, clue, length, count, excluded)
        except Contradiction:
            continue
        every = over + list(range(length * count + 1, pool.top + 1))
        expected = sum(fits(word, excluded) for word in words(length, count).get(clue, []))
        assert count_models(clauses, every) == expected, (clue, length, count, excluded)


PALETTE: Palette = (
    Colour("white", "#ffffff", "."),
    Colour("red", "#ff0000", "r"),
    Colour("blue", "#0000ff", "b"),
)


def all_grids(width: int, height: int, count: int) -> list[Grid]:
    cells = product(range(count + 1), repeat=width * height)
    return [tuple(tuple(flat[r * width : (r + 1) * width]) for r in range(height)) for flat in cells]


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_grid_formula_counts_every_solution_of_small_colour_puzzles(encoding: str) -> None:
    """On random 3x3 two-colour pictures, the solver enumerates exactly the grids, found by brute
    force, that meet the picture's clues."""
    from nonosat import solve

    rng = random.Random(5)
    grids = all_grids(3, 3, 2)
    by_clues: dict[object, list[Grid]] = defaultdict(list)
    for grid in grids:
        puzzle = Puzzle.from_grid(grid, palette=PALETTE)
        by_clues[(puzzle.rows, puzzle.columns, puzzle.row_colours, puzzle.column_colours)].append(grid)
    several = 0
    for grid in rng.sample(grids, 60):
        puzzle = Puzzle.from_grid(grid, palette=PALETTE)
        expected = by_clues[(puzzle.rows, puzzle.columns, puzzle.row_colours, puzzle.column_colours)]
        result = solve(puzzle, count=len(expected) + 1, encoding=encoding)
        assert sorted(s.grid for s in result.solutions) == sorted(expected)
        assert result.complete
        several += len(expected) > 1
    assert several > 0


def test_the_open_variables_are_every_colour_an_open_cell_may_take() -> None:
    """The blocking clauses range over exactly the (cell, colour) variables still open, variable
    1 included (a list of literals holding 1 also 'holds' True: 1 == True in Python)."""
    from nonosat.solver.encodings.grid import build_formula, cell_variable
    from nonosat.solver.propagation import line_solve

    ring = ((1, 0, 2), (0, 1, 2), (2, 2, 2))  # with the two red cells swapped, the same clues
    puzzle = Puzzle.from_grid(ring, palette=PALETTE)
    board = line_solve(puzzle)
    formula = build_formula(board)
    expected = [
        cell_variable(puzzle, r, c, k)
        for r in range(3)
        for c in range(3)
        if board.cell(r, c) is None
        for k in board.possible(r, c)
        if k
    ]
    assert sorted(formula.unknown) == sorted(expected) and 1 in formula.unknown
    assert formula.open_cells == 4


@pytest.mark.slow  # 0.5-0.6 s
def test_the_compiled_colour_block_encoding_writes_the_pythons_clauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """nonosat/core/blocks.c's blocks_colour writes the clauses encode_colours writes, in the same
    order, over the same variables, on random colour lines of 1 to 30 cells with known and
    ruled-out colours (the model counts above go through whichever is built)."""
    from encodings_shared import encoded_alike

    from nonosat.solver.compiled import core

    if core is None:
        pytest.skip("the compiled core was not built")
    rng = random.Random(37)
    compared = 0
    for _ in range(1500):
        count = rng.randint(1, 4)
        length = rng.randint(1, 30)
        word = tuple(rng.choice([0, 0, *range(1, count + 1)]) for _ in range(length))
        excluded = [0] * (count + 1)
        for i in range(length):
            if rng.random() < 0.3:
                for k in range(count + 1):
                    if k != word[i] and rng.random() < 0.6:
                        excluded[k] |= 1 << i
        sizes, colours = runs_of(word)
        try:
            _, alive = colour_alive_states(sizes, colours, length, tuple(excluded))
        except Contradiction:
            continue
        left = [[k for k in range(count + 1) if not excluded[k] >> i & 1] for i in range(length)]
        choices: list[list[Literal]] = [
            [False if k not in left[i] else True if left[i] == [k] else 5 + i * count + k for k in range(1, count + 1)]
            for i in range(length)
        ]
        compared += encoded_alike(Line(("row", 2), sizes, (), alive, colours, choices), 500, monkeypatch)
    assert compared > 1000
