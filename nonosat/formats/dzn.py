"""MiniZinc data files (`.dzn`) of the MiniZinc benchmarks' nonogram model, and its solutions.

A `.dzn` file sets `X`, `Y`, `maxlen`, `rows` and `cols`. Each row of the 2-D arrays `rows`
and `cols` is one clue written as its minimal 0/1 pattern (`3 1` is `1, 1, 1, 0, 1`; `0` is
an empty line), padded to `maxlen` with -1. Arrays are written `[| 1, 0, 1 | 1, -1, -1 |]`
or `array2d(1..2, 1..3, [...])`. The corpus only holds square puzzles, so `X` and `Y` are
checked against the number of rows and columns as a pair, whichever is which.

A solution (`.out`, as MiniZinc prints it) is `A = array2d(1..H, 1..W, [...]);` in row-major
order, 1 for an empty cell and 2 for a filled one, followed by a `----------` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nonosat.errors import ParseError
from nonosat.formats.common import PathName, make_puzzle, refuse_many_numbers
from nonosat.limits import MAX_CELLS, MAX_SIDE
from nonosat.model import Clue, Grid, Puzzle, clue_of

_TOKEN = re.compile(
    r"(?P<skip>\s+|%[^\n]*|/\*.*?\*/)|(?P<token>\[\||\|\]|\.\.|-?[0-9]+|[A-Za-z_][A-Za-z0-9_]*|\"[^\"]*\"|.)",
    re.S,
)
_MINIMAL_PATTERN = re.compile(r"1+(?:01+)*")
SOLUTION_END = "----------"
NO_SOLUTION = "=====UNSATISFIABLE====="
CELL_VALUES = {1: 0, 2: 1}
"""The solution's cell values: 1 is empty, 2 is filled."""


@dataclass(frozen=True)
class Token:
    """A word or symbol of the data text, with its line."""

    text: str
    line: int


Array = list[list[int]]
Value = int | Array


@dataclass
class Assignment:
    """One `name = value;` statement: its value (None unless a number or a 2-D array), its line,
    and the line each row of a 2-D array starts on."""

    value: Value | None
    line: int
    row_lines: list[int]


class Reader:
    """A cursor over the tokens of a MiniZinc data text."""

    def __init__(self, text: str, path: PathName) -> None:
        self.path = path
        self.tokens: list[Token] = []
        line = 1
        for match in _TOKEN.finditer(text):
            if match.group("token"):
                self.tokens.append(Token(match.group("token"), line))
            line += match.group(0).count("\n")
        self.position = 0
        self.last_line = line

    def peek(self) -> Token | None:
        """The next token, left to be read."""
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def next(self, expected: str) -> Token:
        """The next token, or an error saying what was expected instead of the end."""
        token = self.peek()
        if token is None:
            raise ParseError(self.path, self.last_line, f"expected {expected}, the file ends")
        self.position += 1
        return token

    def expect(self, text: str) -> Token:
        """Read a token that must be `text`."""
        token = self.next(repr(text))
        if token.text != text:
            raise ParseError(self.path, token.line, f"expected {text!r}, found {token.text!r}")
        return token

    def number(self) -> int:
        """Read a whole number, perhaps negative."""
        token = self.next("a whole number")
        if not re.fullmatch(r"-?[0-9]+", token.text):
            raise ParseError(self.path, token.line, f"expected a whole number, found {token.text!r}")
        return int(token.text)

    def numbers_until(self, ends: tuple[str, ...]) -> list[int]:
        """Comma-separated whole numbers, up to (not including) one of the `ends` tokens."""
        numbers: list[int] = []
        while (token := self.peek()) is not None and token.text not in ends:
            if numbers:
                self.expect(",")
                if (after := self.peek()) is not None and after.text in ends:
                    break  # a trailing comma
            numbers.append(self.number())
        return numbers


def read_literal_array(reader: Reader) -> tuple[Array, list[int]]:
    """Read `[| a, b | c, d |]` (after its `[|`): the rows and the line each starts on."""
    rows: Array = []
    lines: list[int] = []
    while True:
        start = reader.peek()
        if start is not None and start.text == "|]":
            reader.next("'|]'")
            return rows, lines
        rows.append(reader.numbers_until(("|", "|]")))
        lines.append(start.line if start is not None else reader.last_line)
        end = reader.next("'|' or '|]'")
        if end.text == "|]":
            return rows, lines
        if end.text != "|":
            raise ParseError(reader.path, end.line, f"expected '|' or '|]', found {end.text!r}")


def read_range(reader: Reader) -> int:
    """Read an index range `1..n` and return n."""
    low = reader.number()
    reader.expect("..")
    high = reader.number()
    return high - low + 1


def read_array2d(reader: Reader, line: int) -> tuple[Array, list[int]]:
    """Read `array2d(1..h, 1..w, [...])` (after its name)."""
    reader.expect("(")
    height = read_range(reader)
    reader.expect(",")
    width = read_range(reader)
    reader.expect(",")
    reader.expect("[")
    flat = reader.numbers_until(("]",))
    reader.expect("]")
    reader.expect(")")
    if height < 0 or width < 0 or len(flat) != height * width:
        raise ParseError(reader.path, line, f"expected {height}x{width} = {height * width} numbers, found {len(flat)}")
    return [flat[r * width : (r + 1) * width] for r in range(height)], [line] * height


