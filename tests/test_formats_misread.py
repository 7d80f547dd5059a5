"""Files one slip away from a valid one: read as their author meant, or refused at the slip's line,
never read as another puzzle without a word (a fuzz review of every reader); and files past the
size limits refused before their clues are read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nonosat.errors import ParseError
from nonosat.formats import dumps, load, loads
from nonosat.formats.tournament import dump_tournament as dumps_all
from nonosat.formats.tournament import load_tournament_all as load_all_text
from nonosat.formats.tournament import load_tournament_each
from nonosat.limits import MAX_SIDE
from nonosat.model import Puzzle

DANCER = Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-00001-dancer.non"
RING_COLOUR = DANCER.parent / "ring-colour.non"
SIX = Puzzle.from_grid(tuple(tuple(int(c == (0 if r < 3 else 3)) for c in range(6)) for r in range(6)))
"""Two strokes of three: rows 1 1 1 1 1 1, columns 3 0 0 3 0 0."""


@pytest.mark.parametrize("fmt", ["clues", "nin", "non", "g", "mk", "tournament", "colour non", "colour g"])
@pytest.mark.parametrize("brk", ["\v", "\f", "\x85", "\u2028", "\u2029"])
def test_a_clue_holding_a_unicode_line_break_is_refused_at_its_line(fmt: str, brk: str) -> None:
    """Lines end at LF and CR, as editors show them, and clues split at any white space: two
    rows `2` and `2 1` with a form feed between them instead of a line break were one clue
    `2 2 1`, and the verdict `none` (a fuzz review). Such a clue is refused at its line; a
    title holding one is read (it ends no line in an editor)."""
    puzzle = load(RING_COLOUR) if fmt.startswith("colour") else SIX
    fmt = fmt.removeprefix("colour ")
    lines = dumps(puzzle, fmt).split("\n")
    middle = next(i for i in range(1, len(lines) - 1) if lines[i][:1].isdigit() and lines[i + 1][:1].isdigit())
    merged = "\n".join([*lines[:middle], lines[middle] + brk + lines[middle + 1], *lines[middle + 2 :]])
    with pytest.raises(ParseError, match=f"line {middle + 1}: expected .*, which ends a line in other programs"):
        loads(merged, fmt=fmt, number=1 if fmt == "tournament" else None)
    # at a clue's end too: another program reads another line, an empty clue, after it (a review)
    ended = "\n".join([*lines[:middle], lines[middle] + brk, *lines[middle + 1 :]])
    with pytest.raises(ParseError, match=f"line {middle + 1}: expected .*, which ends a line in other programs"):
        loads(ended, fmt=fmt, number=1 if fmt == "tournament" else None)
    read = loads("\n".join(lines), fmt=fmt, number=1 if fmt == "tournament" else None)
    assert (read.rows, read.columns) == (puzzle.rows, puzzle.columns)
    titled = loads(f'title "Broken{brk}cross"\n' + dumps(SIX, "non"), fmt="non")
    assert titled.title is not None and titled.title.startswith("Broken")


def test_toml_with_lone_carriage_returns_is_read_as_the_other_formats_are() -> None:
    """nonogrid's TOML of an old Mac's line endings was "invalid character '\\r'"."""
    toml = """[clues]\nrows = '''\n1\n1 1\n'''\ncolumns = "1, 1, 1"\n"""
    assert loads(toml.replace("\n", "\r"), fmt="nonogrid") == loads(toml, fmt="nonogrid")


def test_a_tournament_entry_that_is_two_puzzles_is_refused_where_the_header_went_missing() -> None:
    """A fuzz review: `$2` deleted, `$1` read as a 50x50 puzzle of both, `multiple`, exit 1."""
    five = [Puzzle.from_grid(tuple(tuple((r * c + k) % 3 == 0 for c in range(5)) for r in range(5))) for k in (0, 1, 2)]
    whole = "".join(dumps(p, "tournament").replace("$1", f"${n}") for n, p in enumerate(five, start=1))
    lost = whole.replace("$2\n", "", 1)
    assert lost.count("$") == 2
    with pytest.raises(ParseError, match=r"line 12: expected a header like '\$2' before this line: puzzle \$1 has 20"):
        loads(lost, fmt="tournament", number=1)
    each = dict(load_tournament_each(lost))  # a batch keeps the others
    third = each[3]
    assert isinstance(each[1], ParseError) and isinstance(third, Puzzle)
    assert (third.rows, third.columns) == (five[2].rows, five[2].columns)
    for n, puzzle in enumerate(five, start=1):  # whole, every entry reads
        read = loads(whole, fmt="tournament", number=n)
        assert (read.rows, read.columns) == (puzzle.rows, puzzle.columns)
    sparse = Puzzle.from_grid(tuple(tuple(int(r == c == 0 or r == c == 9) for c in range(10)) for r in range(10)))
    for mixed in ([five[0], sparse], [*five, sparse], [sparse, five[0]]):  # numbered in order: a larger puzzle
        back = load_all_text(dumps_all(mixed))  # (a diff's review: refused as two)
        assert [(p.rows, p.columns) for p in back] == [(p.rows, p.columns) for p in mixed]


NONNY = (
    "width 3\nheight 2\ncolor red ff0000 r\ncolor blue 0000ff b\nrows\n{row}\nblue 1\ncolumns\nred 1\nblue 1\nred 1\n"
)


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("red 1O", "found '1O'"),  # a typo for 10: read as 1 and an unused colour 'O'
        ("red 1e3", "found '1e3'"),
        ("red 0x10", "found '0x10'"),
        ("red 1 xyz blue 1", "found the colour 'xyz', which no `color` line declares"),
    ],
)
def test_a_nonny_clue_with_a_word_no_colour_line_declares_is_refused(row: str, said: str) -> None:
    """Nonny's clues: `red 1O` was read as `red 1` (the rest a colour name no number followed,
    dropped), and the puzzle solved as another one."""
    assert loads(NONNY.format(row="red 2"), fmt="non").width == 3  # the file as meant reads
    with pytest.raises(ParseError, match=f"line 6: .*{said}"):
        loads(NONNY.format(row=row), fmt="non")


def test_a_nin_header_too_small_for_its_lines_is_refused_not_read_with_stray_sets() -> None:
    """Whole stray sets of clue lines are skipped (jwilk's data142.nin), so a 6x6 puzzle headed
    `3 3` was read as a 3x3 one, `multiple`: when all its lines read as one puzzle of another
    size, the header is wrong."""
    text = dumps(SIX, "nin")
    assert loads(text, fmt="nin") == Puzzle(rows=SIX.rows, columns=SIX.columns)
    with pytest.raises(ParseError, match="line 8: expected the end of the file after the 3 column clues.* 6x6 puzzle"):
        loads(text.replace("6 6", "3 3", 1), fmt="nin")
    twice = text + "\n".join(text.splitlines()[1:]) + "\n"  # a correct header and its clues once more:
    with pytest.raises(ParseError, match="the file reads two ways"):  # stray, or one 12x12 puzzle
        loads(twice, fmt="nin")


def test_a_json_key_given_twice_is_refused() -> None:
    """Python's JSON reader keeps the last of two keys: a second "rows" replaced the first."""
    text = '{"rows": [[1], [1]],\n "rows": [[1]], "cols": [[1]]}'
    with pytest.raises(ParseError, match="line 2: found the key 'rows' twice in one object"):
        loads(text, fmt="json")
    palette = (
        '{"rows": [[[1, "a"]]], "cols": [[[1, "a"]]],\n"palette": [{"name": "a", "rgb": "#ff0000",\n "name": "b"}]}'
    )
    with pytest.raises(ParseError, match="line 3: found the key 'name' twice"):
        loads(palette, fmt="json")


XML = """<puzzleset><puzzle type="grid" defaultcolor="black">
<color name="white" char=".">fff</color><color name="black" char="X">000</color>{colours}
<clues type="columns"><line><count>1</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>{count}</count></line>{line}</clues>
</puzzle></puzzleset>
"""


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"count": "1<b/>1"}, "line 4: expected a whole number in <count>, found <b>"),
        ({"line": "<lnie><count>1</count></lnie>"}, "line 4: expected <line> in <clues>, found <lnie>"),
        ({"line": "<line><cuont>1</cuont></line>"}, "line 4: expected <count> in <line>, found <cuont>"),
        (
            {"colours": '<color name="red" char="X">f00</color>'},
            "line 2: found the character 'X' given to colour 'black'",
        ),
    ],
)
def test_xml_that_would_be_read_as_another_puzzle_is_refused(change: dict[str, str], said: str) -> None:
    """`<count>5<b/>1</count>` was read as 51, a misspelled `<lnie>` skipped, and two colours of
    one character told apart in a goal by the first only."""
    fields = {"colours": "", "count": "1", "line": "<line><count>1</count></line>"}
    assert loads(XML.format(**fields), fmt="xml").height == 2
    with pytest.raises(ParseError, match=said):
        loads(XML.format(**{**fields, **change}), fmt="xml")


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


