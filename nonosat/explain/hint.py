"""The next move from a partly filled grid: the cells logic decides next, and why.

A partial grid comes as text, one line per row: `#` (or `1`) filled, `.` (or `x`) empty, `?` (or
`-`) not decided yet; or as the `saved` string of a `.non` file, row after row in the same
characters, where `0` is not decided yet too. In rows of cells `0` is refused: a grid of `0` and
`1` is a solution's picture (as goal strings and tournament solutions write it), whose `0` means
empty, not undecided. In colour each cell is its colour's character in the puzzle's palette (the
background's for blank), `?` (or `-`, `_`) not decided yet, as `explain` writes lines.

If no completion of the partial grid meets the clues, the hint names the marks to blame: a
marked cell that no solution allows (and the value every solution gives it, when they agree), or
else marked cells that cannot all hold together, none of which can be left out (the SAT solver's
unsatisfiable core over the marks, shrunk). When logic finds nothing, the hint is a cell that
has the same value in every completion (found by SAT); when no open cell does, the puzzle has
several solutions from here and no move is forced, which the hint says rather than offer a guess.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import ParseError, TimeUp
from nonosat.explain.blame import has, holds, marks_at_odds
from nonosat.explain.step import Step
from nonosat.explain.steps import trace, writing_ahead
from nonosat.explain.words import chars_of, colour_word, unknown_mark
from nonosat.model import Cell, Puzzle
from nonosat.palette import BLACK_AND_WHITE, Palette
from nonosat.solver.propagation import Board, Contradiction, propagate

if TYPE_CHECKING:
    from collections.abc import Callable


FILLED, EMPTY, UNKNOWN = set("#1"), set(".xX"), set("?0-_ ")

Grid = tuple[tuple[int, ...], ...]
State = tuple[tuple[int | None, ...], ...]
"""A partial grid: 1 filled, 0 empty, None not decided (in colour, each cell's palette index)."""


@dataclass(frozen=True)
class Hint:
    """What to do next: logical steps, a cell from search, or the wrong cell."""

    steps: tuple[Step, ...]
    wrong: tuple[Cell, int] | None = None
    """A marked cell that no solution allows, and the value every solution gives it."""
    conflict: tuple[tuple[Cell, int], ...] = ()
    """Marked cells (each with its marked value) that cannot all hold, when no one cell is wrong
    in every solution: a single mark that no solution allows, where the solutions differ on what
    the cell should be; or several marks, each possible alone, one of which must go."""
    searched: tuple[Cell, int] | None = None
    """When logic finds nothing: a cell and the value it has in every solution (from SAT)."""
    solved: bool = False
    """The partial grid is already complete and correct."""
    ambiguous: bool = False
    """Logic finds nothing and no open cell has the same value in every solution: the puzzle has
    several solutions from here, and no move is forced."""
    impossible: bool = False
    """The puzzle itself has no solution, whatever the grid so far."""
    cut_short: str | None = None
    """Fewer steps than asked for, because the time ran out ("time limit reached while ...")."""
    stalled: bool = False
    """Fewer steps than asked for, because logic finds nothing more after them."""
    completed: bool = False
    """Fewer steps than asked for, because they complete the grid."""
    palette: Palette = BLACK_AND_WHITE
    """The puzzle's colours, to name a cell's value (`word`)."""

    def word(self, value: int) -> str:
        """A cell's value in words: "filled" or "empty", or in colour the colour's name or "blank"."""
        return colour_word(self.palette, value)


def parse_state(text: str, puzzle: Puzzle, path: str) -> State:
    """Read a partial grid, from lines of cells or a `.non` file's `saved "..."` string."""
    if not isinstance(text, str):  # bytes were a TypeError from the pattern (a review)
        from nonosat.errors import UsageError

        raise UsageError(f"a state is text, not {type(text).__name__} (decode bytes first: data.decode())")
    from nonosat.arguments import check_puzzle

    check_puzzle(puzzle)  # None was an AttributeError from deep inside (a review)
    saved = re.search(r'^\s*saved\s+"?([^"\n]*)"?\s*$', text, flags=re.M)
    if saved:
        flat = saved.group(1)
        if len(flat) != puzzle.width * puzzle.height:
            raise ParseError(
                path,
                text[: saved.start()].count("\n") + 1,
                f"expected a saved string of {puzzle.width * puzzle.height} cells, found {len(flat)}",
            )
        rows = [flat[r * puzzle.width : (r + 1) * puzzle.width] for r in range(puzzle.height)]
        first_line = text[: saved.start()].count("\n") + 1
        numbers = [first_line] * puzzle.height
    else:
        keyword = re.search(
            r'^\s*(?:(?:width|height)\s+\d|(?:rows|columns)\s*$|(?:title|goal|catalogue)\s+")', text, flags=re.M
        )
        if keyword:  # a .non file with no saved grid (it was read as rows of cells: "found more")
            number = text[: keyword.start()].count("\n") + 1
            raise ParseError(
                path, number, 'expected a .non file\'s saved "..." line (the grid so far), or rows of cells'
            )
        lines = [(n, line.rstrip("\n")) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) != puzzle.height:
            if len(lines) > puzzle.height:  # the first row too many
                raise ParseError(path, lines[puzzle.height][0], f"expected {puzzle.height} rows of cells, found more")
            end = max(1, len(text.splitlines()))  # too few: the file's last line
            raise ParseError(path, end, f"expected {puzzle.height} rows of cells, found {len(lines)} by the end")
        numbers = [n for n, _ in lines]
        rows = [line.strip() for _, line in lines]
    marks, expected = _marks(puzzle)
    state = []
    for number, row in zip(numbers, rows, strict=True):
        if len(row) != puzzle.width:
            what = " (# . ?)" if not puzzle.is_colour else ""
            raise ParseError(path, number, f"expected {puzzle.width} cells{what}, found {len(row)}")
        cells: list[int | None] = []
        for mark in row:
            if mark == "0" and not saved and not puzzle.is_colour:
                raise ParseError(
                    path, number, f"expected cells as {expected}, found '0' (write . for empty, ? for not decided)"
                )
            if mark not in marks:
                raise ParseError(path, number, f"expected cells as {expected}, found {mark!r}")
            cells.append(marks[mark])
        state.append(tuple(cells))
    return tuple(state)


def _marks(puzzle: Puzzle) -> tuple[dict[str, int | None], str]:
    """What each character of a partial grid means, and how an error message lists them."""
    if not puzzle.is_colour:
        marks: dict[str, int | None] = dict.fromkeys(UNKNOWN)
        marks.update(dict.fromkeys(FILLED, 1) | dict.fromkeys(EMPTY, 0))
        return marks, "# (filled), . (empty) or ? (unknown)"
    chars = chars_of(puzzle.palette)
    marks = {mark: None for mark in "?-_" + unknown_mark(chars) if mark not in chars}
    marks.update({char: colour for colour, char in enumerate(chars)})
    named = ", ".join(f"{char} ({colour_word(puzzle.palette, colour)})" for colour, char in enumerate(chars))
    return marks, f"{named} or {unknown_mark(chars)} (unknown)"


def load_state(path: str | Path, puzzle: Puzzle) -> State:
    from nonosat.formats import read_text

    return parse_state(read_text(path, "state file"), puzzle, str(path))


def _check_state(puzzle: Puzzle, state: object) -> None:
    """A partial grid from a caller (`parse_state` makes one from text): a row per row of the
    puzzle, a cell per column, each None (not decided) or a colour of the palette (1 filled, 0
    empty in black and white); anything else is a UsageError, never an IndexError from deep inside."""
    from nonosat.errors import UsageError

    if not isinstance(state, list | tuple) or len(state) != puzzle.height:
        raise UsageError(f"state: expected {puzzle.height} rows of cells (parse_state reads them from text)")
    for r, row in enumerate(state):
        if not isinstance(row, list | tuple) or len(row) != puzzle.width:
            raise UsageError(f"state: row {r + 1}: expected {puzzle.width} cells")
        for value in row:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise UsageError(f"state: row {r + 1}: a cell is None or a colour's number, not {value!r}")
            if value is not None and not 0 <= value <= puzzle.colour_count:
                raise UsageError(f"state: row {r + 1}: {value} is no colour of the puzzle (0..{puzzle.colour_count})")


def _board(puzzle: Puzzle, state: State) -> Board:
    board = Board(puzzle)
    for r, row in enumerate(state):
        for c, value in enumerate(row):
            if value is not None:
                board.set_cell(r, c, value)
    return board


def _settled(puzzle: Puzzle, board: Board | None, deadline: Deadline) -> Board | None:
    """Line logic from the board (from nothing, with board None), or None on a contradiction."""
    from nonosat.solver.propagation import line_solve

    try:
        return line_solve(puzzle, deadline) if board is None else propagate(board.copy(), deadline=deadline)
    except Contradiction:
        return None


def _a_solution(puzzle: Puzzle, board: Board | None, deadline: Deadline = NO_DEADLINE) -> Grid | None:
    """A solution that agrees with the board's cells (any solution, with board None)."""
    from nonosat.solver import enumerate_solutions
    from nonosat.solver.encodings.grid import build_formula

    settled = _settled(puzzle, board, deadline)
    if settled is None:
        return None
    if settled.is_complete():
        grid = settled.grid()
        return grid if puzzle.satisfied_by(grid) else None
    solutions, complete, cut_short = enumerate_solutions(
        build_formula(settled, deadline=deadline), 1, deadline=deadline
    )
    if cut_short is not None:
        raise TimeUp("looking for a completion of the grid")
    return solutions[0].grid if solutions else None


UNMARKED_SEARCH = 1.0
"""Seconds the search for a completion gets at most (and half the time left at most) before
logic's steps, on a grid whose marks are all line logic's from the clues alone (none, or the
steps of earlier hints). There it only asks whether the puzzle has a solution at all, and a hard
one (frans_faase, 95x80) took it over 20 s while `explain` gave step 1 at once; a puzzle with no
solution that it proves so within this time is said to have none (a logical step holds in every
solution, so one that comes for a puzzle with none claims nothing false)."""


def _search_bound(puzzle: Puzzle, state: State, deadline: Deadline) -> Deadline:
    """The deadline of the first search for a completion: the command's own where a mark could
    be wrong; else UNMARKED_SEARCH, at most half the time left (a review: with `--timeout 1` the
    search took it all, and logic had none)."""
    marks = [((r, c), value) for r, row in enumerate(state) for c, value in enumerate(row) if value is not None]
    if marks:  # (none: no line logic needed here)
        settled = _settled(puzzle, None, deadline)
        if settled is None or any(value != settled.cell(*cell) for cell, value in marks):
            return deadline
    left = deadline.remaining()
    return deadline.within(UNMARKED_SEARCH if left is None else min(UNMARKED_SEARCH, left / 2))


def _completion_known(puzzle: Puzzle, board: Board, deadline: Deadline, bound: Deadline) -> bool | None:
    """Whether the board has a completion; None when the search ran to `bound` (a bound inside
    the command's `deadline`, see `_search_bound`) before it knew. TimeUp at the deadline."""
    try:
        return _a_solution(puzzle, board, bound) is not None
    except TimeUp:
        if deadline.passed() or bound is deadline:
            raise
        return None


def _forced_cell(puzzle: Puzzle, board: Board, deadline: Deadline) -> tuple[Cell, int] | None:
    """An open cell of the board with the same value in every completion, or None if there is
    none: each cell is tried with every other value it may have; a model that allows one also
    clears every other cell it disagrees on."""
    from nonosat.solver import Search
    from nonosat.solver.backends import DEFAULT_SOLVER
    from nonosat.solver.encodings.grid import build_formula

    settled = _settled(puzzle, board, deadline)
    assert settled is not None, "the board has a completion"
    formula = build_formula(settled, deadline=deadline)
    search = Search(formula.clauses, DEFAULT_SOLVER, deadline)
    try:
        if search.solve() is not True:
            raise TimeUp("looking for a forced cell")
        first = formula.grid(search.sat.get_model())
        open_cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if board.cell(r, c) is None]
        candidates = set(open_cells)
        for r, c in open_cells:
            if (r, c) not in candidates:
                continue
            value = first[r][c]
            if settled.cell(r, c) is not None:
                return (r, c), value  # line logic from the partial grid fixes it already
            for other in settled.possible(r, c):
                if other == value:
                    continue
                answer = search.solve(has(settled, (r, c), other))
                if answer is None:
                    raise TimeUp("looking for a forced cell")
                if answer:
                    grid = formula.grid(search.sat.get_model())
                    candidates -= {(i, j) for i, j in candidates if grid[i][j] != first[i][j]}
                    break
            else:
                return (r, c), value
        return None
    finally:
        search.close()


