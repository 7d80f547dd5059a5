"""Colour in the file formats: the palette a file declares, its coloured blocks, and the refusal
of colour by the formats that hold black and white only.

A reader of colour declares each colour in a `PaletteDraft` under the key its clues call it by
(a name, a letter), then hands the clues to `colour_puzzle`. The palette starts with the
background (white unless the file says otherwise), then each colour in the order the file
declares it. A colour that no block and no goal cell uses is left out, so that a file declaring
white, black and an unused red is the black-and-white puzzle it is. Names are made unique and
printable (spaces become '-'), and a colour without a usable character gets one of CHARS.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from nonosat.errors import InvalidPuzzle, ParseError, UsageError
from nonosat.formats.common import LONG_CLUE, PathName, make_puzzle, refuse_token, refuse_zero_between
from nonosat.limits import MAX_SIDE
from nonosat.model import Clue, Colours, Grid, Puzzle
from nonosat.palette import CHARS, MAX_COLOURS, Colour, parse_rgb, spare_rgb

ColourClue = tuple[Clue, Colours]
"""A line's clue and its blocks' colours, side by side."""

COLOUR_FORMATS = "xml, non, json or g"
"""The formats nonosat writes colour puzzles in, for messages."""

_BLOCK = re.compile(r"([0-9]+)(.*)", re.S)
_TRIPLET = re.compile(r"\(?\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*\)?")


@dataclass
class Swatch:
    """A colour as a file declares it: its name, "#rrggbb" value and character ('' if none)."""

    name: str
    rgb: str
    char: str = ""


WHITE_SWATCH = Swatch("white", "#ffffff", ".")
BLACK_SWATCH = Swatch("black", "#000000", "#")


def parse_colour_value(text: str) -> str | None:
    """ "#rrggbb" from a hex value, a CSS name or an "r, g, b" triplet; None if it is none of them."""
    rgb = parse_rgb(text)
    if rgb is not None:
        return rgb
    triplet = _TRIPLET.fullmatch(text.strip())
    if triplet is None or any(int(part) > 255 for part in triplet.groups()):
        return None
    return "#" + "".join(f"{int(part):02x}" for part in triplet.groups())


def colour_value(text: str | None, name: str, taken: set[str], path: PathName, line: int | None) -> str:
    """The "#rrggbb" of a colour's declared value; with none, of its name (a CSS name), else a
    spare colour not in `taken`."""
    if text:
        rgb = parse_colour_value(text)
        if rgb is None:
            raise ParseError(path, line, f"expected a colour value such as #ff0000 for {name!r}, found {text!r}")
        return rgb
    return parse_rgb(name) or spare_rgb(taken)


class PaletteDraft:
    """The colours a file declares so far, each under the key its clues use."""

    def __init__(self, path: PathName, background: Swatch = WHITE_SWATCH) -> None:
        self.path = path
        self.background = background
        self.swatches: list[Swatch] = []
        self.keys: dict[str, int] = {}
        self.given: dict[str, str] = {}
        """The characters the file itself gave colours, each with the colour's name."""
        self.background_given = False
        """Whether the background is the file's own (`give_background`), its character in `given`."""

    def value(self, text: str | None, name: str, line: int | None) -> str:
        """The "#rrggbb" of a colour's declared value (see `colour_value`)."""
        taken = {swatch.rgb for swatch in [self.background, *self.swatches]}
        return colour_value(text, name, taken, self.path, line)

    def declare(self, key: str, swatch: Swatch, line: int | None, given: bool = True) -> int:
        """Add a colour that clues call `key`; its index in the palette (1 for the first).
        `given`: the file gave its character (not the reader: a bare number's black, cnon's
        first letter), so that another colour of that character is refused."""
        if key in self.keys:
            raise ParseError(self.path, line, f"found colour {key!r} declared a second time")
        if len(self.swatches) >= MAX_COLOURS:
            raise ParseError(self.path, line, f"found more than {MAX_COLOURS} colours besides the background")
        if given and usable_char(swatch.char):  # a review: the second got another character without a word
            self._give(swatch, line)
        self.swatches.append(swatch)
        self.keys[key] = len(self.swatches)
        return len(self.swatches)

    def give_background(self, swatch: Swatch, line: int | None) -> None:
        """The background, as the file declares it (its character given by the file); declared
        again, the last one holds, as it did (its first character is no longer the file's)."""
        if self.background_given:
            self.given.pop(self.background.char, None)
        if usable_char(swatch.char):
            self._give(swatch, line)
        self.background, self.background_given = swatch, True

    def _give(self, swatch: Swatch, line: int | None) -> None:
        """Note the character the file gave a colour; refuse one it gave another already."""
        first = self.given.get(swatch.char)
        if first is not None:
            said = f"found the character {swatch.char!r} given to colour {first!r} and to {swatch.name!r}"
            raise ParseError(self.path, line, said)
        self.given[swatch.char] = swatch.name

    def index(self, key: str) -> int | None:
        """The palette index of the colour clues call `key`, if it was declared."""
        return self.keys.get(key)

    def block(self, token: str, default: int, line: int | None, expected: str) -> tuple[int, int]:
        """Read a block written as digits and, perhaps, the key of its colour ("3", "3r", "3red");
        a bare number has the colour `default`."""
        match = _BLOCK.fullmatch(token)
        if match is None:
            refuse_token(token, self.path, line, expected)
        digits, key = match.groups()
        if not key:
            return int(digits), default
        colour = self.index(key)
        if colour is None:
            raise ParseError(self.path, line, f"expected {expected}, found {token!r} (no colour {key!r} is declared)")
        return int(digits), colour


