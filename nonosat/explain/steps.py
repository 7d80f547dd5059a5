"""Line logic as steps a person can follow, with probing when it stalls.

A step is one line pass that fixes cells: the line, its clue, the line's cells before and after
(`#` filled, `.` empty, `?` unknown), and the cells newly fixed. When line logic stalls, probing
tries each unknown cell both ways with line logic; a value that leads to a contradiction is
ruled out, which fixes the cell (a "probe" step naming the cell and the line that broke). When
probing finds nothing either, the rest needs search (SAT).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import TimeUp
from nonosat.linesolve import Board, Contradiction, propagate
from nonosat.model import Cell, Clue, Line, Puzzle, clue_text

if TYPE_CHECKING:
    from nonosat.solver import Result

Kind = Literal["line", "probe"]


@dataclass(frozen=True)
class Step:
    """One deduction."""

    number: int
    kind: Kind
    line: Line
    """The line whose clue made the deduction (for a probe, the probed cell's row)."""
    clue: Clue
    before: str
    after: str
    fixed: tuple[Cell, ...]
    """The (row, column) cells, from 0, fixed by this step."""
    probe: Cell | None = None
    """For a probe step: the cell tried, and `reason` says how."""
    reason: str = ""

    def describe(self) -> str:
        cells = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in self.fixed)
        if self.kind == "probe":
            return self.reason
        return f"{self.line}, clue {clue_text(self.clue)}: {self.before} -> {self.after}; fixed {cells}"


@dataclass
class Trace:
    """The steps of a logical solve, and where it ended."""

    board: Board
    steps: list[Step] = field(default_factory=list)
    passes: int = 0
    probes: int = 0
    """How many cells were probed (each tried both ways)."""
    contradiction: str | None = None
    """The line found impossible, if the clues contradict each other (or the given cells)."""
    cut_short: str | None = None
    """Why the logic stopped before it could go no further, when the deadline passed first."""

    @property
    def complete(self) -> bool:
        return self.contradiction is None and self.cut_short is None and self.board.is_complete()

    @property
    def level(self) -> str:
        """ "line" if line logic alone got this far, "probe" if probing was needed."""
        return "probe" if any(step.kind == "probe" for step in self.steps) else "line"


def cells_text(excluded: tuple[int, ...], length: int, chars: str) -> str:
    """A line's cells from the colours each cannot have: its colour's character where one is
    left, `?` where more are. `chars` holds each colour's character (".#" in black and white)."""
    if len(excluded) == 2:
        filled, empty = excluded
        return "".join(chars[1] if filled >> i & 1 else chars[0] if empty >> i & 1 else "?" for i in range(length))
    text = []
    for i in range(length):
        left = [c for c, masks in enumerate(excluded) if not masks >> i & 1]
        text.append(chars[left[0]] if len(left) == 1 else "?")
    return "".join(text)


def board_chars(board: Board) -> str:
    """The character of each colour in step texts: ".#" in black and white, else the palette's."""
    return ".#" if not board.puzzle.is_colour else "".join(colour.char for colour in board.puzzle.palette)


def line_text(board: Board, is_row: bool, index: int) -> str:
    """The cells of one line as `#`, `.` and `?` (in colour, each colour's character)."""
    length = board.width if is_row else board.height
    return cells_text(board.excluded(is_row, index), length, board_chars(board))


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

    def record(step: Step) -> None:
        result.steps.append(step)
        if on_step is not None:
            on_step(step, board)

    chars = board_chars(board)

    def observe(is_row: bool, index: int, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        length = board.width if is_row else board.height
        before = cells_text(old, length, chars)
        after = cells_text(tuple(a | b for a, b in zip(old, new, strict=True)), length, chars)
        positions = [i for i in range(length) if before[i] == "?" != after[i]]
        if not positions:
            return  # colours ruled out, but no cell settled: not a step a person would write down
        fixed = tuple((index, i) if is_row else (i, index) for i in positions)
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        record(Step(len(result.steps) + 1, "line", Line.of(is_row, index), clue, before, after, fixed))

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

    if not logic(None):
        return result
    while probing and not board.is_complete():
        try:
            found = _probe_once(puzzle, board, result, deadline)
        except TimeUp as error:
            result.cut_short = str(error)
            return result
        if found is None:
            break
        cell, ruled_out, broken = found
        r, c = cell
        line_before = line_text(board, True, r)
        board.exclude(r, c, ruled_out)
        reason = f"probe (row {r + 1}, column {c + 1}): " + _probe_reason(board, r, c, ruled_out, broken)
        record(
            Step(
                len(result.steps) + 1,
                "probe",
                Line("row", r),
                puzzle.rows[r],
                line_before,
                line_text(board, True, r),
                (cell,) if board.cell(r, c) is not None else (),
                cell,
                reason,
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
    names = [colour.name for colour in board.puzzle.palette]
    names[0] = "blank"
    left = board.possible(r, c)
    now = names[left[0]] if len(left) == 1 else "not " + names[ruled_out]
    return f"if it were {names[ruled_out]}, line logic would find {broken} impossible, so it is {now}"


def _probe_once(puzzle: Puzzle, board: Board, result: Trace, deadline: Deadline) -> tuple[Cell, int, str] | None:
    """The first unknown cell (row by row) that one colour of leads to a contradiction: the
    cell, that colour, and the line that broke. Raises TimeUp when the deadline passes first."""
    full = (1 << board.width) - 1
    for r in range(board.height):
        unknown = full & ~board.known(True, r)
        for c in range(board.width):
            if not unknown >> c & 1:
                continue
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


def explain(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE, jobs: int = 1) -> Explanation:
    """Line logic and probing as steps; where they stall, a search (up to two solutions, on
    `jobs` cores) says how the puzzle ends. Raises `ImpossiblePuzzle` for plainly impossible ones."""
    puzzle.ensure_possible()
    logic = trace(puzzle, deadline=deadline)
    left = logic.board.unknown_count()
    search = None
    if logic.contradiction is None and logic.cut_short is None and left:
        from nonosat.solver import solve

        search = solve(puzzle, count=2, timeout=deadline.remaining(), jobs=jobs)
    return Explanation(logic, left, search)
