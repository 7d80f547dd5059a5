"""The quantiser benchmark's tables: every case's delta E per method, and per group the means,
nonosat's ratios to each Pillow method and the tally of cases it wins, ties and loses.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from bench.quantise_measure import IN_LAB, METHODS, PILLOW, RIVALS


def ratio(a: float, b: float) -> float:
    """a / b, infinite when only b is 0, 1 when both are."""
    if b == 0:
        return 1.0 if a == 0 else math.inf
    return a / b


def case_table(rows: Sequence[dict[str, object]]) -> str:
    """Per case: nonosat's mean delta E, then each Pillow method's, as it is and in Lab, and
    nonosat's ratio to each."""
    head = "| case | K | cells | nonosat | " + " | ".join(f"{m}: as is / in Lab | ratios" for m in PILLOW) + " |"
    lines = [head, "|---|---:|---:|---:|" + "---:|---:|" * len(PILLOW)]
    for row in rows:
        error: dict[str, float] = row["delta_e"]  # type: ignore[assignment]
        ours = error["nonosat"]
        cells = " | ".join(_pair(error, m) for m in PILLOW)
        lines.append(f"| {row['case']} | {row['K']} | {row['cells']} | {ours:.2f} | {cells} |")
    return "\n".join(lines)


def _pair(error: dict[str, float], method: str) -> str:
    """A Pillow method's delta E as it is / in Lab, then nonosat's ratios to them."""
    own, in_lab = error[method], error[method + IN_LAB]
    ours = error["nonosat"]
    return f"{own:.2f} / {in_lab:.2f} | {ratio(ours, own):.2f} / {ratio(ours, in_lab):.2f}"


def summary(rows: Sequence[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Per group and over all: each method's mean delta E over the cases, nonosat's ratio to it,
    in how many cases nonosat is lower, within 0.01, or higher, its seconds in all, and (scans)
    its cells off the goal."""
    found: dict[str, dict[str, object]] = {}
    groups = list(dict.fromkeys(str(row["group"]) for row in rows))
    for group in [*groups, "all"] if len(groups) > 1 else groups:
        chosen = [row for row in rows if group in ("all", row["group"])]
        errors: list[dict[str, float]] = [row["delta_e"] for row in chosen]  # type: ignore[misc]
        times: list[dict[str, float]] = [row["seconds"] for row in chosen]  # type: ignore[misc]
        offs: list[dict[str, int]] = [row["off_goal"] for row in chosen if row["off_goal"]]  # type: ignore[misc]
        means = {m: statistics.fmean(e[m] for e in errors) for m in METHODS}
        found[group] = {
            "cases": len(chosen),
            "cells": sum(int(row["cells"]) for row in chosen),  # type: ignore[call-overload]
            "mean_delta_e": means,
            "ratio": {m: ratio(means["nonosat"], means[m]) for m in RIVALS},
            "nonosat_lower": {m: sum(e["nonosat"] < e[m] - 0.01 for e in errors) for m in RIVALS},
            "within_001": {m: sum(abs(e["nonosat"] - e[m]) <= 0.01 for e in errors) for m in RIVALS},
            "nonosat_higher": {m: sum(e["nonosat"] > e[m] + 0.01 for e in errors) for m in RIVALS},
            "seconds": {m: sum(t[m] for t in times) for m in METHODS},
            "off_goal": {m: sum(o[m] for o in offs) for m in METHODS} if offs else None,
            "scan_cells": sum(int(r["cells"]) for r in chosen if r["off_goal"]) or None,  # type: ignore[call-overload]
        }
    return found


def summary_table(found: dict[str, dict[str, object]]) -> str:
    """Three tables: each method's mean delta E per group; nonosat's ratio to each Pillow method
    per group; and over the last group ("all" when there are several), in how many cases nonosat
    is lower, within 0.01 or higher, the cells off the goal on the scans, and the seconds."""
    means = _head(["group", "cases", *METHODS])
    ratios = _head(["group", "cases", *(f"nonosat / {m}" for m in RIVALS)])
    for group, s in found.items():
        mean: dict[str, float] = s["mean_delta_e"]  # type: ignore[assignment]
        ratio_of: dict[str, float] = s["ratio"]  # type: ignore[assignment]
        means += f"\n| {group} | {s['cases']} | " + " | ".join(f"{mean[m]:.2f}" for m in METHODS) + " |"
        ratios += f"\n| {group} | {s['cases']} | " + " | ".join(f"{ratio_of[m]:.3f}" for m in RIVALS) + " |"
    group, s = list(found.items())[-1]
    offs: dict[str, int] | None = s["off_goal"]  # type: ignore[assignment]
    seconds: dict[str, float] = s["seconds"]  # type: ignore[assignment]
    names = ["nonosat lower", "within 0.01", "nonosat higher", "scan cells off the goal", "seconds"]
    tally = [_head([f"method ({group}, {s['cases']} cases)", *names])]
    for method in METHODS:
        counts = "- | - | -" if method == "nonosat" else " | ".join(str(s[k][method]) for k in TALLIES)  # type: ignore[index]
        off = f"{offs[method]} of {s['scan_cells']}" if offs else "-"
        tally.append(f"| {method} | {counts} | {off} | {seconds[method]:.2f} |")
    return "\n\n".join([means, ratios, "\n".join(tally)])


def _head(names: Sequence[str]) -> str:
    """A table's header and its rule, the first column left, the rest right."""
    return "| " + " | ".join(names) + " |\n|---|" + "---:|" * (len(names) - 1)


TALLIES = ("nonosat_lower", "within_001", "nonosat_higher")
