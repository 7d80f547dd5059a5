"""The command line: every exit code, every bad-input case, and the files it writes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from core_marks import SEARCH_METHOD
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app

ROOT = Path(__file__).resolve().parent.parent
DANCER = str(ROOT / "puzzles" / "webpbn-00001-dancer.non")
FOREVER = str(ROOT / "puzzles" / "webpbn-06574-forever.non")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return str(path)


AMBIGUOUS = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"


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


def test_output_writes_the_solution_and_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "out.non"
    assert run("solve", FOREVER, "--output", str(target))[0] == 0
    written = load(str(target))
    assert written.goal == load(FOREVER).goal and written.rows == load(FOREVER).rows
    target.write_text("precious")
    code, _, stderr = run("solve", FOREVER, "--output", str(target))
    assert code == 2 and "--force" in stderr and target.read_text() == "precious"
    assert run("solve", FOREVER, "--output", str(target), "--force")[0] == 0
    assert load(str(target)).goal == load(FOREVER).goal


def test_force_writes_through_a_link_and_never_replaces_a_pipe_or_a_device(tmp_path: Path) -> None:
    """`--force` renamed the new file over whatever the path was: a pipe, a device (as root,
    /dev/null itself), a symbolic link (the link replaced, the file it points to left as it was)."""
    real = tmp_path / "real.non"
    real.write_text("precious")
    link = tmp_path / "link.non"
    link.symlink_to(real)
    assert run("solve", FOREVER, "--output", str(link), "--force")[0] == 0
    assert link.is_symlink() and load(str(real)).goal == load(FOREVER).goal
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    pipe = tmp_path / "pipe.cnf"
    os.mkfifo(pipe)
    code, _, stderr = run("encode", FOREVER, "-o", str(pipe), "--force")
    assert code == 2 and "not a regular file" in stderr and pipe.is_fifo()  # a device goes the same way


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX's")
def test_force_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    """A review found a private file (0600) world-readable (0644) after `--force`: the new file
    came with the usual permissions. New files still do."""
    private = tmp_path / "private.non"
    private.write_text("secret")
    private.chmod(0o600)
    assert run("solve", FOREVER, "--output", str(private), "--force")[0] == 0
    assert private.stat().st_mode & 0o777 == 0o600 and load(str(private)).goal == load(FOREVER).goal
    fresh = tmp_path / "fresh.non"
    assert run("solve", FOREVER, "--output", str(fresh))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_output_in_a_format_that_holds_no_solution_is_refused_before_any_work(tmp_path: Path) -> None:
    """A review found `solve -o x.nin` (or .clues, .mk, .g) writing the clues alone, silently,
    exit 0; and `-o x.svg` suggesting an option solve does not have."""
    for name in ("x.nin", "x.clues", "x.g", "x.svg"):
        code, _, stderr = run("solve", DANCER, "-o", str(tmp_path / name))
        assert code == 2 and "a solution is written as .non, .json, .xml" in stderr, stderr
        assert not (tmp_path / name).exists()
    code, _, stderr = run("solve", DANCER, "-o", str(tmp_path / "x.png"))
    assert code == 2 and "x.png is a png file, which nonosat reads but does not write" in stderr
    assert stderr.rstrip().endswith("to draw it, use --render")
    assert run("solve", DANCER, "-o", str(tmp_path / "x.xml"))[0] == 0
    assert load(str(tmp_path / "x.xml")).goal == load(DANCER).goal


def test_the_timeout_is_described_as_it_holds() -> None:
    """A review found `batch --help` calling --timeout a limit for the whole command: in batch it
    holds for each puzzle (README), in solve for the whole command."""
    assert "A time limit for each puzzle" in run("batch", "--help")[1]
    assert "A time limit for the whole command" in run("solve", "--help")[1]


def test_output_json(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    assert run("solve", DANCER, "-o", str(target))[0] == 0
    data = json.loads(target.read_text())
    assert data["status"] == "unique"


def test_encode_writes_cnf_that_another_solver_solves_to_the_goal(tmp_path: Path) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    target = tmp_path / "forever.cnf"
    assert run("encode", FOREVER, "-o", str(target))[0] == 0
    text = target.read_text()
    assert "c cell (row r, column c)" in text
    puzzle = load(FOREVER)
    with Solver("minisat22", bootstrap_with=CNF(from_string=text).clauses) as other:
        assert other.solve()
        model = set(other.get_model())
    width = puzzle.width
    grid = tuple(tuple(int(r * width + c + 1 in model) for c in range(width)) for r in range(puzzle.height))
    assert grid == puzzle.goal


@pytest.mark.parametrize("encoding", ["blocks", "automaton"])
def test_encode_writes_an_unsatisfiable_puzzles_clues_and_exits_3(tmp_path: Path, encoding: str) -> None:
    """A review: a puzzle line logic refutes was written as one empty clause (exit 0), and one the
    cheap checks refute not at all (exit 3). Both are now their clues' CNF, unsatisfiable, with
    the reason in a comment and exit 3."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    broken = str(ROOT / "puzzles" / "broken-cross.non")
    too_long = write(tmp_path, "long.non", "width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n")
    for puzzle, why in ((broken, "line logic finds"), (too_long, "row 1: clue 3 needs 3 cells")):
        target = tmp_path / f"{Path(puzzle).stem}-{encoding}.cnf"
        code, _, stderr = run("encode", puzzle, "-o", str(target), "--encoding", encoding)
        assert code == 3 and "no solution" in stderr and "unsatisfiable" in stderr, stderr
        text = target.read_text()
        assert f"c no solution: {why}" in text.splitlines()[1]
        clauses = CNF(from_string=text).clauses
        assert len(clauses) > 2 and all(clauses)  # the clues' clauses, not one empty clause
        with Solver("minisat22", bootstrap_with=clauses) as other:
            assert not other.solve()


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


