"""What the tests of certificates share (tests/test_certificate_*.py): a puzzle's certificate made
from its verdict, and a copy of one with a file changed."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

from nonosat import check
from nonosat.certificate import make_certificate
from nonosat.model import Puzzle


def certify(puzzle: Puzzle, folder: Path, encoding: str) -> str:
    result = check(puzzle).result
    grids = tuple(solution.grid for solution in result.solutions)
    made = make_certificate(puzzle, result.status.value, grids, folder, encoding=encoding)
    assert made.folder == folder and (folder / "README.txt").exists()
    return made.status


def tampered(folder: Path, tmp_path: Path, name: str, change: Callable[[list[str]], Iterable[str]]) -> Path:
    """A copy of the certificate with one file changed by `change` (its lines in, its lines out)."""
    copy = tmp_path / f"tampered-{name}-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(folder, copy)
    lines = (copy / name).read_text().splitlines(keepends=True)
    (copy / name).write_text("".join(change(lines)))
    return copy
