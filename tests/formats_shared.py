"""What the tests of the formats share: small puzzles and a hand-written webpbn XML file, the
formats nonosat writes and the ones it only reads, the command line's answer, the clues to
compare what was read back (of a colour puzzle, with each block's colour; of any, without its
metadata or goal), the corpus files a pattern matches, and whether a puzzle's rows and columns
fill as many cells."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.formats import FORMATS
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
DANCER = ROOT / "puzzles" / "webpbn-00001-dancer.non"
DANCER_ID = "5x10:2.1/2.1.3/7/1.3/2.1/2/2.1/1.1/3/1.1/1.1/2/1.1/1.2/2"

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)))
"""Rows 1 / empty / 3: the picture #.. / ... / ###."""
TINY_GOAL = ((1, 0, 0), (0, 0, 0), (1, 1, 1))

WRITERS = sorted(name for name, form in FORMATS.items() if form.dump is not None)
READ_ONLY = sorted(name for name, form in FORMATS.items() if form.dump is None)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def clues_of(puzzle: Puzzle) -> tuple[object, object]:
    return puzzle.rows, puzzle.columns


def colour_clues(puzzle: Puzzle, rename: dict[str, str] | None = None) -> tuple[object, ...]:
    """Every clue with each block's colour as its RGB value (so palettes in another order compare)."""
    rgb = [(rename or {}).get(colour.rgb, colour.rgb) for colour in puzzle.palette]
    lines = [(True, i) for i in range(puzzle.height)] + [(False, i) for i in range(puzzle.width)]
    return tuple(
        tuple(zip(clue, (rgb[c] for c in puzzle.colours_of(is_row, i)), strict=True))
        for is_row, i in lines
        for clue in [puzzle.rows[i] if is_row else puzzle.columns[i]]
    )


def corpus_files(corpus: Path, pattern: str) -> list[Path]:
    """The corpus files matching a glob pattern, failing loudly if there are none."""
    files = sorted(corpus.glob(pattern))
    assert files, f"no corpus files match {pattern}"
    return files


def totals_agree(puzzle: Puzzle) -> bool:
    """Whether the row clues and the column clues fill the same number of cells."""
    return sum(map(sum, puzzle.rows)) == sum(map(sum, puzzle.columns))


def clues_only(puzzle: Puzzle) -> Puzzle:
    """The same puzzle without metadata or goal, to compare formats that carry only clues."""
    return Puzzle(rows=puzzle.rows, columns=puzzle.columns)


HAND_WRITTEN_XML = """\
<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>https://webpbn.com</source>
<author>Set Author</author>
<puzzle type="grid" defaultcolor="black">
<source>https://webpbn.com</source>
<id>#9999</id>
<title>Corner &amp; bar</title>
<copyright>&copy; 2024 Someone</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>1</count><count>1</count></line>
<line><count>1</count></line>
<line>
  <count>1</count>
</line>
</clues>
<clues type="rows">
<line><count>1</count></line>
<line></line>
<line><count>3</count></line>
</clues>
<solution type="goal">
<image>
|X..|
|...|
|XXX|
</image>
</solution>
<note>Notes are ignored.</note>
</puzzle>
</puzzleset>
"""
