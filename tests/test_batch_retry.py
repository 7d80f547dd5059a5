"""The README's promises under faults, for batch runs resumed or retried: `--retry` redoes only the
records it names, of this run's puzzles, and a refused retry leaves the results file as it was;
a puzzle done is known however its path is spelt and from whichever folder the run starts, a
guess never takes another puzzle's record out, a puzzle named twice or linked to is a puzzle of
its own, and certificates already there are replaced only by a resumed run or with --force."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import DANCER, FOREVER, nonosat

from nonosat.errors import UsageError
from nonosat.model import Puzzle
from nonosat.render.records import puzzle_sha1


@pytest.mark.slow
def test_retry_unknown_redoes_only_those_and_keeps_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "forever.non").write_text(FOREVER.read_text())
    (folder / "one.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")  # two line passes
    done = nonosat("batch", "set", "--out", "r.jsonl", "--jobs", "1", "--timeout", "0.000001", cwd=tmp_path)
    first = {r["path"]: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert first["set/forever.non"]["status"] == "unknown", first
    kept = first["set/one.non"]
    assert kept["status"] == "unique"
    done = nonosat("batch", "set", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert "nothing to do" in done.stderr  # resuming skips unknown records
    done = nonosat("batch", "./set", "--out", "r.jsonl", "--jobs", "1", "--retry", "unknown", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    after = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(after) == 2  # ./set/one.non is set/one.non: not solved again
    by_path = {r["path"]: r for r in after}
    assert by_path["set/forever.non"]["status"] == "unique"
    assert by_path["set/one.non"] == kept


def _one_cell_puzzles(folder: Path, *names: str) -> None:
    folder.mkdir()
    for name in names:
        (folder / name).write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")


def _record(path: str, status: str, puzzle_sha1: str | None = None) -> str:
    record = {"path": path, "width": 1, "height": 1, "status": status, "method": "line", "solutions": 1,
              "seconds": 0.001, "solution_sha1": "3bc15c8aae3e4124dd409035f32ea2fd6835efc9", "goal_ok": None,
              "error": None}  # fmt: skip
    if puzzle_sha1 is not None:
        record["puzzle_sha1"] = puzzle_sha1
    return json.dumps(record)


ONE_CELL_SHA1 = puzzle_sha1(Puzzle(rows=((1,),), columns=((1,),)))
"""The puzzle_sha1 of `_one_cell_puzzles`' puzzle, as a batch record of it holds."""


def test_retry_takes_out_only_the_records_of_this_runs_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`batch B --out r.jsonl --retry unique` on a file holding A's records too deleted every
    unique record of A, and never solved them again: "every other record is kept"."""
    from nonosat.batch.tasks import pending

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "a", "x.non", "y.non")
    _one_cell_puzzles(tmp_path / "b", "z.non")
    lines = [_record("a/x.non", "unique"), _record("a/y.non", "multiple"), _record("b/z.non", "unique")]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    todo, done, already, *_ = pending(["b"], tmp_path / "r.jsonl", retry=("unique",))
    assert [task.path for task in todo] == ["b/z.non"] and already == 0
    assert [record["path"] for record in done] == ["a/x.non", "a/y.non"]
    assert (tmp_path / "r.jsonl").read_text().splitlines() == lines[:2]


def test_a_puzzle_done_is_known_however_its_path_is_spelt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from one folder as `puzzles`, then as its absolute path: 'resuming: 2 already done',
    and both solved again (the file then held each record twice)."""
    from nonosat.batch.tasks import pending

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "puzzles", "x.non", "y.non")
    (tmp_path / "r.jsonl").write_text(_record("puzzles/x.non", "unique") + "\n")
    (tmp_path / "linked").symlink_to(tmp_path / "puzzles")  # a review's: 1,000 solved again through a link
    for spelt in ("puzzles", "./puzzles/", str(tmp_path / "puzzles"), "linked", str(tmp_path / "linked")):
        todo, done, already, *_ = pending([spelt], tmp_path / "r.jsonl")
        assert [Path(task.path).name for task in todo] == ["y.non"] and already == 1 and len(done) == 1, spelt


