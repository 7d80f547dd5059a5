"""Certificates (issue 39): made for unique, none and multiple verdicts in both encodings, black
and white and colour; verified by an independent DRAT checker (dratify, from the test extra; and
drat-trim when it is on the PATH); refused when a proof step, a clause or a solution is changed,
or when they are another puzzle's."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from certificate_shared import certify, tampered

from nonosat import check, load
from nonosat.certificate import blocking_clause, make_certificate, whole_formula
from nonosat.certificate_check import CertificateRefused, verify
from nonosat.model import Puzzle

pytest.importorskip("dratify")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
ENCODINGS = ("automaton", "blocks")
CHECKERS = ["dratify"] + (["drat-trim"] if shutil.which("drat-trim") else [])


def last_lemma_dropped(lines: list[str]) -> list[str]:
    """The proof without its last added clause (the step before the empty clause)."""
    last = max(i for i, line in enumerate(lines[:-1]) if not line.startswith("d "))
    return lines[:last] + lines[last + 1 :]


def clause_dropped(lines: list[str]) -> list[str]:
    """The CNF without its first clause (its header still counts it)."""
    first = next(i for i, line in enumerate(lines) if not line.startswith(("c", "p")))
    return lines[:first] + lines[first + 1 :]


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("checker", CHECKERS)
def test_a_unique_puzzle_is_certified_and_every_tampering_is_refused(
    tmp_path: Path, encoding: str, checker: str
) -> None:
    forever = load(PUZZLES / "webpbn-06574-forever.non")
    folder = tmp_path / "forever"
    assert certify(forever, folder, encoding) == "unique"
    assert verify(folder, checker).checker == checker
    meta = json.loads((folder / "certificate.json").read_text())
    assert meta["status"] == "unique" and meta["encoding"] == encoding
    proof = (folder / "unique.drat").read_text().splitlines()
    assert proof[-1] == "0" and len(proof) > 1
    for name, change in [
        ("unique.drat", last_lemma_dropped),
        ("unique.cnf", clause_dropped),
        ("puzzle.cnf", clause_dropped),
        ("solution.txt", lambda lines: [("." if lines[0][0] == "#" else "#") + lines[0][1:], *lines[1:]]),
    ]:
        with pytest.raises(CertificateRefused, match=name.replace(".", r"\.")):
            verify(tampered(folder, tmp_path, name, change), checker)


def test_a_certificate_of_another_puzzle_is_refused(tmp_path: Path) -> None:
    forever = load(PUZZLES / "webpbn-06574-forever.non")
    folder = tmp_path / "forever"
    certify(forever, folder, "blocks")
    other = json.loads((folder / "puzzle.json").read_text())
    other["rows"][0], other["rows"][1] = other["rows"][1], other["rows"][0]  # another puzzle's clues
    (folder / "puzzle.json").write_text(json.dumps(other))
    with pytest.raises(CertificateRefused, match="puzzle.cnf: not the blocks encoding"):
        verify(folder)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_no_solution_is_certified_by_a_refutation(tmp_path: Path, encoding: str) -> None:
    folder = tmp_path / "cross"
    assert certify(load(PUZZLES / "broken-cross.non"), folder, encoding) == "none"
    assert verify(folder).status == "none"
    untitled = tmp_path / "untitled"
    assert certify(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), untitled, encoding) == "multiple"
    assert verify(untitled).puzzle == "a 2x2 puzzle"  # not the name of puzzle.json
    assert not (folder / "solution.txt").exists()
    proof = (folder / "none.drat").read_text().splitlines()
    if len([line for line in proof if not line.startswith("d ")]) > 1:
        with pytest.raises(CertificateRefused, match="none.drat"):
            verify(tampered(folder, tmp_path, "none.drat", last_lemma_dropped))
    with pytest.raises(CertificateRefused, match=r"puzzle\.cnf"):
        verify(tampered(folder, tmp_path, "puzzle.cnf", clause_dropped))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("size", [3, 4_000_000_000, 10**30])
@pytest.mark.parametrize("colours", [1, 2])
def test_a_clue_longer_than_its_line_is_certified_at_once(
    tmp_path: Path, encoding: str, size: int, colours: int
) -> None:
    """encodings/automaton.md, "A clue longer than its line": the line's first cell both ways, so
    the proof is the empty clause alone; no automaton as long as the clue (4e9 took 3 GB, and
    10**30 ended in an internal error before)."""
    from colour_grids import PALETTES

    from nonosat.solver.encodings.grid import unpruned_clauses

    puzzle = Puzzle(rows=((size,), (1,)), columns=((1,), (1,)), palette=PALETTES[colours])
    if colours > 1:
        puzzle = replace(puzzle, row_colours=((1,), (2,)), column_colours=((1,), (2,)))
    folder = tmp_path / "long"
    assert make_certificate(puzzle, "none", (), folder, encoding=encoding).status == "none"
    assert (folder / "none.drat").read_text().split() == ["0"]
    assert verify(folder).status == "none"
    formula = whole_formula(puzzle, encoding)[1]
    assert [1] in formula and [-1] in formula  # the row's first cell (in colour, its first colour)
    if colours == 1:  # and the count the clause limit is checked by, from the clues alone, is exact
        assert unpruned_clauses(puzzle, encoding) == len(formula)


def test_several_solutions_are_certified_by_two_grids(tmp_path: Path) -> None:
    folder = tmp_path / "ring"
    assert certify(load(PUZZLES / "ring-colour.non"), folder, "automaton") == "multiple"
    assert verify(folder).checker == ""
    same = tampered(folder, tmp_path, "solution-2.txt", lambda lines: (folder / "solution-1.txt").read_text())
    with pytest.raises(CertificateRefused, match="the same grid"):
        verify(same)
    broken = tampered(folder, tmp_path, "solution-1.txt", lambda lines: [lines[0][::-1][1:] + "\n", *lines[1:]])
    with pytest.raises(CertificateRefused, match=r"solution-1\.txt"):
        verify(broken)


@pytest.mark.parametrize("name", ["number-loom-take-two.xml", "webpbn-00001-dancer.non"])
def test_with_the_automaton_encoding_unit_propagation_alone_refutes_a_line_solvable_puzzle(
    tmp_path: Path, name: str
) -> None:
    """What encodings/automaton.md says: unit propagation makes every deduction of line logic, so
    a line-solvable puzzle's second solution is refuted with no lemma at all."""
    puzzle = load(PUZZLES / name)
    folder = tmp_path / "cert"
    assert certify(puzzle, folder, "automaton") == "unique"
    assert (folder / "unique.drat").read_text().split() == ["0"]
    verified = verify(folder)
    assert verified.status == "unique" and verified.puzzle == f"{puzzle.title}, {puzzle.width}x{puzzle.height}"


