"""Jan Wolter's webpbn XML format (https://webpbn.com/pbn_fmt.html), in black and white or colour.

A `<puzzleset>` holds one or more `<puzzle type="grid">`. Each may have an `<id>` (read as the
catalogue entry), `<title>`, `<author>`, `<copyright>` and `<description>` (the set's own author
and copyright stand in for missing ones; `<source>`, `<authorid>` and `<note>` are not kept),
`<color name=".." char="..">` definitions, `<clues type="columns">` and `<clues type="rows">`
made of `<line>`s of `<count>`s (an empty `<line/>` is an empty clue), and a `<solution
type="goal">` whose `<image>` draws the picture row by row, each row between `|` marks, one
colour character per cell. A puzzle given only by its goal gets its clues from the goal.

Colour: a `<color name="red" char="r">f00</color>` defines a colour by a 3- or 6-digit hex value
(or, left empty, by its CSS name); `white` and `black` need no definition (their characters
are `.` and `X` unless the file gives those to other colours). The puzzle's
`backgroundcolor` (default white) is the blank of the palette, whatever its place in the file;
its `defaultcolor` (default black) is the colour of a `<count>` without a `color` attribute
(number-loom writes `defaultcolor="white"` and colours every count). The goal image uses each
colour's `char`. A colour that no count and no goal cell uses is left out of the palette. A
colour puzzle is written with every colour defined (the background first), `color=` on every
count, and the goal in the colours' characters (a '|' character is replaced).
"""

from __future__ import annotations

from collections.abc import Sequence

from nonosat.errors import ParseError
from nonosat.formats.colour import (
    ColourClue,
    PaletteDraft,
    Swatch,
    clean_name,
    colour_clue,
    colour_puzzle,
    colour_value,
    parse_colour_value,
)
from nonosat.formats.common import PathName, optional_goal
from nonosat.formats.select import choose, numbered
from nonosat.formats.xmltree import Node, parse_tree
from nonosat.model import Clue, Grid, Puzzle, runs_of
from nonosat.palette import CHARS, SYMBOLS, designations

METADATA_TAGS = {
    "id": "catalogue",
    "title": "title",
    "author": "author",
    "copyright": "copyright",
    "description": "description",
}
"""The puzzle's text elements, each with the Puzzle field it fills, in the order they are written."""

CLUE_TYPES = ("rows", "columns")
SET_DEFAULTS = ("author", "copyright")
"""The set's own text elements that stand in for a puzzle's missing ones."""
DEFAULT_CHARS = {"white": ".", "black": "X"}
"""The characters of the two colours a black-and-white file may use without defining them."""


def read_count(node: Node, path: PathName) -> int:
    """Read one `<count>`: a whole number."""
    if node.children:  # `<count>5<b/>1</count>` was read as 51 (a fuzz review)
        raise ParseError(
            path, node.children[0].line, f"expected a whole number in <count>, found <{node.children[0].tag}>"
        )
    text = node.text.strip()
    if not text.isascii() or not text.isdigit():
        raise ParseError(path, node.line, f"expected a whole number in <count>, found {text!r}")
    return int(text)


