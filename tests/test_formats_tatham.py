"""Tatham's game IDs: read on the command line as a puzzle, told strictly from file names, and
a bad one is one line and exit 2."""

from __future__ import annotations

import pytest
from core_marks import SEARCH_SAID
from formats_shared import DANCER, DANCER_ID, clues_of, run

from nonosat.formats import load, load_all
from nonosat.formats.tatham import is_game_id

BELLA = "4x4:2/1/2/1/1.1/2/1/1"
"""Tatham's example of a unique puzzle that line-by-line logic cannot start on."""


def test_game_id_on_the_command_line() -> None:
    code, stdout, _ = run("solve", DANCER_ID, "--ascii")
    assert code == 0 and "unique" in stdout
    code, stdout, _ = run("check", BELLA)
    assert code == 0 and f"unique · {SEARCH_SAID}" in stdout
    assert clues_of(load(DANCER_ID)) == clues_of(load(DANCER))
    assert load_all(BELLA) == [load(BELLA)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (DANCER_ID, True),
        (BELLA, True),
        ("3x3:1.1/1/1/1//3", True),
        ("1x1:1/1", True),
        ("5x5", False),
        ("5x5#12345", False),
        ("5:1/1/1/1/1/1/1/1/1/1", False),
        ("5x5:2/a/3", False),
        ("dancer.non", False),
        ("puzzles/x:1/2", False),
    ],
)
def test_game_id_detection_is_strict(text: str, expected: bool) -> None:
    assert is_game_id(text) is expected


def test_bad_game_id_is_one_line_exit_2() -> None:
    code, _, stderr = run("solve", "5x5:2/1.1/3")
    assert code == 2
    assert stderr == "nonosat: 5x5:2/1.1/3: expected 5 + 5 = 10 clues separated by '/', found 3\n"
    code, _, stderr = run("solve", "5x5:2")  # not a game ID, nor a file: told what is wrong with it
    assert code == 2 and stderr == "nonosat: 5x5:2: expected 5 + 5 = 10 clues separated by '/', found 1\n"
    code, _, stderr = run("solve", "4x4:a/b/c/d/e/f/g/h")
    assert code == 2 and "expected a clue like 2.1" in stderr and "found 'a'" in stderr
    code, _, stderr = run("solve", "0x0:")
    assert code == 2 and "expected the width as a whole number of at least 1, found '0'" in stderr
