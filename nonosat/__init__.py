"""nonosat: solve nonograms with SAT and prove whether their solution is unique.

>>> from nonosat import load, solve, check
>>> puzzle = load("puzzles/webpbn-00001-dancer.non")
>>> solve(puzzle).status
<Status.UNIQUE: 'unique'>
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

    from nonosat.certificate_check import CertificateRefused
    from nonosat.errors import (
        BadImage,
        CutShort,
        FormulaTooLarge,
        GenerateFailed,
        ImpossiblePuzzle,
        InvalidPuzzle,
        NonosatError,
        OutputFailed,
        ParseError,
        TimeUp,
        TooLarge,
        UsageError,
        WrongAnswer,
    )
    from nonosat.formats import load, load_all, save
    from nonosat.model import Clue, Grid, Puzzle, Solution
    from nonosat.palette import Colour
    from nonosat.solver import Result, Status, Verdict, check, solve

__version__ = "0.1.0"

_LAZY = {
    "Clue": "nonosat.model",
    "Grid": "nonosat.model",
    "Puzzle": "nonosat.model",
    "Solution": "nonosat.model",
    "Colour": "nonosat.palette",
    "NonosatError": "nonosat.errors",
    "ParseError": "nonosat.errors",
    "InvalidPuzzle": "nonosat.errors",
    "ImpossiblePuzzle": "nonosat.errors",
    "UsageError": "nonosat.errors",
    "TooLarge": "nonosat.errors",
    "CutShort": "nonosat.errors",
    "TimeUp": "nonosat.errors",
    "FormulaTooLarge": "nonosat.errors",
    "BadImage": "nonosat.errors",
    "GenerateFailed": "nonosat.errors",
    "WrongAnswer": "nonosat.errors",
    "OutputFailed": "nonosat.errors",
    "CertificateRefused": "nonosat.certificate_check",
    "load": "nonosat.formats",
    "load_all": "nonosat.formats",
    "save": "nonosat.formats",
    "solve": "nonosat.solver",
    "check": "nonosat.solver",
    "Result": "nonosat.solver",
    "Status": "nonosat.solver",
    "Verdict": "nonosat.solver",
}

__all__ = [
    "Clue",
    "Colour",
    "Grid",
    "Puzzle",
    "Solution",
    "load",
    "load_all",
    "save",
    "solve",
    "check",
    "Result",
    "Status",
    "Verdict",
    "NonosatError",
    "ParseError",
    "InvalidPuzzle",
    "ImpossiblePuzzle",
    "UsageError",
    "TooLarge",
    "CutShort",
    "TimeUp",
    "FormulaTooLarge",
    "BadImage",
    "GenerateFailed",
    "WrongAnswer",
    "OutputFailed",
    "CertificateRefused",
]


def __getattr__(name: str) -> Any:
    """Import everything only when first used, so that `import nonosat` is quick and
    `python -m nonosat` takes charge of Ctrl-C a few milliseconds after Python starts."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nonosat' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the lazy ones too (a REPL's completion lists them)."""
    return sorted({*globals(), *__all__})
