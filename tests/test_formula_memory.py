"""Letting go of a large CNF: the sat engine pauses the garbage collector while its formula lives
and leaves it as it found it; a formula's pool of auxiliary variables is freed as soon as it is
let go (PySAT's pool holds itself in a cycle); and each stage keeps the time that freeing its
clauses and deleting its solver take before the deadline, not after it."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

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


def test_building_keeps_the_time_to_let_go_of_the_pools_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found a build of the automaton CNF cut short at `timeout=2` ending at 2.05 s: its
    keep counted the clauses, not the pool's names (887,192 on a random 130x130 grid, 114 ns
    each to free). The build now stops while both can still be let go of by the deadline."""
    board = line_solve(open_puzzle())
    monkeypatch.setattr(nonosat.solver.encodings.grid, "FREEING_A_CLAUSE", 0.0)
    build_formula(board, "automaton", Deadline.after(60))  # the names alone, at no cost: built
    monkeypatch.setattr(nonosat.solver.encodings.grid, "FREEING_A_NAME", 1.0)  # a second each
    with pytest.raises(TimeUp, match="building the CNF"):
        build_formula(board, "automaton", Deadline.after(60))
    from nonosat.solver import compiled

    if compiled.core is not None:  # the block encoding in C names none of its variables (in Python it does)
        build_formula(board, "blocks", Deadline.after(60))


def test_a_search_in_workers_keeps_the_time_to_end_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found `--timeout 2` with CaDiCaL on a random 130x130 grid ending at 2.05 s: its
    workers, killed one after the other once the wait was over, took 55 ms to end. Their wait now
    ends sooner by what ending them takes, and all are killed before any is waited for."""
    from nonosat.solver import enumeration
    from nonosat.solver import race as racing

    formula = build_formula(line_solve(open_puzzle()), "blocks")
    waited: list[float] = []
    ended: list[str] = []

    def wait(self: object, deadline: Deadline) -> None:
        assert deadline.at is not None
        waited.append(deadline.at)

    real_end, real_stop = racing.Rival.end_worker, racing.Rival.stop

    def end_worker(self: racing.Rival[object]) -> None:
        ended.append("end")
        real_end(self)

    def stop(self: racing.Rival[object]) -> tuple[list[object], bool | None]:
        ended.append("stop")
        return real_stop(self)  # type: ignore[return-value]

    monkeypatch.setattr(enumeration._Waiting, "wait", wait)
    monkeypatch.setattr(racing.Rival, "end_worker", end_worker)
    monkeypatch.setattr(racing.Rival, "stop", stop)
    deadline = Deadline.after(600)
    assert deadline.at is not None
    enumeration.search_in_workers(formula, 2, "cadical195", deadline, True, 0.0)
    per_clause = nonosat.solver.encodings.base.FREEING_A_CLAUSE + enumeration.ENDING_A_WORKER
    assert waited == [pytest.approx(deadline.at - len(formula.clauses) * per_clause)]
    assert ended == ["end", "end", "stop", "stop"]


def test_no_worker_starts_when_its_start_would_outlast_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found `--timeout 0.6` with CaDiCaL on a 130x130 puzzle ending at 0.68-0.72 s:
    with 0.04 s or none left to wait, a worker was started all the same, and killing it waited
    0.05-0.11 s for its start. With less left than STARTING_A_WORKER none starts; with more, one
    does."""
    from nonosat.solver import enumeration
    from nonosat.solver import race as racing

    formula = build_formula(line_solve(open_puzzle()), "blocks")
    made: list[object] = []
    real_init = racing.Rival.__init__

    def init(self: racing.Rival[object], *args: Any, **kwargs: Any) -> None:
        made.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(racing.Rival, "__init__", init)
    monkeypatch.setattr(enumeration._Waiting, "wait", lambda self, deadline: None)
    per_clause = nonosat.solver.encodings.base.FREEING_A_CLAUSE + enumeration.ENDING_A_WORKER
    reserve = len(formula.clauses) * per_clause
    found = enumeration.search_in_workers(formula, 2, "cadical195", Deadline.after(reserve + 0.05), True, 0.0)
    assert found == ([], False, "time limit reached while searching", racing.OURS)
    assert made == []
    enumeration.search_in_workers(formula, 2, "cadical195", Deadline.after(reserve + 60), True, 0.0)
    assert len(made) == 2