def long_file(fmt: str) -> str:
    """A file of MAX_SIDE + 1 row clues whose first clue is malformed: a reader that reads its
    clues before it counts them says the clue is wrong; one that counts first, the limit."""
    rows = ["x"] + ["1"] * MAX_SIDE
    if fmt == "clues":
        return "\n".join([*rows, "", "1"]) + "\n"
    if fmt == "g":
        return "\n".join([": rows", *rows, ": columns", "1"]) + "\n"
    if fmt == "tournament":
        return "\n".join(["$1", *rows, *rows]) + "\n"
    if fmt == "json":
        return json.dumps({"rows": [["x"]] + [[1]] * MAX_SIDE, "cols": [[1]]})
    lines = "".join(["<line><count>x</count></line>"] + ["<line><count>1</count></line>"] * MAX_SIDE)
    return f'<puzzleset><puzzle><clues type="rows">{lines}</clues></puzzle></puzzleset>'


@pytest.mark.parametrize("fmt", ["clues", "g", "tournament", "json", "xml"])
def test_a_file_past_the_limits_is_refused_before_its_clues_are_read(fmt: str) -> None:
    """A fuzz review: files of 5 million clue lines (10 MB, within the limit of bytes) were read
    whole, 19-60 s and up to 1.5 GB, before the limit a side refused them."""
    with pytest.raises(ParseError, match=f"over the limit of {MAX_SIDE} cells a side|the largest square"):
        loads(long_file(fmt), fmt=fmt, number=1 if fmt == "tournament" else None)


