"""The colours of a puzzle: the background first, then every colour a block can have.

A grid's cell holds an index into its puzzle's palette: 0 is the background (a blank cell), 1 the
first colour, and so on. Black and white is the palette of one colour, black, on white; every
layer treats it as the one-colour case of the same model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from nonosat.errors import InvalidPuzzle

MAX_COLOURS = 62
"""Colours besides the background (a letter or digit each, as the formats that name colours by
one character allow)."""


@dataclass(frozen=True)
class Colour:
    """One colour: its name, its "#rrggbb" value and the character that stands for it in a grid."""

    name: str
    rgb: str
    char: str

    def __post_init__(self) -> None:
        for field_name in ("name", "rgb", "char"):
            value = getattr(self, field_name)
            if not isinstance(value, str):  # Colour(1, 2, 3) raised AttributeError (a review)
                raise InvalidPuzzle(f"a colour's {field_name} is text, not {type(value).__name__} ({value!r})")
        rgb = parse_rgb(self.rgb)
        if rgb is None:
            raise InvalidPuzzle(f"colour {self.name!r}: {self.rgb!r} is not an RGB value such as #ff0000")
        object.__setattr__(self, "rgb", rgb)
        if not self.name or not self.name.isprintable() or any(ch.isspace() for ch in self.name):
            raise InvalidPuzzle(f"colour name {self.name!r} must be printable, without spaces")
        if len(self.char) != 1 or not self.char.isprintable() or self.char.isspace():
            raise InvalidPuzzle(f"colour {self.name!r}: its character {self.char!r} must be one printable character")

    @property
    def red_green_blue(self) -> tuple[int, int, int]:
        return int(self.rgb[1:3], 16), int(self.rgb[3:5], 16), int(self.rgb[5:7], 16)

    @property
    def is_dark(self) -> bool:
        """Whether white text reads better than black on this colour (by its luminance)."""
        red, green, blue = self.red_green_blue
        return 0.299 * red + 0.587 * green + 0.114 * blue < 140


Palette = tuple[Colour, ...]
"""The background first, then each colour; a cell of a grid holds its colour's index here."""

_HEX = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")

NAMED = {
    "white": "#ffffff",
    "black": "#000000",
    "red": "#ff0000",
    "green": "#008000",
    "blue": "#0000ff",
    "yellow": "#ffff00",
    "orange": "#ffa500",
    "purple": "#800080",
    "brown": "#a52a2a",
    "grey": "#808080",
    "gray": "#808080",
    "pink": "#ffc0cb",
    "cyan": "#00ffff",
    "magenta": "#ff00ff",
    "lime": "#00ff00",
    "navy": "#000080",
    "maroon": "#800000",
    "olive": "#808000",
    "teal": "#008080",
    "silver": "#c0c0c0",
    "gold": "#ffd700",
    "beige": "#f5f5dc",
    "tan": "#d2b48c",
    "violet": "#ee82ee",
    "indigo": "#4b0082",
    "darkgreen": "#006400",
    "darkblue": "#00008b",
    "darkred": "#8b0000",
    "lightblue": "#add8e6",
    "lightgreen": "#90ee90",
    "lightgrey": "#d3d3d3",
    "lightgray": "#d3d3d3",
    "darkgrey": "#a9a9a9",
    "darkgray": "#a9a9a9",
    "skyblue": "#87ceeb",
    "salmon": "#fa8072",
    "khaki": "#f0e68c",
    "crimson": "#dc143c",
    "turquoise": "#40e0d0",
}
"""Colour names some formats use without a value (`(blue)` in nonogrid's TOML), as CSS names them."""


def parse_rgb(text: str) -> str | None:
    """ "#rrggbb" (lower case) from "#rgb", "rgb", "#rrggbb", "rrggbb" or a CSS name; None if neither."""
    text = text.strip()
    match = _HEX.fullmatch(text)
    if match is None:
        return NAMED.get(text.lower())
    digits = match.group(1).lower()
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return "#" + digits


WHITE = Colour("white", "#ffffff", ".")
BLACK = Colour("black", "#000000", "#")
BLACK_AND_WHITE: Palette = (WHITE, BLACK)

CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
"""Characters for colours whose format gives them none, in order."""


