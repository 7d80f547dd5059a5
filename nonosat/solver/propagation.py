"""Line logic over a whole grid: propagation to a fixed point on a `Board` (nonosat.solver.board).

Every line pass asks `line_logic` what one line's clue decides from its known cells, and queues
the crossing lines of every cell it fixes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from functools import lru_cache
from time import perf_counter

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import TimeUp
from nonosat.model import Clue, Puzzle
from nonosat.solver.board import Board, settled_cells, solved_board
from nonosat.solver.compiled import colour_core, core_for
from nonosat.solver.compiled_lines import DEADLINE_PASSES, propagate_compiled, propagate_painted
from nonosat.solver.line_logic import (
    Automaton,
    Contradiction,
    alive_states,
    automaton,
    colour_alive_states,
    settle_colour_line,
    settle_line,
)

__all__ = [
    "Automaton",
    "Board",
    "Contradiction",
    "LineStats",
    "Observer",
    "alive_states",
    "automaton",
    "colour_alive_states",
    "settle_colour_line",
    "line_solve",
    "line_stats",
    "propagate",
    "settle_line",
    "settled_cells",
    "solved_board",
]


Observer = Callable[[bool, int, tuple[int, ...], tuple[int, ...]], None]
"""Called by `propagate` after each line pass that excludes colours: (is_row, index, before, new):
for each colour (0 the background), the line's cells that could not have it before the pass, and
those the pass newly rules out. In black and white those are (filled, empty) masks."""


PassTimer = Callable[[bool, int, int, float], None]
"""Called by `propagate` after every line pass, when given: (is_row, index, cells fixed, seconds)."""


def propagate(
    board: Board,
    lines: Sequence[tuple[bool, int]] | None = None,
    observe: Observer | None = None,
    on_pass: PassTimer | None = None,
    deadline: Deadline = NO_DEADLINE,
    compiled: bool = True,
) -> Board:
    """Run complete line deduction to a fixed point, with a queue of lines whose cells changed.

    `lines` holds (is_row, index) pairs to start from; by default every line. Raises
    `Contradiction` (naming the line) if some line cannot be completed, and TimeUp if the
    deadline passes first (looked at every DEADLINE_PASSES passes). `observe` hears of every
    pass that rules out colours, `on_pass` of every pass with its time and the cells it fixed.
    Without either, every grid goes through the compiled core when it was built
    (`nonosat.solver.compiled`; `compiled=False` keeps to Python), with the same passes and the
    same result: black and white up to 126x126 with a line in a machine word, the rest with a
    cell as its set of colours (core/colour_logic.c).
    """
    if lines is None:
        lines = [(True, r) for r in range(board.height)] + [(False, c) for c in range(board.width)]
    quiet = compiled and observe is None and on_pass is None
    core = core_for(board.puzzle) if quiet else None
    if core is not None:
        return propagate_compiled(core, board, lines, deadline)
    painter = colour_core() if quiet else None
    if painter is not None:
        return propagate_painted(painter, board, lines, deadline)
    if board.colours > 1:
        settle = _compiled_settle_colours if compiled and colour_core() is not None else _cached_settle_colours
        return _propagate_colours(board, lines, observe, on_pass, deadline, settle)
    puzzle = board.puzzle
    width, height = board.width, board.height
    row_f, row_e, col_f, col_e = board.row_not[0], board.row_not[1], board.col_not[0], board.col_not[1]
    queue = deque(lines)
    queued = set(queue)
    settle = _cached_settle
    timed = deadline.at is not None
    while queue:
        line = queue.popleft()
        queued.discard(line)
        is_row, index = line
        board.passes += 1
        if timed and not board.passes % DEADLINE_PASSES:
            deadline.check("running line logic")
        if is_row:
            own_f, own_e, clues, length, crossing_f, crossing_e = row_f, row_e, puzzle.rows, width, col_f, col_e
        else:
            own_f, own_e, clues, length, crossing_f, crossing_e = col_f, col_e, puzzle.columns, height, row_f, row_e
        old_f, old_e = own_f[index], own_e[index]
        started = perf_counter() if on_pass is not None else 0.0
        try:
            new_f, new_e = settle(clues[index], length, old_f, old_e)
        except Contradiction:
            raise Contradiction(line) from None
        new_f, new_e = new_f & ~old_f, new_e & ~old_e
        if on_pass is not None:
            on_pass(is_row, index, bin(new_f | new_e).count("1"), perf_counter() - started)
        if not (new_f | new_e):
            continue
        if observe is not None:
            observe(is_row, index, (old_f, old_e), (new_f, new_e))
        own_f[index] = old_f | new_f
        own_e[index] = old_e | new_e
        other = not is_row
        bit = 1 << index
        for masks, news in ((crossing_f, new_f), (crossing_e, new_e)):
            while news:
                low = news & -news
                j = low.bit_length() - 1
                news ^= low
                masks[j] |= bit
                key = (other, j)
                if key not in queued:
                    queued.add(key)
                    queue.append(key)
    return board


def _propagate_colours(
    board: Board,
    lines: Sequence[tuple[bool, int]],
    observe: Observer | None,
    on_pass: PassTimer | None,
    deadline: Deadline,
    settle: Callable[[Clue, tuple[int, ...], int, tuple[int, ...]], tuple[int, ...]],
) -> Board:
    """`propagate` for more than one colour, a pass at a time (to be observed): a line pass rules
    out colours cell by cell (`settle`: one line's deduction, in the core where it is built), and
    every cell that loses a colour queues its crossing line."""
    puzzle = board.puzzle
    queue = deque(lines)
    queued = set(queue)
    timed = deadline.at is not None
    while queue:
        line = queue.popleft()
        queued.discard(line)
        is_row, index = line
        board.passes += 1
        if timed and not board.passes % DEADLINE_PASSES:
            deadline.check("running line logic")
        own, crossing = (board.row_not, board.col_not) if is_row else (board.col_not, board.row_not)
        length = board.width if is_row else board.height
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        old = tuple(masks[index] for masks in own)
        started = perf_counter() if on_pass is not None else 0.0
        known_before = board.known(is_row, index) if on_pass is not None else 0
        try:
            settled = settle(clue, puzzle.colours_of(is_row, index), length, old)
        except Contradiction:
            raise Contradiction(line) from None
        new = tuple(now & ~was for now, was in zip(settled, old, strict=True))
        changed = 0
        for colour, news in enumerate(new):
            if news:
                own[colour][index] |= news
                changed |= news
        if on_pass is not None:
            fixed = board.known(is_row, index) & ~known_before
            on_pass(is_row, index, bin(fixed).count("1"), perf_counter() - started)
        if not changed:
            continue
        if observe is not None:
            observe(is_row, index, old, new)
        other = not is_row
        bit = 1 << index
        for colour, news in enumerate(new):
            masks = crossing[colour]
            while news:
                low = news & -news
                j = low.bit_length() - 1
                news ^= low
                masks[j] |= bit
        while changed:
            low = changed & -changed
            j = low.bit_length() - 1
            changed ^= low
            key = (other, j)
            if key not in queued:
                queued.add(key)
                queue.append(key)
    return board


@lru_cache(maxsize=1 << 16)
def _cached_settle_colours(
    clue: Clue, colours: tuple[int, ...], length: int, excluded: tuple[int, ...]
) -> tuple[int, ...]:
    return settle_colour_line(clue, colours, length, excluded)


MAX_PAINT_SIDE = 4096
"""The longest line the core's `settle_colours` takes (core/colour.h); nonosat's own limit is
shorter (nonosat.limits.MAX_SIDE)."""


@lru_cache(maxsize=1 << 16)
def _compiled_settle_colours(
    clue: Clue, colours: tuple[int, ...], length: int, excluded: tuple[int, ...]
) -> tuple[int, ...]:
    """`settle_colour_line` in the core (core/colour_logic.c, the same exclusions: the tests of
    tests/test_colour_logic.py): explain's and rate's passes on a 512x512 colour grid took 14 of
    their 20 s in Python."""
    painter = colour_core()
    if painter is None or length > MAX_PAINT_SIDE:
        return _cached_settle_colours(clue, colours, length, excluded)
    size, full = (length + 7) // 8, (1 << length) - 1
    found = painter.settle_colours(clue, colours, length, [(mask & full).to_bytes(size, "little") for mask in excluded])
    if found is None:
        raise Contradiction
    return tuple(int.from_bytes(data, "little") for data in found)


@lru_cache(maxsize=1 << 16)
def _cached_settle(clue: Clue, length: int, filled: int, empty: int) -> tuple[int, int]:
    """`settle_line`, remembered by (clue, known cells) as pbnsolve does."""
    return settle_line(clue, length, filled, empty)


def line_solve(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> Board:
    """Deduce every cell that line logic alone decides; raises `Contradiction` if none fits, and
    TimeUp if the deadline passes first."""
    _refuse_overfull(puzzle)
    return propagate(Board(puzzle), deadline=deadline)


def _refuse_overfull(puzzle: Puzzle) -> None:
    """Raise `Contradiction` naming the first line whose clue needs more cells than the line has,
    before any line pass: a clue far longer than its line (a number past 2**63 from a file or a
    request) would not fit the compiled core's integers, nor its automaton in memory."""
    overfull = puzzle.overfull_lines()
    if overfull:
        raise Contradiction(overfull[0])


LineStats = dict[tuple[bool, int], tuple[int, int, float]]
"""Per line, (is_row, index): the passes line logic made over it, the cells they fixed, seconds."""


def line_stats(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> tuple[LineStats, str | None]:
    """How line logic spends its work, line by line, up to a contradiction or the deadline; and
    why it stopped short, when the deadline passed first."""
    stats: dict[tuple[bool, int], list[float]] = {}

    def count(is_row: bool, index: int, fixed: int, seconds: float) -> None:
        entry = stats.setdefault((is_row, index), [0, 0, 0.0])
        entry[0] += 1
        entry[1] += fixed
        entry[2] += seconds

    cut_short = None
    try:
        _refuse_overfull(puzzle)
        propagate(Board(puzzle), on_pass=count, deadline=deadline)
    except Contradiction:
        pass
    except TimeUp as error:
        cut_short = str(error)
    return {key: (int(passes), int(fixed), seconds) for key, (passes, fixed, seconds) in stats.items()}, cut_short
