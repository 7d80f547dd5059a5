"""Steve Simpson's `.non` format, as extended by nonogram-db, in black and white or colour.

A file is a list of `key value` lines. `width` and `height` come first; `rows` and `columns`
each start a section of exactly `height` (or `width`) clue lines, with commas between the
numbers and `0` or an empty line for an empty clue. Blank lines between keys are ignored,
and so are keys this reader does not know. `goal "0110..."` gives the picture row by row ('0'
or '.' blank, any other character filled).

Colour (`color` lines, or blocks such as `3a`) comes in nonogram-db's dialect or Nonny's: see
`nonosat.formats.noncolour`, which reads both and writes nonogram-db's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nonosat.errors import ParseError
from nonosat.formats.common import (
    PathName,
    clue_count,
    clue_lines,
    goal_from_text,
    goal_text,
    make_puzzle,
    optional_goal,
    parse_clue,
    parse_size,
    refuse_past_the_limits,
    split_lines,
)
from nonosat.model import Puzzle

METADATA_KEYS = {
    "catalogue": "catalogue",
    "title": "title",
    "by": "author",
    "copyright": "copyright",
    "license": "license",
}
"""The string keys of the file, each with the Puzzle field it fills, in the order they are written."""

SECTIONS = {"rows": "height", "columns": "width"}
"""Each clue section and the size key that says how many clues it holds."""

KNOWN_KEYS = {*METADATA_KEYS, *SECTIONS, "width", "height", "goal", "color"}

CLUE_SHAPE = "a clue of whole numbers separated by commas"
_CLUE_LIKE = re.compile(r"[0-9][0-9,\s]*")
_BARE_LICENSE = re.compile(r"[A-Za-z0-9.+-]+")


@dataclass
class _Draft:
    """What has been read of a `.non` file so far."""

    path: PathName
    sizes: dict[str, int] = field(default_factory=dict)
    sections: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """Each section's clue lines, with their line numbers, read once the colours are known."""
    colours: list[tuple[str, int]] = field(default_factory=list)
    """The value of each `color` line, with its line number."""
    metadata: dict[str, str] = field(default_factory=dict)
    goal: tuple[str, int] | None = None
    section: str | None = None
    last_key: str | None = None
    blank_end: tuple[str, int] | None = None
    """A section whose last clue is a blank line, and its number, while the next line is unread."""
    blank_ends: list[tuple[str, int]] = field(default_factory=list)
    """Sections whose last clue is a blank line right before a key or the end of the file."""

    def wanted(self, section: str) -> int:
        """How many clues a section must hold."""
        return self.sizes[SECTIONS[section]]

    def section_open(self) -> bool:
        """Whether the current section still lacks clues (so a blank line is an empty clue)."""
        return self.section is not None and len(self.sections[self.section]) < self.wanted(self.section)

    def read(self, line: str, number: int) -> None:
        """Take in one line of the file."""
        if self.blank_end is not None and line.strip():
            self.blank_ends.append(self.blank_end)
        self.blank_end = None
        if self.section_open():
            self.read_clue(line, number)
            if not line.strip() and not self.section_open():
                assert self.section is not None
                self.blank_end = (self.section, number)
        else:
            self.section = None
            self.read_key(line, number)

    def read_clue(self, line: str, number: int) -> None:
        """Take in one clue line of the open section."""
        assert self.section is not None
        clues = self.sections[self.section]
        word = line.split(None, 1)[0] if line.strip() else ""
        if word in KNOWN_KEYS:
            raise self.shortfall(number, f"found {len(clues)} before {word!r}")
        clues.append((line, number))

    def read_key(self, line: str, number: int) -> None:
        """Take in one `key value` line; blank lines and unknown keys are skipped."""
        if not line.strip():
            return
        key, value = [*line.split(None, 1), ""][:2]
        value = value.strip()
        again = key in METADATA_KEYS and METADATA_KEYS[key] in self.metadata  # a second title: which holds?
        if again or key in self.sizes or (key == "goal" and self.goal is not None):
            # a second: which holds? (a review found the clues read by one width, the goal by the other)
            raise ParseError(self.path, number, f"found a second {key!r} line")
        if key in ("width", "height"):
            self.sizes[key] = parse_size(value, self.path, number, key)
            if len(self.sizes) == 2:  # past the cells' limit: at its line, before the clues (a fuzz review)
                refuse_past_the_limits(self.sizes["width"], self.sizes["height"], self.path, number)
        elif key in SECTIONS:
            self.open_section(key, number)
        elif key in METADATA_KEYS:
            self.metadata[METADATA_KEYS[key]] = unquote(value, self.path, number)
        elif key == "goal":
            self.goal = (unquote(value, self.path, number), number)
        elif key == "color":
            self.colours.append((value, number))
        elif self.last_key in SECTIONS and self.clue_like(re.split(r"[\s,:]", line.strip(), maxsplit=1)[0]):
            kind = self.last_key
            raise ParseError(self.path, number, f"expected {clue_count(self.wanted(kind), kind[:-1])}, found more")
        self.last_key = key

    def clue_like(self, word: str) -> bool:
        """Whether a line past a section's end, starting with `word`, reads as one clue more: numbers
        (`3 1`, or nonogram-db's `3a,1b`), or Nonny's blocks after a colour's name (`red 4`)."""
        names = {value.split(None, 1)[0] for value, _ in self.colours if value.strip()}
        return word[:1].isdigit() or word in names | {"black", "default"}

    def open_section(self, section: str, number: int) -> None:
        """Start reading the clues of `rows` or `columns`."""
        if not {"width", "height"} <= self.sizes.keys():
            raise ParseError(self.path, number, f"expected 'width' and 'height' before {section!r}")
        if section in self.sections:
            raise ParseError(self.path, number, f"found a second {section!r} section")
        self.sections[section] = []
        self.section = section

    def shortfall(self, number: int, ending: str) -> ParseError:
        """The error for an open section that holds fewer clues than the puzzle's size says."""
        assert self.section is not None
        wanted = clue_count(self.wanted(self.section), self.section[:-1])
        return ParseError(self.path, number, f"expected {wanted}, {ending}")

    def finish(self, last_line: int) -> Puzzle:
        """The puzzle read, once every line has been taken in."""
        if self.section_open():
            assert self.section is not None
            raise self.shortfall(last_line, f"the file ends after {len(self.sections[self.section])}")
        for key in ("width", "height", "rows", "columns"):
            if key not in self.sizes and key not in self.sections:
                raise ParseError(self.path, last_line, f"expected a {key!r} line, found none by the end of the file")
        if self.colours or not all(_CLUE_LIKE.fullmatch(text) for lines in self.sections.values() for text, _ in lines):
            # Colour perhaps: its readers are imported only then (4 ms, most files are black and white)
            from nonosat.formats.noncolour import dialect, read_colour_non

            kind = dialect(self.colours, self.sections, self.path)
            if kind is not None:
                size = (self.sizes["width"], self.sizes["height"])
                puzzle = read_colour_non(kind, self.path, self.colours, self.sections, self.goal, size, **self.metadata)
                self.refuse_a_missing_clue(puzzle.totals(True) != puzzle.totals(False))  # in colour too (a review)
                return puzzle
        rows, columns = (
            [parse_clue(text, ",", self.path, number, CLUE_SHAPE) for text, number in self.sections[key]]
            for key in SECTIONS
        )
        self.refuse_a_missing_clue(sum(map(sum, rows)) != sum(map(sum, columns)))
        goal, goal_problem = optional_goal(self.read_goal)
        return make_puzzle(
            self.path,
            None,
            rows=rows,
            columns=columns,
            goal=goal,
            goal_problem=goal_problem,
            source=self.path,
            **self.metadata,
        )

    def refuse_a_missing_clue(self, totals_differ: bool) -> None:
        """A section whose last clue is a blank line right before a key (or the end of the file)
        may be short of a clue, the blank line between sections taken for one (a fuzz review:
        a row deleted, the others read one up and an empty last row, `none`). Where the row and
        column clues then fill different numbers of cells, that is said rather than `none`."""
        if self.blank_end is not None:  # the end of the file came next
            self.blank_ends.append(self.blank_end)
        if self.blank_ends and totals_differ:
            section, number = self.blank_ends[0]
            wanted = clue_count(self.wanted(section), section[:-1])
            raise ParseError(
                self.path,
                number,
                f"expected {wanted}, found this blank line as the last, right before the next key, and the row and"
                " column clues filling different numbers of cells: is a clue missing above it?",
            )

    def read_goal(self) -> tuple[tuple[int, ...], ...] | None:
        """The goal picture, if the file gave one."""
        if self.goal is None:
            return None
        cells, number = self.goal
        return goal_from_text(cells, self.sizes["width"], self.sizes["height"], self.path, number)


