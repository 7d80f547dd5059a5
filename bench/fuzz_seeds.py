"""The fuzzer's seeds: small files of every format from the corpus, and the formats the corpus
lacks written from a few small corpus puzzles.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Seed:
    """One file to mutate: its group (the table's row), a name, its suffix and its bytes."""

    group: str
    name: str
    suffix: str
    data: bytes


def corpus_root() -> Path:
    """The corpus folder: $NONOSAT_CORPUS, else ../shared/corpus beside the checkout."""
    return Path(os.environ.get("NONOSAT_CORPUS", REPO.parent / "shared" / "corpus"))


DOCUMENTS = re.compile(r"(LICENSE|README|SOURCE|FORMAT|COPYING).*|.*\.md")
LARGEST_SEED = 32 * 1024
"""Bytes: larger corpus files (Cauldron, 512x512) are left out, so that mutants stay quick."""
TOURNAMENT_ENTRY = re.compile(rb"^\$[0-9]+[ \t]*\r?$", re.MULTILINE)


def corpus_seeds(root: Path) -> list[Seed]:
    """Small files of every format in the corpus, each group in a fixed order."""
    seeds: list[Seed] = []
    for group, pattern in (
        ("webpbn .non", "webpbn/*.non"),
        ("nonogram-db .non", "nonogram-db/**/*.non"),
        ("jwilk .nin", "jwilk/*.nin"),
        ("minizinc .dzn", "minizinc/*.dzn"),
        ("pynogram .txt", "pynogram/*.txt"),
    ):
        for path in sorted(root.glob(pattern)):
            if path.stat().st_size <= LARGEST_SEED:
                seeds.append(Seed(group, str(path.relative_to(root)), path.suffix, path.read_bytes()))
    for path in sorted((root / "tcga" / "question").glob("*.txt")):
        seeds.extend(tournament_seeds(path, root))
    for path in sorted((root / "colour").rglob("*")):
        if path.is_file() and not DOCUMENTS.fullmatch(path.name) and path.stat().st_size <= LARGEST_SEED:
            seeds.append(Seed("colour/", str(path.relative_to(root)), path.suffix, path.read_bytes()))
    return seeds


def tournament_seeds(path: Path, root: Path) -> list[Seed]:
    """Entries $1 and $2 of a tournament file, each alone, and $3 to $5 together."""
    data = path.read_bytes()
    starts = [match.start() for match in TOURNAMENT_ENTRY.finditer(data)][:6]
    if len(starts) < 6:
        return []
    name = str(path.relative_to(root))
    return [
        Seed("tcga tournament", f"{name}#1", ".txt", data[starts[0] : starts[1]]),
        Seed("tcga tournament", f"{name}#2", ".txt", data[starts[1] : starts[2]]),
        Seed("tcga tournament", f"{name}#3-5", ".txt", data[starts[2] : starts[5]]),
    ]


WRITTEN_FROM = (
    "webpbn/webpbn-00001-dancer.non",
    "webpbn/webpbn-00006-cat.non",
    "webpbn/webpbn-00016-knot.non",
    "webpbn/webpbn-00021-skid.non",
    "nonogram-db/gnonograms/42.non",
    "jwilk/data000.nin",
)
"""Small corpus puzzles written in the formats the corpus does not hold (those with a goal also
become pictures)."""


def written_seeds(root: Path) -> list[Seed]:
    """The formats the corpus lacks, written from a few small corpus puzzles."""
    from nonosat import load
    from nonosat.formats import dumps

    seeds: list[Seed] = []
    puzzles = [(Path(name).stem, load(root / name)) for name in WRITTEN_FROM if (root / name).is_file()]
    for stem, puzzle in puzzles:
        for fmt, suffix in (("xml", ".xml"), ("json", ".json"), ("mk", ".mk"), ("clues", ".clues"), ("tatham", ".txt")):
            seeds.append(Seed(f"written {fmt}", f"{stem}-{fmt}{suffix}", suffix, dumps(puzzle, fmt).encode()))
        for fmt, suffix, text in (
            ("g", ".g", g_text(puzzle.rows, puzzle.columns)),
            ("cwd", ".cwd", cwd_text(puzzle.rows, puzzle.columns)),
            ("pycsp3-text", ".txt", pycsp3_text(puzzle.rows, puzzle.columns)),
        ):
            seeds.append(Seed(f"written {fmt}", f"{stem}-{fmt}{suffix}", suffix, text.encode()))
        if puzzle.goal is not None:
            seeds.append(Seed("written pbm", f"{stem}-plain.pbm", ".pbm", plain_pbm(puzzle.goal)))
            seeds.append(Seed("written pbm", f"{stem}-raw.pbm", ".pbm", raw_pbm(puzzle.goal)))
            picture = png_bytes(puzzle.goal)
            if picture is not None:
                seeds.append(Seed("written png", f"{stem}.png", ".png", picture))
    if len(puzzles) >= 3:
        pack = "".join("====\n" + dumps(puzzle, "non") for _, puzzle in puzzles[:3])
        seeds.append(Seed("written nonpack", "three.nonpack", ".nonpack", pack.encode()))
        seeds.append(Seed("written nonpack", "one.nonpack", ".nonpack", dumps(puzzles[0][1], "non").encode()))
        first, second = (dumps(puzzle, "xml") for _, puzzle in puzzles[:2])
        both = first.split("</puzzleset>")[0] + second.split("<puzzleset>", 1)[1]
        seeds.append(Seed("written xml", "two.xml", ".xml", both.encode()))
    return seeds


def clue_line(clue: Sequence[int], separator: str = " ") -> str:
    return separator.join(map(str, clue))


def g_text(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]]) -> str:
    """An Olšák `.g` file: a comment, `: rows`, the rows, `: columns`, the columns (blank is empty)."""
    return (
        "written by bench.fuzz\n: rows\n"
        + "".join(f"{clue_line(c)}\n" for c in rows)
        + ": columns\n"
        + "".join(f"{clue_line(c)}\n" for c in columns)
    )


