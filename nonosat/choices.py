"""`Choice`, the str Enum every fixed set of names is (a status, a method, a level, an engine):
what even the command line's start needs, without the puzzle model."""

from __future__ import annotations

from enum import Enum


class Choice(str, Enum):
    """One of a fixed set of names (a status, a level, a method...): it is its name in text,
    in JSON and in --help alike, and equal to that plain string."""

    def __str__(self) -> str:
        return str(self.value)