@pytest.mark.parametrize(
    ("fmt", "text", "said"),
    [
        ("json", '{"rows": [[1],\n[' + "9" * 5000 + ']], "cols": [[1]]}', "line 2: .*a number too long to read"),
        ("clues", "1\n\n" + "9" * 5000 + "\n", "line 3: .*a number too long to read"),
        ("json", '{"rows": [[1]],\n"x":\n' + "[" * 100_000 + "]" * 100_000 + "}", "line 3: .*nested too deeply"),
        ("json", '{"rows": [[1]],\n"x":\n' + '{"a":' * 100_000 + "1" + "}" * 100_001, "line 3: .*nested too deeply"),
    ],
)
def test_a_number_too_long_or_nesting_too_deep_is_said_at_its_line(fmt: str, text: str, said: str) -> None:
    """A fuzz review: "cannot be read as json: it holds a number too long to read", no line."""
    with pytest.raises(ParseError, match=said):
        loads(text, fmt=fmt)


def test_a_non_section_short_of_a_clue_is_refused_where_its_blank_line_was_taken_for_one() -> None:
    """A fuzz review: a row clue deleted, the blank line before `columns` was read as an empty
    last row (a blank line is an empty clue), the rows one up: `none`. Where the rows and columns
    then fill different numbers of cells, the likely slip is said, at its line."""
    whole = "width 3\nheight 3\n\nrows\n3\n1\n1\n\ncolumns\n2\n1\n2\n"
    assert loads(whole, fmt="non").rows == ((3,), (1,), (1,))
    with pytest.raises(ParseError, match="line 7: expected 3 row clues, found this blank line as the last"):
        loads(whole.replace("1\n1\n", "1\n", 1), fmt="non")
    empty_last = "width 3\nheight 3\nrows\n3\n1\n\ncolumns\n2\n1\n1\n"  # a blank last row, totals equal: read
    assert loads(empty_last, fmt="non").rows == ((3,), (1,), ())


