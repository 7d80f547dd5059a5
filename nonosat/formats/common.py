"""What every text format shares: splitting lines, reading clue numbers, building the puzzle."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Sequence

from nonosat.clues import ZERO_BETWEEN, zero_between
from nonosat.errors import InvalidPuzzle, ParseError
from nonosat.limits import MAX_CELLS, MAX_SIDE
from nonosat.model import Clue, Grid, Puzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import NoReturn, TypeVar

    T = TypeVar("T")

PathName = str | None
"""The name a text came from, for error messages and `Puzzle.source` (None: unnamed input)."""

_WHOLE_NUMBER = re.compile(r"[0-9]+")
LONG_CLUE = f"found a clue of more than {MAX_SIDE} blocks: over the limit of {MAX_SIDE} cells a side"
"""A clue no line within the limits holds (even in colour, with no gaps between its blocks)."""
_NEGATIVE_NUMBER = re.compile(r"-[0-9]+")
_COLOURED_NUMBER = re.compile(r"[0-9]+[a-z]")

COLOUR_UNSUPPORTED = "a coloured block, but this format holds black and white only"


def split_lines(text: str) -> list[str]:
    """The lines of a text, whatever its line endings (LF, CRLF or a lone CR), as an editor
    shows them: a vertical tab, form feed, NEL, U+2028 or U+2029 does not end a line here (a
    clue that holds one is refused: `refuse_odd_clue`)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_BLOCK_START = re.compile(r"(?<![^\s,;])[0-9]")
"""A digit starting a word: a block's length (a colour named `gold1` is no block)."""
_BREAKS = re.compile("[\v\f\x1c-\x1e\x85\u2028\u2029]")
_BREAK_NAMES = {"\v": "a vertical tab", "\f": "a form feed", "\x85": "a next-line character (NEL)"}


def has_breaks(text: str) -> bool:
    """Whether a text holds any character `refuse_odd_clue` refuses in a clue (a whole file is
    looked at once, its lines only if so)."""
    return _BREAKS.search(text) is not None


def refuse_odd_clue(text: str, path: PathName, line: int | None, expected: str) -> None:
    """Refuse a clue holding a character that ends a line where Unicode is followed (a vertical
    tab, form feed, NEL, U+2028, U+2029): split as white space, two rows `2\f2 1` were one clue
    `2 2 1`, and the puzzle another (a fuzz review); and one of more blocks than a line within the
    limits holds, before they are read (a clue of 3 million blocks took 20-60 s and 500 MB)."""
    if len(text) > 16 * MAX_SIDE and next(itertools.islice(_BLOCK_START.finditer(text), MAX_SIDE, None), None):
        raise ParseError(path, line, LONG_CLUE)
    # A clue that ends with one was read here, where another program reads another line after
    # it (a review); a line of nothing else (a form feed between pages) is blank either way.
    found = _BREAKS.search(text) if text.strip() else None
    if found is not None:
        char = found.group()
        name = _BREAK_NAMES.get(char, f"U+{ord(char):04X}")
        raise ParseError(path, line, f"expected {expected}, found {name}, which ends a line in other programs")


def clue_number(token: str, path: PathName, line: int | None, expected: str, within: str = "") -> int:
    """Read one block length of a clue; `expected` says what the whole clue should look like,
    and `within` is the clue as written, quoted beside a token that is neither (`2,1;3`: a
    review found only `'1;3'` quoted)."""
    if _WHOLE_NUMBER.fullmatch(token):
        return int(token)
    refuse_token(token, path, line, expected, within)


def refuse_token(token: str, path: PathName, line: int | None, expected: str, within: str = "") -> NoReturn:
    """Refuse a token of a clue, saying what is wrong with it: a negative length, a colour
    where there is none, or else what was expected (see clue_number)."""
    if _NEGATIVE_NUMBER.fullmatch(token):
        raise ParseError(path, line, f"found {token!r}, but a block length cannot be negative")
    if _COLOURED_NUMBER.fullmatch(token):
        raise ParseError(path, line, f"found {token!r}: {COLOUR_UNSUPPORTED}")
    where = f" in {within.strip()!r}" if within.strip() not in ("", token) else ""
    raise ParseError(path, line, f"expected {expected}, found {token!r}{where}")


