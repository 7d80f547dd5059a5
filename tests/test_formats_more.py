"""The newer formats: webpbn XML, Olšák .mk/.g, CWD, MiniZinc, pynogram, PyCSP3 text, .nonpack,
Tatham game IDs and images; every writer round-trips the corpus, and `convert` drops fields
out loud."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.errors import ParseError, UsageError
from nonosat.formats import (
    FIELDS,
    FORMATS,
    SUFFIXES,
    convert,
    detect_format,
    dropped_fields,
    dumps,
    load,
    load_all,
    load_dzn_solution,
    loads,
    save,
)
from nonosat.formats.non import dump_non
from nonosat.formats.tatham import is_game_id
from nonosat.formats.tournament import load_tournament_all, load_tournament_solutions
from nonosat.formats.webpbn import dump_xml_all, load_xml_all
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
DANCER_ID = "5x10:2.1/2.1.3/7/1.3/2.1/2/2.1/1.1/3/1.1/1.1/2/1.1/1.2/2"
BELLA = "4x4:2/1/2/1/1.1/2/1/1"
"""Tatham's example of a unique puzzle that line-by-line logic cannot start on."""

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)))
"""Rows 1 / empty / 3: the picture #.. / ... / ###."""
TINY_GOAL = ((1, 0, 0), (0, 0, 0), (1, 1, 1))
FULL = Puzzle(
    rows=TINY.rows,
    columns=TINY.columns,
    title='Tiny <&> "quoted"',
    author="Ann Author",
    copyright="© 2024 Ann",
    license="CC0-1.0",
    catalogue="#1",
    goal=TINY_GOAL,
)
"""TINY with every optional field."""

WRITERS = sorted(name for name, form in FORMATS.items() if form.dump is not None)
READ_ONLY = sorted(name for name, form in FORMATS.items() if form.dump is None)
TOURNAMENT_PUZZLES = 20
"""Tournament files hold 1,000 puzzles each; the first 20 of each keep the solution tests quick."""
TOURNAMENT_STEP = 25
"""Every 25th puzzle of each tournament file (40 of its 1,000, spread over the whole file) is
round-tripped here; `python -m bench.round_trips` does all 24,000 (see bench/README.md)."""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def clues_of(puzzle: Puzzle) -> tuple[object, object]:
    return puzzle.rows, puzzle.columns


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
            continue  # the colour puzzles, in formats of their own: see tests/test_colour_formats.py
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


@pytest.mark.parametrize("name", WRITERS)
def test_each_writer_keeps_what_it_says(name: str) -> None:
    again = loads(dumps(FULL, name), fmt=name)
    for field in FIELDS:
        if field in FORMATS[name].keeps:
            assert getattr(again, field) == getattr(FULL, field), field
        elif (name, field) != ("tournament", "title"):  # the tournament format names each puzzle #N
            assert getattr(again, field) is None, field
    assert dropped_fields(FULL, name) == [field for field in FIELDS if field not in FORMATS[name].keeps]


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_formats_cannot_be_written(name: str) -> None:
    with pytest.raises(UsageError, match=f"cannot write {name}"):
        dumps(TINY, name)


# --- every reader on a small sample, found by content as well as by name -----------------------

SAMPLES = {
    "xml": dumps(TINY, "xml"),
    "mk": "3 3\n1\n0\n3\n#\n1 1\n1\n1\n",
    "g": "Text before the first colon is a comment.\n: rows\n1\n\n3\n: columns\n1 1\n1\n1\n: end\nignored\n",
    "cwd": "3\n3\n1\n\n3\n\n1 1\n1\n1\n",
    "dzn": (
        "X = 3;\nY = 3;\nmaxlen = 3;\n"
        "rows = [|1, -1, -1\n |0, -1, -1\n |1, 1, 1\n |];\n"
        "cols = [|1, 0, 1\n |1, -1, -1\n |1, -1, -1\n |];\n"
    ),
    "pynogram": (
        "; the file format of pynogram's hello.txt\n[colors]\n[clues]\n"
        "rows = 1,   # top\n   0,\n\n   # a comment inside the block\n   '3'\n"
        'columns = "1 1", 1 ; left\n    1\n'
    ),
    "pycsp3-text": "3 3\n1 1\n0\n1 3\n2 1 1\n1 1\n1 1\n",
    "nonpack": "====\n" + dump_non(TINY) + "====\n",
    "tatham": "3x3:1.1/1/1/1//3\n",
    "pbm": "P1\n# a comment\n3 3\n1 0 0\n000\n1 1 1\n",
    "nonogrid": '# nonogrid\'s TOML\n[clues]\nrows = """\n1\n0  # empty\n3\n"""\ncolumns = "1 1, 1, 1"\n',
    "cnon": "1 3 3\nB #000000\n1:B\n0\n3:B\n1:B,1:B\n1:B\n1:B\n",
    "squares": "\u2b1b\u2b1c\u2b1c\n\u2b1c\u2b1c\u2b1c\n\u2b1b\u2b1b\u2b1b\n",
}


