"""Which format a puzzle file is in: its suffix if that names one, else signs in its content."""

from __future__ import annotations

import os
import re

from nonosat.formats.common import MOST_LINES, split_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from pathlib import Path

SUFFIXES = {
    ".non": "non",
    ".nin": "nin",
    ".json": "json",
    ".clues": "clues",
    ".xml": "xml",
    ".mk": "mk",
    ".g": "g",
    ".cwd": "cwd",
    ".dzn": "dzn",
    ".nonpack": "nonpack",
    ".pbm": "pbm",
    ".png": "png",
    ".gif": "png",
    ".bmp": "png",
    ".webp": "png",
    ".toml": "nonogrid",
    ".cnon": "cnon",
    ".tatham": "tatham",
    ".tournament": "tournament",
}
"""The suffixes that name a format; any other (such as .txt) is decided by content."""

CONTENT_SUFFIXES = ("", ".txt", ".pbn", ".dat")
"""Suffixes of files whose content decides their format: tournament sets, pynogram's files and
clue lists are .txt, webpbn's puzzles are exported as .pbn, and a file may have no suffix."""

PICTURE_SUFFIXES = frozenset(suffix for suffix, name in SUFFIXES.items() if name in ("png", "pbm"))
"""The suffixes of pictures, which a batch run over a folder reads only when asked."""

NON_KEYS = {"width", "height", "rows", "columns"}
_TOURNAMENT_HEADER = re.compile(r"\$[0-9]+")
_SIZE_LINE = re.compile(r"[0-9]+\s+[0-9]+")
_WHOLE_NUMBER = re.compile(r"[0-9]+")
_DZN_CLUES = re.compile(r"^\s*(?:rows|cols)\s*=\s*(?:\[\||array2d)", re.M)
_PACK_SEPARATOR = re.compile(r"={4,}")
_PLAIN_PBM = re.compile(r"P1(?:\s|#|$)")


def suffix_of(path: str | Path) -> str:
    """The suffix of a path's last part, in lower case: `Path(path).suffix.lower()` without
    importing pathlib (6 ms at start-up): "" for none, for a name that starts with its only dot,
    and for one that ends in a dot."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    return "" if suffix == "." else suffix


def claimed(path: str | Path) -> bool:
    """Whether a reader claims a file by its suffix: one that names a format, or one whose content
    decides (CONTENT_SUFFIXES)."""
    suffix = suffix_of(path)
    return suffix in SUFFIXES or suffix in CONTENT_SUFFIXES


def unknown_format(path: str | Path) -> str:
    """What a file is told when its suffix names no format and its content matches none."""
    texts = " ".join(suffix for suffix in SUFFIXES if suffix not in PICTURE_SUFFIXES)
    pictures = " ".join(sorted(PICTURE_SUFFIXES))
    return (
        f"unknown format: no reader takes {suffix_of(path)} files, nor this content; "
        f"nonosat reads {texts}, pictures ({pictures}), and .txt by content"
    )


def detect_format(path: str | Path | None, text: str) -> str:
    """The name of a file's format: from its suffix if that names one, else from its content."""
    suffix = suffix_of(path) if path is not None else ""
    return SUFFIXES.get(suffix) or sniff_format(text)


def sniff_format(text: str) -> str:
    """Guess a text format from content, from the most to the least distinctive signs, in its
    first MOST_LINES lines (a fuzz review: every line of 3 million was looked at, for 12 s)."""
    lines = [line.strip() for line in split_lines(text.strip())[: MOST_LINES + 1]]
    if not lines:
        return "clues"
    first = lines[0]
    if not first.isascii():
        from nonosat.formats.squares import looks_like_squares

        if looks_like_squares(lines):
            return "squares"
    if first.startswith("<"):
        return "xml"
    from nonosat.formats.tatham import is_game_id

    if len(lines) == 1 and is_game_id(first):
        return "tatham"
    if _PLAIN_PBM.match(first):
        return "pbm"
    if _TOURNAMENT_HEADER.fullmatch(first):
        return "tournament"
    if first.startswith("{"):
        return "json"
    return sniff_line_format(text, lines)


def sniff_line_format(text: str, lines: list[str]) -> str:
    """Guess among the formats of clue lines: keys, sections, separators or counts tell them apart."""
    if "[clues]" in (line.lower() for line in lines):
        toml = any(mark in text for mark in ('"""', "'''")) or any(line.startswith("defs") for line in lines)
        return "nonogrid" if toml else "pynogram"
    from nonosat.formats.cnon import looks_like_cnon

    if looks_like_cnon(lines):
        return "cnon"
    if _DZN_CLUES.search("\n".join(lines)):
        return "dzn"
    has_non_keys = any(line.split(None, 1)[0] in NON_KEYS for line in lines if line)
    if has_non_keys and any(_PACK_SEPARATOR.fullmatch(line) for line in lines):
        return "nonpack"
    if sum(line.startswith(":") for line in lines) >= 2:
        return "g"
    if has_non_keys:
        return "non"
    if _SIZE_LINE.fullmatch(lines[0]) and "#" in lines:
        return "mk"
    if looks_like_cwd(lines):
        return "cwd"
    from nonosat.formats.pycsp3text import looks_like_pycsp3_text

    if looks_like_pycsp3_text(lines):
        return "pycsp3-text"
    return "nin" if looks_like_nin(lines) else "clues"


def looks_like_nin(lines: list[str]) -> bool:
    """Whether stripped lines start with `W H` and have no blank line (a clue list always has
    one, between its rows and its columns)."""
    return _SIZE_LINE.fullmatch(lines[0]) is not None and "" not in lines


def looks_like_cwd(lines: list[str]) -> bool:
    """Whether stripped lines are H and W on lines of their own, H rows, a blank line, W columns.

    A clue list whose first two rows are single numbers can have that shape too ("3", "3", three
    more rows, a blank line, three columns: 1% of random clue lists up to 12x12). Read as CWD, its
    rows and columns fill different numbers of cells (the clue list's own rows lose the two
    numbers taken for the size); so when they do, and the clue list's reading fills the same
    number both ways, it is a clue list."""
    if len(lines) < 4 or not all(_WHOLE_NUMBER.fullmatch(line) for line in lines[:2]):
        return False
    height, width = int(lines[0]), int(lines[1])
    body = lines[2:]
    if not (height >= 1 and width >= 1 and height < len(body) <= height + 1 + width and body[height] == ""):
        return False
    as_cwd = _filled(body[:height]) == _filled(body[height + 1 :])
    blank = lines.index("")
    return as_cwd or _filled(lines[:blank]) != _filled(lines[blank + 1 :])


def _filled(lines: list[str]) -> int:
    """The cells some clue lines fill: the sum of every number in them."""
    return sum(int(number) for line in lines for number in _WHOLE_NUMBER.findall(line))
