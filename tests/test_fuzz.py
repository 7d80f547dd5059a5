"""Fuzzing every reader (issue 14, item 20): mutants of small valid files give a Puzzle or a
ParseError naming the file, never another exception, whether read from text, from bytes or from
a file (`FILE#N` included); a puzzle that loads goes through `check` within its deadline.

Each test is bounded (a fixed number of examples, derandomized, so every run tries the same
mutants); `python -m bench.fuzz` runs 100,000 mutants of the whole corpus, and the command line
on a sample of them (see bench/README.md, "Fuzzing").
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, AnyStr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonosat import NonosatError, ParseError, Puzzle, check
from nonosat.formats import FORMATS, SUFFIXES, dumps, load, load_all, loads
from nonosat.formats.tournament import dump_tournament
from nonosat.formats.webpbn import dump_xml_all

ROOT = Path(__file__).resolve().parent.parent
NAME = "fuzzed/puzzle file.txt"
"""The path every text is read under: an error must name exactly this."""
CHECK_TIMEOUT = 0.5
"""Seconds: the deadline of `check` on a mutant that loads; it must return within it + 1 s."""
CHECKED_PER_MUTANT = 2

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
)


# --- the seeds: small valid files of every format ----------------------------------------------

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


# --- the mutations, as strategies (so that Hypothesis shrinks a failure to a small change) -------

HUGE = str(10**30)
TOKENS = [
    "0",
    "1",
    "9",
    "-1",
    "-",
    "+",
    HUGE,
    "9" * 5000,
    "1.5",
    "1e9",
    "nan",
    "#",
    "$",
    "$1",
    "$0",
    "[",
    "]",
    "[|",
    "{",
    "}",
    "<",
    ">",
    "</",
    "<line>",
    "<count>",
    "&amp;",
    "&#0;",
    "&bogus;",
    '"',
    "'",
    ",",
    ".",
    ":",
    ";",
    "=",
    "/",
    "|",
    "x",
    "====",
    "[clues]",
    "[colors]",
    "rows",
    "columns",
    "width",
    "height",
    "goal",
    ": rows",
    "#d",
    "#t",
    "P1",
    "P4",
    "1a",
    "3r",
    "5x5:",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\x0b",
    "\x0c",
    "é",
    "🙂",
    "²",
    "٣",
    "１",
    "\u202e",
    "\u2028",
    "\ufeff",
    "\u00a0",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\ud800",
]
NUMBERS = ["0", "1", "2", "3", "25", "26", "1024", "1025", "262144", "2147483648", HUGE, "-1", "00", "9" * 5000]
NESTING = ["[", "{", '{"a": ', "<a>", "(", "[|", "<p><q>"]
NUMBER = re.compile(r"[0-9]+")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

Draw = Callable[[st.SearchStrategy[Any]], Any]


def at(draw: Draw, length: int) -> int:
    return int(draw(st.integers(0, max(length, 0))))


def flip(draw: Draw, text: AnyStr) -> AnyStr:
    """Replace one character (or byte)."""
    i = at(draw, len(text) - 1)
    if isinstance(text, bytes):
        return text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1 :]
    return text[:i] + str(draw(st.characters())) + text[i + 1 :]


def delete(draw: Draw, text: AnyStr) -> AnyStr:
    i = at(draw, len(text))
    return text[:i] + text[i + int(draw(st.sampled_from([1, 2, 8, 64]))) :]


def insert(draw: Draw, text: AnyStr) -> AnyStr:
    """Insert a token: a digit, a huge number, a bracket, a quote, Unicode, NUL or a control character."""
    i = at(draw, len(text))
    token = str(draw(st.sampled_from(TOKENS) | st.text(max_size=3)))
    if isinstance(text, bytes):
        return text[:i] + token.encode("utf-8", "surrogatepass") + text[i:]
    return text[:i] + token + text[i:]


def duplicate(draw: Draw, text: AnyStr) -> AnyStr:
    i, j = at(draw, len(text)), at(draw, len(text))
    piece = text[i : i + int(draw(st.sampled_from([1, 8, 64])))]
    return text[:j] + piece * int(draw(st.sampled_from([1, 2, 10]))) + text[j:]


def truncate(draw: Draw, text: AnyStr) -> AnyStr:
    return text[: at(draw, len(text))]


def lines(draw: Draw, text: AnyStr) -> AnyStr:
    """Delete, duplicate, swap or repeat lines."""
    parts = text.splitlines(keepends=True)
    if not parts:
        return text
    i, j = at(draw, len(parts) - 1), at(draw, len(parts) - 1)
    how = draw(st.sampled_from(["delete", "duplicate", "swap", "repeat"]))
    if how == "delete":
        del parts[i]
    elif how == "duplicate":
        parts.insert(j, parts[i])
    elif how == "swap":
        parts[i], parts[j] = parts[j], parts[i]
    else:
        parts[i:i] = [parts[i]] * int(draw(st.sampled_from([10, 1000])))
    return text[:0].join(parts)


def number(draw: Draw, text: str) -> str:
    """Replace a number by a boundary, negative or huge one."""
    found = list(NUMBER.finditer(text))
    if not found:
        return insert(draw, text)
    match = found[at(draw, len(found) - 1)]
    new = str(draw(st.sampled_from(NUMBERS) | st.integers(-3, 40).map(str)))
    return text[: match.start()] + new + text[match.end() :]


def nest(draw: Draw, text: str) -> str:
    """Open brackets or tags deeply."""
    i = at(draw, len(text))
    return text[:i] + str(draw(st.sampled_from(NESTING))) * int(draw(st.sampled_from([10, 1000, 10_000]))) + text[i:]


TEXT_MUTATIONS = [flip, delete, insert, duplicate, truncate, lines, number, nest]
BYTE_MUTATIONS = [flip, delete, insert, duplicate, truncate, lines]


@st.composite
def text_mutants(draw: Draw, seeds: tuple[str, ...]) -> str:
    """A seed changed one to four times."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from(TEXT_MUTATIONS))(draw, text)
    return str(text)


