"""Fuzzing: mutants of corpus files through every reader, `check` and the command line.

    python -m bench.fuzz                                  # 100,000 mutants, 500 also through the CLI
    python -m bench.fuzz --mutants 2000 --cli 50 --json fuzz.json
    python -m bench.fuzz --replay 4711                    # mutant 4711 again, in this process

The seeds are small real files of the corpus (`$NONOSAT_CORPUS`, else `../shared/corpus` beside
the checkout): the `.non` files of webpbn and nonogram-db, jwilk's `.nin`, MiniZinc's `.dzn`,
pynogram's `.txt`, single puzzles (and one run of three) cut from each tournament file, and every
file of `colour/` (read, or refused cleanly). The formats the corpus lacks are written from
small corpus puzzles: webpbn XML (one puzzle and a set of two), JSON, `.mk`, clue lists, Tatham
game IDs, `.g`, `.cwd`, PyCSP3 text, `.nonpack`, PBM (plain and raw) and PNG (with Pillow).

Each mutant is a seed changed one to eight times: bytes flipped, spans deleted or duplicated,
lines deleted, duplicated, swapped or repeated, tokens inserted (digits, 10**30, a 5,000-digit
number, `-`, `#`, `$`, brackets, quotes, Unicode digits, NUL, control characters, invalid
UTF-8), numbers replaced, the file cut short, brackets nested 100,000 deep, pieces of other
seeds spliced in. A third of the text mutants only get numbers replaced and lines moved, so
that more of them load and `check` meets odd puzzles. PNG mutants also get header fields and
decompressed pixels changed, and their chunk checksums fixed more often than not, so that the
decoder, not only the checksum, is tested. Mutant N of a run depends only on `--seed` and N.

Every mutant is written to a file with its seed's suffix and read with `nonosat.load_all`, then
`load(FILE#N)` for some N, then up to three of its puzzles go through `nonosat.check(timeout=S)`,
in worker processes. What the project promises, and what is counted:

- ok: the file loaded and every check returned a verdict;
- refused: a `ParseError` naming the file (from `load_all`; `load(FILE#N)` may refuse a number
  past the file's puzzles, and is judged only for the three failures below);
- other NonosatError: the file loaded and `check` raised a NonosatError (ImpossiblePuzzle);
- traceback: any other exception (or a worker that died), from a reader or from `check`;
- hang: a check that took longer than S + 1 s, or a worker stuck in one stage (a read or a
  check) for S + 6 s, which is then killed and replaced. Reading has no deadline in the API,
  so its time is reported (the slowest reads, and how many took over 1 s), not judged;
- unnamed: a reader's error that is not a ParseError naming the file.

Then `--cli` mutants spread evenly over the run, and the riskiest ones (the `--cli-risky` K
slowest to read, the K slowest to check, and the first K whose reading raised a Python warning,
which the command line would print on standard error), go through `python -m nonosat check FILE
--timeout S` (every fourth as `FILE#1`), whose deadline covers reading: exit codes 0, 1, 2, 3, 4
and 6 only ("undocumented" otherwise), code 2 with one line on standard error that starts
"nonosat: " and names the file ("unnamed" otherwise), no "Traceback", and an end within S + 1 s
("hang"). Failures keep their mutant under `--failures` (default bench/results/fuzz-failures/)
with a note of what happened and how to reproduce it. Exit code 1 when any traceback, hang,
undocumented exit code or unnamed message was found, else 0; 2 for usage errors.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

OK, REFUSED, OTHER, TRACEBACK, HANG, UNNAMED = "ok", "refused", "other NonosatError", "traceback", "hang", "unnamed"
API_CATEGORIES = (OK, REFUSED, OTHER, TRACEBACK, HANG, UNNAMED)
UNDOCUMENTED = "undocumented"
CLI_CATEGORIES = (OK, TRACEBACK, HANG, UNDOCUMENTED, UNNAMED)
FAILURES = (TRACEBACK, HANG, UNDOCUMENTED, UNNAMED)
"""The categories that must be 0."""
SEVERITY = {TRACEBACK: 0, HANG: 1, UNNAMED: 2, OTHER: 3, REFUSED: 4, OK: 5}
CHECK_EXIT_CODES = {0: "unique", 1: "multiple", 2: "bad input", 3: "no solution", 4: "unknown", 6: "goal breaks clues"}
"""The exit codes README.md documents for `nonosat check`."""
PUZZLES_PER_MUTANT = 3
"""Puzzles of one mutant that go through `check` (a tournament run can hold several)."""
KILL_SLACK = 5.0
"""Seconds past S + 1 after which a worker stuck in one stage is killed (its hang is counted either way)."""
KEPT_PER_CATEGORY = 50
"""Reproducers kept per failure category; the rest are counted and listed, not written."""
LISTED = 1000
"""Failures listed in the JSON report (all are counted)."""
LARGEST_KEPT = 256 * 1024
"""Bytes: larger mutants are not written to the failures folder; `--replay` makes them again."""


# --- the seeds ----------------------------------------------------------------------------------


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


# --- the mutations ------------------------------------------------------------------------------

HUGE = str(10**30)
TOKENS: tuple[bytes, ...] = tuple(
    token.encode("utf-8", "surrogatepass")
    for token in (
        "0",
        "1",
        "2",
        "9",
        "10",
        "-1",
        "-0",
        "00",
        "+1",
        "1.5",
        "1e9",
        "nan",
        "inf",
        "0x1f",
        "1024",
        "1025",
        "262144",
        HUGE,
        "9" * 5000,
        "-",
        "+",
        "#",
        "$",
        "$1",
        "$0",
        "$-1",
        "$" + HUGE,
        "[",
        "]",
        "[|",
        "|]",
        "{",
        "}",
        "{}",
        "[]",
        "null",
        "true",
        '"rows"',
        '"cols":',
        "<",
        ">",
        "</",
        "/>",
        "<puzzle>",
        "<line>",
        "<count>",
        "</count>",
        "<clues>",
        "<image>",
        "|",
        "&amp;",
        "&#0;",
        "&#x110000;",
        "&bogus;",
        "<!--",
        "]]>",
        '<!DOCTYPE a [<!ENTITY e "ee">]>',
        "&e;",
        '"',
        "'",
        "`",
        ",",
        ".",
        ":",
        ";",
        "=",
        "/",
        "\\",
        "x",
        "5x5:",
        "1x1:1/1",
        "====",
        "[clues]",
        "[colors]",
        "rows",
        "columns",
        "cols",
        "width",
        "height",
        "goal",
        "title",
        ": rows",
        ": columns",
        "#d",
        "#t",
        "P1",
        "P4",
        "-1, -1",
        "array2d(",
        "1..3",
        "%",
        "/*",
        "*/",
        "3r",
        "1a",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "\x0b",
        "\x0c",
        "é",
        "∞",
        "🙂",
        "²",
        "٣",
        "１",
        "\u202e",
        "\u2028",
        "\ufeff",
        "\u00a0",
        "\x00",
        "\x07",
        "\x1b[31m",
        "\x7f",
        "\x85",
        "\ud800",
    )
) + (b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xfe\xff", b"\x00\x00\x00\x00")
INTERESTING_NUMBERS: tuple[bytes, ...] = tuple(
    number.encode()
    for number in (
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "24",
        "25",
        "26",
        "100",
        "511",
        "512",
        "1023",
        "1024",
        "1025",
        "65535",
        "65536",
        "262144",
        "262145",
        "2147483647",
        "2147483648",
        "4294967296",
        HUGE,
        "-1",
        "00",
        "007",
        "9" * 5000,
    )
)
NESTING: tuple[bytes, ...] = (b"[", b"{", b'{"a":', b"<a>", b"(", b"[|", b"[[", b"<p><q>")
NUMBER = re.compile(rb"[0-9]+")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
LARGEST_MUTANT = 4 * 1024 * 1024
"""Bytes: a mutant that grows past this is cut back (a nesting of 100,000 fits)."""

Mutation = Callable[[bytes, random.Random, Sequence[Seed]], bytes]


def spot(data: bytes, rng: random.Random) -> int:
    """A position in the data (0 to its length)."""
    return rng.randint(0, len(data))


def flip_byte(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    """Replace one byte by a random byte, or flip one of its bits."""
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    new = data[i] ^ (1 << rng.randrange(8)) if rng.random() < 0.5 else rng.randrange(256)
    return data[:i] + bytes([new]) + data[i + 1 :]


def delete_span(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    i = spot(data, rng)
    return data[:i] + data[i + rng.choice((1, 1, 2, 4, 16, 64, 512)) :]


def duplicate_span(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    i = spot(data, rng)
    piece = data[i : i + rng.choice((1, 4, 16, 64, 256))]
    j = spot(data, rng)
    return data[:j] + piece * rng.choice((1, 1, 2, 10)) + data[j:]


def insert_token(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    i = spot(data, rng)
    return data[:i] + rng.choice(TOKENS) + data[i:]


def replace_number(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    """Replace one number of the text by a small, boundary or huge one."""
    numbers = list(NUMBER.finditer(data))
    if not numbers:
        return insert_token(data, rng, _)
    found = rng.choice(numbers)
    new = rng.choice(INTERESTING_NUMBERS) if rng.random() < 0.5 else str(rng.randint(0, 30)).encode()
    return data[: found.start()] + new + data[found.end() :]


def change_line(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    """Delete, duplicate, swap, move or repeat lines."""
    lines = data.splitlines(keepends=True)
    if not lines:
        return data
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.randrange(5)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(j, lines[i])
    elif how == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 3:
        lines.insert(j, lines.pop(i))
    else:
        lines[i:i] = [lines[i]] * rng.choice((10, 100, 1000))
    return b"".join(lines)


def truncate(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    return data[: spot(data, rng)]


def nest(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    """Open brackets or tags deeply, at the start or anywhere."""
    i = 0 if rng.random() < 0.3 else spot(data, rng)
    return data[:i] + rng.choice(NESTING) * rng.choice((10, 1000, 100_000)) + data[i:]


def splice(data: bytes, rng: random.Random, seeds: Sequence[Seed]) -> bytes:
    """Put a piece of another seed in place of a piece of this one."""
    other = rng.choice(seeds).data
    start = spot(other, rng)
    piece = other[start : start + rng.choice((8, 64, 512))]
    i = spot(data, rng)
    return data[:i] + piece + data[i + rng.choice((0, 8, 64)) :]


TEXT_MUTATIONS: tuple[tuple[Mutation, int], ...] = (
    (flip_byte, 4),
    (delete_span, 3),
    (duplicate_span, 2),
    (insert_token, 6),
    (replace_number, 5),
    (change_line, 5),
    (truncate, 1),
    (nest, 1),
    (splice, 1),
)
"""Each mutation with its weight."""


def png_chunks(data: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """The chunks of a PNG as (offset, type, data), up to the first one that is cut short."""
    at = len(PNG_MAGIC)
    while at + 12 <= len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        if at + 12 + length > len(data):
            return
        yield at, data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length


def fix_png_checksums(data: bytes) -> bytes:
    """Recompute the CRC of every whole chunk, so that a decoder reads past them."""
    out = bytearray(data)
    for at, kind, body in png_chunks(data):
        end = at + 8 + len(body)
        out[end : end + 4] = zlib.crc32(kind + body).to_bytes(4, "big")
    return bytes(out)


def png_header(data: bytes, rng: random.Random, _: Sequence[Seed]) -> bytes:
    """Change the width, height, bit depth or colour type in IHDR."""
    if not data.startswith(PNG_MAGIC) or len(data) < 29:
        return flip_byte(data, rng, _)
    field_at, size = rng.choice(((16, 4), (20, 4), (24, 1), (25, 1), (26, 1), (27, 1), (28, 1)))
    if size == 4:
        value = rng.choice((0, 1, 2, 1024, 1025, 65535, 100_000, 2**31 - 1, 2**31, 2**32 - 1)).to_bytes(4, "big")
    else:
        value = bytes([rng.choice((0, 1, 2, 3, 4, 6, 8, 16, 255))])
    return fix_png_checksums(data[:field_at] + value + data[field_at + size :])


def png_pixels(data: bytes, rng: random.Random, seeds: Sequence[Seed]) -> bytes:
    """Change the decompressed image data (filter bytes and pixels) and compress it again."""
    chunks = list(png_chunks(data)) if data.startswith(PNG_MAGIC) else []
    idat = [(at, body) for at, kind, body in chunks if kind == b"IDAT"]
    if not idat:
        return flip_byte(data, rng, seeds)
    try:
        raw = zlib.decompress(b"".join(body for _, body in idat))
    except zlib.error:
        return flip_byte(data, rng, seeds)
    for _ in range(rng.randint(1, 4)):
        raw = rng.choice((flip_byte, delete_span, duplicate_span, truncate))(raw, rng, seeds)
    body = zlib.compress(raw)
    chunk = len(body).to_bytes(4, "big") + b"IDAT" + body + zlib.crc32(b"IDAT" + body).to_bytes(4, "big")
    first, last = idat[0][0], idat[-1][0] + 12 + len(idat[-1][1])
    return data[:first] + chunk + data[last:]


PNG_MUTATIONS: tuple[tuple[Mutation, int], ...] = (
    (flip_byte, 4),
    (delete_span, 2),
    (duplicate_span, 1),
    (truncate, 1),
    (png_header, 3),
    (png_pixels, 4),
    (splice, 1),
)


GENTLE_MUTATIONS: tuple[tuple[Mutation, int], ...] = ((replace_number, 3), (change_line, 1))
"""For a third of the text mutants: changes that mostly keep the file readable, so that `check`
gets odd puzzles (empty, huge or impossible clues, lines missing or repeated)."""
GENTLE_SHARE = 1 / 3


def mutate(seed: Seed, rng: random.Random, seeds: Sequence[Seed]) -> bytes:
    """The seed changed one to eight times."""
    data = seed.data
    is_png = data.startswith(PNG_MAGIC)
    table = PNG_MUTATIONS if is_png else GENTLE_MUTATIONS if rng.random() < GENTLE_SHARE else TEXT_MUTATIONS
    mutations, weights = zip(*table, strict=True)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4, 8))):
        data = rng.choices(mutations, weights)[0](data, rng, seeds)[:LARGEST_MUTANT]
    if is_png and rng.random() < 0.6:
        data = fix_png_checksums(data)
    return data


@dataclass(frozen=True)
class Mutant:
    """Mutant `index` of a run: its seed, its bytes, and the puzzle number `load(FILE#N)` asks for."""

    index: int
    seed: Seed
    data: bytes
    number: int


def make_mutant(index: int, run_seed: int, seeds: Sequence[Seed]) -> Mutant:
    """Mutant `index` of the run seeded `run_seed`: the same arguments always give the same bytes."""
    rng = random.Random(f"bench.fuzz:{run_seed}:{index}")
    groups = sorted({seed.group for seed in seeds})
    group = rng.choice(groups)
    seed = rng.choice([s for s in seeds if s.group == group])
    data = mutate(seed, rng, seeds)
    return Mutant(index, seed, data, rng.choice((0, 1, 1, 2, 3, 4, 1000)))


def mutant_path(folder: Path, mutant: Mutant) -> Path:
    return folder / f"mutant-{mutant.index:06d}{mutant.seed.suffix}"


# --- one mutant through the API, in a worker ----------------------------------------------------


@dataclass
class Outcome:
    """What became of one mutant through the API."""

    index: int
    group: str
    seed: str
    category: str = OK
    stage: str = ""
    detail: str = ""
    error_types: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    seconds: float = 0.0
    load_seconds: float = 0.0
    """The longer of `load_all` and `load(FILE#N)`."""
    check_seconds: float = 0.0
    """The longest `check`."""
    warnings: list[str] = field(default_factory=list)
    """The warnings reading raised (Pillow's DecompressionBombWarning, say), as "Class: message"."""

    def worsen(self, category: str, stage: str, detail: str) -> None:
        """Keep the worst category seen (a traceback over a hang over an unnamed message...)."""
        if SEVERITY[category] < SEVERITY[self.category]:
            self.category, self.stage, self.detail = category, stage, detail


def reader_error(outcome: Outcome, stage: str, error: BaseException, path: Path) -> None:
    """Classify an error from `load_all` or `load(FILE#N)`: only a ParseError naming the file is
    clean (and for `FILE#N`, a number past the file's puzzles is expected, so it is not counted)."""
    from nonosat import NonosatError, ParseError

    if isinstance(error, ParseError) and error.path == str(path):
        if stage == "load_all":
            outcome.error_types.append(type(error).__name__)
            outcome.worsen(REFUSED, stage, str(error)[:300])
        return
    outcome.error_types.append(type(error).__name__)
    if isinstance(error, NonosatError):
        shown = f"{type(error).__name__} (path {getattr(error, 'path', None)!r}): {error}"
        outcome.worsen(UNNAMED, stage, shown[:2000])
    else:
        outcome.worsen(TRACEBACK, stage, "".join(traceback.format_exception(error))[-4000:])


def read_mutant(mutant: Mutant, path: Path, outcome: Outcome, report: Callable[[str], None]) -> list[Any]:
    """`load_all(FILE)`, then `load(FILE#N)`: the puzzles of the first, every error classified.

    Reading has no deadline in the API, so a slow read is timed, not judged, here; the slowest
    ones go through the command line too, whose --timeout covers reading."""
    from nonosat import load, load_all

    loaded: list[Any] = []
    for stage in ("load_all", f"load #{mutant.number}"):
        report(stage)
        begun = time.perf_counter()
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                if stage == "load_all":
                    loaded = load_all(path)
                else:
                    load(f"{path}#{mutant.number}")
            except Exception as error:  # noqa: BLE001 - classified, not hidden
                reader_error(outcome, stage, error, path)
        outcome.load_seconds = max(outcome.load_seconds, time.perf_counter() - begun)
        outcome.warnings += [f"{w.category.__name__}: {str(w.message)[:200]}" for w in warned]
    return loaded


def run_mutant(mutant: Mutant, folder: Path, timeout: float, report: Callable[[str], None]) -> Outcome:
    """Load a mutant's file, select a puzzle by number, check up to three of its puzzles."""
    from nonosat import NonosatError, check

    outcome = Outcome(mutant.index, mutant.seed.group, mutant.seed.name)
    path = mutant_path(folder, mutant)
    path.write_bytes(mutant.data)
    started = time.perf_counter()
    limit = timeout + 1.0
    try:
        puzzles = read_mutant(mutant, path, outcome, report)
        for number, puzzle in enumerate(puzzles[:PUZZLES_PER_MUTANT], start=1):
            stage = f"check puzzle {number}"
            report(stage)
            begun = time.perf_counter()
            try:
                outcome.statuses.append(check(puzzle, timeout=timeout).status.value)
            except NonosatError as error:
                outcome.error_types.append(type(error).__name__)
                outcome.worsen(OTHER, stage, str(error)[:300])
            except Exception as error:  # noqa: BLE001 - classified, not hidden
                outcome.error_types.append(type(error).__name__)
                outcome.worsen(TRACEBACK, stage, "".join(traceback.format_exception(error))[-4000:])
            took = time.perf_counter() - begun
            outcome.check_seconds = max(outcome.check_seconds, took)
            if took > limit:
                outcome.worsen(HANG, stage, f"check(timeout={timeout:g}) took {took:.2f} s")
    finally:
        path.unlink(missing_ok=True)
    outcome.seconds = time.perf_counter() - started
    return outcome


def warm_up(seeds: Sequence[Seed], folder: Path) -> None:
    """Import every reader and the solver, so that no first mutant pays for the imports."""
    from nonosat import check, load_all

    for seed in {seed.group: seed for seed in seeds}.values():
        path = folder / f"warm-up{seed.suffix}"
        path.write_bytes(seed.data)
        try:
            for puzzle in load_all(path)[:1]:
                if puzzle.width * puzzle.height <= 100:
                    check(puzzle, timeout=1)
        except Exception:  # noqa: BLE001, S110 - only imports matter here; the run itself classifies errors
            pass
        path.unlink()


def worker(conn: Connection, seeds: list[Seed], run_seed: int, timeout: float, base: Path) -> None:
    """Run mutants by index until told to stop: ("stage", name) before each stage, then ("done", outcome)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    folder = Path(tempfile.mkdtemp(prefix="worker-", dir=base))
    try:
        warm_up(seeds, folder)
        conn.send(("ready", ""))
        while (index := conn.recv()) is not None:
            mutant = make_mutant(index, run_seed, seeds)
            outcome = run_mutant(mutant, folder, timeout, lambda stage: conn.send(("stage", stage)))
            conn.send(("done", outcome))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- the pool of workers, with a guard for hangs ------------------------------------------------


@dataclass
class Slot:
    """One worker process, the mutant it is on and since when it has been in its current stage."""

    process: Any
    conn: Connection
    ready: bool = False
    index: int | None = None
    stage: str = "start"
    since: float = 0.0


Stuck = Callable[[int, str, str, str], None]
"""Told of a mutant whose worker hung or died: its index, the category, the stage and what happened."""


class Pool:
    """Worker processes that run mutants; one stuck in a stage past the guard is killed and replaced."""

    def __init__(self, jobs: int, seeds: list[Seed], run_seed: int, timeout: float) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.base = Path(tempfile.mkdtemp(prefix="nonosat-fuzz-"))
        """The workers' files: a killed worker cannot clean up its own."""
        self.arguments = (seeds, run_seed, timeout, self.base)
        self.guard = timeout + 1.0 + KILL_SLACK
        self.slots = [self.start() for _ in range(jobs)]

    def start(self) -> Slot:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=worker, args=(child, *self.arguments), daemon=True)
        process.start()
        child.close()
        return Slot(process, parent, since=time.monotonic())

    def replace(self, slot: Slot) -> None:
        slot.process.kill()
        slot.process.join()
        slot.conn.close()
        self.slots[self.slots.index(slot)] = self.start()

    def run(self, indices: Sequence[int], on_stuck: Stuck) -> Iterator[Outcome]:
        """Outcomes of the mutants, as they finish; `on_stuck(index, category, stage, why)` for a worker
        that hung (and was killed) or died."""
        waiting = list(reversed(indices))
        while waiting or any(slot.index is not None for slot in self.slots):
            for slot in self.slots:
                if slot.ready and slot.index is None and waiting:
                    slot.index, slot.stage, slot.since = waiting.pop(), "sent", time.monotonic()
                    slot.conn.send(slot.index)
            answered = wait([slot.conn for slot in self.slots], timeout=0.5)
            for slot in [slot for slot in self.slots if slot.conn in answered]:
                try:
                    kind, message = slot.conn.recv()
                except (EOFError, OSError):
                    self.died(slot, on_stuck)
                    continue
                if kind == "ready":
                    slot.ready = True
                elif kind == "stage":
                    slot.stage, slot.since = message, time.monotonic()
                else:
                    slot.index = None
                    yield message
            now = time.monotonic()
            for slot in list(self.slots):
                if slot.index is not None and now - slot.since > self.guard:
                    on_stuck(
                        slot.index,
                        HANG,
                        slot.stage,
                        f"no answer {now - slot.since:.1f} s into {slot.stage}; worker killed",
                    )
                    self.replace(slot)
                elif not slot.ready and now - slot.since > 120:
                    raise SystemExit("bench.fuzz: a worker did not start within 120 s")

    def died(self, slot: Slot, on_stuck: Stuck) -> None:
        slot.process.join(timeout=5)
        if slot.index is not None:
            on_stuck(
                slot.index,
                TRACEBACK,
                slot.stage,
                f"the worker died (exit code {slot.process.exitcode}) in {slot.stage}",
            )
        elif not slot.ready:
            raise SystemExit(f"bench.fuzz: a worker failed to start (exit code {slot.process.exitcode})")
        self.replace(slot)

    def close(self) -> None:
        for slot in self.slots:
            try:
                slot.conn.send(None)
            except OSError:
                pass
        for slot in self.slots:
            slot.process.join(timeout=5)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
        shutil.rmtree(self.base, ignore_errors=True)


