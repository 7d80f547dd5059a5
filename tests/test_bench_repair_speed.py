"""`python -m bench.repair_speed`: each case made in a fresh process of each checkout, the
puzzles compared (a speed change must not change them), the times side by side."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import repair_speed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_same_checkout_makes_the_same_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert repair_speed.main(["--cases", "colour-40", "--against", str(ROOT)]) == 0
    row = capsys.readouterr().out.splitlines()[-1].split()
    assert row[0] == "colour-40" and row[4] == "yes" and int(row[5]) > 0
    assert float(row[1]) > 0 and float(row[2]) > 0


def test_an_unknown_case_is_refused() -> None:
    with pytest.raises(SystemExit):
        repair_speed.main(["--cases", "smiley-70,nonesuch"])


def test_a_case_that_fails_stops_the_run_with_its_message() -> None:
    with pytest.raises(SystemExit, match="(?s)failed: .*UsageError"):
        repair_speed.run_case(ROOT, "random_puzzle(0, 0)")
