"""The README's promises under faults: exit codes that outputs cannot change, one clean line for
bad input, safe text on the terminal, and batch runs that a bad file, a bad path or a killed
write never spoil."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from nonosat.formats.atomic import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"
FOREVER = PUZZLES / "webpbn-06574-forever.non"


def nonosat(
    *args: str, cwd: Path | None = None, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nonosat", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120
    )


def one_clean_line(stderr: str) -> None:
    assert len(stderr.splitlines()) == 1, stderr
    assert "Traceback" not in stderr and stderr.startswith("nonosat: ")


# --- item 7: an output option never changes the verdict's exit code ----------------------------


def test_no_solution_with_output_still_exits_3(tmp_path: Path) -> None:
    done = nonosat("solve", str(PUZZLES / "broken-cross.non"), "-o", "x.non", "--render", "x.svg", cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "none (no solution)" in done.stdout and "cannot all hold together" in done.stdout
    assert "nothing written to x.non" in done.stderr and "nothing drawn in x.svg" in done.stderr
    assert not (tmp_path / "x.non").exists() and not (tmp_path / "x.svg").exists()


@pytest.mark.slow
def test_unknown_with_output_still_exits_4(corpus: Path, tmp_path: Path) -> None:
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    done = nonosat("solve", faase, "--timeout", "1", "-o", "y.non", cwd=tmp_path)
    assert done.returncode == 4 and "unknown" in done.stdout
    assert not (tmp_path / "y.non").exists()


@pytest.mark.slow
def test_generate_out_of_time_exits_4_not_5(tmp_path: Path) -> None:
    # 100x100: past the compiled core's 64 cells a side, which can finish a 60x60 in 0.5 s
    done = nonosat("random", "--width", "100", "--height", "100", "--timeout", "0.3", cwd=tmp_path)
    assert done.returncode == 4
    one_clean_line(done.stderr)


# --- item 8: results files that are not files ----------------------------------------------------


def test_results_in_a_missing_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = nonosat("batch", str(DANCER), "--out", str(tmp_path / "missing" / "r.jsonl"))
    assert done.returncode == 2
    one_clean_line(done.stderr)
    assert "does not exist" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_results_in_a_device_are_refused_before_reading_it() -> None:
    done = nonosat("batch", str(DANCER), "--out", "/dev/full")
    assert done.returncode == 2 and "not a regular file" in done.stderr
    one_clean_line(done.stderr)


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
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", "solve", str(PUZZLES / "webpbn-00006-cat.non")],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
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


# --- item 13: one rule for exit codes; no guess as a move ----------------------------------------------


@pytest.mark.slow
def test_rate_exits_as_check_does() -> None:
    for name, code in (("ring.non", 1), ("webpbn-00001-dancer.non", 0), ("broken-cross.non", 3)):
        assert (
            nonosat("rate", str(PUZZLES / name)).returncode == code == nonosat("check", str(PUZZLES / name)).returncode
        ), name


def test_hint_on_an_ambiguous_puzzle_gives_no_guess(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("????\n" * 4)
    done = nonosat("hint", str(PUZZLES / "ring.non"), "--state", "empty.txt", cwd=tmp_path)
    assert done.returncode == 1
    assert "several solutions" in done.stdout and "is filled" not in done.stdout and "is empty" not in done.stdout


@pytest.mark.slow
def test_hint_names_a_cell_only_when_every_solution_agrees(tmp_path: Path) -> None:
    """Forever is unique but needs search: from the grid where logic and probing stall, the hint
    is a cell from search, which every solution (the one) agrees on."""
    from nonosat import load
    from nonosat.explain.steps import line_text, trace

    puzzle = load(FOREVER)
    stalled = trace(puzzle).board
    assert not stalled.is_complete()
    (tmp_path / "s.txt").write_text("\n".join(line_text(stalled, True, r) for r in range(puzzle.height)) + "\n")
    done = nonosat("hint", str(FOREVER), "--state", "s.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "in every solution" in done.stdout
    assert puzzle.goal is not None
    words = done.stdout.split("(row ")[1].split(")")[0].replace(",", "").split()
    row, column = int(words[0]) - 1, int(words[2]) - 1
    assert ("is filled" in done.stdout) == bool(puzzle.goal[row][column])


# --- items 15-17: batch ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_one_bad_file_never_stops_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "zz.json").write_text('{"rows": ' + "[" * 100_000)  # a puzzle's sign, then 100,000 brackets
    (folder / "a.non").write_text(DANCER.read_text())
    (folder / "b.non").write_text((PUZZLES / "ring.non").read_text())
    done = nonosat("batch", str(folder), "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    records = {Path(r["path"]).name: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["a.non"]["status"] == "unique" and records["b.non"]["status"] == "multiple"
    assert records["zz.json"]["status"] == "error" and "zz.json" in records["zz.json"]["error"]


@pytest.mark.slow
def test_a_path_that_names_nothing_is_refused(tmp_path: Path) -> None:
    for path in ("/nonexistent", str(tmp_path / "*.nothing")):
        done = nonosat("batch", path, "--out", "r.jsonl", cwd=tmp_path)
        assert done.returncode == 2 and path in done.stderr
        one_clean_line(done.stderr)
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.slow
def test_results_to_standard_output(tmp_path: Path) -> None:
    done = nonosat("batch", str(PUZZLES / "ring.non"), str(DANCER), "--out", "-", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "unique"]
    assert not (tmp_path / "-").exists()
    assert "2 puzzles in standard output" in done.stderr


@pytest.mark.slow
def test_retry_unknown_redoes_only_those_and_keeps_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "forever.non").write_text(FOREVER.read_text())
    (folder / "one.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")  # two line passes
    done = nonosat("batch", "set", "--out", "r.jsonl", "--jobs", "1", "--timeout", "0.000001", cwd=tmp_path)
    first = {r["path"]: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert first["set/forever.non"]["status"] == "unknown", first
    kept = first["set/one.non"]
    assert kept["status"] == "unique"
    done = nonosat("batch", "set", "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert "nothing to do" in done.stderr  # resuming skips unknown records
    done = nonosat("batch", "./set", "--out", "r.jsonl", "--jobs", "1", "--retry", "unknown", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    after = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(after) == 2  # ./set/one.non is set/one.non: not solved again
    by_path = {r["path"]: r for r in after}
    assert by_path["set/forever.non"]["status"] == "unique"
    assert by_path["set/one.non"] == kept


def test_a_bad_retry_status_is_refused(tmp_path: Path) -> None:
    done = nonosat("batch", str(DANCER), "--out", "r.jsonl", "--retry", "maybe", cwd=tmp_path)
    assert done.returncode == 2 and "maybe" in done.stderr


# --- item 18: no temporary files left behind -----------------------------------------------------------


def test_stale_temporary_files_are_removed_on_the_next_write(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".c.svg.{dead.pid}.967d2853.tmp"
    stale.write_text("half a picture")
    old = tmp_path / ".c.svg.967d2853.tmp"  # named before temporary files carried a process id
    old.write_text("half a picture")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    busy = tmp_path / f".c.svg.{os.getpid()}.0badf00d.tmp"  # a writer still at work
    busy.write_text("being written")
    other = tmp_path / f".d.svg.{dead.pid}.967d2853.tmp"  # another target's
    other.write_text("not ours to touch")
    write_text_atomic(tmp_path / "c.svg", "<svg/>")
    assert (tmp_path / "c.svg").read_text() == "<svg/>"
    assert not stale.exists() and not old.exists()
    assert busy.exists() and other.exists()


# --- item 19: goals that do not match ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_goal_that_breaks_the_clues_is_exit_6_and_a_batch_failure(tmp_path: Path) -> None:
    text = DANCER.read_text()
    goal_start = text.index('goal "') + len('goal "')
    flipped = "1" if text[goal_start] == "0" else "0"
    (tmp_path / "bad.non").write_text(text[:goal_start] + flipped + text[goal_start + 1 :])
    done = nonosat("check", "bad.non", cwd=tmp_path)
    assert done.returncode == 6
    assert "unique" in done.stdout and "goal: does NOT satisfy the clues of" in done.stdout
    done = nonosat("check", "bad.non", "--format", "json", cwd=tmp_path)
    assert done.returncode == 6 and json.loads(done.stdout)["goal_satisfies_clues"] is False
    done = nonosat("batch", "bad.non", str(DANCER), "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0  # nothing asked to fail
    records = {Path(r["path"]).name: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["bad.non"]["goal_ok"] is False and records[DANCER.name]["goal_ok"] is True
    assert "goals that break their clues: bad.non" in done.stdout
    done = nonosat("batch", "bad.non", "--out", "r.jsonl", "--fail-on", "goal", cwd=tmp_path)
    assert done.returncode == 1 and "goal" in done.stderr
    done = nonosat("batch", str(DANCER), "--out", "r2.jsonl", "--require", "unique", cwd=tmp_path)
    assert done.returncode == 0


# --- what a review of the change found -------------------------------------------------------------


def limited(resource_name: str, value: int) -> Callable[[], None]:
    import resource

    def set_limit() -> None:
        which = getattr(resource, resource_name)
        resource.setrlimit(which, (value, value))

    return set_limit


@pytest.mark.slow
def test_a_fork_server_that_cannot_start_leaves_the_search_alone(tmp_path: Path) -> None:
    """With too few file descriptors to start the fork server, the race is skipped: a unique
    puzzle is still unique, exit 0."""
    command = f"ulimit -n 10; exec {sys.executable} -m nonosat check {FOREVER} --jobs 2"
    done = subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_results_file_that_cannot_grow_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "batch", str(PUZZLES), "--out", "r.jsonl", "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        preexec_fn=limited("RLIMIT_FSIZE", 600),
        timeout=120,
    )  # noqa: PLW1509
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "nonosat: cannot write r.jsonl" in done.stderr


def test_a_results_file_of_something_else_is_never_cut(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text('{"rows": [[1]], "cols": [[1]], "title": "my only copy"}')  # no newline at the end
    done = nonosat("batch", str(DANCER), "--out", str(mine))
    assert done.returncode == 2 and "not a nonosat batch record" in done.stderr
    assert mine.read_text() == '{"rows": [[1]], "cols": [[1]], "title": "my only copy"}'


def test_hint_on_a_puzzle_with_no_solution_says_so(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("???\n???\n???\n")
    done = nonosat("hint", str(PUZZLES / "broken-cross.non"), "--state", "s.txt", cwd=tmp_path)
    assert done.returncode == 3 and "no solution" in done.stdout


@pytest.mark.slow
def test_batch_keeps_game_ids_as_they_are(tmp_path: Path) -> None:
    game_id = "3x3:1.1//1.1/1.1//1.1"  # `//`: an empty clue
    done = nonosat("batch", game_id, "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "r.jsonl").read_text())
    assert record["path"] == game_id and record["status"] == "unique"


def test_a_file_name_with_escapes_is_shown_cleaned(tmp_path: Path) -> None:
    (tmp_path / "\x1b[2Jnotitle.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    done = nonosat("check", "\x1b[2Jnotitle.non", cwd=tmp_path)
    assert done.returncode == 0 and "\x1b" not in done.stdout and "notitle.non" in done.stdout


def test_nothing_written_for_a_puzzle_refuted_before_search(tmp_path: Path) -> None:
    (tmp_path / "long.non").write_text("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    done = nonosat("solve", "long.non", "-o", "x.non", cwd=tmp_path)
    assert done.returncode == 3 and "nothing written to x.non" in done.stderr
    assert not (tmp_path / "x.non").exists()


@pytest.mark.slow
def test_results_to_a_closed_standard_output_stop_the_run(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", "batch", str(PUZZLES), "--out", "-", "--jobs", "1"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 2 and "standard output was closed" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_empty_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = nonosat("batch", "empty", "--out", "r.jsonl", "--require", "unique", cwd=tmp_path)
    assert done.returncode == 2 and "no puzzle files" in done.stderr


# --- a bug of ours: one line and exit 70, never a traceback and 1 (which means "multiple") ----


@pytest.mark.parametrize("command", [["solve", str(DANCER)], ["solve", str(DANCER), "--ascii"]])
def test_an_internal_error_is_one_line_and_exit_70(command: list[str]) -> None:
    code = (
        "import sys, nonosat.reports as answers\n"
        "def broken(*args, **kwargs): raise TypeError('a bug')\n"
        "answers.solve_report = broken\n"
        f"sys.argv = ['nonosat', *{command!r}]\n"
        "from nonosat.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 70
    one_clean_line(done.stderr)
    assert "internal error (TypeError: a bug)" in done.stderr
    shown = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, NONOSAT_DEBUG="1"),
    )
    assert shown.returncode == 70 and "Traceback" in shown.stderr
