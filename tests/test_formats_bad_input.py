"""Bad input in the newer formats: each bad file names its path and line, and the command line
says it in one line with exit 2; a bad XML goal leaves the puzzle; bad MiniZinc solutions."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_shared import HAND_WRITTEN_XML, TINY, run

from nonosat.errors import ParseError
from nonosat.formats import load, load_all, load_dzn_solution
from nonosat.formats.non import dump_non
from nonosat.formats.tournament import dump_tournament, load_tournament, load_tournament_all
from nonosat.model import Puzzle

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
    # what is missing is named at the end of the file (a review found these without a line):
    ("cut.toml", '[clues]\ncolumns = "1', 2, "Unterminated string"),
    ("no-columns.non", "width 1\nheight 1\nrows\n1\n", 4, "'columns' line, found none by the end of the file"),
    # no line was named (a review of the formats):
    ("no-sections.g", "#d\n 0:+ white\n 1:# black\n", 3, "': columns' line (lines starting with ':'), found none by"),
    ("no-rows.json", '\n{"cols": [[1]]}\n', 2, "'rows' list of clues in the object, found none"),
    # which would hold? (a review found the clues read by the first width, the goal by the second):
    ("width-twice.non", 'width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal "1001"\nwidth 3\n', 10, "a second 'width'"),
    ("goal-twice.non", 'width 1\nheight 1\ngoal "1"\nrows\n1\ncolumns\n1\ngoal "0"\n', 8, "a second 'goal'"),
    # the last of two titles held, without a word (a review of the formats):
    (
        "title-twice.non",
        'title "a"\nby "x"\ntitle "b"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n',
        3,
        "a second 'title'",
    ),
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


@pytest.mark.slow
def test_a_tournament_file_cut_short_is_refused_not_read_as_a_smaller_puzzle(corpus: Path, tmp_path: Path) -> None:
    """`head -n 92` of a tournament file keeps puzzle $1 and 40 of $2's 50 clue lines: $2 was
    read as a 20x20 puzzle and got a verdict (none, exit 3). Now one line, the file cut short;
    so too with several whole puzzles before the cut, whatever the clues left."""
    lines = (corpus / "tcga" / "question" / "icga2021.txt").read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.txt"
    for kept in (92, 96, 98, 3 * 51 + 1 + 30, 3 * 51 + 1 + 48):
        cut.write_text("".join(lines[:kept]))
        last = (kept - 1) // 51 + 1
        for name in (f"{cut}#{last}", cut):
            with pytest.raises(ParseError, match="cut short") as raised:
                load_all(name)
            assert raised.value.line == kept and f"puzzle ${last} to have 50 clue lines" in str(raised.value)
    cut.write_text("".join(lines[: 3 * 51]))  # three whole puzzles: nothing cut
    assert len(load_all(cut)) == 3
    whole = "".join(lines).rstrip("\n")  # cut by bytes inside the last row's clue: no line break
    cut.write_text(whole[: whole.rindex("\t")])
    for name in (f"{cut}#1000", cut):
        with pytest.raises(ParseError, match="found the file ending inside it and clues that are no puzzle"):
            load_all(name)
    cut.write_text(whole)  # whole, only without the last line break: read
    assert len(load_all(cut)) == 1000


def test_a_smaller_last_tournament_puzzle_is_read_when_it_can_be_a_puzzle() -> None:
    """A smaller last puzzle whose rows and columns agree and whose clues fit is a puzzle of its
    own, as `dump_tournament` writes mixed sizes (the first version of the check refused it after
    two puzzles of one size); so is a last puzzle without the blank line the others end with."""
    big = Puzzle(rows=((2,), (1,), (1, 1), (4,)), columns=((1, 1), (2,), (1, 2), (2,)))
    assert [p.width for p in load_tournament_all(dump_tournament([big, TINY]))] == [4, 3]
    assert [p.width for p in load_tournament_all(dump_tournament([big, big, TINY]))] == [4, 4, 3]
    assert load_tournament(dump_tournament([big, big, TINY]), number=3).width == 3
    padded = "\n".join(dump_tournament([big]).replace("$1", f"${n}") for n in (1, 2, 3))
    assert [p.width for p in load_tournament_all(padded)] == [4, 4, 4]
    assert [p.width for p in load_tournament_all(dump_tournament([big, TINY]).rstrip("\n"))] == [4, 3]


ZERO_BETWEEN = [
    # (file name, content, line): the first row's clue is 1 1 written with a 0 between, `1 0 1`
    ("zero.non", "width 3\nheight 1\nrows\n1,0,1\ncolumns\n1\n0\n1\n", 4),
    ("zero.nin", "3 1\n1 0 1\n1\n0\n1\n", 2),
    ("zero.clues", "3\n1 0 1\n\n2\n1\n2\n", 2),
    ("zero.mk", "2 3\n3\n1 0 1\n#\n2\n1\n2\n", 3),
    ("zero.txt", "$1\n1\n0\n1\n1\t0\t1\n", 5),
    ("zero.cwd", "1\n3\n1 0 1\n\n1\n0\n1\n", 3),
    ("zero.pycsp3.txt", "1 3\n3 1 0 1\n1 1\n0\n1 1\n", 2),
    ("zero.g", ": rows\n3\n1 0 1\n: columns\n2\n1\n2\n", 3),
    ("zero.json", '{"cols": [[2], [1], [2]],\n "rows": [[3], [1, 0, 1]]}', 2),
    (
        "zero.xml",
        '<puzzleset><puzzle>\n<clues type="columns"><line><count>1</count></line></clues>\n<clues type="rows">\n'
        "<line><count>1</count><count>0</count><count>1</count></line>\n</clues></puzzle></puzzleset>",
        4,
    ),
    ("db-zero.non", "width 3\nheight 1\ncolor a #ff0000\nrows\n1a,0a,1a\ncolumns\n1a\n0\n1a\n", 5),
    ("nonny-zero.non", "width 3\nheight 1\ncolor red FF0000 r\nrows\nred 1 0 1\ncolumns\nred 1\n0\nred 1\n", 5),
    ("zero.cnon", "1 3 1\nR #ff0000\n1:R 0:R 1:R\n1:R\n0\n1:R\n", 3),
    ("zero-colour.g", "#d\n   r:r  red\n: rows\n1r 0r 1r\n: columns\n1r\n0\n1r\n", 4),
    ("zero-pynogram.txt", "[colors]\nr = (red) *\n[clues]\ncolumns = 1r, 0, 1r\nrows = 1r 0r 1r\n", 5),
    ("zero.toml", "[colors]\ndefs = ['r = (red) *']\n[clues]\nrows = '''\n1r 0r 1r\n'''\ncolumns = \"1r, 0, 1r\"\n", 5),
    (
        "zero-colour.xml",
        '<puzzleset><puzzle>\n<color name="red">f00</color>\n<clues type="rows">\n'
        '<line><count color="red">1</count><count color="red">0</count><count color="red">1</count></line>\n'
        "</clues></puzzle></puzzleset>",
        4,
    ),
    (
        "zero-colour.json",
        '{"palette": [{"name": "white", "rgb": "#ffffff", "char": "."}, {"name": "red", "rgb": "#f00", "char": "r"}],'
        '\n "rows": [[[1, "red"], [0, "red"], [1, "red"]]],\n "cols": [[[1, "red"]], [], [[1, "red"]]]}',
        2,
    ),
]


@pytest.mark.parametrize(("name", "content", "line"), ZERO_BETWEEN, ids=[case[0] for case in ZERO_BETWEEN])
def test_a_0_between_a_clues_numbers_is_refused_at_its_line_in_every_format(
    tmp_path: Path, name: str, content: str, line: int
) -> None:
    """A review found `<count>0</count>` between two counts of a webpbn XML file read as `1 1`
    (README: in every format, a 0 between is refused), and the other formats' refusal naming line
    1 (.clues, .nin, .mk) or no line (.non, .json) wherever the clue stood."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ParseError) as raised:
        load(path)
    assert raised.value.path == str(path) and raised.value.line == line, raised.value
    assert "a 0 between other numbers (a 0 alone is an empty line)" in raised.value.expected, raised.value


def test_json_nested_too_deeply_says_so_not_pythons_exception() -> None:
    """A review: 100,000 nested brackets said `cannot be read as json (RecursionError)`."""
    from nonosat.formats import loads

    deep = '{"rows": ' + "[" * 100_000 + "]" * 100_000 + ', "cols": [[1]]}'
    with pytest.raises(ParseError, match="nested too deeply") as raised:
        loads(deep, fmt="json", path="deep.json")
    assert "RecursionError" not in str(raised.value) and "deep.json" in str(raised.value)
