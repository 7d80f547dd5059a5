"""Explain, rate, hint and diagnose on colour puzzles (issue 16).

The steps of `explain` are replayed here cell by cell against a line deduction written in this
file (a search over block placements, apart from nonosat's automaton): each step must say
exactly what its line's clue decides from what the steps before it showed, and the last one
must leave the solution. The starting knowledge is the rule the steps announce: a cell may only
be blank or a colour both its row's and its column's clue have (unless that leaves it one
colour, which a step then fixes).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from pysat.formula import IDPool
from pysat.solvers import Solver
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.diagnosis import diagnose
from nonosat.explain.hint import hint, parse_state
from nonosat.explain.rating import rate
from nonosat.explain.steps import Step, explain, line_text, trace
from nonosat.explain.words import choice_words, colour_word, spans, unknown_mark
from nonosat.model import Clue, Colours, Grid, Puzzle
from nonosat.model import Line as GridLine
from nonosat.palette import BLACK_AND_WHITE, WHITE, Colour, Palette
from nonosat.solver.encodings import ENCODINGS, Line, at_most_one
from nonosat.solver.encodings.grid import cell_variable
from nonosat.solver.propagation import colour_alive_states

runner = CliRunner()
RED, BLUE, GREEN = Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"), Colour("green", "#00a000", "g")
RGB: Palette = (WHITE, RED, BLUE, GREEN)

LINE_SOLVABLE = [
    "ianprime0509-nonograms/puzzles/easy.pbn#2",
    "nonny/data/puzzles/color/tree.non",
    "nonny/data/puzzles/color/rainbow.non",
    "number-loom/puzzles/little_hauler.xml",
    "number-loom/examples/png/bill_jeb_and_bob.png",
    "colored-nonogram-solver/nonograms/0.cnon",
    "nonogrid/examples/UK.toml",
    "olsak-grid/raketa.g",
]
NEEDS_PROBING = "number-loom/examples/png/shirt_and_tie_no_button.png"
VICERES = "olsak-grid/viceres.g"


def colour_file(corpus: Path, name: str) -> str:
    folder = corpus / "colour"
    if not folder.is_dir():
        pytest.skip("no colour/ in this corpus")
    return str(folder / name)


# --- an independent line deduction and the replay of the steps ----------------------------------

Known = dict[tuple[int, int], frozenset[int]]
"""For every cell, the colours it may still have."""


def line_deduction(clue: Clue, colours: Colours, cells: list[frozenset[int]]) -> list[set[int]] | None:
    """Every colour each cell of a line has in some completion meeting the clue and the cells'
    possible colours; None if there is none. A state is (next block, cell, colour of the block
    that ended just before the cell, or 0)."""
    n, k = len(cells), len(clue)

    def fits(j: int, i: int, last: int) -> bool:
        size, colour = clue[j], colours[j]
        return colour != last and i + size <= n and all(colour in cells[x] for x in range(i, i + size))

    @cache
    def finishes(j: int, i: int, last: int) -> bool:
        if i == n:
            return j == k
        if 0 in cells[i] and finishes(j, i + 1, 0):
            return True
        return j < k and fits(j, i, last) and finishes(j + 1, i + clue[j], colours[j])

    if not finishes(0, 0, 0):
        return None
    found: list[set[int]] = [set() for _ in range(n)]
    seen = set()
    stack = [(0, 0, 0)]
    while stack:
        j, i, last = state = stack.pop()
        if state in seen or i == n:
            continue
        seen.add(state)
        if 0 in cells[i] and finishes(j, i + 1, 0):
            found[i].add(0)
            stack.append((j, i + 1, 0))
        if j < k and fits(j, i, last) and finishes(j + 1, i + clue[j], colours[j]):
            for x in range(i, i + clue[j]):
                found[x].add(colours[j])
            stack.append((j + 1, i + clue[j], colours[j]))
    return found


def at_a_glance(puzzle: Puzzle) -> Known:
    """Blank or a colour of both the cell's row clue and column clue, if that leaves two or more."""
    everything = frozenset(range(len(puzzle.palette)))
    known = {}
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            left = frozenset({0} | (set(puzzle.colours_of(True, r)) & set(puzzle.colours_of(False, c))))
            known[r, c] = left if len(left) >= 2 else everything
    return known


def along(puzzle: Puzzle, line: GridLine) -> list[tuple[int, int]]:
    if line.is_row:
        return [(line.index, c) for c in range(puzzle.width)]
    return [(r, line.index) for r in range(puzzle.height)]


