"""Bad puzzle files fail cleanly: each names its path and line, a bad goal leaves the puzzle, a
binary file is not text, text is read in the encoding it says, a missing file or a link to
nothing says so; and clues whose totals differ are counted in words a person would write."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonosat.errors import ParseError
from nonosat.formats import load
from nonosat.model import Puzzle

BAD_FILES = [
    # (file name, content, line of the error or None, words the message must hold)
    ("empty.non", "", None, "empty"),
    ("blank.nin", "\n  \n", None, "empty"),
    (
        "truncated.non",
        "width 3\nheight 10\nrows\n" + "1\n" * 7,
        10,
        "expected 10 row clues, the file ends after 7",
    ),
    ("short.non", "width 3\nheight 10\nrows\n" + "1\n" * 7 + "columns\n", 11, "found 7 before 'columns'"),
    ("long.non", "width 1\nheight 1\nrows\n1\n2\ncolumns\n1\n", 5, "found more"),
    # a colour clue past a section's end was skipped as an unknown key: a review's Rainbow with an
    # eleventh column, or a width one short, read as another puzzle, "unique"
    ("long-nonny.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred 1\n", 8, "found more"),
    ("long-black.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\n\nblack 2\ncolumns\n1\n", 7, "found more"),
    ("long-comma.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred,1\n", 8, "found more"),
    ("long-colon.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred:1\n", 8, "found more"),
    ("long-db.non", "color a #ff0000\nwidth 1\nheight 1\nrows\n1a\n2a\ncolumns\n1a\n", 6, "1 row clue, found more"),
    ("letters.non", "width 3\nheight 2\nrows\n1\nx3\ncolumns\n1\n1\n1\n", 5, "found 'x3'"),
    ("negative.non", "width 3\nheight 2\nrows\n1\n-3\ncolumns\n1\n1\n1\n", 5, "negative"),
    ("fraction.non", "width 3\nheight 2\nrows\n1\n1.5\ncolumns\n1\n1\n1\n", 5, "found '1.5'"),
    ("undeclared.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nblue 1\ncolumns\nred 1\n", 5, "no `color` line"),
    ("mixed.non", "color a #ff0000\ncolor red FF0000 r\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", 2, "both"),
    ("nosize.non", "rows\n1\n", 1, "'width' and 'height'"),
    ("bad-size.non", "width five\n", 1, "width"),
    ("truncated.nin", "3 4\n1\n1\n", 3, "expected 4 row clues, the file ends after 2"),
    ("letters.nin", "2 1\n1\n1 a\n0\n", 3, "found 'a' in '1 a'"),
    ("semicolon.non", "width 3\nheight 2\nrows\n1\n2,1;3\ncolumns\n1\n1\n1\n", 5, "found '1;3' in '2,1;3'"),
    ("header.nin", "2\n1\n", 1, "'width height'"),
    (
        "wrong-width.nin",
        "3 3\n1\n1\n1\n1\n1\n1\n2 1\n7\n",
        8,
        "the end of the file after the 3 column clues, found '2 1'",
    ),
    ("words-after.nin", "2 2\n1\n1\n1\n1\n\nhello world\n", 7, "found 'hello world'"),
    ("one-group.clues", "1\n2\n", 2, "blank line"),
    ("negative.clues", "1\n\n-2\n", 3, "negative"),
    ("broken.json", '{"rows": [[1]],\n "cols": [[1]\n', 3, "expected JSON"),
    ("strings.json", '{"rows": [[1]],\n "cols": ["1"]}', 2, "cols[0]"),
    ("third.json", '{"rows": [[1], [1], [1]],\n "cols": [[1],\n  [1, "2"],\n  [3]]}', 3, "cols[1]"),
    ("wide.json", '{"rows": [[1]],\n "cols": [[1]],\n "width": 5}', 3, "expected width 1, the number of column clues"),
    ("tall.json", '{"height": "2",\n "rows": [[1]], "cols": [[1]]}', 1, "expected height 1, the number of row clues"),
    ("twice.json", '{"rows": [[1]],\n "cols": [[1]],\n "columns": [[2]]}', 3, '"cols" or "columns"'),
    ("odd.txt", "$1\n1\n1\n1\n", 1, "as many row clues as column clues"),
    ("letters.txt", "$1\n1\n1\tx\n", 3, "found 'x'"),
    ("twice.txt", "$1\n1\n1\n$1\n1\n1\n", 4, "second puzzle $1"),
]


@pytest.mark.parametrize(("name", "content", "line", "words"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_file_names_path_and_line(tmp_path: Path, name: str, content: str, line: int | None, words: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ParseError) as raised:
        load(path)
    assert raised.value.path == str(path)
    assert raised.value.line == line
    assert words in raised.value.expected


def test_a_bad_goal_names_its_line_and_leaves_the_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "bad-goal.non"
    path.write_text('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "1"\n')
    puzzle = load(path)
    assert puzzle.goal is None and puzzle.rows == ((1,),)
    assert puzzle.goal_problem == "line 8: expected a goal of 2 cells (2x1), found 1"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3),
        (b"width 5\nheight 5\n\xff\xfe\xfd", 3),
        (b"width 5\x07\n", 1),
    ],
)
def test_binary_file_is_not_text(tmp_path: Path, data: bytes, line: int) -> None:
    path = tmp_path / "garbage.non"
    path.write_bytes(data)
    with pytest.raises(ParseError, match="not a text file|not UTF-8 text") as raised:
        load(path)
    assert (raised.value.path, raised.value.line) == (str(path), line)


LATIN_XML = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<puzzleset><puzzle type="grid" defaultcolor="black">'
    '<title>Caf\xe9</title><color name="white" char=".">fff</color><color name="black" char="X">000</color>'
    '<clues type="columns"><line><count>1</count></line></clues>'
    '<clues type="rows"><line><count>1</count></line></clues></puzzle></puzzleset>'
)


def test_text_in_the_encoding_it_says(tmp_path: Path) -> None:
    """A review of the formats: an XML file declaring ISO-8859-1, and a UTF-16 file with its byte
    order mark (Notepad's "Unicode"), were refused as "not a text file"."""
    latin = tmp_path / "cafe.xml"
    latin.write_bytes(LATIN_XML.encode("latin-1"))
    assert load(latin).title == "Caf\xe9"
    text = 'title "Caf\xe9 \u6f22"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n'
    for encoding in ("utf-16", "utf-16-be", "utf-32"):
        wide = tmp_path / f"{encoding}.non"
        mark = {"utf-16-be": b"\xfe\xff"}.get(encoding, b"")
        wide.write_bytes(mark + text.encode(encoding))
        assert load(wide).title == "Caf\xe9 \u6f22", encoding
    for name in ("klingon", "base64", "undefined"):  # (base64: a codec of bytes, an internal error)
        unknown = tmp_path / f"{name}.xml"
        unknown.write_bytes(LATIN_XML.replace("ISO-8859-1", name).encode("latin-1"))
        with pytest.raises(ParseError, match=f"declares the encoding '{name}', which nonosat cannot read"):
            load(unknown)
    for name in ("ISO-8859-1", "UTF-16", "us-ascii", "Shift_JIS"):  # saved as UTF-8 all the same (the
        lying = tmp_path / "lying.xml"  # review of the mend: read as declared, "CafÃ©" or refused)
        lying.write_bytes(LATIN_XML.replace("ISO-8859-1", name).encode("utf-8"))
        assert load(lying).title == "Caf\xe9", name
    latin_non = tmp_path / "latin.non"
    latin_non.write_bytes(text.replace(" \u6f22", "").encode("latin-1"))
    with pytest.raises(ParseError, match=r"not UTF-8 text \(byte 0xe9\)") as raised:
        load(latin_non)
    assert raised.value.line == 1


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.non"
    with pytest.raises(ParseError, match="no such file") as raised:
        load(path)
    assert (raised.value.path, raised.value.line) == (str(path), None)


def test_a_link_to_nothing_says_so(tmp_path: Path) -> None:
    """A review: a dangling link in a folder given to batch was "no such file", though listed."""
    from nonosat.errors import BadImage
    from nonosat.generate import from_image

    (tmp_path / "x.non").symlink_to(tmp_path / "gone" / "x.non")
    with pytest.raises(ParseError, match=r"x\.non: a link to .*gone/x\.non, which is not there$"):
        load(tmp_path / "x.non")
    (tmp_path / "x.png").symlink_to("nowhere.png")
    with pytest.raises(BadImage, match=r"x\.png: a link to nowhere\.png, which is not there$"):
        from_image(tmp_path / "x.png")


def test_totals_that_differ_are_counted_in_words_a_person_would_write() -> None:
    """A new user's review: "the row clues fill 1 cells"."""
    from nonosat.palette import Colour

    assert Puzzle(rows=((1,), (0,)), columns=((1,), (1,))).problems() == [
        "the row clues fill 1 cell but the column clues fill 2"
    ]
    red = (Colour("white", "#ffffff", "."), Colour("red", "#ff0000", "r"))
    coloured = Puzzle(
        rows=((2,), (0,)), columns=((1,), (0,)), palette=red, row_colours=((1,), ()), column_colours=((1,), ())
    )
    assert coloured.problems() == ["the row clues fill 2 red cells but the column clues fill 1 red cell"]
