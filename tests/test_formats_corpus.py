"""Every black-and-white corpus file reads with the newer formats (webpbn XML, CWD, MiniZinc,
pynogram, PyCSP3 text, the tournament files), their solution files satisfy their puzzles, and
every writer round-trips the corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from formats_shared import WRITERS, clues_of

from nonosat.errors import ParseError
from nonosat.formats import FORMATS, detect_format, dumps, load, load_all, load_dzn_solution, loads
from nonosat.formats.tournament import load_tournament_all, load_tournament_solutions
from nonosat.model import Puzzle

TOURNAMENT_PUZZLES = 20
"""Tournament files hold 1,000 puzzles each; the first 20 of each keep the solution tests quick."""
TOURNAMENT_STEP = 25
"""Every 25th puzzle of each tournament file (40 of its 1,000, spread over the whole file) is
round-tripped here; `python -m bench.round_trips` does all 24,000 (see bench/README.md)."""

# --- the corpus --------------------------------------------------------------------------------

DOCUMENTS = re.compile(r"(LICENSE|README|SOURCE|FORMAT).*|.*\.md")


def first_entries(text: str, count: int) -> str:
    """The text of a tournament file up to its entry `$count+1`."""
    end = re.search(rf"^\${count + 1}\s*$", text, flags=re.M)
    return text[: end.start()] if end else text


def read_corpus_file(file: Path) -> list[Puzzle]:
    """The puzzles of one corpus file (of a tournament file, every 25th, all read)."""
    if file.parent.name == "question":
        puzzles = load_tournament_all(file.read_text(), str(file))
        assert len(puzzles) == 1000, file
        return puzzles[::TOURNAMENT_STEP]
    return load_all(file)


@pytest.fixture(scope="module")
def corpus_files(corpus: Path) -> dict[Path, list[Puzzle] | ParseError]:
    """Every puzzle file of the corpus, read: its puzzles, or the error it gives."""
    read: dict[Path, list[Puzzle] | ParseError] = {}
    for file in sorted(p for p in corpus.rglob("*") if p.is_file()):
        if DOCUMENTS.fullmatch(file.name) or file.suffix == ".out" or file.parent.name == "solution":
            continue  # documents, and solutions (read in the tests below)
        if file.relative_to(corpus).parts[0] == "colour":
            continue  # the colour puzzles, in formats of their own: see tests/test_colour_corpus.py
        try:
            read[file] = read_corpus_file(file)
        except ParseError as error:
            read[file] = error
    return read


def corpus_puzzles(corpus_files: dict[Path, list[Puzzle] | ParseError]) -> list[Puzzle]:
    return [puzzle for read in corpus_files.values() if isinstance(read, list) for puzzle in read]


@pytest.mark.slow
def test_every_corpus_file_loads(corpus_files: dict[Path, list[Puzzle] | ParseError]) -> None:
    assert {file.suffix for file in corpus_files} == {".non", ".nin", ".txt", ".dzn"}
    refused = {file.name: read for file, read in corpus_files.items() if isinstance(read, ParseError)}
    assert not refused  # pynogram's colour puzzles (apples.txt, uk.txt) read too
    for file, read in corpus_files.items():
        assert isinstance(read, list) and read and all(not p.problems() for p in read), file
    assert len(corpus_puzzles(corpus_files)) > 700


def test_pynogram_hello_reads_as_its_comment_describes(corpus: Path) -> None:
    hello = load(corpus / "pynogram" / "hello.txt")
    assert (hello.width, hello.height) == (22, 7)
    assert hello.columns[:11] == ((7,), (1,), (1,), (1,), (7,), (), (3,), (1, 1, 1), (1, 1, 1), (2,), ())
    assert hello.columns[-1] == (5, 1)
    assert hello.rows[0] == (1, 1, 1) and hello.rows[-1] == (1, 1, 2, 1, 1, 3, 1)


@pytest.mark.slow
def test_minizinc_solutions_satisfy_their_puzzles(corpus: Path) -> None:
    outputs = sorted((corpus / "minizinc").glob("*.out"))
    assert len(outputs) == 20
    for output in outputs:
        puzzle = load(output.with_suffix(".dzn"))
        grid = load_dzn_solution(output.read_text(), str(output))
        assert puzzle.satisfied_by(grid), output


def test_tournament_solution_files_load(corpus: Path) -> None:
    for file in sorted((corpus / "tcga" / "solution").glob("*.txt")):
        grids = load_tournament_solutions(first_entries(file.read_text(), TOURNAMENT_PUZZLES), str(file))
        assert len(grids) == TOURNAMENT_PUZZLES and all(len(g) == len(g[0]) == 25 for g in grids.values()), file


# --- round trips -------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_writer_round_trips_the_corpus(corpus_files: dict[Path, list[Puzzle] | ParseError]) -> None:
    for puzzle in corpus_puzzles(corpus_files):
        for name in WRITERS:
            if name == "tournament" and puzzle.width != puzzle.height or puzzle.is_colour and not FORMATS[name].colour:
                continue
            text = dumps(puzzle, name)
            again = loads(text, fmt=name)
            assert clues_of(again) == clues_of(puzzle), (name, puzzle.source)
            for field in FORMATS[name].keeps:
                assert getattr(again, field) == getattr(puzzle, field), (name, field, puzzle.source)
            assert detect_format(None, text) == name, (name, puzzle.source)
