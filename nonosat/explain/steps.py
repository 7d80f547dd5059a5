"""Line logic as steps a person can follow, with probing when it stalls.

A step is one line pass that fixes cells: the line, its clue, the line's cells before and after
(`#` filled, `.` empty, `?` unknown; in colour, each colour's character), and the cells newly
fixed. In colour a pass may also rule colours out of cells without fixing them ("columns 2-5
not blank"): those are steps too, for the next ones rest on them. A colour that a cell's row or
column clue lacks is ruled out before the first step, as a person sees at a glance (unless that
leaves the cell one colour: then a step fixes it).

When line logic stalls, probing tries each unknown cell with each colour it may have, with line
logic; a colour that leads to a contradiction is ruled out (a "probe" step naming the cell and
the line that broke). When probing finds nothing either, the rest needs search.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import TimeUp, UsageError
from nonosat.explain.step import Narrowed, Step
from nonosat.explain.trace import Trace
from nonosat.explain.words import chars_of, choice_words, colour_word, unknown_mark
from nonosat.model import Cell, Line, Puzzle
from nonosat.solver.propagation import Board, Contradiction, propagate, settled_cells

if TYPE_CHECKING:
    from nonosat.solver import Result


def cells_text(excluded: tuple[int, ...], length: int, chars: str) -> str:
    """A line's cells from the colours each cannot have: its colour's character where one is
    left, `?` where more are. `chars` holds each colour's character (".#" in black and white)."""
    open_mark = unknown_mark(chars)
    if len(excluded) == 2:
        filled, empty = excluded
        return "".join(
            chars[1] if filled >> i & 1 else chars[0] if empty >> i & 1 else open_mark for i in range(length)
        )
    text = [open_mark] * length
    settled = settled_cells(excluded, length)
    for colour, masks in enumerate(excluded):
        cells = settled & ~masks
        while cells:
            low = cells & -cells
            text[low.bit_length() - 1] = chars[colour]
            cells ^= low
    return "".join(text)


def board_chars(board: Board) -> str:
    """The character of each colour in step texts: ".#" in black and white, else the palette's."""
    return chars_of(board.puzzle.palette)


def line_text(board: Board, is_row: bool, index: int) -> str:
    """The cells of one line as `#`, `.` and `?` (in colour, each colour's character)."""
    length = board.width if is_row else board.height
    return cells_text(board.excluded(is_row, index), length, board_chars(board))


def _narrowed(excluded: tuple[int, ...], cells: int, cell_at: Callable[[int], Cell]) -> Narrowed:
    """The cells of a mask, each with the colours it may still have."""
    found = []
    while cells:
        low = cells & -cells
        i = low.bit_length() - 1
        cells ^= low
        found.append((cell_at(i), tuple(c for c, masks in enumerate(excluded) if not masks >> i & 1)))
    return tuple(found)


def rule_out_missing_colours(board: Board) -> None:
    """Rule out of every cell the colours its row's clue or its column's clue lacks, as a person
    does at a glance before the first step, unless that would leave the cell one colour (then a
    step fixes it, so that every fixed cell has its step)."""
    puzzle = board.puzzle
    full = (1 << board.width) - 1
    lacking = [
        sum(1 << c for c in range(board.width) if colour not in puzzle.colours_of(False, c))
        for colour in range(board.colours + 1)
    ]
    for r in range(board.height):
        in_row = set(puzzle.colours_of(True, r))
        ruled_out = [0] * (board.colours + 1)
        one = two = 0
        for colour, masks in enumerate(board.row_not):
            possible = full & ~masks[r]
            if colour:
                ruled_out[colour] = possible & (lacking[colour] if colour in in_row else full)
            left = possible & ~ruled_out[colour]
            two |= one & left
            one |= left
        for colour, news in enumerate(ruled_out):
            news &= two  # cells left with two colours or more
            board.row_not[colour][r] |= news
            while news:
                low = news & -news
                board.col_not[colour][low.bit_length() - 1] |= 1 << r
                news ^= low


