"""Mirek and Pavel Olšák's formats: `.mk` (black and white) and `.g` (black and white or colour).

`.mk`: a first line `H W` (height first), then H row clues, a line `#`, then W column clues.
Numbers are separated by spaces or commas; `0` or a blank line is an empty clue (as in
pbnsolve's reader).

`.g`: lines before the first line starting with `:` are comments, except that `#d` starts
colour declarations and `#t` marks a triddler. The line `: rows` (any text may follow the
colon) starts the row clues, one per line, a blank line being an empty clue; the next `:`
line starts the column clues, which end at a third `:` line (after which anything is
ignored) or at the end of the file, where trailing blank lines are then dropped.

Colour: after `#d`, each line `X:Y spec comment` declares a colour: X the letter its blocks
carry (`3r`), Y its character in a picture, spec a colour name or `#rrggbb` (then the comment's
first word, if any, names it). `0:` is the background (white by default) and `1:` the colour of
a bare number (black by default). A spec such as `black/white` (triangle cells) is refused. A
colour puzzle is written with a `#d` section (the background first) and blocks carrying letters;
an empty clue is a blank line, and a final ':' line ends the column clues.
"""

from __future__ import annotations

import itertools
import re

from nonosat.errors import ParseError
from nonosat.formats.colour import (
    ColourClue,
    PaletteDraft,
    Swatch,
    bare_colour,
    clean_name,
    colour_clue,
    colour_puzzle,
    parse_colour_value,
)
from nonosat.formats.common import (
    FILLED_LINE,
    PathName,
    clue_count,
    clue_lines,
    make_puzzle,
    parse_clue,
    parse_size,
    refuse_many_lines,
    refuse_odd_clue,
    refuse_past_the_limits,
    refuse_past_the_side,
    split_lines,
)
from nonosat.formats.files import line_at
from nonosat.limits import MAX_SIDE
from nonosat.model import Clue, Puzzle
from nonosat.palette import LETTERS, NAMED, SYMBOLS, css_name, designations

CLUE_SHAPE = "a clue of whole numbers separated by spaces"

Numbered = list[tuple[int, str]]
"""Lines of a file, each with its 1-based line number."""


def read_clue(line: str, number: int, path: PathName) -> Clue:
    """Read one clue line: numbers separated by spaces, tabs or commas; blank or `0` is empty."""
    return parse_clue(line.replace(",", " "), None, path, number, CLUE_SHAPE)


def fit(lines: Numbered, count: int, kind: str, end: tuple[int | None, str], path: PathName) -> list[Clue]:
    """Read `count` clues from `lines`, which may go on only with blank lines until `end`."""
    for number, text in lines:  # a clue that is two (`2\f2 1`) is said as one before the count
        refuse_odd_clue(text, path, number, CLUE_SHAPE)
    if len(lines) < count:
        line, what = end
        raise ParseError(path, line, f"expected {clue_count(count, kind)}, found {len(lines)} before {what}")
    extra = next((number for number, line in lines[count:] if line.strip()), None)
    if extra is not None:
        raise ParseError(path, extra, f"expected {clue_count(count, kind)}, found more")
    return [read_clue(line, number, path) for number, line in lines[:count]]


def read_mk_size(lines: Numbered, path: PathName) -> tuple[int, int]:
    """Read the `H W` first line of a `.mk` file."""
    number, line = lines[0]
    words = line.split()
    if len(words) != 2:
        raise ParseError(path, number, f"expected a first line 'height width', found {line.strip()!r}")
    height, width = parse_size(words[0], path, number, "height"), parse_size(words[1], path, number, "width")
    refuse_past_the_limits(width, height, path, number)
    return height, width


