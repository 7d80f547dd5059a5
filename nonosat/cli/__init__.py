"""The `nonosat` command line: Typer commands, each a thin layer over one library call.

Exit codes: 0 unique or solved, 1 multiple solutions, 2 bad input or usage, 3 no solution,
4 unknown (time limit reached), 5 generate found nothing, 6 the file's goal breaks its clues,
7 a certificate does not hold, 70 internal error, 74 the output could not be written, 130
interrupted (Ctrl-C), 143 ended by SIGTERM. The commands live by what they do: solving (solve, check), explaining
(explain, rate, hint), writing (encode, convert, render), making (generate, random) and batching
(batch), and serving (serve, the web page and API); base holds what they share, `commands` puts
them together, and `show` prints solve's and check's answers. `quick` runs the plain `check FILE`
and `solve FILE` without Typer, which this package imports only when the app is asked for.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EXIT_CODES", "EXIT_FOR_LEVEL", "EXIT_FOR_STATUS", "app", "main"]


def __getattr__(name: str) -> Any:
    """The Typer app and what goes with it, imported on first use (Typer takes 40 ms)."""
    if name in __all__:
        from nonosat.cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
