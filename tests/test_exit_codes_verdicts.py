"""The README's promises under faults, for the verdict's exit code: an output option never changes
it, one rule for every command (time running out before the puzzle is read, a puzzle refuted
before search, rate as check), no guess as a move from hint, and goals that do not match their
clues exit 6."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import DANCER, FOREVER, PUZZLES, nonosat, one_clean_line


@pytest.mark.parametrize("command", ["solve", "check", "rate", "explain"])
def test_json_says_unknown_when_the_time_runs_out_before_the_puzzle_is_read(command: str) -> None:
    """`--format json` wrote nothing on standard output when the time ran out while reading the
    file (a line on standard error, exit 4): a script reading the JSON had nothing to read. It
    writes the record the web API answers then."""
    done = nonosat(command, str(DANCER), "--timeout", "0.001", "--format", "json")
    assert done.returncode == 4
    record = json.loads(done.stdout)
    assert record == {
        "path": str(DANCER),
        "status": "unknown",
        "cut_short": f"time limit reached while reading {DANCER}",
    }
    one_clean_line(done.stderr)


@pytest.mark.parametrize("command", ["solve", "check"])
def test_text_says_unknown_when_the_time_runs_out_before_the_puzzle_is_read(command: str) -> None:
    """A new user's review: in text, only the line on standard error, where the README promises
    the status line saying which part was cut short (JSON had its record)."""
    done = nonosat(command, str(DANCER), "--timeout", "0.001")
    assert done.returncode == 4
    assert done.stdout == f"unknown (time limit reached while reading {DANCER})\n"
    one_clean_line(done.stderr)


def test_no_solution_with_output_still_exits_3(tmp_path: Path) -> None:
    done = nonosat("solve", str(PUZZLES / "broken-cross.non"), "-o", "x.non", "--render", "x.svg", cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "none (no solution)" in done.stdout and "cannot all hold together" in done.stdout
    assert "nothing written to x.non" in done.stderr and "nothing drawn in x.svg" in done.stderr
    assert not (tmp_path / "x.non").exists() and not (tmp_path / "x.svg").exists()


def test_one_of_several_solutions_written_is_said_to_be_one(tmp_path: Path) -> None:
    """A new user's review: `solve ring.non -o r.non` wrote one of its solutions as the file's
    goal, exit 1, without a word (`render --solution` says so). A unique one is said to be the
    only one (a later review: encode, convert and generate say what they wrote; solve said nothing)."""
    done = nonosat("solve", str(PUZZLES / "ring.non"), "-o", "r.non", "--render", "r.svg", cwd=tmp_path)
    assert done.returncode == 1 and (tmp_path / "r.non").exists() and (tmp_path / "r.svg").exists()
    assert "wrote r.non: the first solution found, of at least 2" in done.stderr
    assert "drew r.svg: the first solution found, of at least 2" in done.stderr
    unique = nonosat("solve", str(DANCER), "-o", "d.non", cwd=tmp_path)
    assert unique.returncode == 0 and (tmp_path / "d.non").exists()
    assert unique.stderr == "wrote d.non: the solution, the only one\n"


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


def test_hint_names_a_state_folder_as_a_state_file(tmp_path: Path) -> None:
    """A review: `hint --state FOLDER` said "this is a folder, not a puzzle file"."""
    (tmp_path / "so-far").mkdir()
    done = nonosat("hint", str(PUZZLES / "ring.non"), "--state", "so-far", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "nonosat: so-far: this is a folder, not a state file\n"


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


@pytest.mark.slow
def test_a_goal_that_breaks_the_clues_is_exit_6_and_a_batch_failure(tmp_path: Path) -> None:
    text = DANCER.read_text()
    goal_start = text.index('goal "') + len('goal "')
    flipped = "1" if text[goal_start] == "0" else "0"
    (tmp_path / "bad.non").write_text(text[:goal_start] + flipped + text[goal_start + 1 :])
    done = nonosat("check", "bad.non", cwd=tmp_path)
    assert done.returncode == 6
    assert "unique" in done.stdout and "goal: does NOT satisfy the clues of" in done.stdout
    broken = done.stdout.split("goal: does NOT satisfy the clues of ")[1].split("\n")[0].split(", ")
    done = nonosat("check", "bad.non", "--format", "json", cwd=tmp_path)
    record = json.loads(done.stdout)
    assert done.returncode == 6 and record["goal_satisfies_clues"] is False
    assert record["goal_breaks"] == broken and len(broken) == 2  # a row and a column (a review: the JSON named none)
    done = nonosat("batch", "bad.non", str(DANCER), "--out", "r.jsonl", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0  # nothing asked to fail
    records = {Path(r["path"]).name: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["bad.non"]["goal_ok"] is False and records[DANCER.name]["goal_ok"] is True
    assert "goals that break their clues: bad.non" in done.stdout
    done = nonosat("batch", "bad.non", "--out", "r.jsonl", "--fail-on", "goal", cwd=tmp_path)
    assert done.returncode == 1 and "goal" in done.stderr
    done = nonosat("batch", str(DANCER), "--out", "r2.jsonl", "--require", "unique", cwd=tmp_path)
    assert done.returncode == 0


@pytest.mark.slow
def test_a_fork_server_that_cannot_start_leaves_the_search_alone(tmp_path: Path) -> None:
    """With too few file descriptors to start the fork server, the race is skipped: a unique
    puzzle is still unique, exit 0."""
    command = f"ulimit -n 10; exec {sys.executable} -m nonosat check {FOREVER} --jobs 2"
    done = subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "Traceback" not in done.stderr


def test_hint_on_a_puzzle_with_no_solution_says_so(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("???\n???\n???\n")
    done = nonosat("hint", str(PUZZLES / "broken-cross.non"), "--state", "s.txt", cwd=tmp_path)
    assert done.returncode == 3 and "no solution" in done.stdout


def test_nothing_written_for_a_puzzle_refuted_before_search(tmp_path: Path) -> None:
    (tmp_path / "long.non").write_text("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    done = nonosat("solve", "long.non", "-o", "x.non", cwd=tmp_path)
    assert done.returncode == 3 and "nothing written to x.non" in done.stderr
    assert not (tmp_path / "x.non").exists()


def test_one_line_at_fault_is_named_without_talk_of_dropping_one(tmp_path: Path) -> None:
    """ "this line's clue cannot hold (drop any one and the rest can)" read oddly for one line (a
    site operator's review): a clue longer than its line cannot hold whatever the others say."""
    (tmp_path / "long.non").write_text("width 3\nheight 2\nrows\n1\n1\ncolumns\n5\n0\n1\n")
    done = nonosat("check", "long.non", cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "this line's clue cannot hold, whatever the others say: column 1 (clue 5)" in done.stdout
    assert "drop any one" not in done.stdout


def test_encode_says_no_solution_of_a_refuted_puzzle_whose_clues_cnf_is_too_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new user's review: a 1024x256 puzzle whose totals differ was exit 4 ("CNF grew past
    3000000 clauses"), where the README says encode exits 3 for a puzzle the cheap checks refute.
    Its CNF is an empty clause then, with a comment saying why; a puzzle that is not refuted
    still stops with exit 4. (Here the limit is made small: the clauses of a 2x2 puzzle.)"""
    from typer.testing import CliRunner

    import nonosat.solver.encodings.grid as grid
    from nonosat.cli import app

    monkeypatch.setattr(grid, "MAX_CLAUSES", 3)
    refuted = tmp_path / "refuted.non"
    refuted.write_text("width 2\nheight 2\n\nrows\n1\n0\n\ncolumns\n1\n1\n")
    done = CliRunner().invoke(app, ["encode", str(refuted), "-o", str(tmp_path / "r.cnf")])
    assert done.exit_code == 3 and "no solution: the row clues fill 1 cell" in done.output, done.output
    cnf = (tmp_path / "r.cnf").read_text().splitlines()
    assert "grows past 3 clauses: an empty clause stands for it" in cnf[1]
    assert [line for line in cnf if not line.startswith("c")] == ["p cnf 4 1", "0"]
    ambiguous = tmp_path / "ambiguous.non"  # (one that line logic leaves open: its clauses count)
    ambiguous.write_text("width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n")
    done = CliRunner().invoke(app, ["encode", str(ambiguous), "-o", str(tmp_path / "a.cnf")])
    assert done.exit_code == 4 and "grew past 3 clauses" in done.output, done.output
