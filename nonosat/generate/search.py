"""The repair search: one change at a time, the change that leaves line logic least to do for
what it costs the picture.

Each step weighs every change in the lines line logic leaves open (see `Drawing.moves`):
- its gain: how many fewer cells line logic leaves open after it. Solving the whole grid again
  for each is too slow, so each gets a bound first: line logic resumed from what is known now,
  with the changed cell forgotten, from its row and column only. Everything known now other
  than that cell is still true of the changed picture (it solves the changed clues), so this
  can only leave fewer cells open than solving from scratch: a bound. The changes are then
  solved from scratch in the order of their bounds, until no bound can beat the best found
  (or `EXACT_TRIES` have been), as in branch and bound;
- its efficiency: the gain divided by 1 + WEIGHT x its cost to the picture (`Drawing.move_cost`).
A change back toward the picture that leaves no more open is made first: the search undoes
what stopped being needed. When no change gains anything (a plateau: line logic cannot start
anywhere), the step makes the change that most narrows the open lines (`Drawing.freedom_now`: the
fewest placements of their clues), for what it costs, that leaves no more cells open; failing
that, the change that loses the fewest cells (a step back). A state already visited is never
entered again, so the search cannot cycle.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import repeat
from operator import sub
from typing import TypeVar

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.generate.drawing import Drawing, Move
from nonosat.model import Cell, Puzzle
from nonosat.solver.compiled import colour_core, core_for
from nonosat.solver.compiled_lines import painted
from nonosat.solver.propagation import Board, Contradiction, propagate

WEIGHT = 1.0
"""How much a change's cost to the picture weighs against the cells it lets line logic decide."""

EXACT_TRIES = 8
"""At most this many changes are solved from scratch in a step (after the bounds): with 24, the
hard shapes change more cells; with 96, fewer, but both leave twice the specks
(`python -m bench.repair_ideas`)."""

PLATEAU_TRIES = 16
"""On a plateau, at most this many of the changes that narrow the open lines most are tried."""

KEEP_BOUNDS = True
"""After a change that lets line logic decide more, keep the bounds of the changes whose row
and column it did not touch (moved by the cells it freed) rather than bound them all again."""

T = TypeVar("T")

CHECK_EVERY = 64
"""Changes weighed between looks at the deadline."""


@dataclass(frozen=True)
class Edit:
    """A one-cell change and what it does."""

    cell: Cell
    colour: int
    """The colour the cell takes (0 the blank; in black and white, 1 filled)."""
    open: int
    """The cells line logic leaves open after it."""
    cost: float
    """What it costs the picture (see `Drawing.move_cost`; negative: back toward the picture)."""


@dataclass(slots=True)
class Weighed:
    move: Move
    bound: int
    """At least this many cells stay open after the move."""
    cost: float
    narrowing: float
    """How much the move changes the freedom of the open lines it touches (negative: narrower)."""
    tie: float


