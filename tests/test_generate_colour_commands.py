"""`nonosat generate --colours` and `nonosat random --colours` on the command line: a colour puzzle
that `check` proves unique, a .non file that loads, and bad colour options in one line with
exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from generate_shared import bare, colours_in, picture_colours
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.solver import Status, solve

pytest.importorskip("PIL.Image")


PICTURES = "colour/number-loom/examples/png"


runner = CliRunner()


def test_generate_colours_writes_a_colour_puzzle_that_check_proves_unique(corpus: Path, tmp_path: Path) -> None:
    out, preview = tmp_path / "sub.xml", tmp_path / "sub.png"
    picture = corpus / PICTURES / "fire_submarine.png"
    done = runner.invoke(
        app, ["generate", str(picture), "--width", "40", "--colours", "3", "-o", str(out), "--preview", str(preview)]
    )
    assert done.exit_code == 0, done.output
    assert "unique (proved by" in done.output and "cells changed" in done.output
    puzzle = load(out)
    assert puzzle.is_colour and len(puzzle.palette) <= 4 and puzzle.goal is not None
    assert colours_in(puzzle.palette, puzzle.goal) == picture_colours(picture)
    assert preview.stat().st_size > 0
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0 and "unique" in checked.output


def test_random_colours_prints_a_non_file_that_loads(tmp_path: Path) -> None:
    done = runner.invoke(app, ["random", "--width", "9", "--height", "7", "--colours", "3", "--seed", "5"])
    assert done.exit_code == 0, done.output
    (tmp_path / "r.non").write_text(done.stdout)
    puzzle = load(tmp_path / "r.non")
    assert (puzzle.width, puzzle.height) == (9, 7) and len(puzzle.palette) == 4
    assert solve(bare(puzzle), count=2, jobs=1).status is Status.UNIQUE


@pytest.mark.parametrize(
    "arguments, says",
    [
        (["generate", "missing.png", "--colours", "0"], "--colours is a number of colours from 1 to 62, not 0"),
        (["generate", "missing.png", "--colours", "63"], "--colours is a number of colours from 1 to 62, not 63"),
        (["random", "--width", "5", "--height", "5", "--colours", "0"], "--colours is a number of colours"),
        (["generate", "missing.png", "--colours", "2", "--threshold", "90"], "--threshold is for black and white"),
        (["generate", "missing.png", "--colours", "2", "--invert"], "--invert is for black and white"),
    ],
)
def test_bad_colour_options_get_one_line_and_exit_2(arguments: list[str], says: str) -> None:
    done = runner.invoke(app, arguments)
    assert done.exit_code == 2
    assert done.output.startswith(f"nonosat: {says}") and done.output.count("\n") == 1
    assert done.output.rstrip().endswith(f"(see 'nonosat {arguments[0]} --help')")  # where the options are
