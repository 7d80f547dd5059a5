"""The times of bench/versions.py: each side's rounds, the ratios B/A with their geometric mean
and its confidence interval, a set's row, and the printed lines of a set and of its stages.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Side:
    """One checkout's times on a set: seconds[round][puzzle], and the CPU seconds likewise."""

    seconds: list[list[float]] = field(default_factory=list)
    cpu: list[list[float]] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)

    def best(self, cpu: bool = False) -> list[float]:
        """Each puzzle's fastest round."""
        rounds = self.cpu if cpu else self.seconds
        return [min(times) for times in zip(*rounds, strict=True)]


def geometric_mean(ratios: Sequence[float]) -> tuple[float, float, float]:
    """The geometric mean of positive ratios and its 95% confidence interval (normal, on logs)."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    spread = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else 0.0
    return math.exp(mean), math.exp(mean - spread), math.exp(mean + spread)


FLOOR = 1e-4
"""Seconds below which a time counts as this much in a ratio (a puzzle decided in microseconds)."""


def ratios(numerator: Sequence[float], denominator: Sequence[float]) -> list[float]:
    return [max(n, FLOOR) / max(d, FLOOR) for n, d in zip(numerator, denominator, strict=True)]


@dataclass
class SetComparison:
    """Both checkouts on one set."""

    name: str
    mode: str
    labels: list[str]
    a: Side
    b: Side
    same_formula: int
    """Puzzles whose solve reported the same statistics on both sides (line passes, open cells,
    variables and clauses): the same formula, so the same search."""
    verdicts: dict[str, int]

    def row(self) -> dict[str, Any]:
        a, b = self.a.best(), self.b.best()
        row: dict[str, Any] = {
            "set": self.name,
            "mode": self.mode,
            "puzzles": len(self.labels),
            "verdicts": self.verdicts,
            "same_formula": self.same_formula,
            "a_total_s": round(sum(a), 3),
            "b_total_s": round(sum(b), 3),
            "total_ratio": round(sum(b) / sum(a), 4) if sum(a) else None,
            "geomean": [round(x, 4) for x in geometric_mean(ratios(b, a))],
            "rounds": {name: [round(sum(r), 3) for r in side.seconds] for name, side in (("a", self.a), ("b", self.b))},
        }
        if len(self.a.seconds) > 1:
            row["a_against_itself"] = [round(x, 4) for x in geometric_mean(ratios(*self.a.seconds[:2]))]
        if self.mode == "single":
            a_cpu, b_cpu = self.a.best(cpu=True), self.b.best(cpu=True)
            row["cpu_total_ratio"] = round(sum(b_cpu) / sum(a_cpu), 4) if sum(a_cpu) else None
            row["cpu_geomean"] = [round(x, 4) for x in geometric_mean(ratios(b_cpu, a_cpu))]
        else:
            row["walls"] = {"a": [round(w, 3) for w in self.a.walls], "b": [round(w, 3) for w in self.b.walls]}
        row["largest_b_over_a"] = self.largest(3)
        return row

    def largest(self, shown: int) -> list[tuple[str, float, float]]:
        """The puzzles over 10 ms where B took longest against A: label, A s, B s."""
        a, b = self.a.best(), self.b.best()
        timed = [(label, x, y) for label, x, y in zip(self.labels, a, b, strict=True) if max(x, y) > 0.01]
        timed.sort(key=lambda t: t[1] / t[2])
        return [(label, round(x, 4), round(y, 4)) for label, x, y in timed[:shown]]


def describe_stages(row: dict[str, Any]) -> str:
    lines = [f"{row['set']} (stages): {row['puzzles']} puzzles; each stage's total, A and B, and B/A per puzzle"]
    for stage, figures in row["stages"].items():
        g = figures["geomean"]
        mean = f"geometric mean {g[0]} (95% {g[1]}-{g[2]})" if g else "no puzzle"
        lines.append(
            f"  {stage:6} A {figures['a_total_s']:8.4f} s  B {figures['b_total_s']:8.4f} s  "
            f"on {figures['puzzles']} puzzles: {mean}"
        )
    return "\n".join(lines)


def describe(row: dict[str, Any]) -> str:
    """The printed lines of one set."""
    g, v = row["geomean"], row["verdicts"]
    lines = [
        f"{row['set']} ({row['mode']}): {row['puzzles']} puzzles, {v['unique']} unique, {v['multiple']} multiple, "
        f"{v['none']} none, {v['unknown']} unknown; same formula on {row['same_formula']}",
        f"  A {row['a_total_s']} s, B {row['b_total_s']} s (fastest round of each puzzle), B/A {row['total_ratio']}; "
        f"per puzzle B/A geometric mean {g[0]} (95% {g[1]}-{g[2]})",
        f"  rounds: A {row['rounds']['a']}, B {row['rounds']['b']}",
    ]
    if "a_against_itself" in row:
        s = row["a_against_itself"]
        lines.append(f"  A against itself, round 1/round 2: geometric mean {s[0]} (95% {s[1]}-{s[2]})")
    if "cpu_geomean" in row:
        c = row["cpu_geomean"]
        lines.append(f"  CPU seconds: B/A total {row['cpu_total_ratio']}, geometric mean {c[0]} (95% {c[1]}-{c[2]})")
    if "walls" in row:
        lines.append(f"  set wall-clock s: A {row['walls']['a']}, B {row['walls']['b']}")
    largest = ", ".join(f"{label} {a} -> {b} s" for label, a, b in row["largest_b_over_a"])
    lines.append(f"  most slowed by B: {largest}")
    return "\n".join(lines)
