"""Colour in every format, without the corpus (issue 16): what each format keeps of a colour
puzzle, the dialects of .non, webpbn XML, nonogrid's TOML, pynogram and JSON, and what a format
cannot hold is refused naming the file and line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from formats_shared import colour_clues

from nonosat.errors import ParseError, UsageError
from nonosat.formats import convert, detect_format, dropped_fields, dumps, load, load_all, loads
from nonosat.formats.jsonfmt import dump_solution_json
from nonosat.formats.nonogrid import load_nonogrid
from nonosat.model import Puzzle
from nonosat.palette import MAX_COLOURS, WHITE, Colour

RED, BLUE = Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b")
SMALL = Puzzle.from_grid([[1, 2, 0], [2, 2, 1], [0, 1, 1]], palette=(WHITE, RED, BLUE), title="Small")
"""Blocks of different colours touching, and two red blocks in a column."""


def test_a_colour_puzzle_keeps_what_each_format_says() -> None:
    for fmt in ("xml", "json", "non", "g"):
        again = loads(dumps(SMALL, fmt), fmt=fmt)
        assert colour_clues(again) == colour_clues(SMALL) and again.is_colour, fmt
        assert again.palette == (SMALL.palette if fmt != "non" else (WHITE, RED, Colour("blue", "#0000ff", "b")))
        assert again.title == (None if fmt == "g" else "Small"), fmt
        assert again.goal == (None if fmt == "g" else SMALL.goal), fmt
    assert dumps(SMALL, "non").splitlines()[3:6] == ["color r #ff0000", "color b #0000ff", ""]
    assert "2b,1r" in dumps(SMALL, "non") and "#d" in dumps(SMALL, "g")


def test_a_nonpack_holds_colour_puzzles(tmp_path: Path) -> None:
    path = tmp_path / "two.nonpack"
    path.write_text("====\n" + dumps(SMALL, "non") + "====\n" + dumps(Puzzle.from_grid([[1, 0]]), "non"))
    first, second = load_all(path)
    assert colour_clues(first) == colour_clues(SMALL) and first.goal == SMALL.goal and not second.is_colour
    assert load(f"{path}#1") == first


@pytest.mark.parametrize("fmt", ["nin", "tournament", "clues", "tatham", "mk"])
def test_black_and_white_formats_refuse_a_colour_puzzle(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(UsageError, match=f"cannot write a colour puzzle as {fmt}: the format holds black and white"):
        dumps(SMALL, fmt)
    source, target = tmp_path / "small.xml", tmp_path / "small.out"
    source.write_text(dumps(SMALL, "xml"))
    with pytest.raises(UsageError, match=fmt):
        convert(source, target, to=fmt)
    assert not target.exists()


def test_dropped_fields_name_colour_names_the_non_file_cannot_keep() -> None:
    assert dropped_fields(SMALL, "non") == []  # red and blue are their values' CSS names
    odd = Puzzle.from_grid([[1, 2]], palette=(WHITE, Colour("cherry", "#de3163", "c"), BLUE))
    assert dropped_fields(odd, "non") == ["colour names"]  # .non names colours by value
    assert [dropped_fields(odd, fmt) for fmt in ("xml", "json")] == [[], []]
    assert dropped_fields(odd, "g") == ["goal"]
    starred = Puzzle.from_grid([[1, 2]], palette=(WHITE, Colour("red", "#ff0000", "*"), Colour("blue", "#0000ff", "%")))
    assert dropped_fields(starred, "non") == ["colour characters"]  # a review: * and % came back r and b, unsaid
    assert loads(dumps(starred, "non"), fmt="non").palette != starred.palette
    assert dropped_fields(starred, "xml") == []


def test_nonogram_db_dialect() -> None:
    text = "width 3\nheight 2\ncolor a #ff0000\ncolor b #00ff00\ncolor 0 #eeeeee\n"
    text += 'rows\n1a,2b\n3\ncolumns\n1a,1\n1b,1\n1b,1\ngoal "abb111"\n'
    puzzle = loads(text, fmt="non")
    assert [(c.name, c.rgb, c.char) for c in puzzle.palette] == [
        ("background", "#eeeeee", "."),
        ("red", "#ff0000", "a"),
        ("lime", "#00ff00", "b"),
        ("black", "#000000", "1"),  # bare numbers and goal '1' are designation 1
    ]
    assert puzzle.goal == ((1, 2, 2), (3, 3, 3)) and puzzle.satisfied_by(puzzle.goal)
    assert "color 0 #eeeeee" in dumps(puzzle, "non")
    again = loads(dumps(puzzle, "non"), fmt="non")
    assert [(c.name, c.rgb) for c in again.palette] == [(c.name, c.rgb) for c in puzzle.palette]
    assert again.palette[3].char == "c"  # a digit cannot name a colour in a clue: 1 is written as c


def test_nonogram_db_designations_without_color_lines_get_spare_colours_and_with_them_are_refused() -> None:
    """FORMAT.md: designations "may be present even if no `color` keys were specified, in which
    case the puzzle interface can pick its own colors". Where `color` lines are given, one they
    do not declare is a typo: a review found `1c` among `color a` and `color b` made a third
    colour, and the verdict 'no solution'. A goal's such character leaves the goal unread."""
    bare = 'width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\ngoal "ab"\n'
    puzzle = loads(bare, fmt="non")
    assert [(c.name, c.char) for c in puzzle.palette[1:]] == [("a", "a"), ("b", "b")]  # spare colours
    assert puzzle.goal == ((1, 2),) and puzzle.palette[1].rgb == "#e6194b"
    declared = "width 2\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1a,1c\ncolumns\n1a\n1b\n"
    with pytest.raises(ParseError, match=r"found the designation 'c', which no `color` line declares \(a, b\)") as typo:
        loads(declared, fmt="non")
    assert typo.value.line == 6
    with pytest.raises(ParseError, match=r"designation .a., which no `color` line declares \(none but the background"):
        loads(bare.replace("rows", "color 0 #eeeeee\nrows"), fmt="non")  # a background's line is one too
    goal = loads(declared.replace("1a,1c", "1a,1b") + 'goal "az"\n', fmt="non")
    assert goal.goal is None and goal.goal_problem is not None and "'z'" in goal.goal_problem


