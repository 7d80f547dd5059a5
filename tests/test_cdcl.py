"""The compiled conflict-driven search (nonosat/core/cdcl_*.c, the cdcl engine), and the
depth-first one (nonosat/core/dfs.c, the dfs engine) raced upside down as it is.

Its learnt clauses come from line logic's explanations: an explanation that claims too much
would cut solutions away. So its counts are checked against the depth-first search (which
learns nothing) on random puzzles where it meets many conflicts, its grids against the clues,
and its unique grids against the published solutions of tournament puzzles.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
from core_marks import needs_core

from nonosat import Puzzle, load_all, solve
from nonosat.formats.tournament import load_tournament_solutions
from nonosat.solver import Status, compiled
from nonosat.solver.compiled_search import CoreSearch, turned_upside_down, upside_down_work
from nonosat.solver.propagation import Contradiction, line_solve

core = pytest.importorskip("nonosat._core")


def unpacked(module: Any, packed: bytes, height: int) -> list[tuple[int, ...]]:
    """Every grid of a core search's answer (one bytes object), as tuples of row masks."""
    return list(compiled.CoreGrids(packed, height, module.CELL_BYTES))


def learn(
    puzzle: Puzzle, count: int, budget: int = 0, shrink: bool = True, stop: bytearray | None = None
) -> tuple[bool, list[Any], dict[str, int]]:
    board = line_solve(puzzle)
    views = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    complete, packed, stats = core.cdcl(puzzle.rows, puzzle.columns, *views, count, budget, 0.0, shrink, stop)
    return complete, unpacked(core, packed, puzzle.height), stats


def searched(puzzle: Puzzle, count: int) -> tuple[bool, list[Any], int]:
    board = line_solve(puzzle)
    views = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    complete, packed, made = core.search(puzzle.rows, puzzle.columns, *views, count, 0, 0)
    return complete, unpacked(core, packed, puzzle.height), made


def random_puzzle(rng: random.Random, height: int, width: int, density: float) -> Puzzle:
    return Puzzle.from_grid([[int(rng.random() < density) for _ in range(width)] for _ in range(height)])


def meets_clues(puzzle: Puzzle, rows: tuple[int, ...]) -> bool:
    return puzzle.satisfied_by(tuple(tuple((row >> c) & 1 for c in range(puzzle.width)) for row in rows))


@pytest.mark.slow
@pytest.mark.parametrize("shrink", [True, False])
def test_counts_agree_with_the_depth_first_search(shrink: bool) -> None:
    """Up to 3 solutions of 250 random puzzles: the same count and the same completeness as the
    search that learns nothing; every grid meets the clues, none twice. With shrink=False a
    cell is explained by all of its line's known cells: weaker clauses, the same answers.
    Sparse grids make puzzles with many conflicts."""
    rng = random.Random(2026)
    conflicts = 0
    counts = set()
    for _ in range(250):
        puzzle = random_puzzle(rng, rng.randint(10, 20), rng.randint(10, 20), rng.choice((0.35, 0.4)))
        count = rng.choice((1, 2, 3))
        complete, grids, stats = learn(puzzle, count, shrink=shrink)
        expected_complete, expected, _ = searched(puzzle, count)
        assert (complete, len(grids)) == (expected_complete, len(expected)), puzzle.rows
        assert all(meets_clues(puzzle, rows) for rows in grids)
        assert len(set(grids)) == len(grids)
        conflicts += stats["conflicts"]
        counts.add(len(grids))
    assert counts == {1, 2, 3}
    assert conflicts > 10000  # the answers rest on learnt clauses, not on propagation alone


def test_a_puzzle_with_no_solution_is_proved_so() -> None:
    """Random puzzles with two rows' clues swapped: the totals still agree, and line logic
    refutes some of them, but not all of those that have no grid."""
    rng = random.Random(5)
    refuted = 0
    for _ in range(400):
        puzzle = random_puzzle(rng, 8, 8, 0.5)
        rows = list(puzzle.rows)
        rows[0], rows[1] = rows[1], rows[0]
        swapped = Puzzle(rows=tuple(rows), columns=puzzle.columns)
        try:
            complete, grids, _ = learn(swapped, 2)
        except Contradiction:
            continue
        expected_complete, expected, _ = searched(swapped, 2)
        assert (complete, len(grids)) == (expected_complete, len(expected))
        refuted += complete and not grids
    assert refuted > 5


