"""What the tests of the command line share (tests/test_cli_*.py): a command's exit code and
output through Typer's runner, a puzzle file written for it, a 2x2 puzzle of two solutions, and
output with its timings taken out."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from nonosat.cli import app


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


def plain(text: str) -> str:
    """Output with its timings taken out (they differ from run to run)."""
    return re.sub(r"[0-9]+\.[0-9]+ s\b", "T s", text)
