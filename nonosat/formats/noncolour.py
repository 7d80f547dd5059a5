"""Colour in `.non` files, in its two dialects, told apart by their `color` lines.

nonogram-db's (its FORMAT.md, 2015): `color a #ff0000` gives a one-character designation and
its value; a block is a number followed by its designation (`3b,1a`), a bare number is
designation `1` (black unless declared), and the `goal` string holds designations with `0` for
blank. A designation may be used without a `color` line (it gets a spare colour), and
`color 0 #rrggbb` sets the background (an extension of nonosat's; white by default). Colours are
named by their CSS name where their value has one, else by their designation.

Nonny's: `color green 00B000 #` gives a name, a value (with or without '#') and, optionally, the
character of the colour in a goal; a clue is numbers and colour names separated by spaces,
commas or colons (`green 1 1 black 1`), a name holding until the next one within the line. A
number before any name is black, as in Nonny's reader. `color background FFFFFF` sets the
background.

A `color` line with two words of which the first is one character is nonogram-db's; any other
is Nonny's, and a file may not mix them. Without `color` lines, a file is in colour when a
block carries a designation (`3a`).

nonosat writes nonogram-db's dialect: it keeps the goal (Nonny's has none), but no colour names.
"""

from __future__ import annotations

import re

from nonosat.errors import ParseError
from nonosat.formats.colour import (
    WHITE_SWATCH,
    ColourClue,
    PaletteDraft,
    Swatch,
    clean_name,
    colour_clue,
    colour_puzzle,
    usable_char,
)
from nonosat.formats.common import PathName, optional_goal, refuse_odd_clue, refuse_token
from nonosat.model import Grid, Puzzle
from nonosat.palette import LETTERS, SYMBOLS, WHITE, css_name, designations

Numbered = list[tuple[str, int]]
"""Lines (or values) of a file, each with its 1-based line number."""

DB_SHAPE = "a clue of blocks such as 3 or 3a separated by commas"
NONNY_SHAPE = "a clue of numbers and colour names, such as 'red 1 2 blue 3'"
_DB_BLOCK = re.compile(r"([0-9]+)([^0-9,\s]?)")
_DESIGNATED = re.compile(r"[0-9][^0-9,\s]")
"""A number followed by a designation, as a colour clue has somewhere (a quick first look)."""
_NONNY_SEPARATORS = re.compile(r"[\s,:]+")
_NONNY_TOKEN = re.compile(r"([0-9]*)(.*)", re.S)
DB_POOL = LETTERS + SYMBOLS.replace("&", "")
"""The designations nonosat writes: letters first (digits, commas, quotes and '&', which the
goal's HTML escapes would read, never)."""


def is_db_declaration(value: str) -> bool:
    """Whether a `color` line's value is nonogram-db's (`a #ff0000`) rather than Nonny's."""
    words = value.split()
    return len(words) == 2 and len(words[0]) == 1


def dialect(colours: Numbered, sections: dict[str, Numbered], path: PathName) -> str | None:
    """ "db" or "nonny" for a colour file, None for black and white."""
    if colours:
        db = is_db_declaration(colours[0][0])
        for value, line in colours:
            if is_db_declaration(value) != db:
                raise ParseError(path, line, "found `color` lines of both nonogram-db's and Nonny's dialects")
        return "db" if db else "nonny"
    for lines in sections.values():
        for text, _ in lines:
            if _DESIGNATED.search(text) and any(_DB_BLOCK.fullmatch(item.strip()) for item in text.split(",")):
                return "db"
    return None


class DbColours(PaletteDraft):
    """nonogram-db's colours: each under its designation. In a file without `color` lines an
    undeclared one gets a spare colour, as its FORMAT.md allows; in one with them, it is refused
    (a typo: `1c` among `color a` and `color b` made a third colour, and the verdict 'none')."""

    declared = False

    def declare_line(self, value: str, line: int) -> None:
        key, text = value.split()
        rgb = self.value(text, key, line)
        self.declared = True  # any `color` line, the background's too: the others must be declared
        if key == "0":
            self.background = Swatch(css_name(rgb) or "background", rgb, ".")
        else:
            self.declare(key, Swatch(css_name(rgb) or key, rgb, key), line)

    def colour(self, key: str, line: int) -> int:
        """The index of a designation ('1' for a bare number), declared now if need be."""
        found = self.index(key)
        if found is not None:
            return found
        if key == "1":
            return self.declare(key, Swatch("black", "#000000", "1"), line, given=False)
        if not usable_char(key):
            raise ParseError(self.path, line, f"expected a colour designation, found {key!r}")
        if self.declared:
            known = ", ".join(self.keys) or "none but the background"
            raise ParseError(
                self.path, line, f"found the designation {key!r}, which no `color` line declares ({known})"
            )
        return self.declare(key, Swatch(key, self.value(None, "", line), key), line)

    def clue(self, text: str, line: int) -> ColourClue:
        refuse_odd_clue(text, self.path, line, DB_SHAPE)
        if not text.strip():
            return (), ()
        blocks = []
        for item in (item.strip() for item in text.split(",")):
            match = _DB_BLOCK.fullmatch(item)
            if match is None:
                refuse_token(item or text, self.path, line, DB_SHAPE, text)
            size, key = int(match.group(1)), match.group(2)  # a bare 0 (an empty clue) needs no colour:
            blocks.append((size, 0 if size == 0 and not key else self.colour(key or "1", line)))  # a 63rd
        return colour_clue(blocks, self.path, line, text)

    def cell(self, char: str, line: int) -> int:
        return 0 if char == "0" else self.colour(char, line)


