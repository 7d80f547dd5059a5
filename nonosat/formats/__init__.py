"""Puzzle files: one module per format, chosen by file suffix or, failing that, by content.

`load("set.txt#7")` reads puzzle $7 of a tournament file (or the 7th of an XML puzzle set or
a `.nonpack`); `load_all` reads them all. `load("5x5:2/1.1/...")` reads a Tatham game ID.
`convert` reads a puzzle in one format and writes it in another.

Colour puzzles are read from every format that has colour (see each module) and written as
webpbn XML, `.non`, JSON or `.g` (`Format.colour`); writing one in a format of black and white
only is refused, never done by dropping the colours.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from nonosat.errors import ParseError, UsageError
from nonosat.formats.common import PathName
from nonosat.formats.detection import SUFFIXES, claimed, detect_format, suffix_of, unknown_format
from nonosat.formats.files import decode_text, read_bytes, read_text
from nonosat.formats.given import check_bytes, check_name_and_number, check_text
from nonosat.formats.guard import guarded
from nonosat.formats.select import choose
from nonosat.model import Puzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = [
    "FIELDS",
    "SUFFIXES",
    "FORMATS",
    "Format",
    "convert",
    "decode_text",
    "detect_format",
    "dropped_fields",
    "dump_solution_json",
    "dumps",
    "get_format",
    "load",
    "load_all",
    "load_bytes",
    "load_dzn_solution",
    "load_tournament_solutions",
    "loads",
    "names_game_id",
    "read_bytes",
    "read_text",
    "save",
    "check_solution_path",
    "save_solution",
]


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """A function of a format module, imported on its first call: a command reads one format,
    and importing all fifteen readers would slow the start of every small solve."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(import_module(f"nonosat.formats.{module}"), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


load_non, dump_non = _lazy("non", "load_non"), _lazy("non", "dump_non")
load_nin, dump_nin = _lazy("nin", "load_nin"), _lazy("nin", "dump_nin")
load_tournament, dump_tournament = _lazy("tournament", "load_tournament"), _lazy("tournament", "dump_tournament")
load_tournament_all = _lazy("tournament", "load_tournament_all")
load_tournament_solutions = _lazy("tournament", "load_tournament_solutions")
load_cluelist, dump_cluelist = _lazy("cluelist", "load_cluelist"), _lazy("cluelist", "dump_cluelist")
load_json, dump_json = _lazy("jsonfmt", "load_json"), _lazy("jsonfmt", "dump_json")
dump_solution_json = _lazy("jsonfmt", "dump_solution_json")
load_xml, load_xml_all, dump_xml = (
    _lazy("webpbn", "load_xml"),
    _lazy("webpbn", "load_xml_all"),
    _lazy("webpbn", "dump_xml"),
)
load_mk, load_g, dump_mk = _lazy("olsak", "load_mk"), _lazy("olsak", "load_g"), _lazy("olsak", "dump_mk")
dump_g = _lazy("olsak", "dump_g")
load_nonogrid, load_cnon = _lazy("nonogrid", "load_nonogrid"), _lazy("cnon", "load_cnon")
load_squares = _lazy("squares", "load_squares")
load_cwd = _lazy("cwd", "load_cwd")
load_dzn, load_dzn_solution = _lazy("dzn", "load_dzn"), _lazy("dzn", "load_dzn_solution")
load_pynogram = _lazy("pynogram", "load_pynogram")
load_pycsp3_text, looks_like_pycsp3_text = (
    _lazy("pycsp3text", "load_pycsp3_text"),
    _lazy("pycsp3text", "looks_like_pycsp3_text"),
)
load_nonpack, load_nonpack_all = _lazy("nonpack", "load_nonpack"), _lazy("nonpack", "load_nonpack_all")
pick_nonpack = _lazy("nonpack", "pick_nonpack")
load_tatham, dump_tatham = _lazy("tatham", "load_tatham"), _lazy("tatham", "dump_tatham")
load_pbm, load_pbm_text = _lazy("image", "load_pbm"), _lazy("image", "load_pbm_text")
load_png, load_png_text = _lazy("image", "load_png"), _lazy("image", "load_png_text")
write_text_atomic = _lazy("atomic", "write_text_atomic")


