"""bench/race_rivals.py: the races it works out from per-solver times, and a small run that
measures each candidate and resumes from its file."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

from bench.race_rivals import CANDIDATES, POLICIES, finish, measure, report


def test_processes_share_two_cores_evenly() -> None:
    assert finish([(0, 3.0)]) == 3.0
    assert finish([(0, 3.0), (1.0, 1.0)]) == 2.0  # the rival alone on the second core
    assert finish([(0, 3.0), (0, 3.0), (0, 3.0)]) == pytest.approx(4.5)  # three on two cores
    # from 1 s on, three share two cores: the rival's second of work takes 1.5 s
    assert finish([(0, 3.0), (1.0, 1.0), (1.0, 10.0)]) == pytest.approx(2.5)
    assert finish([(0, 0.5), (1.0, 0.1)]) == 0.5  # done before the rival starts


def test_the_report_compares_each_policy_with_todays() -> None:
    times = {
        "collection": "fresh",
        "cdcl": 5.0,
        "upside-down": 1.0,
        "minisat22": 0.5,
        "cadical195": 9.0,
        "glucose4": 9.0,
    }
    quick = {"collection": "fresh", "cdcl": 0.01}
    lines = report({"a": times, "b": quick}, 0.25)
    assert lines[0] == "fresh: 1 of 2 puzzles over 0.25 s by cdcl alone"
    assert len(lines) == 1 + 2 * len(POLICIES)
    alone = next(line for line in lines if "race after 1.0 s, alone:" in line)
    assert "sum 5.0 s (2.463 of today's)" in alone  # today: 1 s alone, then the rival's 1.03 s
    today = next(line for line in lines if "race after 0.1 s, upside-down (today)" in line)
    assert "(1.000 of today's)" in today and "slowest 1.13 s" in today


@pytest.mark.slow
def test_a_small_run_measures_every_candidate_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "times.jsonl"
    args = argparse.Namespace(seeds="3", size=3, corpus_sets="", slower_than=0.0, timeout=20.0, out=str(out))
    known = measure(args)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    open_ones = [key for key, times in known.items() if "cdcl" in times]
    assert len(known) == 3 and {r["how"] for r in records} == {"cdcl", *CANDIDATES}
    assert len(records) == 3 * (1 + len(CANDIDATES)) and all(
        math.isfinite(r["seconds"]) for r in records
    )  # none over its timeout (inf)
    assert len(open_ones) == 3
    again = measure(args)
    assert again == known and len(out.read_text().splitlines()) == len(records)


def test_colour_noise_grids_are_a_collection_of_their_own() -> None:
    """`--colour SIDE:COLOURS:FIRST-LAST` screens bench.colour_set's noise grids, reported apart."""
    from bench.race_rivals import puzzles

    drawn = list(puzzles([], 0, [], "12:2:1-3"))
    assert [(collection, key) for collection, key, _ in drawn] == [
        ("colour", f"noise 12 k2 seed {seed}") for seed in (1, 2, 3)
    ]
    assert all(puzzle.is_colour and puzzle.width == 12 for _, _, puzzle in drawn)
    times = {"collection": "colour", "cdcl": 5.0, "upside-down": 4.0, "minisat22": 1.0, "cadical195": 9, "glucose4": 9}
    lines = report({"a": times}, 0.25)
    assert lines[0] == "colour: 1 of 1 puzzles over 0.25 s by cdcl alone"
    assert any("race after 1.0 s, minisat22: sum 2.0 s" in line for line in lines), lines


def test_the_relay_takes_the_side_upside_downs_place_at_three_seconds() -> None:
    from bench.race_rivals import OVERHEAD, relayed

    times = {"cdcl": 10.0, "upside-down": 2.5, "minisat22": 4.0, "cadical195": 1.0}
    assert relayed(times, 0.1, "minisat22") == pytest.approx(0.1 + 2.5 + OVERHEAD)  # upside down first
    slow = {**times, "upside-down": 20.0}
    assert relayed(slow, 0.1, "minisat22") == pytest.approx(3.0 + 4.0 + OVERHEAD)
    assert relayed(slow, 0.1, "cadical195") == pytest.approx(3.0 + 1.0 + OVERHEAD)
    assert relayed({**slow, "cdcl": 2.0}, 0.1, "cadical195") == 2.0  # the search itself first


def test_a_puzzle_no_candidate_finished_is_counted_not_summed() -> None:
    stuck = {"collection": "large", "cdcl": math.inf, **{how: math.inf for how in CANDIDATES}}
    quick = {"collection": "large", "cdcl": 2.0, **{how: 1.0 for how in CANDIDATES}}
    lines = report({"a": stuck, "b": quick}, 0.25)
    alone = next(line for line in lines if "race after 1.0 s, alone:" in line)
    assert alone == "  race after 1.0 s, alone: 1 not within the timeout; the other 1 sum 2.0 s, slowest 2.00 s"
