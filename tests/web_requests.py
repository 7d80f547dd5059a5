"""What the tests of the web API (tests/test_web_*.py) share: the puzzles they send, how they
upload a file, the command line's record to compare an answer with, a puzzle too hard to count,
and the corpus files of every format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"
TWO_BY_TWO = {"rows": [[1], [1]], "cols": [[1], [1]]}
"""Two solutions: the diagonals."""


def upload(path: Path, name: str | None = None) -> dict[str, Any]:
    return {"files": {"file": (name or path.name, path.read_bytes())}}


def cli_record(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *args, "--format", "json"], capture_output=True, text=True, timeout=120
    )
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """What must be equal between the command line and the API: all but where and how long."""
    return {key: value for key, value in record.items() if key not in ("path", "seconds", "line_open")}


def hard_puzzle() -> dict[str, Any]:
    """A random 40x40 grid's clues: line logic leaves most of it open, and counting its solutions
    takes far longer than the tests' time limits."""
    import random

    rng = random.Random(1)
    grid = [[rng.random() < 0.5 for _ in range(40)] for _ in range(40)]

    def clue(cells: list[bool]) -> list[int]:
        runs, run = [], 0
        for cell in [*cells, False]:
            if cell:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        return runs

    return {"rows": [clue(row) for row in grid], "cols": [clue(list(col)) for col in zip(*grid, strict=True)]}


CORPUS_FORMATS = [
    "webpbn/webpbn-00001-dancer.non",
    "nonogram-db/gnonograms/blender.non",
    "nonogram-db/qnonograms/examples/candle.non",
    "jwilk/data000.nin",
    "minizinc/dom_06.dzn",
    "pynogram/hello.txt",
    "tcga/question/taai2011.txt#7",
    "colour/number-loom/puzzles/take_two.xml",
    "colour/number-loom/examples/png/pill_bottles.png",
    "colour/number-loom/examples/char-grid/unicode_colors.txt",
    "colour/ianprime0509-nonograms/puzzles/easy.pbn#2",
    "colour/olsak-grid/viceres.g",
    "colour/nonny/data/puzzles/color/tree.non",
    "colour/nonogrid/examples/UK.toml",
    "colour/colored-nonogram-solver/nonograms/1.cnon",
]


def has_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True