def solve_open(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> int:
    """The cells line logic leaves open, from the clues alone (a picture's clues always have a
    solution: the picture)."""
    return propagate(Board(puzzle), deadline=deadline).unknown_count()


def mix(seed: int, row: int, column: int, colour: int) -> float:
    """A seeded tie-break in [0, 1) for one colour of one cell."""
    value = (seed * 0x9E3779B1 + row * 0x85EBCA77 + column * 0xC2B2AE3D + colour * 0x27D4EB2F) & 0xFFFFFFFF
    for shift, factor in ((16, 0x7FEB352D), (15, 0x846CA68B)):
        value = ((value ^ (value >> shift)) * factor) & 0xFFFFFFFF
    return (value ^ (value >> 16)) / 2**32


class Search:
    """Steps of the repair of one drawing."""

    def __init__(self, drawing: Drawing, deadline: Deadline, seed: int = 0) -> None:
        self.drawing = drawing
        self.deadline = deadline
        self.seed = seed
        self.seen: set[frozenset[tuple[int, int, int]]] = {self._state()}
        self.board = propagate(Board(drawing.puzzle), deadline=deadline)
        self.open = self.board.unknown_count()
        self._facts: dict[Move, tuple[float, float, float, float]] = {}
        self._bounds: dict[Move, int] = {}
        """The bounds of earlier steps, kept for the changes whose row and column neither the
        last change nor what it let line logic decide touched, moved by the cells it freed (near
        enough: these only order the changes, each is solved from scratch before it is made)."""

    def _state(self, move: Move | None = None) -> frozenset[tuple[int, int, int]]:
        """The set of changes (row, column, colour) that make the picture, after `move`."""
        drawing = self.drawing
        changes = drawing.changes()
        if move is not None:
            r, c, k = move
            if k == drawing.start[r][c]:
                changes.pop((r, c), None)
            else:
                changes[(r, c)] = k
        return frozenset((r, c, k) for (r, c), k in changes.items())

    def open_lines(self) -> tuple[set[int], set[int]]:
        board = self.board
        rows = {r for r in range(board.height) if board.known(True, r) != (1 << board.width) - 1}
        columns = {c for c in range(board.width) if board.known(False, c) != (1 << board.height) - 1}
        return rows, columns

    def bound(self, move: Move, puzzle: Puzzle) -> int:
        """At least this many cells stay open after `move` (see the module's notes)."""
        r, c, _ = move
        board = self.board.copy()
        board.puzzle = puzzle
        row_keep, column_keep = ~(1 << c), ~(1 << r)
        for masks in board.row_not:
            masks[r] &= row_keep
        for masks in board.col_not:
            masks[c] &= column_keep
        try:
            propagate(board, [(True, r), (False, c)], deadline=self.deadline)  # the compiled core's, when built
        except Contradiction:
            return self.open + 1
        return board.unknown_count()

    def bounds(self, moves: list[Move]) -> list[int]:
        """`bound` of each of `moves`, in one call to the compiled core: each move's bound in its
        own call spent most of its time handing the board over (at 100x100, ten times the line
        passes it ran; at 140x100 the repair took 7 minutes). Move by move in Python only where
        the core was not built."""
        drawing, board = self.drawing, self.board
        puzzle = drawing.puzzle
        core, painter = core_for(puzzle), colour_core()
        if core is not None:
            changes: list[tuple[object, ...]] = [(move[0], move[1], *drawing.clues_after(move)) for move in moves]
            found: list[int] = core.open_after(puzzle.rows, puzzle.columns, *board.masks(), changes)
        elif painter is not None:
            changes = [(move[0], move[1], *drawing.painted_after(move)) for move in moves]
            row_colours, column_colours, row_not, col_not = painted(board)
            found = painter.open_after_colours(
                puzzle.rows, row_colours, puzzle.columns, column_colours, row_not, col_not, changes
            )
        else:
            return [self.bound(move, drawing.edited(move)) for move in moves]
        return [self.open + 1 if left < 0 else left for left in found]  # (as `bound` counts a contradiction)

    def weigh(self, budget_left: bool, focus: set[Cell] | None = None, room: float | None = None) -> list[Weighed]:
        """Every change worth weighing now (only of the `focus` cells, when given, and changes
        back; none that would move the picture further than `room`), with its bound, cost and
        narrowing."""
        drawing, rows, columns = self.drawing, *self.open_lines()
        bounds, facts, cells, start = self._bounds, self._facts, drawing.cells, drawing.start
        every = budget_left and focus is None  # no change is left out but by `room`
        weighed: list[Weighed] = []
        add = weighed.append
        moves = drawing.moves(rows, columns)
        for first in range(0, len(moves), CHECK_EVERY):  # (each of the ~10,000 moves a step at 100x100 counts)
            self.deadline.check("repairing the picture")
            chosen = []
            for move in moves[first : first + CHECK_EVERY]:
                r, c, k = move
                back = cells[r][c] != start[r][c]
                if not every and not back and (not budget_left or (focus is not None and (r, c) not in focus)):
                    continue  # the budget allows only changes back; or not a cell in focus
                if room is not None and drawing.colour_cost(r, c, k) - drawing.colour_cost(r, c, cells[r][c]) > room:
                    continue  # beyond the budget of picture distance
                chosen.append(move)
            unbounded = [move for move in chosen if move not in bounds]
            if unbounded:
                bounds.update(zip(unbounded, self.bounds(unbounded), strict=True))
            for move in chosen:
                known = facts.get(move)
                if known is None:
                    known = facts[move] = self._facts_of(move)
                cost, row_narrowing, column_narrowing, tie = known
                narrowing = (row_narrowing if move[0] in rows else 0.0) + (
                    column_narrowing if move[1] in columns else 0.0
                )
                add(Weighed(move, bounds[move], cost, narrowing, tie))
        return weighed

    def _facts_of(self, move: Move) -> tuple[float, float, float, float]:
        """What a move costs, how it narrows its row and its column, and its tie-break: these
        change only when a cell near it, or in its row or column, changes."""
        drawing = self.drawing
        r, c, k = move
        row_narrowing = drawing.freedom_after(True, r, c, k) - drawing.freedom_now(True, r)
        column_narrowing = drawing.freedom_after(False, c, r, k) - drawing.freedom_now(False, c)
        return drawing.move_cost(move), row_narrowing, column_narrowing, mix(self.seed, r, c, k)

    def step(self, budget_left: bool, focus: set[Cell] | None = None, room: float | None = None) -> bool:
        """Make the best change; False when none helps (the search is stuck). With `focus`
        (the cells where two solutions differ), only those cells change, and one always does
        if it can: any of them rules a solution out. Python's collector is paused meanwhile: a
        step weighs every change (~10,000 at 100x100), makes no cycles and frees what it made."""
        from nonosat.solver.encodings.base import collection_paused  # (its module imports PySAT: when needed)

        with collection_paused():
            return self._step(budget_left, focus, room)

    def _step(self, budget_left: bool, focus: set[Cell] | None, room: float | None) -> bool:
        weighed = self.weigh(budget_left, focus, room)
        chosen = self._undo(weighed) or self._best_gain(weighed) or self._plateau(weighed)
        if chosen is None and focus is not None:
            chosen = self._cheapest(weighed, focus)
        if chosen is None:
            return False
        choice, board = chosen
        self.drawing.apply(choice.move)
        self.seen.add(self._state())
        r, c, _ = choice.move
        left = board.unknown_count()
        rows = {i for i in range(board.height) if board.known(True, i) != self.board.known(True, i)} | {r}
        columns = {j for j in range(board.width) if board.known(False, j) != self.board.known(False, j)} | {c}
        freed = self.open - left
        if freed and not KEEP_BOUNDS:
            self._bounds = {}
        # where neither the row nor the column changed, the bound moves with the board
        bounds = self._forget(self._bounds, rows, columns)
        if freed:
            bounds = dict(zip(bounds, map(max, map(sub, bounds.values(), repeat(freed)), repeat(0)), strict=True))
        self._bounds = bounds
        facts = self._forget(self._facts, {r}, {c})
        for i, j in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)):
            for colour in range(self.drawing.colour_count + 1):
                facts.pop((i, j, colour), None)
        self._facts = facts
        self.board, self.open = board, left
        return True

    def _forget(self, table: dict[Move, T], rows: set[int], columns: set[int]) -> dict[Move, T]:
        """`table` without the moves of cells in `rows` or `columns`: each of those moves taken
        out when they are fewer than the table's entries (a step at 100x100 keeps ~10,000 and
        changes a few lines), else a new table of the others."""
        drawing = self.drawing
        colours = range(drawing.colour_count + 1)
        if (len(rows) * drawing.width + len(columns) * drawing.height) * len(colours) >= len(table):
            return {move: value for move, value in table.items() if move[0] not in rows and move[1] not in columns}
        for i in rows:
            for j in range(drawing.width):
                for colour in colours:
                    table.pop((i, j, colour), None)
        for j in columns:
            for i in range(drawing.height):
                for colour in colours:
                    table.pop((i, j, colour), None)
        return table

    def _solved(self, option: Weighed) -> tuple[Board, int] | None:
        """Line logic from scratch on the changed clues, unless the change leads back to a
        picture already visited."""
        if self._state(option.move) in self.seen:
            return None
        board = propagate(Board(self.drawing.edited(option.move)), deadline=self.deadline)
        return board, board.unknown_count()

    def _undo(self, weighed: list[Weighed]) -> tuple[Weighed, Board] | None:
        """A change back toward the picture that leaves no more cells open (none more narrowly
        placed, when it frees none)."""
        start = self.drawing.start
        backs = [w for w in weighed if w.bound <= self.open and start[w.move[0]][w.move[1]] == w.move[2]]
        best: tuple[tuple[int, float], Weighed, Board] | None = None
        for option in heapq.nsmallest(EXACT_TRIES, backs, key=lambda w: (w.bound, w.cost, w.tie)):
            if option.bound == self.open and option.narrowing > 0:
                continue  # it can free no cell, and it widens: it would not be taken
            solved = self._solved(option)
            if solved is None:
                continue
            board, left = solved
            if left < self.open or (left == self.open and option.narrowing <= 0):
                key = (left, option.cost)
                if best is None or key < best[0]:
                    best = (key, option, board)
        return None if best is None else (best[1], best[2])

    def _best_gain(self, weighed: list[Weighed]) -> tuple[Weighed, Board] | None:
        """The change that frees the most cells for what it costs (branch and bound)."""

        def efficiency(option: Weighed, left: int) -> float:
            return (self.open - left) / (1 + WEIGHT * max(option.cost, 0.0))

        ranked = sorted(
            (w for w in weighed if w.bound < self.open), key=lambda w: (-efficiency(w, w.bound), w.cost, w.tie)
        )
        best: tuple[float, Weighed, Board] | None = None
        tries = 0
        for option in ranked:
            if best is not None and efficiency(option, option.bound) <= best[0]:
                break
            if tries >= EXACT_TRIES:
                break
            tries += 1
            solved = self._solved(option)
            if solved is None:
                continue
            board, left = solved
            score = efficiency(option, left)
            if left < self.open and (best is None or score > best[0]):
                best = (score, option, board)
        return None if best is None else (best[1], best[2])

    def _plateau(self, weighed: list[Weighed]) -> tuple[Weighed, Board] | None:
        """No change frees a cell: the one that narrows the open lines most for what it costs,
        and leaves no more cells open. If none does, the change that loses the fewest (a step
        back, never to a picture already visited), among those and the best bounded."""
        narrowing = heapq.nsmallest(
            PLATEAU_TRIES,
            (w for w in weighed if w.narrowing < 0),
            key=lambda w: (w.narrowing / (1 + WEIGHT * max(w.cost, 0.0)), w.tie),
        )
        known: dict[Move, tuple[Board, int] | None] = {}
        for option in narrowing:
            if option.bound <= self.open:  # (a bound over the open cells rules it out unsolved)
                solved = known[option.move] = self._solved(option)
                if solved is not None and solved[1] <= self.open:
                    return option, solved[0]
        bounded = heapq.nsmallest(PLATEAU_TRIES, weighed, key=lambda w: (w.bound, w.cost, w.tie))
        fallback: tuple[int, Weighed, Board] | None = None
        for option in narrowing + bounded:
            solved = known[option.move] if option.move in known else self._solved(option)
            if solved is None:
                continue
            board, left = solved
            if left <= self.open:
                return option, board
            if fallback is None or left < fallback[0]:
                fallback = (left, option, board)
        return None if fallback is None else (fallback[1], fallback[2])

    def _cheapest(self, weighed: list[Weighed], focus: set[Cell]) -> tuple[Weighed, Board] | None:
        """The cheapest change of a cell in focus that leads somewhere new."""
        for option in sorted(weighed, key=lambda w: (w.cost, w.tie)):
            if option.move[:2] in focus:
                solved = self._solved(option)
                if solved is not None:
                    return option, solved[0]
        return None

    def edits(self, count: int) -> list[Edit]:
        """The `count` best one-cell changes that free cells (most cells freed for their cost
        first; among equals, the ones that narrow the open lines most for their cost), each with
        the cells line logic leaves open after it; fewer when fewer free any; none is made."""

        def worth(option: Weighed, left: int) -> tuple[float, float, float, float]:
            weight = 1 + WEIGHT * max(option.cost, 0.0)
            return (-(self.open - left) / weight, option.narrowing / weight, option.cost, option.tie)

        found: list[tuple[tuple[float, float, float, float], Edit]] = []
        for number, option in enumerate(sorted(self.weigh(True), key=lambda w: worth(w, w.bound))):
            if len(found) >= count and worth(option, option.bound) >= found[count - 1][0]:
                break  # its bound cannot beat the edits found: neither can the rest
            if not number % CHECK_EVERY:
                self.deadline.check("weighing one-cell changes")
            left = solve_open(self.drawing.edited(option.move), self.deadline)
            if left >= self.open:
                continue  # it frees no cell: no suggestion
            r, c, k = option.move
            found.append((worth(option, left), Edit((r, c), k, left, round(option.cost, 4))))
            found.sort(key=lambda pair: pair[0])
        return [edit for _, edit in found[:count]]