def plain(text: str) -> str:
    """Output with its timings taken out (they differ from run to run)."""
    return re.sub(r"[0-9]+\.[0-9]+ s\b", "T s", text)


QUICK_FILES = ("webpbn-00001-dancer.non", "ring.non", "broken-cross.non", "ring-colour.non", "dancer.json", "no.non")


@pytest.mark.slow
@pytest.mark.parametrize("name", QUICK_FILES)
def test_quick_check_and_solve_say_what_typer_says(name: str) -> None:
    """`check FILE` and `solve FILE` run without Typer (nonosat.cli.quick); the same commands
    with an option Typer parses (set to its default) print the same and exit the same."""
    path = str(ROOT / "puzzles" / name)
    pairs = ((["check", path], ["check", path, "--rating"]), (["solve", path], ["solve", path, "--count", "2"]))
    for quick, typer_path in pairs:
        one, two = (
            subprocess.run([sys.executable, "-m", "nonosat", *args], capture_output=True, text=True, timeout=120)
            for args in (quick, typer_path)
        )
        assert one.returncode == two.returncode, quick
        assert plain(one.stdout) == plain(two.stdout) and one.stderr == two.stderr, quick
        assert one.stdout or one.stderr


UNUSED_BY_A_LINE_SOLVED_CHECK = (
    "typing",  # nonosat's modules on the way name its types for mypy only
    "pathlib",
    "multiprocessing",  # the race
    "nonosat.solver.race",
    "nonosat.explain.steps",  # the rating keeps the solver's line passes
    "nonosat.solver.encodings.base",  # line logic needs no CNF
    "pysat",
    "typer",
    "nonosat.formats.colour",  # black and white needs no colour reader
    "nonosat.formats.noncolour",
    "nonosat.formats.image",
    "nonosat.formats.tatham",
)


