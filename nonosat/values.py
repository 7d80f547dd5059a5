"""Option values that both faces read from text: one parser each, shared by the command line
(Typer's callbacks) and the web API (its query parameters), so that the two accept the same
values and refuse the same ones in the same words. Each raises UsageError saying what it
expected; each face names the parameter its own way (`Invalid value for --threshold: ...`,
`threshold: ...`)."""

from __future__ import annotations

import math
import re

from nonosat.errors import UsageError

THRESHOLDS = "otsu, or a grey level from 0 to 255"


def threshold(text: str) -> str | int:
    """A picture's threshold: `otsu`, or a grey level from 0 to 255 (in ASCII digits: `²` is no
    number here, whatever str.isdigit says)."""
    if text == "otsu":
        return text
    if text.isascii() and text.isdigit() and 0 <= int(text) <= 255:
        return int(text)
    shown = text[:40]
    raise UsageError(f"expected {THRESHOLDS}, not {shown!r}")


LONGEST = 4000
"""The digits of the longest number read (Python reads no more than 4,300 into an int)."""

WHOLE = re.compile(rf"-?[0-9]{{1,{LONGEST}}}")
"""A whole number as text: ASCII digits (int() takes '1_0', '+5' and other scripts' digits too;
Python refuses to read more than 4,300)."""
NUMBER = re.compile(
    rf"-?([0-9]{{1,{LONGEST}}}(\.[0-9]{{0,{LONGEST}}})?|\.[0-9]{{1,{LONGEST}}})([eE][-+]?[0-9]{{1,3}})?|-?inf(inity)?|nan",
    re.IGNORECASE,
)
"""A number as text (float() takes '1_0' and other scripts' digits too); nan and inf are read,
to be refused or taken by each value's own rule. Up to LONGEST digits each side of the point (a
review found a timeout of 21 digits refused where 1e20 was cut to the longest allowed)."""


def seconds(value: float | str) -> float | None:
    """A time limit: a positive number of seconds, `inf` (or over a billion) for none."""
    from nonosat.deadline import NEVER

    try:
        if isinstance(value, str) and not NUMBER.fullmatch(value):
            raise ValueError(value)
        number = float(value)
        shown = f"{number:g}" if math.isfinite(number) or not isinstance(value, str) else repr(value[:40])
    except ValueError:
        number, shown = math.nan, repr(str(value)[:40])
    if math.isnan(number) or number <= 0:
        raise UsageError(f"expected a positive number of seconds (or inf for none), not {shown}")
    return None if number > NEVER else number
