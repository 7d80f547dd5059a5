"""Which format a puzzle file is read as: found by content whatever its suffix, a clue list that
looks like CWD read as the clue list it is, and a known suffix deciding before the content."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_shared import clues_only

from nonosat.errors import ParseError
from nonosat.formats import detect_format, dumps, load, loads
from nonosat.formats.non import dump_non
from nonosat.model import Puzzle

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)), title="Tiny")
"""A 3x3 puzzle with an empty row, small enough to write by hand in every format."""


@pytest.mark.parametrize("fmt", ["non", "nin", "json", "clues", "tournament"])
@pytest.mark.parametrize("suffix", [".txt", ".dat", ""])
def test_format_detected_by_content(tmp_path: Path, fmt: str, suffix: str) -> None:
    path = tmp_path / f"tiny{suffix}"
    path.write_text(dumps(TINY, fmt))
    assert detect_format(path, path.read_text()) == fmt
    assert clues_only(load(path)) == clues_only(TINY)


def test_a_clue_list_that_looks_like_cwd_is_read_as_a_clue_list() -> None:
    """A review found "3 3 2 3 3 / 5 5 2-2" in a .txt read as CWD (height 3, width 3, a different
    and impossible puzzle: `solve` said "no solution"), and 1% of random clue lists up to 12x12
    so. Every one of 1,000 such lists is read by content as the clue list it is; a CWD file
    stays CWD."""
    import random

    rng = random.Random(7)
    for _ in range(1000):
        height, width, density = rng.randint(1, 12), rng.randint(1, 12), rng.random()
        puzzle = Puzzle.from_grid([[int(rng.random() < density) for _ in range(width)] for _ in range(height)])
        text = dumps(puzzle, "clues")
        assert detect_format(None, text) == "clues", text
        assert clues_only(loads(text)) == clues_only(puzzle)
    assert detect_format(None, "3\n3\n2\n3\n3\n\n5\n5\n2 2\n") == "clues"
    assert detect_format(None, "3\n3\n1\n\n3\n\n1 1\n1\n1\n") == "cwd"


def test_suffix_decides_before_content(tmp_path: Path) -> None:
    path = tmp_path / "tiny.nin"
    path.write_text(dump_non(TINY))
    assert detect_format(path, path.read_text()) == "nin"
    with pytest.raises(ParseError):
        load(path)
