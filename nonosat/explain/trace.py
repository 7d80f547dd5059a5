"""The record of a logical solve: the board it reached, its steps, passes and probes, and why it
stopped. `nonosat.explain.steps` makes one; the rating keeps one without importing the steps'
machinery when the solver's line logic already finished the grid."""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from nonosat.explain.step import Step
    from nonosat.solver.propagation import Board


@dataclass
class Trace:
    """The steps of a logical solve, and where it ended."""

    board: Board
    steps: list[Step] = field(default_factory=list)
    passes: int = 0
    probes: int = 0
    """How many cells were probed (each tried both ways)."""
    contradiction: str | None = None
    """The line found impossible, if the clues contradict each other (or the given cells)."""
    cut_short: str | None = None
    """Why the logic stopped before it could go no further, when the deadline passed first."""

    @property
    def complete(self) -> bool:
        return self.contradiction is None and self.cut_short is None and self.board.is_complete()

    @property
    def level(self) -> str:
        """ "line" if line logic alone got this far, "probe" if probing was needed."""
        return "probe" if any(step.kind == "probe" for step in self.steps) else "line"