def shown(known: Known, cells: list[tuple[int, int]], chars: str, mark: str) -> str:
    """A line as the steps write it, with `mark` for an open cell."""
    return "".join(chars[next(iter(known[cell]))] if len(known[cell]) == 1 else mark for cell in cells)


def claimed(step: Step, cells: list[tuple[int, int]], known: Known, chars: str) -> Known:
    """What the cells of a step's line are after it, as the step says."""
    after = dict(known)
    for cell in step.fixed:
        after[cell] = frozenset({chars.index(step.after[cells.index(cell)])})
    for cell, left in step.narrowed:
        after[cell] = frozenset(left)
    return after


def replay(puzzle: Puzzle, steps: list[Step], solution: Grid | None = None) -> Known:
    """Every step checked against the line deduction above (a probe, against the solution)."""
    chars = "".join(colour.char for colour in puzzle.palette)
    mark = unknown_mark(chars)
    known = at_a_glance(puzzle)
    for number, step in enumerate(steps, 1):
        assert step.number == number
        cells = along(puzzle, step.line)
        assert step.before == shown(known, cells, chars, mark), step
        after = claimed(step, cells, known, chars)
        assert all(after[cell] < known[cell] for cell in [*step.fixed, *(c for c, _ in step.narrowed)]), step
        if step.kind == "line":
            colours = puzzle.colours_of(step.line.is_row, step.line.index)
            assert (step.clue, step.colours) == (step.line.clue_in(puzzle), colours)
            deduced = line_deduction(step.clue, colours, [known[cell] for cell in cells])
            assert deduced is not None
            assert [set(after[cell]) for cell in cells] == deduced, step
        else:
            assert step.probe is not None and solution is not None
            r, c = step.probe
            assert solution[r][c] in after[r, c] and "impossible" in step.reason
        known = after
        assert step.after == shown(known, cells, chars, mark), step
    return known


def solution_of(known: Known, puzzle: Puzzle) -> Grid:
    assert all(len(left) == 1 for left in known.values())
    return tuple(tuple(next(iter(known[r, c])) for c in range(puzzle.width)) for r in range(puzzle.height))


# --- explain ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LINE_SOLVABLE)
def test_the_steps_of_a_line_solvable_colour_puzzle_replay_to_its_solution(corpus: Path, name: str) -> None:
    puzzle = load(colour_file(corpus, name))
    logic = trace(puzzle)
    assert logic.complete and logic.level == "line" and logic.steps
    grid = solution_of(replay(puzzle, logic.steps), puzzle)
    assert puzzle.satisfied_by(grid) and grid == logic.board.grid()
    if puzzle.goal is not None:
        assert grid == puzzle.goal


def test_probe_steps_in_colour_are_sound_and_the_rest_replays(corpus: Path) -> None:
    puzzle = load(colour_file(corpus, NEEDS_PROBING))
    assert puzzle.goal is not None
    logic = trace(puzzle)
    assert logic.complete and logic.level == "probe"
    probes = [step for step in logic.steps if step.kind == "probe"]
    assert probes and all(step.probe in [*step.fixed, *(c for c, _ in step.narrowed)] for step in probes)
    assert solution_of(replay(puzzle, logic.steps, puzzle.goal), puzzle) == puzzle.goal


def small_puzzle() -> Puzzle:
    """5x4, three colours; line logic solves it."""
    grid = [[1, 1, 2, 3, 0], [0, 3, 2, 1, 1], [3, 3, 3, 1, 1], [1, 3, 0, 0, 1]]
    return Puzzle.from_grid(grid, RGB)


def test_steps_name_the_colours_of_the_clue_and_of_the_cells() -> None:
    puzzle = small_puzzle()
    logic = trace(puzzle)
    assert logic.complete
    replay(puzzle, logic.steps)
    first, second = logic.steps[:2]
    # column 5 (3red) and row 1 (no red block last) leave its last cell blank: rrbg. is all that fits
    assert first.clue_text == "2red 1blue 1green"
    assert first.describe() == (
        "row 1, clue 2red 1blue 1green: ????? -> rrbg.; columns 1-2 red; column 3 blue; column 4 green; column 5 blank"
    )
    assert second.describe() == (
        "row 2, clue 1green 1blue 2red: ????? -> ??brr; columns 4-5 red; column 3 blue; columns 1-2 blank or green"
    )
    assert second.narrowed == (((1, 0), (0, 3)), ((1, 1), (0, 3)))
    worded = [step.fixed_text() for step in logic.steps]
    assert all(worded) and not any(word in text for text in worded for word in ("filled", "empty"))


