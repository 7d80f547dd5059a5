"""The seeds of the fuzz tests (tests/test_fuzz.py): small valid files of every format, as
text (the sample puzzles written in each format, hand-written files, and corpus files when the
corpus is there) and as images (PBM, and PNG, GIF and BMP pictures)."""

from __future__ import annotations

import functools
import io
import os
from pathlib import Path

import pytest

from nonosat import NonosatError, Puzzle
from nonosat.formats import FORMATS, dumps, load
from nonosat.formats.tournament import dump_tournament
from nonosat.formats.webpbn import dump_xml_all

ROOT = Path(__file__).resolve().parent.parent

HAND_WRITTEN = {
    "g": [
        "Text before the first colon is a comment.\n: rows\n1\n\n3\n: columns\n1 1\n1\n1\n: end\nignored\n",
        "#d\n   0:   white\n   1:*  black\n: rows\n2\n1,1\n: columns\n2\n1\n1\n",
        "#d\n   r:&  red  cervena\n   0:   white\n   b:b  #0000ff  blue\n: rows\n1r 1\n2b\n: columns\n1r 1b\n1 1b\n:\n",
    ],
    "cwd": ["3\n3\n1\n\n3\n\n1 1\n1\n1\n", "2\n3\n3\n1 1\n\n2\n1\n2\n\n"],
    "dzn": [
        (
            "X = 3;\nY = 3;\nmaxlen = 3;\nrows = [|1, -1, -1\n |0, -1, -1\n |1, 1, 1\n |];\n"
            "cols = [|1, 0, 1\n |1, -1, -1\n |1, -1, -1\n |];\n"
        ),
        (
            "% flat arrays\nmaxlen = 3;\nX = 3; Y = 3;\nrows = array2d(1..3, 1..3, [1, -1, -1, 0, -1, -1, 1, 1, 1]);\n"
            "cols = array2d(1..3, 1..3, [1, 0, 1, 1, -1, -1, 1, -1, -1]); /* done */\n"
        ),
    ],
    "pynogram": [
        "; a comment\n[colors]\n[clues]\nrows = 1,   # top\n   0,\n\n   '3'\ncolumns = \"1 1\", 1 ; left\n    1\n",
        "[clues]\ncolumns=3 1,1 1 1,1 1 1,1 3\nrows=4,1,4,1,4\n",
        "[colors]\nr = (red) *\n[clues]\ncolumns = 1r\nrows = 1r\n",
    ],
    "pycsp3-text": ["3 3\n1 1\n0\n1 3\n2 1 1\n1 1\n1 1\n", "2 2 1 2 1 1 1 1 1 1\n"],
    "nonpack": [],
    "tatham": ["3x3:1.1/1/1/1//3\n", "4x4:2/1/2/1/1.1/2/1/1\n"],
    "mk": ["3 3\n1\n0\n3\n#\n1 1\n1\n1\n"],
    "nin": ["3 3\n1\n0\n3\n1 1\n1\n1\n"],
    "tournament": ["$1\n1\t1\n1\n1\n1\n0\n3\n$2\r\n1\r\n1\r\n"],
    "pbm": ["P1\n# a comment\n3 3\n1 0 0\n000\n1 1 1\n", "P1 2 2 1 0 0 1"],
    "png": ["\x89PNG\r\n\x1a\n"],
    "clues": ["1\n-\n3\n\n1 1\n1\n1\n", "2\n1 1\n-\n\n1\n2\n1\n"],
    "json": [
        '{"rows": [[1], [], [3]], "cols": [[1, 1], [1], [1]], "title": "tiny"}',
        '{"rows": [[[1, "red"], 1], [[2, "blue"]]], "cols": [[[1, "red"], [1, "blue"]], [1, [1, "blue"]]],\n'
        ' "palette": [{"name": "white", "rgb": "#fff", "char": "."}, {"name": "red", "rgb": "#f00", "char": "r"},'
        ' {"name": "blue", "rgb": "#00f", "char": "b"}], "goal": ["r.", "bb"]}',
    ],
    "xml": [
        '<puzzleset><puzzle backgroundcolor="pink" defaultcolor="red">\n<color name="red" char="r">f00</color>'
        '<color name="pink" char=".">fcc</color><color name="blue" char="b">0000ff</color>\n<clues type="rows">'
        '<line><count>1</count><count color="blue">1</count></line><line><count color="blue">2</count></line>'
        '</clues>\n<clues type="columns"><line><count>1</count><count color="blue">1</count></line>'
        '<line><count color="blue">2</count></line></clues>\n<solution><image>|rb|\n|bb|</image></solution>'
        "</puzzle></puzzleset>\n"
    ],
    "nonogrid": [
        '[colors]\ndefs = ["b = (blue) *", \'r = (f00) %\']\n[clues]\nrows = """\n1r 1b\n2b\n"""\n'
        'columns = "1r 1b, 2b"\n',
        "[clues]\nrows = \"1, 0, 3\"\ncolumns = '''\n1 1 ; a comment\n1, 1\n'''\n",
    ],
    "cnon": [
        "2 2 2\nR #ff0000\nB #0000ff\n1:R,1:B\n2:B\n1:R,1:B\n2:B\n",
        "1 3 3\nB #000000\n1:B\n0\n3:B\n1:B,1:B\n1:B\n1:B\n",
    ],
    "squares": ["\u2b1b\U0001f7e5\n\U0001f7e6\u2b1c\n"],
    "non": [
        "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n",
        "color a #ff0000\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n",
        'width 2\nheight 2\ncolor 0 #eeeeee\nrows\n1a,1b\n2\ncolumns\n1a,1\n1b,1\ngoal "ab11"\n',
        "width 2\nheight 2\ncolor red FF0000 r\ncolor blue 0000FF\nrows\nred 1 blue 1\nblack 2\ncolumns\n"
        "red 1: black 1\nblue 1, black 1\n",
    ],
}
"""Small files for every format, hand-written: the read-only formats have no writer to make them."""

