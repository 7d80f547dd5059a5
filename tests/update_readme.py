"""Rewrite the output shown under each `$ nonosat ...` console block of README.md.

Run `python tests/update_readme.py` after a deliberate change to what a command prints, then
read the diff: tests/test_docs.py runs the same commands the same way (a copy of puzzles/, 100
columns, no colour) and fails while the README and the commands disagree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(command: str) -> str:
    with tempfile.TemporaryDirectory() as work:
        shutil.copytree(ROOT / "puzzles", Path(work) / "puzzles")
        env = dict(os.environ, COLUMNS="100", TERM="dumb")
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", *command.split()[1:]],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )
        return done.stdout + done.stderr


def main() -> None:
    readme = ROOT / "README.md"

    def replace(match: re.Match[str]) -> str:
        command = match.group(1)[2:]
        return f"```console\n$ {command}\n{run(command)}```"

    text = re.sub(r"```console\n(\$ nonosat [^\n]*)\n.*?```", replace, readme.read_text(), flags=re.S)
    readme.write_text(text)


if __name__ == "__main__":
    main()
