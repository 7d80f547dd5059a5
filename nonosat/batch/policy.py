"""What a batch run's records add up to: counts and times by status, the slowest puzzles, goals
that break their clues, and whether the run fails the statuses its caller will not accept."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from nonosat.batch.results import STATUSES, Record
from nonosat.choices import Choice
from nonosat.errors import UsageError

GOAL = "goal"
"""Not a status: a puzzle whose file gives a goal that breaks its clues (`goal_ok` false)."""


class Require(Choice):
    """What every puzzle of a run must be: unique (its goal, if any, satisfying its clues)."""

    UNIQUE = "unique"


UNIQUE_REQUIRED = frozenset({"multiple", "solved", "none", "unknown", "error", GOAL})
"""What requiring every puzzle to be unique fails on."""

SLOW = 0.25
"""Puzzles taking at least this many seconds are the slow ones of a summary (the five slowest)."""


def parse_statuses(text: str | None, allowed: Sequence[str] = STATUSES) -> set[str]:
    """A comma-separated list of statuses, each one of `allowed`."""
    named = {name.strip() for name in (text or "").split(",") if name.strip()}
    unknown = named - set(allowed)
    if unknown:
        raise UsageError(f"statuses are {', '.join(allowed)}; not {', '.join(sorted(unknown))}")
    return named


def failing_statuses(require: str | None, fail_on: str | None) -> set[str]:
    """The statuses (and `goal`) that fail a run: those `fail_on` names, and with `require`
    "unique" every one but unique."""
    failing: set[str] = set()
    if require is not None:
        if require != "unique":
            raise UsageError("the only requirement is unique")
        failing |= UNIQUE_REQUIRED
    return failing | parse_statuses(fail_on, (*STATUSES, GOAL))


NAMED = 3
"""The puzzles a failure names of each status (a review: "some puzzles are multiple" named none)."""


def failures(records: Iterable[Record], failing: set[str]) -> list[str]:
    """What the records hold of the failing statuses, in order, each with the first puzzles of
    it named ("multiple: a.non, b.non and 3 more"); empty when the run passes."""
    records = list(records)
    bad = [
        (status, [str(r["path"]) for r in records if r["status"] == status])
        for status in sorted({str(record["status"]) for record in records} & failing)
    ]
    if GOAL in failing:
        broken = [str(r["path"]) for r in records if r.get("goal_ok") is False]
        bad.append(("goal (a goal that breaks its clues)", broken))
    return [f"{status}: {_some(paths)}" for status, paths in bad if paths]


def _some(paths: list[str]) -> str:
    shown = ", ".join(paths[:NAMED])
    return shown if len(paths) <= NAMED else f"{shown} and {len(paths) - NAMED} more"


@dataclass
class Summary:
    """Per status: how many puzzles, their total and longest seconds; the slowest puzzles, and
    the puzzles whose goal breaks their clues."""

    total: int
    by_status: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    slowest: list[Record] = field(default_factory=list)
    broken_goals: list[str] = field(default_factory=list)


def summarize(records: Sequence[Record], slow: float = SLOW) -> Summary:
    summary = Summary(len(records))
    for status in sorted({str(record["status"]) for record in records}):
        times = [float(r["seconds"]) for r in records if r["status"] == status]
        summary.by_status[status] = (len(times), sum(times), max(times))
    slow_ones = (r for r in records if r["seconds"] >= slow)
    summary.slowest = sorted(slow_ones, key=lambda r: r["seconds"], reverse=True)[:5]
    summary.broken_goals = [str(r["path"]) for r in records if r.get("goal_ok") is False]
    return summary
