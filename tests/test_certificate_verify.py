"""Verifying a certificate (issue 39), `nonosat verify`: a damaged or hostile certificate or file
list is refused, never a crash or a hang; one of another puzzle than the author's own is
refused; a checker not there is named with how to get it, before any work; and the time limit
holds with either checker."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from certificate_shared import certify, tampered

from nonosat import load
from nonosat.certificate_check import CertificateRefused, verify
from nonosat.errors import UsageError

pytest.importorskip("dratify")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


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
