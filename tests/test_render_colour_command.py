"""Colour on the command line, on a colour puzzle file that line logic solves: solve shows it in
letters and in its JSON, render draws it in its colours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from colour_views import GRID, PALETTE, puzzle, svg_fills
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.formats.jsonfmt import dump_json, palette_list
from nonosat.render.views import cell_width


@pytest.fixture
def colour_file(tmp_path: Path) -> Path:
    path = tmp_path / "colour.json"
    path.write_text(dump_json(puzzle()))
    return path


def test_solve_shows_a_colour_puzzle_in_letters_and_its_json(colour_file: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["solve", str(colour_file), "--ascii"])
    assert shown.exit_code == 0, shown.output
    rows = ["".join(PALETTE[v].char for v in row) for row in GRID]
    width = cell_width(puzzle(), [[("2y", None)]], True)
    lines = shown.stdout.split("\n")
    assert [line[-len(GRID[0]) * width :][::width] for line in lines[-2 - len(GRID) : -2]] == rows
    data = json.loads(runner.invoke(app, ["solve", str(colour_file), "--format", "json"]).stdout)
    assert data["palette"] == palette_list(puzzle()) and data["solutions"] == [rows]


def test_render_draws_a_colour_puzzle(colour_file: Path, tmp_path: Path) -> None:
    svg = tmp_path / "colour.svg"
    result = CliRunner().invoke(app, ["render", str(colour_file), "--solution", "-o", str(svg)])
    assert result.exit_code == 0, result.output
    assert set(svg_fills(svg.read_text(), puzzle())) == {c.rgb for c in PALETTE[1:]}
