"""The solver on the corpus's real puzzles: every solution verified against the clues, unique goals
recovered, published solutions matched (tournaments, MiniZinc), Faase's two solutions kept, and
the compiled core's searches giving SAT's verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonosat import Puzzle, load, load_all, solve
from nonosat.formats.tournament import load_tournament_solutions
from nonosat.solver import Result, Status, compiled


def _assert_sound(puzzle: Puzzle, timeout: float | None = None) -> Result:
    """Solve; every solution meets the clues, and a unique one equals the goal if given."""
    result = solve(puzzle, timeout=timeout)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE), (puzzle.source, result.status)
    for solution in result.solutions:
        assert puzzle.satisfied_by(solution.grid)
    if result.status is Status.MULTIPLE:
        assert result.solutions[0] != result.solutions[1]
    if result.status is Status.UNIQUE and puzzle.goal is not None:
        assert result.solutions[0].grid == puzzle.goal
    return result


def _files(corpus: Path, pattern: str) -> list[Path]:
    found = sorted(corpus.glob(pattern))
    assert found, f"no corpus files match {pattern}"
    return found


@pytest.mark.slow
def test_every_webpbn_survey_puzzle_is_unique(corpus: Path) -> None:
    for path in _files(corpus, "webpbn/*.non"):
        assert _assert_sound(load(str(path))).status is Status.UNIQUE, path


@pytest.mark.slow
def test_every_nonogram_db_puzzle_is_solved(corpus: Path) -> None:
    for path in _files(corpus, "nonogram-db/**/*.non"):
        _assert_sound(load(str(path)))


@pytest.mark.slow
def test_every_jwilk_puzzle_is_solved(corpus: Path) -> None:
    for path in _files(corpus, "jwilk/*.nin"):
        _assert_sound(load(str(path)))


@pytest.mark.slow
def test_tournament_puzzles_match_their_published_solutions(corpus: Path) -> None:
    path = corpus / "tcga" / "question" / "taai2011.txt"
    published = load_tournament_solutions(
        (corpus / "tcga" / "solution" / "taai2011.txt").read_text(), "taai2011 solutions"
    )
    puzzles = load_all(str(path))[:200]
    assert len(puzzles) == 200
    statuses = set()
    for number, puzzle in enumerate(puzzles, start=1):
        goal = published[number]
        assert puzzle.satisfied_by(goal), f"published solution of #{number} breaks its clues"
        result = solve(puzzle)
        statuses.add(result.status)
        for solution in result.solutions:
            assert puzzle.satisfied_by(solution.grid)
        if result.status is Status.UNIQUE:
            assert result.solutions[0].grid == goal
        else:
            assert result.status is Status.MULTIPLE
            assert result.solutions[0] != result.solutions[1]
    assert statuses == {Status.UNIQUE, Status.MULTIPLE}


@pytest.mark.slow
def test_every_minizinc_puzzle_is_solved_and_matches_its_published_solution(corpus: Path) -> None:
    from nonosat.formats import load_dzn_solution

    matched = 0
    for path in _files(corpus, "minizinc/*.dzn"):
        puzzle = load(str(path))
        result = _assert_sound(puzzle)
        published = path.with_suffix(".out")
        if published.exists():
            grid = load_dzn_solution(published.read_text(), str(published))
            assert puzzle.satisfied_by(grid), published
            if result.status is Status.UNIQUE:
                assert result.solutions[0].grid == grid
                matched += 1
    assert matched > 0


@pytest.mark.slow
def test_every_pynogram_example_is_solved(corpus: Path) -> None:
    for path in _files(corpus, "pynogram/*.txt"):
        if path.name == "frans_faase.txt":
            continue  # minutes of search: see the next test, and bench/README.md
        _assert_sound(load(str(path)))


def test_faase_has_the_two_solutions_nonosat_found(corpus: Path) -> None:
    """`nonosat check` needs minutes on Frans Faase's 95x80 and says `multiple`; the two grids it
    found are kept in tests/data, and both must meet every clue of the corpus file."""
    puzzle = load(str(corpus / "pynogram" / "frans_faase.txt"))
    lines = [
        line
        for line in (Path(__file__).parent / "data" / "frans_faase-two-solutions.txt").read_text().splitlines()
        if not line.startswith("# ")
    ]
    flips = [tuple(int(n) - 1 for n in cell.split(",")) for cell in lines[0].removeprefix("flip ").split()]
    first = tuple(tuple(int(ch == "#") for ch in row) for row in lines[1:])
    second = tuple(tuple(1 - v if (r, c) in flips else v for c, v in enumerate(row)) for r, row in enumerate(first))
    assert len(flips) == 4 and first != second
    assert puzzle.satisfied_by(first) and puzzle.satisfied_by(second)


@pytest.mark.slow
def test_the_compiled_searches_and_sat_give_the_same_verdicts(corpus: Path) -> None:
    """The engines that search what line logic leaves open: the compiled core's conflict-driven
    search (auto's choice here) and depth-first search give SAT's verdicts, every grid they give
    meets the clues, and a unique one is the published solution."""
    if not compiled.fits(Puzzle(rows=((1,),), columns=((1,),))):
        pytest.skip("the compiled core was not built")
    question = corpus / "tcga" / "question" / "icga2018.txt"
    answers = load_tournament_solutions((corpus / "tcga" / "solution" / "icga2018.txt").read_text())
    puzzles = load_all(question)[:60] + [load(path) for path in sorted((corpus / "webpbn").glob("*.non"))]
    methods = set()
    for puzzle in puzzles:
        if not compiled.fits(puzzle):
            continue
        by_sat = solve(puzzle, engine="sat")
        for searched in solve(puzzle), solve(puzzle, engine="dfs"):
            methods.add(searched.method.value)
            assert searched.status == by_sat.status, puzzle.source
            assert all(puzzle.satisfied_by(solution.grid) for solution in searched.solutions)
            if searched.status is Status.UNIQUE and puzzle.source and puzzle.source.startswith(str(question)):
                number = int(puzzle.source.rpartition("#")[2])
                assert searched.solutions[0].grid == answers[number]
    assert {"cdcl", "dfs", "line"} <= methods
