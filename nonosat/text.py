"""`printable`: text made safe to show and to write, for titles, names and messages that come
from a file (the model keeps its titles so; the terminal's output is made so)."""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_LINE_BREAKS = re.compile(r"[\r\n\t\x0b\x0c\u2028\u2029]+")


def printable(text: str) -> str:
    """Text safe to show and to write: control characters (terminal escapes among them) and lone
    surrogates become U+FFFD, tabs and line breaks a space."""
    return _UNPRINTABLE.sub("\ufffd", _LINE_BREAKS.sub(" ", text))