def test_every_format_has_a_sample() -> None:
    assert set(SAMPLES) | {"png", "non", "nin", "json", "clues", "tournament"} == set(FORMATS)


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("suffix", ["named", ".txt", ""])
def test_sample_reads_by_suffix_or_content(tmp_path: Path, name: str, suffix: str) -> None:
    real = next((s for s, n in SUFFIXES.items() if n == name), ".txt")
    path = tmp_path / f"tiny{real if suffix == 'named' else suffix}"
    path.write_text(SAMPLES[name])
    assert detect_format(path, SAMPLES[name]) == name
    assert clues_of(load(path)) == clues_of(TINY)


def test_dzn_reads_array2d_and_comments() -> None:
    text = (
        "% TINY, with flat arrays\nmaxlen = 3;\nX = 3; Y = 3;\n"
        "rows = array2d(1..3, 1..3, [1, -1, -1, 0, -1, -1, 1, 1, 1]);\n"
        "cols = array2d(1..3, 1..3, [1, 0, 1, 1, -1, -1, 1, -1, -1]); /* done */\n"
    )
    assert clues_of(loads(text, fmt="dzn")) == clues_of(TINY)
    with pytest.raises(ParseError, match="X and Y") as raised:
        loads(text.replace("Y = 3", "Y = 4"), fmt="dzn")
    assert raised.value.line == 3


def test_pictures_are_their_puzzles_goal(tmp_path: Path) -> None:
    path = tmp_path / "tiny.pbm"
    path.write_text(SAMPLES["pbm"])
    assert load(path) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL)


# --- webpbn XML ---------------------------------------------------------------------------------

HAND_WRITTEN_XML = """\
<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>https://webpbn.com</source>
<author>Set Author</author>
<puzzle type="grid" defaultcolor="black">
<source>https://webpbn.com</source>
<id>#9999</id>
<title>Corner &amp; bar</title>
<copyright>&copy; 2024 Someone</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>1</count><count>1</count></line>
<line><count>1</count></line>
<line>
  <count>1</count>
</line>
</clues>
<clues type="rows">
<line><count>1</count></line>
<line></line>
<line><count>3</count></line>
</clues>
<solution type="goal">
<image>
|X..|
|...|
|XXX|
</image>
</solution>
<note>Notes are ignored.</note>
</puzzle>
</puzzleset>
"""


def test_hand_written_webpbn_xml_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "corner.xml"
    path.write_text(HAND_WRITTEN_XML)
    expected = Puzzle(
        rows=TINY.rows,
        columns=TINY.columns,
        title="Corner & bar",
        author="Set Author",  # from the puzzle set, since the puzzle names none
        copyright="© 2024 Someone",
        catalogue="#9999",
        goal=TINY_GOAL,
    )
    assert load(path) == expected
    assert loads(dumps(expected, "xml")) == expected


def test_webpbn_xml_written_by_nonosat_reads_back(tmp_path: Path) -> None:
    dancer = load(DANCER)
    save(dancer, tmp_path / "dancer.xml")
    assert load(tmp_path / "dancer.xml") == dancer


def test_webpbn_xml_goal_alone_gives_the_clues_and_rows_may_share_bars() -> None:
    text = "<puzzleset><puzzle><solution><image>|X..|...|XXX|</image></solution></puzzle></puzzleset>"
    assert loads(text) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL)