def test_a_puzzle_done_is_known_from_a_run_in_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cd b && nonosat batch set --out r.jsonl`, then `nonosat batch b/set --out b/r.jsonl` from
    above (or from anywhere, by absolute paths, or through a link to the folder): a review found
    every puzzle solved and counted twice. A record's path names its puzzle from the results
    file's folder, or one above it, where it names none of this run's from the run's own folder,
    and the record is of that same puzzle (its puzzle_sha1)."""
    from nonosat.batch.tasks import pending

    (tmp_path / "b").mkdir()
    _one_cell_puzzles(tmp_path / "b" / "set", "x.non", "y.non")
    (tmp_path / "b" / "r.jsonl").write_text(_record("set/x.non", "unique", ONE_CELL_SHA1) + "\n")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "r.jsonl").write_text(_record("b/set/x.non", "unique", ONE_CELL_SHA1) + "\n")  # from tmp_path
    (tmp_path / "linked").symlink_to(tmp_path / "b")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for folder, spelt, out in (
        (tmp_path, "b/set", "b/r.jsonl"),
        (elsewhere, str(tmp_path / "b" / "set"), str(tmp_path / "b" / "r.jsonl")),
        (elsewhere, str(tmp_path / "b" / "set"), str(tmp_path / "c" / "r.jsonl")),
        (elsewhere, "../linked/set", "../linked/r.jsonl"),  # the mend's review: links were not followed
    ):
        monkeypatch.chdir(folder)
        todo, done, already, ours, *_ = pending([spelt], out)
        assert [Path(task.path).name for task in todo] == ["y.non"] and already == 1 and len(ours) == 1, (spelt, out)
    (tmp_path / "p").mkdir()  # the mend's review: a folder of the results file's that links elsewhere
    (tmp_path / "p" / "set").symlink_to(tmp_path / "b" / "set")
    (tmp_path / "p" / "r.jsonl").write_text(_record("set/x.non", "unique", ONE_CELL_SHA1) + "\n")
    monkeypatch.chdir(elsewhere)
    todo, done, already, ours, *_ = pending(["../p/set"], "../p/r.jsonl")
    assert [Path(task.path).name for task in todo] == ["y.non"] and already == 1 and len(ours) == 1
    monkeypatch.chdir(elsewhere)  # a record of none of this run's puzzles stays one of none
    _one_cell_puzzles(elsewhere / "set", "x.non")
    todo, done, already, ours, *_ = pending(["set"], str(tmp_path / "c" / "r.jsonl"))
    assert len(todo) == 1 and already == 0 and ours == [] and len(done) == 1


def test_a_guess_never_takes_a_record_of_another_puzzle_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mend's review: a record written from data/v1 as `set/a.non`, guessed from the results
    file's folder data/ to be data/set/a.non (another puzzle), was taken out as "changed since
    it was written"; with --retry, one of the same puzzle was replaced. A guess is taken only for
    the same puzzle, and never for a record to retry: the record stays, the puzzle is solved."""
    from nonosat.batch.tasks import pending

    for name in ("v1/set", "set"):
        (tmp_path / "data" / name).mkdir(parents=True)
    (tmp_path / "data" / "set" / "a.non").write_text("width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n")
    (tmp_path / "data" / "v1" / "set" / "a.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    out = tmp_path / "data" / "r.jsonl"
    out.write_text(_record("set/a.non", "unique", ONE_CELL_SHA1) + "\n")  # written from data/v1
    monkeypatch.chdir(tmp_path)
    todo, done, already, ours, changed, _ = pending(["data/set"], out)
    assert len(todo) == 1 and already == 0 and ours == [] and changed == 0 and len(done) == 1
    assert len(out.read_text().splitlines()) == 1
    (tmp_path / "data" / "set" / "a.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")  # the same now
    out.write_text(_record("set/a.non", "unknown", ONE_CELL_SHA1) + "\n")
    todo, done, already, ours, changed, _ = pending(["data/set"], out, retry=["unknown"])
    assert len(todo) == 1 and ours == [] and len(done) == 1 and len(out.read_text().splitlines()) == 1


def test_a_files_records_keys_are_worked_out_once_and_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`FILE#N`'s key is FILE's worked out once (a review: 300,000 records took 12 s to start),
    and the same as each worked out alone, through a linked folder too."""
    from nonosat.batch.tasks import puzzle_key

    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    known: dict[str, str] = {}
    for path in ("linked/set.txt#1", "./linked//set.txt#2", "linked/set.txt#12", "real/set.txt#3", "linked/set.txt"):
        alone = puzzle_key(path)
        assert puzzle_key(path, known) == alone
        assert alone.startswith(str(tmp_path / "real" / "set.txt"))
    assert puzzle_key("./linked//set.txt#2", known) == str(tmp_path / "real" / "set.txt#2")


def test_a_puzzle_named_twice_in_one_run_is_solved_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`a.non`, `./a.non` and its folder name one puzzle: one task, one record (a review's mutant
    that solved it three times passed every batch test)."""
    from nonosat.batch import run
    from nonosat.batch.tasks import pending

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "set", "a.non")
    named = ["set/a.non", "./set/a.non", "set", str(tmp_path / "set" / "a.non")]
    assert [task.path for task in pending(named, None).todo] == ["set/a.non"]
    records = list(run(named, out=tmp_path / "r.jsonl", jobs=1))
    assert [record["path"] for record in records] == ["set/a.non"]
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 1


