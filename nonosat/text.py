"""`printable`: text made safe to show and to write, for titles, names and messages that come
from a file (the model keeps its titles so; the terminal's output is made so); `counted`: a
count and its noun, singular or plural, for any layer's messages."""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
    + "".join(f"\\U{plane:04x}fffe\\U{plane:04x}ffff" for plane in range(1, 17))
    + "]"
)
"""Control characters, lone surrogates and Unicode's noncharacters (U+FFFE and U+FFFF, which
XML forbids: a title holding one made an SVG or XML file nothing could read; and the like)."""
_LINE_BREAKS = re.compile(r"[\r\n\t\x0b\x0c\u2028\u2029]+")


def printable(text: str) -> str:
    """Text safe to show and to write: control characters (terminal escapes among them), lone
    surrogates and noncharacters become U+FFFD, tabs and line breaks a space."""
    return _UNPRINTABLE.sub("\ufffd", _LINE_BREAKS.sub(" ", text))


def counted(count: int, noun: str) -> str:
    """ "1 puzzle", "2 puzzles" (a review found "solving 1 puzzles", another "fill 1 cells")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
