"""The solver on real puzzles: every solution verified, unique goals recovered, verdicts sound."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from nonosat import ImpossiblePuzzle, Puzzle, load, load_all, solve
from nonosat.explain.hint import hint
from nonosat.explain.rating import rate
from nonosat.explain.steps import explain
from nonosat.formats import load_bytes, save
from nonosat.formats.tournament import load_tournament_solutions
from nonosat.generate import from_image, random_puzzle, suggest_edits
from nonosat.solver import SOLVERS, Result, Status, check, compiled


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


def test_counting_enumerates_exactly() -> None:
    # a 2x2 with one cell per line has exactly the two diagonals
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    result = solve(puzzle, count=10)
    assert result.status is Status.MULTIPLE and result.complete
    assert {s.grid for s in result.solutions} == {((1, 0), (0, 1)), ((0, 1), (1, 0))}


@pytest.mark.parametrize("size", [3, 4, 5])
def test_permutation_puzzles_have_factorial_many_solutions(size: int) -> None:
    # every row and column holds one filled cell: the solutions are the permutation matrices
    import math

    puzzle = Puzzle(rows=((1,),) * size, columns=((1,),) * size)
    result = solve(puzzle, count=1000)
    assert result.complete and len(set(result.solutions)) == len(result.solutions) == math.factorial(size)


@pytest.mark.parametrize("encoding", ["blocks", "automaton"])
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_every_encoding_and_solver_agree(corpus: Path, encoding: str, solver: str) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-06574-forever.non"))
    result = solve(puzzle, encoding=encoding, solver=solver)  # naming them chooses the SAT engine
    assert result.status is Status.UNIQUE and result.method == "sat"
    assert result.solutions[0].grid == puzzle.goal


def test_line_logic_alone_proves_uniqueness(corpus: Path) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-00006-cat.non"))
    result = solve(puzzle)
    assert result.method == "line" and result.status is Status.UNIQUE


def test_no_solution_is_reported() -> None:
    # totals agree and every clue fits, yet no grid meets them all (column 1 needs the empty row 2)
    puzzle = Puzzle(rows=((1, 1), (0,), (1,)), columns=((2,), (0,), (1,)))
    assert solve(puzzle).status is Status.NONE


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_zero_timeout_says_unknown_and_never_guesses(corpus: Path, solver: str) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-06574-forever.non"))
    result = solve(puzzle, timeout=0, solver=solver)
    assert result.status is Status.UNKNOWN and not result.complete


@pytest.mark.parametrize(
    ("found", "count", "complete", "status"),
    [
        (0, 2, True, Status.NONE),
        (1, 2, True, Status.UNIQUE),
        (2, 2, True, Status.MULTIPLE),
        (2, 2, False, Status.MULTIPLE),  # two grids are proof enough
        (1, 1, False, Status.SOLVED),  # one asked for, one found: nothing said of a second
        (1, 2, False, Status.UNKNOWN),  # cut short after one: never "unique" (a review's mutant passed)
        (0, 2, False, Status.UNKNOWN),
        (0, 1, False, Status.UNKNOWN),
    ],
)
def test_a_search_cut_short_says_only_what_it_proved(found: int, count: int, complete: bool, status: Status) -> None:
    from nonosat.solver.outcome import status_of

    assert status_of(found, count, complete) is status


def test_impossible_puzzles_are_refused_before_search_and_are_none_like_any_other() -> None:
    """One behaviour for every puzzle with no solution: a `none` result, whatever found it (cheap
    checks before any search say which in `problems`); rate, explain and hint raise."""
    too_long = Puzzle(rows=((1,), (2, 2)), columns=((1,), (1,), (1,), (1,)))
    totals = Puzzle(rows=((1,), (1,)), columns=((1,), (0,)))
    found_by_logic = Puzzle(rows=((1, 1), (1,), (1,)), columns=((2,), (), (2,)))  # puzzles/broken-cross.non
    for puzzle, problem in ((too_long, "row 2"), (totals, "fill")):
        for answer in (solve(puzzle), check(puzzle).result):
            assert (answer.status, answer.method, answer.complete) == (Status.NONE, "checks", True)
            assert any(problem in text for text in answer.problems) and not answer.solutions
        with pytest.raises(ImpossiblePuzzle, match=problem):
            rate(puzzle)
    by_logic = solve(found_by_logic)
    assert (by_logic.status, by_logic.method, by_logic.problems) == (Status.NONE, "line", ())


def test_check_compares_the_goal(corpus: Path) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-00001-dancer.non"))
    verdict = check(puzzle)
    assert verdict.status is Status.UNIQUE and verdict.goal_satisfies_clues is True
    wrong_goal = tuple(tuple(1 - v for v in row) for row in puzzle.goal)  # type: ignore[union-attr]
    from dataclasses import replace

    assert check(replace(puzzle, goal=wrong_goal)).goal_satisfies_clues is False


def test_check_reports_where_two_solutions_differ() -> None:
    verdict = check(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    assert verdict.status is Status.MULTIPLE
    assert sorted(verdict.differences) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_only_time_limited_solvers_are_offered() -> None:
    assert "kissat404" not in SOLVERS and "lingeling" not in SOLVERS


@pytest.mark.parametrize("alias, canonical", [("g4", "glucose4"), ("cd19", "cadical195"), ("m22", "minisat22")])
def test_pysat_aliases_name_the_same_solver(alias: str, canonical: str) -> None:
    from nonosat.solver import resolve_solver

    assert resolve_solver(alias) == canonical
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    assert solve(puzzle, solver=alias).status is Status.MULTIPLE


@pytest.mark.parametrize("name", ["kissat", "lingeling", "nosuch"])
def test_solvers_without_time_limits_or_increments_are_refused(name: str) -> None:
    from nonosat import UsageError

    with pytest.raises(UsageError, match=name):
        solve(Puzzle(rows=((1,),), columns=((1,),)), solver=name)


ONE = Puzzle(rows=((1,),), columns=((1,),))


SMILEY = Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: solve(ONE, count=1.5), "count must be at least 1, a whole number, not 1.5"),  # type: ignore[arg-type]
        (lambda: solve(ONE, count="2"), "count must be at least 1, a whole number, not '2'"),  # type: ignore[arg-type]
        (lambda: solve(ONE, jobs=True), "jobs must be at least 1, a whole number, not True"),
        (lambda: solve(ONE, jobs=2, race_after="x"), "race_after must be a number of seconds, at least 0, not 'x'"),  # type: ignore[arg-type]
        (lambda: solve(ONE, jobs=2, race_after=-1), "race_after must be a number of seconds, at least 0, not -1"),
        (lambda: Puzzle(rows=None, columns=((1,),)), "rows: expected a list, not NoneType"),  # type: ignore[arg-type]
        (lambda: Puzzle(rows=((1,),), columns=((1,),), goal=5), "goal: expected a list, not int"),  # type: ignore[arg-type]
        (lambda: Puzzle(rows=(1,), columns=((1,),)), "row 1: expected a list, not int"),  # type: ignore[arg-type]
        (lambda: Puzzle(rows=((1,),), columns=((1,),), palette=3), "palette: expected a list"),  # type: ignore[arg-type]
        (lambda: load_bytes("width 1", "x.non"), "x.non: the file's bytes are wanted, not str"),  # type: ignore[arg-type]
        (lambda: check("puzzles/ring.non"), "expected a Puzzle"),  # type: ignore[arg-type]
        (lambda: check(ONE, certificate=123), "certificate is a folder's path, not int"),  # type: ignore[arg-type]
        (lambda: rate("puzzles/ring.non"), "expected a Puzzle"),  # type: ignore[arg-type]
        (lambda: rate(ONE, probing_seconds="1"), "probing_seconds must be a number"),  # type: ignore[arg-type]
        (  # another puzzle's verdict was rated: "ambiguous 5" for a unique puzzle
            lambda: rate(ONE, result=solve(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))),
            "for this same puzzle, not another's",
        ),
        (lambda: explain("puzzles/ring.non"), "expected a Puzzle"),  # type: ignore[arg-type]
        (lambda: hint(ONE, "#"), "state: expected 1 rows of cells"),  # type: ignore[arg-type]
        (lambda: hint(ONE, ((5,),)), "5 is no colour of the puzzle (0..1)"),
        (lambda: hint(ONE, ((None, None),)), "state: row 1: expected 1 cells"),
        (lambda: hint(ONE, ((None,),), steps=0), "steps must be at least 1"),
        (lambda: save("x", "x.non"), "expected a Puzzle"),  # type: ignore[arg-type]
        (lambda: random_puzzle("5", 5), "whole numbers, not '5' and 5"),  # type: ignore[arg-type]
        (lambda: Puzzle(rows=((1,),), columns=((1,),), catalogue=12), "catalogue is text or None, not int"),  # type: ignore[arg-type]
        (lambda: Puzzle(rows=((1,),), columns=((1,),), title=5), "title is text or None, not int"),  # type: ignore[arg-type]
        (lambda: Puzzle.from_grid([[1, 0], [1]]), "all as long"),
        (lambda: Puzzle.from_grid([]), "at least one"),
        (lambda: Puzzle.from_grid(None), "grid: expected a list of rows, not NoneType"),  # type: ignore[arg-type]
        (lambda: Puzzle.from_grid(["10", "01"]), "goal row 1: expected a list, not str"),
        (lambda: from_image(SMILEY, width=1.5), "width is a whole number, 1 or more, not 1.5"),  # type: ignore[arg-type]
        (lambda: from_image(SMILEY, width="20"), "width is a whole number, 1 or more, not '20'"),  # type: ignore[arg-type]
        (lambda: from_image(SMILEY, colours="2"), "colours is a number of colours from 1 to 62, not '2'"),  # type: ignore[arg-type]
        (lambda: from_image(SMILEY, max_changes=-1), "max_changes is a whole number, 0 or more, not -1"),
        (lambda: from_image(5), "a picture is a file's path (or PictureBytes), not int"),  # type: ignore[arg-type]
        (lambda: from_image("missing.png", title=5), "title is text or None, not int"),  # type: ignore[arg-type]  # before any work
        (lambda: random_puzzle(5, 5, density="0.5"), "density is between 0 and 1, not '0.5'"),  # type: ignore[arg-type]
        (lambda: random_puzzle(5, 5, seed=1.5), "seed is a whole number, not 1.5"),  # type: ignore[arg-type]
        (lambda: suggest_edits(SMILEY, height=0), "height is a whole number, 1 or more, not 0"),
    ],
)
def test_a_wrong_type_from_a_caller_is_one_of_ours_not_a_type_error(call: Callable[[], object], words: str) -> None:
    """README ("Python API"): the library raises only its own errors (NonosatError: UsageError
    for arguments, InvalidPuzzle for a puzzle's fields); these were TypeErrors, AttributeErrors
    or IndexErrors from deep inside, or (rate) a wrong answer."""
    from nonosat import InvalidPuzzle, NonosatError, UsageError

    with pytest.raises(NonosatError) as raised:
        call()
    assert isinstance(raised.value, UsageError | InvalidPuzzle), repr(raised.value)
    assert words in str(raised.value)


def test_what_worked_before_those_checks_still_works() -> None:
    """A review of the checks above: NumPy arrays and whole numbers, and generators, were taken
    before, and still are."""
    numpy = pytest.importorskip("numpy")
    puzzle = Puzzle(rows=((1,), (1,)), columns=((2,), ()), goal=numpy.array([[1, 0], [1, 0]]))
    assert puzzle.goal == ((1, 0), (1, 0))
    assert solve(puzzle, count=numpy.int64(2), jobs=numpy.int64(1)).status is Status.UNIQUE
    numbered = Puzzle(rows=[numpy.array([1]), [numpy.int64(1)]], columns=numpy.array([[2], [0]]))  # type: ignore[arg-type]
    assert numbered.rows == ((1,), (1,)) and numbered.columns == ((2,), ())  # NumPy's whole numbers, as ints
    assert all(type(number) is int for clue in numbered.rows + numbered.columns for number in clue)
    lazy = Puzzle(rows=[map(int, "1".split()), (1,)], columns=(clue for clue in [(2,), ()]))  # type: ignore[arg-type]
    assert lazy.rows == ((1,), (1,)) and lazy.columns == ((2,), ())
    text = memoryview(b"width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    assert load_bytes(text, "x.non").rows == ((1,),)  # type: ignore[arg-type]


def test_the_solve_function_is_never_shadowed_by_a_module() -> None:
    import importlib

    import nonosat

    importlib.import_module("nonosat.solver")
    from nonosat import solve as solve_again

    assert callable(solve_again) and solve_again is nonosat.solver.solve


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


FOREVER = str(Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-06574-forever.non")


# --- the compiled core's search, and Python without it ------------------------------------------


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


def test_without_the_compiled_core_everything_runs_in_python() -> None:
    """NONOSAT_PURE_PYTHON=1 (as if no compiler had built the core): the same answers."""
    code = (
        "from nonosat import load, solve; from nonosat.solver import compiled; assert compiled.core is None; "
        f"r = solve(load({FOREVER!r})); print(r.status.value, r.method.value, r.solutions[0].text())"
    )
    pure = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "NONOSAT_PURE_PYTHON": "1"}
    )
    assert pure.returncode == 0, pure.stderr
    status, method, text = pure.stdout.split(" ", 2)
    puzzle = load(FOREVER)
    assert (status, method) == ("unique", "sat") and text.strip() == solve(puzzle).solutions[0].text()


@pytest.mark.slow
def test_a_main_thread_sat_search_without_a_time_limit_lets_other_threads_run(corpus: Path) -> None:
    """A review found `solve(..., engine="sat")` in the main thread, with no timeout, freezing
    every other thread for the whole search (PySAT's solve() holds Python's lock): here another
    thread sees the search under way and stops it (as Ctrl-C's watcher or a rival would)."""
    import threading

    from nonosat import interrupts

    puzzle = load(corpus / "minizinc" / "dom_12.dzn")  # 2-3 s for MiniSat
    seen = threading.Event()
    done = threading.Event()

    def stop_it_once_seen() -> None:
        while not done.is_set():
            if interrupts._running:
                seen.set()
                interrupts.stop_all()
                return
            done.wait(0.001)

    stopper = threading.Thread(target=stop_it_once_seen, daemon=True)
    stopper.start()
    try:
        result = solve(puzzle, engine="sat", encoding="automaton")
    finally:
        done.set()
        stopper.join()
    assert seen.is_set() and result.status.value == "unknown"


def test_every_error_of_the_library_is_importable_from_nonosat() -> None:
    """A review found TooLarge, TimeUp, BadImage and the rest, which the README names, only in
    nonosat.errors (CertificateRefused in nonosat.certificate_check), and dir(nonosat) empty of
    the lazily imported names."""
    import inspect

    import nonosat
    from nonosat import certificate_check, errors

    ours = {
        name
        for module in (errors, certificate_check)
        for name, value in vars(module).items()
        if inspect.isclass(value) and issubclass(value, errors.NonosatError) and value.__module__ == module.__name__
    }
    assert ours <= set(nonosat.__all__) <= set(dir(nonosat))
    assert all(getattr(nonosat, name) is getattr(errors, name, None) or name == "CertificateRefused" for name in ours)


def test_a_colour_solution_without_its_palette_still_tells_its_colours_apart() -> None:
    """A review found `Solution.text()` of a colour solution drawing every colour as '#'."""
    from nonosat.model import Solution

    assert Solution(((0, 1, 2), (62, 10, 0))).text() == ".12\n@a."
    assert Solution(((0, 1), (1, 0))).text() == ".#\n#."
    ring = load(Path(__file__).resolve().parent.parent / "puzzles" / "ring-colour.non")
    solution = solve(ring).solution
    assert solution is not None and len(set(solution.text().replace("\n", ""))) == len(ring.palette)


def test_a_verdict_gives_its_two_solutions_and_where_they_differ_from_0() -> None:
    """A review found the two solutions of a verdict reachable only as `verdict.result.solutions`,
    which the README did not say: `verdict.solutions` now; the differences count from 0."""
    from nonosat import Puzzle, check

    verdict = check(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    first, second = verdict.solutions
    assert verdict.solutions == verdict.result.solutions and first.grid != second.grid
    assert verdict.differences == [(0, 0), (0, 1), (1, 0), (1, 1)] == first.differences(second)
