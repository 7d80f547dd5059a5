"""bench/draws.py: a search change judged on puzzles picked by a draw in neither compared run."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.draws import main, summary, upside_down, write_sets
from bench.fresh_tournament import fresh_set
from nonosat import load_all, solve

HERE = Path(__file__).resolve().parent.parent


def test_a_puzzle_upside_down_has_its_grids_upside_down() -> None:
    for puzzle in fresh_set(8, 4):
        turned = upside_down(puzzle)
        assert turned.rows == puzzle.rows[::-1] and upside_down(turned).columns == puzzle.columns
        grid = solve(puzzle, jobs=1).solutions[0].grid
        assert turned.satisfied_by(grid[::-1])


def test_the_sets_are_written_both_ways_up_in_the_workers_order(tmp_path: Path) -> None:
    files, labels = write_sets(tmp_path, [8, 9], 3)
    assert [f.name for f in files] == [
        "fresh-8-right.txt",
        "fresh-8-upside.txt",
        "fresh-9-right.txt",
        "fresh-9-upside.txt",
    ]
    puzzles = [p for f in files for p in load_all(f)]
    assert len(puzzles) == len(labels) == 12
    turned = upside_down(fresh_set(8, 3)[0])
    assert (puzzles[3].rows, puzzles[3].columns) == (turned.rows, turned.columns)
    assert labels[3] == "fresh-8.txt#1 upside down"
    assert labels[6] == "fresh-9.txt#1 right way up"


def test_a_summary_gives_both_sides_and_their_ratios() -> None:
    times = ([1.0, 3.0, 0.5], [2.0, 1.5, 0.5])
    line = summary("right way up", "upside down", [0, 1], times)
    assert "on the 2 puzzles A takes over the threshold upside down" in line
    assert "A 4.00 s, slowest 3.00 s, 1 over 2 s; B 3.50 s, slowest 2.00 s, 0 over 2 s" in line
    assert "B/A 0.875, per puzzle geometric mean 1.000" in line
    assert "no puzzle" in summary("upside down", "right way up", [], times)


@pytest.mark.slow
def test_two_checkouts_are_compared_on_the_puzzles_the_other_way_up_picked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """This checkout against itself on a small set, every puzzle picked (a threshold of 0 s):
    every verdict agrees and both ways up are summed up."""
    assert main([str(HERE), str(HERE), "--seeds", "8", "--size", "4", "--over", "0"]) == 0
    out = capsys.readouterr().out
    assert "A solved 8 puzzles (both ways up)" in out
    assert "right way up, on the 4 puzzles A takes over the threshold upside down" in out
    assert "upside down, on the 4 puzzles A takes over the threshold right way up" in out