def test_a_results_file_with_a_byte_order_mark_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mend's review: records decoded as UTF-8 refused a file Notepad saved with a BOM."""
    from nonosat.batch.tasks import pending

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "set", "x.non")
    (tmp_path / "r.jsonl").write_bytes(b"\xef\xbb\xbf" + _record("set/x.non", "unique").encode() + b"\n")
    todo, done, already, *_ = pending(["set"], tmp_path / "r.jsonl")
    assert todo == [] and already == 1 and len(done) == 1


def test_a_file_that_is_a_link_is_a_puzzle_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Links to folders are followed, links to files are not: b.non -> a.non in one folder is
    listed, solved and recorded as b.non (a review found it merged into a.non, with no record)."""
    from nonosat.batch.tasks import pending

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "p", "a.non")
    (tmp_path / "p" / "b.non").symlink_to("a.non")
    todo = pending(["p"], None).todo
    assert sorted(Path(task.path).name for task in todo) == ["a.non", "b.non"]


def test_certificates_already_there_are_replaced_only_by_a_resumed_run_or_with_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new run (another results file) into a folder of certificates replaced the files there
    without a word, where `check --certificate` refuses without --force."""
    from nonosat.batch import run
    from nonosat.batch.work import certificate_folder

    monkeypatch.chdir(tmp_path)
    _one_cell_puzzles(tmp_path / "a", "x.non")
    kept = tmp_path / "certs" / certificate_folder("a/x.non") / "README.txt"
    kept.parent.mkdir(parents=True)
    kept.write_text("an author's notes")
    with pytest.raises(UsageError, match="already holds a certificate of a/x.non"):
        run(["a"], out="new.jsonl", certificates="certs", jobs=1)
    assert kept.read_text() == "an author's notes" and not (tmp_path / "new.jsonl").exists()
    (tmp_path / "old.jsonl").write_text("")  # a results file there already: its run wrote the certificates
    assert [r["status"] for r in run(["a"], out="old.jsonl", certificates="certs", jobs=1)] == ["unique"]
    assert kept.read_text() != "an author's notes"
    kept.write_text("an author's notes")
    assert [r["status"] for r in run(["a"], out="new.jsonl", certificates="certs", jobs=1, force=True)] == ["unique"]
    assert kept.read_text() != "an author's notes"


def test_a_refused_retry_leaves_the_results_file_as_it_was(tmp_path: Path) -> None:
    """`--retry unknown --scheduler ...` (without --executor dask) was refused after the
    unknown records had been taken out of the file: the refusal lost them."""
    _one_cell_puzzles(tmp_path / "a", "x.non", "y.non")
    lines = [_record("a/x.non", "unknown"), _record("a/y.non", "unique")]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    for bad in (["--scheduler", "tcp://127.0.0.1:1"], ["--certificates", "r.jsonl"]):
        done = nonosat("batch", "a", "--out", "r.jsonl", "--retry", "unknown", *bad, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert (tmp_path / "r.jsonl").read_text().splitlines() == lines


def test_a_bad_retry_status_is_refused(tmp_path: Path) -> None:
    done = nonosat("batch", str(DANCER), "--out", "r.jsonl", "--retry", "maybe", cwd=tmp_path)
    assert done.returncode == 2 and "maybe" in done.stderr
