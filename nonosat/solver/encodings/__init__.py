"""CNF encodings of one line's clue, by name: `ENCODINGS["blocks"](line, pool)`.

An encoder's module is imported when it is first asked for, so that a puzzle that line logic
solves never imports PySAT; so are the shared parts in `nonosat.solver.encodings.base` (a check of such
a puzzle names the encoding and needs nothing else from here).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from nonosat.errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

    from nonosat.solver.encodings.base import Clause, Line, LineEncoder, Literal, add_clause, at_most_one, negate

_FROM_BASE = frozenset(("Clause", "Line", "LineEncoder", "Literal", "add_clause", "at_most_one", "negate"))


class _Encoders(Mapping[str, "LineEncoder"]):
    """Encoding name -> its `encode` function, imported on first use."""

    _modules = {"automaton": "nonosat.solver.encodings.automaton", "blocks": "nonosat.solver.encodings.blocks"}

    def __getitem__(self, name: str) -> LineEncoder:
        encode: LineEncoder = self.module(name).encode
        return encode

    def module(self, name: str) -> Any:
        """The encoding's module (its `encode`, and `unpruned_counts` in black and white)."""
        return import_module(self._modules[name])

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._modules  # encoding=["blocks"]: not a bare TypeError

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


ENCODINGS = _Encoders()
"""Encoding name -> its `encode` (a Mapping); `ENCODINGS.module(name)`, the whole module."""
DEFAULT_ENCODING = "blocks"


def check_encoding(name: str) -> None:
    """Raise UsageError unless `name` is an encoding."""
    if name not in ENCODINGS:
        raise UsageError(f"unknown encoding {name!r}; choose one of {', '.join(ENCODINGS)}")


__all__ = [
    "ENCODINGS",
    "DEFAULT_ENCODING",
    "Clause",
    "Line",
    "LineEncoder",
    "Literal",
    "add_clause",
    "at_most_one",
    "check_encoding",
    "negate",
]


def __getattr__(name: str) -> Any:
    """The shared parts of `nonosat.solver.encodings.base`, imported on first use."""
    if name in _FROM_BASE:
        value = getattr(import_module("nonosat.solver.encodings.base"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nonosat.solver.encodings' has no attribute {name!r}")
