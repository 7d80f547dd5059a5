"""Puzzle files: one module per format, chosen by file suffix or, failing that, by content.

`load("set.txt#7")` reads puzzle $7 of a multi-puzzle tournament file; `load_all` reads them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from nonosat.errors import ParseError, UsageError
from nonosat.files import write_text_atomic
from nonosat.formats.cluelist import dump_cluelist, load_cluelist
from nonosat.formats.common import PathName, split_lines
from nonosat.formats.jsonfmt import dump_json, dump_solution_json, load_json
from nonosat.formats.nin import dump_nin, load_nin
from nonosat.formats.non import dump_non, load_non
from nonosat.formats.tournament import (
    dump_tournament,
    load_tournament,
    load_tournament_all,
    load_tournament_solutions,
)
from nonosat.model import Puzzle

__all__ = [
    "FORMATS",
    "Format",
    "detect_format",
    "dump_solution_json",
    "dumps",
    "get_format",
    "load",
    "load_all",
    "load_tournament_solutions",
    "loads",
    "read_text",
    "save",
]


@dataclass(frozen=True)
class Format:
    """One file format: how to read a puzzle from its text and write one back."""

    name: str
    load: Callable[[str, PathName], Puzzle]
    dump: Callable[[Puzzle], str]


FORMATS: dict[str, Format] = {
    "non": Format("non", load_non, dump_non),
    "nin": Format("nin", load_nin, dump_nin),
    "tournament": Format("tournament", load_tournament, lambda puzzle: dump_tournament([puzzle])),
    "clues": Format("clues", load_cluelist, dump_cluelist),
    "json": Format("json", load_json, dump_json),
}

SUFFIXES = {".non": "non", ".nin": "nin", ".json": "json", ".clues": "clues"}
"""The suffixes that name a format; any other (such as .txt) is decided by content."""

NON_KEYS = {"width", "height", "rows", "columns"}
_TOURNAMENT_HEADER = re.compile(r"\$[0-9]+")
_SIZE_LINE = re.compile(r"[0-9]+\s+[0-9]+")
_CONTROL_CHARACTER = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")


def get_format(name: str) -> Format:
    """The format of that name, or a UsageError listing the names there are."""
    if name not in FORMATS:
        raise UsageError(f"unknown format {name!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[name]


def detect_format(path: str | Path | None, text: str) -> str:
    """The name of a file's format: from its suffix if that names one, else from its content."""
    suffix = Path(path).suffix.lower() if path is not None else ""
    return SUFFIXES.get(suffix) or sniff_format(text)


def sniff_format(text: str) -> str:
    """Guess a format from content: `$N` header, JSON object, `.non` keys, `W H` header, else a clue list."""
    lines = [line.strip() for line in split_lines(text.strip())]
    if not lines:
        return "clues"
    if _TOURNAMENT_HEADER.fullmatch(lines[0]):
        return "tournament"
    if lines[0].startswith("{"):
        return "json"
    if any(line.split(None, 1)[0] in NON_KEYS for line in lines if line):
        return "non"
    return "nin" if looks_like_nin(lines) else "clues"


def looks_like_nin(lines: list[str]) -> bool:
    """Whether stripped lines start with `W H` and have no blank line (a clue list always has
    one, between its rows and its columns)."""
    return _SIZE_LINE.fullmatch(lines[0]) is not None and "" not in lines


def loads(
    text: str, *, fmt: str | None = None, path: str | Path | None = None, number: int | None = None
) -> Puzzle:
    """Read one puzzle from text; `path` names it in errors, `number` selects $N of a tournament file."""
    path = None if path is None else str(path)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ParseError(path, None, "the file is empty")
    name = fmt or detect_format(path, text)
    if name == "tournament":
        return load_tournament(text, path, number)
    if number is not None and number != 1:
        raise ParseError(path, None, f"there is no puzzle #{number}: a {name} file holds one puzzle")
    return get_format(name).load(text, path)


def split_number(path: str | Path) -> tuple[str, int | None]:
    """Split `FILE#N` into the file and N, when N is digits and FILE exists (FILE#N itself does not)."""
    name = str(path)
    head, hash_sign, tail = name.rpartition("#")
    if hash_sign and tail.isascii() and tail.isdigit() and not Path(name).exists() and Path(head).is_file():
        return head, int(tail)
    return name, None


def line_at(text: str, index: int) -> int:
    """The 1-based line number of a character offset, whatever the line endings."""
    return text[:index].replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1


def decode_text(data: bytes, path: str) -> str:
    """Decode a file's bytes as UTF-8 text, refusing empty and binary files."""
    if not data.strip():
        raise ParseError(path, None, "the file is empty")
    if b"\0" in data:
        raise ParseError(
            path, line_at(data.decode("latin-1"), data.index(b"\0")), "not a text file (it holds NUL bytes)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = line_at(data.decode("latin-1"), error.start)
        raise ParseError(path, line, "not a text file (it is not valid UTF-8)") from error
    control = _CONTROL_CHARACTER.search(text)
    if control:
        raise ParseError(
            path, line_at(text, control.start()), "not a text file (it holds control characters)"
        )
    return text


def read_text(path: str | Path) -> str:
    """The text of a puzzle file, or a ParseError saying why it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError as error:
        raise ParseError(path, None, "no such file") from error
    except IsADirectoryError as error:
        raise ParseError(path, None, "this is a folder, not a puzzle file") from error
    except OSError as error:
        raise ParseError(path, None, f"cannot be read: {error.strerror or error}") from error
    return decode_text(data, str(path))


def load(path: str | Path) -> Puzzle:
    """Read one puzzle from a file; `FILE#N` selects puzzle $N of a multi-puzzle file."""
    file, number = split_number(path)
    return loads(read_text(file), path=file, number=number)


def load_all(path: str | Path) -> list[Puzzle]:
    """Read every puzzle of a file: all of a tournament file, else the one puzzle."""
    file, number = split_number(path)
    text = read_text(file)
    if number is None and detect_format(file, text) == "tournament":
        return load_tournament_all(text, file)
    return [loads(text, path=file, number=number)]


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """Write a puzzle as text in the named format."""
    return get_format(fmt).dump(puzzle)


def format_for_suffix(path: str | Path) -> str:
    """The format a file's suffix names, for writing."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise UsageError(
            f"cannot tell which format to write {path} in from its suffix; "
            f"use {', '.join(SUFFIXES)} or name the format"
        )
    return SUFFIXES[suffix]


def save(puzzle: Puzzle, path: str | Path, *, fmt: str | None = None, force: bool = False) -> None:
    """Write a puzzle to a file atomically, in the format its suffix names (or `fmt`)."""
    write_text_atomic(path, dumps(puzzle, fmt or format_for_suffix(path)), force=force)
