"""Output whose encoding is not UTF-8 (a Windows console's cp1252, a redirect under
PYTHONIOENCODING=ascii) gets what it can encode: grids in `#` and `.`, the status line's `·` as
`-` where it cannot be written, never a UnicodeEncodeError."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat import load
from nonosat.render.terminal import FALLBACK, draws_blocks, fall_back

ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"


def nonosat(*args: str, encoding: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    return subprocess.run([sys.executable, "-m", "nonosat", *args], capture_output=True, env=env, timeout=60)


def ascii_rows(goal: tuple[tuple[int, ...], ...]) -> list[str]:
    return ["".join("#" if cell else "." for cell in row) for row in goal]


@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "latin-1"])
@pytest.mark.parametrize("extra", [[], ["--ascii"]])
def test_solve_writes_what_the_output_can_encode(encoding: str, extra: list[str]) -> None:
    done = nonosat("solve", str(DANCER), *extra, encoding=encoding)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr and not done.stderr
    text = done.stdout.decode(encoding)
    goal = load(DANCER).goal
    assert goal is not None
    drawn = [line.split(" ")[-1] for line in text.splitlines()[-11:-1]]
    assert drawn == ascii_rows(goal)
    separator = "-" if encoding == "ascii" else "\u00b7"
    assert text.splitlines()[-1].startswith(f"unique {separator} line logic {separator} ")


@pytest.mark.parametrize("command", [["check", "puzzles/ring.non"], ["check", "puzzles/broken-cross.non"]])
def test_check_and_its_messages_survive_an_ascii_output(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *command],
        capture_output=True,
        env=dict(os.environ, PYTHONIOENCODING="ascii"),
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode in (1, 3), done.stderr
    assert b"Traceback" not in done.stderr
    assert done.stdout.isascii() and b" - " in done.stdout


def test_a_stream_falls_back_to_the_nearest_ascii() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    fall_back(stream)
    stream.write("unique \u00b7 search \u2026 \u2588\u2580 \u263a\n")
    stream.flush()
    assert raw.getvalue() == b"unique - search ... ## ?\n"
    assert all(replacement.isascii() for replacement in FALLBACK.values())


def test_blocks_are_drawn_only_where_they_can_be_written() -> None:
    assert draws_blocks(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert not draws_blocks(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"))
    assert not draws_blocks(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))


def test_a_colour_grid_in_a_pipe_is_drawn_in_its_characters() -> None:
    """`nonosat check ring-colour.non | cat` drew both solutions as `XXXX██` (the colours are
    styles, which a pipe drops): the two could not be told apart. The README: where the output
    is not a terminal, each colour is its character."""
    ring = ROOT / "puzzles" / "ring-colour.non"
    done = nonosat("check", str(ring), "--no-rating", encoding="utf-8")
    text = done.stdout.decode()
    assert done.returncode == 1 and "█" not in text
    assert ".rb           r.b" in text and "r.b           .rb" in text
    solved = nonosat("solve", str(DANCER), encoding="utf-8").stdout.decode()
    assert "█" in solved or "▀" in solved  # black and white keeps its blocks: they read without colour


def test_json_for_a_pipe_is_written_as_rich_writes_it(capsys: pytest.CaptureFixture[str]) -> None:
    """`--format json` to a pipe no longer goes through Rich (16 s for the JSON of 40,000
    solutions): what it writes is what Rich wrote, character for character."""
    import io
    import json

    from rich.console import Console

    from nonosat.cli.show import write_json

    record: dict[str, object] = {
        "path": "vägen/ring.non",
        "solutions": [["#.", ".#"]] * 3,
        "stats": {},
        "cut_short": None,
        "n": 1.5,
    }
    rich = io.StringIO()
    Console(file=rich, width=10_000, highlight=False).print_json(json.dumps(record))
    write_json(record)
    assert capsys.readouterr().out == rich.getvalue()


ACCENTED = (
    '{"rows": [[[1, "r"], [1, "q"]], [[1, "q"]]], "cols": [[[1, "r"]], [[2, "q"]]], "palette": ['
    '{"name": "white", "rgb": "#ffffff", "char": "."}, {"name": "r", "rgb": "#ff0000", "char": "\u00e9"},'
    ' {"name": "q", "rgb": "#0000ff", "char": "?"}]}'
)


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "utf-8"])
def test_two_colours_never_look_alike_in_an_output_that_cannot_write_one(encoding: str, tmp_path: Path) -> None:
    """A review found a colour whose character is `é` written as `?` under an ASCII output, like
    the colour whose character is `?`: the grid, the clues and the JSON's solution could not
    tell them apart. JSON to an output not in UTF now escapes what is not ASCII (\\u00e9, read
    back the same), and text draws such a colour as a spare ASCII character no other colour
    has; where it can be written, it is."""
    import json

    (tmp_path / "accented.json").write_text(ACCENTED, encoding="utf-8")
    text = nonosat("solve", str(tmp_path / "accented.json"), "--ascii", encoding=encoding)
    assert text.returncode == 0, text.stderr
    drawn = text.stdout.decode(encoding).splitlines()
    cell = "\u00e9" if encoding != "ascii" else "a"
    assert drawn[:3] == [f"       1{cell} 2?", f"1{cell} 1? {cell}  ?  ", "   1? .  ?  "], drawn
    steps = nonosat("explain", str(tmp_path / "accented.json"), encoding=encoding).stdout.decode(encoding)
    assert steps.splitlines()[0] == f"1. row 1, clue 1r 1q: __ -> {cell}? (column 1 r; column 2 q)", steps
    record = nonosat("solve", str(tmp_path / "accented.json"), "--format", "json", encoding=encoding)
    written = record.stdout.decode(encoding)
    assert json.loads(written)["solutions"] == [["\u00e9?", ".?"]] and ("\\u00e9" in written) == (encoding != "utf-8")