# --- the command-line sample --------------------------------------------------------------------


@dataclass
class CliOutcome:
    """What became of one mutant through `python -m nonosat check`."""

    index: int
    group: str
    seed: str
    argument: str
    code: int | None
    seconds: float
    category: str = OK
    detail: str = ""


def nonosat_environment() -> dict[str, str]:
    """The environment for the CLI: the same nonosat as the one imported here comes first."""
    import nonosat

    home = str(Path(nonosat.__file__).resolve().parent.parent)
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(p for p in (home, environment.get("PYTHONPATH")) if p)
    environment.pop("COLUMNS", None)
    return environment


def run_cli(mutant: Mutant, folder: Path, timeout: float, environment: dict[str, str], select: bool) -> CliOutcome:
    """Run `python -m nonosat check FILE --timeout S` (`FILE#1` with `select`) and judge it."""
    path = mutant_path(folder, mutant)
    path.write_bytes(mutant.data)
    argument = f"{path}#1" if select else str(path)
    command = [sys.executable, "-m", "nonosat", "check", argument, "--timeout", str(timeout)]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder, env=environment, start_new_session=True
    )
    try:
        out, err = process.communicate(timeout=timeout + 1.0 + KILL_SLACK)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the command's own process group, with any rival
        out, err = process.communicate()
    seconds = time.perf_counter() - started
    path.unlink(missing_ok=True)
    code = process.returncode
    stderr = err.decode("utf-8", "replace")
    outcome = CliOutcome(mutant.index, mutant.seed.group, mutant.seed.name, argument, code, seconds)
    lines = stderr.splitlines()
    shown = f"exit code {code}; stderr: {stderr[-1500:]!r}; stdout ends: {out.decode('utf-8', 'replace')[-300:]!r}"
    if "Traceback" in stderr:
        outcome.category, outcome.detail = TRACEBACK, shown
    elif seconds > timeout + 1.0:
        outcome.category, outcome.detail = HANG, f"took {seconds:.2f} s; {shown}"
    elif code not in CHECK_EXIT_CODES:
        outcome.category, outcome.detail = UNDOCUMENTED, shown
    elif code == 2 and not (len(lines) == 1 and lines[0].startswith("nonosat: ") and str(path) in lines[0]):
        outcome.category, outcome.detail = UNNAMED, shown
    return outcome


