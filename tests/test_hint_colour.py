"""Hint on colour puzzles (issue 16): hints on a half-done grid agree with the goal, a wrong
cell is named with the colour it must have, and where logic stalls the hint is what every
completion agrees on."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from colour_explained import RGB, along, colour_file
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.hint import hint, parse_state
from nonosat.explain.steps import line_text, trace
from nonosat.model import Grid, Puzzle

runner = CliRunner()


def half_done(puzzle: Puzzle, seed: int) -> str:
    """The goal with about half its cells left open (?), in the palette's characters."""
    rng = random.Random(seed)
    chars = "".join(colour.char for colour in puzzle.palette)
    assert puzzle.goal is not None
    return "\n".join("".join(chars[v] if rng.random() < 0.5 else "?" for v in row) for row in puzzle.goal)


@pytest.mark.parametrize("seed", range(4))
def test_hints_on_a_half_done_colour_grid_agree_with_the_goal(corpus: Path, seed: int) -> None:
    puzzle = load(colour_file(corpus, "ianprime0509-nonograms/puzzles/easy.pbn#2"))
    goal = puzzle.goal
    assert goal is not None
    state = parse_state(half_done(puzzle, seed), puzzle, "state.txt")
    found = hint(puzzle, state, steps=4)
    assert found.wrong is None and (found.steps or found.solved)
    chars = "".join(colour.char for colour in puzzle.palette)
    for step in found.steps:
        cells = along(puzzle, step.line)
        for r, c in step.fixed:
            assert state[r][c] is None and chars.index(step.after[cells.index((r, c))]) == goal[r][c]
        assert all(goal[r][c] in left and state[r][c] is None for (r, c), left in step.narrowed)


def test_a_hint_names_the_wrong_cell_and_the_colour_it_must_have(corpus: Path, tmp_path: Path) -> None:
    path = colour_file(corpus, "ianprime0509-nonograms/puzzles/easy.pbn#2")
    puzzle = load(path)
    goal = puzzle.goal
    assert goal is not None
    chars = "".join(colour.char for colour in puzzle.palette)
    rows = [list(row) for row in half_done(puzzle, 1).splitlines()]
    r, c = next((r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == chars[1])
    rows[r][c] = chars[2]  # a cell of the first colour marked with the second
    text = "\n".join("".join(row) for row in rows) + "\n"
    found = hint(puzzle, parse_state(text, puzzle, "state.txt"))
    assert found.wrong is not None
    (wr, wc), value = found.wrong
    assert rows[wr][wc] != "?" and value == goal[wr][wc] and chars.index(rows[wr][wc]) != value
    assert found.word(value) == ("blank" if value == 0 else puzzle.palette[value].name)
    state = tmp_path / "state.txt"
    state.write_text(text)
    assert runner.invoke(app, ["hint", path, "--state", str(state)]).exit_code == 3
    state.write_text(text.replace("?", "Z", 1))
    done = runner.invoke(app, ["hint", path, "--state", str(state)])
    assert done.exit_code == 2 and "X (black)" in done.output and "'Z'" in done.output


def completions(puzzle: Puzzle, board_cells: list[list[list[int]]]) -> list[Grid]:
    """Every grid meeting the clues whose cells take colours the board allows (brute force)."""
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    found = []
    for values in itertools.product(*(board_cells[r][c] for r, c in cells)):
        grid = tuple(tuple(values[r * puzzle.width : (r + 1) * puzzle.width]) for r in range(puzzle.height))
        if puzzle.satisfied_by(grid):
            found.append(grid)
    return found


STALLING = [
    [[0, 1, 0], [1, 0, 2], [0, 2, 0]],
    [[2, 0, 0, 0], [0, 2, 1, 0], [0, 1, 0, 2]],
    [[0, 2, 2, 1], [0, 1, 2, 2], [2, 2, 0, 1], [0, 0, 1, 0]],
]
"""Small two-colour pictures on which line logic and probing stall with cells that may still be
blank, red or blue."""


@pytest.mark.parametrize("picture", STALLING)
def test_where_logic_stalls_the_hint_is_what_every_completion_agrees_on(picture: list[list[int]]) -> None:
    puzzle = Puzzle.from_grid(picture, RGB[:3])
    logic = trace(puzzle)
    assert not logic.complete and logic.contradiction is None
    board = logic.board
    text = "\n".join(line_text(board, True, r) for r in range(puzzle.height))
    found = hint(puzzle, parse_state(text, puzzle, "state.txt"))
    # the grid so far cannot hold the colours line logic ruled out: the hint gives those steps again
    assert found.wrong is None and not any(step.fixed for step in found.steps)
    allowed = [[board.possible(r, c) for c in range(puzzle.width)] for r in range(puzzle.height)]
    assert any(len(left) == 3 for row in allowed for left in row)
    solutions = completions(puzzle, allowed)
    assert len(solutions) >= 2
    agreed = [
        ((r, c), solutions[0][r][c])
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if board.cell(r, c) is None and len({grid[r][c] for grid in solutions}) == 1
    ]
    assert found.searched == (agreed[0] if agreed else None)
    assert found.ambiguous == (not agreed)


def forever_in_two_colours(symmetry: int) -> Puzzle:
    """webpbn's Forever (which needs search) with its cells above the diagonal red and the rest
    blue, flipped (1 left-right, 2 top-bottom) and transposed (4) by `symmetry`: line logic and
    probing leave 401 cells open, some of which may still be blank, red or blue, and there are
    3 solutions."""
    forever = load(Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-06574-forever.non")
    assert forever.goal is not None
    grid = [[v * (1 if r < c else 2) for c, v in enumerate(row)] for r, row in enumerate(forever.goal)]
    if symmetry & 1:
        grid = [row[::-1] for row in grid]
    if symmetry & 2:
        grid = grid[::-1]
    if symmetry & 4:
        grid = [list(column) for column in zip(*grid, strict=True)]
    return Puzzle.from_grid(grid, RGB[:3])


@pytest.mark.slow
@pytest.mark.parametrize("symmetry", [2, 5])
def test_where_logic_stalls_search_finds_the_cell_every_solution_agrees_on(symmetry: int) -> None:
    from nonosat.solver import solve

    puzzle = forever_in_two_colours(symmetry)
    logic = trace(puzzle)
    board = logic.board
    assert not logic.complete and board.unknown_count() == 401
    every = solve(puzzle, count=100, jobs=1)  # blocking clauses, not the hint's assumptions
    assert every.complete and len(every.solutions) == 3
    grids = [solution.grid for solution in every.solutions]
    agreed = [
        ((r, c), grids[0][r][c])
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if board.cell(r, c) is None and len({grid[r][c] for grid in grids}) == 1
    ]
    text = "\n".join(line_text(board, True, r) for r in range(puzzle.height))
    found = hint(puzzle, parse_state(text, puzzle, "state.txt"))
    assert found.searched == agreed[0] and not any(step.fixed for step in found.steps)
    (r, c), value = agreed[0]
    assert len(board.possible(r, c)) >= 2 and (value != 0 or len(board.possible(r, c)) == 3)
