"""What the tests of explain, rate, hint and diagnose on colour puzzles share: their colours,
their corpus files, a puzzle with no solution, and a line deduction written apart from nonosat (a
search over block placements, apart from nonosat's automaton) that replays the steps of `explain`
cell by cell: each step must say exactly what its line's clue decides from what the steps before
it showed. The starting knowledge is the rule the steps announce: a cell may only be blank or a
colour both its row's and its column's clue have (unless that leaves it one colour, which a step
then fixes)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from nonosat.explain.step import Step
from nonosat.explain.words import unknown_mark
from nonosat.model import Clue, Colours, Grid, Puzzle
from nonosat.model import Line as GridLine
from nonosat.palette import WHITE, Colour, Palette

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


def crossed() -> Puzzle:
    """2x2: row 1 is red then blue, but column 1 is blue and column 2 red (the totals agree)."""
    return Puzzle(
        rows=((1, 1), ()),
        columns=((1,), (1,)),
        palette=RGB,
        row_colours=((1, 2), ()),
        column_colours=((2,), (1,)),
    )


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
