"""The README's promises under faults, for what reaches the terminal: safe text (no escapes, no
lone surrogates), a closed standard output that keeps the verdict, and one clean line for bad
input, cut when it echoes the input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import DANCER, PUZZLES, into_closed_pipe, nonosat, one_clean_line

# --- items 10 and 11: the terminal ------------------------------------------------------------------


@pytest.mark.slow
def test_a_title_with_a_lone_surrogate_prints(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text('{"title": "a\\ud800b", "rows": [[1]], "cols": [[1]]}')
    done = nonosat("check", "s.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "a\ufffdb: 1x1" in done.stdout
    done = nonosat("convert", "s.json", "s.non", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_terminal_escapes_in_a_title_never_reach_the_terminal(tmp_path: Path) -> None:
    (tmp_path / "e.json").write_text('{"title": "\\u001b[31mRED\\u001b]0;owned\\u0007", "rows": [[1]], "cols": [[1]]}')
    for command in ("check", "solve", "rate"):
        done = nonosat(command, "e.json", cwd=tmp_path)
        assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout
    (tmp_path / "\x1b[2Jx.non").write_text(DANCER.read_text())
    done = nonosat("solve", "\x1b[2Jx.non", "--timeout", "nan", cwd=tmp_path)
    assert "\x1b" not in done.stderr
    done = nonosat("batch", ".", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert "\x1b" not in done.stdout


@pytest.mark.slow
def test_a_closed_standard_output_keeps_the_verdict(tmp_path: Path) -> None:
    """`nonosat solve cat.non | head -1`: the reader goes away, the exit code stays 0."""
    done = into_closed_pipe("solve", str(PUZZLES / "webpbn-00006-cat.non"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    head = subprocess.run(
        f"{sys.executable} -m nonosat solve {PUZZLES / 'webpbn-00006-cat.non'} | head -1; echo ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
    )
    assert head.stdout.splitlines()[-1] == "0" and head.stderr == ""


@pytest.mark.slow
def test_a_closed_standard_error_keeps_the_exit_code_and_a_stray_broken_pipe_is_one_line(tmp_path: Path) -> None:
    """A review: `convert` (a note on standard error) into a standard error whose reader had gone
    ended with exit 1, Click's answer to any broken pipe; and a pipe between processes that
    broke (multiprocessing's, for a user whose processes could not share memory) ended a batch
    with exit 1 and no word. Now the note is dropped, exit 0; the other is a bug's line, exit 70."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", "convert", str(DANCER), str(tmp_path / "d.g")],
            stdout=subprocess.DEVNULL,
            stderr=write_end,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 0 and (tmp_path / "d.g").exists()
    broken = (
        "import sys, nonosat.formats as formats\n"
        "def convert(*args, **kwargs): raise BrokenPipeError(32, 'Broken pipe')\n"
        "formats.convert = convert\n"
        f"sys.argv = ['nonosat', 'convert', {str(DANCER)!r}, {str(tmp_path / 'e.g')!r}]\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    bug = subprocess.run([sys.executable, "-c", broken], capture_output=True, text=True, timeout=60)
    assert bug.returncode == 70, bug.stderr
    one_clean_line(bug.stderr)
    assert "a pipe between nonosat's processes broke" in bug.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="closes a descriptor in the child before it starts")
@pytest.mark.parametrize(
    ("closed", "args", "code"),
    [
        (1, ["solve", "webpbn-00006-cat.non"], 0),  # the quick road, without Typer
        (1, ["check", "ring.non"], 1),
        (1, ["solve", "nowhere.non"], 2),
        (1, ["rate", "webpbn-00006-cat.non"], 0),  # through Typer
        (2, ["solve", "nowhere.non"], 2),
        (1, ["batch", "webpbn-00006-cat.non", "--out", "-"], 2),  # a review: the records went nowhere, exit 0
        (2, ["batch", "webpbn-00006-cat.non", "--out", "-"], 0),  # only the progress and summary lost
    ],
)
def test_a_standard_stream_closed_before_the_start_keeps_the_verdict(closed: int, args: list[str], code: int) -> None:
    """A review found `nonosat solve cat.non >&-` ending in two tracebacks and exit 1: Python
    starts with sys.stdout None when descriptor 1 is closed."""
    import os

    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *args],
        cwd=PUZZLES,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(closed),  # noqa: PLW1509 - no threads in the test process's child
        timeout=60,
    )
    assert done.returncode == code, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# --- item 12: messages ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_messages_that_echo_input_are_cut(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text("[" * 900)
    (tmp_path / "c.non").write_text("width 5\nheight 1\nrows\n" + "x" * 5000 + "\ncolumns\n1\n1\n1\n1\n1\n")
    for name in ("b.json", "c.non"):
        done = nonosat("solve", name, cwd=tmp_path)
        assert done.returncode == 2
        one_clean_line(done.stderr)
        assert len(done.stderr) <= 310 and name in done.stderr


@pytest.mark.parametrize(
    "given, expected",
    [
        ("4x4:a/b/c/d/e/f/g/h", "expected a clue like 2.1"),
        ("0x0:", "expected the width as a whole number of at least 1"),
        ("t.txt#-1", "expected a puzzle number of at least 1 after '#', found '-1'"),
        ("t.txt#abc", "found 'abc'"),
        ("t.txt#", "found nothing"),
        ("t.txt#0", "found '0'"),
    ],
)
def test_malformed_ids_and_selectors_say_what_is_wrong(tmp_path: Path, given: str, expected: str) -> None:
    (tmp_path / "t.txt").write_text(DANCER.read_text())
    done = nonosat("solve", given, cwd=tmp_path)
    assert done.returncode == 2
    one_clean_line(done.stderr)
    assert expected in done.stderr and "no such file" not in done.stderr


# --- what a review of the change found -------------------------------------------------------------


def test_a_file_name_with_escapes_is_shown_cleaned(tmp_path: Path) -> None:
    (tmp_path / "\x1b[2Jnotitle.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    done = nonosat("check", "\x1b[2Jnotitle.non", cwd=tmp_path)
    assert done.returncode == 0 and "\x1b" not in done.stdout and "notitle.non" in done.stdout
