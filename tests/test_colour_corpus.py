"""Colour in the corpus (issue 16): every colour file of the corpus reads with its palette and
clues, goals satisfy their clues, number-loom's XML puzzles have the clues of their PNG goals,
and every colour puzzle round-trips through XML, .non, .g and JSON."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from formats_shared import colour_clues

from nonosat.errors import ParseError
from nonosat.formats import FORMATS, detect_format, dumps, load, load_all, loads
from nonosat.model import Puzzle, runs_of

COLOUR = Path("colour")
CORPUS_FILES = {
    # file under colour/: (width, height, colours besides the background) of each puzzle in it
    "number-loom/puzzles/listen_left_and_right.xml": [(20, 20, 2)],
    "number-loom/puzzles/little_hauler.xml": [(25, 15, 2)],
    "number-loom/puzzles/look_sharp.xml": [(15, 20, 2)],
    "number-loom/puzzles/missing.xml": [(20, 15, 2)],
    "number-loom/puzzles/not_invented_yet_1.xml": [(40, 15, 2)],
    "number-loom/puzzles/not_invented_yet_3.xml": [(20, 25, 2)],
    "number-loom/puzzles/take_two.xml": [(15, 15, 2)],
    "number-loom/examples/png/bill_jeb_and_bob.png": [(30, 15, 3)],
    "number-loom/examples/png/fire_submarine.png": [(40, 15, 2)],
    "number-loom/examples/png/headphones.png": [(20, 20, 2)],
    "number-loom/examples/png/pill_bottles.png": [(15, 15, 2)],
    "number-loom/examples/png/puzzle_piece.png": [(20, 15, 2)],
    "number-loom/examples/png/shirt_and_tie.png": [(15, 20, 2)],
    "number-loom/examples/png/shirt_and_tie_no_button.png": [(15, 20, 2)],
    "number-loom/examples/png/skid_steer.png": [(25, 15, 2)],
    "number-loom/examples/char-grid/unicode_colors.txt": [(5, 8, 5)],
    "ianprime0509-nonograms/puzzles/easy.pbn": [(10, 10, 1), (10, 10, 2)],
    "olsak-grid/acorn.g": [(50, 35, 4)],
    "olsak-grid/dvekocky.g": [(71, 35, 2)],
    "olsak-grid/raketa.g": [(20, 35, 2)],
    "olsak-grid/viceres.g": [(4, 4, 2)],
    "nonny/data/puzzles/color/rainbow.non": [(10, 5, 4)],
    "nonny/data/puzzles/color/test.non": [(2, 2, 4)],
    "nonny/data/puzzles/color/tree.non": [(10, 10, 3)],
    "nonogrid/examples/UK.toml": [(31, 15, 2)],
    "pynogram/pynogram/examples/uk.txt": [(31, 15, 2)],
    "colored-nonogram-solver/nonograms/0.cnon": [(13, 7, 5)],
    "colored-nonogram-solver/nonograms/1.cnon": [(5, 10, 2)],
}
REFUSED = {"color-nonogram/example.json": "whether blocks of different colours touch"}
NOT_PUZZLES = {"LICENSE", "COPYING", "SOURCE", "README.md", "Cargo.toml", "perf-color.csv"}
PNG_OF_XML = {
    # number-loom's SOURCE: which PNG goal has the clues of which XML puzzle
    "listen_left_and_right": "headphones",
    "little_hauler": "skid_steer",
    "look_sharp": "shirt_and_tie",
    "missing": "puzzle_piece",
    "take_two": "pill_bottles",
    "not_invented_yet_1": "fire_submarine",
}
NEAR_BLACK = {"#130801": "#000000"}
"""fire_submarine.png draws black as #130801 (SOURCE)."""


def folder(corpus: Path) -> Path:
    if not (corpus / COLOUR).is_dir():
        pytest.skip("no colour/ in this corpus")
    return corpus / COLOUR


def count_solutions(puzzle: Puzzle) -> int:
    """Solutions of a tiny puzzle, by trying every row that meets its clue (no solver)."""
    choices = []
    for r in range(puzzle.height):
        wanted = (puzzle.rows[r], puzzle.colours_of(True, r))
        cells = itertools.product(range(len(puzzle.palette)), repeat=puzzle.width)
        choices.append([row for row in cells if runs_of(row) == wanted])
    return sum(puzzle.satisfied_by(grid) for grid in itertools.product(*choices))


@pytest.mark.corpus
def test_every_colour_corpus_file_reads(corpus: Path) -> None:
    root = folder(corpus)
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and p.name not in NOT_PUZZLES}
    assert files == set(CORPUS_FILES) | set(REFUSED)
    for name, expected in CORPUS_FILES.items():
        puzzles = load_all(root / name)
        shapes = [(p.width, p.height, p.colour_count) for p in puzzles]
        assert shapes == expected, name
        for puzzle in puzzles:
            assert len(puzzle.rows) == puzzle.height and len(puzzle.columns) == puzzle.width, name
            assert not puzzle.problems(), (name, puzzle.problems())
            assert puzzle.is_colour == (puzzle.colour_count > 1), name
            if puzzle.goal is not None:
                assert puzzle.satisfied_by(puzzle.goal), name


