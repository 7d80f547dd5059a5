"""`python -m bench.closer_pictures`: fresh pictures drawn from seeds, each made with and without
the closing tries that hold the distance."""

from __future__ import annotations

import pytest

from bench import closer_pictures
from nonosat.generate import from_image


@pytest.mark.slow
def test_a_seed_draws_the_same_picture_and_another_seed_another() -> None:
    first, again, other = (
        closer_pictures.drawn(9301, None),
        closer_pictures.drawn(9301, None),
        closer_pictures.drawn(9302, None),
    )
    assert first.data == again.data and first.data != other.data and first.name == "fresh-9301.png"
    made = from_image(first, width=25, require="line")  # a picture the generator reads, in black and white
    assert made.puzzle.width == 25 and not made.puzzle.is_colour
    assert from_image(closer_pictures.drawn(9501, 3), width=25, colours=3, require="line").puzzle.is_colour


@pytest.mark.slow
def test_the_benchmark_makes_each_picture_both_ways_and_sums_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert closer_pictures.main(["--groups", "fresh-25", "--first", "2", "--requires", "line"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("fresh-25 ")]
    assert [row.split()[1] for row in rows] == ["9301", "9302"] and all(" -> " in row for row in rows)
    table = [line for line in out.splitlines() if line.startswith("| fresh-25 | line |")]
    assert len(table) == 1
    summed = table[0].split("|")[3].split(" -> ")  # the distances summed, before and after
    for side, at in ((0, 5), (1, 11)):  # "fresh-25 9301 line: 16 cells 7.88 (0.27 s) -> 21 cells 7.44 (0.41 s)"
        assert float(summed[side]) == pytest.approx(sum(float(row.split()[at]) for row in rows), abs=0.011)
    assert closer_pictures.repair_module.NEARER == 0.999  # put back after the runs without it


def test_an_unknown_group_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        closer_pictures.main(["--groups", "fresh-99"])
    assert refused.value.code == 2 and "unknown groups: fresh-99" in capsys.readouterr().err
