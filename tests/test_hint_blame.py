"""A hint on a partial grid with no completion blames only what every solution bears out: on
puzzles with several solutions it compared the marks with one solution and said "it must be"
the value that solution had (ring.non: a filled cell that another solution has filled). Checked
against every solution, found by brute force, on small random puzzles in black and white and
colour, and on the two states that showed it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from bench.colour_set import palette_of
from nonosat import load
from nonosat.explain.hint import Hint, hint, parse_state
from nonosat.model import Grid, Puzzle, runs_of
from nonosat.render.records import hint_record
from nonosat.render.text import hint_lines

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"

Marks = dict[tuple[int, int], int]


def every_solution(puzzle: Puzzle) -> list[Grid]:
    """Each row over every line that gives its clue; a grid counts when its columns give theirs."""
    top = puzzle.colour_count
    lines = list(itertools.product(range(top + 1), repeat=puzzle.width))
    choices = [
        [line for line in lines if runs_of(line) == (puzzle.rows[r], puzzle.colours_of(True, r))]
        for r in range(puzzle.height)
    ]
    return [grid for grid in itertools.product(*choices) if puzzle.satisfied_by(grid)]


def meets(grid: Grid, marks: Marks) -> bool:
    return all(grid[r][c] == value for (r, c), value in marks.items())


def assert_borne_out(found: Hint, marks: Marks, solutions: list[Grid]) -> None:
    """What the hint blames holds in every solution, and a conflict is as small as can be."""
    assert not any(meets(grid, marks) for grid in solutions)  # the state has no completion
    assert not found.steps and not found.solved and not found.impossible
    if found.wrong is not None:
        (r, c), should_be = found.wrong
        assert (r, c) in marks and marks[r, c] != should_be
        assert all(grid[r][c] == should_be for grid in solutions)
        assert not found.conflict
        return
    conflict = dict(found.conflict)
    assert conflict and all(marks[cell] == value for cell, value in conflict.items())
    assert not any(meets(grid, conflict) for grid in solutions)
    for cell in conflict:  # each mark is needed: without it, the others have a completion
        assert any(meets(grid, {k: v for k, v in conflict.items() if k != cell}) for grid in solutions)
    if len(conflict) == 1:  # one mark no solution has, on a cell the solutions disagree about
        ((r, c),) = conflict
        assert len({grid[r][c] for grid in solutions}) > 1


@pytest.mark.parametrize(("width", "height", "colours"), [(4, 4, 1), (5, 3, 1), (3, 4, 2), (4, 3, 3)])
def test_what_a_hint_blames_holds_in_every_solution(width: int, height: int, colours: int) -> None:
    rng = random.Random(f"blame {width}x{height}k{colours}")
    palette = palette_of(colours)
    checked = {False: 0, True: 0}  # states checked, on puzzles with one solution and with several
    conflicts = 0
    while min(checked.values()) < 20:
        picture = [[rng.choice(range(colours + 1)) for _ in range(width)] for _ in range(height)]
        puzzle = Puzzle.from_grid(picture, palette)
        solutions = every_solution(puzzle)
        for attempt in range(12):
            cells = rng.sample([(r, c) for r in range(height) for c in range(width)], rng.randint(2, 5))
            marks = {cell: rng.randint(0, colours) for cell in cells}
            if attempt % 2 and len(solutions) > 1:  # each mark from one solution or another
                marks = {(r, c): rng.choice(solutions[:2])[r][c] for r, c in cells}
            if any(meets(grid, marks) for grid in solutions):
                continue
            state = tuple(tuple(marks.get((r, c)) for c in range(width)) for r in range(height))
            found = hint(puzzle, state)
            assert_borne_out(found, marks, solutions)
            checked[len(solutions) > 1] += 1
            conflicts += bool(found.conflict)
    assert conflicts >= 3  # the cases one solution could not decide were met


def test_ring_a_mark_another_solution_has_is_not_called_wrong() -> None:
    puzzle = load(PUZZLES / "ring.non")
    solutions = every_solution(puzzle)
    assert len(solutions) > 1
    state = parse_state("????\n????\n???#\n?..?\n", puzzle, "state.txt")
    marks = {(r, c): v for r, row in enumerate(state) for c, v in enumerate(row) if v is not None}
    found = hint(puzzle, state)
    assert_borne_out(found, marks, solutions)
    assert found.wrong is None and len(found.conflict) == 2
    (line,) = hint_lines(found)
    assert line.startswith("these marked cells cannot all hold: (row ")
    assert "one of them is wrong" in line and "must be" not in line
    assert hint_record(found)["conflict"] == [
        {"cell": [r + 1, c + 1], "value": "#" if value else "."} for (r, c), value in found.conflict
    ]


def test_ring_colour_a_colour_no_solution_has_is_named_without_a_must() -> None:
    puzzle = load(PUZZLES / "ring-colour.non")
    solutions = every_solution(puzzle)
    state = parse_state("b??\n???\n???\n", puzzle, "state.txt")
    found = hint(puzzle, state)
    assert_borne_out(found, {(0, 0): state[0][0] or 0}, solutions)
    (line,) = hint_lines(found)
    assert line.startswith("(row 1, column 1) is wrong: no solution has it ")


def test_a_puzzle_with_no_solution_is_said_to_have_none_before_any_mark_is_blamed() -> None:
    """Line logic fixes row 3 empty without finding that the puzzle has no solution: a mark
    there was called wrong ("it must be empty") of a puzzle that has no solution at all."""
    puzzle = Puzzle(rows=((1, 1), (2,), (), (2,), (3,)), columns=((1, 1), (1,), (1, 1), (1, 1), (2,)))
    assert every_solution(puzzle) == []
    state = parse_state("?????\n?????\n#????\n?????\n?????\n", puzzle, "state.txt")
    found = hint(puzzle, state)
    assert found.impossible and found.wrong is None and not found.conflict


def test_a_grid_with_no_marks_gets_logics_step_when_the_search_for_a_solution_runs_past_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A review: `hint` on a blank state of a hard 95x80 puzzle gave no step in 20 s: it first
    searched for a completion, to blame a mark, and there were none. With no marks, or only
    marks that line logic fixes from the clues alone (the steps of the hints before: the diff's
    review), that search is bounded (UNMARKED_SEARCH, at most half the time left) and logic's
    steps come after it; with a mark that could be wrong it is not."""
    import nonosat.explain.hint as hinting
    from nonosat.deadline import NO_DEADLINE, Deadline
    from nonosat.errors import TimeUp

    bounds: list[float | None] = []

    def slow(puzzle: Puzzle, board: object, deadline: Deadline = NO_DEADLINE) -> None:
        bounds.append(deadline.remaining())
        raise TimeUp("looking for a completion of the grid")

    monkeypatch.setattr(hinting, "_a_solution", slow)
    forever = load(PUZZLES / "webpbn-06574-forever.non")
    goal = forever.goal
    assert goal is not None
    blank = tuple((None,) * forever.width for _ in range(forever.height))
    (step,) = hint(forever, blank, steps=1, timeout=60).steps
    assert step.fixed and all(goal[r][c] == (step.after[c if step.line.is_row else r] == "#") for r, c in step.fixed)
    assert bounds and bounds[0] is not None and bounds[0] <= hinting.UNMARKED_SEARCH
    (r, c), value = step.fixed[0], goal[step.fixed[0][0]][step.fixed[0][1]]
    followed = tuple(
        tuple(value if (i, j) == (r, c) else None for j in range(forever.width)) for i in range(forever.height)
    )
    (second,) = hint(forever, followed, steps=1, timeout=60).steps  # the first hint's cell marked: bounded too
    assert second.fixed and bounds[-1] is not None and bounds[-1] <= hinting.UNMARKED_SEARCH
    hint(forever, blank, steps=1, timeout=0.8)  # a short limit: half of it at most (a review: it took all)
    assert bounds[-1] is not None and bounds[-1] <= 0.4
    wrong = tuple(
        tuple(1 - value if (i, j) == (r, c) else None for j in range(forever.width)) for i in range(forever.height)
    )
    with pytest.raises(TimeUp):
        hint(forever, wrong, steps=1, timeout=60)  # a mark that may be wrong: the search was the command's own
    assert bounds[-1] is not None and bounds[-1] > hinting.UNMARKED_SEARCH
    cross = load(PUZZLES / "broken-cross.non")  # no solution, which logic finds
    assert hint(cross, ((None,) * 3,) * 3, steps=100, timeout=60).impossible  # (its first step comes before)


def test_where_logic_finds_nothing_on_a_grid_with_no_marks_the_search_runs_to_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After the bounded search gave up and logic found no step, a cell of every solution needs
    a solution: the search runs then, on the command's own time (here: several solutions, no
    cell forced)."""
    import nonosat.explain.hint as hinting
    from nonosat.deadline import NO_DEADLINE, Deadline
    from nonosat.errors import TimeUp

    real = hinting._a_solution
    calls: list[float | None] = []

    def first_slow(puzzle: Puzzle, board: object, deadline: Deadline = NO_DEADLINE) -> Grid | None:
        calls.append(deadline.remaining())
        if len(calls) == 1:
            raise TimeUp("looking for a completion of the grid")
        return real(puzzle, board, deadline)  # type: ignore[arg-type]

    monkeypatch.setattr(hinting, "_a_solution", first_slow)
    square = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    found = hint(square, ((None, None), (None, None)), timeout=60)
    assert found.ambiguous and not found.steps and len(calls) == 2
    assert calls[1] is not None and calls[1] > hinting.UNMARKED_SEARCH
