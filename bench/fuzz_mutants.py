"""Mutant N of a fuzzing run: its seed changed one to eight times by the mutations (text and
PNG), depending only on the run's seed and N.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.fuzz_seeds import Seed
from bench.fuzz_tokens import INTERESTING_NUMBERS, NESTING, TOKENS

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
