"""The files the command line writes: a solution never overwrites unless forced, and `--force`
writes through a link, never replaces a pipe or a device, and keeps the permissions of the file it
replaces; an output in a format that holds no solution or in a read-only folder is refused before
any work; JSON output; and `encode` writes CNF that another solver solves to the goal, or an
unsatisfiable puzzle's clues with exit 3."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_shared import run, write

from nonosat import load

ROOT = Path(__file__).resolve().parent.parent
DANCER = str(ROOT / "puzzles" / "webpbn-00001-dancer.non")
FOREVER = str(ROOT / "puzzles" / "webpbn-06574-forever.non")


def test_output_writes_the_solution_and_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "out.non"
    assert run("solve", FOREVER, "--output", str(target))[0] == 0
    written = load(str(target))
    assert written.goal == load(FOREVER).goal and written.rows == load(FOREVER).rows
    target.write_text("precious")
    code, _, stderr = run("solve", FOREVER, "--output", str(target))
    assert code == 2 and "--force" in stderr and target.read_text() == "precious"
    assert run("solve", FOREVER, "--output", str(target), "--force")[0] == 0
    assert load(str(target)).goal == load(FOREVER).goal


def test_force_writes_through_a_link_and_never_replaces_a_pipe_or_a_device(tmp_path: Path) -> None:
    """`--force` renamed the new file over whatever the path was: a pipe, a device (as root,
    /dev/null itself), a symbolic link (the link replaced, the file it points to left as it was)."""
    real = tmp_path / "real.non"
    real.write_text("precious")
    link = tmp_path / "link.non"
    link.symlink_to(real)
    assert run("solve", FOREVER, "--output", str(link), "--force")[0] == 0
    assert link.is_symlink() and load(str(real)).goal == load(FOREVER).goal
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    pipe = tmp_path / "pipe.cnf"
    os.mkfifo(pipe)
    code, _, stderr = run("encode", FOREVER, "-o", str(pipe), "--force")
    assert code == 2 and "not a regular file" in stderr and pipe.is_fifo()  # a device goes the same way


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX's")
def test_force_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    """A review found a private file (0600) world-readable (0644) after `--force`: the new file
    came with the usual permissions. New files still do."""
    private = tmp_path / "private.non"
    private.write_text("secret")
    private.chmod(0o600)
    assert run("solve", FOREVER, "--output", str(private), "--force")[0] == 0
    assert private.stat().st_mode & 0o777 == 0o600 and load(str(private)).goal == load(FOREVER).goal
    fresh = tmp_path / "fresh.non"
    assert run("solve", FOREVER, "--output", str(fresh))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_output_in_a_format_that_holds_no_solution_is_refused_before_any_work(tmp_path: Path) -> None:
    """A review found `solve -o x.nin` (or .clues, .mk, .g) writing the clues alone, silently,
    exit 0; and `-o x.svg` suggesting an option solve does not have."""
    for name in ("x.nin", "x.clues", "x.g", "x.svg"):
        code, _, stderr = run("solve", DANCER, "-o", str(tmp_path / name))
        assert code == 2 and "a solution is written as .non, .json, .xml" in stderr, stderr
        assert not (tmp_path / name).exists()
    code, _, stderr = run("solve", DANCER, "-o", str(tmp_path / "x.png"))
    assert code == 2 and "x.png is a png file, which nonosat reads but does not write" in stderr
    assert stderr.rstrip().endswith("to draw it, use --render")
    assert run("solve", DANCER, "-o", str(tmp_path / "x.xml"))[0] == 0
    assert load(str(tmp_path / "x.xml")).goal == load(DANCER).goal


def test_output_json(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    assert run("solve", DANCER, "-o", str(target))[0] == 0
    data = json.loads(target.read_text())
    assert data["status"] == "unique"


def test_encode_writes_cnf_that_another_solver_solves_to_the_goal(tmp_path: Path) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    target = tmp_path / "forever.cnf"
    assert run("encode", FOREVER, "-o", str(target))[0] == 0
    text = target.read_text()
    assert "c cell (row r, column c)" in text
    puzzle = load(FOREVER)
    with Solver("minisat22", bootstrap_with=CNF(from_string=text).clauses) as other:
        assert other.solve()
        model = set(other.get_model())
    width = puzzle.width
    grid = tuple(tuple(int(r * width + c + 1 in model) for c in range(width)) for r in range(puzzle.height))
    assert grid == puzzle.goal


@pytest.mark.parametrize("encoding", ["blocks", "automaton"])
def test_encode_writes_an_unsatisfiable_puzzles_clues_and_exits_3(tmp_path: Path, encoding: str) -> None:
    """A review: a puzzle line logic refutes was written as one empty clause (exit 0), and one the
    cheap checks refute not at all (exit 3). Both are now their clues' CNF, unsatisfiable, with
    the reason in a comment and exit 3."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    broken = str(ROOT / "puzzles" / "broken-cross.non")
    too_long = write(tmp_path, "long.non", "width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n")
    for puzzle, why in ((broken, "line logic finds"), (too_long, "row 1: clue 3 needs 3 cells")):
        target = tmp_path / f"{Path(puzzle).stem}-{encoding}.cnf"
        code, _, stderr = run("encode", puzzle, "-o", str(target), "--encoding", encoding)
        assert code == 3 and "no solution" in stderr and "unsatisfiable" in stderr, stderr
        text = target.read_text()
        assert f"c no solution: {why}" in text.splitlines()[1]
        clauses = CNF(from_string=text).clauses
        assert len(clauses) > 2 and all(clauses)  # the clues' clauses, not one empty clause
        with Solver("minisat22", bootstrap_with=clauses) as other:
            assert not other.solve()


