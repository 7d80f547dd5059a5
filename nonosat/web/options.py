"""Each endpoint's query parameters: what they mean, and how a request's text becomes a value.

One table (`ENDPOINTS`) serves the server, which checks every request against it before any
work (a bad value is a 400 naming it), and the OpenAPI description (`nonosat.web.openapi`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nonosat import values
from nonosat.errors import UsageError
from nonosat.palette import MAX_COLOURS
from nonosat.web.settings import WebSettings


class BadRequest(UsageError):
    """A request the API cannot take: answered 400 with the message."""


@dataclass(frozen=True)
class Parameter:
    name: str
    schema: dict[str, Any]
    """Its JSON schema, for the OpenAPI description."""
    help: str
    read: Callable[[str, WebSettings], Any]


def whole(low: int | None, high: Callable[[WebSettings], int] | int | None = None) -> Callable[[str, WebSettings], int]:
    """A whole number from `low` to `high` (None: no bound; a seed has none, as on the command
    line and in the library)."""

    def read(text: str, settings: WebSettings) -> int:
        top = high(settings) if callable(high) else high
        digits = text.removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) > values.LONGEST:  # a whole number all the same
            bounded = low is not None and top is not None
            within = f"from {low} to {top}" if bounded else f"of at most {values.LONGEST} digits"
            raise BadRequest(f"expected a whole number {within}, not one of {len(text)} digits")
        if not values.WHOLE.fullmatch(text):  # int() takes '1_0', '+5' and other scripts' digits too
            raise BadRequest(f"expected a whole number, not {text[:40]!r}")
        value = int(text)
        if (low is not None and value < low) or (top is not None and value > top):
            raise BadRequest(f"expected a whole number from {low}{'' if top is None else f' to {top}'}, not {value}")
        return value

    return read


def number(low: float, *, above: bool = False) -> Callable[[str, WebSettings], float]:
    def read(text: str, settings: WebSettings) -> float:
        if not values.NUMBER.fullmatch(text):  # float() takes '1_0' and other scripts' digits too
            raise BadRequest(f"expected a number, not {text[:40]!r}")
        value = float(text)
        if math.isnan(value) or value < low or (above and value == low):
            raise BadRequest(f"expected a number {'above' if above else 'of at least'} {low:g}, not {text[:40]}")
        return value

    return read


def choice(*values: str) -> Callable[[str, WebSettings], str]:
    def read(text: str, settings: WebSettings) -> str:
        if text not in values:
            raise BadRequest(f"expected one of {', '.join(values)}, not {text[:40]!r}")
        return text

    return read


def flag(text: str, settings: WebSettings) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off", ""):
        return False
    raise BadRequest(f"expected 1 or 0 (true or false), not {text[:40]!r}")


def shared(read: Callable[[str], Any]) -> Callable[[str, WebSettings], Any]:
    """A parser the command line shares (nonosat.values), its UsageError a BadRequest."""

    def read_text(text: str, settings: WebSettings) -> Any:
        try:
            return read(text)
        except UsageError as error:
            raise BadRequest(error.worded({})) from None

    return read_text


threshold = shared(values.threshold)


def timeout(text: str, settings: WebSettings) -> float:
    """Seconds (nonosat.values.seconds, as --timeout), cut to the server's most."""
    limit = shared(values.seconds)(text, settings)
    return settings.max_timeout if limit is None else min(limit, settings.max_timeout)


def count(text: str, settings: WebSettings) -> int:
    """Solutions, cut to the server's most."""
    return min(whole(1)(text, settings), settings.max_count)


def writable() -> tuple[str, ...]:
    from nonosat.formats import FORMATS

    return tuple(name for name, form in FORMATS.items() if form.dump is not None)


def to_format(text: str, settings: WebSettings) -> str:
    return choice(*writable())(text, settings)


TIMEOUT = Parameter(
    "timeout", {"type": "number"}, "Seconds for the whole request (default and most: server settings)", timeout
)
ENGINE = Parameter(
    "engine",
    {"type": "string", "enum": ["auto", "cdcl", "dfs", "sat"], "default": "auto"},
    "What searches what line logic leaves open: cdcl (the compiled conflict-driven search), dfs (the "
    "compiled depth-first search), sat (CNF and PySAT), or auto (cdcl; on black and white over 126 cells "
    "a side, cdcl for 0.5 s then sat; sat without the compiled core)",
    choice("auto", "cdcl", "dfs", "sat"),
)
SIZE = {"type": "integer", "minimum": 1}
NUMBER = Parameter("number", SIZE, "Puzzle N of a file that holds several (a tournament file, an XML set)", whole(1))
PICTURE = (
    Parameter("width", SIZE, "Cells across (alone, the height keeps the picture's aspect)", whole(1)),
    Parameter("height", SIZE, "Cells down (alone, the width keeps the picture's aspect)", whole(1)),
    Parameter(
        "threshold", {"type": "string", "default": "otsu"}, "otsu, or a grey level 0-255: darker is filled", threshold
    ),
    Parameter("invert", {"type": "boolean"}, "Fill the light cells instead of the dark ones", flag),
    Parameter(
        "colours",
        {**SIZE, "maximum": MAX_COLOURS},
        "A colour puzzle with at most this many colours",
        whole(1, MAX_COLOURS),  # here, so that its message is worded as the others' (a review)
    ),
    Parameter("seed", {"type": "integer"}, "Seed of the quantiser and the repair (any whole number)", whole(None)),
)
REPAIR = (
    Parameter(
        "require",
        {"type": "string", "enum": ["unique", "probe", "line"]},
        "unique (default), probe or line (solvable by line logic)",
        choice("unique", "probe", "line"),
    ),
    Parameter(
        "max_changes",
        {"type": "integer", "minimum": 0},
        "The most cells to change (default 10% of the grid; 0: the picture as it is, or none)",
        whole(0),
    ),
    Parameter("max_distance", {"type": "number"}, "The most the picture may move", number(0)),
)


