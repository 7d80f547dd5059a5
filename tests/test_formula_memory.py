"""Building a large CNF without the garbage collector walking it: the sat engine pauses the
collector while its formula lives and leaves it as it found it, and a formula's pool of
auxiliary variables is freed as soon as it is let go (PySAT's pool holds itself in a cycle)."""

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
from nonosat.solver.encodings.base import UnnamedPool, collection_paused
from nonosat.solver.encodings.grid import build_formula
from nonosat.solver.propagation import line_solve


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
    finally:
        (gc.enable if was_on else gc.disable)()


def test_the_sat_engine_builds_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the sat engine builds (and when it is cut short), the collector is off; after, on."""
    seen: list[bool] = []
    built = build_formula

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return built(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(nonosat.solver.encodings.grid, "build_formula", watched)
    assert gc.isenabled()
    result = nonosat.solve(open_puzzle(), engine="sat", jobs=1, count=2)
    assert result.method.value == "sat" and result.solutions and seen == [False]
    assert gc.isenabled()
    cut = nonosat.solve(open_puzzle(), engine="sat", jobs=1, timeout=1e-9)
    assert cut.status.value == "unknown" and gc.isenabled()