class NonnyColours(PaletteDraft):
    """Nonny's colours: each under its name, with the character its goal would use."""

    def declare_line(self, value: str, line: int) -> None:
        words = value.split()
        if len(words) not in (2, 3):
            raise ParseError(self.path, line, f"expected 'color NAME RRGGBB [CHARACTER]', found 'color {value}'")
        name, text, char = [*words, ""][:3]
        swatch = Swatch(clean_name(name, self.path, line), self.value(text, name, line), char)
        if name == "background":
            self.give_background(swatch, line)
        else:
            self.declare(name, swatch, line)

    def known(self, name: str) -> bool:
        """Whether a clue may name this colour: a `color` line declares it, or it is black."""
        return name in ("black", "default") or self.index(name) is not None

    def colour(self, name: str, line: int) -> int:
        found = self.index(name)
        if found is not None:
            return found
        if name in ("black", "default"):
            return self.declare(name, Swatch("black", "#000000", "X"), line, given=False)
        raise ParseError(self.path, line, f"found the colour {name!r}, which no `color` line declares")

    def clue(self, text: str, line: int) -> ColourClue:
        sizes: list[int] = []
        colours: list[int] = []
        current = "black"
        refuse_odd_clue(text, self.path, line, NONNY_SHAPE)
        for token in filter(None, _NONNY_SEPARATORS.split(text.strip())):
            match = _NONNY_TOKEN.fullmatch(token)
            assert match is not None
            digits, name = match.groups()
            if digits:
                sizes.append(int(digits))
                colours.append(self.colour(current, line))
            if name and (digits or not name[0].isalpha()) and not self.known(name):
                # `1O` (a typo for 10), `1e3`, `0x10`: a name no `color` line declares, which
                # no number followed, was taken and dropped without a word (a fuzz review)
                raise ParseError(self.path, line, f"expected {NONNY_SHAPE}, found {token!r}")
            if name and not self.known(name):
                raise ParseError(self.path, line, f"found the colour {name!r}, which no `color` line declares")
            current = name or current
        return colour_clue(list(zip(sizes, colours, strict=True)), self.path, line, text)

    def cell(self, char: str, line: int) -> int:
        if char in ("0", self.background.char):
            return 0
        found = next((i for i, swatch in enumerate(self.swatches, start=1) if swatch.char == char), None)
        if found is None:
            raise ParseError(self.path, line, f"expected a goal of the colours' characters, found {char!r}")
        return found


def read_colour_non(
    kind: str,
    path: PathName,
    colours: Numbered,
    sections: dict[str, Numbered],
    goal: tuple[str, int] | None,
    size: tuple[int, int],
    **metadata: str,
) -> Puzzle:
    """A colour `.non` puzzle from its `color` lines, its clue lines and its goal, if any."""
    draft: DbColours | NonnyColours = DbColours(path, WHITE_SWATCH) if kind == "db" else NonnyColours(path)
    for value, line in colours:
        draft.declare_line(value, line)
    rows = [draft.clue(text, line) for text, line in sections["rows"]]
    columns = [draft.clue(text, line) for text, line in sections["columns"]]
    picture, goal_problem = optional_goal(lambda: read_goal(draft, goal, size))
    return colour_puzzle(draft, None, rows, columns, picture, goal_problem=goal_problem, **metadata)


def read_goal(draft: DbColours | NonnyColours, goal: tuple[str, int] | None, size: tuple[int, int]) -> Grid | None:
    """The goal picture, one character a cell, row by row."""
    if goal is None:
        return None
    cells, line = goal
    width, height = size
    if len(cells) != width * height:
        raise ParseError(
            draft.path, line, f"expected a goal of {width * height} cells ({width}x{height}), found {len(cells)}"
        )
    flat = [draft.cell(char, line) for char in cells]
    return tuple(tuple(flat[r * width : (r + 1) * width]) for r in range(height))


def colour_sections(puzzle: Puzzle) -> tuple[list[str], list[str], list[str], str | None]:
    """A colour puzzle in nonogram-db's dialect: its `color` lines, its row and column clue lines,
    and its goal string (None without a goal)."""
    palette = puzzle.palette
    preferred = [colour.char if colour.char in LETTERS else colour.name[:1] for colour in palette[1:]]
    chars = ["0", *designations(preferred, lambda char: char in LETTERS, DB_POOL)]
    lines = [] if palette[0].rgb == WHITE.rgb else [f"color 0 {palette[0].rgb}"]
    lines += [f"color {char} {colour.rgb}" for char, colour in zip(chars[1:], palette[1:], strict=True)]

    def clue_lines(is_row: bool) -> list[str]:
        clues = puzzle.rows if is_row else puzzle.columns
        return [
            ",".join(f"{size}{chars[colour]}" for size, colour in zip(clue, puzzle.colours_of(is_row, i), strict=True))
            or "0"
            for i, clue in enumerate(clues)
        ]

    goal = None if puzzle.goal is None else "".join(chars[cell] for row in puzzle.goal for cell in row)
    return lines, clue_lines(True), clue_lines(False), goal
