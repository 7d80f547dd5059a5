"""The quantiser benchmark (bench/quantise*.py): its measure, its rows and its command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

Image = pytest.importorskip("PIL.Image")

from bench.quantise import main, measure  # noqa: E402
from bench.quantise_cases import Case, painted  # noqa: E402
from bench.quantise_measure import IN_LAB, METHODS, PILLOW, cell_labs, lab, mean_delta_e, nonosat_shown  # noqa: E402
from bench.quantise_tables import case_table, summary, summary_table  # noqa: E402
from nonosat.generate.image import load_tints  # noqa: E402
from nonosat.generate.quantise import quantise  # noqa: E402


@pytest.mark.parametrize(
    ("rgb", "expected"),
    [
        ((255, 255, 255), (100.0, 0.0, 0.0)),
        ((0, 0, 0), (0.0, 0.0, 0.0)),
        ((255, 0, 0), (53.24, 80.09, 67.20)),  # the usual published values for sRGB red, green, blue
        ((0, 255, 0), (87.73, -86.18, 83.18)),
        ((0, 0, 255), (32.30, 79.19, -107.86)),
    ],
)
def test_the_bench_s_cielab_matches_published_values(rgb: tuple[int, int, int], expected: tuple[float, ...]) -> None:
    assert lab(rgb) == pytest.approx(expected, abs=0.02)


def strip(tmp_path: Path) -> Path:
    """A 12x6 picture: white, a red square, and a grey-to-blue ramp, so no method is exact."""
    image = Image.new("RGB", (12, 6), "white")
    for y in range(6):
        for x in range(12):
            if x < 4 and y < 4:
                image.putpixel((x, y), (200, 30, 30))
            elif x >= 6:
                t = (x - 6) / 5
                image.putpixel((x, y), (round(128 * (1 - t)), round(128 * (1 - t)), round(128 + 127 * t)))
    image.save(tmp_path / "strip.png")
    return tmp_path / "strip.png"


def test_a_picture_gets_a_row_per_colour_count_with_every_method(tmp_path: Path) -> None:
    case = Case("test", "strip", strip(tmp_path), 12)
    rows = list(measure(case, colour_counts=(2, 3)))
    assert [row["K"] for row in rows] == [2, 3]
    for row in rows:
        error = row["delta_e"]
        assert isinstance(error, dict)
        assert set(error) == set(METHODS) == {"nonosat", *PILLOW, *(m + IN_LAB for m in PILLOW)}
        assert all(math.isfinite(e) and e >= 0 for e in error.values())
        seconds = row["seconds"]
        assert isinstance(seconds, dict) and set(seconds) == set(METHODS)
        assert row["off_goal"] is None  # not a scan
    assert case_table(rows).count("\n| strip |") == 2
    table = summary_table(summary(rows))
    assert table.count("\n| test | 2 |") == 2  # its mean delta E and its ratios
    assert all(f"\n| {method} |" in table for method in METHODS)  # and a tally


def test_nonosat_s_error_is_computed_here_from_its_grid_and_palette(tmp_path: Path) -> None:
    tints = load_tints(strip(tmp_path), 12)
    cells = cell_labs(tints)
    ours = mean_delta_e(cells, nonosat_shown(tints, 2))
    assert 0 < ours < 100
    assert ours == pytest.approx(quantise(tints, 2).error, abs=0.05)  # its own figure, by its own conversion


def test_a_picture_in_as_many_colours_as_asked_scores_zero_for_all(tmp_path: Path) -> None:
    image = Image.new("RGB", (6, 4), "white")
    for x in range(3):
        image.putpixel((x, 1), (20, 120, 220))
        image.putpixel((x + 3, 2), (240, 160, 0))
    image.save(tmp_path / "flat.png")
    (row,) = measure(Case("test", "flat", tmp_path / "flat.png", 6), colour_counts=(2,))
    assert row["delta_e"] == {method: pytest.approx(0, abs=1e-9) for method in METHODS}


@pytest.mark.slow
def test_painted_pictures_are_the_same_every_time(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (first,) = painted("gradients", tmp_path / "a", seeds=(1,))
    (again,) = painted("gradients", tmp_path / "b", seeds=(1,))
    assert first.path.read_bytes() == again.path.read_bytes()


@pytest.mark.slow
def test_the_command_measures_the_scans_and_writes_json(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "q.json"
    assert main(["--groups", "scans", "--json", str(out)]) == 0
    found = json.loads(out.read_text())
    assert len(found["cases"]) == 8
    assert all(set(case["delta_e"]) == set(METHODS) for case in found["cases"])
    assert found["summary"]["scans"]["scan_cells"] == sum(case["cells"] for case in found["cases"])
    assert main(["--groups", "scans", "--json", str(out)]) == 2  # not overwritten without --force


def test_an_unknown_group_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--groups", "photos"]) == 2
    assert "choose groups from" in capsys.readouterr().err