def test_webpbn_puzzle_set_selects_with_hash_n(tmp_path: Path) -> None:
    path = tmp_path / "set.xml"
    dancer = load(DANCER)
    path.write_text(dump_xml_all([dancer, Puzzle(rows=TINY.rows, columns=TINY.columns, title="Tiny")]))
    puzzles = load_all(path)
    assert [p.title for p in puzzles] == ["Dancer", "Tiny"]
    assert [p.source for p in puzzles] == [f"{path}#1", f"{path}#2"]
    assert load(f"{path}#2") == puzzles[1]
    with pytest.raises(ParseError, match=r"holds 2 puzzles; select one as FILE#N"):
        load(path)
    with pytest.raises(ParseError, match=r"no puzzle #3"):
        load(f"{path}#3")
    assert len(load_xml_all(path.read_text())) == 2


def test_nonpack_selects_with_hash_n(tmp_path: Path) -> None:
    path = tmp_path / "two.nonpack"
    path.write_text(dump_non(load(DANCER)) + "====\n" + dump_non(TINY))
    dancer, tiny = load_all(path)
    assert dancer.title == "Dancer" and clues_of(tiny) == clues_of(TINY)
    assert load(f"{path}#2") == tiny and tiny.source == f"{path}#2"


# --- Tatham game IDs ---------------------------------------------------------------------------


def test_game_id_on_the_command_line() -> None:
    code, stdout, _ = run("solve", DANCER_ID, "--ascii")
    assert code == 0 and "unique" in stdout
    code, stdout, _ = run("check", BELLA)
    assert code == 0 and "unique · CDCL" in stdout
    assert clues_of(load(DANCER_ID)) == clues_of(load(DANCER))
    assert load_all(BELLA) == [load(BELLA)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (DANCER_ID, True),
        (BELLA, True),
        ("3x3:1.1/1/1/1//3", True),
        ("1x1:1/1", True),
        ("5x5", False),
        ("5x5#12345", False),
        ("5:1/1/1/1/1/1/1/1/1/1", False),
        ("5x5:2/a/3", False),
        ("dancer.non", False),
        ("puzzles/x:1/2", False),
    ],
)
def test_game_id_detection_is_strict(text: str, expected: bool) -> None:
    assert is_game_id(text) is expected


def test_bad_game_id_is_one_line_exit_2() -> None:
    code, _, stderr = run("solve", "5x5:2/1.1/3")
    assert code == 2
    assert stderr == "nonosat: 5x5:2/1.1/3: expected 5 + 5 = 10 clues separated by '/', found 3\n"
    code, _, stderr = run("solve", "5x5:2")  # not a game ID, nor a file: told what is wrong with it
    assert code == 2 and stderr == "nonosat: 5x5:2: expected 5 + 5 = 10 clues separated by '/', found 1\n"
    code, _, stderr = run("solve", "4x4:a/b/c/d/e/f/g/h")
    assert code == 2 and "expected a clue like 2.1" in stderr and "found 'a'" in stderr
    code, _, stderr = run("solve", "0x0:")
    assert code == 2 and "expected the width as a whole number of at least 1, found '0'" in stderr


# --- images ------------------------------------------------------------------------------------


def test_raw_pbm_reads_padded_rows(tmp_path: Path) -> None:
    path = tmp_path / "bar.pbm"
    path.write_bytes(b"P4\n# ten wide\n10 2\n" + bytes([0b11000000, 0b01000000, 0b00000000, 0b10000000]))
    puzzle = load(path)
    assert puzzle.goal == ((1, 1, 0, 0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 0, 0, 1, 0))
    assert puzzle.rows == ((2, 1), (1,)) and puzzle.source == str(path)


def test_png_dark_opaque_pixels_are_filled(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    pixels = [
        (0, 0, 0, 255),
        (255, 255, 255, 255),
        (127, 127, 127, 255),
        (128, 128, 128, 255),
        (0, 0, 0, 0),
        (0, 0, 0, 1),
    ]
    image = image_module.new("RGBA", (3, 2))
    image.putdata(pixels)
    path = tmp_path / "pixels.png"
    image.save(path)
    assert load(path).goal == ((1, 0, 1), (0, 0, 1))
    grey = image_module.new("L", (3, 3), 255)
    for xy in [(0, 0), (0, 2), (1, 2), (2, 2)]:
        grey.putpixel(xy, 0)
    unnamed = tmp_path / "grey"  # no suffix: recognised by its first bytes
    grey.save(unnamed, format="PNG")
    assert load(unnamed) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL, source=str(unnamed))


