"""The README's promises under faults, for what a batch run is given: a bad file never stops the
run, a path that names nothing, an empty folder and a scheduler without the Dask executor are
refused in one line, and game ids are kept as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import DANCER, PUZZLES, nonosat, one_clean_line


@pytest.mark.slow
def test_one_bad_file_never_stops_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "zz.json").write_text('{"rows": ' + "[" * 100_000)  # a puzzle's sign, then 100,000 brackets
    (folder / "a.non").write_text(DANCER.read_text())
    (folder / "b.non").write_text((PUZZLES / "ring.non").read_text())
    done = nonosat("batch", str(folder), "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    records = {Path(r["path"]).name: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["a.non"]["status"] == "unique" and records["b.non"]["status"] == "multiple"
    assert records["zz.json"]["status"] == "error" and "zz.json" in records["zz.json"]["error"]


@pytest.mark.slow
def test_a_path_that_names_nothing_is_refused(tmp_path: Path) -> None:
    for path in ("/nonexistent", str(tmp_path / "*.nothing")):
        done = nonosat("batch", path, "--out", "r.jsonl", cwd=tmp_path)
        assert done.returncode == 2 and path in done.stderr
        one_clean_line(done.stderr)
    assert not (tmp_path / "r.jsonl").exists()


def test_a_scheduler_without_the_dask_executor_is_refused(tmp_path: Path) -> None:
    """`--scheduler tcp://...` without `--executor dask` ran everything locally without a word."""
    done = nonosat("batch", str(DANCER), "--out", "r.jsonl", "--scheduler", "tcp://127.0.0.1:1", cwd=tmp_path)
    assert done.returncode == 2 and "--scheduler is for the Dask executor only" in done.stderr
    one_clean_line(done.stderr)
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.slow
def test_batch_keeps_game_ids_as_they_are(tmp_path: Path) -> None:
    game_id = "3x3:1.1//1.1/1.1//1.1"  # `//`: an empty clue
    done = nonosat("batch", game_id, "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "r.jsonl").read_text())
    assert record["path"] == game_id and record["status"] == "unique"


def test_an_empty_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = nonosat("batch", "empty", "--out", "r.jsonl", "--require", "unique", cwd=tmp_path)
    assert done.returncode == 2 and "no puzzle files" in done.stderr
