"""Diagnose in black and white: the faulty lines of a puzzle with no solution, named on the grid;
on mutated corpus puzzles they include the changed line and are a minimal set that cannot hold
together (checked by another SAT solver); a solvable puzzle has no diagnosis."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pysat.formula import IDPool
from pysat.solvers import Solver
from typer.testing import CliRunner

from nonosat import load, load_all
from nonosat.cli import app
from nonosat.explain.diagnosis import diagnose
from nonosat.model import Line as GridLine
from nonosat.model import Puzzle
from nonosat.solver.encodings import ENCODINGS, Line
from nonosat.solver.propagation import alive_states

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


CAT = ROOT / "puzzles" / "webpbn-00006-cat.non"


def satisfiable(puzzle: Puzzle, lines: list[GridLine]) -> bool:
    """Whether these lines' clues can hold together: a check apart from `diagnose`'s own SAT
    calls, with another solver (CaDiCaL; diagnose uses MiniSat) and no assumptions."""
    pool = IDPool(start_from=puzzle.width * puzzle.height + 1)
    with Solver("cadical195") as sat:
        for kind, index in ((line.kind, line.index) for line in lines):
            if kind == "row":
                cells = [index * puzzle.width + c + 1 for c in range(puzzle.width)]
                clue = puzzle.rows[index]
            else:
                cells = [r * puzzle.width + index + 1 for r in range(puzzle.height)]
                clue = puzzle.columns[index]
            alive = alive_states(clue, len(cells), 0, 0)
            for clause in ENCODINGS["blocks"](Line((kind, index), clue, cells, alive), pool):
                sat.add_clause(clause)
        return bool(sat.solve())


def mutated(puzzle: Puzzle, rng: random.Random) -> tuple[Puzzle, GridLine]:
    """The puzzle with one clue number of one line changed by one."""
    kind = rng.choice(["rows", "columns"])
    clues = list(getattr(puzzle, kind))
    index = rng.choice([i for i, clue in enumerate(clues) if clue])
    clue = list(clues[index])
    j = rng.randrange(len(clue))
    clue[j] += 1 if clue[j] == 1 or rng.random() < 0.5 else -1
    clues[index] = tuple(clue)
    changed = Puzzle(
        rows=tuple(clues) if kind == "rows" else puzzle.rows,
        columns=tuple(clues) if kind == "columns" else puzzle.columns,
    )
    return changed, GridLine("row" if kind == "rows" else "column", index)


@pytest.mark.slow
def test_diagnoses_of_mutated_corpus_puzzles_name_the_changed_line_and_are_minimal(corpus: Path) -> None:
    rng = random.Random(2026)
    sources = [
        load(corpus / "webpbn" / name)
        for name in ("webpbn-00006-cat.non", "webpbn-00016-knot.non", "webpbn-00021-skid.non")
    ]
    sources += load_all(corpus / "tcga" / "question" / "taai2011.txt")[:2]
    checked = 0
    for puzzle in sources:
        for _ in range(5):
            broken, key = mutated(puzzle, rng)
            found = diagnose(broken)
            assert found is not None, key
            lines = list(found.lines)
            assert key in lines
            assert not satisfiable(broken, lines)
            for line in lines:
                assert satisfiable(broken, [other for other in lines if other != line]), (key, line)
            checked += 1
    assert checked == 25


def test_a_solvable_puzzle_has_no_diagnosis() -> None:
    assert diagnose(load(CAT)) is None


def test_no_solution_names_the_lines_on_the_grid(tmp_path: Path) -> None:
    path = tmp_path / "broken.non"
    path.write_text("width 3\nheight 3\nrows\n1,1\n1\n1\ncolumns\n2\n0\n2\n")
    done = runner.invoke(app, ["check", str(path), "--ascii"])
    assert done.exit_code == 3
    assert "row 2 (clue 1), column 1 (clue 2), column 3 (clue 2)" in done.stdout
    assert " <" in done.stdout and "^" in done.stdout
    for command in ("check", "explain"):  # into a pipe, no red shows: the pointers, without --ascii
        piped = runner.invoke(app, [command, str(path)])
        assert piped.exit_code == 3 and " <" in piped.stdout and "^" in piped.stdout, piped.stdout
    totals = tmp_path / "totals.non"
    totals.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")
    done = runner.invoke(app, ["solve", str(totals)])
    assert done.exit_code == 3 and "the row clues fill 2 cells but the column clues fill 1" in done.output
    assert "cannot all hold" in done.stdout
