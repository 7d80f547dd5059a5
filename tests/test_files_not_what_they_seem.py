"""Files that are not what they seem: a suffix no reader takes is said to be an unknown format
(not a broken clue list); a malformed optional goal leaves the puzzle readable, and `check`
reports it as it reports a goal that breaks the clues; a batch run over a folder passes over
the files no reader claims by suffix, and reads pictures only when asked."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat import load
from nonosat.batch import pending
from nonosat.errors import ParseError, UsageError
from nonosat.formats import dumps
from nonosat.formats.detection import SUFFIXES
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

GNO = """[Description]
Heart
[Dimensions]
5
5
[Row clues]
1,1
5
5
3
1
[Column clues]
2
4
4
4
2
"""
"""A gnonograms file: a format nonosat does not read."""

BAD_XML_GOAL = '<solution type="goal"><image>\n|r.b|\n|rb|\n</image></solution>'
"""A goal whose second row is a cell short."""

HEART = ("011011", "111111", "111111", "011110", "001100")


def nonosat(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nonosat", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_an_unknown_suffix_is_an_unknown_format_and_the_known_ones_are_listed(tmp_path: Path) -> None:
    path = tmp_path / "heart.gno"
    path.write_text(GNO)
    with pytest.raises(ParseError) as raised:
        load(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: unknown format: no reader takes .gno files")
    assert all(suffix in message for suffix in SUFFIXES) and ".txt" in message
    done = nonosat("solve", path.name, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("nonosat: ") and "unknown format" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "…" not in done.stderr  # whole, not cut at the length limit


def test_content_still_decides_where_it_is_plain(tmp_path: Path) -> None:
    """A known format under a suffix of its own is read; a .txt is a clue list when nothing else."""
    renamed = tmp_path / "dancer.puzzle"
    renamed.write_text((PUZZLES / "webpbn-00001-dancer.non").read_text())
    assert load(renamed).title == "Dancer"
    junk = tmp_path / "junk.txt"
    junk.write_text("1 1\n\nx\n")
    with pytest.raises(ParseError, match="line 3: expected a clue of whole numbers"):
        load(junk)


def heart_non(goal_cut: int = 1) -> str:
    puzzle = Puzzle.from_grid([[int(c) for c in row] for row in HEART])
    text = dumps(puzzle, "non")
    return re.sub(r'goal "(\d+)"', lambda m: f'goal "{m.group(1)[:-goal_cut]}"', text)


def test_a_malformed_goal_leaves_the_puzzle_to_solve(tmp_path: Path) -> None:
    path = tmp_path / "big-heart.non"
    path.write_text(heart_non())
    puzzle = load(path)
    line = next(n for n, text in enumerate(heart_non().splitlines(), 1) if text.startswith("goal"))
    assert puzzle.goal is None and puzzle.goal_fits() is False
    assert puzzle.goal_problem == f"line {line}: expected a goal of 30 cells (6x5), found 29"
    solved = nonosat("solve", str(path), "--ascii")
    assert solved.returncode == 0 and "unique" in solved.stdout and not solved.stderr
    checked = nonosat("check", str(path))
    assert checked.returncode == 6, checked.stderr  # as for a goal that breaks the clues
    assert "unique · line logic" in checked.stdout
    assert f"goal: cannot be read (line {line}: expected a goal of 30 cells (6x5), found 29)" in checked.stdout
    record = json.loads(nonosat("check", str(path), "--format", "json").stdout)
    assert record["status"] == "unique" and record["goal_satisfies_clues"] is False
    assert record["goal_problem"].startswith(f"line {line}: expected a goal of 30 cells")


def test_every_format_with_an_optional_goal_reads_past_a_malformed_one(tmp_path: Path) -> None:
    colour = load(PUZZLES / "ring-colour.non")
    files = {
        "colour.non": dumps(colour, "non").rstrip("\n") + '\n\ngoal "0ab0"\n',
        "bw.json": dumps(load(PUZZLES / "dancer.json"), "json").replace('"01100"', '"011"', 1),
        "colour.xml": dumps(colour, "xml").replace("</clues>\n</puzzle>", f"</clues>\n{BAD_XML_GOAL}\n</puzzle>"),
    }
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        puzzle = load(path)
        assert puzzle.goal is None and puzzle.goal_problem, name
        assert puzzle.rows and load(path).goal_fits() is False


def test_a_goal_that_is_the_puzzle_must_still_be_read(tmp_path: Path) -> None:
    """An XML puzzle given only by its goal has nothing else to read."""
    path = tmp_path / "only-goal.xml"
    path.write_text(
        '<puzzleset><puzzle type="grid"><solution type="goal"><image>\n|X.|\n|X|\n</image></solution>'
        "</puzzle></puzzleset>"
    )
    with pytest.raises(ParseError, match="like the goal's first row"):
        load(path)


def cloned_repository(folder: Path) -> Path:
    """A folder like a cloned puzzle repository: puzzles, pictures, code, documents, data."""
    (folder / "src").mkdir(parents=True)
    (folder / "puzzles").mkdir()
    for name in ("webpbn-00001-dancer.non", "jwilk-data000.nin", "smiley-picture.png"):
        (folder / "puzzles" / name).write_bytes((PUZZLES / name).read_bytes())
    (folder / "puzzles" / "set.txt").write_text((PUZZLES / "cat-half-done.txt").read_text())
    for name, text in {
        "src/main.rs": "fn main() {}\n",
        "src/app.js": "console.log(1)\n",
        "build.sh": "#!/bin/sh\n",
        "scores.tsv": "a\tb\n",
        "Makefile": "all:\n",
        "pyproject.toml": '[project]\nname = "x"\n',
        "package.json": '{"name": "x"}\n',
        "pom.xml": "<project></project>\n",
        "LICENSE": "MIT\n",
        "README.md": "# puzzles\n",
        "rust_logo.png": (PUZZLES / "knot-picture.png").read_bytes(),
    }.items():
        target = folder / name
        target.write_bytes(text if isinstance(text, bytes) else str(text).encode())
    return folder


def test_a_folder_gives_its_puzzle_files_and_pictures_only_when_asked(tmp_path: Path) -> None:
    folder = cloned_repository(tmp_path / "repo")
    todo = pending([str(folder)], None).todo
    assert sorted(Path(task.path).name for task in todo) == ["jwilk-data000.nin", "set.txt", "webpbn-00001-dancer.non"]
    todo = pending([str(folder)], None, pictures=True).todo
    assert sorted(Path(task.path).name for task in todo) == [
        "jwilk-data000.nin",
        "rust_logo.png",
        "set.txt",
        "smiley-picture.png",
        "webpbn-00001-dancer.non",
    ]
    named = pending([str(folder / "src" / "main.rs")], None)[0]  # a file named outright is read, and fails
    assert len(named) == 1 and named[0].puzzle is None and "unknown format" in str(named[0].error)


def test_a_folder_gives_its_puzzle_files_in_utf_16_too(tmp_path: Path) -> None:
    """The review of a mend: UTF-16 .xml and .json files were passed over in a folder (their
    sign was looked for in the bytes), when `check` read them; a UTF-16 pom.xml still is."""
    folder = tmp_path / "wide"
    folder.mkdir()
    for name in ("number-loom-take-two.xml", "dancer.json"):
        (folder / name).write_bytes((PUZZLES / name).read_text().encode("utf-16"))
    (folder / "pom.xml").write_bytes("<project></project>\n".encode("utf-32"))
    todo = pending([str(folder)], None).todo
    assert sorted(Path(task.path).name for task in todo) == ["dancer.json", "number-loom-take-two.xml"]
    assert all(task.puzzle is not None for task in todo)


def test_a_folder_with_no_puzzle_file_says_how_to_take_its_pictures(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "a.png").write_bytes((PUZZLES / "knot-picture.png").read_bytes())
    with pytest.raises(UsageError, match="no puzzle files"):
        pending([str(folder)], None)
    done = nonosat("batch", str(folder), "--out", "-")
    assert done.returncode == 2 and "(pictures are read with --pictures)" in done.stderr
    taken = nonosat("batch", str(folder), "--out", "-", "--pictures", "--jobs", "1")
    assert taken.returncode == 0 and json.loads(taken.stdout.splitlines()[0])["path"].endswith("a.png")