def test_the_blocking_clause_rules_out_exactly_the_solution() -> None:
    """On a small colour grid: among all grids, the clause is false only on the solution."""
    from itertools import product

    from colour_grids import PALETTES

    puzzle = Puzzle.from_grid(((1, 2), (0, 1)), palette=PALETTES[2])
    clause = blocking_clause(puzzle, ((1, 2), (0, 1)))
    for cells in product(range(3), repeat=4):
        grid = (cells[:2], cells[2:])
        true = {((r * 2 + c) * 2 + k) for r in range(2) for c in range(2) for k in (1, 2) if grid[r][c] == k}
        holds = any((lit > 0) == (abs(lit) in true) for lit in clause)
        assert holds == (grid != ((1, 2), (0, 1)))
    text, clauses = whole_formula(puzzle, "blocks")
    header = next(line.split() for line in text.splitlines() if line.startswith("p cnf "))
    assert text.count(" 0\n") == len(clauses) == int(header[3]) and int(header[2]) >= 8  # the 8 cell variables first


@pytest.mark.slow
@pytest.mark.parametrize("checker", CHECKERS)
def test_the_unique_puzzles_of_a_tournament_set_and_a_corpus_colour_puzzle(
    corpus: Path, tmp_path: Path, checker: str
) -> None:
    from nonosat.formats import load_all

    tournament = corpus / "tcga" / "question" / "taai2011.txt"
    colour = corpus / "colour" / "olsak-grid" / "raketa.g"
    if not tournament.exists() or not colour.exists():
        pytest.skip("taai2011.txt or raketa.g is not in this corpus")
    unique = []
    for puzzle in load_all(tournament)[:60]:
        if check(puzzle, jobs=1).result.status.value == "unique":
            unique.append(puzzle)
        if len(unique) == 4:
            break
    assert len(unique) == 4
    for n, puzzle in enumerate([*unique, load(colour)]):
        for encoding in ENCODINGS:
            folder = tmp_path / f"{n}-{encoding}"
            assert certify(puzzle, folder, encoding) == "unique"
            assert verify(folder, checker).checker == checker
        with pytest.raises(CertificateRefused):
            verify(tampered(folder, tmp_path, "unique.cnf", clause_dropped), checker)