CORPUS_SEEDS = {
    "dzn": ["minizinc/non_micro.dzn", "minizinc/dom_06.dzn"],
    "pynogram": ["pynogram/domino.txt", "pynogram/hello.txt", "pynogram/apples.txt"],
    "g": ["colour/olsak-grid/raketa.g"],
    "non": ["webpbn/webpbn-00016-knot.non", "colour/nonny/data/puzzles/color/test.non"],
    "nonogrid": ["colour/nonogrid/examples/UK.toml"],
    "cnon": ["colour/colored-nonogram-solver/nonograms/0.cnon"],
    "squares": ["colour/number-loom/examples/char-grid/unicode_colors.txt"],
    "json": ["colour/color-nonogram/example.json"],
    "nin": ["jwilk/data000.nin", "jwilk/data012.nin"],
    "xml": ["colour/number-loom/puzzles/take_two.xml"],
}
"""Small real files, when the corpus is there (colour ones too)."""


@functools.cache
def sample_puzzles() -> tuple[Puzzle, ...]:
    """The sample puzzles of puzzles/, all small."""
    return tuple(load(path) for path in sorted((ROOT / "puzzles").glob("*.non")))


def clue_words(clue: tuple[int, ...]) -> str:
    return " ".join(map(str, clue))


def written(puzzle: Puzzle, fmt: str) -> str | None:
    """A puzzle in a format, by its writer or, for the formats nonosat only reads, by hand."""
    lines = [*puzzle.rows, *puzzle.columns]
    if FORMATS[fmt].dump is not None:
        try:
            return dumps(puzzle, fmt)
        except NonosatError:
            return None  # the tournament format holds only square puzzles
    if fmt == "g":
        return (
            ": rows\n"
            + "".join(f"{clue_words(c)}\n" for c in puzzle.rows)
            + ": columns\n"
            + "".join(f"{clue_words(c)}\n" for c in puzzle.columns)
        )
    if fmt == "cwd":
        rows, columns = ([clue_words(c) or "0" for c in clues] for clues in (puzzle.rows, puzzle.columns))
        return "\n".join([str(puzzle.height), str(puzzle.width), *rows, "", *columns]) + "\n"
    if fmt == "pycsp3-text":
        return f"{puzzle.height} {puzzle.width}\n" + "".join(
            f"{len(c)} {clue_words(c)}\n".replace(" \n", "\n") for c in lines
        )
    if fmt == "nonpack":
        return "====\n" + dumps(puzzle, "non")
    if fmt == "pbm" and puzzle.goal is not None:
        pixels = "\n".join(" ".join(map(str, row)) for row in puzzle.goal)
        return f"P1\n{puzzle.width} {puzzle.height}\n{pixels}\n"
    return None


