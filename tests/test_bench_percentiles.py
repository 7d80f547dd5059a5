"""The benchmarks' percentiles: nearest rank, worked out exactly."""

from __future__ import annotations

from bench.fresh_tournament import summary
from bench.percentiles import percentile


def test_percentiles_are_nearest_rank() -> None:
    values = [0.5, 0.1, 0.4, 0.2, 0.3]
    assert percentile(values, 50) == 0.3
    assert percentile(values, 99) == percentile(values, 100) == 0.5
    assert percentile(values, 0) == 0.1
    assert percentile([], 50) is None


def test_the_99_9th_percentile_of_1000_is_the_second_slowest() -> None:
    values = [float(k) for k in range(1000, 0, -1)]  # 1000 down to 1: sorted by the function
    assert percentile(values, 99.9) == 999.0  # not 1000: 99.9 / 100 * 1000 is 999.0000000000001
    assert percentile(values, 99) == 990.0 and percentile(values, 50) == 500.0
    assert percentile([float(k) for k in range(30_000)], 99.9) == 29_969.0  # the 29,970th


def test_a_summary_gives_the_second_slowest_as_its_99_9th_percentile() -> None:
    records: list[dict[str, object]] = [
        {"path": f"/tmp/x/fresh-1.txt#{k}", "seconds": k / 1000, "status": "multiple"} for k in range(1, 1001)
    ]
    line = summary("fresh 1", 12.5, records)
    assert "99.9% 0.999 s" in line and "slowest 1.00 s (fresh-1.txt#1000)" in line
    assert "median 0.500 s" in line and "99% 0.990 s" in line
