"""Certificates (issue 39): made for unique, none and multiple verdicts in both encodings, black
and white and colour; verified by an independent DRAT checker (dratify, from the test extra; and
drat-trim when it is on the PATH); refused when a proof step, a clause or a solution is changed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from nonosat import Verdict, check, load
from nonosat.certificate import CLAUSE_SECONDS, blocking_clause, make_certificate, whole_formula
from nonosat.certificate_check import CertificateRefused, verify
from nonosat.errors import UsageError
from nonosat.model import Puzzle

pytest.importorskip("dratify")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
ENCODINGS = ("automaton", "blocks")
CHECKERS = ["dratify"] + (["drat-trim"] if shutil.which("drat-trim") else [])


def certify(puzzle: Puzzle, folder: Path, encoding: str) -> str:
    result = check(puzzle).result
    grids = tuple(solution.grid for solution in result.solutions)
    made = make_certificate(puzzle, result.status.value, grids, folder, encoding=encoding)
    assert made.folder == folder and (folder / "README.txt").exists()
    return made.status


def tampered(folder: Path, tmp_path: Path, name: str, change: Callable[[list[str]], Iterable[str]]) -> Path:
    """A copy of the certificate with one file changed by `change` (its lines in, its lines out)."""
    copy = tmp_path / f"tampered-{name}-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(folder, copy)
    lines = (copy / name).read_text().splitlines(keepends=True)
    (copy / name).write_text("".join(change(lines)))
    return copy


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


@pytest.mark.slow
def test_a_damaged_or_hostile_certificate_is_refused_never_a_crash_or_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review found verify ending in an internal error (exit 70) on a proof cut short or with a
    stray token (dratify's ValueError), hanging on a pipe, filling memory from a link to
    /dev/zero, and exiting 2 (not 7) for an unknown encoding or a broken puzzle.json."""
    import os

    import nonosat.certificate_check as checking

    folder = tmp_path / "forever"
    assert certify(load(PUZZLES / "webpbn-06574-forever.non"), folder, "automaton") == "unique"
    proof = (folder / "unique.drat").read_text()
    cases: list[tuple[Path, str]] = [
        (tampered(folder, tmp_path, "unique.drat", lambda lines: ["".join(lines)[: len(proof) // 2]]), "unique.drat"),
        (tampered(folder, tmp_path, "unique.drat", lambda lines: ["x 0\n", *lines]), "unique.drat"),
        (tampered(folder, tmp_path, "unique.drat", lambda lines: ["99999999999999999999 0\n", *lines]), "unique.drat"),
        (
            tampered(
                folder, tmp_path, "certificate.json", lambda lines: [t.replace("automaton", "foo") for t in lines]
            ),
            "certificate.json",
        ),
        (tampered(folder, tmp_path, "puzzle.json", lambda lines: ["{}"]), "puzzle.json"),
    ]
    linked = tampered(folder, tmp_path, "unique.drat", lambda lines: lines)
    (linked / "unique.drat").unlink()
    (linked / "unique.drat").symlink_to("/dev/zero")
    cases.append((linked, "not a regular file"))
    piped = tampered(folder, tmp_path, "unique.drat", lambda lines: lines)
    (piped / "unique.drat").unlink()
    os.mkfifo(piped / "unique.drat")
    cases.append((piped, "not a regular file"))
    for bad, named in cases:
        with pytest.raises(CertificateRefused, match=named):
            verify(bad)
    large = tampered(folder, tmp_path, "puzzle.json", lambda lines: lines)
    side = [[1]] * 400  # a 400x400 puzzle.json: its formula is past the clause limit (exit 4, not 7, before)
    (large / "puzzle.json").write_text(json.dumps({"rows": side, "cols": side}))
    with pytest.raises(CertificateRefused, match=r"puzzle\.json: the CNF would have"):
        verify(large)
    monkeypatch.setattr(checking, "MAX_PROOF_BYTES", len(proof) - 1)
    with pytest.raises(CertificateRefused, match="over the limit"):
        verify(folder)
    with pytest.raises(UsageError, match="a folder's path"):
        verify(123)  # type: ignore[arg-type]


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
def test_verify_with_the_authors_own_puzzle_refuses_a_certificate_of_another(tmp_path: Path) -> None:
    """A review: a sound certificate of another puzzle (Dancer's files in Knot's folder) verified,
    and nothing tied it to the editor's own puzzle file; and a listed file gone went unnoticed."""
    forever, dancer = load(PUZZLES / "webpbn-06574-forever.non"), load(PUZZLES / "webpbn-00001-dancer.non")
    folder = tmp_path / "forever"
    certify(forever, folder, "automaton")
    assert verify(folder, puzzle=forever).status == "unique"
    retitled = replace(forever, title="Another title")  # metadata may differ: the clues are what is proved
    assert verify(folder, puzzle=retitled).status == "unique"
    with pytest.raises(
        CertificateRefused, match=r"puzzle\.json: not the clues of .*dancer.* \(a 25x25 puzzle, not 5x10\)"
    ):
        verify(folder, puzzle=dancer)
    rows = list(forever.rows)
    rows[0], rows[1] = rows[1], rows[0]
    with pytest.raises(CertificateRefused, match="row 1 is .* there, .* here"):
        verify(folder, puzzle=replace(forever, rows=tuple(rows)))
    (folder / "README.txt").unlink()
    with pytest.raises(CertificateRefused, match=r"README\.txt: no such file"):
        verify(folder)


def test_a_hostile_file_list_is_refused_and_a_colours_name_may_differ(tmp_path: Path) -> None:
    """A diff's review: a listed name with a NUL byte crashed verify (exit 70), names with a slash
    were passed over; and --puzzle refused the same clues when only a colour's name differed."""
    ring = load(PUZZLES / "ring-colour.non")
    folder = tmp_path / "ring"
    certify(ring, folder, "automaton")
    meta = json.loads((folder / "certificate.json").read_text())
    for name in ("a\u0000b", "../puzzle.json", 7):
        (folder / "certificate.json").write_text(json.dumps({**meta, "files": [*meta["files"], name]}))
        with pytest.raises(CertificateRefused, match="is not a file name of the folder"):
            verify(folder)
    (folder / "certificate.json").write_text(json.dumps(meta))
    renamed = replace(ring, palette=(ring.palette[0], replace(ring.palette[1], name="crimson"), ring.palette[2]))
    assert verify(folder, puzzle=renamed).status == "multiple"


def test_verify_without_a_checker_says_how_to_get_one_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review: without dratify the message named a package the README does not, and with
    `--checker drat-trim` missing a short --timeout said "time limit reached" (the formula was
    made again first)."""
    import nonosat.certificate_check as checking

    folder = tmp_path / "dancer"
    certify(load(PUZZLES / "webpbn-00001-dancer.non"), folder, "automaton")
    monkeypatch.setattr(checking, "_has_dratify", lambda: False)
    monkeypatch.setattr("nonosat.certificate_check.shutil.which", lambda name: None)
    monkeypatch.setattr(checking, "whole_formula", lambda *args: pytest.fail("the formula was made first"))
    with pytest.raises(UsageError, match=r"no DRAT checker here: pip install 'nonosat\[verify\]'"):
        verify(folder)
    with pytest.raises(UsageError, match="drat-trim is not on the PATH"):
        verify(folder, "drat-trim", timeout=2.0)  # 0.001 s: under load the timer rang before the check


@pytest.mark.slow
def test_the_command_line_writes_and_verifies_a_certificate(tmp_path: Path) -> None:
    def nonosat(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "nonosat", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)

    forever = str(PUZZLES / "webpbn-06574-forever.non")
    done = nonosat("check", forever, "--no-rating", "--certificate", "proof")
    assert done.returncode == 0 and "certificate: proof (" in done.stdout, done.stderr
    verified = nonosat("verify", "proof")
    assert verified.returncode == 0 and "proof: verified: Forever, 25x25: unique (" in verified.stdout  # which puzzle
    assert nonosat("verify", "proof", "--puzzle", forever).returncode == 0
    other = nonosat("verify", "proof", "--puzzle", str(PUZZLES / "ring.non"))
    assert other.returncode == 7 and "proof/puzzle.json: not the clues of" in other.stderr, other.stderr
    again = nonosat("check", forever, "--no-rating", "--certificate", "proof")
    assert again.returncode == 2 and "already exists; use --force" in again.stderr
    assert again.stdout == ""  # refused before any work, as -o is (a review: the verdict, then exit 2)
    ring = nonosat("check", str(PUZZLES / "ring.non"), "--no-rating", "--certificate", "proof", "--force")
    assert ring.returncode == 1 and not (tmp_path / "proof" / "unique.drat").exists()  # the old proof is gone
    (tmp_path / "proof" / "solution-1.txt").write_text("####\n####\n####\n####\n")
    refused = nonosat("verify", "proof")
    assert refused.returncode == 7 and "solution-1.txt: breaks the clues" in refused.stderr
    assert nonosat("verify", "nowhere").returncode == 2
    assert nonosat("verify", "proof", "--checker", "lean").returncode == 2
    nonosat("check", forever, "--no-rating", "--certificate", "proof", "--force")
    by_name = nonosat("verify", "proof", "--checker", "dratify")
    assert by_name.returncode == 0 and "checked by dratify" in by_name.stdout
    bounded = nonosat("verify", "proof", "--timeout", "0.001")  # the proof alone takes far longer
    assert bounded.returncode == 4 and "time limit reached while checking the certificate" in bounded.stderr
    shutil.copy(PUZZLES / "broken-cross.non", tmp_path / "cross.non")
    batch = nonosat("batch", "cross.non", forever, "--out", "-", "--certificates", "certs", "--jobs", "1")
    assert batch.returncode == 0, batch.stderr
    made = sorted(path.name for path in (tmp_path / "certs").iterdir())
    assert len(made) == 2 and all(nonosat("verify", f"certs/{name}").returncode == 0 for name in made)


def test_unknown_has_no_certificate_and_a_bad_status_is_refused(tmp_path: Path) -> None:
    puzzle = load(PUZZLES / "ring.non")
    with pytest.raises(UsageError, match="only of unique, none or multiple"):
        make_certificate(puzzle, "unknown", (), tmp_path / "x")


def test_the_library_writes_a_certificate_with_the_verdict(tmp_path: Path) -> None:
    take_two = load(PUZZLES / "number-loom-take-two.xml")
    verdict = check(take_two, certificate=tmp_path / "cert", encoding="blocks")
    assert verdict.result.status.value == "unique"
    assert verify(tmp_path / "cert").encoding == "blocks"
    undecided = check(load(PUZZLES / "knot-25.non"), timeout=0, certificate=tmp_path / "none")
    assert undecided.result.status.value == "unknown" and not (tmp_path / "none").exists()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_batch_writes_a_certificate_for_each_decided_puzzle(tmp_path: Path, jobs: int) -> None:
    from nonosat.batch import run
    from nonosat.batch.work import certificate_folder

    names = ["webpbn-06574-forever.non", "broken-cross.non", "ring.non", "ring-colour.non", "number-loom-take-two.xml"]
    for name in names:
        shutil.copy(PUZZLES / name, tmp_path / name)
    records = list(run([str(tmp_path)], jobs=jobs, certificates=tmp_path / "certs"))
    assert len(records) == len(names) and not any(record["error"] for record in records)
    for record in records:
        folder = tmp_path / "certs" / certificate_folder(record["path"])
        assert verify(folder).status == record["status"], record["path"]
    assert certificate_folder("a/b#3").startswith("a_b_3-") and certificate_folder("a/b#3") != certificate_folder(
        "a_b/3"
    )
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(UsageError, match="a-file is a file, not a folder for the certificates"):
        run([str(tmp_path / names[0])], jobs=jobs, certificates=tmp_path / "a-file")  # refused by the call itself


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


@pytest.mark.slow
def test_verify_holds_to_its_time_limit_with_either_checker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify --timeout` bounds the whole check: a proof check still running when it passes ends
    in TimeUp (exit 4, unknown), never in a refusal of a sound certificate nor in a wait without end."""
    import time

    import dratify

    from nonosat.errors import TimeUp

    folder = tmp_path / "forever"
    assert certify(load(PUZZLES / "webpbn-06574-forever.non"), folder, "automaton") == "unique"
    with pytest.raises(TimeUp, match="checking the certificate"):
        verify(folder, timeout=0)

    def slow_check(*args: object, **kwargs: object) -> None:
        end = time.monotonic() + 30
        while time.monotonic() < end:  # Python code, as dratify is: the deadline's timer reaches it
            pass

    monkeypatch.setattr(dratify, "check_proof", slow_check)  # returns None: unbounded, an AttributeError
    with pytest.raises(TimeUp):  # not CertificateRefused: dratify's own errors are caught as a bad proof
        verify(folder, "dratify", timeout=0.2)
    fake = tmp_path / "bin" / "drat-trim"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexec /bin/sleep 30\n")  # no output: unbounded, a refusal
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    with pytest.raises(TimeUp, match="checking the certificate"):  # the timer, in the main thread
        verify(folder, "drat-trim", timeout=0.3)
    found: list[BaseException] = []

    def in_a_thread() -> None:  # no timer signal outside the main thread: drat-trim's own time limit
        try:
            verify(folder, "drat-trim", timeout=0.3)
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            found.append(error)

    import threading

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    assert len(found) == 1 and isinstance(found[0], TimeUp) and "drat-trim" in str(found[0]), found


def test_a_folder_that_cannot_be_made_or_a_file_that_cannot_be_written_is_refused_before_any_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review found `--certificate a-file/sub` (and a folder in a read-only one) an internal
    error, exit 70, and a link to /dev/null in a replaced certificate's place refused only after
    four of its files were written, the folder left half new and half old."""
    ring = load(PUZZLES / "ring.non")
    grids = tuple(solution.grid for solution in check(ring).result.solutions)
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(UsageError, match=r"cannot make the folder .*a-file.sub for the certificate: .*a-file is a"):
        make_certificate(ring, "multiple", grids, tmp_path / "a-file" / "sub")

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted", str(self))

    monkeypatch.setattr(Path, "mkdir", read_only)
    with pytest.raises(UsageError, match=r"cannot make the folder .*cert for the certificate: Operation not permitted"):
        make_certificate(ring, "multiple", grids, tmp_path / "cert")
    monkeypatch.undo()
    old = make_certificate(ring, "multiple", grids, tmp_path / "old")
    (tmp_path / "old" / "solution-2.txt").unlink()
    (tmp_path / "old" / "solution-2.txt").symlink_to("/dev/null")
    before = {path.name: path.read_bytes() for path in (tmp_path / "old").iterdir() if path.is_file()}
    with pytest.raises(UsageError, match=r"solution-2.txt is not a regular file"):
        make_certificate(ring, "multiple", grids, tmp_path / "old", force=True)
    assert {path.name: path.read_bytes() for path in (tmp_path / "old").iterdir() if path.is_file()} == before
    assert old.status == "multiple"
    (tmp_path / "old" / "solution-2.txt").unlink()

    def cannot_remove(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(1, "Operation not permitted", str(self))

    monkeypatch.setattr(Path, "unlink", cannot_remove)  # a read-only folder (a second review: exit 70)
    with pytest.raises(UsageError, match=r"cannot remove .*certificate.json: Operation not permitted"):
        make_certificate(ring, "multiple", grids, tmp_path / "old", force=True)


def test_verify_says_what_is_wrong_with_a_file_or_a_checker_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review found `verify ring.non` told "no such folder", and `--checker drat-trim` without
    drat-trim told to install dratify, which was there."""
    with pytest.raises(UsageError, match=r"ring.non is a file, not a certificate's folder"):
        verify(PUZZLES / "ring.non")
    folder = tmp_path / "cert"
    assert certify(load(PUZZLES / "broken-cross.non"), folder, "blocks") == "none"
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match=r"^drat-trim is not on the PATH$"):
        verify(folder, "drat-trim")
    # A review found a folder without its certificate.json "cannot be read (FileNotFoundError)".
    (tmp_path / "empty").mkdir()
    with pytest.raises(CertificateRefused, match=r"empty/certificate\.json: no such file \(a certificate holds it\)$"):
        verify(tmp_path / "empty")
    (folder / "certificate.json").write_bytes(b'{"status": "\xe9"}')
    with pytest.raises(CertificateRefused, match=r"certificate\.json: cannot be read \(not UTF-8 text\)$"):
        verify(folder)


def test_an_output_in_a_file_said_to_be_a_folder_is_named_so(tmp_path: Path) -> None:
    from nonosat.formats.atomic import ensure_writable

    (tmp_path / "a-file").write_text("x")
    with pytest.raises(UsageError, match=r"a-file/x.non: .*a-file is a file, not a folder"):
        ensure_writable(tmp_path / "a-file" / "x.non")
    with pytest.raises(UsageError, match=r"the folder .*nodir is not there"):
        ensure_writable(tmp_path / "nodir" / "x.non")


@pytest.mark.parametrize("made_before", [False, True])
def test_a_certificate_cut_short_halfway_leaves_no_half_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made_before: bool
) -> None:
    """A review: a full disk halfway left a folder holding only puzzle.json. The files written
    are taken back, and the folder too if the certificate made it; a file of the user's stays."""
    from nonosat.errors import OutputFailed
    from nonosat.formats import atomic

    puzzle = load(PUZZLES / "ring.non")
    result = check(puzzle).result
    grids = tuple(solution.grid for solution in result.solutions)
    folder = tmp_path / "cert" if made_before else tmp_path / "n1" / "n2" / "cert"
    if made_before:
        folder.mkdir()
        (folder / "notes.txt").write_text("mine")
    real = atomic.write_text_atomic
    calls: list[Path] = []

    def full_after_two(path: Path, text: str, *, force: bool = False) -> None:
        calls.append(path)
        if len(calls) > 2:
            raise OutputFailed(f"cannot write {path}: No space left on device")
        real(path, text, force=force)

    monkeypatch.setattr(atomic, "write_text_atomic", full_after_two)
    with pytest.raises(OutputFailed):
        make_certificate(puzzle, result.status.value, grids, folder)
    assert len(calls) == 3
    if made_before:
        assert [path.name for path in folder.iterdir()] == ["notes.txt"]
    else:
        assert list(tmp_path.iterdir()) == []  # n1/n2/cert, all made for it, all gone


def test_a_certificate_folder_a_full_disk_cannot_make_is_an_output_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mend's review: every other write on a full disk was exit 74, the certificate's folder 2."""
    import errno

    from nonosat.errors import OutputFailed

    puzzle = load(PUZZLES / "ring.non")
    result = check(puzzle).result
    grids = tuple(solution.grid for solution in result.solutions)

    def full(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "mkdir", full)
    with pytest.raises(OutputFailed, match=r"cannot make the folder .*cert for the certificate: No space left"):
        make_certificate(puzzle, result.status.value, grids, tmp_path / "cert")
    assert OutputFailed.exit_code == 74


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