FIELDS = ("title", "author", "copyright", "license", "catalogue", "description", "goal")
"""The optional fields of a Puzzle, which some formats cannot hold."""


@dataclass(frozen=True)
class Format:
    """One file format: how to read puzzles from its text (or bytes) and, if it can, write one."""

    name: str
    load: Callable[[str, PathName], Puzzle]
    """Read the file's one puzzle (a file of several then needs FILE#N)."""
    dump: Callable[[Puzzle], str] | None = None
    """Write a puzzle; None for formats nonosat only reads."""
    keeps: frozenset[str] = frozenset()
    """The optional FIELDS that `dump` writes; the others are dropped."""
    load_all: Callable[[str, PathName], list[Puzzle]] | None = None
    """For formats that hold several puzzles: read them all, in file order."""
    pick: Callable[[str, PathName, int], Puzzle] | None = None
    """Read puzzle N when N is a label in the file rather than a place (the tournament's `$N`)."""
    load_each: Callable[[str, PathName], list[tuple[int, Puzzle | ParseError]]] | None = None
    """For files of several: every puzzle by its number, a puzzle's own fault in its place."""
    load_bytes: Callable[[bytes, PathName], Puzzle] | None = None
    """For binary formats (images): read the puzzle from the file's bytes."""
    colour: bool = False
    """Whether `dump` writes colour puzzles (the others hold black and white only)."""
    keeps_of: Callable[[Puzzle], frozenset[str]] | None = None
    """The fields a puzzle's own values let `dump` write beyond `keeps` (the tournament's `$N`:
    a catalogue entry that is a number)."""

    def kept(self, puzzle: Puzzle) -> frozenset[str]:
        """The optional FIELDS that `dump` writes of this puzzle."""
        return self.keeps if self.keeps_of is None else self.keeps | self.keeps_of(puzzle)


EVERY_FIELD = frozenset(FIELDS)

FORMATS: dict[str, Format] = {
    "non": Format("non", load_non, dump_non, EVERY_FIELD - {"description"}, colour=True),
    "nin": Format("nin", load_nin, dump_nin),
    "tournament": Format(
        "tournament",
        load_tournament,
        lambda puzzle: dump_tournament([puzzle]),
        load_all=load_tournament_all,
        pick=load_tournament,
        load_each=_lazy("tournament", "load_tournament_each"),
        keeps_of=_lazy("tournament", "kept_catalogue"),
    ),
    "clues": Format("clues", load_cluelist, dump_cluelist),
    "json": Format("json", load_json, dump_json, EVERY_FIELD, colour=True),
    "xml": Format("xml", load_xml, dump_xml, EVERY_FIELD - {"license"}, load_all=load_xml_all, colour=True),
    "mk": Format("mk", load_mk, dump_mk),
    "g": Format("g", load_g, dump_g, colour=True),
    "cwd": Format("cwd", load_cwd),
    "dzn": Format("dzn", load_dzn),
    "pynogram": Format("pynogram", load_pynogram),
    "nonogrid": Format("nonogrid", load_nonogrid),
    "cnon": Format("cnon", load_cnon),
    "squares": Format("squares", load_squares),
    "pycsp3-text": Format("pycsp3-text", load_pycsp3_text),
    "nonpack": Format("nonpack", load_nonpack, load_all=load_nonpack_all, pick=pick_nonpack),
    "tatham": Format("tatham", load_tatham, dump_tatham),
    "pbm": Format("pbm", load_pbm_text, load_bytes=load_pbm),
    "png": Format("png", load_png_text, load_bytes=load_png),
}