def cwd_text(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]]) -> str:
    """A `.cwd` file: H, W, the rows, a blank line, the columns (`0` for an empty clue)."""
    lines = [str(len(rows)), str(len(columns)), *(clue_line(c) or "0" for c in rows), ""]
    return "\n".join([*lines, *(clue_line(c) or "0" for c in columns)]) + "\n"


def pycsp3_text(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]]) -> str:
    """PyCSP3's text data: the counts, then each clue as its number of blocks and the blocks."""
    lines = [f"{len(rows)} {len(columns)}", *(clue_line([len(c), *c]) for c in (*rows, *columns))]
    return "\n".join(lines) + "\n"


def plain_pbm(goal: Sequence[Sequence[int]]) -> bytes:
    rows = "\n".join(" ".join(map(str, row)) for row in goal)
    return f"P1\n# bench.fuzz\n{len(goal[0])} {len(goal)}\n{rows}\n".encode()


def raw_pbm(goal: Sequence[Sequence[int]]) -> bytes:
    width = len(goal[0])
    raster = bytearray()
    for row in goal:
        bits = list(row) + [0] * (-width % 8)
        raster.extend(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))
    return f"P4\n{width} {len(goal)}\n".encode() + bytes(raster)


def png_bytes(goal: Sequence[Sequence[int]]) -> bytes | None:
    """The goal as a one-pixel-a-cell greyscale PNG, or None without Pillow."""
    try:
        from PIL import Image
    except ImportError:
        return None
    image = Image.new("L", (len(goal[0]), len(goal)))
    image.putdata([0 if cell else 255 for row in goal for cell in row])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def all_seeds(root: Path) -> list[Seed]:
    if not root.is_dir():
        raise SystemExit(f"bench.fuzz: no corpus at {root}; set NONOSAT_CORPUS")
    return corpus_seeds(root) + written_seeds(root)
