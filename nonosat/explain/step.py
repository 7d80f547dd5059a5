"""One deduction of a logical solve, as `nonosat.explain.steps` records it: the line, its clue,
the line's cells before and after, the cells it fixed (or, in colour, ruled colours out of), and
for a probe, the cell tried and why; with its words for people (`describe`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nonosat.explain.words import cells_along, chars_of, choice_words, colour_word
from nonosat.model import Cell, Clue, Colours, Line, clue_text
from nonosat.palette import BLACK_AND_WHITE, Palette

Kind = Literal["line", "probe"]

Narrowed = tuple[tuple[Cell, tuple[int, ...]], ...]
"""Cells a step rules colours out of without fixing them, each with the colours it may still have."""


@dataclass(frozen=True)
class Step:
    """One deduction."""

    number: int
    kind: Kind
    line: Line
    """The line whose clue made the deduction (for a probe, the probed cell's row)."""
    clue: Clue
    before: str
    after: str
    fixed: tuple[Cell, ...]
    """The (row, column) cells, from 0, fixed by this step."""
    probe: Cell | None = None
    """For a probe step: the cell tried, and `reason` says how."""
    reason: str = ""
    colours: Colours | None = None
    """The colour of each block of the clue; None in black and white."""
    palette: Palette = BLACK_AND_WHITE
    narrowed: Narrowed = ()
    """In colour: the cells this step rules colours out of without fixing them."""

    @property
    def clue_text(self) -> str:
        """The line's clue as people write it: "3 1", or "3red 1blue" in colour."""
        return clue_text(self.clue, self.colours, self.palette)

    def fixed_text(self) -> str:
        """What the step decides along its line, in words: "columns 4-19 filled; column 1 empty"
        (in colour, "columns 4-6 red; column 1 blank; columns 2-3 not blank")."""
        along_row = self.line.is_row
        across = "column" if along_row else "row"
        chars = chars_of(self.palette)
        found = []
        for colour in [*range(1, len(chars)), 0]:
            positions = sorted(
                (c if along_row else r) + 1 for r, c in self.fixed if self.after[c if along_row else r] == chars[colour]
            )
            if positions:
                found.append(cells_along(across, positions, colour_word(self.palette, colour)))
        choices: dict[tuple[int, ...], list[int]] = {}
        for (r, c), left in self.narrowed:
            choices.setdefault(left, []).append((c if along_row else r) + 1)
        for left, positions in choices.items():
            found.append(cells_along(across, sorted(positions), choice_words(self.palette, left)))
        return "; ".join(found)

    def describe(self) -> str:
        if self.kind == "probe":
            return self.reason
        if self.colours is not None:
            return f"{self.line}, clue {self.clue_text}: {self.before} -> {self.after}; {self.fixed_text()}"
        cells = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in self.fixed)
        return f"{self.line}, clue {clue_text(self.clue)}: {self.before} -> {self.after}; fixed {cells}"
