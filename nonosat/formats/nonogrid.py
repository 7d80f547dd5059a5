"""nonogrid's TOML format (tsionyx/nonogrid, `examples/*.toml`), in black and white or colour.

`[clues]` holds `rows` and `columns`, each a string (usually a multi-line one, in triple quotes) of clues:
on each line, a `#` or `;` starts a comment, commas separate clues, a clue may be quoted, and
its blocks are separated by spaces; a blank line holds no clue and `0` is an empty clue. A
block is a number, perhaps followed by the name of its colour (`1r`, `5b`); a bare number is
black. `[colors]` may hold `defs`, a list of strings such as `'b = (blue) *'`: the name blocks
use, the colour's value in parentheses (a colour name or a hex value) and its character, as in
pynogram's files. Other tables and keys are ignored.

The TOML is read with the standard library's `tomllib` (Python 3.11 and later), or with the
`tomli` package where that is installed; without either, the file is refused with a hint.
Errors in clues name the line of the file (counted from the line of `rows =` or `columns =`).
"""

from __future__ import annotations

import re
import sys
from typing import Any

from nonosat.errors import ParseError
from nonosat.formats.colour import ColourClue, PaletteDraft, colour_puzzle
from nonosat.formats.common import PathName, refuse_many_lines, split_lines
from nonosat.formats.pynogram import colour_draft, read_clue
from nonosat.model import Puzzle
from nonosat.palette import MAX_COLOURS

_AT_LINE = re.compile(r"at line ([0-9]+)")
_COMMENT = re.compile(r"[#;]")
BLACK = "B"
"""What nonogrid calls black, the colour of a bare number."""


def read_toml(text: str, path: PathName) -> dict[str, Any]:
    """The TOML document, or a ParseError at the line the TOML reader names."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise ParseError(path, None, "reading TOML needs Python 3.11 or later, or: pip install tomli") from None
    try:  # TOML allows LF and CRLF only: a file of lone CRs (an old Mac's) was refused
        return tomllib.loads(text.replace("\r\n", "\n").replace("\r", "\n"))
    except tomllib.TOMLDecodeError as error:
        found = _AT_LINE.search(str(error))
        message = str(error).split(" (at line")[0]
        if found:
            line: int | None = int(found.group(1))
        else:  # "(at end of document)": its last line
            line = max(1, len(text.splitlines())) if "end of document" in message else None
        raise ParseError(path, line, f"expected TOML: {message}") from None


def key_line(lines: list[str], key: str, after: int = 0) -> int | None:
    """The 1-based line where `key =` is set, from line `after` on."""
    pattern = re.compile(rf"\s*['\"]?{re.escape(key)}['\"]?\s*=")
    return next((i for i, line in enumerate(lines[after:], start=after + 1) if pattern.match(line)), None)


def first_value_line(lines: list[str], line: int) -> int:
    """The line of a string value's first character: a multi-line string's opening quotes
    followed by the end of the line start it on the next line."""
    after = lines[line - 1].split("=", 1)[1].strip()
    return line + 1 if after in ('"""', "'''") else line


def read_clues(value: object, name: str, lines: list[str], draft: PaletteDraft) -> list[ColourClue]:
    """Read the clues of a `rows` or `columns` string."""
    at = key_line(lines, name)
    if not isinstance(value, str):
        raise ParseError(draft.path, at, f"expected '{name}' to be a string of clues, found {value!r}")
    start = first_value_line(lines, at) if at is not None else None
    clues: list[ColourClue] = []
    for offset, text in enumerate(split_lines(value)):
        line = None if start is None else start + offset
        for item in _COMMENT.split(text, maxsplit=1)[0].split(","):
            clue = item.strip().strip("'\"").strip()
            if clue:
                clues.append(read_clue(draft, clue, line, BLACK))
    return clues


def colour_declarations(document: dict[str, Any], lines: list[str], path: PathName) -> list[tuple[str, str, int]]:
    """The `[colors] defs` strings, each split at its '=' and with its line."""
    colors = document.get("colors", {})
    defs = colors.get("defs", []) if isinstance(colors, dict) else None
    at = key_line(lines, "defs") or 0
    if not isinstance(defs, list) or not all(isinstance(d, str) for d in defs):
        raise ParseError(path, at or None, "expected [colors] defs to be a list of strings such as 'b = (blue) *'")
    if len(defs) > MAX_COLOURS + 1:  # before each is looked for (a fuzz review: 400,000 ran over a minute)
        limit = f"over the limit of {MAX_COLOURS} besides the background"
        raise ParseError(path, at or None, f"found {len(defs)} colours in [colors] defs: {limit}")
    found = []
    for definition in defs:
        line = next((i for i, text in enumerate(lines[at - 1 :], start=at) if definition in text), at)
        key, equals, description = definition.partition("=")
        if not equals or not key.strip():
            raise ParseError(path, line, f"expected a colour such as 'b = (blue) *', found {definition!r}")
        found.append((key.strip(), description, line))
    return found


def load_nonogrid(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from nonogrid's TOML format."""
    refuse_many_lines(text, path)
    document = read_toml(text, path)
    lines = split_lines(text)
    clues = document.get("clues")
    if not isinstance(clues, dict):
        raise ParseError(path, len(lines) or None, "expected a [clues] table, found none by the end of the file")
    draft = colour_draft(path, colour_declarations(document, lines, path), BLACK)
    found: dict[str, list[ColourClue]] = {}
    for name in ("columns", "rows"):
        if name not in clues:
            table = next((i for i, text in enumerate(lines, start=1) if text.strip().startswith("[clues]")), None)
            raise ParseError(path, table, f"expected a '{name} =' string in [clues], found none")
        found[name] = read_clues(clues[name], name, lines, draft)
    return colour_puzzle(draft, key_line(lines, "rows"), found["rows"], found["columns"])
