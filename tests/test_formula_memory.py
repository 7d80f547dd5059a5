"""Letting go of a large CNF: the sat engine pauses the garbage collector while its formula lives
and leaves it as it found it; a formula's pool of auxiliary variables is freed as soon as it is
let go (PySAT's pool holds itself in a cycle); and each stage keeps the time that freeing its
clauses and deleting its solver take before the deadline, not after it."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

import nonosat
import nonosat.solver.encodings.grid
from nonosat.deadline import Deadline
from nonosat.errors import TimeUp
from nonosat.model import Puzzle
from nonosat.solver import session
from nonosat.solver.encodings.base import UnnamedPool, collection_paused
from nonosat.solver.encodings.grid import build_formula
from nonosat.solver.propagation import line_solve
from nonosat.solver.session import Search, ending


def open_puzzle() -> Puzzle:
    """A random 14x14 grid's clues: line logic leaves cells open, so a formula has clauses."""
    rng = random.Random(3)
    return Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(14)] for _ in range(14)])


@pytest.fixture
def collector_off() -> Iterator[None]:
    with collection_paused():
        yield


def pools_alive() -> int:
    return sum(isinstance(thing, UnnamedPool) for thing in gc.get_objects())


@pytest.mark.parametrize("encoding", ["automaton", "blocks"])
def test_a_formula_leaves_no_pool_behind_for_the_collector(encoding: str, collector_off: None) -> None:
    board = line_solve(open_puzzle())
    before = pools_alive()
    formula = build_formula(board, encoding)
    assert formula.variables > board.puzzle.width * board.puzzle.height and formula.clauses
    assert pools_alive() == before  # freed by its count of references alone, the collector off
    with pytest.raises(TimeUp):
        build_formula(board, encoding, Deadline.after(0))
    assert pools_alive() == before


def test_the_collector_is_paused_and_put_back_as_it_was() -> None:
    was_on = gc.isenabled()
    try:
        gc.enable()
        with collection_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # off before: left off
        gc.enable()
        with pytest.raises(KeyError), collection_paused():
            raise KeyError("x")
        assert gc.isenabled()
        with collection_paused() as pause:
            pause.resume()
            assert gc.isenabled()
            gc.disable()  # someone else's, after the resume: left as it is
        assert not gc.isenabled()
    finally:
        (gc.enable if was_on else gc.disable)()


def test_the_sat_engine_builds_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the sat engine builds and loads (and when it is cut short), the collector is off;
    while it searches, and after, on."""
    seen: list[bool] = []
    built = build_formula

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return built(*args, **kwargs)  # type: ignore[arg-type]

    searching: list[bool] = []
    next_model = Search.next_model

    def watched_search(search: Search) -> object:
        searching.append(gc.isenabled())
        return next_model(search)

    monkeypatch.setattr(nonosat.solver.encodings.grid, "build_formula", watched)
    monkeypatch.setattr(Search, "next_model", watched_search)
    assert gc.isenabled()
    result = nonosat.solve(open_puzzle(), engine="sat", jobs=1, count=2)
    assert result.method.value == "sat" and result.solutions and seen == [False]
    assert searching and all(searching)  # on again while it searches (hours, perhaps; other threads)
    assert gc.isenabled()
    cut = nonosat.solve(open_puzzle(), engine="sat", jobs=1, timeout=1e-9)
    assert cut.status.value == "unknown" and gc.isenabled()


def test_a_deadline_keeps_what_is_asked_and_comes_sooner() -> None:
    far = Deadline.after(60)
    far.check("building", keep=30)  # 60 s left: 30 kept is fine
    with pytest.raises(TimeUp, match="building"):
        far.check("building", keep=61)
    sooner = far.sooner(10)
    assert sooner.at is not None and far.at is not None and sooner.at == far.at - 10
    assert Deadline.after(None).sooner(10).at is None


def test_building_stops_in_time_to_let_go_of_the_clauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build stops while the clauses made so far can still be freed by the deadline (here a
    second each, against 60 s: after the first lines, not at the end)."""
    board = line_solve(open_puzzle())
    whole = len(build_formula(board, "automaton").clauses)
    monkeypatch.setattr(nonosat.solver.encodings.grid, "FREEING_A_CLAUSE", 1.0)
    with pytest.raises(TimeUp, match="building the CNF"):
        build_formula(board, "automaton", Deadline.after(60))
    assert whole > 60


def test_loading_and_searching_keep_the_time_to_let_go_of_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search's deadline comes sooner by what deleting its solver and freeing its clauses
    take; loading stops when that no longer fits."""
    clauses = build_formula(line_solve(open_puzzle()), "blocks").clauses
    deadline = Deadline.after(600)
    search = Search(clauses, "minisat22", deadline)
    try:
        assert search.deadline.at is not None and deadline.at is not None
        assert search.deadline.at == deadline.at - ending("minisat22", len(clauses))
        assert ending("minisat22", len(clauses)) < ending("cadical195", len(clauses))
    finally:
        search.close()
    monkeypatch.setattr(session, "FREEING_A_CLAUSE", 1200 / len(clauses))  # 1,200 s to free them
    with pytest.raises(TimeUp, match="loading the CNF"):
        Search(clauses, "minisat22", deadline)