def bare_colour(draft: PaletteDraft, key: str, tokens: Sequence[str], line: int | None) -> int:
    """The colour of a bare number among `tokens` (0 where there is none): the one declared
    under `key`, or black, declared now where a block has it (bare and not 0, or named `key`:
    `1black`). Declared before any clue was read, black made a 63rd colour of a file that
    declares 62 and uses none bare (a review: a 62-colour `.g` file nonosat wrote could not be
    read back)."""
    found = draft.index(key)
    if found is not None or not any(_takes(token, key) for token in tokens):
        return found or 0  # (a bare 0, an empty clue, needs no colour: a review)
    return draft.declare(key, BLACK_SWATCH, line, given=False)


def _takes(token: str, key: str) -> bool:
    """Whether a block such as `3` (not 0) or `3black` has the colour under `key`."""
    match = _BLOCK.fullmatch(token)
    if match is None:
        return False
    digits, named = match.groups()
    return named == key or (not named and int(digits) > 0)


def colour_clue(blocks: Sequence[tuple[int, int]], path: PathName, line: int | None, found: str) -> ColourClue:
    """A clue from its blocks (size, colour index) as a file wrote them (`found`, at `line`): a 0
    between the others is refused there, zero-size blocks before or after them are dropped later."""
    sizes = tuple(size for size, _ in blocks)
    refuse_zero_between(sizes, path, line, found)
    if len(sizes) > MAX_SIDE:  # (refused as it is read where it is long: refuse_odd_clue)
        raise ParseError(path, line, LONG_CLUE)
    return sizes, tuple(colour for _, colour in blocks)


def clean_name(name: str, path: PathName, line: int | None) -> str:
    """A colour name without spaces (runs of them become '-'), refused if not printable."""
    cleaned = "-".join(name.split())
    if not cleaned.isprintable():
        raise ParseError(path, line, f"expected a printable colour name, found {name!r}")
    return cleaned


def settle(swatches: Sequence[Swatch], fallback_names: Sequence[str]) -> tuple[Colour, ...]:
    """Colours from swatches, each name and character made unique (a repeated or missing name
    takes its fallback, else a number; a missing or repeated character takes one of CHARS)."""
    names: list[str] = []
    for swatch, fallback in zip(swatches, fallback_names, strict=True):
        stem = swatch.name or fallback or "colour"
        candidates = [swatch.name, fallback, *(f"{stem}-{i}" for i in range(2, 2 + len(swatches)))]
        names.append(next(name for name in candidates if name and name not in names))
    chars: list[str] = []
    wanted = {s.char for s in swatches if usable_char(s.char)}
    for index, swatch in enumerate(swatches):
        char = swatch.char
        if not usable_char(char) or char in chars:
            pool = ("." if index == 0 else "") + CHARS + "!$%&*+=?@^~"
            char = next(c for c in pool if c not in chars and c not in wanted)
        chars.append(char)
    return tuple(Colour(name, s.rgb, char) for name, s, char in zip(names, swatches, chars, strict=True))


def usable_char(char: str) -> bool:
    """Whether a character can stand for a colour: one printable character that is not a space."""
    return len(char) == 1 and char.isprintable() and not char.isspace()


def colour_puzzle(
    draft: PaletteDraft,
    line: int | None,
    rows: Sequence[ColourClue],
    columns: Sequence[ColourClue],
    goal: Grid | None = None,
    **fields: object,
) -> Puzzle:
    """The puzzle of coloured clues (and goal), with the colours they use in the draft's order."""
    used = {c for clue, colours in (*rows, *columns) for size, c in zip(clue, colours, strict=True) if size}
    used |= {cell for row in goal or () for cell in row if cell}
    swatches = draft.swatches or [BLACK_SWATCH]
    kept = sorted(c for c in used if 1 <= c <= len(swatches)) or [1]
    new = {old: index for index, old in enumerate(kept, start=1)} | {0: 0}
    keys = {index: key for key, index in draft.keys.items()}
    try:
        palette = settle(
            [draft.background, *(swatches[old - 1] for old in kept)],
            ["background", *("-".join(keys.get(old, "").split()) for old in kept)],
        )
    except InvalidPuzzle as error:
        raise ParseError(draft.path, line, str(error)) from error

    def remapped(clues: Sequence[ColourClue]) -> tuple[list[Clue], list[Colours]]:
        lines = [[(size, c) for size, c in zip(*clue, strict=True) if size != 0] for clue in clues]
        return [tuple(s for s, _ in b) for b in lines], [tuple(new.get(c, -1) for _, c in b) for b in lines]

    row_clues, row_colours = remapped(rows)
    column_clues, column_colours = remapped(columns)
    return make_puzzle(
        draft.path,
        line,
        rows=row_clues,
        columns=column_clues,
        row_colours=row_colours,
        column_colours=column_colours,
        goal=None if goal is None else tuple(tuple(new.get(cell, -1) for cell in row) for row in goal),
        palette=palette,
        source=draft.path,
        **fields,
    )


def black_and_white_only(fmt: str) -> None:
    """Refuse to write a colour puzzle in a format that holds black and white only."""
    raise UsageError(
        f"cannot write a colour puzzle as {fmt}: the format holds black and white only"
        f" (write colour as {COLOUR_FORMATS})"
    )