def unquote(value: str, path: PathName, line: int) -> str:
    """Read a string value: quoted (or, leniently, bare), with HTML escapes undone."""
    if value.startswith('"'):
        if len(value) < 2 or not value.endswith('"'):
            raise ParseError(path, line, f"expected a closing quote in {value!r}")
        value = value[1:-1]
    if "&" not in value:
        return value  # no escapes: html (6 ms of imports) is not needed
    from html import unescape

    return unescape(value)


def quote(text: str) -> str:
    """Write a string value in quotes, HTML-escaping only what would not read back the same."""
    from html import unescape

    escaped = _escape_breaks(text)
    if unescape(escaped) != text:
        escaped = _escape_breaks(text.replace("&", "&amp;"))
    return f'"{escaped}"'


def _escape_breaks(text: str) -> str:
    """Escape the characters that would end a quoted value or its line."""
    return text.replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")


def load_non(text: str, path: PathName = None, *, first_line: int = 1) -> Puzzle:
    """Read a puzzle from the text of a `.non` file; its lines are numbered from `first_line`
    (a part of a `.nonpack` keeps the whole file's numbers)."""
    draft = _Draft(path)
    lines = split_lines(text)
    for number, line in enumerate(lines, start=first_line):
        draft.read(line, number)
    return draft.finish(first_line - 1 + len(lines))


def metadata_lines(puzzle: Puzzle) -> list[str]:
    """The `key "value"` lines for the metadata a puzzle has."""
    lines = []
    for key, name in METADATA_KEYS.items():
        value = getattr(puzzle, name)
        if value is None:
            continue
        bare = key == "license" and _BARE_LICENSE.fullmatch(value)
        lines.append(f"{key} {value if bare else quote(value)}")
    return lines


def dump_non(puzzle: Puzzle) -> str:
    """Write a puzzle as a `.non` file: metadata, size, (colours,) rows, columns, and the goal
    if known; colour in nonogram-db's dialect."""
    if puzzle.is_colour:
        from nonosat.formats.noncolour import colour_sections

        colours, rows, columns, goal = colour_sections(puzzle)
    else:
        colours, rows, columns = [], clue_lines(puzzle.rows, ","), clue_lines(puzzle.columns, ",")
        goal = None if puzzle.goal is None else goal_text(puzzle.goal)
    lines = [
        *metadata_lines(puzzle),
        f"width {puzzle.width}",
        f"height {puzzle.height}",
        *colours,
        "",
        "rows",
        *rows,
        "",
        "columns",
        *columns,
    ]
    if goal is not None:
        lines += ["", f'goal "{goal}"']
    return "\n".join(lines) + "\n"