def parse_clue(text: str, separator: str | None, path: PathName, line: int, expected: str) -> Clue:
    """Read a clue of numbers split by `separator` (None: any whitespace); blank means empty."""
    if not text.strip():
        refuse_odd_clue(text, path, line, expected)
        return ()
    if len(text) <= 16 * MAX_SIDE and _well_formed_clue(separator).fullmatch(text):
        clue = tuple(map(int, text.split(separator)))
    else:
        refuse_odd_clue(text, path, line, expected)
        tokens = [token.strip() for token in text.split(separator)]
        if "" in tokens:
            raise ParseError(path, line, f"expected {expected}, found {text.strip()!r}")
        clue = tuple(clue_number(token, path, line, expected, text) for token in tokens)
    refuse_zero_between(clue, path, line, text)
    if len(clue) > MAX_SIDE:
        raise ParseError(path, line, LONG_CLUE)
    return clue


def refuse_zero_between(sizes: Sequence[int], path: PathName, line: int | None, found: str) -> None:
    """Refuse a clue with a 0 between its other numbers, at its own line (`found`: the clue as
    written): read as `1 1`, `1 0 1` would be another puzzle than its author's."""
    if 0 in sizes and zero_between(sizes):
        raise ParseError(path, line, f"found {found.strip()!r}: {ZERO_BETWEEN}")


@functools.cache
def _well_formed_clue(separator: str | None) -> re.Pattern[str]:
    """The shape of a valid clue line, to read the usual case quickly."""
    gap = r"[ \t]+" if separator is None else rf"[ \t]*{re.escape(separator)}[ \t]*"
    return re.compile(rf"[ \t]*[0-9]+(?:{gap}[0-9]+)*[ \t]*")


def refuse_past_the_side(count: int, kind: str, path: PathName, line: int | None) -> None:
    """Refuse `count` clues of one kind over MAX_SIDE, as soon as they are counted and before
    they are read (a fuzz review: a clue list of 5 million lines, 10 MB, was read for 52 s, and
    took 875 MB, before the limit refused it). `line`: where the first clue past it is."""
    if count > MAX_SIDE:
        raise ParseError(
            path, line, f"found more than {MAX_SIDE} {kind} clues: over the limit of {MAX_SIDE} cells a side"
        )


MOST_LINES = 2 * MAX_SIDE + 4096
"""The most lines, blank ones aside, of a file in a format of a clue a line: every clue of a
puzzle within the limits, and room for its colours, comments and metadata."""
FILLED_LINE = re.compile(r"(?<![^\r\n])[^\S\r\n]*\S")
"""The start of a line that is not blank, after LF, CR or CRLF (a file of lone CRs too)."""


def refuse_many_lines(text: str, path: PathName, most: int = MOST_LINES) -> None:
    """Refuse a file of a clue a line with more lines than any puzzle within the limits has, at
    once (a fuzz review: 3 million rows in 10 MB of a clue list in pynogram's, nonogrid's or
    squares' format were read for 20-60 s and 1.4-1.7 GB before the limit refused them)."""
    said = f"found more than {most} lines that are not blank, more than a puzzle within the limit of {MAX_SIDE}"
    _refuse_past(FILLED_LINE, text, path, most, f"{said} cells a side has")


def refuse_many_numbers(text: str, path: PathName, most: int) -> None:
    """Refuse a text of more than `most` numbers (in a format of numbers whose lines do not
    matter: MiniZinc data, PyCSP3's text), at the first past it, before any is read."""
    within = f"within the limits ({MAX_SIDE} cells a side, {MAX_CELLS} cells)"
    _refuse_past(_WHOLE_NUMBER, text, path, most, f"found more than {most} numbers, more than a puzzle {within} has")


