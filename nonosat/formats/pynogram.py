"""pynogram's INI-like text format: a `[clues]` section with `columns =` and `rows =` settings.

As in pynogram (which reads it with Python's configparser), a line whose first non-blank
character is `#` or `;` is a comment, and so is the rest of a line from a `#` or `;` that
follows a space. A setting's value goes on over the following lines indented deeper than
its name, skipping blank and comment lines. The value is a list of clues separated by commas
and/or line breaks; a clue may be quoted ('1 1' or "1 1"), a line may end with a comma, and
`0` is an empty clue. Columns come first in pynogram's own files, but either order is read.
Other sections are skipped.

Colour: the `[colors]` section declares each colour as `b = (blue) *`: the name blocks call it
by (`1b`, or `3red` for a longer name), its value in parentheses (a colour name, a hex value or
`r, g, b`) and its character. A bare number is black; `black` and `white` need no declaration
(`white` declared is the background). nonogrid's TOML (`nonosat.formats.nonogrid`) declares its
colours the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nonosat.errors import ParseError
from nonosat.formats.colour import (
    ColourClue,
    PaletteDraft,
    Swatch,
    bare_colour,
    clean_name,
    colour_clue,
    colour_puzzle,
)
from nonosat.formats.common import PathName, refuse_many_lines, refuse_odd_clue, refuse_past_the_side, split_lines
from nonosat.limits import MAX_SIDE
from nonosat.model import Puzzle
from nonosat.palette import NAMED

CLUE_SHAPE = "a clue of whole numbers separated by spaces"
_SECTION = re.compile(r"\[(.+)\]")
_INLINE_COMMENT = re.compile(r"\s[#;].*")
_SETTING = re.compile(r"(.*?)\s*[=:]\s*(.*)")
_COLOUR = re.compile(r"\((.*)\)\s*(.*)")


@dataclass
class Setting:
    """One `name = value` setting: its line, and the value's lines with their numbers."""

    line: int
    values: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Section:
    """One `[name]` section: its line and its settings by (lower-case) name."""

    line: int
    settings: dict[str, Setting] = field(default_factory=dict)


def without_comment(line: str) -> str:
    """A line without its inline comment (a `#` or `;` after a space)."""
    return _INLINE_COMMENT.sub("", line).strip()


def read_sections(text: str, path: PathName) -> dict[str, Section]:
    """Read the INI structure: sections, their settings, and each setting's value lines."""
    sections: dict[str, Section] = {}
    section: Section | None = None
    setting: Setting | None = None
    indent = 0
    for number, line in enumerate(split_lines(text), start=1):
        value = without_comment(line)
        if not value or value[0] in "#;":
            continue
        level = len(line) - len(line.lstrip())
        if setting is not None and level > indent:
            setting.values.append((number, value))
            continue
        setting, indent = None, level
        header = _SECTION.fullmatch(value)
        if header:
            section = sections.setdefault(header.group(1).strip().lower(), Section(number))
        elif section is None:
            raise ParseError(path, number, f"expected a section header like [clues], found {value!r}")
        else:
            setting = read_setting(section, value, number, path)
    return sections


def read_setting(section: Section, value: str, number: int, path: PathName) -> Setting:
    """Start a `name = value` (or `name: value`) setting in a section."""
    match = _SETTING.fullmatch(value)
    if match is None:
        raise ParseError(path, number, f"expected 'name = value', found {value!r}")
    name, rest = match.groups()
    key = name.strip().lower()
    if key in section.settings:
        raise ParseError(path, number, f"found a second {key!r} setting")
    setting = section.settings[key] = Setting(number)
    if rest:
        setting.values.append((number, rest))
    return setting


def declare_colour(draft: PaletteDraft, key: str, description: str, line: int) -> None:
    """Declare a colour `key = (value) character`; `white` is the background."""
    match = _COLOUR.fullmatch(description.strip())
    if match is None:
        raise ParseError(draft.path, line, f"expected a colour such as '(blue) *', found {description.strip()!r}")
    value, char = match.group(1).strip(), match.group(2).strip()
    name = clean_name(value if value.lower() in NAMED else key, draft.path, line)
    swatch = Swatch(name, draft.value(value, key, line), char)
    if key == "white":
        draft.give_background(swatch, line)
    else:
        draft.declare(key, swatch, line)


def colour_draft(path: PathName, declarations: list[tuple[str, str, int]], black: str) -> PaletteDraft:
    """The palette of `(key, description, line)` declarations, black (for bare numbers) under
    `black` unless declared."""
    draft = PaletteDraft(path)
    for key, description, line in declarations:
        declare_colour(draft, key, description, line)
    return draft


def read_clue(draft: PaletteDraft, text: str, line: int | None, black: str) -> ColourClue:
    """Read one clue: blocks separated by spaces, each a number perhaps followed by its colour."""
    refuse_odd_clue(text, draft.path, line, CLUE_SHAPE)
    tokens = text.split()
    default = bare_colour(draft, black, tokens, line)
    blocks = [draft.block(token, default, line, CLUE_SHAPE) for token in tokens]
    return colour_clue(blocks, draft.path, line, text)


def read_clues(setting: Setting, draft: PaletteDraft, kind: str) -> list[ColourClue]:
    """Read a setting's clues: items separated by commas and line breaks, perhaps quoted."""
    clues: list[ColourClue] = []
    for number, value in setting.values:
        items = value.strip(",").split(",", MAX_SIDE)
        if len(items) + len(clues) > MAX_SIDE:  # before they are read (a fuzz review: 3 million took 20 s)
            refuse_past_the_side(len(items) + len(clues), kind, draft.path, number)
        for item in items:
            clue = item.strip().strip("'\"").strip()
            if not clue:
                raise ParseError(draft.path, number, f"expected a clue between commas, found nothing in {value!r}")
            clues.append(read_clue(draft, clue, number, "black"))
    return clues


def load_pynogram(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle, in black and white or colour, from pynogram's text format."""
    refuse_many_lines(text, path)
    sections = read_sections(text, path)
    if "clues" not in sections:
        raise ParseError(path, None, "expected a [clues] section, found none")
    colours = sections.get("colors", Section(0)).settings
    declarations = [(key, " ".join(v for _, v in s.values), s.line) for key, s in colours.items()]
    draft = colour_draft(path, declarations, "black")
    clues = sections["clues"]
    found: dict[str, list[ColourClue]] = {}
    for name in ("columns", "rows"):
        if name not in clues.settings:
            raise ParseError(path, clues.line, f"expected a '{name} =' setting in [clues], found none")
        found[name] = read_clues(clues.settings[name], draft, name[:-1])
    return colour_puzzle(draft, clues.line, found["rows"], found["columns"])