def test_a_tournament_entry_of_two_is_found_past_blank_lines_and_blank_lines_past_the_most_end_it() -> None:
    """A second fuzz review: with a blank line after each entry, the check for a lost `$N` was
    skipped (an odd usual length) and the two read as one 51x51 puzzle; and a million blank
    lines after an entry took minutes (each size they allowed was tried)."""
    from nonosat.formats.tournament import MOST_LINES, read_blocks

    five = [Puzzle.from_grid(tuple(tuple((r * c + k) % 3 == 0 for c in range(5)) for r in range(5))) for k in range(5)]
    padded = "".join(dumps(p, "tournament").replace("$1", f"${n}") + "\n" for n, p in enumerate(five, start=1))
    with pytest.raises(ParseError, match=r"line 13: expected a header like '\$2' before this line"):
        loads(padded.replace("$2\n", "", 1), fmt="tournament", number=1)
    with pytest.raises(ParseError, match=r"expected a header like '\$2' before this line"):  # two lost
        loads(padded.replace("$2\n", "", 1).replace("$3\n", "", 1), fmt="tournament", number=1)
    blank = "$1\n1\n1\n" + "\n" * 100_000
    assert len(read_blocks(blank, None)[0].body) <= MOST_LINES
    assert loads(blank, fmt="tournament").rows == ((1,),)


def test_a_colour_non_section_short_of_a_clue_is_refused_as_black_and_white_is() -> None:
    """A second fuzz review: the check of a short section ran in black and white only."""
    lines = RING_COLOUR.read_text().splitlines()
    rows = lines.index("rows")
    short = "\n".join(lines[: rows + 1] + lines[rows + 2 :]) + "\n"
    with pytest.raises(ParseError, match="found this blank line as the last, right before the next key"):
        loads(short, fmt="non")


ONES = ["1"] * (MAX_SIDE + 1)
MANY_DEFS = ", ".join(f"'c{i} = (red) *'" for i in range(100))
LONG_CLUE = {
    "clues": lambda text: text.replace("1\n", " ".join(ONES) + "\n", 1),
    "nin": lambda text: text.replace("\n1\n", "\n" + " ".join(ONES) + "\n", 1),
    "non": lambda text: text.replace("rows\n1\n", "rows\n" + ",".join(ONES) + "\n", 1),
    "g": lambda text: text.replace(": rows\n1\n", ": rows\n" + " ".join(ONES) + "\n", 1),
    "mk": lambda text: text.replace("6 6\n1\n", "6 6\n" + " ".join(ONES) + "\n", 1),
    "tournament": lambda text: text.replace("\n3\n", "\n" + "\t".join(ONES) + "\n", 1),
    "tatham": lambda text: text.replace(":3/", ":" + ".".join(ONES) + "/", 1),
    "json": lambda text: text.replace("[1],", "[" + ", ".join(ONES) + "],", 1),
    "xml": lambda text: text.replace("<count>3</count>", "<count>1</count>" * len(ONES), 1),
}


@pytest.mark.parametrize("fmt", sorted(LONG_CLUE))
def test_a_clue_of_more_blocks_than_any_line_holds_is_refused_before_it_is_read(fmt: str) -> None:
    """A second fuzz review: a clue of 3 million blocks was read whole in every reader (20-60 s,
    up to 4.4 GB), then solved as `none`."""
    text = dumps(SIX, fmt)
    long = LONG_CLUE[fmt](text)
    assert long != text
    with pytest.raises(ParseError, match=f"more than {MAX_SIDE} blocks"):
        loads(long, fmt=fmt, number=1 if fmt == "tournament" else None)


@pytest.mark.parametrize(
    ("fmt", "text", "said"),
    [
        ("mk", "1 1\n" + "1\n" * 7000, "line 6145: found more than 6144 lines"),
        ("squares", "⬛\n" * 7000, "line 6145: found more than 6144 lines"),
        ("cnon", "1 1 1\nX #000000\n" + "1:X\n" * 7000, "line 6145: found more than 6144 lines"),
        (
            "pynogram",
            "[clues]\ncolumns = 1\nrows = " + ", ".join(["1"] * 2000) + "\n",
            "line 3: found more than 1024 row",
        ),
        ("non", "width 1024\nheight 257\nrows\n", "line 2: a puzzle of 1024x257 has 263168 cells"),
        ("nin", "1024 257\n", "line 1: a puzzle of 1024x257 has 263168 cells"),
        ("cnon", "3000000 1 1\n", "line 1: found 3000000 colours: over the limit of 62"),
        ("nonogrid", "[clues]\nrows = '1'\ncolumns = '1'\n[colors]\ndefs = [" + MANY_DEFS + "]\n", "100 colours"),
    ],
)
def test_files_past_the_limits_are_refused_as_they_are_counted(fmt: str, text: str, said: str) -> None:
    """A second fuzz review: files of millions of lines in the formats without a size header,
    and headers past the cells' limit, were read whole (20-60 s, 1.4 GB) before being refused."""
    with pytest.raises(ParseError, match=said):
        loads(text, fmt=fmt)


