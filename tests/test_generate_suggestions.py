"""Suggestions for a hard picture: edits measured, not made, best first, none for a picture line
logic solves; `--preview-changes` marks each changed cell beside the picture and needs a preview
(and `--suggest` makes nothing); and the command line names its own options in messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from generate_shared import smiley_fixture  # noqa: F401  (fixture)
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.generate import from_image, suggest_edits
from nonosat.generate.repair import flip_cost
from nonosat.generate.search import solve_open
from nonosat.model import Puzzle
from nonosat.render.changes import ADDED, RECOLOURED, REMOVED

pytest.importorskip("PIL.Image")


def test_the_command_line_names_its_own_options_in_messages(smiley: Path) -> None:
    done = runner.invoke(app, ["generate", str(smiley), "--width", "30", "--require", "line", "--max-distance", "0.5"])
    assert done.exit_code == 5 and "--max-distance" in done.output and "max_distance" not in done.output


def test_suggestions_are_measured_not_made_and_best_first(smiley: Path) -> None:
    from nonosat.generate.image import load_shades, threshold

    found = suggest_edits(smiley, width=22, count=4)
    shades = threshold(load_shades(smiley, 22, 22), "otsu", False)
    assert found.open == solve_open(Puzzle.from_grid(shades.grid)) > 0
    assert len(found.edits) == 4
    for edit in found.edits:
        picture = [list(row) for row in shades.grid]
        r, c = edit.cell
        assert picture[r][c] != edit.colour
        picture[r][c] = edit.colour
        assert edit.open == solve_open(Puzzle.from_grid(picture))
    opens = [edit.open for edit in found.edits]
    assert opens == sorted(opens) and all(o < found.open for o in opens)  # each frees cells
    weights = flip_cost(shades.margin, shades.grid)
    assert all(edit.cost >= 0 for edit in found.edits) and weights(0, 0, shades.grid[0][0]) == 0


def test_a_line_solvable_picture_needs_no_suggestion(tmp_path: Path) -> None:
    from nonosat.generate.image import draw_scan

    draw_scan(((1, 1, 1), (1, 0, 1), (1, 1, 1)), tmp_path / "easy.png", scale=4, blur=0, noise=0)
    found = suggest_edits(tmp_path / "easy.png", width=3, count=3)
    assert found.open == 0 and found.edits == []


runner = CliRunner()


@pytest.mark.slow
def test_preview_changes_marks_each_changed_cell_beside_the_picture(smiley: Path, tmp_path: Path) -> None:
    preview = tmp_path / "changes.svg"
    done = runner.invoke(
        app,
        [
            "generate",
            str(smiley),
            "--width",
            "24",
            "--require",
            "line",
            "-o",
            str(tmp_path / "s.non"),
            "--preview",
            str(preview),
            "--preview-changes",
        ],
    )
    assert done.exit_code == 0, done.output
    made = from_image(smiley, width=24, require="line")
    svg = preview.read_text()
    marked = svg.count(f'stroke="{ADDED}"') + svg.count(f'stroke="{REMOVED}" stroke-width="3"')
    assert marked == len(made.changed) > 0 and RECOLOURED not in svg
    assert "picture distance" in done.output
    png = tmp_path / "changes.png"
    assert (
        runner.invoke(
            app,
            [
                "random",
                "--width",
                "12",
                "--height",
                "12",
                "--seed",
                "2",
                "--preview",
                str(png),
                "--preview-changes",
                "-o",
                str(tmp_path / "r.non"),
            ],
        ).exit_code
        == 0
    )
    assert png.read_bytes().startswith(b"\x89PNG")


def test_preview_changes_needs_a_preview_and_suggest_makes_nothing(smiley: Path, tmp_path: Path) -> None:
    assert runner.invoke(app, ["generate", str(smiley), "--preview-changes"]).exit_code == 2
    assert runner.invoke(app, ["generate", str(smiley), "--suggest", "2", "-o", str(tmp_path / "x.non")]).exit_code == 2
    assert not (tmp_path / "x.non").exists()
    done = runner.invoke(app, ["generate", str(smiley), "--width", "20", "--suggest", "3"])
    assert done.exit_code == 0
    assert done.output.count("left open (cost") == 3
