"""Trailing blank lines, CRLF or lone CR line ends, a BOM, and spaces or tabs at the ends of lines
change nothing in any format: the same puzzle is read, or the file is read the same way."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from nonosat.formats import FORMATS, dumps, load, loads
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ("webpbn-00001-dancer.non", "webpbn-06574-forever.non", "ring.non")

CORPUS_SAMPLES = (
    "minizinc/non_fast_1.dzn",
    "pynogram/hello.txt",
    "jwilk/data000.nin",
    "webpbn/webpbn-00016-knot.non",
)


def variants(text: str) -> Iterator[tuple[str, str]]:
    yield "two trailing blank lines", text + "\n\n"
    yield "four trailing blank lines", text.rstrip("\n") + "\n\n\n\n\n"
    yield "CRLF", text.replace("\n", "\r\n")
    yield "lone CR", text.replace("\n", "\r")
    yield "BOM", "\ufeff" + text
    yield "trailing spaces", re.sub(r"\n", "  \n", text)
    yield "trailing tabs", re.sub(r"\n", "\t\n", text)
    yield "everything", "\ufeff" + re.sub(r"\n", " \t\r\n", text) + "\r\n\r\n"


def same(a: Puzzle, b: Puzzle) -> bool:
    return (a.rows, a.columns, a.goal, a.title, a.author) == (b.rows, b.columns, b.goal, b.title, b.author)


def written() -> Iterator[tuple[str, str]]:
    """Every sample puzzle in every format nonosat writes (the tournament format only holds
    square puzzles)."""
    for name in SAMPLES:
        puzzle = load(ROOT / "puzzles" / name)
        for fmt, form in FORMATS.items():
            if form.dump is None or (fmt == "tournament" and puzzle.width != puzzle.height):
                continue
            yield fmt, dumps(puzzle, fmt)


@pytest.mark.parametrize("fmt, text", list(written()), ids=lambda value: value if len(value) < 20 else "")
def test_every_written_format_reads_the_same_through_whitespace(fmt: str, text: str) -> None:
    base = loads(text, fmt=fmt, path="x")
    sniffed = loads(text, path="x.txt") if fmt not in ("json", "xml") else base
    for name, changed in variants(text):
        assert same(loads(changed, fmt=fmt, path="x"), base), (fmt, name)
        if fmt not in ("json", "xml"):
            assert same(loads(changed, path="x.txt"), sniffed), (fmt, name, "found by content")


@pytest.mark.slow
@pytest.mark.parametrize("relative", CORPUS_SAMPLES)
def test_corpus_formats_read_the_same_through_whitespace(corpus: Path, relative: str) -> None:
    file = corpus / relative
    text = file.read_text()
    base = loads(text, path=file.name)
    for name, changed in variants(text):
        assert same(loads(changed, path=file.name), base), (relative, name)
        assert same(loads(changed, path="no-suffix"), base), (relative, name, "found by content")


def test_tournament_square_with_empty_last_rows_survives_padding() -> None:
    """Empty clues at the end of an entry are written as `0`, so blank lines after them are padding."""
    picture = [[0] * 6 for _ in range(6)]
    picture[1][1:4] = [1, 1, 1]
    picture[2][2] = 1
    puzzle = Puzzle.from_grid(picture)
    text = dumps(puzzle, "tournament")
    for _, changed in variants(text):
        read = loads(changed, fmt="tournament")
        assert (read.rows, read.columns) == (puzzle.rows, puzzle.columns)


def test_tournament_file_with_blank_empty_clues_is_read_in_full() -> None:
    """A file that writes empty clues as blank lines (as the tournaments do) is read whole."""
    puzzle = Puzzle(rows=((1,), (), ()), columns=((1,), (), ()))
    text = "$1\n1\n\n\n1\n\n\n"
    read = loads(text, fmt="tournament")
    assert (read.rows, read.columns) == (puzzle.rows, puzzle.columns)


@pytest.mark.slow
def test_the_issue_s_command_stays_unique(tmp_path: Path) -> None:
    """`convert --to tournament`, two blank lines appended, `check`: unique, exit 0."""
    target = tmp_path / "f.txt"
    run = [sys.executable, "-m", "nonosat"]
    subprocess.run(
        [*run, "convert", str(ROOT / "puzzles" / "webpbn-06574-forever.non"), str(target), "--to", "tournament"],
        check=True,
        capture_output=True,
    )
    with open(target, "a") as handle:
        handle.write("\n\n")
    done = subprocess.run([*run, "check", str(target), "--jobs", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "25x25" in done.stdout and "unique" in done.stdout


def test_a_smaller_entry_among_larger_ones_keeps_its_size() -> None:
    """A 4x4 entry whose last row is empty, padded with blank lines, in a file of 5x5 entries:
    the file's usual size is tried first, but only kept when the totals agree."""
    big = Puzzle.from_grid([[1, 0, 1, 0, 1]] * 5)
    small = Puzzle.from_grid([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 0, 0]])

    def entry(number: int, puzzle: Puzzle) -> str:
        return f"${number}\n" + "".join("\t".join(map(str, clue)) + "\n" for clue in (*puzzle.columns, *puzzle.rows))

    text = entry(1, big) + entry(2, big) + entry(3, small) + "\n\n" + entry(4, big)
    read = loads(text, fmt="tournament", number=3)
    assert (read.rows, read.columns) == (small.rows, small.columns)
