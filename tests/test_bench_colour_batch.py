"""bench/colour_batch.py's pieces: the XML files it writes read back as the same clues, the batch
run's statuses are `check`'s, and pbnsolve's output is read per file (a stand-in script here)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from bench.colour_batch import run_batch, run_pbnsolve, write_all
from bench.colour_set import colour_puzzle, noise_puzzle
from nonosat import Puzzle, check, load


def small_set() -> list[tuple[str, Puzzle]]:
    return [
        ("picture", colour_puzzle(12, 10, 3, seed=1)),
        ("noise", noise_puzzle(10, 10, 2, seed=2)),
        ("noise 2", noise_puzzle(8, 9, 4, seed=3)),
    ]


def test_the_files_read_back_as_the_clues_and_batch_gives_checks_verdicts(tmp_path: Path) -> None:
    puzzles = small_set()
    folder = tmp_path / "puzzles"
    folder.mkdir()
    paths = write_all(puzzles, folder)
    assert [p.name for p in paths] == ["0000.xml", "0001.xml", "0002.xml"]
    for path, (_, puzzle) in zip(paths, puzzles, strict=True):
        read = load(path)
        clues = (puzzle.rows, puzzle.columns, puzzle.row_colours, puzzle.column_colours)
        assert (read.rows, read.columns, read.row_colours, read.column_colours) == clues
        assert read.goal is None and "DOCTYPE" not in path.read_text()
    took, statuses = run_batch(folder, tmp_path / "out.jsonl", 120)
    assert took > 0
    assert statuses == {p.name: check(load(p)).result.status.value for p in paths}


def test_pbnsolves_answer_is_read_for_each_file(tmp_path: Path) -> None:
    fake = tmp_path / "pbnsolve"
    fake.write_text(f"#!{sys.executable}\nimport sys\nprint(sys.argv[2])\nprint('NO SOLUTION.')\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    puzzles = small_set()
    paths = write_all(puzzles, tmp_path)
    took, verdicts = run_pbnsolve(paths, puzzles, str(fake), 60)
    assert took > 0 and verdicts == {p.name: "none" for p in paths}
    fake.write_text(f"#!{sys.executable}\nprint('something else')\n")
    assert set(run_pbnsolve(paths[:1], puzzles[:1], str(fake), 60)[1].values()) == {"unknown"}
