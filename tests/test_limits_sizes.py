"""Sizes beyond the documented limits are refused at once: generated sizes, counts and jobs, puzzles
and files over the limit (naming the file, a size at its own line, a game ID for its size), and
devices are not read as puzzles; and what --timeout accepts, on the command line and in the
library: a positive number, an infinite one meaning none."""

from __future__ import annotations

from pathlib import Path

import pytest
from limits_shared import nonosat

from nonosat import Puzzle, load, solve
from nonosat.deadline import Deadline, seconds_or_none
from nonosat.errors import InvalidPuzzle, TimeUp, UsageError
from nonosat.limits import MAX_CELLS, MAX_COUNT, MAX_JOBS, MAX_SIDE
from nonosat.solver import Status

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("given", ["nan", "0", "-1", "-inf", "abc"])
def test_a_timeout_that_is_not_a_positive_number_is_refused(given: str) -> None:
    done = nonosat("solve", str(ROOT / "puzzles" / "ring.non"), "--timeout", given, limit=10)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "--timeout" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("given", ["inf", "1e10", "1e300"])
def test_an_infinite_timeout_is_none(given: str) -> None:
    done = nonosat("check", str(ROOT / "puzzles" / "webpbn-06574-forever.non"), "--timeout", given, limit=30)
    assert done.returncode == 0 and "Traceback" not in done.stderr and done.stderr == ""


def test_the_library_checks_its_time_limits() -> None:
    assert seconds_or_none(float("inf")) is None and seconds_or_none(None) is None
    assert seconds_or_none(1e10) is None and seconds_or_none(3600) == 3600.0
    assert solve(load(ROOT / "puzzles" / "webpbn-06574-forever.non"), timeout=1e10).status is Status.UNIQUE
    assert seconds_or_none(0) == 0.0
    for bad in (float("nan"), -1.0):
        with pytest.raises(UsageError):
            seconds_or_none(bad)
    with pytest.raises(TimeUp, match="time limit reached while testing"):
        Deadline.after(0).check("testing")
    assert Deadline.after(None).remaining() is None


@pytest.mark.parametrize(
    "args",
    [
        ["generate", str(ROOT / "puzzles" / "knot-picture.png"), "--width", "100000"],
        ["generate", str(ROOT / "puzzles" / "knot-picture.png"), "--height", "257"],
        ["random", "--width", "100000", "--height", "100000"],
        ["random", "--width", "300", "--height", "10"],
    ],
)
def test_generated_sizes_over_the_limit_are_refused_at_once(args: list[str], tmp_path: Path) -> None:
    done = nonosat(*args, limit=5, cwd=tmp_path)
    assert done.returncode == 2 and "over the limit of 256 cells a side" in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--count", str(2**31)],
        ["solve", "--count", "99999999999999999999"],
        ["solve", "--jobs", "99999999999999999999"],
        ["batch", "--out", "-", "--jobs", "99999999999999999999"],
        ["batch", "--out", "-", "--count", str(MAX_COUNT + 1)],
    ],
)
def test_a_count_or_jobs_over_the_limit_is_refused_at_once(args: list[str]) -> None:
    """A review found `--count 2147483648` an internal error (the compiled search counts in a C
    int) and `batch --jobs` past 2**63 one too (exit 70)."""
    command, *options = args
    done = nonosat(command, str(ROOT / "puzzles" / "ring.non"), *options, limit=5)
    assert done.returncode == 2 and "is not in the range 1<=x<=" in done.stderr, done.stderr
    one = Puzzle(rows=((1,),), columns=((1,),))
    with pytest.raises(UsageError, match=f"count must be at most {MAX_COUNT:,}"):
        solve(one, count=2**31)
    with pytest.raises(UsageError, match=f"jobs must be at most {MAX_JOBS:,}"):
        solve(one, jobs=MAX_JOBS + 1)


def test_puzzles_over_the_limit_are_refused_naming_the_file(tmp_path: Path) -> None:
    wide = tmp_path / "wide.non"
    wide.write_text(f"width {MAX_SIDE + 1}\nheight 1\nrows\n1\ncolumns\n" + "0\n" * MAX_SIDE + "1\n")
    done = nonosat("solve", str(wide), limit=10)
    assert done.returncode == 2 and str(wide) in done.stderr and f"limit of {MAX_SIDE} cells a side" in done.stderr
    big = tmp_path / "big.pbm"
    big.write_bytes(b"P4\n100000 100000\n" + b"\0" * 64)
    done = nonosat("solve", str(big), limit=10)
    assert done.returncode == 2 and str(big) in done.stderr and "over the limit" in done.stderr
    with pytest.raises(InvalidPuzzle, match="cells, over the limit"):
        Puzzle(rows=((),) * 600, columns=((),) * 600)
    assert 600 * 600 > MAX_CELLS


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_devices_are_not_read_as_puzzles() -> None:
    done = nonosat("solve", "/dev/zero", limit=5)
    assert done.returncode == 2 and "not a regular file" in done.stderr


def test_files_over_the_limit_are_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge.non"
    with open(huge, "wb") as handle:
        handle.truncate(33 * 1024 * 1024)  # sparse: no disk used
    done = nonosat("check", str(huge), limit=5)
    assert done.returncode == 2 and "over the limit of" in done.stderr and str(huge) in done.stderr


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("big.non", "width 99999999999999999999\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 1),
        ("wide.nin", f"{MAX_SIDE + 1} 1\n", 1),
    ],
)
def test_a_size_over_the_limit_is_refused_at_its_own_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    """A .non width over the limit was read as a count of clues to find ("expected 99999999999999999999
    column clues, the file ends after 2"), a game ID's as a count of clues too."""
    from nonosat.errors import ParseError

    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ParseError, match=f"over the limit of {MAX_SIDE} cells a side") as refused:
        load(path)
    assert refused.value.line == line and name in str(refused.value)


def test_a_game_id_over_the_limit_is_refused_for_its_size() -> None:
    from nonosat.errors import ParseError

    game_id = f"{MAX_SIDE + 1}x1:" + "/".join(["1"] * (MAX_SIDE + 2))
    with pytest.raises(ParseError, match=f"a width of {MAX_SIDE + 1} is over the limit of {MAX_SIDE} cells a side"):
        load(game_id)