def test_nonny_dialect() -> None:
    text = "width 2\nheight 2\ncolor red FF0000 r\ncolor blue #0000ff\n"
    text += "rows\nred 1 blue 1\n2\ncolumns\nred: 1, black 1\nblue 1 black 1\n"
    puzzle = loads(text, fmt="non")
    assert [c.name for c in puzzle.palette] == ["white", "red", "blue", "black"]  # a bare number is black
    assert puzzle.clue_text(False, 0) == "1red 1black"
    with pytest.raises(ParseError, match="found `color` lines of both") as raised:
        loads("color a #ff0000\ncolor red ff0000 r\n" + text, fmt="non")
    assert raised.value.line == 2


def test_webpbn_colour_attributes() -> None:
    text = """<puzzleset><puzzle defaultcolor="red" backgroundcolor="cream">
<color name="red" char="r">f00</color><color name="cream" char="-">FFFDD0</color>
<color name="sea blue" char="s">06c</color><color name="unused" char="u">123</color>
<clues type="rows"><line><count>1</count><count color="sea blue">1</count></line><line/></clues>
<clues type="columns"><line><count>1</count></line><line><count color="sea blue">1</count></line></clues>
<solution type="goal"><image>|rs|\n|--|</image></solution></puzzle></puzzleset>"""
    puzzle = loads(text, fmt="xml")
    assert [(c.name, c.rgb, c.char) for c in puzzle.palette] == [
        ("cream", "#fffdd0", "-"),  # the background first, wherever it is defined
        ("red", "#ff0000", "r"),
        ("sea-blue", "#0066cc", "s"),  # "unused" is left out
    ]
    assert puzzle.goal == ((1, 2), (0, 0)) and puzzle.satisfied_by(puzzle.goal)
    assert loads(dumps(puzzle, "xml"), fmt="xml") == puzzle