def test_minizinc_data_of_more_numbers_than_a_puzzle_has_is_refused_before_it_is_read() -> None:
    """A second fuzz review: 3 million numbers in 10 MB of `.dzn` were read for 23-55 s."""
    from nonosat.formats.dzn import MOST_NUMBERS

    numbers = ", ".join(["1"] * (MOST_NUMBERS + 1))
    text = f"rows = 1;\ncols = 1;\nrow_rule_len = 1;\nrows = [|\n{numbers} |];\n"
    with pytest.raises(ParseError, match=f"line 5: found more than {MOST_NUMBERS} numbers"):
        loads(text, fmt="dzn")


def test_the_limits_refuse_no_valid_file() -> None:
    """A review of the limits: a clue of 1,024 blocks whose colours' names hold digits was
    refused (every run of digits was counted as a block); PyCSP3's text of one number a line was
    refused for its lines (its line breaks do not matter); a line holding only a form feed was
    refused as a clue; a 62-colour `.g` file nonosat wrote was refused (black was declared for
    bare numbers before any clue was read, a 63rd colour); and a file of lone CRs was one line
    to the count of lines."""
    from nonosat.formats.common import refuse_odd_clue
    from nonosat.generate.random_picture import random_palette

    refuse_odd_clue(" ".join(["lightgoldenrod1 1"] * MAX_SIDE), None, 1, "a clue")  # 17 kB, 1,024 blocks
    with pytest.raises(ParseError, match=f"more than {MAX_SIDE} blocks"):
        refuse_odd_clue(" ".join(["lightgoldenrod1 1"] * (MAX_SIDE + 1)), None, 1, "a clue")
    numbers = ["100", "100"] + ["50", *["1"] * 50] * 200  # a board of 100x100 squares: 10,202 lines
    assert loads("\n".join(numbers) + "\n", fmt="pycsp3-text").width == 100
    assert loads(dumps(SIX, "mk") + "\f\n", fmt="mk").rows == SIX.rows
    colours = Puzzle.from_grid(tuple(tuple((r * 8 + c) % 63 for c in range(8)) for r in range(8)), random_palette(62))
    assert len(loads(dumps(colours, "g"), fmt="g").palette) == 63
    with pytest.raises(ParseError, match="line 6145: found more than 6144 lines"):
        loads("⬛\r" * 7000, fmt="squares")


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


def test_a_json_value_refused_is_quoted_as_json_writes_it() -> None:
    """A review found `[[true]]` quoted as `[True]`, `[1, null]` as `[1, None]` (the CLI and the
    web API alike): the values are quoted as the file wrote them, a long one cut short."""
    cases = {
        '{"rows": [[true]], "cols": [[1]]}': "found [true]",
        '{"rows": [[1, null]], "cols": [[1]]}': "found [1, null]",
        '{"rows": [[1]], "cols": [[1]], "title": false}': "found false",
        '{"rows": [[1]], "cols": {"a": 1}}': 'found {"a": 1}',
        '{"rows": [[1]], "cols": [[1]], "palette": [["x"]]}': 'found [["x"]]',
    }
    for text, said in cases.items():
        with pytest.raises(ParseError, match=re.escape(said) + "$"):
            loads(text, fmt="json")
    with pytest.raises(ParseError, match=r"found \[1, 1, 1, [1, ]*…$"):
        loads('{"rows": [[1]], "cols": [[' + ", ".join(["1"] * 200) + ", true]]}", fmt="json")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[colors]\ndefs = ['r = (red) #']\n", "line 2: expected a \\[clues\\] table, found none by the end"),
        ("# a puzzle\n[clues]\nrows = '1 1'\n", "line 2: expected a 'columns =' string in \\[clues\\]"),
    ],
)
def test_a_nonogrid_file_without_its_clues_names_a_line(text: str, said: str) -> None:
    """Every other reader names a line when a part is missing; nonogrid's TOML named none."""
    with pytest.raises(ParseError, match=said):
        loads(text, fmt="nonogrid")