@pytest.fixture(scope="module")
def hard(corpus: Path) -> list[Puzzle]:
    """Tournament puzzles the depth-first search gives up on within 200 guesses (and 1,000), that
    the conflict-driven search decides in 89-6,753 conflicts (700-1,400 with VSIDS's scores)."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))
    return [puzzles[number - 1] for number in (372, 483, 597, 690, 742, 745, 891, 998)]


@pytest.mark.slow
def test_tournament_puzzles_the_depth_first_search_gives_up_on(corpus: Path, hard: list[Puzzle]) -> None:
    published = load_tournament_solutions((corpus / "tcga" / "solution" / "taai2011.txt").read_text())
    for puzzle in hard:
        assert searched_within(puzzle, 200) is False
        complete, grids, stats = learn(puzzle, 2)
        assert complete and stats["conflicts"] > 50
        assert all(meets_clues(puzzle, rows) for rows in grids)
        number = int(str(puzzle.source).rpartition("#")[2])
        goal = tuple(sum(cell << c for c, cell in enumerate(row)) for row in published[number])
        if len(grids) == 1:
            assert grids[0] == goal
        assert len(grids) in (1, 2)


def searched_within(puzzle: Puzzle, guesses: int) -> bool:
    board = line_solve(puzzle)
    views = (board.row_filled, board.row_empty, board.col_filled, board.col_empty)
    return bool(core.search(puzzle.rows, puzzle.columns, *views, 2, guesses, 0)[0])


@pytest.mark.slow
def test_each_engine_answers_by_its_own_method_with_the_same_verdict(hard: list[Puzzle]) -> None:
    """auto is cdcl on these; dfs and sat give the same verdicts, each with its own counts."""
    for puzzle in (hard[1], hard[2], hard[4], hard[7]):  # not #372, #690: dfs's 3 and 17 s alone
        auto, learnt, guessed, by_sat = (solve(puzzle, engine=name) for name in ("auto", "cdcl", "dfs", "sat"))
        assert [r.method.value for r in (auto, learnt, guessed, by_sat)] == ["cdcl", "cdcl", "dfs", "sat"]
        assert auto.status == learnt.status == guessed.status == by_sat.status
        assert learnt.stats["conflicts"] > 0 and guessed.stats["guesses"] > 0 and by_sat.stats["clauses"] > 0


@pytest.mark.slow
def test_budgets_and_stops_end_it_unfinished(hard: list[Puzzle]) -> None:
    puzzle = hard[0]
    complete, grids, stats = learn(puzzle, 2, budget=20)
    assert not complete and stats["conflicts"] >= 20
    complete, _, stats = learn(puzzle, 2, stop=bytearray(b"\x01"))
    assert not complete and stats["conflicts"] < 100  # stopped at its first look
    for engine in ("cdcl", "dfs"):
        search = CoreSearch(line_solve(puzzle), engine)
        search.stop()
        assert search.run(2, []) is None


@pytest.mark.slow
def test_another_thread_stops_it(hard: list[Puzzle]) -> None:
    """CoreSearch.stop from another thread, as the rival's answer and Ctrl-C's watcher do."""
    puzzle = max(hard, key=lambda p: learn(p, 2)[2]["conflicts"])
    search = CoreSearch(line_solve(puzzle), "cdcl")
    threading.Timer(0.001, search.stop).start()
    found: list[Any] = []
    assert search.run(2, found) is None
    assert search.stats["conflicts"] < learn(puzzle, 2)[2]["conflicts"]
    deep = CoreSearch(line_solve(puzzle), "dfs")
    threading.Timer(0.001, deep.stop).start()
    assert deep.run(2, found) is None
    assert deep.stats["guesses"] < searched(puzzle, 2)[2]


def test_every_answer_is_checked_by_solve() -> None:
    """A small puzzle with many solutions: solve(count=5) gives five different verified grids
    (`verified` raises on any grid that breaks a clue)."""
    if not compiled.fits(Puzzle(rows=((1,),), columns=((1,),))):
        pytest.skip("the compiled core was not built")
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)  # the 120 permutation matrices
    result = solve(puzzle, count=5)
    assert result.status is Status.MULTIPLE and result.method.value == "cdcl"
    assert len({solution.grid for solution in result.solutions}) == 5


@needs_core
@pytest.mark.parametrize("engine", ["cdcl", "dfs"])
def test_the_search_upside_down_finds_the_same_grids(engine: str) -> None:
    """The rival's search on the puzzle turned upside down (the board's masks turned too, the
    grids turned back): every solution of 60 random puzzles (those with fewer than 100), the same
    as the search's the right way up, on boards line logic started."""
    rng = random.Random(19)
    tried = 0
    for _ in range(60):
        puzzle = random_puzzle(rng, rng.randint(4, 9), rng.randint(4, 9), 0.45)
        try:
            board = line_solve(puzzle)
        except Contradiction:
            continue
        upright: list[Any] = []
        turned: list[Any] = []
        ended = CoreSearch(board, engine).run(100, upright)
        assert CoreSearch(board, engine, upside_down=True).run(100, turned) is ended is not None
        assert len(turned) == len(set(turned)) == len(upright) and all(puzzle.satisfied_by(grid) for grid in turned)
        if ended:  # all of them, both ways
            assert set(upright) == set(turned), puzzle.rows
            tried += board.row_filled != [0] * puzzle.height and len(turned) > 1
    assert tried >= 5