def test_webpbn_black_and_white_defined_beside_an_unused_colour_is_black_and_white() -> None:
    text = dumps(Puzzle.from_grid([[1, 0], [1, 1]]), "xml").replace(
        '<color name="black" char="X">000</color>',
        '<color name="black" char="X">000</color><color name="red">f00</color>',
    )
    assert not loads(text, fmt="xml").is_colour


def test_nonogrid_toml_and_pynogram_colours() -> None:
    toml = """[colors]\ndefs = ['g = (0, 204, 0) %', "r = (red) *"]\n"""
    toml += """[clues]\nrows = '''\n1g 1r\n0\n'''\ncolumns = "1g, 1r"\n"""
    puzzle = load_nonogrid(toml, "x.toml")
    assert [(c.name, c.rgb, c.char) for c in puzzle.palette] == [
        ("white", "#ffffff", "."),
        ("g", "#00cc00", "%"),
        ("red", "#ff0000", "*"),
    ]
    assert detect_format(None, toml) == "nonogrid"
    with pytest.raises(ParseError, match="no colour 'b'") as raised:
        load_nonogrid(toml.replace("1g 1r", "1g 1b"), "x.toml")
    assert raised.value.line == 5
    ini = "[colors]\ng = (0, 204, 0) %\nr = (red) *\n[clues]\ncolumns = 1g, 1r\nrows = 1g 1r, 0\n"
    assert loads(ini, fmt="pynogram") == replace(puzzle, source=None)


def test_colour_json_shape() -> None:
    text = dumps(SMALL, "json")
    assert '"palette": [\n    {"name": "white", "rgb": "#ffffff", "char": "."},' in text
    assert '[[1, "red"], [1, "blue"]]' in text and '"goal": [\n    "rb.",' in text
    bare = text.replace('[1, "red"]', "1")  # a bare number is the first colour
    assert loads(bare, fmt="json") == loads(text, fmt="json")
    with pytest.raises(ParseError, match="names 'green', a colour the palette lacks \\(red, blue\\)"):
        loads(text.replace('"blue"]', '"green"]'), fmt="json")
    with pytest.raises(ParseError, match="names 'white', the background, which no block has \\(red, blue\\)"):
        loads(text.replace('"blue"]', '"white"]'), fmt="json")
    with pytest.raises(ParseError, match='blocks such as \\[3, "red"\\]'):
        loads(text.replace('[1, "blue"]', "[1, 2, 3]"), fmt="json")
    # the error names the line of the clue at fault, not the line where "rows" begins (a review)
    rows = text.splitlines()
    at = next(n for n, line in enumerate(rows, start=1) if '"green"' in line.replace('"blue"]', '"green"]'))
    with pytest.raises(ParseError) as raised:
        loads(text.replace('"blue"]', '"green"]', 1), fmt="json")
    starts = next(n for n, line in enumerate(rows, start=1) if '"rows"' in line)
    assert raised.value.line == at and raised.value.line != starts
    solution = json.loads(dump_solution_json(SMALL, SMALL.goal, "unique"))
    assert solution["solution"] == ["rb.", "bbr", ".rr"] and solution["palette"][1]["name"] == "red"
    assert json.loads(dump_solution_json(Puzzle.from_grid([[1, 0]]), ((1, 0),), "unique"))["solution"] == ["#."]


