"""The library's checks of its callers' arguments, before any work: each wrong type or value is a
UsageError saying what was expected and what came, never a TypeError or AttributeError from
deep inside (README, "Python API": the library raises only its own errors)."""

from __future__ import annotations

import operator
from itertools import chain

from nonosat.errors import UsageError


def check_whole(value: object, name: str, most: int) -> None:
    """A count or a number of jobs given to the library: an int from 1 to `most` (`count=1.5`,
    `count="2"` or `jobs=True` is a UsageError saying so, never a TypeError from deep inside;
    `count=2**31` one too, not an OverflowError from the compiled core)."""
    try:
        whole: int | None = operator.index(value)  # type: ignore[arg-type]  # NumPy's whole numbers too
    except TypeError:  # 1.5, "2": no __index__ (typing.SupportsIndex would cost the quick start an import)
        whole = None
    if isinstance(value, bool) or whole is None or whole < 1:
        raise UsageError(f"{name} must be at least 1, a whole number, not {value!r}")
    if whole > most:
        raise UsageError(f"{name} must be at most {most:,} (nonosat.limits), not {whole:,}")


def check_flag(value: object, name: str) -> None:
    """A switch given to the library: True or False (`force="yes"` overwrote a file and
    `invert="no"` inverted a picture, taken as true)."""
    kind = type(value)
    numpys = kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")  # as check_whole takes its integers
    if not isinstance(value, bool) and not numpys:
        raise UsageError(f"{name} is True or False, not {value!r}")


def check_puzzle(value: object) -> None:
    """The puzzle a library function is given: a Puzzle (`check("cat.non")` was an
    AttributeError from deep inside, not a UsageError)."""
    from nonosat.model import Puzzle

    if not isinstance(value, Puzzle):
        raise UsageError(f"expected a Puzzle (nonosat.load reads one from a file), not {type(value).__name__}")


def check_grid(value: object, name: str) -> None:
    """A grid given to the library: equal rows (tuples) of cells, each a colour's index from 0 (a
    review: `Solution("xx").text()` was a bare TypeError from deep inside). About 10 us a 25x25
    grid: its rows' types and lengths, then its few distinct values."""
    rows = value if type(value) is tuple else ("",)
    if set(map(type, rows)) - {tuple} or set(map(len, rows)) - {len(rows[0]) if rows else 0}:
        wrong = True  # (the types first: Solution((1, 0)) was a bare TypeError, a review)
    else:
        try:
            wrong = any(type(cell) is not int or cell < 0 for cell in set(chain.from_iterable(rows)))
        except TypeError:  # a cell that cannot be hashed: a list, a dict (the diff's review)
            wrong = True
    if wrong:
        raise UsageError(f"{name} is equal rows (tuples) of cells, each a colour from 0, not {value!r:.60}")