@pytest.mark.corpus
def test_colour_json_outside_the_rules_is_refused(corpus: Path) -> None:
    for name, words in REFUSED.items():
        with pytest.raises(ParseError, match=words) as raised:
            load(folder(corpus) / name)
        assert raised.value.path == str(folder(corpus) / name) and raised.value.line == 11


@pytest.mark.corpus
def test_palettes_and_clues_read_as_the_files_say(corpus: Path) -> None:
    root = folder(corpus)
    rainbow = load(root / "nonny/data/puzzles/color/rainbow.non")
    assert [(c.name, c.rgb, c.char) for c in rainbow.palette][2:4] == [
        ("yellow", "#ffff00", "@"),
        ("green", "#50c878", "0"),
    ]
    assert rainbow.clue_text(True, 4) == "1red 1yellow 1green 1purple 1purple 1green 1yellow 1red"
    tree = load(root / "nonny/data/puzzles/color/tree.non")
    assert tree.clue_text(False, 0) == "1black" and tree.clue_text(False, 1) == "1green 1green 1black"
    raketa = load(root / "olsak-grid/raketa.g")
    assert [c.name for c in raketa.palette] == ["white", "red", "black"]
    assert raketa.clue_text(True, 0) == "1black 1red 1black" and raketa.height == 35
    dvekocky = load(root / "olsak-grid/dvekocky.g")
    assert [(c.name, c.rgb, c.char) for c in dvekocky.palette] == [
        ("white", "#ffffff", "+"),
        ("blue", "#0000ff", "@"),
        ("black", "#000000", "."),
    ]
    take_two = load(root / "number-loom/puzzles/take_two.xml")
    assert take_two.palette[0].rgb == "#ffffff" and take_two.palette[0].char == "."  # its char " " is no character
    assert take_two.author == "Paul Stansifer" and take_two.title == "Take two"
    uk_toml, uk_txt = load(root / "nonogrid/examples/UK.toml"), load(root / "pynogram/pynogram/examples/uk.txt")
    assert uk_toml == replace(uk_txt, source=uk_toml.source)
    assert [(c.name, c.char) for c in uk_toml.palette] == [("white", "."), ("blue", "*"), ("red", "%")]
    happy = load(root / "ianprime0509-nonograms/puzzles/easy.pbn#2")  # FILE#N picks the colour one
    assert happy.is_colour and happy.source is not None and happy.source.endswith("easy.pbn#2")
    two_blacks = load(root / "colored-nonogram-solver/nonograms/1.cnon")
    assert [(c.name, c.rgb) for c in two_blacks.palette[1:]] == [("B", "#000000"), ("G", "#000000")]


@pytest.mark.corpus
def test_number_loom_puzzles_have_the_clues_of_their_png_goals(corpus: Path) -> None:
    root = folder(corpus) / "number-loom"
    for xml_name, png_name in PNG_OF_XML.items():
        puzzle = load(root / "puzzles" / f"{xml_name}.xml")
        picture = load(root / "examples/png" / f"{png_name}.png")
        assert colour_clues(puzzle) == colour_clues(picture, NEAR_BLACK), xml_name
        assert picture.goal is not None
        index = {c.rgb: i for i, c in enumerate(puzzle.palette)}
        rgb = [NEAR_BLACK.get(c.rgb, c.rgb) for c in picture.palette]
        assert puzzle.satisfied_by(tuple(tuple(index[rgb[cell]] for cell in row) for row in picture.goal))


@pytest.mark.corpus
def test_the_small_ones_have_as_many_solutions_as_they_say(corpus: Path) -> None:
    """viceres.g says it has 4 different solutions; Nonny's 2x2 test has one (counted here without a solver)."""
    assert count_solutions(load(folder(corpus) / "olsak-grid/viceres.g")) == 4
    assert count_solutions(load(folder(corpus) / "nonny/data/puzzles/color/test.non")) == 1


@pytest.mark.corpus
def test_every_colour_puzzle_round_trips_xml_non_xml_json(corpus: Path) -> None:
    for name in CORPUS_FILES:
        for puzzle in load_all(folder(corpus) / name):
            clues = colour_clues(puzzle)
            non = loads(dumps(puzzle, "xml"), fmt="xml")
            again = loads(dumps(loads(dumps(non, "non"), fmt="non"), "xml"), fmt="xml")
            last = loads(dumps(again, "json"), fmt="json")
            assert colour_clues(non) == colour_clues(again) == colour_clues(last) == clues, name
            assert last.goal == puzzle.goal and [c.rgb for c in last.palette] == [c.rgb for c in puzzle.palette]
            for fmt in ("xml", "json", "g"):
                text = dumps(puzzle, fmt)
                kept = loads(text, fmt=fmt)
                assert kept.palette == puzzle.palette and colour_clues(kept) == clues, (name, fmt)
                assert detect_format(None, text) == fmt, (name, fmt)
                assert kept.goal == (puzzle.goal if "goal" in FORMATS[fmt].keeps else None), (name, fmt)