class XmlColours:
    """A puzzle's colours: the palette drafted from its `<color>` definitions (the background
    first), the colour of a `<count>` without one, and what each goal character stands for."""

    def __init__(self, puzzle: Node, path: PathName) -> None:
        self.path = path
        self.background = puzzle.attrs.get("backgroundcolor", "white")
        self.default = puzzle.attrs.get("defaultcolor", "black")
        self.chars: dict[str, str] = {}
        self.given = {node.attrs["char"][:1] for node in puzzle.elements("color") if "char" in node.attrs}
        definitions: dict[str, tuple[Swatch, int]] = {}
        for node in puzzle.elements("color"):
            name = node.attrs.get("name")
            if name is None:
                raise ParseError(path, node.line, "expected a name attribute in <color>")
            if name in definitions:  # the last one won, silently: another picture (a review)
                raise ParseError(path, node.line, f"found colour {name!r} declared a second time")
            self.chars[name] = char = node.attrs["char"][:1] if "char" in node.attrs else self.default_char(name)
            same = next((other for other in definitions if char and self.chars[other] == char), None)
            if same is not None:  # a goal's `X` was the first's, without a word (a fuzz review)
                raise ParseError(
                    path, node.line, f"found the character {char!r} given to colour {same!r} and to {name!r}"
                )
            taken = {swatch.rgb for swatch, _ in definitions.values()}
            value = node.text.strip()
            if not value and parse_colour_value(name) is None:  # a review: it got a colour of ours, without a word
                raise ParseError(path, node.line, f"expected a colour value such as #ff0000 for {name!r}, found none")
            rgb = colour_value(value, name, taken, path, node.line)
            definitions[name] = (Swatch(clean_name(name, path, node.line), rgb, char), node.line)
        self.draft = PaletteDraft(path, self.swatch(self.background, definitions, puzzle.line))
        for name, (swatch, line) in definitions.items():
            if name != self.background:
                self.draft.declare(name, swatch, line)
        if self.default in DEFAULT_CHARS and self.default not in self.chars and self.default != self.background:
            self.declare_implicit(self.default, puzzle.line)
        self.cells = {self.chars.get(self.background, ""): 0}
        for name, index in self.draft.keys.items():
            self.cells.setdefault(self.chars.get(name, ""), index)

    def swatch(self, name: str, definitions: dict[str, tuple[Swatch, int]], line: int) -> Swatch:
        """The colour of that name, as defined or (white and black) by default."""
        if name in definitions:
            return definitions[name][0]
        if name not in DEFAULT_CHARS:
            raise ParseError(self.path, line, f"found the colour {name!r}, which no <color> defines")
        self.chars[name] = char = self.default_char(name)
        return Swatch(name, colour_value(None, name, set(), self.path, line), char)

    def default_char(self, name: str) -> str:
        """White's `.` and black's `X` where the file gives them no character, unless it gives
        that character to another colour: then none (the file's own wins, whatever its place;
        such a colour cannot be drawn in a goal)."""
        char = DEFAULT_CHARS.get(name, "")
        return "" if char in self.given else char

    def declare_implicit(self, name: str, line: int) -> int:
        """Declare white or black, which a file may use without a `<color>`."""
        return self.draft.declare(name, self.swatch(name, {}, line), line, given=False)

    def colour_of(self, count: Node) -> int:
        """The palette index of a `<count>`'s colour."""
        name = count.attrs.get("color", self.default)
        if name == self.background:
            raise ParseError(self.path, count.line, f"found a block of the background colour {name!r}")
        index = self.draft.index(name)
        return index if index is not None else self.declare_implicit(name, count.line)


def read_clues(node: Node, colours: XmlColours, path: PathName) -> list[ColourClue]:
    """Read the `<line>`s of one `<clues>` element: each count's length and colour."""
    clues = []
    for inside, tag in ((node, "line"), *((line, "count") for line in node.elements("line"))):
        other = next((child for child in inside.children if child.tag != tag), None)
        if other is not None:  # a misspelled `<lnie>` was skipped without a word (a fuzz review)
            raise ParseError(path, other.line, f"expected <{tag}> in <{inside.tag}>, found <{other.tag}>")
    for line in node.elements("line"):
        counts = line.elements("count")
        blocks = [(read_count(count, path), colours.colour_of(count)) for count in counts]
        clues.append(colour_clue(blocks, path, line.line, " ".join(count.text.strip() for count in counts)))
    return clues


def read_image(image: Node, colours: XmlColours, path: PathName) -> Grid:
    """Read a goal `<image>`: rows between `|` marks, one colour character per cell."""
    cells = colours.cells
    rows: list[list[int]] = []
    row: list[int] | None = None
    line = image.line
    for char in image.text:
        if char == "\n":
            line += 1
        if char.isspace():
            continue
        if char == "|":
            if row:
                check_width(row, rows, line, path)
                rows.append(row)
            row = []
        elif row is None:
            raise ParseError(path, line, f"expected '|' to start the goal's first row, found {char!r}")
        elif char in cells:
            row.append(cells[char])
        else:
            shown = " or ".join(repr(c) for c in cells if c)
            raise ParseError(path, line, f"expected a goal cell ({shown}), found {char!r}")
    if row:
        raise ParseError(path, line, "expected '|' at the end of the goal's last row")
    if not rows:
        raise ParseError(path, image.line, "expected the goal picture in <image>, found none")
    return tuple(tuple(r) for r in rows)