def test_turning_upside_down_moves_rows_and_reverses_columns() -> None:
    masks = ([1, 0, 0], [0, 4, 0], [1, 0, 0], [0, 6, 1])
    rows, columns, masks = turned_upside_down(((1,), (2,), (1, 1)), ((1, 2), (2,), (3, 1)), masks)
    assert rows == ((1, 1), (2,), (1,)) and columns == ((2, 1), (2,), (1, 3))
    assert masks == ([0, 0, 1], [0, 4, 0], [4, 0, 0], [0, 3, 4])


@pytest.mark.slow
def test_the_race_upside_down_gives_the_same_verdicts(
    hard: list[Puzzle], monkeypatch: pytest.MonkeyPatch, rivals: list[Any]
) -> None:
    """With a second core, the search on the puzzle upside down races the search (here from the
    start): the verdicts of one search alone, whichever answers; every grid is verified."""
    from nonosat.solver import compiled_search
    from nonosat.solver import race as racing

    monkeypatch.setattr(racing, "RACE_AFTER", 0.0)  # the rival from the start (none with jobs=1)
    monkeypatch.setattr(compiled_search, "SAT_AFTER", 3600.0)  # and never relayed: on a loaded
    for engine in ("cdcl", "dfs"):  # machine a race past SAT_AFTER gave the rival's place to SAT (tests/test_relay.py)
        # dfs alone takes #372 3 s and #690 17 s: the other six for it
        puzzles = hard if engine == "cdcl" else [hard[i] for i in (1, 2, 4, 5, 6, 7)]
        rivals.clear()
        alone = [solve(puzzle, jobs=1, engine=engine) for puzzle in puzzles]
        assert not rivals and {result.method.value for result in alone} == {engine}
        raced = [solve(puzzle, jobs=2, engine=engine) for puzzle in puzzles]
        assert len(rivals) == len(puzzles) and all(rival.work is upside_down_work for rival in rivals)
        assert sum(rival.forked for rival in rivals) >= len(puzzles) // 2
        for puzzle, one, two in zip(puzzles, alone, raced, strict=True):
            assert one.status == two.status and two.method.value == engine
            assert all(puzzle.satisfied_by(solution.grid) for solution in two.solutions)


@pytest.mark.slow
def test_a_race_that_runs_out_of_time_says_unknown(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat.solver import race as racing

    # #598: 2.5 s upright, 1 s upside down here: neither in half a second, on any machine
    puzzle = load_all(str(corpus / "tcga" / "question" / "taai2020.txt"))[597]
    monkeypatch.setattr(racing, "RACE_AFTER", 0.0)
    result = solve(puzzle, jobs=2, timeout=0.5)
    assert result.status is Status.UNKNOWN and result.method.value == "cdcl"
    assert not result.complete and result.cut_short == "time limit reached while searching"


def test_a_huge_count_takes_no_memory_up_front() -> None:
    """The grids are kept as they come: asking for a billion of a puzzle's 720 gives 720."""
    puzzle = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)
    complete, grids, _ = learn(puzzle, 10**9)
    assert complete and len(set(grids)) == 720