def _refuse_past(pattern: re.Pattern[str], text: str, path: PathName, most: int, said: str) -> None:
    """Refuse `text` with `said`, at the line of its match of `pattern` past the first `most`."""
    past = next(itertools.islice(pattern.finditer(text), most, None), None)
    if past is not None:
        from nonosat.formats.files import line_at

        raise ParseError(path, line_at(text, past.start()), said)


def refuse_past_the_limits(width: int, height: int, path: PathName, line: int | None) -> None:
    """Refuse a grid of `width` x `height` past the limits (a side, the cells) before its clues
    are read."""
    from nonosat.limits import grid_size_problem

    problem = grid_size_problem(width, height)
    if problem is not None:
        raise ParseError(path, line, problem)


def clue_count(count: int, kind: str) -> str:
    """Say a number of clues of one kind: "1 row clue", "10 column clues"."""
    return f"{count} {kind} clue{'' if count == 1 else 's'}"


def parse_size(token: str, path: PathName, line: int | None, what: str) -> int:
    """Read a width or height: a whole number of at least 1, and at most the limit a side (a
    larger one is refused here, at its own line, before the clues it would ask for are read)."""
    if not _WHOLE_NUMBER.fullmatch(token) or int(token) < 1:
        raise ParseError(path, line, f"expected the {what} as a whole number of at least 1, found {token!r}")
    if int(token) > MAX_SIDE:
        raise ParseError(path, line, f"a {what} of {token} is over the limit of {MAX_SIDE} cells a side")
    return int(token)


def make_puzzle(path: PathName, line: int | None, **fields: object) -> Puzzle:
    """Build a Puzzle, reporting a malformed one as a ParseError at `line`. A goal that does not
    fit the clues' grid is not a malformed puzzle: the puzzle is made without it, and its
    `goal_problem` says why (a goal is optional; the clues are what is solved)."""
    try:
        return Puzzle(**fields)  # type: ignore[arg-type]
    except InvalidPuzzle as error:
        if fields.get("goal") is not None:
            try:
                made = Puzzle(**{**fields, "goal": None})  # type: ignore[arg-type]
            except InvalidPuzzle:
                pass
            else:
                where = "" if line is None else f"line {line}: "
                return dataclasses.replace(made, goal_problem=f"{where}{error}")
        raise ParseError(path, line, str(error)) from error


def optional_goal(read: Callable[[], T]) -> tuple[T | None, str | None]:
    """A file's optional goal: the picture `read` gives, or None and why it cannot be read (its
    ParseError's line and message): a malformed goal does not stop the puzzle being read."""
    try:
        return read(), None
    except ParseError as error:
        where = "" if error.line is None else f"line {error.line}: "
        return None, f"{where}{error.expected}"


def goal_from_text(cells: str, width: int, height: int, path: PathName, line: int) -> Grid:
    """Read a row-major goal string: '0' (or '.') is empty, any other character is filled.
    nonogram-db's FORMAT.md has only '0' empty; a goal of '.' and '#' (as `hint`'s states and
    the JSON reader take them) was read all filled, and `convert` then wrote "1111..." (a new
    user's review)."""
    if len(cells) != width * height:
        raise ParseError(
            path, line, f"expected a goal of {width * height} cells ({width}x{height}), found {len(cells)}"
        )
    return tuple(tuple(0 if cell in "0." else 1 for cell in cells[r * width : (r + 1) * width]) for r in range(height))


def goal_text(goal: Grid) -> str:
    """Write a goal row-major as '0' and '1' characters."""
    return "".join("1" if cell else "0" for row in goal for cell in row)


def clue_lines(clues: Iterable[Clue], separator: str) -> list[str]:
    """Write clues one per line, with "0" for an empty one."""
    return [separator.join(map(str, clue)) or "0" for clue in clues]
