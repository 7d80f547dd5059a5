"""The house keeps its shape: small modules, no borrowed private names, and messages from the
library that name parameters, never the command line's flags (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nonosat"
LONGEST = 400
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_at_most_400_lines() -> None:
    """Python modules, the compiled core's C files and the page's JavaScript modules too."""
    sources = modules() + sorted(PACKAGE.rglob("*.[ch]")) + sorted(PACKAGE.rglob("*.js"))
    long = {str(p.relative_to(ROOT)): n for p in sources if (n := len(p.read_text().splitlines())) > LONGEST}
    assert not long, f"modules over {LONGEST} lines: {long}"


def test_no_module_imports_another_modules_private_names() -> None:
    borrowed = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nonosat"):
                borrowed += [
                    f"{path.relative_to(ROOT)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert not borrowed, borrowed


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (of the module, classes, functions,
    and the strings that document a name right after its assignment)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


@pytest.mark.slow
def test_no_library_message_names_a_command_line_flag() -> None:
    """Outside nonosat/cli/, an error names the parameter ({force}, worded by the caller), so
    that the library, the command line and the web API can each word it their own way."""
    named = []
    for path in modules():
        if path.parent.name == "cli":
            continue
        tree = ast.parse(path.read_text())
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                if FLAG.search(node.value):
                    named.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.strip()[:60]}")
    assert not named, named


def test_the_flag_check_finds_a_flag() -> None:
    tree = ast.parse('"""docs may say --force"""\nraise UsageError("x exists; use --force")\n')
    skip = _docstrings(tree)
    strings = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in skip]
    found = [n.value for n in strings if isinstance(n.value, str) and FLAG.search(n.value)]
    assert found == ["x exists; use --force"]


def test_the_top_level_encodings_folder_is_never_a_package() -> None:
    """It would shadow the standard library's `encodings`."""
    assert (ROOT / "encodings").is_dir()
    assert not list((ROOT / "encodings").rglob("*.py"))


def test_a_message_names_parameters_as_its_caller_words_them() -> None:
    from nonosat.errors import UsageError

    error = UsageError("{a,b}.non already exists; use {force} to overwrite it", force="force=True")
    assert str(error) == "{a,b}.non already exists; use force=True to overwrite it"
    assert error.worded({"force": "--force"}) == "{a,b}.non already exists; use --force to overwrite it"
    assert UsageError("plain {x}").worded({"x": "--x"}) == "plain {x}"


def test_the_command_lines_choices_are_the_librarys() -> None:
    """The CLI spells its choices out (so that --help imports no library); they must not drift."""
    from nonosat.batch.executors import Executor
    from nonosat.batch.policy import Require
    from nonosat.cli import base
    from nonosat.formats import FORMATS
    from nonosat.generate.repair import Requirement
    from nonosat.solver.encodings import ENCODINGS

    def values(choices: object) -> set[str]:
        return {str(choice) for choice in choices}  # type: ignore[attr-defined]

    from nonosat.solver import DEFAULT_SOLVER

    assert base.DEFAULT_SOLVER == DEFAULT_SOLVER
    assert values(base.Encoding) == set(ENCODINGS)
    from nonosat.solver.engines import Engine

    assert values(base.Engine) == values(Engine)
    assert values(base.Requirement) == values(Requirement)
    assert values(base.Executor) == values(Executor)
    assert values(base.Require) == values(Require)
    assert values(base.TargetFormat) == {name for name, form in FORMATS.items() if form.dump is not None}


def test_a_choice_is_its_name_in_text_and_json() -> None:
    import json

    from nonosat.explain.rating import Level
    from nonosat.solver import Status

    assert f"{Status.UNIQUE}" == "unique" == str(Status.UNIQUE) == Status.UNIQUE
    assert json.dumps({"level": Level.PROBE}) == '{"level": "probe"}'


def test_a_line_is_a_value_named_as_people_count() -> None:
    import pickle

    import pytest

    from nonosat.model import Line, Puzzle

    line = Line("column", 0)
    assert str(line) == line.name == "column 1" and not line.is_row and Line.of(True, 2) == Line("row", 2)
    assert {line: 1}[Line("column", 0)] == 1 and pickle.loads(pickle.dumps(line)) == line != Line("row", 0)
    puzzle = Puzzle(rows=((1,), ()), columns=((1,), ()))
    assert line.clue_in(puzzle) == (1,) and Line("row", 1).length_in(puzzle) == 2
    with pytest.raises(AttributeError):
        line.index = 1


CLOCKS = re.compile(r"\b(?:perf_counter|monotonic|process_time)\(\)|\btime\.time\(\)")


@pytest.mark.slow
def test_no_test_asserts_a_timing() -> None:
    """A timing never goes into an assertion: an `assert` that reads a clock fails on a slow or
    busy machine, not because the code changed. (Clocks that bound a wait, so that a hang fails
    instead of blocking the run, are not assertions.)"""
    timed = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assert) and CLOCKS.search(ast.unparse(node)):
                timed.append(f"{path.name}:{node.lineno}")
    assert not timed, timed
