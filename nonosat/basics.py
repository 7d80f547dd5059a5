"""What even the command line's start needs, without the puzzle model: `Choice`, the str Enum
every fixed set of names is, and `printable`, text made safe to show. `nonosat.model` exports
both, as part of the vocabulary."""

from __future__ import annotations

import re
from enum import Enum


class Choice(str, Enum):
    """One of a fixed set of names (a status, a level, a method...): it is its name in text,
    in JSON and in --help alike, and equal to that plain string."""

    def __str__(self) -> str:
        return str(self.value)


_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_LINE_BREAKS = re.compile(r"[\r\n\t\x0b\x0c\u2028\u2029]+")


def printable(text: str) -> str:
    """Text safe to show and to write: control characters (terminal escapes among them) and lone
    surrogates become U+FFFD, tabs and line breaks a space."""
    return _UNPRINTABLE.sub("\ufffd", _LINE_BREAKS.sub(" ", text))