def test_png_without_pillow_gives_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "any.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(UsageError, match=re.escape("pip install 'nonosat[image]'")):
        load(path)
    code, _, stderr = run("solve", str(path))
    assert code == 2 and stderr.count("\n") == 1 and "nonosat[image]" in stderr


# --- bad input ---------------------------------------------------------------------------------

COUNT_COLOUR_XML = HAND_WRITTEN_XML.replace(
    "<line><count>1</count></line>\n<line></line>", '<line><count color="red">1</count></line>\n<line></line>'
)
PNG_GARBAGE = b"\x89PNG\r\n\x1a\n" + b"\x00" * 20

BAD_FILES = [
    # (file name, content, line of the error or None, words the message must hold)
    ("broken.xml", "<puzzleset>\n<puzzle>\n</puzzleset>\n", 3, "well-formed XML"),
    ("root.xml", "<?xml version='1.0'?>\n<puzzles/>\n", 2, "<puzzleset>"),
    ("count-colour.xml", COUNT_COLOUR_XML, 21, "found the colour 'red', which no <color> defines"),
    ("count.xml", HAND_WRITTEN_XML.replace("<count>3</count>", "<count>three</count>"), 23, "'three'"),
    ("triddler.xml", '<puzzleset>\n<puzzle type="triddler"/>\n</puzzleset>', 2, "only grid puzzles"),
    ("letters.mk", "3 3\n1\n0\n3\n#\n1 1\n1 x\n1\n", 7, "found 'x'"),
    ("short.mk", "3 3\n1\n#\n1 1\n1\n1\n", 3, "expected 3 row clues, found 1 before '#'"),
    ("nohash.mk", "1 1\n1\n1\n", 3, "'#'"),
    ("letters.g", ": rows\n1\n: columns\n1 x\n", 4, "found 'x'"),
    ("triangle.g", "#d\n   a:a  black/white\n: rows\n1a\n: columns\n1a\n", 2, "triangle cells"),
    ("colour-clue.g", ": rows\n1 2m\n: columns\n1\n", 2, "found '2m' (no colour 'm' is declared)"),
    ("triddler.g", "#t\n: rows\n1\n: columns\n1\n", 1, "triddler"),
    ("one-colon.g", "comment\n: rows\n1\n", 2, "': columns'"),
    ("separator.cwd", "3\n3\n1\n\n3\nx\n1 1\n1\n1\n", 6, "a blank line after the 3 row clues"),
    ("size.cwd", "3 3\n1\n", 1, "height"),
    ("pattern.dzn", "rows = [|1, 0, 0, 1\n |1, -1, -1, -1|];\ncols = [|1|];\n", 1, "minimal 0/1 pattern"),
    ("padding.dzn", "rows = [|1, -1\n |1, 1|];\ncols = [|1, -1\n |-1, 1|];\n", 4, "padded with -1"),
    ("syntax.dzn", "X = 3;\nrows = [|1, -1\n |1 1|];\n", 3, "expected ','"),
    ("letters.txt", "[clues]\ncolumns = 1, x\nrows = 1\n", 2, "found 'x'"),
    ("colour.txt", "[colors]\nr = (red) *\n[clues]\ncolumns = 1x\nrows = 1r\n", 4, "no colour 'x' is declared"),
    ("nosection.txt", "columns = 1\n[clues]\n", 1, "section header"),
    ("setting.txt", "[clues]\ncolumns = 1\nrows\n", 3, "'name = value'"),
    ("pycsp3.txt", "2 2\n1 1\n1 x\n1 1\n1 1\n", 3, "found 'x'"),
    ("pycsp3-short.txt", "2 2\n1 1\n1 1\n1 1\n", 4, "the file ends"),
    ("second.nonpack", dump_non(TINY) + "====\nwidth 1\nheight 1\nrows\nx\ncolumns\n1\n", 17, "found 'x'"),
    ("game.txt", "3x3:1.1/1/1/1/3\n", 1, "expected 3 + 3 = 6 clues"),
    ("zero.txt", "3x3:1.1/1/1/1/0/3\n", 1, "found '0'"),
    ("given.txt", "3x3:1.1/1/1/1//3,aB\n", 1, "given squares"),
    ("header.pbm", "P1\n3 x\n1 0 0\n", 2, "height"),
    ("pixel.pbm", "P1\n3 1\n1 0\n2\n", 4, "found '2' after 2"),
    ("raw.pbm", b"P4\n8 2\n\xff", 2, "expected 2 bytes of pixels"),
    ("garbage.png", PNG_GARBAGE, None, "Pillow cannot read"),
]


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("image.xml", HAND_WRITTEN_XML.replace("|...|", "|.?.|"), "line 28: expected a goal cell"),
        ("width.xml", HAND_WRITTEN_XML.replace("|...|", "|....|"), "line 28: expected 3 cells"),
    ],
)
def test_a_bad_xml_goal_names_its_line_and_leaves_the_puzzle(
    tmp_path: Path, name: str, content: str, problem: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    puzzle = load(path)
    assert puzzle.goal is None and puzzle.goal_problem is not None and puzzle.goal_problem.startswith(problem)


@pytest.mark.parametrize(("name", "content", "line", "words"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_file_names_path_and_line(
    tmp_path: Path, name: str, content: str | bytes, line: int | None, words: str
) -> None:
    if name.endswith(".png"):
        pytest.importorskip("PIL")
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(ParseError) as raised:
        load(path)
    assert (raised.value.path, raised.value.line) == (str(path), line)
    assert words in raised.value.expected
    code, stdout, stderr = run("solve", str(path))
    assert code == 2 and stdout == ""
    assert stderr == f"nonosat: {raised.value}\n"


def test_bad_minizinc_solutions() -> None:
    with pytest.raises(ParseError, match="no solution"):
        load_dzn_solution("=====UNSATISFIABLE=====\n", "x.out")
    with pytest.raises(ParseError, match="----------") as raised:
        load_dzn_solution("A = array2d(1..1, 1..2, [1, 2]);\n", "x.out")
    assert raised.value.line == 2
    with pytest.raises(ParseError, match=r"1 \(empty\) or 2 \(filled\)") as raised:
        load_dzn_solution("A = array2d(1..1, 1..2, [1, 3]);\n----------\n", "x.out")
    assert raised.value.line == 1
    assert load_dzn_solution("A = array2d(1..2, 1..2, [1, 2, 2, 1]);\n----------\n==========\n") == (
        (0, 1),
        (1, 0),
    )


# --- convert -----------------------------------------------------------------------------------


def test_convert_reports_what_it_dropped_and_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "dancer.nin"
    assert convert(DANCER, target) == ["title", "author", "copyright", "catalogue", "goal"]
    assert clues_of(load(target)) == clues_of(load(DANCER))
    with pytest.raises(UsageError, match="force=True"):
        convert(DANCER, target)
    assert convert(DANCER, tmp_path / "dancer.xml") == []
    assert convert(tmp_path / "dancer.xml", target, force=True) == [
        "title",
        "author",
        "copyright",
        "catalogue",
        "goal",
    ]
    assert convert(DANCER, tmp_path / "dancer.id", to="tatham") == [
        "title",
        "author",
        "copyright",
        "catalogue",
        "goal",
    ]
    assert (tmp_path / "dancer.id").read_text() == DANCER_ID + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dancer.id", "dancer.nin", "dancer.xml"]


def test_convert_command(tmp_path: Path) -> None:
    target = tmp_path / "dancer.nin"
    code, _, stderr = run("convert", str(DANCER), str(target))
    assert code == 0
    assert stderr == f"wrote {target} (dropped: title, author, copyright, catalogue, goal)\n"
    target.write_text("precious")
    code, _, stderr = run("convert", str(DANCER), str(target))
    assert code == 2 and stderr.count("\n") == 1 and "--force" in stderr and target.read_text() == "precious"
    code, _, stderr = run("convert", str(DANCER), str(target), "--force")
    assert code == 0 and clues_of(load(target)) == clues_of(load(DANCER))
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "dancer.mk"))
    assert code == 0 and load(tmp_path / "dancer.mk").rows == load(DANCER).rows
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "dancer.txt"), "--to", "xml")
    assert code == 0 and stderr == f"wrote {tmp_path / 'dancer.txt'}\n"
    assert load(tmp_path / "dancer.txt").title == "Dancer"
    for target_name, words in [("dancer.png", "cannot write png"), ("dancer.txt", "suffix")]:
        code, _, stderr = run("convert", str(DANCER), str(tmp_path / "new" / target_name))
        assert code == 2 and stderr.count("\n") == 1 and words in stderr
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "x.non"), "--to", "bogus")
    assert code == 2 and "'bogus' is not one of 'non'" in stderr