def check_width(row: list[int], rows: list[list[int]], line: int, path: PathName) -> None:
    """Refuse a goal row whose width differs from the first row's."""
    if rows and len(row) != len(rows[0]):
        raise ParseError(path, line, f"expected {len(rows[0])} cells like the goal's first row, found {len(row)}")


def read_goal(puzzle: Node, colours: XmlColours, path: PathName) -> tuple[Grid | None, int]:
    """The goal picture, if there is one, and the line to blame if it does not fit the clues."""
    for solution in puzzle.elements("solution"):
        if solution.attrs.get("type", "goal") == "goal":
            image = solution.element("image")
            if image is None:
                raise ParseError(path, solution.line, "expected an <image> in <solution>, found none")
            return read_image(image, colours, path), image.line
    return None, puzzle.line


def read_metadata(puzzle: Node, defaults: dict[str, str]) -> dict[str, str]:
    """The puzzle's id, title, author, copyright and description, falling back on the set's own."""
    metadata = dict(defaults)
    for tag, name in METADATA_TAGS.items():
        node = puzzle.element(tag)
        if node is not None and node.text.strip():
            metadata[name] = node.text.strip()
    return metadata


def read_clue_sets(puzzle: Node, colours: XmlColours, path: PathName) -> dict[str, list[ColourClue]]:
    """Read the `<clues type="rows">` and `<clues type="columns">` elements."""
    clues: dict[str, list[ColourClue]] = {}
    for group in puzzle.elements("clues"):
        which = group.attrs.get("type", "")
        if which not in CLUE_TYPES:
            raise ParseError(path, group.line, f'expected <clues type="rows"> or type="columns", found {which!r}')
        if which in clues:
            raise ParseError(path, group.line, f'found a second <clues type="{which}">')
        clues[which] = read_clues(group, colours, path)
    return clues


def read_puzzle(node: Node, defaults: dict[str, str], path: PathName) -> Puzzle:
    """Read one `<puzzle>` element."""
    kind = node.attrs.get("type", "grid")
    if kind != "grid":
        raise ParseError(path, node.line, f"found a {kind!r} puzzle; only grid puzzles are supported")
    colours = XmlColours(node, path)
    clues = read_clue_sets(node, colours, path)
    metadata = read_metadata(node, defaults)
    if not clues:  # the puzzle is its goal: it must be read
        goal, goal_line = read_goal(node, colours, path)
        if goal is not None:
            rows = [runs_of(row) for row in goal]
            columns = [runs_of(column) for column in zip(*goal, strict=True)]
            return colour_puzzle(colours.draft, goal_line, rows, columns, goal, **metadata)
    for which in CLUE_TYPES:
        if which not in clues:
            raise ParseError(path, node.line, f'expected <clues type="{which}">, found none')
    found, goal_problem = optional_goal(lambda: read_goal(node, colours, path))
    goal, goal_line = found if found is not None else (None, node.line)
    return colour_puzzle(
        colours.draft, goal_line, clues["rows"], clues["columns"], goal, goal_problem=goal_problem, **metadata
    )


def load_xml_all(text: str, path: PathName = None) -> list[Puzzle]:
    """Read every puzzle of a webpbn XML puzzle set, in file order.

    Each `<puzzle>` of the set is read as soon as it ends and its elements dropped, so that a
    large set is held in memory as its puzzles, not as its elements (a 30 MB set of 5,000 puzzles
    took 960 MB as a whole tree). The set's own `<author>` and `<copyright>` stand in for a
    puzzle's missing ones: should one come after a puzzle, the set is read again as a whole."""
    puzzles: list[Puzzle] = []
    defaults: dict[str, str] = {}
    late = False  # a set's author or copyright came after a puzzle that could have needed it
    wrong: list[ParseError] = []  # a puzzle's fault, said once the whole file is known to be XML

    def ended(root: Node, node: Node) -> bool:
        nonlocal late
        if root.tag != "puzzleset":
            return False
        if node.tag in SET_DEFAULTS and node.tag not in defaults:
            defaults[node.tag] = node.text.strip()
            late = late or bool(puzzles)
        if node.tag != "puzzle" or late:
            return False
        if not wrong:
            try:
                puzzles.append(read_puzzle(node, defaults, path))
            except ParseError as error:
                wrong.append(error)
        return True

    root = parse_tree(text, path, ended)
    if root.tag != "puzzleset":
        raise ParseError(path, root.line, f"expected a <puzzleset> root element, found <{root.tag}>")
    if wrong and not late:
        raise wrong[0]
    if late:
        root = parse_tree(text, path)
        puzzles = [read_puzzle(node, defaults, path) for node in root.elements("puzzle")]
    if not puzzles:
        raise ParseError(path, root.line, "expected a <puzzle> in the <puzzleset>, found none")
    return numbered(puzzles, path)


