"""pynogram's INI-like text format: a `[clues]` section with `columns =` and `rows =` settings.

As in pynogram (which reads it with Python's configparser), a line whose first non-blank
character is `#` or `;` is a comment, and so is the rest of a line from a `#` or `;` that
follows a space. A setting's value goes on over the following lines indented deeper than
its name, skipping blank and comment lines. The value is a list of clues separated by commas
and/or line breaks; a clue may be quoted ('1 1' or "1 1"), a line may end with a comma, and
`0` is an empty clue. Columns come first in pynogram's own files, but either order is read.
Other sections, such as `[colors]`, are skipped; a block with a colour (`2g`) is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nonosat.errors import ParseError
from nonosat.formats.common import PathName, make_puzzle, parse_clue, split_lines
from nonosat.model import Clue, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by spaces"
_SECTION = re.compile(r"\[(.+)\]")
_INLINE_COMMENT = re.compile(r"\s[#;].*")
_SETTING = re.compile(r"(.*?)\s*[=:]\s*(.*)")


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


def read_clues(setting: Setting, path: PathName) -> list[Clue]:
    """Read a setting's clues: items separated by commas and line breaks, perhaps quoted."""
    clues: list[Clue] = []
    for number, value in setting.values:
        for item in value.strip(",").split(","):
            clue = item.strip().strip("'\"").strip()
            if not clue:
                raise ParseError(path, number, f"expected a clue between commas, found nothing in {value!r}")
            clues.append(parse_clue(clue, None, path, number, CLUE_SHAPE))
    return clues


def load_pynogram(text: str, path: PathName = None) -> Puzzle:
    """Read a black-and-white puzzle from pynogram's text format."""
    sections = read_sections(text, path)
    if "clues" not in sections:
        raise ParseError(path, None, "expected a [clues] section, found none")
    clues = sections["clues"]
    found: dict[str, list[Clue]] = {}
    for name in ("columns", "rows"):
        if name not in clues.settings:
            raise ParseError(path, clues.line, f"expected a '{name} =' setting in [clues], found none")
        found[name] = read_clues(clues.settings[name], path)
    return make_puzzle(path, clues.line, rows=found["rows"], columns=found["columns"], source=path)