def check_palette(palette: Palette) -> None:
    """Refuse a palette without a colour, over MAX_COLOURS, with a name or character twice, or of
    things that are not Colours (strings or tuples raised AttributeError: a review)."""
    if not isinstance(palette, tuple | list):  # None was a bare TypeError (a review)
        raise InvalidPuzzle(f"a palette is a tuple of Colours (name, rgb, char), not {type(palette).__name__}")
    strange = next((colour for colour in palette if not isinstance(colour, Colour)), None)
    if strange is not None:
        raise InvalidPuzzle(f"a palette holds Colours (name, rgb, char), not {type(strange).__name__} ({strange!r})")
    if len(palette) < 2:
        raise InvalidPuzzle("a palette needs the background and at least one colour")
    if len(palette) - 1 > MAX_COLOURS:
        raise InvalidPuzzle(f"{len(palette) - 1} colours is over the limit of {MAX_COLOURS}")
    for what, values in (("name", [c.name for c in palette]), ("character", [c.char for c in palette])):
        seen: set[str] = set()
        for value in values:
            if value in seen:
                raise InvalidPuzzle(f"two colours have the {what} {value!r}")
            seen.add(value)


def grid_chars(palette: object, most: int) -> list[str]:
    """The characters of a grid's colours 0..`most` in a palette given to the library: a UsageError
    unless it is a puzzle's Colours, at least `most` + 1 of them."""
    palette = tuple(palette) if isinstance(palette, tuple | list) else palette
    if not isinstance(palette, tuple) or len(palette) <= most or not all(isinstance(c, Colour) for c in palette):
        from nonosat.errors import UsageError

        raise UsageError(f"palette is the puzzle's Colours ({most + 1} or more), not {palette!r}")
    return [colour.char for colour in palette]


def is_black_and_white(palette: Palette) -> bool:
    """Whether a palette is black on white, whatever its names and characters."""
    return len(palette) == 2 and palette[0].rgb == WHITE.rgb and palette[1].rgb == BLACK.rgb


def unique_chars(palette: Palette) -> Palette:
    """The palette with any repeated character replaced by the next unused one of CHARS."""
    used: set[str] = set()
    fixed = []
    for colour in palette:
        char = colour.char
        if char in used:
            char = next(c for c in CHARS if c not in used and c not in {x.char for x in palette})
        used.add(char)
        fixed.append(Colour(colour.name, colour.rgb, char))
    return tuple(fixed)


def css_name(rgb: str) -> str | None:
    """The CSS name of an "#rrggbb" value, if it has one (the first NAMED gives it)."""
    return next((name for name, value in NAMED.items() if value == rgb), None)


SPARE_RGB = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#469990",
    "#9a6324",
    "#800000",
    "#808000",
    "#000075",
    "#fabed4",
    "#dcbeff",
    "#aaffc3",
    "#ffd8b1",
    "#a9a9a9",
)
"""Distinct colours (Sasha Trubetskoy's list) for a colour its file gives no value, in order."""


def spare_rgb(taken: set[str]) -> str:
    """A colour for one its file gives no value: the first of SPARE_RGB not in `taken`, else a
    grey not in `taken` (there are more greys than MAX_COLOURS)."""
    for rgb in SPARE_RGB:
        if rgb not in taken:
            return rgb
    return next(grey for level in range(1, 255) if (grey := "#" + f"{level:02x}" * 3) not in taken)


LETTERS = CHARS[:52]
SYMBOLS = "+*@%$&=~^!?<>/()[]{}_-."
"""With LETTERS, characters a format may name colours by where digits and spaces have a meaning
of their own: 75 in all, more than MAX_COLOURS plus the background."""


def designations(chars: list[str], keep: Callable[[str], bool], pool: str) -> list[str]:
    """A distinct character for each colour, for a format that names colours by one character:
    the colour's own character (of `chars`) where `keep` allows it and it is not yet given, else
    the first character of `pool` that is neither given nor another colour's own kept one."""
    wanted = {char for char in chars if keep(char)}
    given: list[str] = []
    for char in chars:
        if keep(char) and char not in given:
            given.append(char)
        else:
            given.append(next(c for c in pool if c not in given and c not in wanted))
    return given