@functools.cache
def text_seeds(fmt: str) -> tuple[str, ...]:
    """Valid texts of a format: the sample puzzles written in it, hand-written files, and corpus files."""
    puzzles = sample_puzzles()
    found = [text for puzzle in puzzles if (text := written(puzzle, fmt)) is not None]
    found += HAND_WRITTEN[fmt]
    if fmt == "tournament":
        found.append(dump_tournament(list(puzzles[:3])))
    if fmt == "xml":
        found.append(dump_xml_all(list(puzzles[:2])))
    if fmt == "nonpack":
        found.append("".join("====\n" + dumps(puzzle, "non") for puzzle in puzzles[:3]))
    corpus = Path(os.environ.get("NONOSAT_CORPUS", ROOT.parent / "shared" / "corpus"))
    for name in CORPUS_SEEDS.get(fmt, []):
        if (corpus / name).is_file():
            found.append((corpus / name).read_text(encoding="utf-8"))
    if fmt == "tournament" and (corpus / "tcga/question/taai2011.txt").is_file():
        whole = (corpus / "tcga/question/taai2011.txt").read_text()
        found.append(whole[: whole.index("\n$3\n") + 1])  # entries $1 and $2
    return tuple(found)


def png_of(goal: tuple[tuple[int, ...], ...], mode: str) -> bytes:
    from PIL import Image

    image = Image.new("L", (len(goal[0]), len(goal)))
    image.putdata([0 if cell else 255 for row in goal for cell in row])
    out = io.BytesIO()
    image.convert(mode).save(out, format="PNG")
    return out.getvalue()


def raw_pbm(goal: tuple[tuple[int, ...], ...]) -> bytes:
    width = len(goal[0])
    raster = bytearray()
    for row in goal:
        bits = "".join(map(str, row)) + "0" * (-width % 8)
        raster.extend(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8))
    return f"P4\n{width} {len(goal)}\n".encode() + bytes(raster)


@functools.cache
def byte_seeds(fmt: str) -> tuple[bytes, ...]:
    """Valid images: the goals of the sample puzzles as PBM (plain and raw) or PNG (grey, RGBA, 1-bit)."""
    goals = [puzzle.goal for puzzle in sample_puzzles() if puzzle.goal is not None]
    if fmt == "pbm":
        return tuple([text.encode() for text in text_seeds("pbm")] + [raw_pbm(goal) for goal in goals])
    pytest.importorskip("PIL")
    return tuple(png_of(goal, mode) for goal in goals[:3] for mode in ("L", "RGBA", "1")) + colour_pictures()


def colour_pictures() -> tuple[bytes, ...]:
    """A small colour picture (white, transparent, red, blue, a near-black) as PNG, GIF and BMP."""
    from PIL import Image

    image = Image.new("RGBA", (4, 3), (255, 255, 255, 255))
    for xy, colour in [((0, 0), (255, 0, 0, 255)), ((1, 0), (0, 0, 255, 255)), ((2, 1), (19, 8, 1, 255))]:
        image.putpixel(xy, colour)
    image.putpixel((3, 2), (0, 0, 0, 0))
    found = []
    for form, mode in (("PNG", "RGBA"), ("GIF", "P"), ("BMP", "RGB")):
        out = io.BytesIO()
        image.convert(mode).save(out, format=form)
        found.append(out.getvalue())
    return tuple(found)