def get_format(name: str) -> Format:
    """The format of that name, or a UsageError listing the names there are."""
    if not isinstance(name, str) or name not in FORMATS:  # ["non"]: not a bare TypeError (a review)
        raise UsageError(f"unknown format {name!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[name]


def loads(text: str, *, fmt: str | None = None, path: str | Path | None = None, number: int | None = None) -> Puzzle:
    """Read one puzzle from text; `path` names it in errors, `number` picks puzzle N of a file of several."""
    check_text(text, fmt, path, number)
    path = None if path is None else str(path)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ParseError(path, None, "the file is empty")
    form = get_format(fmt or guarded(lambda: detect_format(path, text), path, None, text))
    return guarded(lambda: load_number(form, text, path, number), path, form.name, text)


def load_number(form: Format, text: str, path: PathName, number: int | None) -> Puzzle:
    """Puzzle `number` of a text in a known format, or its only puzzle when no number is given."""
    if number is None:
        return form.load(text, path)
    if form.pick is not None:
        return form.pick(text, path, number)
    if form.load_all is not None:
        return choose(form.load_all(text, path), number, path)
    if number != 1:
        raise ParseError(path, None, f"there is no puzzle #{number}: a {form.name} file holds one puzzle")
    return form.load(text, path)


def split_number(path: str | Path) -> tuple[str, int | None]:
    """Split `FILE#N` into the file and N, when FILE exists (and FILE#N itself does not); N must
    be a whole number of at least 1."""
    name = str(path)
    head, hash_sign, tail = name.rpartition("#")
    if not hash_sign or os.path.exists(name) or not os.path.isfile(head):
        return name, None
    if not (tail.isascii() and tail.isdigit() and int(tail) >= 1):
        shown = repr(tail[:20] + ("..." if len(tail) > 20 else "")) if tail else "nothing"
        raise ParseError(head, None, f"expected a puzzle number of at least 1 after '#', found {shown}")
    return head, int(tail)


def image_loader(path: str, data: bytes) -> Callable[[bytes, PathName], Puzzle] | None:
    """How to read a file that is an image, known by its suffix or (with no known suffix) its first bytes."""
    name = SUFFIXES.get(suffix_of(path))
    if name is None:
        from nonosat.formats.image import PBM_MAGIC, is_picture

        name = "png" if is_picture(data) else "pbm" if PBM_MAGIC.match(data) else None
    return FORMATS[name].load_bytes if name is not None else None


def read_puzzles(path: str | Path, every: bool) -> list[Puzzle]:
    """Read the puzzle `path` names (`FILE#N` selects one), or every puzzle of the file."""
    file, number = split_number(path)
    return read_data(read_bytes(file), file, number, every)


def load_bytes(data: bytes, name: str, number: int | None = None) -> Puzzle:
    """Read one puzzle from a file's bytes, its format found from `name` and the bytes as `load`
    finds a file's; `name` only names it (nothing is read from disk: the web API's uploads)."""
    from nonosat.limits import MAX_FILE_BYTES

    data = check_bytes(data, name)
    check_name_and_number(name, number)
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(name, None, f"the file has {len(data)} bytes, over the limit of {MAX_FILE_BYTES}")
    try:
        return read_data(data, name, number, every=False)[0]
    except ParseError as error:
        if "select" not in error.parameters:
            raise
        raise error.reworded(select="with number=N, e.g. load_bytes(data, name, number=1)") from None


def load_all_bytes(data: bytes, name: str) -> list[Puzzle]:
    """Every puzzle of a file's bytes (one for most formats), read as `load_bytes` reads one."""
    from nonosat.limits import MAX_FILE_BYTES

    data = check_bytes(data, name)
    check_name_and_number(name, None, picks=False)
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(name, None, f"the file has {len(data)} bytes, over the limit of {MAX_FILE_BYTES}")
    return read_data(data, name, None, every=True)


def read_data(data: bytes, file: str, number: int | None, every: bool) -> list[Puzzle]:
    """The puzzle (or every puzzle) of a file's bytes: an image by its suffix or first bytes,
    else text in the format its suffix or content names."""
    load_image = image_loader(file, data)
    if load_image is not None:
        if number not in (None, 1):
            raise ParseError(file, None, f"there is no puzzle #{number}: an image holds one puzzle")
        return [guarded(lambda: load_image(data, file), file, "an image")]
    try:
        text = decode_text(data, file)
        form = get_format(guarded(lambda: detect_format(file, text), file, None, text))
        load_all = form.load_all
        if every and number is None and load_all is not None:
            return guarded(lambda: load_all(text, file), file, form.name, text)
        return [loads(text, fmt=form.name, path=file, number=number)]
    except ParseError as error:
        if claimed(file) or error.path != file:
            raise
        # a suffix that names no format, and content that is none of them (a clue list is the
        # last guess): the file is in a format nonosat does not know, not a broken clue list
        raise ParseError(file, None, unknown_format(file)) from error


_GAME_ID_START = re.compile(r"[0-9]+x[0-9]+:")


def names_game_id(path: str | Path) -> bool:
    """Whether a name that is not a file's is taken as a Tatham game ID (`WxH:...`): then a
    malformed one is told what is wrong with it, not that there is no such file."""
    name = str(path)
    return _GAME_ID_START.match(name.strip()) is not None and not os.path.exists(name)


def load(path: str | Path) -> Puzzle:
    """Read one puzzle from a file (`FILE#N` selects puzzle N of a file of several), or from a
    Tatham game ID such as `5x5:2/1.1/3/1/2/1/3/2.1/1/1` that is not the name of a file."""
    check_path(path)
    if names_game_id(path):
        from nonosat.formats.tatham import read_game_id

        return read_game_id(str(path), str(path))
    return read_puzzles(path, every=False)[0]


def load_all(path: str | Path) -> list[Puzzle]:
    """Read every puzzle of a file: all of a tournament file, XML puzzle set or `.nonpack`, else the one."""
    check_path(path)
    if names_game_id(path):
        return [load(path)]
    return read_puzzles(path, every=True)


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """Write a puzzle as text in the named format (a colour puzzle only in a format of colour)."""
    from nonosat.arguments import check_puzzle

    check_puzzle(puzzle)  # dumps(None, ...) was an AttributeError (a review)
    dump = writer(fmt, colour=puzzle.is_colour).dump
    assert dump is not None  # writer refuses a format without one
    return dump(puzzle)


def writer(fmt: str, *, colour: bool = False) -> Format:
    """The named format, refused (UsageError) unless nonosat writes it, and for `colour`, writes
    colour puzzles (a caller can ask before the puzzle is made: `generate -o`)."""
    form = get_format(fmt)
    if form.dump is None:
        writable = ", ".join(name for name, f in FORMATS.items() if f.dump is not None)
        raise UsageError(f"cannot write {fmt}: nonosat reads it but writes only {writable}")
    if colour and not form.colour:
        from nonosat.formats.colour import black_and_white_only

        black_and_white_only(fmt)
    return form


def check_path(path: object, *, reading: bool = True) -> None:
    """A file's path is a str or a path (None and 3 were looked for as files: "no such file";
    the bytes of a file to read go to load_bytes)."""
    if not isinstance(path, str | os.PathLike):
        bytes_read = reading and isinstance(path, bytes | bytearray)
        more = " (a file's bytes go to nonosat.formats.load_bytes)" if bytes_read else ""
        raise UsageError(f"path: expected a file's path, not {type(path).__name__}{more}")
    if not os.fspath(path):  # load("") said ": no such file" (a review)
        raise UsageError("path: expected a file's path, not an empty name")


# The writing side, at the end: it uses FORMATS, dumps and load above.
from nonosat.formats.writing import (  # noqa: E402
    check_solution_path,
    convert,
    dropped_fields,
    save,
    save_solution,
)
