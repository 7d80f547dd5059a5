"""XML read into a small tree of elements, each with its line, by expat (no DTD fetched: an entity
the DTD would define is read as HTML's), refusing malformed XML at its line, and a `<clues>` of
more `<line>`s than the limit a side as they come (webpbn's, the one XML format read)."""

from __future__ import annotations

import html.entities
from collections.abc import Callable
from dataclasses import dataclass, field
from xml.parsers import expat

from nonosat.errors import ParseError
from nonosat.formats.common import LONG_CLUE, PathName, refuse_past_the_side
from nonosat.limits import MAX_SIDE


@dataclass(slots=True)
class Node:
    """An XML element: its tag (lower case), attributes, line, children and own text."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    chunks: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The element's own text (not its children's)."""
        return "".join(self.chunks)

    def elements(self, tag: str) -> list[Node]:
        """The child elements with this tag."""
        return [child for child in self.children if child.tag == tag]

    def element(self, tag: str) -> Node | None:
        """The first child element with this tag, if any."""
        found = self.elements(tag)
        return found[0] if found else None


def parse_tree(text: str, path: PathName, ended: Callable[[Node, Node], bool] | None = None) -> Node:
    """Parse XML text into Nodes, reporting malformed XML at its line. Each child element of the
    root, once read, is handed to `ended` (with the root) if given, and left out of the tree when
    it says so."""
    parser = expat.ParserCreate("utf-8")  # the text is decoded already, by what it declares (files.py)
    stack = [Node("", {}, 0)]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = Node(tag.lower(), attrs, parser.CurrentLineNumber)
        parent = stack[-1]
        if node.tag == "count" and parent.tag == "line" and len(parent.children) >= MAX_SIDE:
            raise ParseError(
                path,
                node.line,
                LONG_CLUE,
            )
        if node.tag == "line" and parent.tag == "clues" and len(parent.children) >= MAX_SIDE:
            kind = "row" if parent.attrs.get("type") == "rows" else "column"  # refused as it is read (a fuzz
            refuse_past_the_side(MAX_SIDE + 1, kind, path, node.line)  # review: 11.6 MB, 20 s and 505 MB)
        parent.children.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        node = stack.pop()
        if ended is not None and len(stack) == 2 and ended(stack[-1], node):
            stack[-1].children.pop()

    def entity(name: str, is_parameter: bool) -> None:
        # An entity the external DTD would define, such as &copy;: HTML's meaning is meant.
        if name not in html.entities.name2codepoint:
            raise ParseError(path, parser.CurrentLineNumber, f"found an unknown entity &{name};")
        stack[-1].chunks.append(chr(html.entities.name2codepoint[name]))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = lambda chunk: stack[-1].chunks.append(chunk)
    parser.SkippedEntityHandler = entity
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        raise ParseError(path, error.lineno, f"expected well-formed XML: {expat.ErrorString(error.code)}") from None
    return stack[0].children[0]