def load_mk(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from the text of an Olšák `.mk` file."""
    refuse_many_lines(text, path)
    lines = list(enumerate(split_lines(text), start=1))
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise ParseError(path, None, "expected a first line 'height width', found nothing")
    height, width = read_mk_size(lines, path)
    body = lines[1:]
    hash_at = next((i for i, (_, line) in enumerate(body) if line.strip() == "#"), None)
    if hash_at is None:
        raise ParseError(path, lines[-1][0], "expected a line '#' between the row and the column clues, found none")
    rows = fit(body[:hash_at], height, "row", (body[hash_at][0], "'#'"), path)
    columns = fit(body[hash_at + 1 :], width, "column", (lines[-1][0], "the end of the file"), path)
    return make_puzzle(path, lines[0][0], rows=rows, columns=columns, source=path)


def dump_mk(puzzle: Puzzle) -> str:
    """Write a puzzle as an Olšák `.mk` file (clues only)."""
    lines = [
        f"{puzzle.height} {puzzle.width}",
        *clue_lines(puzzle.rows, " "),
        "#",
        *clue_lines(puzzle.columns, " "),
    ]
    return "\n".join(lines) + "\n"


def check_g_preamble(lines: Numbered, path: PathName) -> Numbered:
    """Refuse triddlers; the lines of the `#d` colour declarations, if any."""
    declarations: Numbered = []
    declaring = False
    for number, line in lines:
        if line[:2].lower() == "#t":
            raise ParseError(path, number, "found a triddler ('#t'); only grid puzzles are supported")
        if line[:2].lower() == "#d":
            declaring = True
        elif declaring and line.strip() and not line.startswith("#"):
            declarations.append((number, line))
    return declarations


def declare_g_colours(declarations: Numbered, path: PathName) -> PaletteDraft:
    """The palette of `X:Y spec comment` declarations: `0` the background, `1` the colour of a
    bare number (black unless declared), any other X a letter its blocks carry."""
    draft = PaletteDraft(path)
    for number, line in declarations:
        text = line.lstrip()
        if len(text) < 2 or text[1] != ":":
            raise ParseError(path, number, f"expected a colour declaration such as 'r:#  red', found {line.strip()!r}")
        key, char, words = text[0], text[2:3], text[3:].split()
        spec = words[0] if words else ""
        if "/" in spec or "\\" in spec:
            raise ParseError(path, number, f"found triangle cells ({spec!r}); only square cells are supported")
        if key.isdigit() and key not in "01":
            raise ParseError(path, number, f"found the colour {key!r}: a colour's letter cannot be a digit but 0 and 1")
        rgb = parse_colour_value(spec) if spec else None
        if spec and rgb is None:  # 'r:r:&  red': a second ':' crept in; 'bleu' got a colour of ours (a review)
            raise ParseError(
                path, number, f"expected a colour name or a value such as #ff0000 after {text[:3]!r}, found {spec!r}"
            )
        named = spec if spec.lower() in NAMED else (words[1] if len(words) > 1 else "")
        name = clean_name(named or css_name(rgb or "") or key, path, number)
        swatch = Swatch(name, rgb or draft.value(None, name, number), char)
        if key == "0":
            draft.give_background(swatch, number)
        else:
            draft.declare(key, swatch, number)
    return draft


def read_g_clue(draft: PaletteDraft, line: str, number: int) -> ColourClue:
    """Read one clue line of a `.g` file: blocks such as `3` or `3r`, separated by spaces or commas."""
    refuse_odd_clue(line, draft.path, number, CLUE_SHAPE)
    tokens = line.replace(",", " ").split()
    default = bare_colour(draft, "1", tokens, number)
    blocks = [draft.block(token, default, number, CLUE_SHAPE) for token in tokens]
    return colour_clue(blocks, draft.path, number, line)


_SECTION = re.compile(r"(?<![^\r\n]):")
"""A line starting with ':', after LF, CR or CRLF."""


def _refuse_long_sections(text: str, path: PathName) -> None:
    """Refuse a section of more than MAX_SIDE clue lines from the text itself, before its lines
    are split (a fuzz review: 10 MB of one section ran over 60 s, and 1.5 GB, before the limit
    refused it; split and numbered, 2.6 s)."""
    starts = [found.start() for found in itertools.islice(_SECTION.finditer(text), 3)]
    for kind, start, end in zip(("row", "column"), starts, [*starts[1:], len(text)], strict=False):
        past = next(itertools.islice(FILLED_LINE.finditer(text, start, end), MAX_SIDE + 1, None), None)
        if past is not None:  # (the first line found is the section's own ':' line)
            refuse_past_the_side(MAX_SIDE + 1, kind, path, line_at(text, past.start()))


def load_g(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle, in black and white or colour, from the text of an Olšák `.g` file."""
    _refuse_long_sections(text, path)
    lines = list(enumerate(split_lines(text), start=1))
    colons = [i for i, (_, line) in enumerate(lines) if line.startswith(":")]
    draft = declare_g_colours(check_g_preamble(lines[: colons[0]] if colons else lines, path), path)
    if len(colons) < 2:
        where = lines[colons[0]][0] if colons else len(lines)  # (none: where the file ends, as .non's reader says)
        found = "" if colons else ", found none by the end of the file"
        raise ParseError(
            path, where, f"expected a ': rows' line and then a ': columns' line (lines starting with ':'){found}"
        )
    rows = lines[colons[0] + 1 : colons[1]]
    columns = lines[colons[1] + 1 : colons[2] if len(colons) > 2 else len(lines)]
    while len(colons) == 2 and columns and not columns[-1][1].strip():
        columns.pop()
    for kind, clues in (("row", rows), ("column", columns)):
        if len(clues) > MAX_SIDE:  # refused before the clues are read (a fuzz review: 10 MB for over 60 s)
            refuse_past_the_side(len(clues), kind, path, clues[MAX_SIDE][0])
    refuse_past_the_limits(len(columns), len(rows), path, lines[colons[0]][0])
    return colour_puzzle(
        draft,
        lines[colons[0]][0],
        [read_g_clue(draft, line, number) for number, line in rows],
        [read_g_clue(draft, line, number) for number, line in columns],
    )


def dump_g(puzzle: Puzzle) -> str:
    """Write a puzzle as an Olšák `.g` file (clues and colours only), ended by a ':' line."""
    palette = puzzle.palette
    preferred = [colour.char if colour.char in LETTERS else colour.name[:1] for colour in palette[1:]]
    letters = ["0", *designations(preferred, lambda char: char in LETTERS, LETTERS + SYMBOLS)]
    lines = []
    if puzzle.is_colour:
        lines = ["#d"] + [
            f"   {letter}:{colour.char}  {colour.rgb}   {colour.name}"
            for letter, colour in zip(letters, palette, strict=True)
        ]
    for kind, is_row, clues in (("rows", True, puzzle.rows), ("columns", False, puzzle.columns)):
        lines.append(f": {kind}")
        for index, clue in enumerate(clues):
            colours = puzzle.colours_of(is_row, index)
            suffixes = [letters[colour] if puzzle.is_colour else "" for colour in colours]
            lines.append(" ".join(f"{size}{suffix}" for size, suffix in zip(clue, suffixes, strict=True)))
    return "\n".join([*lines, ":"]) + "\n"