def fix_png_checksums(data: bytes) -> bytes:
    """Recompute every whole chunk's CRC, so that the decoder, not the checksum, meets the change."""
    import zlib

    out, at_ = bytearray(data), len(PNG_MAGIC)
    while at_ + 12 <= len(data):
        length = int.from_bytes(data[at_ : at_ + 4], "big")
        if at_ + 12 + length > len(data):
            break
        out[at_ + 8 + length : at_ + 12 + length] = zlib.crc32(data[at_ + 4 : at_ + 8 + length]).to_bytes(4, "big")
        at_ += 12 + length
    return bytes(out)


@st.composite
def byte_mutants(draw: Draw, seeds: tuple[bytes, ...]) -> bytes:
    """An image changed one to four times; a PNG's header fields too, and its checksums fixed."""
    data = draw(st.sampled_from(seeds))
    is_png = data.startswith(PNG_MAGIC)
    if is_png and draw(st.booleans()):
        field, size = draw(st.sampled_from([(16, 4), (20, 4), (24, 1), (25, 1)]))
        value = draw(st.sampled_from([0, 1, 2, 3, 4, 6, 8, 16, 1025, 2**31, 2**32 - 1]))
        data = data[:field] + (value % 256**size).to_bytes(size, "big") + data[field + size :]
    for _ in range(draw(st.integers(0 if is_png else 1, 4))):
        data = draw(st.sampled_from(BYTE_MUTATIONS))(draw, data)
    return fix_png_checksums(data) if is_png and draw(st.booleans()) else bytes(data)


# --- the promises ------------------------------------------------------------------------------


