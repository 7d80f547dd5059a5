"""Colour in every format (issue 16): every colour file of the corpus reads with its palette and
clues, goals satisfy their clues, number-loom's XML puzzles have the clues of their PNG goals,
colour round-trips through XML, .non, .g and JSON, and what a format cannot hold is refused."""

from __future__ import annotations

import io
import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest

from nonosat.errors import ParseError, UsageError
from nonosat.formats import FORMATS, convert, detect_format, dropped_fields, dumps, load, load_all, loads
from nonosat.formats.jsonfmt import dump_solution_json
from nonosat.formats.nonogrid import load_nonogrid
from nonosat.model import Puzzle, runs_of
from nonosat.palette import MAX_COLOURS, WHITE, Colour

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


def colour_clues(puzzle: Puzzle, rename: dict[str, str] | None = None) -> tuple[object, ...]:
    """Every clue with each block's colour as its RGB value (so palettes in another order compare)."""
    rgb = [(rename or {}).get(colour.rgb, colour.rgb) for colour in puzzle.palette]
    lines = [(True, i) for i in range(puzzle.height)] + [(False, i) for i in range(puzzle.width)]
    return tuple(
        tuple(zip(clue, (rgb[c] for c in puzzle.colours_of(is_row, i)), strict=True))
        for is_row, i in lines
        for clue in [puzzle.rows[i] if is_row else puzzle.columns[i]]
    )


def count_solutions(puzzle: Puzzle) -> int:
    """Solutions of a tiny puzzle, by trying every row that meets its clue (no solver)."""
    choices = []
    for r in range(puzzle.height):
        wanted = (puzzle.rows[r], puzzle.colours_of(True, r))
        cells = itertools.product(range(len(puzzle.palette)), repeat=puzzle.width)
        choices.append([row for row in cells if runs_of(row) == wanted])
    return sum(puzzle.satisfied_by(grid) for grid in itertools.product(*choices))


# --- the corpus --------------------------------------------------------------------------------


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


# --- without the corpus ------------------------------------------------------------------------

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


def test_nonogram_db_dialect() -> None:
    text = "width 3\nheight 2\ncolor a #ff0000\ncolor 0 #eeeeee\n"
    text += 'rows\n1a,2b\n3\ncolumns\n1a,1\n1b,1\n1b,1\ngoal "abb111"\n'
    puzzle = loads(text, fmt="non")
    assert [(c.name, c.rgb, c.char) for c in puzzle.palette] == [
        ("background", "#eeeeee", "."),
        ("red", "#ff0000", "a"),
        ("b", "#e6194b", "b"),  # a designation without a `color` line gets a spare colour
        ("black", "#000000", "1"),  # bare numbers and goal '1' are designation 1
    ]
    assert puzzle.goal == ((1, 2, 2), (3, 3, 3)) and puzzle.satisfied_by(puzzle.goal)
    assert "color 0 #eeeeee" in dumps(puzzle, "non")
    again = loads(dumps(puzzle, "non"), fmt="non")
    assert [(c.name, c.rgb) for c in again.palette] == [(c.name, c.rgb) for c in puzzle.palette]
    assert again.palette[3].char == "c"  # a digit cannot name a colour in a clue: 1 is written as c


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
    with pytest.raises(ParseError, match='blocks such as \\[3, "red"\\]'):
        loads(text.replace('"blue"]', '"green"]'), fmt="json")
    solution = json.loads(dump_solution_json(SMALL, SMALL.goal, "unique"))
    assert solution["solution"] == ["rb.", "bbr", ".rr"] and solution["palette"][1]["name"] == "red"
    assert json.loads(dump_solution_json(Puzzle.from_grid([[1, 0]]), ((1, 0),), "unique"))["solution"] == ["#."]


def test_colour_pictures(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.new("RGB", (3, 2), (255, 255, 255))
    for xy, colour in [((0, 0), (255, 0, 0)), ((1, 0), (0, 0, 255)), ((2, 1), (255, 0, 0))]:
        image.putpixel(xy, colour)
    for suffix, form in ((".png", "PNG"), (".gif", "GIF"), (".bmp", "BMP"), (".webp", "WEBP"), ("", "PNG")):
        path = tmp_path / f"picture{suffix}"
        image.save(path, format=form, **({"lossless": True} if form == "WEBP" else {}))
        puzzle = load(path)
        assert [(c.name, c.rgb) for c in puzzle.palette] == [
            ("white", "#ffffff"),
            ("red", "#ff0000"),
            ("blue", "#0000ff"),
        ]
        assert puzzle.goal == ((1, 2, 0), (0, 0, 1)), suffix
    see_through = image.convert("RGBA")
    see_through.putpixel((0, 1), (0, 0, 255, 0))  # transparent: blank, whatever its colour
    see_through.save(tmp_path / "alpha.png")
    assert load(tmp_path / "alpha.png").goal == ((1, 2, 0), (0, 0, 1))


def test_a_picture_of_greys_stays_black_and_white(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    grey = image_module.new("RGB", (2, 1), (200, 200, 200))
    grey.putpixel((0, 0), (60, 60, 60))
    grey.save(tmp_path / "grey.png")
    assert not load(tmp_path / "grey.png").is_colour and load(tmp_path / "grey.png").goal == ((1, 0),)


def test_a_picture_of_too_many_colours_is_refused(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.new("RGB", (MAX_COLOURS + 1, 1))
    image.putdata([(i, 100, 200) for i in range(MAX_COLOURS + 1)])
    image.save(tmp_path / "many.png")
    with pytest.raises(ParseError, match=f"more than {MAX_COLOURS} colours") as raised:
        load(tmp_path / "many.png")
    assert raised.value.path == str(tmp_path / "many.png")


MANY_NON = "".join(f"color {chr(0x100 + i)} #0000{i:02x}\n" for i in range(MAX_COLOURS + 1))
MANY_XML = "".join(f'<color name="c{i}">{i:03x}</color>\n' for i in range(MAX_COLOURS + 1))
ONE_BY_ONE = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
OUTSIDE_THE_RULES = [
    # (file name, content, line, words): triddlers, triangles, too many colours, colours not declared
    ("triddler.xml", '<puzzleset>\n<puzzle type="triddler"/>\n</puzzleset>', 2, "only grid puzzles"),
    ("triddler.g", "#t\n#d\n   a:a  red\n: rows\n1a\n: columns\n1a\n", 1, "triddler"),
    ("triangle.g", "#d\n   0:   white\n   a:<  black/white  <>\n: rows\n1a\n: columns\n1a\n", 3, "triangle cells"),
    ("digit.g", "#d\n   2:2  red\n: rows\n1\n: columns\n1\n", 2, "cannot be a digit"),
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
    ("squares.txt", "\u2b1b\u2b1c\n\u2b1bX\n", 2, "coloured squares"),
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


def test_a_picture_in_bytes_is_known_without_its_suffix() -> None:
    from nonosat.formats.image import is_picture

    image_module = pytest.importorskip("PIL.Image")
    for form in ("PNG", "GIF", "BMP", "WEBP"):
        out = io.BytesIO()
        image_module.new("RGB", (2, 2)).save(out, format=form)
        assert is_picture(out.getvalue()), form
    assert not is_picture(b"BMW 3 series\n") and not is_picture(b"width 1\n")
