"""The characters of a colour file's colours, never misread: one the file gives wins over a
default, two colours of one character are refused in every format (a background declared after
a colour of its character too), a character the reader chose is no duplicate, and black is
declared where a clue names it, never for an empty clue."""

from __future__ import annotations

import pytest

from nonosat.errors import ParseError
from nonosat.formats import dumps, loads
from nonosat.model import Puzzle


@pytest.mark.parametrize(
    ("colours", "goal", "cells"),
    [
        ('<color name="black">000</color><color name="red" char="X">f00</color>', "|X.|", ["red", "white"]),
        ('<color name="red" char=".">f00</color>', "|X.|", ["black", "red"]),
        ('<color name="red" char=".">f00</color><color name="white">fff</color>', "|X.|", ["black", "red"]),
    ],
)
def test_a_character_an_xml_file_gives_wins_over_a_default_one(colours: str, goal: str, cells: list[str]) -> None:
    """White's `.` and black's `X` are defaults: a file that gives one of them to another colour
    was refused ("the character 'X' given to colour 'black' and to 'red'"), or its goal's `.`
    cells read as white, the red declared for them dropped without a word."""
    text = XML_GOAL.format(colours=colours, goal=goal)
    puzzle = loads(text, fmt="xml")
    assert puzzle.goal is not None
    names = [colour.name for colour in puzzle.palette]
    assert [names[cell] for cell in puzzle.goal[0]] == cells
    assert [colour.char for colour in puzzle.palette].count("X") <= 1


XML_GOAL = """<puzzleset><puzzle type="grid" defaultcolor="black">{colours}
<clues type="columns"><line><count>1</count></line><line><count color="red">1</count></line></clues>
<clues type="rows"><line><count>1</count><count color="red">1</count></line></clues>
<solution type="goal"><image>{goal}</image></solution>
</puzzle></puzzleset>
"""


@pytest.mark.parametrize(
    ("fmt", "text", "said"),
    [
        (
            "g",
            "#d\n r:+  red\n 0:+  white\n: rows\n1r\n: columns\n1r\n",
            "line 3: .*'\\+' given to colour 'red' and to 'white'",
        ),
        (
            "non",
            "width 1\nheight 1\ncolor red FF0000 -\ncolor background FFFFFF -\nrows\nred 1\ncolumns\nred 1\n",
            "line 4: .*'-' given to colour 'red' and to 'background'",
        ),
    ],
)
def test_a_background_declared_after_a_colour_of_its_character_is_refused(fmt: str, text: str, said: str) -> None:
    """The review of the mend: checked only as colours were declared, a background declared
    after a colour of its character was let through."""
    with pytest.raises(ParseError, match=said):
        loads(text, fmt=fmt)


@pytest.mark.parametrize(
    ("fmt", "text", "said"),
    [
        (
            "g",
            "#d\n  r:r  red\n  b:r  blue\n: rows\n1r 1b\n: columns\n1r\n1b\n",
            "line 3: .*'r' given to colour 'red' and to 'blue'",
        ),
        (
            "g",
            "#d\n  0:. white\n  r:. red\n: rows\n1r\n: columns\n1r\n",
            "line 3: .*'.' given to colour 'white' and to 'red'",
        ),
        (
            "non",
            "width 2\nheight 1\ncolor red FF0000 r\ncolor blue 0000FF r\nrows\nred 1 blue 1\ncolumns\nred 1\nblue 1\n",
            "line 4: .*'r' given to colour 'red' and to 'blue'",
        ),
        (
            "nonogrid",
            "[colors]\ndefs = [\n    'b = (blue) *',\n    'r = (red) *',\n]\n"
            "[clues]\nrows = '1b 1r'\ncolumns = '1b, 1r'\n",
            "line 4: .*'\\*' given to colour 'blue' and to 'red'",
        ),
    ],
)
def test_two_colours_of_one_character_are_refused_in_every_format(fmt: str, text: str, said: str) -> None:
    """A review found the second colour of a character given another one without a word in the
    .g, Nonny .non and nonogrid TOML formats (a goal's cells of that character then read as the
    first), where XML and JSON refused it."""
    with pytest.raises(ParseError, match=said):
        loads(text, fmt=fmt)


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("cnon", "2 2 1\nblue #0000ff\nbrown #804000\n1:blue,1:brown\n1:blue\n1:brown\n"),
        ("non", "width 2\nheight 1\ncolor purple 800080 X\nrows\npurple 1 black 1\ncolumns\npurple 1\n1\n"),
        ("nonogrid", "[colors]\ndefs = ['r = (red) #']\n[clues]\nrows = '1r 1'\ncolumns = '1r, 1'\n"),
        ("g", "#d\n 1:. black\n r:r red\n: rows\n1r 1\n: columns\n1r\n1\n"),
        ("g", "#d\n 1:. black\n 0:+ white\n r:r red\n: rows\n1r 1\n: columns\n1r\n1\n"),  # dvekocky's, reordered
        (
            "g",
            "#d\n 0:. white\n 0:+ white\n 1:. black\n r:r red\n: rows\n1r 1\n: columns\n1r\n1\n",
        ),  # the last 0: holds
        ("non", "width 2\nheight 1\ncolor red FF0000 .\ncolor background FFFFFF -\nrows\nred 1 1\ncolumns\nred 1\n1\n"),
    ],
)
def test_a_character_the_file_never_gave_twice_is_no_duplicate(fmt: str, text: str) -> None:
    """The review of the mend: characters the reader chose (cnon's first letters, a bare
    number's black, the background unless declared) were refused as given twice; they take a
    spare one, as before."""
    puzzle = loads(text, fmt=fmt)
    chars = [colour.char for colour in puzzle.palette]
    assert len(puzzle.palette) == 3 and len(set(chars)) == 3, puzzle.palette


def test_black_is_declared_where_a_clue_names_it_and_never_for_an_empty_clue() -> None:
    """A review: with black declared for bare numbers only when a clue had one, `1black` (and
    nonogrid's `1B`) before any bare number was "no colour 'black' is declared"; and a bare `0`
    (an empty clue) still declared black, a 63rd colour of a 62-colour file."""
    from nonosat.generate.random_picture import random_palette

    named = loads("[clues]\ncolumns = 1black, 1\nrows = 1black 1\n", fmt="pynogram")
    assert named.rows == ((1, 1),) and len(named.palette) == 2
    toml = '[colors]\ndefs = ["r = (red) %"]\n[clues]\ncolumns = """\n1B\n1r\n"""\nrows = """\n1B 1r\n"""\n'
    assert len(loads(toml, fmt="nonogrid").palette) == 3
    grid = tuple(tuple((r * 8 + c) % 63 for c in range(8)) for r in range(8)) + ((0,) * 8,)
    full = Puzzle.from_grid(grid, random_palette(62))  # every colour, and an empty row
    for fmt, text in (("g", dumps(full, "g").replace("\n\n:", "\n0\n:")), ("non", dumps(full, "non"))):
        read = loads(text, fmt=fmt)
        assert (read.rows, read.columns, len(read.palette)) == (full.rows, full.columns, 63), fmt
