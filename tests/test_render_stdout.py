"""`render -o -` writes the SVG sheet to standard output, as `encode -o -` and `convert FILE -`
write theirs (a review: a site's script had to write a file and read it back; `-o -` was
refused as "not to standard output")."""

from pathlib import Path

from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.formats import load
from nonosat.render.sheets import to_svg
from nonosat.solver import solve

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()


def test_the_empty_sheet_goes_to_standard_output_as_a_file_would_hold_it(tmp_path: Path) -> None:
    knot = PUZZLES / "webpbn-00016-knot.non"
    done = runner.invoke(app, ["render", str(knot), "-o", "-"])
    assert done.exit_code == 0, done.output
    assert done.stdout == to_svg(load(knot)) and done.stderr == ""
    written = runner.invoke(app, ["render", str(knot), "-o", str(tmp_path / "knot.svg")])
    assert written.exit_code == 0 and (tmp_path / "knot.svg").read_text() == done.stdout
    assert not Path("-").exists()


def test_a_solution_not_proved_the_only_one_is_said_on_standard_error() -> None:
    ring = PUZZLES / "ring.non"  # two solutions: the picture is the first found
    done = runner.invoke(app, ["render", str(ring), "-o", "-", "--solution"])
    assert done.exit_code == 0, done.output
    first = solve(load(ring), count=1, jobs=1).solution
    assert first is not None and done.stdout == to_svg(load(ring), first.grid)
    assert "the first solution found" in done.stderr and done.stderr.count("\n") == 1
