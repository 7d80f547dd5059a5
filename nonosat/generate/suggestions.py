"""Suggestions for editing a picture by hand: the one-cell changes that free the most cells
line logic leaves open, for what they cost the picture (`generate --suggest`)."""

from __future__ import annotations

from nonosat.deadline import Deadline
from nonosat.generate.drawing import Cost, Drawing
from nonosat.generate.search import Edit, Search
from nonosat.model import Grid
from nonosat.palette import BLACK_AND_WHITE, Palette

__all__ = ["Edit", "suggest"]


def suggest(
    grid: Grid,
    cost: Cost,
    count: int,
    *,
    palette: Palette = BLACK_AND_WHITE,
    unit: float | None = None,
    seed: int = 0,
    timeout: float | Deadline | None = None,
) -> tuple[int, list[Edit]]:
    """The cells line logic leaves open in `grid`'s puzzle, and the `count` one-cell changes
    that free the most cells for what they cost the picture (each with the cells left open
    after it), best first; none is made. Raises `TimeUp` past `timeout` seconds."""
    search = Search(Drawing(grid, palette, cost, unit), Deadline.of(timeout), seed)
    return search.open, search.edits(count) if search.open else []
