"""The README's promises under faults, for usage errors: one line with exit 2, as bad input is,
naming what was expected (a dash for the file says standard input is not read), and a command
alone shows its help."""

from __future__ import annotations

import pytest
from cli_process import nonosat, one_clean_line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("solve", "--timeout", "abc", "x.non"), "Invalid value for --timeout: expected a positive number of seconds"),
        (("solve", "--bogus", "x.non"), "No such option: --bogus"),
        (("solv", "x.non"), "No such command 'solv'. Did you mean 'solve'?"),
        (("check",), "Missing argument 'file'"),
        (("rate", "a.non", "b.non"), "Got unexpected extra argument"),
        (("check", "x.non", "--engine", "fast"), "Invalid value for '--engine': 'fast' is not one of"),
        (
            ("solve", "x.non", "--solver", "kissat"),  # left out, and why (a review: "unknown or unsupported")
            "Invalid value for --solver: solver 'kissat' is left out: it cannot add clauses after a solve",
        ),
        (("solve", "x.non", "--solver", "lgl"), "Invalid value for --solver: solver 'lgl' is left out"),
        (("solve", "x.non", "--solver", "foo"), "Invalid value for --solver: unknown or unsupported solver 'foo'"),
    ],
)
def test_a_usage_error_is_one_line_with_exit_2(args: tuple[str, ...], said: str) -> None:
    """Click said a usage error in four lines (usage, hint, a blank line, the error); the README
    promises one line for bad input, naming what was expected."""
    done = nonosat(*args)
    assert done.returncode == 2 and done.stdout == ""
    one_clean_line(done.stderr)
    assert said in done.stderr and "--help')" in done.stderr


def test_a_dash_for_the_file_says_standard_input_is_not_read() -> None:
    """A new user's review: `nonosat solve -` said only "-: no such file"."""
    done = nonosat("solve", "-")
    assert done.returncode == 2 and done.stdout == ""
    one_clean_line(done.stderr)
    assert (
        done.stderr == "nonosat: -: no such file (standard input is not read: save the puzzle to a file and name it)\n"
    )


def test_the_command_alone_shows_its_help() -> None:
    done = nonosat()
    assert done.returncode == 2 and "Usage:" in done.stdout + done.stderr and "solve" in done.stdout + done.stderr
