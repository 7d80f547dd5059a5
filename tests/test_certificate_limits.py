"""A certificate's limits (issue 39): a formula past the clause limit is refused before it is
built, or before the search, in black and white and in colour (with the open cells counted
right), and a certificate's formula is built, written and loaded within the deadline."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonosat import Verdict, check, load
from nonosat.certificate import CLAUSE_SECONDS, make_certificate, whole_formula
from nonosat.errors import UsageError

pytest.importorskip("dratify")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
ENCODINGS = ("automaton", "blocks")


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_formula_past_the_clause_limit_is_refused_before_it_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    """A black-and-white certificate's formula is of the clues alone, every cell open, so its
    size is known from the clues (Cauldron's, 54 million clauses, was built for seconds up to
    the limit before the refusal): refused at once, with its exact count, and nothing written."""
    from nonosat.errors import FormulaTooLarge
    from nonosat.solver.board import Board
    from nonosat.solver.encodings import grid

    puzzle = load(PUZZLES / "webpbn-00001-dancer.non")
    result = check(puzzle).result
    assert result.status.value == "unique" and result.method == "line"
    exact = len(grid.build_formula(Board(puzzle), encoding, implications=False).clauses)
    assert grid.unpruned_clauses(puzzle, encoding) == exact
    monkeypatch.setattr("nonosat.certificate.MAX_CLAUSES", exact - 1)
    monkeypatch.setattr(grid, "build_formula", lambda *args, **kwargs: pytest.fail("built"))
    with pytest.raises(FormulaTooLarge, match=rf"would have {exact} clauses, past {exact - 1}, the limit"):
        make_certificate(puzzle, "unique", (result.solutions[0].grid,), tmp_path / "cert", encoding=encoding)
    assert not (tmp_path / "cert").exists()


def test_a_certificate_past_the_clause_limit_is_refused_before_the_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A black-and-white formula's size is known from the clues: `check` with a certificate
    refuses before it searches (a review: a random 512x512 searched to its 20 s limit, then "no
    certificate", for a certificate that could never be made), in Python and on the command line
    (one line, exit 4, no verdict shown, nothing written)."""
    from typer.testing import CliRunner

    from nonosat.cli import app
    from nonosat.errors import FormulaTooLarge

    monkeypatch.setattr("nonosat.certificate.MAX_CLAUSES", 10)
    monkeypatch.setattr("nonosat.solver.drive.check_within", lambda *args, **kwargs: pytest.fail("searched"))
    monkeypatch.setattr("nonosat.reports.check_report", lambda *args, **kwargs: pytest.fail("searched"))
    dancer = PUZZLES / "webpbn-00001-dancer.non"
    with pytest.raises(FormulaTooLarge, match="the CNF would have .* clauses, past 10,") as raised:
        check(load(dancer), certificate=tmp_path / "cert")
    assert raised.value.verdict is None
    done = CliRunner().invoke(app, ["check", str(dancer), "--certificate", str(tmp_path / "cert")])
    assert done.exit_code == 4 and "no certificate: the CNF would have" in done.output
    assert "unique" not in done.output and not (tmp_path / "cert").exists()
    with pytest.raises(UsageError, match="expected a Puzzle"):  # not an AttributeError (a review)
        check(None, certificate=tmp_path / "cert")  # type: ignore[arg-type]


def test_a_colour_formula_past_the_clause_limit_makes_no_certificate_and_counts_the_open_cells_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A colour formula's size is found as it is built: the refusal says every cell is open (it
    said "left open by line logic" of a puzzle that line logic solves)."""
    from nonosat.errors import FormulaTooLarge

    monkeypatch.setattr("nonosat.solver.encodings.grid.MAX_CLAUSES", 20)
    puzzle = load(PUZZLES / "ring-colour.non")
    result = check(puzzle).result
    cells = puzzle.width * puzzle.height
    with pytest.raises(FormulaTooLarge, match=rf"grew past 20 clauses.* with {cells} of {cells} cells open$"):
        make_certificate(puzzle, result.status.value, tuple(s.grid for s in result.solutions), tmp_path / "cert")
    assert not (tmp_path / "cert").exists()
    with pytest.raises(FormulaTooLarge) as raised:  # found after the verdict, which stands on the error
        check(puzzle, certificate=tmp_path / "cert")
    assert isinstance(raised.value.verdict, Verdict) and raised.value.verdict.result.status == result.status


def test_a_certificates_formula_is_built_written_and_loaded_within_the_deadline() -> None:
    """A faults review: `check --certificate --timeout 1` ended at 1.2-1.8 s (and the web API's
    certificate likewise): the whole formula was built, written and loaded into the proof's
    solver without a look at the deadline. Each stage now starts only with the time it takes
    (and what letting go of it takes) still ahead."""
    import time

    from nonosat.deadline import Deadline, TimeUp
    from nonosat.solver.session import Search

    puzzle = load(PUZZLES / "webpbn-06574-forever.non")
    _, clauses = whole_formula(puzzle, "automaton")
    with pytest.raises(TimeUp, match="building the CNF"):
        whole_formula(puzzle, "automaton", Deadline(time.monotonic() - 1))
    too_near = Deadline(time.monotonic() + CLAUSE_SECONDS * len(clauses) / 2)  # built by then, not written
    with pytest.raises(TimeUp, match="writing the formula for the certificate|building the CNF"):
        whole_formula(puzzle, "automaton", too_near)
    with pytest.raises(TimeUp, match="loading the CNF into the solver"):
        Search(clauses, "glucose4", Deadline(time.monotonic() + 1e-4), with_proof=True)
    ahead = Deadline.after(600)
    search = Search(clauses, "glucose4", ahead, with_proof=True)  # a deadline ahead: loaded,
    try:  # and its search ends in time to let go of the solver and its clauses
        assert ahead.at is not None and search.deadline.at is not None and search.deadline.at < ahead.at
    finally:
        search.sat.delete()
