"""The command line's quick start: `check FILE` and `solve FILE` run without Typer and say what
Typer says, import no Typer, and a check that line logic solves imports only what it uses
(ARCHITECTURE.md, "Start-up")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_shared import plain

ROOT = Path(__file__).resolve().parent.parent
DANCER = str(ROOT / "puzzles" / "webpbn-00001-dancer.non")


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