def cli_sample(count: int, total: int) -> list[int]:
    """`count` mutant indices spread evenly over the run."""
    return sorted({i * total // count for i in range(count)}) if count else []


# --- keeping failures ---------------------------------------------------------------------------


class Keeper:
    """Writes reproducers of failures, a few per category, with a note of what happened."""

    def __init__(self, folder: Path, run_seed: int, timeout: float) -> None:
        self.folder = folder
        self.run_seed = run_seed
        self.timeout = timeout
        self.kept: Counter[str] = Counter()
        self.listed: list[dict[str, object]] = []

    def keep(self, mutant: Mutant, category: str, where: str, detail: str, command: str) -> None:
        """Record a failure; write its mutant and note while few of its category are kept."""
        entry: dict[str, object] = {
            "index": mutant.index,
            "where": where,
            "category": category,
            "group": mutant.seed.group,
            "seed": mutant.seed.name,
            "detail": detail[:4000],
            "replay": self.replay(mutant.index),
            "file": None,
        }
        if self.kept[category] < KEPT_PER_CATEGORY:
            self.kept[category] += 1
            self.folder.mkdir(parents=True, exist_ok=True)
            stem = f"{mutant.index:06d}-{where}-{category}"
            note = (
                f"{category} ({where}) from seed "
                f"{mutant.seed.name}\n\n{detail}\n\nreproduce: {self.replay(mutant.index)}\n"
            )
            if len(mutant.data) <= LARGEST_KEPT:
                kept = self.folder / f"{stem}{mutant.seed.suffix}"
                kept.write_bytes(mutant.data)
                entry["file"] = str(kept)
                note += f"or: {command.replace('FILE', str(kept))}\n"
            (self.folder / f"{stem}.note.txt").write_text(note)  # never the mutant's own name, even for .txt
        if len(self.listed) < LISTED:
            self.listed.append(entry)

    def replay(self, index: int) -> str:
        return f"python -m bench.fuzz --seed {self.run_seed} --timeout {self.timeout:g} --replay {index}"


# --- the run ------------------------------------------------------------------------------------


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def source_digest() -> dict[str, object]:
    """Which nonosat ran: its folder, a SHA-1 of its sources, and the git commit when that is exact."""
    import nonosat

    package = Path(nonosat.__file__).resolve().parent
    digest = hashlib.sha1()
    for file in sorted(package.rglob("*.py")):
        digest.update(str(file.relative_to(package)).encode() + b"\0" + file.read_bytes())
    commit = None
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=package, capture_output=True, text=True, timeout=10, check=False
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."],
            cwd=package,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if head.returncode == 0 and dirty.returncode == 0:
            commit = head.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return {"path": str(package), "sources_sha1": digest.hexdigest(), "commit": commit}


def table(rows: dict[str, Counter[str]], categories: Sequence[str], first: str) -> str:
    """A Markdown table of counts, one row per group and a total row."""
    total: Counter[str] = Counter()
    for counts in rows.values():
        total.update(counts)
    lines = [
        f"| {first} | mutants | " + " | ".join(categories) + " |",
        "|---|---:|" + "---:|" * len(categories),
    ]
    for name, counts in [*sorted(rows.items()), ("total", total)]:
        shown = f"**{name}**" if name == "total" else name
        lines.append(
            f"| {shown} | {sum(counts.values()):,} | " + " | ".join(f"{counts[c]:,}" for c in categories) + " |"
        )
    return "\n".join(lines)


@dataclass
class Slowest:
    """The `size` mutants with the largest times seen, as (seconds, index, seed)."""

    size: int
    kept: list[tuple[float, int, str]] = field(default_factory=list)

    def add(self, seconds: float, index: int, seed: str) -> None:
        if len(self.kept) < self.size or seconds > self.kept[-1][0]:
            self.kept = sorted([*self.kept, (seconds, index, seed)], reverse=True)[: self.size]

    def json(self) -> list[dict[str, object]]:
        return [{"seconds": round(s, 3), "index": i, "seed": seed} for s, i, seed in self.kept]


def run_api(
    args: argparse.Namespace, seeds: list[Seed], keeper: Keeper
) -> tuple[dict[str, Counter[str]], dict[str, Any], list[int]]:
    """Every mutant through the API in worker processes: counts per group and category, the
    figures beside them, and the riskiest mutants for the command line (the slowest to read and to
    check, and the first that raised warnings)."""
    counts: dict[str, Counter[str]] = {group: Counter() for group in sorted({s.group for s in seeds})}
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    loads, checks = Slowest(args.cli_risky), Slowest(args.cli_risky)
    loads_over_1s = 0
    warned: Counter[str] = Counter()
    warned_indices: list[int] = []
    warning_examples: dict[str, object] = {}
    command = f"python -m nonosat check FILE --timeout {args.timeout:g}"

    def stuck(index: int, category: str, stage: str, why: str) -> None:
        mutant = make_mutant(index, args.seed, seeds)
        counts[mutant.seed.group][category] += 1
        keeper.keep(mutant, category, "api", f"{stage}: {why}", command)

    pool = Pool(args.jobs, seeds, args.seed, args.timeout)
    started = last = time.monotonic()
    done = 0
    try:
        for outcome in pool.run(range(args.mutants), stuck):
            done += 1
            counts[outcome.group][outcome.category] += 1
            statuses.update(outcome.statuses)
            errors.update(outcome.error_types)
            loads.add(outcome.load_seconds, outcome.index, outcome.seed)
            checks.add(outcome.check_seconds, outcome.index, outcome.seed)
            loads_over_1s += outcome.load_seconds > 1.0
            for kind in sorted({w.split(":")[0] for w in outcome.warnings}):
                warned[kind] += 1
                warning_examples.setdefault(
                    kind, {"index": outcome.index, "seed": outcome.seed, "warning": outcome.warnings[0]}
                )
            if outcome.warnings and len(warned_indices) < args.cli_risky:
                warned_indices.append(outcome.index)
            if outcome.category in FAILURES:
                mutant = make_mutant(outcome.index, args.seed, seeds)
                keeper.keep(mutant, outcome.category, "api", f"{outcome.stage}: {outcome.detail}", command)
            if time.monotonic() - last > 30:
                last = time.monotonic()
                print(progress(done, args.mutants, last - started, counts), file=sys.stderr, flush=True)
    finally:
        pool.close()
    extras = {
        "seconds": round(time.monotonic() - started, 1),
        "check_statuses": dict(statuses.most_common()),
        "error_types": dict(errors.most_common()),
        "loads_over_1s": loads_over_1s,
        "mutants_with_warnings": dict(warned.most_common()),
        "warning_examples": warning_examples,
        "slowest_loads": loads.json(),
        "slowest_checks": checks.json(),
    }
    return counts, extras, sorted({index for _, index, _ in loads.kept + checks.kept} | set(warned_indices))


def progress(done: int, total: int, seconds: float, counts: dict[str, Counter[str]]) -> str:
    total_counts: Counter[str] = Counter()
    for row in counts.values():
        total_counts.update(row)
    shown = ", ".join(f"{c} {total_counts[c]}" for c in API_CATEGORIES)
    return f"bench.fuzz: {done:,}/{total:,} mutants in {seconds:.0f} s ({shown})"


def run_command_line(
    args: argparse.Namespace, seeds: list[Seed], keeper: Keeper, indices: Sequence[int]
) -> tuple[dict[str, Counter[str]], dict[str, Any]]:
    """These mutants through the command line, `--jobs` commands at a time."""
    counts: dict[str, Counter[str]] = {group: Counter() for group in sorted({s.group for s in seeds})}
    codes: Counter[int | None] = Counter()
    folder = Path(tempfile.mkdtemp(prefix="nonosat-fuzz-cli-"))
    environment = nonosat_environment()
    started = time.monotonic()
    slowest = 0.0
    try:

        def one(place_and_index: tuple[int, int]) -> tuple[Mutant, CliOutcome]:
            place, index = place_and_index
            mutant = make_mutant(index, args.seed, seeds)
            return mutant, run_cli(mutant, folder, args.timeout, environment, select=place % 4 == 3)

        with ThreadPoolExecutor(args.jobs) as threads:
            for mutant, result in threads.map(one, enumerate(indices)):
                counts[result.group][result.category] += 1
                codes[result.code] += 1
                slowest = max(slowest, result.seconds)
                if result.category in FAILURES:
                    command = (
                        f"python -m nonosat check {'FILE#1' if result.argument.endswith('#1') else 'FILE'} "
                        f"--timeout {args.timeout:g}"
                    )
                    keeper.keep(mutant, result.category, "cli", f"check {result.argument}: {result.detail}", command)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    extras = {
        "seconds": round(time.monotonic() - started, 1),
        "commands": len(indices),
        "exit_codes": {str(code): n for code, n in sorted(codes.items(), key=lambda item: str(item[0]))},
        "slowest_seconds": round(slowest, 3),
    }
    return {group: row for group, row in counts.items() if row}, extras


def replay(args: argparse.Namespace, seeds: list[Seed]) -> int:
    """Make mutant N again, keep it in the failures folder, and run it through the API here."""
    mutant = make_mutant(args.replay, args.seed, seeds)
    args.failures.mkdir(parents=True, exist_ok=True)
    path = args.failures / f"replay-{mutant.index:06d}{mutant.seed.suffix}"
    path.write_bytes(mutant.data)
    print(f"mutant {mutant.index} of seed {mutant.seed.name} ({len(mutant.data)} bytes), kept as {path}")
    with tempfile.TemporaryDirectory(prefix="nonosat-fuzz-") as folder:
        outcome = run_mutant(mutant, Path(folder), args.timeout, lambda stage: print(f"  {stage}", flush=True))
    print(
        f"{outcome.category} {outcome.stage}; errors {outcome.error_types}; "
        f"check {outcome.statuses}; {outcome.seconds:.2f} s"
    )
    if outcome.detail:
        print(outcome.detail)
    for warning in outcome.warnings:
        print(f"warned: {warning}")
    print(f"the command line: python -m nonosat check {path} --timeout {args.timeout:g}")
    return 1 if outcome.category in FAILURES else 0


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--mutants", type=int, default=100_000, metavar="N", help="mutants through the API (default 100000)"
    )
    parser.add_argument(
        "--cli", type=int, default=500, metavar="N", help="of them, how many also go through the CLI (default 500)"
    )
    parser.add_argument(
        "--cli-risky",
        type=int,
        default=20,
        metavar="K",
        help="also through the CLI: the K slowest to read, the K "
        "slowest to check, the first K that warned (default 20)",
    )
    parser.add_argument(
        "--timeout", type=float, default=2.0, metavar="S", help="the deadline of each check (default 2)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="the run's seed: mutant N depends only on it and N (default 0)"
    )
    parser.add_argument(
        "--jobs", type=int, default=usable_cores(), metavar="N", help="worker processes (default: the usable cores)"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the counts, settings and failures as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    parser.add_argument(
        "--failures",
        type=Path,
        default=REPO / "bench" / "results" / "fuzz-failures",
        metavar="DIR",
        help="where reproducers are kept (default bench/results/fuzz-failures)",
    )
    parser.add_argument("--note", default="", help="a note kept in the JSON settings (what was run: a commit, say)")
    parser.add_argument("--replay", type=int, metavar="N", help="make mutant N again and run it in this process")
    args = parser.parse_args(argv)
    if min(args.mutants, args.cli, args.cli_risky) < 0 or args.jobs < 1 or not args.timeout > 0:
        parser.error("--mutants, --cli and --cli-risky must be at least 0, --jobs at least 1, --timeout positive")
    args.cli = min(args.cli, args.mutants)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench.fuzz: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    if args.json is not None and not args.json.resolve().parent.is_dir():
        print(f"bench.fuzz: cannot write {args.json}: no folder {args.json.parent}", file=sys.stderr)
        return 2
    seeds = all_seeds(corpus_root())
    if args.replay is not None:
        return replay(args, seeds)
    from nonosat.formats.atomic import write_text_atomic

    keeper = Keeper(args.failures, args.seed, args.timeout)
    started = time.monotonic()
    groups = Counter(seed.group for seed in seeds)
    print(
        f"{len(seeds)} seeds in {len(groups)} groups; {args.mutants:,} mutants, {args.cli} through the CLI, "
        f"check timeout {args.timeout:g} s, {args.jobs} workers, seed {args.seed}",
        flush=True,
    )
    api, api_extras, slowest = run_api(args, seeds, keeper)
    print(f"\nThrough the API ({api_extras['seconds']} s):\n")
    print(table(api, API_CATEGORIES, "seed group"))
    print(f"\ncheck statuses {api_extras['check_statuses']}; errors {api_extras['error_types']}")
    slowest_load, slowest_check = (
        api_extras[k][0] if api_extras[k] else None for k in ("slowest_loads", "slowest_checks")
    )
    print(f"loads over 1 s: {api_extras['loads_over_1s']}; slowest load {slowest_load}; slowest check {slowest_check}")
    print(f"mutants whose reading warned: {api_extras['mutants_with_warnings']}")
    indices = sorted(set(cli_sample(args.cli, args.mutants)) | set(slowest))
    cli, cli_extras = run_command_line(args, seeds, keeper, indices)
    print(
        f"\nThrough `python -m nonosat check` ({len(indices)} commands: {args.cli} spread over the run and the "
        f"riskiest, {args.cli_risky} of each kind; {cli_extras['seconds']} s; "
        f"exit codes {cli_extras['exit_codes']}, slowest {cli_extras['slowest_seconds']} s):\n"
    )
    print(table(cli, CLI_CATEGORIES, "seed group"))
    totals = Counter[str]()
    for row in (*api.values(), *cli.values()):
        totals.update({c: row[c] for c in FAILURES})
    seconds = round(time.monotonic() - started, 1)
    print("\nfailures: " + ", ".join(f"{c} {totals[c]}" for c in FAILURES) + f"; {seconds} s in all")
    for entry in keeper.listed[:20]:
        print(
            f"  {entry['category']} ({entry['where']}) mutant {entry['index']} "
            f"of {entry['seed']}: {entry['file'] or entry['replay']}"
        )
    if args.json is not None:
        report = {
            "settings": {
                "mutants": args.mutants,
                "cli": args.cli,
                "cli_risky": args.cli_risky,
                "timeout": args.timeout,
                "seed": args.seed,
                "note": args.note,
                "jobs": args.jobs,
                "python": sys.version.split()[0],
                "nonosat": source_digest(),
                "seeds": dict(sorted(groups.items())),
            },
            "seconds": seconds,
            "api": {"counts": {g: dict(c) for g, c in api.items()}, **api_extras},
            "cli": {"counts": {g: dict(c) for g, c in cli.items()}, **cli_extras},
            "failures": {c: totals[c] for c in FAILURES},
            "failed": keeper.listed,
        }
        write_text_atomic(args.json, json.dumps(report, indent=2) + "\n", force=args.force)
        print(f"wrote {args.json}")
    return 1 if any(totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
