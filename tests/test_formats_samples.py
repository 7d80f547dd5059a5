"""Every reader on a small sample, found by content as well as by its file's suffix."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_shared import TINY, TINY_GOAL, clues_of

from nonosat.errors import ParseError
from nonosat.formats import FORMATS, SUFFIXES, detect_format, dumps, load, loads
from nonosat.formats.non import dump_non
from nonosat.model import Puzzle

SAMPLES = {
    "xml": dumps(TINY, "xml"),
    "mk": "3 3\n1\n0\n3\n#\n1 1\n1\n1\n",
    "g": "Text before the first colon is a comment.\n: rows\n1\n\n3\n: columns\n1 1\n1\n1\n: end\nignored\n",
    "cwd": "3\n3\n1\n\n3\n\n1 1\n1\n1\n",
    "dzn": (
        "X = 3;\nY = 3;\nmaxlen = 3;\n"
        "rows = [|1, -1, -1\n |0, -1, -1\n |1, 1, 1\n |];\n"
        "cols = [|1, 0, 1\n |1, -1, -1\n |1, -1, -1\n |];\n"
    ),
    "pynogram": (
        "; the file format of pynogram's hello.txt\n[colors]\n[clues]\n"
        "rows = 1,   # top\n   0,\n\n   # a comment inside the block\n   '3'\n"
        'columns = "1 1", 1 ; left\n    1\n'
    ),
    "pycsp3-text": "3 3\n1 1\n0\n1 3\n2 1 1\n1 1\n1 1\n",
    "nonpack": "====\n" + dump_non(TINY) + "====\n",
    "tatham": "3x3:1.1/1/1/1//3\n",
    "pbm": "P1\n# a comment\n3 3\n1 0 0\n000\n1 1 1\n",
    "nonogrid": '# nonogrid\'s TOML\n[clues]\nrows = """\n1\n0  # empty\n3\n"""\ncolumns = "1 1, 1, 1"\n',
    "cnon": "1 3 3\nB #000000\n1:B\n0\n3:B\n1:B,1:B\n1:B\n1:B\n",
    "squares": "\u2b1b\u2b1c\u2b1c\n\u2b1c\u2b1c\u2b1c\n\u2b1b\u2b1b\u2b1b\n",
}


def test_every_format_has_a_sample() -> None:
    assert set(SAMPLES) | {"png", "non", "nin", "json", "clues", "tournament"} == set(FORMATS)


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("suffix", ["named", ".txt", ""])
def test_sample_reads_by_suffix_or_content(tmp_path: Path, name: str, suffix: str) -> None:
    real = next((s for s, n in SUFFIXES.items() if n == name), ".txt")
    path = tmp_path / f"tiny{real if suffix == 'named' else suffix}"
    path.write_text(SAMPLES[name])
    assert detect_format(path, SAMPLES[name]) == name
    assert clues_of(load(path)) == clues_of(TINY)


def test_dzn_reads_array2d_and_comments() -> None:
    text = (
        "% TINY, with flat arrays\nmaxlen = 3;\nX = 3; Y = 3;\n"
        "rows = array2d(1..3, 1..3, [1, -1, -1, 0, -1, -1, 1, 1, 1]);\n"
        "cols = array2d(1..3, 1..3, [1, 0, 1, 1, -1, -1, 1, -1, -1]); /* done */\n"
    )
    assert clues_of(loads(text, fmt="dzn")) == clues_of(TINY)
    with pytest.raises(ParseError, match="X and Y") as raised:
        loads(text.replace("Y = 3", "Y = 4"), fmt="dzn")
    assert raised.value.line == 3


def test_pictures_are_their_puzzles_goal(tmp_path: Path) -> None:
    path = tmp_path / "tiny.pbm"
    path.write_text(SAMPLES["pbm"])
    assert load(path) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL)


def _pycsp3_stream(puzzle: Puzzle, shape: int) -> str:
    """PyCSP3's text in three of the shapes its number-at-a-time parser takes: a clue a line;
    each count on a line of its own; and the size's two numbers on two lines too."""
    lines = [f"{puzzle.height} {puzzle.width}"] if shape < 2 else [str(puzzle.height), str(puzzle.width)]
    for clue in (*puzzle.rows, *puzzle.columns):
        if shape == 0:
            lines.append(" ".join(map(str, (len(clue), *clue))))
        else:
            lines += [str(len(clue)), *([" ".join(map(str, clue))] if clue else [])]
    return "\n".join(lines) + "\n"


def test_pycsp3_text_is_found_wherever_its_lines_break() -> None:
    """A review found PyCSP3's text with each count on a line of its own taken for a clue list
    and refused; and no clue list, nin or CWD file of the same puzzles may be taken for it."""
    import random

    from nonosat.formats.detection import sniff_format

    draw = random.Random(40)
    for _ in range(300):
        width, height = draw.randint(1, 12), draw.randint(1, 12)
        density = draw.random()
        grid = tuple(tuple(int(draw.random() < density) for _ in range(width)) for _ in range(height))
        puzzle = Puzzle.from_grid(grid)
        for shape in range(3):
            text = _pycsp3_stream(puzzle, shape)
            assert sniff_format(text) == "pycsp3-text", text
            assert clues_of(loads(text)) == clues_of(puzzle)
        for fmt in ("clues", "nin", "mk"):
            text = dumps(puzzle, fmt)
            lines = [line.split() for line in text.splitlines()[1:] if line.strip()]
            if fmt == "nin" and all(int(line[0]) == len(line) - 1 for line in lines):  # PyCSP3's shape too
                continue
            assert sniff_format(text) == fmt, text
        rows, columns = ([" ".join(map(str, clue)) or "0" for clue in side] for side in (puzzle.rows, puzzle.columns))
        cwd = "\n".join([str(puzzle.height), str(puzzle.width), *rows, "", *columns]) + "\n"
        assert sniff_format(cwd) == "cwd", cwd
