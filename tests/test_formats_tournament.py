"""Tournament files: every corpus file holds 1000 square puzzles whose solutions satisfy them and
round-trips; `FILE#N` selects a puzzle (a file of several needs one, a file of one none, a
number not there is named), the numbers `$N` are kept, any line ending reads, an empty last row
is kept, and a puzzle that is not square is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from formats_shared import clues_only, corpus_files, totals_agree

from nonosat.errors import ParseError, UsageError
from nonosat.formats import dropped_fields, dumps, load, load_all
from nonosat.formats.tournament import dump_tournament, load_tournament, load_tournament_all, load_tournament_solutions
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)), title="Tiny")
"""A 3x3 puzzle with an empty row, small enough to write by hand in every format."""


@pytest.mark.slow
def test_every_tournament_file_holds_1000_square_puzzles(corpus: Path) -> None:
    for file in corpus_files(corpus, "tcga/question/*.txt"):
        puzzles = load_all(file)
        assert [p.source for p in puzzles] == [f"{file}#{n}" for n in range(1, 1001)], file
        assert len({(p.width, p.height) for p in puzzles}) == 1, file
        assert all(p.width == p.height and totals_agree(p) for p in puzzles), file


@pytest.mark.slow
def test_tournament_solutions_satisfy_their_puzzles(corpus: Path) -> None:
    question = corpus / "tcga" / "question" / "taai2011.txt"
    solutions = load_tournament_solutions((corpus / "tcga" / "solution" / "taai2011.txt").read_text())
    assert len(solutions) == 1000
    for number, puzzle in enumerate(load_all(question)[:50], start=1):
        assert puzzle.satisfied_by(solutions[number]), number
        assert not puzzle.satisfied_by(solutions[number % 50 + 1]), number


@pytest.mark.slow
def test_tournament_round_trips(corpus: Path) -> None:
    puzzles = load_all(corpus / "tcga" / "question" / "taai2017.txt")  # holds an empty clue line
    assert load_tournament_all(dump_tournament(puzzles)) == puzzles


@pytest.mark.slow
def test_file_hash_n_selects_a_tournament_puzzle(corpus: Path) -> None:
    question = corpus / "tcga" / "question" / "taai2011.txt"
    seventh = load(f"{question}#7")
    assert seventh == load_all(question)[6]
    assert seventh.title is None and seventh.source == f"{question}#7"
    assert load_all(f"{question}#7") == [seventh]


def test_multi_puzzle_file_needs_a_number(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(dump_tournament([TINY, TINY]))
    with pytest.raises(ParseError, match="#N") as raised:
        load(path)
    assert raised.value.path == str(path)
    assert load(f"{path}#2").source == f"{path}#2"


def test_single_tournament_puzzle_needs_no_number(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(dump_tournament([TINY]))
    # no title "#1": it was written as one by every format that holds one (a review); its
    # number is its catalogue entry, written back as its `$N` (a review of the formats: `$1`)
    assert load(path) == Puzzle(rows=TINY.rows, columns=TINY.columns, catalogue="1")


def test_tournament_numbers_are_kept(tmp_path: Path) -> None:
    """A review of the formats: a tournament's puzzle converted on its own came out `$1`, and a
    file of `$7 $9 $12` was said to hold "$7 to $12"."""
    text = "".join(f"${n}\n1\n1\n" for n in (7, 9, 12))
    path = tmp_path / "gaps.txt"
    path.write_text(text)
    assert dumps(load(f"{path}#9"), "tournament").startswith("$9\n")
    assert dumps(load(f"{path}#9"), "non").startswith('catalogue "9"\n')
    assert dump_tournament(load_tournament_all(text)) == text
    assert dump_tournament([TINY, TINY]).startswith("$1\n")  # no catalogue: numbered in order
    assert dropped_fields(load(f"{path}#9"), "tournament") == []
    assert dropped_fields(replace(TINY, title=None, catalogue="A1"), "tournament") == ["catalogue"]
    assert dropped_fields(replace(TINY, title=None, catalogue="007"), "tournament") == ["catalogue"]
    assert dumps(replace(TINY, catalogue="0"), "tournament").startswith("$1\n")
    with pytest.raises(ParseError, match=r"holds \$7, \$9 and \$12\)"):
        load(f"{path}#8")
    many = tmp_path / "many.txt"
    many.write_text("".join(f"${n}\n1\n1\n" for n in (*range(1, 9), 10)))
    with pytest.raises(ParseError, match=r"holds \$1 to \$10, 1 of them missing\)"):
        load(f"{many}#9")


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_tournament_reads_any_line_ending(line_end: str) -> None:
    text = dump_tournament([TINY, TINY]).replace("\n", line_end)
    assert [clues_only(p) for p in load_tournament_all(text)] == [clues_only(TINY)] * 2


def test_tournament_keeps_an_empty_last_row() -> None:
    puzzle = Puzzle(rows=((1,), ()), columns=((1,), ()))
    assert clues_only(load_tournament(dump_tournament([puzzle]))) == puzzle


def test_missing_puzzle_number(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(dump_tournament([TINY, TINY]))
    with pytest.raises(ParseError, match=r"no puzzle \$9") as raised:
        load(f"{path}#9")
    assert raised.value.path == str(path)
    with pytest.raises(ParseError, match="holds one puzzle"):
        load(f"{DANCER}#2")


def test_tournament_refuses_non_square_puzzles() -> None:
    with pytest.raises(UsageError, match="square"):
        dump_tournament([load(DANCER)])