def load_xml(text: str, path: PathName = None) -> Puzzle:
    """Read the one puzzle of a webpbn XML file (a set of several needs FILE#N)."""
    return choose(load_xml_all(text, path), None, path)


def clue_element(kind: str, clues: Sequence[Clue], colours: Sequence[Sequence[str]] | None = None) -> list[str]:
    """A `<clues>` element, one `<line>` per clue; in colour, each count names its colour."""
    lines = [f'<clues type="{kind}">']
    for index, clue in enumerate(clues):
        if colours is None:
            counts = "".join(f"<count>{n}</count>" for n in clue)
        else:
            counts = "".join(f'<count color="{name}">{n}</count>' for n, name in zip(clue, colours[index], strict=True))
        lines.append(f"<line>{counts}</line>" if counts else "<line/>")
    return [*lines, "</clues>"]


def puzzle_element(puzzle: Puzzle) -> list[str]:
    """A `<puzzle>` element: metadata, the colours, the clues and the goal if known."""
    palette = puzzle.palette
    names = [_attribute(colour.name) for colour in palette]
    chars = designations([colour.char for colour in palette], lambda char: char != "|", CHARS + SYMBOLS)
    if puzzle.is_colour:
        lines = [f'<puzzle type="grid" defaultcolor="{names[1]}" backgroundcolor="{names[0]}">']
    else:
        lines, chars = ['<puzzle type="grid" defaultcolor="black">'], [".", "X"]
    for tag, name in METADATA_TAGS.items():
        value = getattr(puzzle, name)
        if value is not None:
            lines.append(f"<{tag}>{_escape(value)}</{tag}>")
    if puzzle.is_colour:
        lines += [
            f'<color name="{name}" char="{_attribute(char)}">{colour.rgb[1:]}</color>'
            for colour, name, char in zip(palette, names, chars, strict=True)
        ]
        for kind, is_row, clues in (("columns", False, puzzle.columns), ("rows", True, puzzle.rows)):
            colours = [[names[c] for c in puzzle.colours_of(is_row, i)] for i in range(len(clues))]
            lines += clue_element(kind, clues, colours)
    else:
        lines += [
            '<color name="white" char=".">fff</color>',
            '<color name="black" char="X">000</color>',
            *clue_element("columns", puzzle.columns),
            *clue_element("rows", puzzle.rows),
        ]
    if puzzle.goal is not None:
        image = ["|" + _escape("".join(chars[cell] for cell in row)) + "|" for row in puzzle.goal]
        lines += ['<solution type="goal">', "<image>", *image, "</image>", "</solution>"]
    return [*lines, "</puzzle>"]


def dump_xml_all(puzzles: Sequence[Puzzle]) -> str:
    """Write puzzles as one webpbn XML puzzle set (no licence: the format has no place for it)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">',
        "<puzzleset>",
    ]
    for puzzle in puzzles:
        lines += puzzle_element(puzzle)
    return "\n".join([*lines, "</puzzleset>"]) + "\n"


def dump_xml(puzzle: Puzzle) -> str:
    """Write one puzzle as a webpbn XML file."""
    return dump_xml_all([puzzle])


def _escape(text: str) -> str:
    """Text as XML character data (what xml.sax.saxutils.escape does, without importing it: that
    module pulls in urllib and http, a third of the start-up time of `nonosat solve`)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _attribute(text: str) -> str:
    """Text as an XML attribute's value in double quotes."""
    return _escape(text).replace('"', "&quot;")
