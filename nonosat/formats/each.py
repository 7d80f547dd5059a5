"""A file of several puzzles read puzzle by puzzle, each puzzle's own fault in its place: what a
batch run falls back on when the whole file cannot be read, so that one bad clue in a
tournament set of 1,000 costs one verdict, not 1,000 (a site operator's review)."""

from __future__ import annotations

from nonosat.errors import ParseError
from nonosat.model import Puzzle


def load_each(path: str) -> list[tuple[int, Puzzle | ParseError]] | None:
    """Every puzzle of the file by its number, in file order, a puzzle that cannot be read as its
    ParseError; None where the file cannot be taken apart into its puzzles (a format that holds
    one, or whose set is read whole, or a file whose fault is not inside one puzzle)."""
    from nonosat.formats import decode_text, detect_format, get_format, read_bytes

    try:
        text = decode_text(read_bytes(path), path)
        load = get_format(detect_format(path, text)).load_each
        return None if load is None else load(text, path)
    except Exception:  # noqa: BLE001 - anything at all: the whole file's own error stands
        return None
