"""The `.cnon` colour format of cserradag96/colored-nonogram-solver.

A first line `C W H` (the number of colours, the width, the height), then C lines `NAME #RRGGBB`,
then H row clues and W column clues, one a line. A clue's blocks are `LENGTH:NAME`, separated by
commas (or spaces, as the solver's README says). The background is white. Blank lines are
skipped, as the solver reads no empty clue; `0` is read as one.
"""

from __future__ import annotations

import re

from nonosat.errors import ParseError
from nonosat.formats.colour import ColourClue, PaletteDraft, Swatch, clean_name, colour_clue, colour_puzzle
from nonosat.formats.common import (
    PathName,
    clue_count,
    parse_size,
    refuse_many_lines,
    refuse_odd_clue,
    refuse_past_the_limits,
    split_lines,
)
from nonosat.model import Puzzle
from nonosat.palette import MAX_COLOURS

CLUE_SHAPE = "a clue of blocks such as 2:A separated by commas"
_HEADER = re.compile(r"\s*[0-9]+\s+[0-9]+\s+[0-9]+\s*")
_COLOUR_LINE = re.compile(r"\s*\S+\s+#?[0-9A-Fa-f]{6}\s*")

SIZES = ("width", "height")

Numbered = list[tuple[int, str]]


def looks_like_cnon(lines: list[str]) -> bool:
    """Whether stripped lines start with `C W H` and then a colour `NAME #RRGGBB`."""
    return len(lines) > 1 and _HEADER.fullmatch(lines[0]) is not None and _COLOUR_LINE.fullmatch(lines[1]) is not None


def read_clue(draft: PaletteDraft, text: str, line: int) -> ColourClue:
    """Read one clue: `LENGTH:NAME` blocks separated by commas or spaces; `0` is empty."""
    refuse_odd_clue(text, draft.path, line, CLUE_SHAPE)
    if text.strip() == "0":
        return (), ()
    blocks = []
    for item in filter(None, re.split(r"[\s,]+", text.strip())):
        length, colon, name = item.partition(":")
        if not colon:
            raise ParseError(draft.path, line, f"expected {CLUE_SHAPE}, found {item!r}")
        size, colour = draft.block(length.strip(), 0, line, CLUE_SHAPE)
        found = draft.index(name.strip())
        if found is None:
            raise ParseError(draft.path, line, f"found {item!r}, but no colour {name.strip()!r} is declared")
        blocks.append((size, found))
    return colour_clue(blocks, draft.path, line, text)


def take(lines: Numbered, start: int, count: int, what: str, path: PathName) -> Numbered:
    """`count` lines from `start` (`what` says them), or a ParseError saying how many there are."""
    found = lines[start : start + count]
    if len(found) < count:
        raise ParseError(path, lines[-1][0], f"expected {what}, the file ends after {len(found)}")
    return found


def load_cnon(text: str, path: PathName = None) -> Puzzle:
    """Read a colour puzzle from the text of a `.cnon` file."""
    refuse_many_lines(text, path)
    lines = [(number, line) for number, line in enumerate(split_lines(text), start=1) if line.strip()]
    if not lines or len(lines[0][1].split()) != 3:
        raise ParseError(path, lines[0][0] if lines else None, "expected a first line 'colours width height'")
    number, header = lines[0]
    colours, *sizes = header.split()
    if not colours.isascii() or not colours.isdigit() or int(colours) < 1:
        expected = "the number of colours as a whole number of at least 1"
        raise ParseError(path, number, f"expected {expected}, found {colours!r}")
    count = int(colours)
    width, height = (parse_size(word, path, number, what) for word, what in zip(sizes, SIZES, strict=True))
    if count > MAX_COLOURS:  # (it was said as a side over its limit: a fuzz review)
        raise ParseError(path, number, f"found {count} colours: over the limit of {MAX_COLOURS} besides the background")
    refuse_past_the_limits(width, height, path, number)
    draft = PaletteDraft(path)
    for number, line in take(lines, 1, count, f"{count} colour lines", path):
        words = line.split()
        if len(words) != 2:
            raise ParseError(path, number, f"expected a colour 'NAME #RRGGBB', found {line.strip()!r}")
        name = clean_name(words[0], path, number)
        draft.declare(words[0], Swatch(name, draft.value(words[1], name, number), name[:1]), number, given=False)
    rows = [read_clue(draft, line, n) for n, line in take(lines, 1 + count, height, clue_count(height, "row"), path)]
    columns = [
        read_clue(draft, line, n)
        for n, line in take(lines, 1 + count + height, width, clue_count(width, "column"), path)
    ]
    extra = lines[1 + count + height + width :]
    if extra:
        raise ParseError(path, extra[0][0], f"expected the end of the file after {width} column clues")
    return colour_puzzle(draft, lines[0][0], rows, columns)
