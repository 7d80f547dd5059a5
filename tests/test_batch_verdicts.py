"""Batch runs and `solve_many`: every puzzle once, verdicts that agree with `check`, a file's
puzzles as `load` reads them, a bad file one error record, what is asked amiss refused before
any work, and puzzles solved in a daemonic worker's own process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from batch_shared import (
    lines,
    tournament_fixture,  # noqa: F401  (fixture)
)

from nonosat import NonosatError, Puzzle, load, load_all
from nonosat.batch import RECORD_KEYS, run, solution_sha1, solve_many, tasks
from nonosat.batch.tasks import WholeFile
from nonosat.solver import Status, check


@pytest.mark.slow
def test_paths_expand_to_single_puzzles(tmp_path: Path, tournament: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "a.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    (tmp_path / "README.md").write_text("# not a puzzle")
    (tmp_path / "b.non").write_text("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n")
    found = [task.path for task in tasks([str(tmp_path), str(tournament)])]
    assert found[:2] == [str(tmp_path / "b.non"), str(tmp_path / "deep" / "er" / "a.non")]
    assert found[2:5] == [f"{tournament}#1", f"{tournament}#2", f"{tournament}#3"]
    assert len(found) == 2 + 120
    assert [task.path for task in tasks([str(tmp_path / "*.non")])] == [str(tmp_path / "b.non")]


@pytest.mark.slow
def test_statuses_agree_with_check(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    records = list(run([str(tournament)], out=out, jobs=2))
    assert len(records) == 120 and lines(out) == records
    puzzles = load_all(tournament)
    for record, puzzle in zip(
        sorted(records, key=lambda r: int(str(r["path"]).rpartition("#")[2])), puzzles, strict=True
    ):
        assert set(record) == set(RECORD_KEYS)
        verdict = check(puzzle, jobs=1)
        assert record["status"] == verdict.status.value, record["path"]
        assert record["solutions"] == len(verdict.result.solutions)
        assert record["method"] == verdict.result.method
        if record["status"] == "unique":
            assert record["solution_sha1"] == solution_sha1(verdict.result.solutions[0].grid)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_solve_many_gives_each_puzzle_the_verdict_of_check(tournament: Path, jobs: int) -> None:
    puzzles = load_all(tournament)[:40]
    impossible = Puzzle(rows=((3,), (1,)), columns=((1,), (1,)))  # the clue 3 cannot fit 2 cells
    given = puzzles[:20] + [impossible] + puzzles[20:]
    found = dict(solve_many(given, jobs=jobs))
    assert sorted(found) == list(range(len(given)))
    assert found[20].status is Status.NONE and found[20].method == "checks" and not found[20].solutions
    assert found[20].problems == ("row 1: clue 3 needs 3 cells but the line has 2", *found[20].problems[1:])
    for index, puzzle in enumerate(given):
        if index == 20:
            continue
        result, verdict = found[index], check(puzzle, jobs=1)
        assert result.puzzle == puzzle
        assert result.status is verdict.status, index
        assert all(puzzle.satisfied_by(solution.grid) for solution in result.solutions)
        if result.status is Status.UNIQUE:
            assert result.solutions == verdict.result.solutions
        else:
            assert len(set(result.solutions)) == 2


def test_solve_many_refuses_a_count_below_one() -> None:
    with pytest.raises(NonosatError, match="count must be at least 1"):
        list(solve_many([Puzzle(rows=((1,),), columns=((1,),))], count=0))


def test_solve_many_refuses_what_is_amiss_here_not_in_a_worker() -> None:
    """With two workers, a bad timeout or a non-puzzle came back from a worker as a bare
    NonosatError; with one, as UsageError."""
    from nonosat.errors import UsageError

    one = Puzzle(rows=((1,),), columns=((1,),))
    with pytest.raises(UsageError, match="timeout must be"):
        list(solve_many([one], jobs=2, timeout=-1))
    with pytest.raises(UsageError, match="expected a Puzzle"):
        list(solve_many([one, "one.non"], jobs=2))  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("asked", "refusal"),
    [({"count": 0}, "count must be at least 1"), ({"engine": "magic"}, "magic"), ({"executor": "ray"}, "ray")],
)
def test_run_refuses_what_is_asked_amiss_when_called(tmp_path: Path, asked: dict[str, Any], refusal: str) -> None:
    """Before any record is asked for (`nonosat batch` draws its progress bar in between), and
    before a worker starts or the results file is made."""
    puzzle = tmp_path / "one.non"
    puzzle.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    with pytest.raises(NonosatError, match=refusal):
        run([str(puzzle)], out=tmp_path / "results.jsonl", **asked)
    assert not (tmp_path / "results.jsonl").exists()


def test_a_bad_file_is_one_error_record_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "bad.non").write_text("width 2\nheight x\n")
    (tmp_path / "good.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    records = {r["path"]: r for r in run([str(tmp_path)], jobs=1)}
    bad = records[str(tmp_path / "bad.non")]
    assert bad["status"] == "error" and "bad.non" in str(bad["error"]) and "line 2" in str(bad["error"])
    assert records[str(tmp_path / "good.non")]["status"] == "unique"


@pytest.mark.slow
def test_puzzles_named_file_hash_n_are_the_ones_load_reads(corpus: Path) -> None:
    """`FILE#N` tasks come from the file read once (`WholeFile`): each is the puzzle `load`
    reads alone, and a number past the end or a broken file still gives load's own error."""
    tournament = corpus / "tcga" / "question" / "taai2011.txt"
    pbn = corpus / "colour" / "ianprime0509-nonograms" / "puzzles" / "easy.pbn"
    names = [f"{tournament}#{n}" for n in (1, 2, 500, 1000)] + [f"{pbn}#2", f"{pbn}#1", f"{tournament}#7"]
    found = list(tasks(names + [f"{tournament}#1001"]))
    assert [task.puzzle for task in found[:-1]] == [load(name) for name in names]
    assert [task.path for task in found[:-1]] == names
    assert found[-1].puzzle is None and found[-1].error is not None and "1001" in found[-1].error
    whole = WholeFile()
    assert whole.puzzle(str(tournament)) is None  # a whole file is not FILE#N
    assert whole.puzzle(f"{tournament}#3") == [load(f"{tournament}#3")]


@pytest.mark.slow
def test_solve_many_and_run_in_a_daemonic_worker_solve_in_it(tmp_path: Path) -> None:
    """A Python user's review: solve_many(jobs=2) in a multiprocessing.Pool's worker (a Celery
    worker is one too) raised a bare AssertionError, "daemonic processes are not allowed to have
    children". There the puzzles are solved in the worker itself."""
    script = tmp_path / "pooled.py"
    script.write_text(
        "import multiprocessing, sys\n"
        "from nonosat import load\n"
        "from nonosat.batch import run, solve_many\n"
        "def grade(path):\n"
        "    many = sorted((i, r.status.value) for i, r in solve_many([load(path)] * 3, jobs=2))\n"
        "    records = [r['status'] for r in run([path], jobs=2)]\n"
        "    return many, records\n"
        "if __name__ == '__main__':\n"
        "    with multiprocessing.get_context('spawn').Pool(1) as pool:\n"
        "        print(pool.map(grade, [sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, str(script), str(Path(__file__).resolve().parent.parent / "puzzles" / "ring.non")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[([(0, 'multiple'), (1, 'multiple'), (2, 'multiple')], ['multiple'])]"
