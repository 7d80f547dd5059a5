"""Rewrite the output shown under each `$ nonosat ...` console block of README.md, and the
pictures of docs/ that the README shows.

Run `python tests/update_readme.py` after a deliberate change to what a command prints, then
read the diff: tests/test_docs.py runs the same commands the same way (a copy of puzzles/, as
into a pipe: no colour, lines as long as they are; a review found a README block that mixed a
terminal's 100 columns and a pipe's characters, which no reader could see) and fails while the
README and the commands disagree, and draws the pictures again (`PICTURES`) and fails while
they differ from docs/.
"""

from __future__ import annotations

import io
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
        env = {key: value for key, value in os.environ.items() if key != "COLUMNS"} | {"TERM": "dumb"}  # as a pipe
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", *command.split()[1:]],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )
        return done.stdout + done.stderr


PICTURES = {
    "take-two-terminal.svg": "nonosat solve puzzles/number-loom-take-two.xml",
    "take-two-solved.svg": "nonosat render puzzles/number-loom-take-two.xml --solution -o OUT",
}
"""The pictures in docs/ and the command each shows: a terminal's colours (recorded by Rich, as a
truecolor terminal 80 columns wide shows them), or the file a command writes (OUT)."""


def picture(name: str) -> str:
    """The SVG text of one of PICTURES, drawn now."""
    command = PICTURES[name]
    with tempfile.TemporaryDirectory() as work:
        shutil.copytree(ROOT / "puzzles", Path(work) / "puzzles")
        out = Path(work) / name
        env = dict(os.environ, COLUMNS="80", TERM="xterm-256color", COLORTERM="truecolor", FORCE_COLOR="1")
        env.pop("NO_COLOR", None)
        args = [arg.replace("OUT", str(out)) for arg in command.split()[1:]]
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", *args], cwd=work, env=env, capture_output=True, text=True, check=True
        )
        if "OUT" in command:
            return out.read_text()
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=80, color_system="truecolor", file=io.StringIO())
    console.print(Text.from_ansi(re.sub(r"\d+\.\d{3} s", "0.005 s", done.stdout)), end="")
    return console.export_svg(title=command)


def main() -> None:
    for name in PICTURES:
        (ROOT / "docs" / name).write_text(picture(name))
    readme = ROOT / "README.md"

    def replace(match: re.Match[str]) -> str:
        command = match.group(1)[2:]
        return f"```console\n$ {command}\n{run(command)}```"

    text = re.sub(r"```console\n(\$ nonosat [^\n]*)\n.*?```", replace, readme.read_text(), flags=re.S)
    readme.write_text(text)


if __name__ == "__main__":
    main()
