"""Every option of every command changes what it says it changes: the table (in three parts:
tests/options_answering.py, tests/options_writing.py and tests/options_batch_and_serve.py) says,
for each one, what it changes and which test shows it (a test that would fail if the option were
accepted and then ignored). A test here keeps the table whole (every option of the command line
is in it) and true to the tests (each named test exists); the options that no other test showed
are shown in tests/test_options_shown.py."""

from __future__ import annotations

import ast
from pathlib import Path

import typer.main
from options_answering import ANSWERING
from options_batch_and_serve import BATCH_AND_SERVE
from options_writing import WRITING

from nonosat.cli import app

ROOT = Path(__file__).resolve().parent.parent

OPTIONS = {**ANSWERING, **WRITING, **BATCH_AND_SERVE}
"""Each option of each command: what it changes, and the test that shows it."""


def command_line_options() -> set[str]:
    """Every option of every command, as `command --option`."""
    group = typer.main.get_command(app)
    return {
        f"{name} {param.opts[0]}"
        for name, command in group.commands.items()  # type: ignore[attr-defined]
        for param in command.params
        if param.param_type_name == "option" and param.name != "help"
    }


def test_every_option_of_the_command_line_says_what_it_changes() -> None:
    assert set(OPTIONS) == command_line_options()


def test_every_option_names_a_test_that_exists() -> None:
    defined: dict[str, set[str]] = {}
    for effect, test in OPTIONS.values():
        path, _, name = test.partition("::")
        if path not in defined:
            tree = ast.parse((ROOT / path).read_text())
            defined[path] = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert name in defined[path], test
        assert effect.strip(), test