def trace(
    puzzle: Puzzle,
    board: Board | None = None,
    *,
    probing: bool = True,
    on_step: Callable[[Step, Board], None] | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> Trace:
    """Solve by line logic (then probing) as far as it goes, recording every step. When the
    deadline passes first, the trace ends there with `cut_short` saying so."""
    board = board if board is not None else Board(puzzle)
    result = Trace(board)
    in_colour = puzzle.is_colour

    def record(step: Step) -> None:
        result.steps.append(step)
        if on_step is not None:
            on_step(step, board)

    chars = board_chars(board)

    def observe(is_row: bool, index: int, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        length = board.width if is_row else board.height
        now = tuple(a | b for a, b in zip(old, new, strict=True))
        before = cells_text(old, length, chars)
        after = cells_text(now, length, chars)
        narrowed: Narrowed = ()
        if in_colour:
            settled = settled_cells(now, length)
            news = settled & ~settled_cells(old, length)
            positions = [i for i in range(length) if news >> i & 1]
            changed = 0
            for masks in new:
                changed |= masks
            narrowed = _narrowed(now, changed & ~settled, lambda i: (index, i) if is_row else (i, index))
        else:
            positions = [i for i in range(length) if before[i] == "?" != after[i]]
            if not positions:
                return  # cannot happen in black and white: every cell a pass decides is fixed
        fixed = tuple((index, i) if is_row else (i, index) for i in positions)
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        colours = puzzle.colours_of(is_row, index) if in_colour else None
        line = Line.of(is_row, index)
        number = len(result.steps) + 1
        record(Step(number, "line", line, clue, before, after, fixed, None, "", colours, puzzle.palette, narrowed))

    def logic(lines: list[tuple[bool, int]] | None) -> bool:
        before = board.passes
        try:
            propagate(board, lines, observe, deadline=deadline)
        except Contradiction as error:
            result.contradiction = Line.of(*error.line).name if error.line else "a line"
            return False
        except TimeUp as error:
            result.cut_short = str(error)
            return False
        finally:
            result.passes += board.passes - before
        return True

    if in_colour:
        rule_out_missing_colours(board)
    if not logic(None):
        return result
    after = 0  # probing goes on from the cell after the last one that fixed something
    while probing and not board.is_complete():
        try:
            found = _probe_once(puzzle, board, result, deadline, after)
        except TimeUp as error:
            result.cut_short = str(error)
            return result
        if found is None:
            break
        cell, ruled_out, broken = found
        r, c = cell
        after = r * puzzle.width + c + 1
        line_before = line_text(board, True, r)
        board.exclude(r, c, ruled_out)
        reason = f"probe (row {r + 1}, column {c + 1}): " + _probe_reason(board, r, c, ruled_out, broken)
        left = tuple(board.possible(r, c))
        record(
            Step(
                len(result.steps) + 1,
                "probe",
                Line("row", r),
                puzzle.rows[r],
                line_before,
                line_text(board, True, r),
                (cell,) if len(left) == 1 else (),
                cell,
                reason,
                puzzle.colours_of(True, r) if in_colour else None,
                puzzle.palette,
                () if len(left) == 1 else ((cell, left),),
            )
        )
        if not logic([(True, r), (False, c)]):
            return result
    return result


def _probe_reason(board: Board, r: int, c: int, ruled_out: int, broken: str) -> str:
    """Why a probe ruled out a colour, and what the cell is now."""
    if not board.puzzle.is_colour:
        tried, now = ("filled", "empty") if ruled_out else ("empty", "filled")
        return f"if it were {tried}, line logic would find {broken} impossible, so it is {now}"
    palette = board.puzzle.palette
    left = board.possible(r, c)
    now = colour_word(palette, left[0]) if len(left) == 1 else choice_words(palette, left)
    return f"if it were {colour_word(palette, ruled_out)}, line logic would find {broken} impossible, so it is {now}"


def _probe_once(
    puzzle: Puzzle, board: Board, result: Trace, deadline: Deadline, after: int = 0
) -> tuple[Cell, int, str] | None:
    """The first unknown cell, row by row from cell number `after` (counted row by row from 0)
    and round to the start again, that one colour of leads to a contradiction: the cell, that
    colour, and the line that broke; None when no cell does. Raises TimeUp when the deadline
    passes first.

    Going on from where the last probe found something, rather than from the top each time,
    reaches the same board in the end (what probing can fix does not depend on the order), with
    one sweep of the grid per round instead of one per cell fixed: a 50x45 picture took 477,248
    probes from the top each time."""
    full = (1 << board.width) - 1
    width, cells = board.width, board.width * board.height
    for number in range(after, after + cells):
        r, c = divmod(number % cells, width)
        if c == 0 or number == after:
            unknown = full & ~board.known(True, r)
        if unknown >> c & 1:
            result.probes += 1
            deadline.check("probing")
            for value in board.possible(r, c)[::-1]:
                guess = board.copy()
                guess.set_cell(r, c, value)
                try:
                    propagate(guess, [(True, r), (False, c)], deadline=deadline)
                except TimeUp:
                    raise TimeUp("probing") from None
                except Contradiction as error:
                    broken = Line.of(*error.line).name if error.line else "a line"
                    return (r, c), value, broken
    return None


@dataclass(frozen=True)
class Explanation:
    """A puzzle explained: the steps of logic, the cells they leave open, and the search's
    result when logic stalls with cells open."""

    logic: Trace
    open_cells: int
    search: Result | None


def writing_ahead(
    deadline: Deadline, writing: Callable[[Step], float] | None
) -> tuple[Deadline, Callable[[Step], None]]:
    """The deadline for finding steps when a caller takes `writing(step)` seconds to write each
    one out (`explain(writing=)`, `hint(writing=)`): `deadline`, and that much earlier for each
    step found, which the function returned beside it is told of."""
    if writing is not None and not callable(writing):
        raise UsageError(f"writing is a function of a step that gives seconds, not {type(writing).__name__}")
    steps_end = Deadline(deadline.at, deadline.grace)

    def written(step: Step) -> None:
        if steps_end.at is not None and writing is not None:
            seconds = writing(step)
            if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or not seconds >= 0:
                raise UsageError(f"writing gives the seconds a step takes to write, not {seconds!r}")
            steps_end.at -= float(seconds)

    return steps_end, written


def explain(
    puzzle: Puzzle,
    timeout: float | Deadline | None = None,
    jobs: int = 1,
    *,
    writing: Callable[[Step], float] | None = None,
) -> Explanation:
    """Line logic and probing as steps; where they stall, a search (up to two solutions, on
    `jobs` cores) says how the puzzle ends, all within `timeout` (seconds, or a command's
    Deadline). Raises `ImpossiblePuzzle` for plainly impossible ones.

    `writing`: the seconds a caller takes to write out a step. The steps end that much earlier
    for each step found, so that all of them are written by the deadline (the 1,500 steps a
    512x512 puzzle has in half a second take as long again to write as JSON)."""
    from nonosat.arguments import check_puzzle, check_whole
    from nonosat.limits import MAX_JOBS

    check_puzzle(puzzle)
    check_whole(jobs, "jobs", MAX_JOBS)
    deadline = Deadline.of(timeout)
    steps_end, written = writing_ahead(deadline, writing)
    puzzle.ensure_possible()
    logic = trace(puzzle, deadline=steps_end, on_step=lambda step, _board: written(step))
    left = logic.board.unknown_count()
    search = None
    if logic.contradiction is None and logic.cut_short is None and left:
        from nonosat.solver import solve

        search = solve(puzzle, count=2, timeout=steps_end, jobs=jobs)  # in time to write the steps too
    return Explanation(logic, left, search)
