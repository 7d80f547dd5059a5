"""nonosat's colour searches against the independent CP-SAT colour peer (bench/peer_cpsat_colour.py),
on the colour corpus and the generated colour sets: the same verdict from the conflict-driven search
and from the SAT engine, the same grid when it is unique, and every grid either side found meeting
the clues."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ortools")

from bench import sets  # noqa: E402
from bench.colour_set import colour_set, noise_set  # noqa: E402
from bench.verdicts import Answer, nonosat_answer, peer_answer  # noqa: E402
from nonosat.model import Puzzle  # noqa: E402

ENGINES = ("cdcl", "sat")


def agree(puzzle: Puzzle, engine: str) -> tuple[Answer, Answer]:
    """nonosat's answer with the engine and the peer's, after checking that they agree."""
    ours, theirs = nonosat_answer(puzzle, timeout=120, engine=engine), peer_answer(puzzle, timeout=120, workers=1)
    assert ours.status == theirs.status, (puzzle.name, engine, ours.status, theirs.status)
    assert ours.status in ("unique", "multiple", "none")
    for answer in (ours, theirs):
        assert all(puzzle.satisfied_by(grid) for grid in answer.solutions)
    if ours.status == "unique":
        assert ours.solutions == theirs.solutions
    if ours.status == "multiple":
        assert len(set(ours.solutions)) == len(set(theirs.solutions)) == 2
    return ours, theirs


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("engine", ENGINES)
def test_the_generated_colour_pictures_and_noise_grids_get_the_peers_verdicts(engine: str) -> None:
    puzzles = [p for p in colour_set(seed=0) if p.width <= 40] + [p for p in noise_set() if p.width <= 25]
    statuses = [agree(puzzle, engine)[0].status for puzzle in puzzles]
    assert len(puzzles) >= 20
    assert {"unique", "multiple"} <= set(statuses)  # both kinds of verdict are compared


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_every_colour_file_of_the_corpus_gets_the_peers_verdict(corpus: Path, engine: str) -> None:
    puzzles = [(label, p) for label, p in sets.set_puzzles("colour", None)[0] if label.startswith("colour/")]
    assert len(puzzles) == 29
    statuses = {label: agree(puzzle, engine)[0].status for label, puzzle in puzzles}
    assert statuses["colour/olsak-grid/viceres.g"] == "multiple"
    assert "unique" in statuses.values()


@pytest.mark.slow
@pytest.mark.heavy
def test_the_larger_noise_grids_get_the_peers_verdicts() -> None:
    puzzles = [p for p in noise_set() if p.width > 25]
    assert puzzles
    for puzzle in puzzles:
        agree(puzzle, "cdcl")