def test_a_colour_whose_character_is_a_question_mark_leaves_open_cells_another_mark() -> None:
    gold = Colour("gold", "#ffd700", "?")
    puzzle = Puzzle.from_grid([[1, 1, 0], [0, 2, 2], [1, 0, 2]], (WHITE, gold, BLUE))
    logic = trace(puzzle)
    assert logic.complete
    assert solution_of(replay(puzzle, logic.steps), puzzle) == puzzle.goal
    assert any("_" in step.before for step in logic.steps)
    state = parse_state("??_\n___\n?__\n", puzzle, "state.txt")
    assert state[0] == (1, 1, None) and state[2] == (1, None, None)


def test_words() -> None:
    assert spans([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert colour_word(BLACK_AND_WHITE, 1) == "filled" and colour_word(BLACK_AND_WHITE, 0) == "empty"
    assert colour_word(RGB, 0) == "blank" and colour_word(RGB, 2) == "blue"
    assert choice_words(RGB, (1, 2, 3)) == "not blank"
    assert choice_words(RGB, (0, 1, 3)) == "not blue"
    assert choice_words(RGB, (0, 2)) == "blank or blue"
    assert choice_words(RGB, (1, 2)) == "red or blue"
    assert unknown_mark(".#") == "?" and unknown_mark(".?b") == "_"


@pytest.fixture
def no_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any SAT call (a formula built, a solver made) fails the test."""
    import nonosat.solver.encodings.grid
    import nonosat.solver.session

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a SAT call")

    monkeypatch.setattr(nonosat.solver.encodings.grid, "build_formula", refuse)
    monkeypatch.setattr(nonosat.solver.session.Search, "__init__", refuse)


@pytest.mark.usefixtures("no_sat")
def test_a_line_solvable_colour_puzzle_is_explained_rated_and_hinted_without_sat(corpus: Path, tmp_path: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    puzzle = load(path)
    explained = explain(puzzle)
    assert explained.open_cells == 0 and explained.search is None
    done = runner.invoke(app, ["explain", path])
    assert done.exit_code == 0, done.output
    lines = done.stdout.strip().splitlines()
    assert (
        lines[-1]
        == f"solved by line logic in {len(explained.logic.steps)} steps"
        == f"solved by line logic in {len(lines) - 1} steps"
    )
    steps = json.loads(runner.invoke(app, ["explain", path, "--json"]).stdout)["steps"]
    assert [step["reason"] for step in steps] == [step.describe() for step in explained.logic.steps]
    rated = rate(puzzle)
    assert rated.level == "line" and 1 <= rated.score <= 3 and rated.result is None
    done = runner.invoke(app, ["rate", path])
    assert done.exit_code == 0 and "line · difficulty" in done.stdout
    state = tmp_path / "state.txt"
    state.write_text("\n".join("?" * puzzle.width for _ in range(puzzle.height)) + "\n")
    found = hint(puzzle, parse_state(state.read_text(), puzzle, "state.txt"), steps=3)
    # three steps that fix cells, with the ones before them that only rule colours out
    assert [step.describe() for step in found.steps] == [
        step.describe() for step in explained.logic.steps[: len(found.steps)]
    ]
    assert [bool(step.fixed) for step in found.steps].count(True) == 3 and found.steps[-1].fixed
    assert runner.invoke(app, ["hint", path, "--state", str(state)]).exit_code == 0


def test_explain_ends_on_search_for_an_ambiguous_colour_puzzle(corpus: Path) -> None:
    path = colour_file(corpus, VICERES)
    explained = explain(load(path))
    assert explained.open_cells == 8 and explained.search is not None
    assert explained.search.status.value == "multiple"
    done = runner.invoke(app, ["explain", path])
    assert done.exit_code == 1 and "search (SAT) goes on from here" in done.stdout


# --- rate ---------------------------------------------------------------------------------------


def test_levels_of_colour_puzzles(corpus: Path) -> None:
    assert rate(load(colour_file(corpus, "nonny/data/puzzles/color/tree.non"))).level == "line"
    probing = rate(load(colour_file(corpus, NEEDS_PROBING)))
    assert probing.level == "probe" and probing.score == 4 and probing.probes > 0
    ambiguous = rate(load(colour_file(corpus, VICERES)))
    assert ambiguous.level == "ambiguous" and ambiguous.score == 5
    rated = json.loads(runner.invoke(app, ["rate", colour_file(corpus, VICERES), "--json"]).stdout)
    assert rated["level"] == "ambiguous"
    done = runner.invoke(app, ["check", colour_file(corpus, "nonny/data/puzzles/color/tree.non")])
    assert done.exit_code == 0 and "level: line" in done.stdout


def crossed() -> Puzzle:
    """2x2: row 1 is red then blue, but column 1 is blue and column 2 red (the totals agree)."""
    return Puzzle(
        rows=((1, 1), ()),
        columns=((1,), (1,)),
        palette=RGB,
        row_colours=((1, 2), ()),
        column_colours=((2,), (1,)),
    )


def test_an_impossible_colour_puzzle_rates_none() -> None:
    assert crossed().problems() == []
    assert rate(crossed()).level == "none"


# --- hint ---------------------------------------------------------------------------------------


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


# --- diagnosis ----------------------------------------------------------------------------------


def every_grid(puzzle: Puzzle) -> Iterator[Grid]:
    count = len(puzzle.palette)
    for values in itertools.product(range(count), repeat=puzzle.width * puzzle.height):
        yield tuple(tuple(values[r * puzzle.width : (r + 1) * puzzle.width]) for r in range(puzzle.height))


def holds_by_brute_force(puzzle: Puzzle) -> Callable[[list[GridLine]], bool]:
    """Whether some grid meets all of some lines' clues, over every grid of a small puzzle."""
    lines = [GridLine("row", r) for r in range(puzzle.height)] + [GridLine("column", c) for c in range(puzzle.width)]
    met: set[frozenset[GridLine]] = set()
    for grid in every_grid(puzzle):
        broken = set(puzzle.violations(grid))
        met.add(frozenset(line for line in lines if line.name not in broken))
    return lambda wanted: any(set(wanted) <= lines_met for lines_met in met)


def test_the_diagnosis_of_a_small_colour_puzzle_is_minimal_by_brute_force() -> None:
    good = Puzzle.from_grid([[1, 2, 0], [0, 2, 1]], RGB[:3])
    assert diagnose(good) is None
    colours = list(good.row_colours or ())
    colours[1] = (1, 2)  # row 2 was blue then red
    broken = Puzzle(
        rows=good.rows,
        columns=good.columns,
        palette=good.palette,
        row_colours=tuple(colours),
        column_colours=good.column_colours,
    )
    assert broken.problems() == []
    found = diagnose(broken)
    assert found is not None
    holds = holds_by_brute_force(broken)
    lines = list(found.lines)
    assert GridLine("row", 1) in lines and len(lines) >= 2 and not holds(lines)
    for line in lines:
        assert holds([other for other in lines if other != line]), line
    assert "row 2 (clue 1red 1blue)" in found.names(broken)


def satisfiable(puzzle: Puzzle, lines: list[GridLine]) -> bool:
    """Whether these lines' clues can hold together, with CaDiCaL (diagnose uses MiniSat) and
    no assumptions, over nonosat's colour line encoding (checked against brute force in
    test_encodings_colour)."""
    count = puzzle.colour_count
    pool = IDPool(start_from=puzzle.width * puzzle.height * count + 1)
    with Solver("cadical195") as sat:
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                for clause in at_most_one([cell_variable(puzzle, r, c, k) for k in range(1, count + 1)]):
                    sat.add_clause(clause)
        for line in lines:
            clue, colours = line.clue_in(puzzle), puzzle.colours_of(line.is_row, line.index)
            choices = [[cell_variable(puzzle, r, c, k) for k in range(1, count + 1)] for r, c in along(puzzle, line)]
            _, alive = colour_alive_states(clue, colours, len(choices), (0,) * (count + 1))
            for clause in ENCODINGS["automaton"](
                Line((line.kind, line.index), clue, (), alive, colours, choices), pool
            ):
                sat.add_clause(clause)
        return bool(sat.solve())


def test_the_diagnosis_of_a_corpus_colour_puzzle_with_two_blocks_swapped(corpus: Path) -> None:
    puzzle = load(colour_file(corpus, "number-loom/puzzles/little_hauler.xml"))
    assert diagnose(puzzle) is None
    assert puzzle.row_colours is not None
    r = next(
        r
        for r, colours in enumerate(puzzle.row_colours)
        if len(colours) >= 2 and colours[0] != colours[1] and puzzle.rows[r][0] != puzzle.rows[r][1]
    )
    rows, colours = list(puzzle.rows), list(puzzle.row_colours)
    rows[r] = (rows[r][1], rows[r][0], *rows[r][2:])
    colours[r] = (colours[r][1], colours[r][0], *colours[r][2:])
    broken = Puzzle(
        rows=tuple(rows),
        columns=puzzle.columns,
        palette=puzzle.palette,
        row_colours=tuple(colours),
        column_colours=puzzle.column_colours,
    )
    assert broken.problems() == []
    found = diagnose(broken)
    assert found is not None
    lines = list(found.lines)
    assert GridLine("row", r) in lines and not satisfiable(broken, lines)
    for line in lines:
        assert satisfiable(broken, [other for other in lines if other != line]), line


def test_a_colour_clue_too_long_for_its_line_is_a_diagnosis_of_one(tmp_path: Path) -> None:
    # 3red 3red needs 7 cells (a gap between the reds), the row has 6; 3red 3blue would fit
    puzzle = Puzzle(
        rows=((3, 3),) + ((),) * 5,
        columns=((1,),) * 6,
        palette=RGB,
        row_colours=((1, 1),) + ((),) * 5,
        column_colours=((1,),) * 6,
    )
    found = diagnose(puzzle)
    assert found is not None and found.lines == (GridLine("row", 0),)
    assert found.names(puzzle) == ["row 1 (clue 3red 3red)"]


def test_check_names_the_colour_lines_at_fault(tmp_path: Path) -> None:
    from nonosat.formats import save

    path = tmp_path / "crossed.json"
    save(crossed(), path)
    done = runner.invoke(app, ["check", str(path), "--ascii"])
    assert done.exit_code == 3
    assert "cannot all hold together" in done.stdout and "row 1 (clue 1red 1blue)" in done.stdout
    data = json.loads(runner.invoke(app, ["check", str(path), "--format", "json"]).stdout)
    assert "row 1 (clue 1red 1blue)" in data["diagnosis"]["lines"]


# --- live and line statistics -------------------------------------------------------------------


def test_linestats_on_a_colour_puzzle_name_the_colours_of_the_clues(corpus: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    done = runner.invoke(app, ["solve", path, "--linestats"], env={"COLUMNS": "160"})
    assert done.exit_code == 0
    table = done.stdout.split("line logic, per line")[1]
    assert "4black 2brown 4black" in table
    for r in range(10):
        assert f"row {r + 1} " in table and f"column {r + 1} " in table


@pytest.mark.slow
def test_live_still_solves_a_colour_puzzle(corpus: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    done = runner.invoke(app, ["solve", path, "--live", "--ascii"], env={"COLUMNS": "160"})
    assert done.exit_code == 0 and "unique" in done.stdout


# --- the words on the command line (render/text.py and render/records.py) -----------------------


def test_explain_and_hint_print_what_each_step_makes_of_the_colours(corpus: Path, tmp_path: Path) -> None:
    tree = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    lines = runner.invoke(app, ["explain", tree]).stdout.splitlines()
    assert lines[0] == "1. row 1, clue 0: ?????????? -> .......... (columns 1-10 blank)"
    assert "2. row 2, clue 2green: ?????????? -> ?????????? (columns 1, 10 blank or green)" in lines
    assert (
        "10. row 10, clue 4black 2brown 4black: ?????????? -> XXXX@@XXXX (columns 1-4, 7-10 black; columns 5-6 brown)"
    ) in lines
    steps = json.loads(runner.invoke(app, ["explain", tree, "--json"]).stdout)["steps"]
    assert steps[9]["clue"] == [[4, "black"], [2, "brown"], [4, "black"]] and steps[9]["narrowed"] == []
    assert steps[1]["narrowed"] == [
        {"cell": [2, 1], "colours": ["white", "green"]},
        {"cell": [2, 10], "colours": ["white", "green"]},
    ]
    path = colour_file(corpus, "ianprime0509-nonograms/puzzles/easy.pbn#2")
    goal = load(path).goal
    assert goal is not None
    rows = ["".join(".X@"[v] for v in row) for row in goal]  # white ., black X, yellow @
    state = tmp_path / "state.txt"
    state.write_text("\n".join(["?" * 10, *rows[1:]]) + "\n")
    done = runner.invoke(app, ["hint", path, "--state", str(state)])
    assert done.exit_code == 0
    # column 1 is known below row 1 and holds its one black block of 4 already
    assert done.stdout.splitlines()[0] == "column 1, clue 4black: ?..XXXX... -> ...XXXX..., so in column 1: row 1 blank"
    c = rows[1].index("X")
    state.write_text("\n".join([rows[0], rows[1][:c] + "@" + rows[1][c + 1 :], *rows[2:]]) + "\n")
    done = runner.invoke(app, ["hint", path, "--state", str(state)])
    assert done.exit_code == 3
    assert done.stdout.startswith(f"(row 2, column {c + 1}) is wrong: it must be black;")