@dataclass(frozen=True)
class Endpoint:
    name: str
    summary: str
    takes: str
    """"puzzle" (a puzzle file or nonosat's JSON), "picture" (an image file) or "drawing" (a
    puzzle whose goal is the drawing)."""
    parameters: tuple[Parameter, ...]
    gives: str = "application/json"


ENDPOINTS = {
    endpoint.name: endpoint
    for endpoint in (
        Endpoint(
            "check",
            "Prove the solution unique, or find two and the cells where they differ",
            "puzzle",
            (TIMEOUT, NUMBER, ENGINE),
        ),
        Endpoint(
            "solve",
            "Solve: up to `count` solutions",
            "puzzle",
            (
                TIMEOUT,
                NUMBER,
                ENGINE,
                Parameter(
                    "count", SIZE, "Solutions to look for (2 proves uniqueness; the most: server settings)", count
                ),
            ),
        ),
        Endpoint("rate", "How hard the puzzle is for a person", "puzzle", (TIMEOUT, NUMBER, ENGINE)),
        Endpoint("explain", "The solution as steps of line logic and probing", "puzzle", (TIMEOUT, NUMBER)),
        Endpoint(
            "hint",
            "The next logical step from a partly filled grid (the field or key `state`)",
            "puzzle",
            (TIMEOUT, NUMBER, Parameter("steps", {**SIZE, "maximum": 100}, "Steps to give", whole(1, 100))),
        ),
        Endpoint("picture", "A picture as a grid, thresholded or quantised, without repair", "picture", PICTURE),
        Endpoint(
            "generate", "A puzzle from a picture, changed as little as needed", "picture", (TIMEOUT, *PICTURE, *REPAIR)
        ),
        Endpoint(
            "repair",
            "The drawing (the puzzle's goal) changed until its puzzle meets `require`",
            "drawing",
            (TIMEOUT, *REPAIR, PICTURE[-1]),
        ),
        Endpoint(
            "suggest",
            "The best one-cell edits of the drawing (the puzzle's goal)",
            "drawing",
            (TIMEOUT, Parameter("count", {**SIZE, "maximum": 50}, "Edits to list", whole(1, 50))),
        ),
        Endpoint(
            "convert",
            "The puzzle in another file format, as a download",
            "puzzle",
            (
                NUMBER,
                Parameter("to", {"type": "string"}, "The format to write (GET /api/formats)", to_format),
            ),
            "text/plain",
        ),
        Endpoint(
            "certificate",
            "The verdict's certificate as a zip file: the CNF and a DRAT proof, or two solutions",
            "puzzle",
            (
                TIMEOUT,
                NUMBER,
                ENGINE,
                Parameter(
                    "encoding",
                    {"type": "string", "enum": ["automaton", "blocks"], "default": "automaton"},
                    "The CNF's encoding",
                    choice("automaton", "blocks"),
                ),
            ),
            "application/zip",
        ),
        Endpoint(
            "contents",
            "The puzzles a file holds: each one's number (for `number`), title, size and colours",
            "puzzle",
            (TIMEOUT,),
        ),
        Endpoint(
            "render",
            "The printed sheet with its clues, empty or solved, as SVG or PNG",
            "puzzle",
            (
                TIMEOUT,
                NUMBER,
                Parameter(
                    "as", {"type": "string", "enum": ["svg", "png"]}, "svg (default) or png", choice("svg", "png")
                ),
                Parameter("solution", {"type": "boolean"}, "Draw the solved picture", flag),
            ),
            "image/svg+xml",
        ),
    )
}


def read_options(endpoint: Endpoint, query: list[tuple[str, str]], settings: WebSettings) -> dict[str, Any]:
    """A request's query parameters as values; BadRequest names an unknown or bad one."""
    known = {parameter.name: parameter for parameter in endpoint.parameters}
    options: dict[str, Any] = {}
    for key, text in query:
        if key in options:
            raise BadRequest(f"{key[:40]}: given twice")
        parameter = known.get(key)
        if parameter is None:
            expected = ", ".join(known) or "none"
            raise BadRequest(f"unknown parameter {key[:40]!r} for /api/{endpoint.name} (it takes: {expected})")
        try:
            options[key] = parameter.read(text, settings)
        except BadRequest as error:
            raise BadRequest(f"{key}: {error}") from None
    if endpoint.name == "convert" and "to" not in options:
        raise BadRequest(f"to: name the format to write, one of {', '.join(writable())}")
    return options