def _blame(puzzle: Puzzle, state: State, deadline: Deadline) -> Hint:
    """The marks to blame for a partial grid with no completion (see the top of the module)."""
    from nonosat.solver import Search
    from nonosat.solver.backends import DEFAULT_SOLVER
    from nonosat.solver.encodings.grid import build_formula

    palette = puzzle.palette
    settled = _settled(puzzle, None, deadline)
    if settled is None:
        return Hint((), impossible=True, palette=palette)
    marks = [((r, c), value) for r, row in enumerate(state) for c, value in enumerate(row) if value is not None]
    search = Search(build_formula(settled, deadline=deadline).clauses, DEFAULT_SOLVER, deadline)
    try:
        if not holds(search, []):  # first: what line logic fixes holds in every solution, if any
            return Hint((), impossible=True, palette=palette)
        for cell, value in marks:
            known = settled.cell(*cell)
            if known is not None and known != value:  # line logic from the clues alone rules it out
                return Hint((), wrong=(cell, known), palette=palette)
        open_marks = [(cell, value) for cell, value in marks if settled.cell(*cell) is None]
        blamed = next(([mark] for mark in open_marks if mark[1] not in settled.possible(*mark[0])), None)
        if blamed is None:
            blamed = marks_at_odds(search, settled, open_marks)
        if len(blamed) == 1:
            ((cell, value),) = blamed
            others = [other for other in settled.possible(*cell) if other != value]
            if len(others) > 1:  # in colour: the values some solution gives the cell
                others = [other for other in others if holds(search, has(settled, cell, other))]
            if len(others) == 1:
                return Hint((), wrong=(cell, others[0]), palette=palette)
        return Hint((), conflict=tuple(blamed), palette=palette)
    finally:
        search.close()


