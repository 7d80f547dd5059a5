"""Why a puzzle has no solution: a minimal set of lines whose clues cannot all hold together.

Each line's clue is encoded on its own (no line logic first: that would mix the lines) and
guarded by one assumption literal, over the grid formula's cell variables (in colour, one per
cell and colour, with at most one colour per cell, which holds whatever the lines). A SAT call
under all the assumptions is unsatisfiable; its core names some lines, and deletion shrinks it
to a minimal set: dropping any one line of the set makes the rest satisfiable. A clue too long
for its line is a set of one by itself.

This can take long: when the row and column totals differ, the proof is a counting argument,
which SAT solvers may take exponential time over (a one-number typo in LalaFrogKK's 25x25 ran
for minutes, where a typo in Knot takes milliseconds). Each SAT call honours the deadline; when
it passes, `diagnose` raises TimeUp.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.formula import IDPool

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import CutShort, FormulaTooLarge, TimeUp
from nonosat.limits import MAX_CLAUSES
from nonosat.model import Line, Puzzle
from nonosat.solver.backends import DEFAULT_SOLVER
from nonosat.solver.encodings import DEFAULT_ENCODING, ENCODINGS, Clause, at_most_one
from nonosat.solver.encodings import Line as LineToEncode
from nonosat.solver.encodings.grid import cell_variable
from nonosat.solver.propagation import Contradiction, alive_states, colour_alive_states


@dataclass(frozen=True)
class Diagnosis:
    """The lines at fault, and the cheap checks that failed before any search."""

    lines: tuple[Line, ...]
    problems: tuple[str, ...]

    def names(self, puzzle: Puzzle) -> list[str]:
        """Each line with its clue, as people name them: "row 3 (clue 2 1)" ("2red 1blue")."""
        return [f"{line.name} (clue {puzzle.clue_text(line.is_row, line.index)})" for line in self.lines]


def _all_lines(puzzle: Puzzle) -> list[Line]:
    return [Line("row", r) for r in range(puzzle.height)] + [Line("column", c) for c in range(puzzle.width)]


def _cells(puzzle: Puzzle, line: Line) -> list[tuple[int, int]]:
    if line.is_row:
        return [(line.index, c) for c in range(puzzle.width)]
    return [(r, line.index) for r in range(puzzle.height)]


def _line_to_encode(puzzle: Puzzle, line: Line) -> LineToEncode:
    """A line's clue over the grid's cell variables, as `build_formula` encodes it with
    nothing known. Raises Contradiction if the clue cannot fit."""
    key = (line.kind, line.index)
    cells = _cells(puzzle, line)
    clue = line.clue_in(puzzle)
    if not puzzle.is_colour:
        literals = [cell_variable(puzzle, r, c) for r, c in cells]
        return LineToEncode(key, clue, literals, alive_states(clue, len(cells), 0, 0))
    colours = puzzle.colours_of(line.is_row, line.index)
    count = puzzle.colour_count
    choices = [[cell_variable(puzzle, r, c, k) for k in range(1, count + 1)] for r, c in cells]
    _, alive = colour_alive_states(clue, colours, len(cells), (0,) * (count + 1))
    return LineToEncode(key, clue, (), alive, colours, choices)


def _one_colour_each(puzzle: Puzzle) -> list[Clause]:
    """In colour, at most one colour per cell (nothing in black and white)."""
    if not puzzle.is_colour:
        return []
    count = puzzle.colour_count
    clauses: list[Clause] = []
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            clauses += at_most_one([cell_variable(puzzle, r, c, k) for k in range(1, count + 1)])
    return clauses


def diagnose(puzzle: Puzzle, solver: str = DEFAULT_SOLVER, deadline: Deadline = NO_DEADLINE) -> Diagnosis | None:
    """A minimal set of lines that cannot all hold, or None if the puzzle has a solution.
    Raises TimeUp when the deadline passes first, FormulaTooLarge when the lines' clauses pass
    MAX_CLAUSES."""
    from nonosat.solver import Search

    problems = tuple(puzzle.problems())
    overfull = set(puzzle.overfull_lines())
    for line in _all_lines(puzzle):
        if (line.is_row, line.index) in overfull:
            return Diagnosis((line,), problems)
    pool = IDPool(start_from=puzzle.width * puzzle.height * puzzle.colour_count + 1)
    guards: dict[int, Line] = {}
    encode = ENCODINGS[DEFAULT_ENCODING]
    clauses = _one_colour_each(puzzle)
    stage = "looking for the conflicting lines"
    for line in _all_lines(puzzle):
        deadline.check(stage)
        try:
            to_encode = _line_to_encode(puzzle, line)
        except Contradiction:  # cannot happen once the clue fits; kept as a set of one
            return Diagnosis((line,), problems)
        guard = pool.id(("guard", (line.kind, line.index)))
        guards[guard] = line
        clauses += [clause + [-guard] for clause in encode(to_encode, pool)]
        if len(clauses) > MAX_CLAUSES:
            raise FormulaTooLarge(
                f"the clauses of every line passed {MAX_CLAUSES}, the limit that keeps memory bounded"
            )
    search = Search(clauses, solver, deadline)
    order = list(guards)

    def unsatisfiable(assumptions: list[int]) -> bool:
        answer = search.solve(assumptions)
        if answer is None:
            raise TimeUp(stage)
        return not answer

    try:
        if not unsatisfiable(order):
            return None
        core = sorted(search.sat.get_core() or order, key=order.index)
        for guard in list(core):  # deletion: keep a line only if the rest is satisfiable without it
            if guard not in core:
                continue  # dropped already, by a smaller core
            rest = [g for g in core if g != guard]
            if unsatisfiable(rest):
                shrunk = set(search.sat.get_core() or rest)
                core = [g for g in rest if g in shrunk]
        return Diagnosis(tuple(guards[g] for g in core), problems)
    finally:
        search.close()


DEFAULT_SECONDS = 10.0
"""The most time spent looking for the conflicting lines when the caller gives no deadline."""


def conflicting_lines(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> tuple[Diagnosis | None, str | None]:
    """`diagnose` within the deadline (DEFAULT_SECONDS when there is none): the lines at fault
    (None if the puzzle has a solution after all), or why the search for them was cut short."""
    limit = deadline if deadline.at is not None else Deadline.after(DEFAULT_SECONDS)
    try:
        return diagnose(puzzle, deadline=limit), None
    except CutShort as error:
        return None, str(error)
