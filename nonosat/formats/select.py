"""Files that hold several puzzles (an XML puzzle set, a `.nonpack`): naming and choosing them.

Puzzles are counted from 1 in file order, and `FILE#N` names puzzle N. A file with a single
puzzle keeps the plain file name as that puzzle's source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from nonosat.errors import ParseError
from nonosat.formats.common import PathName
from nonosat.model import Puzzle


def numbered(puzzles: list[Puzzle], path: PathName) -> list[Puzzle]:
    """Name each puzzle `FILE#N` after its place, when the file holds more than one."""
    if len(puzzles) < 2 or path is None:
        return puzzles
    return [replace(puzzle, source=f"{path}#{n}") for n, puzzle in enumerate(puzzles, start=1)]


def choose(puzzles: Sequence[Puzzle], number: int | None, path: PathName) -> Puzzle:
    """Puzzle `number` (counted from 1), or the only puzzle when no number is given."""
    if number is None:
        if len(puzzles) == 1:
            return puzzles[0]
        raise ParseError(
            path,
            None,
            f"the file holds {len(puzzles)} puzzles; select one {{select}}",
            select=f"as FILE#N, e.g. {path or 'FILE'}#1",
        )
    check_number(number, len(puzzles), path)
    return puzzles[number - 1]


def check_number(number: int, held: int, path: PathName) -> None:
    """Refuse a puzzle number that a file of `held` puzzles does not have."""
    if not 1 <= number <= held:
        raise ParseError(path, None, f"there is no puzzle #{number} (the file holds #1 to #{held})")
