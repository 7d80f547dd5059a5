"""Files past the size limits refused before their clues are read (a fuzz review of every
reader): too many lines, a number too long or nesting too deep, a clue of more blocks than any
line holds, MiniZinc data of too many numbers, each said at its line as it is counted; and the
limits refuse no valid file."""

from __future__ import annotations

import json

import pytest

from nonosat.errors import ParseError
from nonosat.formats import dumps, loads
from nonosat.limits import MAX_SIDE
from nonosat.model import Puzzle

SIX = Puzzle.from_grid(tuple(tuple(int(c == (0 if r < 3 else 3)) for c in range(6)) for r in range(6)))
"""Two strokes of three: rows 1 1 1 1 1 1, columns 3 0 0 3 0 0."""


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