def hint(
    puzzle: Puzzle,
    state: State,
    steps: int = 1,
    *,
    timeout: float | Deadline | None = None,
    writing: Callable[[Step], float] | None = None,
) -> Hint:
    """The next `steps` logical steps from a partial grid, or the cell that is wrong. `timeout`
    holds for the whole hint (TimeUp when it runs out before a step is found; after some, they
    come with `cut_short` saying so). In colour, the steps that only rule
    colours out (which the grid so far cannot hold) come with the next ones that fix cells.
    `writing`: the seconds a caller takes to write out a step, as `explain`'s: the steps end that
    much earlier for each step found (a review found `hint --steps 100000 --timeout 1.5` on a
    512x512 puzzle ending at 1.62 s, its 2,021 steps written after the limit)."""
    from nonosat.arguments import check_puzzle, check_whole

    check_puzzle(puzzle)
    check_whole(steps, "steps", sys.maxsize)
    _check_state(puzzle, state)
    deadline = Deadline.of(timeout)
    puzzle.ensure_possible()
    palette = puzzle.palette
    board = _board(puzzle, state)
    known = _completion_known(puzzle, board, deadline, _search_bound(puzzle, state, deadline))
    if known is False:  # no completion: some marked cell is wrong, or the puzzle has no solution
        return _blame(puzzle, state, deadline)
    if board.is_complete():
        return Hint((), solved=True, palette=palette)
    found: list[Step] = []

    steps_end, written = writing_ahead(deadline, writing)

    class Enough(Exception):
        pass

    def keep(step: Step, _board: Board) -> None:
        found.append(step)
        written(step)
        if sum(1 for kept in found if kept.fixed) >= steps:
            raise Enough

    try:
        logic = trace(puzzle, board.copy(), on_step=keep, deadline=steps_end)
    except Enough:
        return Hint(tuple(found), palette=palette)
    if logic.contradiction is not None:  # (only where no completion was found yet: no marks)
        return Hint((), impossible=True, palette=palette)
    if logic.cut_short is not None and not any(kept.fixed for kept in found):
        raise TimeUp("looking for the next logical step")
    if any(kept.fixed for kept in found):  # fewer than asked for: a review found them shown as if all
        done = logic.complete
        return Hint(
            tuple(found),
            palette=palette,
            cut_short=logic.cut_short,
            stalled=logic.cut_short is None and not done,
            completed=done,
        )
    if known is None and _a_solution(puzzle, board, deadline) is None:  # a cell of every solution needs one
        return _blame(puzzle, state, deadline)
    forced = _forced_cell(puzzle, board, deadline)  # in colour, after steps that fix no cell, if any
    if forced is not None:
        return Hint(tuple(found), searched=forced, palette=palette)
    return Hint(tuple(found), ambiguous=True, palette=palette)
