"""Writing certificates (issue 39): by the command line (`check --certificate`), the library and
`batch --certificates`, for the decided verdicts only; a folder that cannot be made or a file
that cannot be written is refused before any file, and a certificate cut short halfway or on a
full disk leaves no half certificate."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat import check, load
from nonosat.certificate import make_certificate
from nonosat.certificate_check import verify
from nonosat.errors import UsageError

pytest.importorskip("dratify")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


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
