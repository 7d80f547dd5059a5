"""Diagnose on colour puzzles (issue 16): the lines named when there is no solution are a set
that cannot hold together and is minimal, by brute force and by another SAT solver."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

from colour_explained import RGB, along, colour_file, crossed
from pysat.formula import IDPool
from pysat.solvers import Solver
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.diagnosis import diagnose
from nonosat.model import Grid, Puzzle
from nonosat.model import Line as GridLine
from nonosat.solver.encodings import ENCODINGS, Line, at_most_one
from nonosat.solver.encodings.grid import cell_variable
from nonosat.solver.propagation import colour_alive_states

runner = CliRunner()


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
