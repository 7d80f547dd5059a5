"""How explanations name what they decide: a cell's colour, the colours a cell may still have,
and runs of cells along a line ("columns 4-6 red; column 1 blank").

Black and white says "filled" and "empty"; a colour puzzle names its colours, and "blank" for
the background. A line's cells are written one character each, the palette's (`#` and `.` in
black and white), with a mark for a cell still open that no colour uses (`?` unless a colour
does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nonosat.palette import BLACK_AND_WHITE, Palette

UNKNOWN_MARKS = "?_~^-"
"""Marks for an open cell, the first one no colour of the palette uses."""


def chars_of(palette: Palette) -> str:
    """Each colour's character, the background's first: ".#" in black and white."""
    return "".join(colour.char for colour in palette)


def unknown_mark(chars: str) -> str:
    """The character of an open cell: `?`, unless a colour uses it."""
    return next(mark for mark in UNKNOWN_MARKS if mark not in chars)


def colour_word(palette: Palette, colour: int) -> str:
    """A cell's colour in words: "filled" or "empty" in black and white, else the colour's name,
    or "blank" for the background."""
    if palette == BLACK_AND_WHITE:  # by value: an unpickled puzzle holds a copy
        return "filled" if colour else "empty"
    return palette[colour].name if colour else "blank"


def choice_words(palette: Palette, colours: Sequence[int]) -> str:
    """The colours a cell may still have: "not blank" when one is ruled out, else "red or blue"."""
    ruled_out = [c for c in range(len(palette)) if c not in colours]
    if len(ruled_out) == 1:
        return "not " + colour_word(palette, ruled_out[0])
    names = [colour_word(palette, c) for c in colours]
    return ", ".join(names[:-1]) + " or " + names[-1]


def spans(numbers: Iterable[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5" (numbers counted from 1, in order)."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in runs)


def cells_along(across: str, positions: Sequence[int], what: str) -> str:
    """ "columns 4-6 red": positions counted from 1 across the line, and what they are."""
    return f"{across}{'s' if len(positions) > 1 else ''} {spans(positions)} {what}"
