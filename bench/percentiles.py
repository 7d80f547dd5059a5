"""Percentiles of timings, the nearest-rank way, shared by the benchmarks that report them.

The p-th percentile of n values is the ceil(p * n / 100)-th smallest: of 1,000 puzzle times the
99.9th percentile is the 999th, the second slowest, and only the 100th is the slowest. The rank
is worked out exactly (99.9 / 100 * 1000 is 999.0000000000001 in floating point, which would
take the slowest instead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (`share` from 0 to 100) of `values`; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = math.ceil(Fraction(str(share)) * len(ordered) / 100)
    return ordered[min(len(ordered), max(1, rank)) - 1]
