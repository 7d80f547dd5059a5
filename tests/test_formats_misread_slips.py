"""Files one slip away from a valid one: read as their author meant, or refused at the slip's line,
never read as another puzzle without a word (a fuzz review of every reader): a line break in a
clue, a lost `$N` or header, a word in a clue, a key given twice, misspelt XML, a section short
of a clue, a part missing; and a JSON value refused is quoted as JSON writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nonosat.errors import ParseError
from nonosat.formats import dumps, load, loads
from nonosat.formats.tournament import dump_tournament as dumps_all
from nonosat.formats.tournament import load_tournament_all as load_all_text
from nonosat.formats.tournament import load_tournament_each
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
