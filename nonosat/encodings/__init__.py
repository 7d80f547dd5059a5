"""CNF encodings of one line's clue, by name: `ENCODINGS["blocks"](line, pool)`."""

from __future__ import annotations

from nonosat.encodings import automaton, blocks
from nonosat.encodings.base import Clause, Line, LineEncoder, Literal, add_clause, negate

ENCODINGS: dict[str, LineEncoder] = {
    "automaton": automaton.encode,
    "blocks": blocks.encode,
}
DEFAULT_ENCODING = "blocks"

__all__ = ["ENCODINGS", "DEFAULT_ENCODING", "Clause", "Line", "LineEncoder", "Literal", "add_clause", "negate"]