def reads_or_refuses(read: Callable[[], Puzzle | list[Puzzle]], *paths: str) -> list[Puzzle]:
    """The puzzles a reader returns, or none when it refuses with a ParseError naming the file (one
    of `paths`: `FILE`, or `FILE#N` as given when that names no file); any other exception fails the
    test (a NonosatError that is not such a ParseError says so)."""
    try:
        result = read()
    except ParseError as error:
        assert error.path in paths, f"the ParseError names {error.path!r}, not {paths[0]!r}: {error}"
        return []
    except NonosatError as error:
        raise AssertionError(
            f"{type(error).__name__} escaped, not a ParseError naming {paths[0]!r}: {error}"
        ) from error
    puzzles = result if isinstance(result, list) else [result]
    assert puzzles and all(isinstance(puzzle, Puzzle) for puzzle in puzzles), result
    return puzzles


def checks_within_deadline(puzzles: list[Puzzle]) -> None:
    """`check` gives a verdict or a NonosatError; within its deadline it never guesses (what is not
    decided is "unknown"). How far past the deadline it ends is measured by `bench.fuzz`."""
    for puzzle in puzzles[:CHECKED_PER_MUTANT]:
        try:
            verdict = check(puzzle, timeout=CHECK_TIMEOUT)
        except NonosatError:
            continue
        assert verdict.status.value in {"unique", "multiple", "none", "unknown"}
        for solution in verdict.result.solutions:
            assert puzzle.satisfied_by(solution.grid)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FORMATS))
@FUZZ
@given(data=st.data())
def test_text_reader_survives_mutants(fmt: str, data: st.DataObject) -> None:
    text = data.draw(text_mutants(text_seeds(fmt)), label="text")
    puzzles = reads_or_refuses(lambda: loads(text, fmt=fmt, path=NAME), NAME)
    checks_within_deadline(puzzles)
    reads_or_refuses(lambda: loads(text, path=NAME), NAME)  # the format told by content, as for any .txt


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["pbm", "png"])
@FUZZ
@given(data=st.data())
def test_image_reader_survives_mutants(fmt: str, data: st.DataObject) -> None:
    load_bytes = FORMATS[fmt].load_bytes
    assert load_bytes is not None
    image = data.draw(byte_mutants(byte_seeds(fmt)), label="image")
    puzzles = reads_or_refuses(lambda: load_bytes(image, NAME), NAME)
    checks_within_deadline(puzzles)


SUFFIX_OF = {name: suffix for suffix, name in SUFFIXES.items()}
SELECTORS = ["1", "2", "3", "1000", "0", "-1", "", "x", "1.5", "٣", "²", "1#1"]


@pytest.mark.slow
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_files_and_selection_survive_mutants(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """Through files: `load_all(FILE)` and `load(FILE#N)` for every format, by suffix or by content."""
    fmt = data.draw(st.sampled_from(sorted(FORMATS)), label="format")
    if fmt in ("pbm", "png"):
        content = data.draw(byte_mutants(byte_seeds(fmt)), label="image")
    else:
        content = data.draw(text_mutants(text_seeds(fmt)), label="text").encode("utf-8", "surrogatepass")
    suffix = data.draw(st.sampled_from([SUFFIX_OF.get(fmt, ".txt"), ".txt", ""]), label="suffix")
    path = tmp_path_factory.getbasetemp() / f"fuzzed{suffix}"
    path.write_bytes(content)
    reads_or_refuses(lambda: load_all(path), str(path))
    selector = data.draw(st.sampled_from(SELECTORS), label="N")
    reads_or_refuses(lambda: load(f"{path}#{selector}"), str(path), f"{path}#{selector}")


FAILURES = ROOT / "bench" / "results" / "fuzz-failures"


@pytest.mark.parametrize(
    "path", sorted(p for p in FAILURES.glob("*") if not p.name.endswith(".note.txt")), ids=lambda p: p.name
)
def test_every_kept_fuzz_failure_is_now_refused_cleanly(path: Path) -> None:
    """The mutants that once gave a traceback or an unnamed message (bench/README.md, "Fuzzing")."""
    try:
        puzzles = load_all(path)
    except ParseError as error:
        assert error.path == str(path)
        assert "\n" not in str(error)
        return
    assert puzzles  # read: then it must be a puzzle