def test_an_output_in_a_read_only_folder_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review (as a user who is not root; `os.access` made to say read-only here): `generate
    -o ro/x.non` ran its whole repair, then "Permission denied", the puzzle lost; `random`,
    `solve -o`, `--preview` and `check --certificate` the same."""
    read_only = tmp_path / "ro"
    read_only.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != read_only and real(path, mode))
    import nonosat.solver.drive as drive

    monkeypatch.setattr(drive, "check_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    monkeypatch.setattr(drive, "solve_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    import nonosat.generate.checks as checks  # the repair's checks hold their own name for it

    monkeypatch.setattr(checks, "solve_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    for args in (
        ["random", "--width", "5", "--height", "5", "-o", str(read_only / "x.non")],
        ["solve", DANCER, "-o", str(read_only / "x.non")],
        ["solve", DANCER, "--render", str(read_only / "x.svg")],
        ["check", DANCER, "--certificate", str(read_only / "certificate")],
        ["convert", DANCER, str(read_only / "x.json")],
    ):
        code, _, stderr = run(*args)
        assert code == 2 and "is read-only" in stderr and len(stderr.splitlines()) == 1, (args, stderr)
    assert not list(read_only.iterdir())
    writable = tmp_path / "rw"
    writable.mkdir()
    results = writable / "b.jsonl"  # the diff's review: every puzzle solved, each record "no certificate"
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(read_only / "certificates"))
    assert code == 2 and "is read-only" in stderr and not results.exists(), stderr
    certificates = tmp_path / "certificates"  # there, read-only: refused where a puzzle needs a folder made
    certificates.mkdir()
    unwritable = (read_only, certificates)
    monkeypatch.setattr(
        os, "access", lambda path, mode: not (mode & os.W_OK and Path(path) in unwritable) and real(path, mode)
    )
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(certificates))
    assert code == 2 and "cannot make the certificates of 1 puzzle(s)" in stderr and not results.exists(), stderr
    from nonosat.batch.work import certificate_folder

    (certificates / certificate_folder(DANCER)).mkdir()  # its folder there (a rerun): written in it
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(certificates), "--force")
    assert code == 0 and results.exists(), stderr
    (read_only / "link.non").symlink_to(writable / "x.non")  # the file is written beside what it names
    assert run("convert", DANCER, str(read_only / "link.non"))[0] == 0 and (writable / "x.non").exists()
    (writable / "back.non").symlink_to(read_only / "t.non")
    code, _, stderr = run("random", "--width", "5", "--height", "5", "-o", str(writable / "back.non"))
    assert code == 2 and f"the folder {read_only} is read-only" in stderr, stderr
    (writable / "nowhere.non").symlink_to(writable / "nowhere" / "x.non")  # a review: called read-only too
    code, _, stderr = run("solve", DANCER, "-o", str(writable / "nowhere.non"))
    assert code == 2 and f"the folder {writable / 'nowhere'} is not there" in stderr, stderr
