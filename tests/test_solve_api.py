"""The library's Python API (README, "Python API"): only solvers with time limits are offered
(PySAT's aliases naming the same), a wrong type from a caller is one of nonosat's errors, never a
TypeError, while what worked before still works; `solve` is never shadowed by a module, and every
error is importable from `nonosat`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from nonosat import Puzzle, solve
from nonosat.explain.hint import hint
from nonosat.explain.rating import rate
from nonosat.explain.steps import explain
from nonosat.formats import load_bytes, save
from nonosat.generate import from_image, random_puzzle, suggest_edits
from nonosat.solver import SOLVERS, Status, check


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
