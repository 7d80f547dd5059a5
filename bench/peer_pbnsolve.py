"""pbnsolve as a peer: Jan Wolter's C solver (1.10), one process per puzzle, its solutions read back
so that they are checked as any peer's are.

pbnsolve is built from its source (`make` in its `src/`, with libxml2's headers) and named by
`--pbnsolve` or $PBNSOLVE. `pbnsolve -u FILE` prints the puzzle's title, then `UNIQUE SOLUTION:`
(or `UNIQUE LINE SOLUTION:`, `UNIQUE DEPTH-2 SOLUTION:`) and the grid, `FOUND MULTIPLE
SOLUTIONS:` with two grids (the second after `ALTERNATE SOLUTION`), or `NO SOLUTION.`. A
black-and-white puzzle is written for it as `.non` (cells come back as `X` and `.`), a colour one
as webpbn XML (without the DOCTYPE line, which it would try to fetch), whose cells come back as
the characters of the palette's colours. It has no time limit of its own: one past `timeout` is
killed, and `unknown`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench.verdicts import Answer
from nonosat import Puzzle
from nonosat.formats import dumps
from nonosat.model import Grid


def pbnsolve_path(given: str | None = None) -> str:
    """The pbnsolve binary: `given`, else $PBNSOLVE; SystemExit when there is none."""
    path = given or os.environ.get("PBNSOLVE")
    if not path or not Path(path).is_file():
        raise SystemExit("bench: name the pbnsolve binary with --pbnsolve PATH or $PBNSOLVE (built from its src/)")
    return str(Path(path).resolve())


UNIQUE = re.compile(r"UNIQUE (?:LINE |DEPTH-\d+ )?SOLUTION:")
"""How pbnsolve announces a unique solution: found by line logic, by probing to some depth, or
by search."""


def read_answer(text: str, height: int, chars: dict[str, int] | None = None) -> tuple[str, tuple[Grid, ...]]:
    """pbnsolve's verdict and grids from its output; `chars` maps a colour's character to its
    palette index (black and white: `X` filled, anything else empty)."""
    lines = text.splitlines()

    def grid_after(index: int) -> Grid:
        rows = lines[index + 1 : index + 1 + height]
        if chars is not None:
            return tuple(tuple(chars.get(char, 0) for char in row) for row in rows)
        return tuple(tuple(1 if char == "X" else 0 for char in row) for row in rows)

    for index, line in enumerate(lines):
        if UNIQUE.fullmatch(line):
            return "unique", (grid_after(index),)
        if line == "FOUND MULTIPLE SOLUTIONS:":
            return "multiple", (grid_after(index), grid_after(lines.index("ALTERNATE SOLUTION")))
        if line in ("NO SOLUTION.", "NO SOLUTION"):
            return "none", ()
    return "unknown", ()


def pbnsolve_answer(puzzle: Puzzle, timeout: float | None, binary: str) -> Answer | None:
    """pbnsolve's uniqueness verdict on one puzzle, timed as a whole process (its start, about
    2 ms, included: it is how pbnsolve is run)."""
    clues = replace(puzzle, goal=None)  # the clues alone
    chars = {colour.char: index for index, colour in enumerate(puzzle.palette)} if puzzle.is_colour else None
    with tempfile.TemporaryDirectory(prefix="pbnsolve-") as folder:
        if chars is None:
            path = Path(folder) / "puzzle.non"
            path.write_text(dumps(clues, "non"))
        else:
            path = Path(folder) / "puzzle.xml"
            text = dumps(clues, "xml")
            path.write_text("".join(line for line in text.splitlines(True) if not line.startswith("<!DOCTYPE")))
        started = time.perf_counter()
        try:
            done = subprocess.run([binary, "-u", str(path)], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Answer("unknown", (), time.perf_counter() - started)
        took = time.perf_counter() - started
    status, grids = read_answer(done.stdout, puzzle.height, chars)
    return Answer(status, grids, took)
