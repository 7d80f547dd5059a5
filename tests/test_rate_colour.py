"""Rate on colour puzzles (issue 16): the level of puzzles line logic solves, of one that
needs probing, of an ambiguous one and of one with no solution."""

from __future__ import annotations

import json
from pathlib import Path

from colour_explained import NEEDS_PROBING, VICERES, colour_file, crossed
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.rating import rate

runner = CliRunner()


def test_levels_of_colour_puzzles(corpus: Path) -> None:
    assert rate(load(colour_file(corpus, "nonny/data/puzzles/color/tree.non"))).level == "line"
    probing = rate(load(colour_file(corpus, NEEDS_PROBING)))
    assert probing.level == "probe" and probing.score == 4 and probing.probes > 0
    ambiguous = rate(load(colour_file(corpus, VICERES)))
    assert ambiguous.level == "ambiguous" and ambiguous.score == 5
    rated = json.loads(runner.invoke(app, ["rate", colour_file(corpus, VICERES), "--json"]).stdout)
    assert rated["level"] == "ambiguous"
    done = runner.invoke(app, ["check", colour_file(corpus, "nonny/data/puzzles/color/tree.non")])
    assert done.exit_code == 0 and "level: line" in done.stdout


def test_an_impossible_colour_puzzle_rates_none() -> None:
    assert crossed().problems() == []
    assert rate(crossed()).level == "none"