MANY_NON = "".join(f"color {chr(0x100 + i)} #0000{i:02x}\n" for i in range(MAX_COLOURS + 1))
MANY_XML = "".join(f'<color name="c{i}">{i:03x}</color>\n' for i in range(MAX_COLOURS + 1))
ONE_BY_ONE = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
OUTSIDE_THE_RULES = [
    # (file name, content, line, words): triddlers, triangles, too many colours, colours not declared
    ("triddler.xml", '<puzzleset>\n<puzzle type="triddler"/>\n</puzzleset>', 2, "only grid puzzles"),
    ("triddler.g", "#t\n#d\n   a:a  red\n: rows\n1a\n: columns\n1a\n", 1, "triddler"),
    ("triangle.g", "#d\n   0:   white\n   a:<  black/white  <>\n: rows\n1a\n: columns\n1a\n", 3, "triangle cells"),
    ("digit.g", "#d\n   2:2  red\n: rows\n1\n: columns\n1\n", 2, "cannot be a digit"),
    ("colon.g", "x\n#d\n   r:r:&  red\n:rows\n1r\n:columns\n1r\n", 3, "colour name or a value such as #ff0000"),
    # a colour word or an empty value that names no colour got a colour of nonosat's own (a review)
    ("typo.g", "x\n#d\n   m:%  bleu\n:rows\n1m\n:columns\n1m\n", 3, "found 'bleu'"),
    (
        "empty.xml",
        '<puzzleset><puzzle>\n<color name="aF78900" char="a"></color>\n</puzzle></puzzleset>',
        2,
        "expected a colour value such as #ff0000 for 'aF78900', found none",
    ),
    ("many.non", MANY_NON + ONE_BY_ONE, MAX_COLOURS + 1, f"more than {MAX_COLOURS} colours"),
    ("many.xml", f"<puzzleset><puzzle>\n{MANY_XML}</puzzle></puzzleset>", MAX_COLOURS + 2, f"more than {MAX_COLOURS}"),
    ("background.xml", '<puzzleset>\n<puzzle backgroundcolor="cream">\n</puzzle></puzzleset>', 2, "no <color> defines"),
    (
        "block.xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line><count color="white">1</count></line></clues>\n'
        "</puzzle></puzzleset>",
        2,
        "background colour",
    ),
    ("bad-value.non", "width 1\nheight 1\ncolor red 12345G r\nrows\nred 1\ncolumns\nred 1\n", 3, "colour value"),
    ("cnon-name.cnon", "1 1 1\nR #ff0000\n1:G\n1:R\n", 3, "no colour 'G'"),
    (
        "json-name.json",
        '{"palette": [{"name": "white", "rgb": "#ffffff", "char": "."}, {"name": "red", "rgb": "#f00", "char": "r"}],'
        '\n "rows": [[[1, "purple"]]],\n "cols": [[[1, "red"]]]}',
        2,
        "rows[0] names 'purple', a colour the palette lacks (red)",
    ),
    ("squares.txt", "\u2b1b\u2b1c\n\u2b1bX\n", 2, "coloured squares"),
    # a colour defined twice: the XML's last definition won in silence (another picture), and
    # JSON blamed the first clue that named the colour the first definition was renamed from
    (
        "twice.xml",
        '<puzzleset><puzzle>\n<color name="red" char="r">f00</color>\n<color name="red" char="z">0f0</color>\n'
        "</puzzle></puzzleset>",
        3,
        "found colour 'red' declared a second time",
    ),
    (
        "twice.json",
        '{"rows": [[[1, "green"]]],\n "cols": [[[1, "red"]]],\n "palette": [{"name": "white", "rgb": "#fff",'
        ' "char": "."}, {"name": "red", "rgb": "#f00", "char": "r"}, {"name": "red", "rgb": "#0f0", "char": "g"}]}',
        3,
        "two colours have the name 'red'",
    ),
    (
        "palette.json",
        '{"rows": [[1]],\n "cols": [[1]],\n "palette": [{"name": "white", "rgb": "nope", "char": "."}]}',
        3,
        "RGB value",
    ),
]


@pytest.mark.parametrize(("name", "content", "line", "words"), OUTSIDE_THE_RULES, ids=[c[0] for c in OUTSIDE_THE_RULES])
def test_outside_the_rules_is_refused_naming_file_and_line(
    tmp_path: Path, name: str, content: str, line: int, words: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ParseError) as raised:
        load(path)
    assert raised.value.path == str(path) and raised.value.line == line, raised.value
    assert words in raised.value.expected, raised.value