def read_assignment(reader: Reader) -> tuple[str, Assignment]:
    """Read one `name = value;` statement; values other than numbers and 2-D arrays are skipped."""
    name = reader.next("a name")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name.text):
        raise ParseError(reader.path, name.line, f"expected 'name = value;', found {name.text!r}")
    reader.expect("=")
    start = reader.next("a value")
    value: Value | None = None
    row_lines: list[int] = []
    if start.text == "[|":
        value, row_lines = read_literal_array(reader)
    elif start.text == "array2d":
        value, row_lines = read_array2d(reader, start.line)
    elif re.fullmatch(r"-?[0-9]+", start.text):
        value = int(start.text)
    else:
        while (token := reader.peek()) is not None and token.text != ";":
            reader.next("';'")
    reader.expect(";")
    return name.text, Assignment(value, name.line, row_lines)


def read_assignments(text: str, path: PathName) -> dict[str, Assignment]:
    """Every statement of a MiniZinc data text, by name."""
    reader = Reader(text, path)
    found: dict[str, Assignment] = {}
    while reader.peek() is not None:
        name, assignment = read_assignment(reader)
        if name in found:
            raise ParseError(path, assignment.line, f"found a second {name!r}")
        found[name] = assignment
    return found


def pattern_clue(values: list[int], line: int, path: PathName) -> Clue:
    """Read a clue from its minimal 0/1 pattern padded with -1: `1,1,0,1,-1` is 2 1."""
    cells = values[: values.index(-1)] if -1 in values else values
    shown = ", ".join(map(str, values))
    if any(value != -1 for value in values[len(cells) :]) or any(value not in (0, 1) for value in cells):
        raise ParseError(path, line, f"expected 0s and 1s padded with -1, found [{shown}]")
    pattern = "".join(map(str, cells))
    if pattern != "0" and not _MINIMAL_PATTERN.fullmatch(pattern):
        raise ParseError(
            path,
            line,
            f"expected a minimal 0/1 pattern like 1, 1, 0, 1 (or 0 for an empty line), found [{shown}]",
        )
    return clue_of(cells)


def whole_number(found: dict[str, Assignment], name: str, path: PathName) -> int | None:
    """The value of `name = n;`, if the file sets it."""
    if name not in found:
        return None
    value = found[name].value
    if not isinstance(value, int):
        raise ParseError(path, found[name].line, f"expected {name!r} to be a whole number")
    return value


def clue_array(found: dict[str, Assignment], name: str, path: PathName) -> list[Clue]:
    """Read the clues of the 2-D array `rows` or `cols`."""
    if name not in found:
        raise ParseError(path, None, f"expected '{name} = [| ... |];', found none")
    assignment = found[name]
    patterns = assignment.value
    if not isinstance(patterns, list) or not patterns:
        raise ParseError(path, assignment.line, f"expected {name!r} to be a 2-D array of patterns")
    maxlen = whole_number(found, "maxlen", path) or len(patterns[0])
    for pattern, line in zip(patterns, assignment.row_lines, strict=True):
        if len(pattern) != maxlen:
            raise ParseError(path, line, f"expected {maxlen} numbers (maxlen) in each pattern, found {len(pattern)}")
    return [pattern_clue(pattern, line, path) for pattern, line in zip(patterns, assignment.row_lines, strict=True)]


def check_size(found: dict[str, Assignment], height: int, width: int, path: PathName) -> None:
    """Check X and Y, when given, against the numbers of rows and columns (in either order)."""
    x, y = whole_number(found, "X", path), whole_number(found, "Y", path)
    if x is not None and y is not None and sorted((x, y)) != sorted((height, width)):
        raise ParseError(
            path,
            found["X"].line,
            f"expected X and Y to be {height} and {width}, the numbers of rows and columns",
        )


MOST_NUMBERS = (MAX_SIDE + MAX_CELLS // MAX_SIDE) * MAX_SIDE + 8 * MAX_SIDE
"""The most numbers the data of a puzzle within the limits holds: its rows and columns (1024 +
256 at most) each padded to the one `maxlen`, MAX_SIDE at most (a review: a 1024x256 puzzle
holds a million)."""


def load_dzn(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from a MiniZinc `.dzn` data file."""
    refuse_many_numbers(text, path, MOST_NUMBERS)  # (3 million in 10 MB were read for 23-55 s)
    found = read_assignments(text, path)
    rows = clue_array(found, "rows", path)
    columns = clue_array(found, "cols", path)
    check_size(found, len(rows), len(columns), path)
    return make_puzzle(path, found["rows"].line, rows=rows, columns=columns, source=path)


def load_dzn_solution(text: str, path: PathName = None) -> Grid:
    """Read the first solution of MiniZinc's output (`.out`): the grid of `A`, 2 being filled."""
    lines = text.replace("\r\n", "\n").split("\n")
    if any(line.strip() == NO_SOLUTION for line in lines):
        raise ParseError(path, None, "the output says the puzzle has no solution")
    ends = [i for i, line in enumerate(lines) if line.strip() == SOLUTION_END]
    if not ends:
        raise ParseError(path, len(lines), f"expected a solution ended by a '{SOLUTION_END}' line, found none")
    found = read_assignments("\n".join(lines[: ends[0]]), path)
    grids = [(name, a) for name, a in found.items() if isinstance(a.value, list)]
    if not grids:
        raise ParseError(path, None, "expected a solution like 'A = array2d(1..H, 1..W, [...]);', found none")
    _, assignment = grids[0]
    assert isinstance(assignment.value, list)
    return tuple(
        tuple(solution_cell(value, line, path) for value in row)
        for row, line in zip(assignment.value, assignment.row_lines, strict=True)
    )


def solution_cell(value: int, line: int, path: PathName) -> int:
    """Read one cell of a solution: 1 empty, 2 filled."""
    if value not in CELL_VALUES:
        raise ParseError(path, line, f"expected cells of 1 (empty) or 2 (filled), found {value}")
    return CELL_VALUES[value]
