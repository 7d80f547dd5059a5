"""The command line's verdicts and their exit codes: unique 0 (and whether the goal fits),
multiple 1 (an exact count, two solutions and where they differ), none 3 (plainly impossible
puzzles before any search, totals that differ with the title and the none line), unknown 4 at the
time limit, and the verdict in JSON; every bad-input case one line and exit 2, with no traceback,
and `serve` without the web extra saying how to install it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_shared import AMBIGUOUS, run, write
from core_marks import SEARCH_METHOD

from nonosat import load

ROOT = Path(__file__).resolve().parent.parent
DANCER = str(ROOT / "puzzles" / "webpbn-00001-dancer.non")
FOREVER = str(ROOT / "puzzles" / "webpbn-06574-forever.non")


def test_solve_unique_exits_0_and_draws_the_grid() -> None:
    code, stdout, _ = run("solve", DANCER, "--ascii")
    assert code == 0
    assert "unique" in stdout and "line logic" in stdout
    picture = load(DANCER).goal
    assert picture is not None
    drawn = [
        line.split(" ")[-1] for line in stdout.splitlines() if set(line.split(" ")[-1]) <= {"#", "."} and line.strip()
    ]
    assert drawn[-10:] == ["".join("#" if v else "." for v in row) for row in picture]


def test_solve_multiple_exits_1(tmp_path: Path) -> None:
    code, stdout, _ = run("solve", write(tmp_path, "two.non", AMBIGUOUS))
    assert code == 1 and "multiple" in stdout


def test_count_reports_an_exact_count(tmp_path: Path) -> None:
    code, stdout, _ = run("solve", write(tmp_path, "two.non", AMBIGUOUS), "--count", "5", "--format", "json")
    data = json.loads(stdout)
    assert code == 1 and data["status"] == "multiple" and data["count_is_exact"] is True
    assert len(data["solutions"]) == 2


def test_count_one_is_solved_and_exits_0(tmp_path: Path) -> None:
    code, stdout, _ = run("solve", write(tmp_path, "two.non", AMBIGUOUS), "--count", "1")
    assert code == 0 and "solved" in stdout


def test_no_solution_exits_3(tmp_path: Path) -> None:
    text = "width 3\nheight 3\nrows\n1,1\n0\n1\ncolumns\n2\n0\n1\n"
    code, stdout, _ = run("solve", write(tmp_path, "none.non", text))
    assert code == 3 and "none" in stdout


def test_timeout_exits_4_with_unknown() -> None:
    code, stdout, stderr = run("check", FOREVER, "--timeout", "0.000001")
    assert code == 4 and "time limit reached while" in stdout + stderr  # reading, or a stage after it


def test_check_shows_two_solutions_and_their_differences(tmp_path: Path) -> None:
    code, stdout, _ = run("check", write(tmp_path, "two.non", AMBIGUOUS))
    assert code == 1
    assert "solution 1" in stdout and "solution 2" in stdout
    assert "4 cells differ" in stdout and "(row 1, column 1)" in stdout


def test_check_says_whether_the_goal_fits() -> None:
    code, stdout, _ = run("check", DANCER)
    assert code == 0 and "goal: satisfies the clues" in stdout


def test_check_json_has_the_verdict() -> None:
    code, stdout, _ = run("check", FOREVER, "--format", "json")
    data = json.loads(stdout)
    assert code == 0 and data["status"] == "unique"
    assert data["method"] == SEARCH_METHOD  # the depth-first search gives up
    assert data["goal_satisfies_clues"] is True and data["goal_breaks"] == []


BAD_INPUTS: dict[str, str | bytes] = {
    "empty.non": "",
    "truncated.non": "width 3\nheight 3\nrows\n1\n1\n",
    "letters.non": "width 2\nheight 2\nrows\n1\nx\ncolumns\n1\n1\n",
    "negative.non": "width 2\nheight 2\nrows\n1\n-1\ncolumns\n1\n1\n",
    "garbage.non": bytes(range(256)) * 4,
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
@pytest.mark.parametrize("command", ["solve", "check"])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, name: str, command: str) -> None:
    path = write(tmp_path, name, BAD_INPUTS[name])
    code, stdout, stderr = run(command, path)
    assert code == 2
    assert stderr.count("\n") == 1 and path in stderr and "Traceback" not in stderr + stdout


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, stderr = run("solve", str(tmp_path / "nope.non"))
    assert code == 2 and "nope.non" in stderr


@pytest.mark.parametrize(
    "text, where",
    [
        ("width 2\nheight 2\nrows\n3\n0\ncolumns\n1\n1\n", "row 1"),  # a clue too long
        ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n0\n", "totals|fill"),  # totals differ
    ],
)
def test_plainly_impossible_puzzles_exit_3_before_search(tmp_path: Path, text: str, where: str) -> None:
    code, _, stderr = run("solve", write(tmp_path, "impossible.non", text))
    assert code == 3 and stderr.count("\n") == 1
    import re

    assert re.search(where, stderr)


def test_unknown_solver_is_a_usage_error() -> None:
    code, _, stderr = run("solve", DANCER, "--solver", "nosuch")
    assert code == 2 and "nosuch" in stderr


def test_python_m_nonosat_runs_without_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.non", "width 2\nheight 2\nrows\nq\n")
    done = subprocess.run([sys.executable, "-m", "nonosat", "solve", bad], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "bad.non" in done.stderr and "line 4" in done.stderr
    done = subprocess.run([sys.executable, "-m", "nonosat", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "Exit codes" in done.stdout


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if nonosat[web] were not installed
    code, stdout, stderr = run("serve", "--port", "0")
    assert code == 2 and stdout == ""
    assert stderr == "nonosat: serve needs Starlette and uvicorn: pip install 'nonosat[web]'\n"


@pytest.mark.parametrize("command", ["check", "solve"])
def test_totals_that_differ_still_give_the_title_and_the_none_line(tmp_path: Path, command: str) -> None:
    path = write(tmp_path, "totals.non", 'title "Totals"\nwidth 2\nheight 2\nrows\n1\n1\ncolumns\n2\n1\n')
    done = subprocess.run([sys.executable, "-m", "nonosat", command, path], capture_output=True, text=True)
    assert done.returncode == 3
    assert done.stderr == f"nonosat: {path}: no solution: the row clues fill 2 cells but the column clues fill 3\n"
    lines = done.stdout.splitlines()
    if command == "check":
        assert lines[0] == "Totals: 2x2"
    assert any(line.startswith("none (no solution) · checks · ") for line in lines)
    record = json.loads(
        subprocess.run(
            [sys.executable, "-m", "nonosat", command, path, "--format", "json"], capture_output=True, text=True
        ).stdout
    )
    assert (record["status"], record["method"]) == ("none", "checks") and record["problems"]
    # every key a solve or check's record has (a review: only seven, and a script's
    # record["solutions"] failed on these alone)
    line_refuted = str(ROOT / "puzzles" / "broken-cross.non")
    other = json.loads(
        subprocess.run(
            [sys.executable, "-m", "nonosat", command, line_refuted, "--format", "json"], capture_output=True, text=True
        ).stdout
    )
    assert other["method"] == "line" and set(other) <= set(record) and record["solutions"] == []
    assert record.get("level", "none") == "none" and record["count_is_exact"] is True