@pytest.mark.parametrize(("name", "reader"), [("jwilk-data000.nin", "nin"), ("webpbn-00001-dancer.non", "non")])
def test_a_line_solved_check_imports_only_what_it_uses(name: str, reader: str) -> None:
    """`check FILE` of a puzzle line logic solves is mostly start-up: it imports none of the
    modules for other puzzles, other files or other commands (ARCHITECTURE.md, "Start-up")."""
    unused = {
        *UNUSED_BY_A_LINE_SOLVED_CHECK,
        *(f"nonosat.formats.{other}" for other in ("nin", "non") if other != reader),
    }
    code = (
        "import sys; before = set(sys.modules); from nonosat.cli.quick import run; "
        f"assert run(['check', {str(ROOT / 'puzzles' / name)!r}]) == 0; "
        f"print(sorted(set({sorted(unused)!r}) & (set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "line logic" in done.stdout and "level: line" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_quick_forms_import_no_typer() -> None:
    code = (
        "import sys; from nonosat.cli.quick import run; "
        f"assert run(['check', {DANCER!r}]) == 0; assert run(['solve', {DANCER!r}]) == 0; "
        "assert 'typer' not in sys.modules and 'click' not in sys.modules, 'typer imported'; "
        f"assert run(['check', {DANCER!r}, '--jobs', '1']) is None and run(['check', '--help']) is None"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "difficulty 1/5" in done.stdout


def test_help_lists_every_command_with_a_whole_summary() -> None:
    """Click cuts a summary that does not fit the terminal with "...": each command has its own
    short one, whole on an 80-column terminal."""
    import os

    from nonosat.cli.commands import ORDER

    env = dict(os.environ, COLUMNS="80")
    done = subprocess.run([sys.executable, "-m", "nonosat", "--help"], capture_output=True, text=True, env=env)
    listing = done.stdout.split("Commands:\n", 1)[1].splitlines()
    summaries = dict(line.split(None, 1) for line in listing if line.strip())
    assert tuple(summaries) == ORDER
    assert all(summary.endswith(".") and not summary.endswith("...") for summary in summaries.values()), summaries


@pytest.mark.slow  # 0.50 s in CI
def test_piped_output_is_not_wrapped_or_cut(tmp_path: Path) -> None:
    """A pipe or a file is no 80-column terminal: lines are as long as they are (unless COLUMNS
    says otherwise), and batch's progress line is whole."""
    import os

    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    check = ring_checked(env)
    differ = [line for line in check.stdout.splitlines() if "cells differ" in line]
    assert len(differ) == 1 and differ[0].endswith("(row 4, column 1), (row 4, column 3)")
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(30):
        (folder / f"puzzle-with-a-long-name-{n:02}.non").write_text(
            AMBIGUOUS if n % 3 else (ROOT / "puzzles" / "ring.non").read_text()
        )
    (folder / "broken.non").write_text("width 2\n")
    batch = subprocess.run(
        [sys.executable, "-m", "nonosat", "batch", str(folder), "--out", str(tmp_path / "r.jsonl"), "--jobs", "1"],
        capture_output=True,
        text=True,
        env=env,
    )
    progress = [line for line in batch.stderr.splitlines() if line.startswith("solving ·")]
    assert len(progress) == 1 and "solving · error 1 · multiple 30 " in progress[0] and " 31/31 " in progress[0]
    assert batch.stderr.startswith("solving 31 puzzles\n")  # a log's first line (no terminal here)
    narrow = subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"],
        capture_output=True,
        text=True,
        env=dict(env, COLUMNS="60"),
        cwd=ROOT,
    )
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60


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


def ring_checked(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`nonosat check puzzles/ring.non` (two solutions) in the environment `env`."""
    return subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_a_pipes_two_solutions_mark_the_cells_that_differ() -> None:
    """Red does not show in a pipe or a log: there a black-and-white cell that differs reads X
    (filled) or o (empty), as with --ascii (a review found the pipe's grids unmarked, where a
    colour puzzle's had its `differ` grid)."""
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "check", "puzzles/ring.non"], capture_output=True, text=True, cwd=ROOT
    )
    grids = [line for line in done.stdout.splitlines() if line.strip() and line.lstrip()[0].isdigit()][2:6]
    marks = "".join(grids)
    assert len(grids) == 4 and marks.count("X") == 8 and marks.count("o") == 8, done.stdout
    # a terminal (as Rich takes FORCE_COLOR) with NO_COLOR: no red either (a review found bold)
    for no_colour, marked in ((False, 0), (True, 8)):
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env |= {"FORCE_COLOR": "1", "COLUMNS": "100"} | ({"NO_COLOR": "1"} if no_colour else {})
        done = ring_checked(env)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
        grids = [line for line in plain.splitlines() if line.strip() and line.lstrip()[0].isdigit()][2:6]
        assert "".join(grids).count("X") == marked, (no_colour, done.stdout)


def test_an_output_in_a_read_only_folder_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review (as a user who is not root; `os.access` made to say read-only here): `generate
    -o ro/x.non` ran its whole repair, then "Permission denied", the puzzle lost; `random`,
    `solve -o`, `--preview` and `check --certificate` the same."""
    read_only = tmp_path / "ro"
    read_only.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != read_only and real(path, mode))
    import nonosat.solver.drive as drive

    monkeypatch.setattr(drive, "check_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    monkeypatch.setattr(drive, "solve_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    import nonosat.generate.checks as checks  # the repair's checks hold their own name for it

    monkeypatch.setattr(checks, "solve_within", lambda *args, **kwargs: pytest.fail("the search ran"))
    for args in (
        ["random", "--width", "5", "--height", "5", "-o", str(read_only / "x.non")],
        ["solve", DANCER, "-o", str(read_only / "x.non")],
        ["solve", DANCER, "--render", str(read_only / "x.svg")],
        ["check", DANCER, "--certificate", str(read_only / "certificate")],
        ["convert", DANCER, str(read_only / "x.json")],
    ):
        code, _, stderr = run(*args)
        assert code == 2 and "is read-only" in stderr and len(stderr.splitlines()) == 1, (args, stderr)
    assert not list(read_only.iterdir())
    writable = tmp_path / "rw"
    writable.mkdir()
    results = writable / "b.jsonl"  # the diff's review: every puzzle solved, each record "no certificate"
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(read_only / "certificates"))
    assert code == 2 and "is read-only" in stderr and not results.exists(), stderr
    certificates = tmp_path / "certificates"  # there, read-only: refused where a puzzle needs a folder made
    certificates.mkdir()
    unwritable = (read_only, certificates)
    monkeypatch.setattr(
        os, "access", lambda path, mode: not (mode & os.W_OK and Path(path) in unwritable) and real(path, mode)
    )
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(certificates))
    assert code == 2 and "cannot make the certificates of 1 puzzle(s)" in stderr and not results.exists(), stderr
    from nonosat.batch.work import certificate_folder

    (certificates / certificate_folder(DANCER)).mkdir()  # its folder there (a rerun): written in it
    code, _, stderr = run("batch", DANCER, "--out", str(results), "--certificates", str(certificates), "--force")
    assert code == 0 and results.exists(), stderr
    (read_only / "link.non").symlink_to(writable / "x.non")  # the file is written beside what it names
    assert run("convert", DANCER, str(read_only / "link.non"))[0] == 0 and (writable / "x.non").exists()
    (writable / "back.non").symlink_to(read_only / "t.non")
    code, _, stderr = run("random", "--width", "5", "--height", "5", "-o", str(writable / "back.non"))
    assert code == 2 and f"the folder {read_only} is read-only" in stderr, stderr
    (writable / "nowhere.non").symlink_to(writable / "nowhere" / "x.non")  # a review: called read-only too
    code, _, stderr = run("solve", DANCER, "-o", str(writable / "nowhere.non"))
    assert code == 2 and f"the folder {writable / 'nowhere'} is not there" in stderr, stderr
