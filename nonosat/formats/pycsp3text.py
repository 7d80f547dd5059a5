"""PyCSP3's text data for nonograms (read by its `Nonogram_Parser.py`): counts, then clues.

The text is a stream of whole numbers: the number of rows and the number of columns, then
each row clue and then each column clue, every clue written as its number of blocks followed
by the blocks (`0` alone is an empty clue). Line breaks do not matter. PyCSP3's own parser
reads as many column clues as there are rows, a slip that square puzzles hide; here the
column clues are counted by the number of columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from nonosat.errors import ParseError
from nonosat.formats.common import (
    PathName,
    clue_number,
    make_puzzle,
    parse_size,
    refuse_many_numbers,
    refuse_past_the_limits,
    refuse_zero_between,
    split_lines,
)
from nonosat.limits import MAX_CELLS, MAX_SIDE
from nonosat.model import Clue, Puzzle, line_name

_WHOLE_NUMBER = re.compile(r"[0-9]+")

Word = tuple[int, str]
"""A whitespace-separated word of a text, with its 1-based line number."""


def numbered_words(text: str) -> list[Word]:
    """The words of a text, each with its line number."""
    return [(number, word) for number, line in enumerate(split_lines(text), start=1) for word in line.split()]


class Words:
    """A cursor over the words of a text, reading whole numbers."""

    def __init__(self, text: str, path: PathName) -> None:
        self.words: Iterator[Word] = iter(numbered_words(text))
        self.path = path
        self.line = 1

    def next(self, what: str) -> str:
        """The next word, or an error saying `what` was expected when the text ends."""
        found = next(self.words, None)
        if found is None:
            raise ParseError(self.path, self.line, f"expected {what}, the file ends")
        self.line, word = found
        return word

    def count(self, what: str) -> int:
        """Read a number of blocks: a whole number, perhaps 0."""
        word = self.next(what)
        if not _WHOLE_NUMBER.fullmatch(word):
            raise ParseError(self.path, self.line, f"expected {what} as a whole number, found {word!r}")
        return int(word)

    def clue(self, kind: str, index: int) -> Clue:
        """Read one clue: its number of blocks, then the blocks."""
        name = line_name(kind, index)
        blocks = self.count(f"the number of blocks of {name}")
        expected = f"the blocks of {name}"
        clue = tuple(clue_number(self.next(expected), self.path, self.line, expected) for _ in range(blocks))
        refuse_zero_between(clue, self.path, self.line, " ".join(map(str, clue)))
        return clue


MOST_NUMBERS = 2 * MAX_CELLS + 8 * MAX_SIDE
"""The most numbers of a puzzle within the limits: its size, and each clue's count and blocks."""


def load_pycsp3_text(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from PyCSP3's text data: rows, columns, then count-prefixed clues."""
    refuse_many_numbers(text, path, MOST_NUMBERS)  # (its lines do not matter: a number a line is fine)
    words = Words(text, path)
    height = parse_size(words.next("the number of rows"), path, words.line, "number of rows")
    first_line = words.line
    width = parse_size(words.next("the number of columns"), path, words.line, "number of columns")
    refuse_past_the_limits(width, height, path, words.line)
    rows = [words.clue("row", index) for index in range(height)]
    columns = [words.clue("column", index) for index in range(width)]
    extra = next(words.words, None)
    if extra is not None:
        raise ParseError(path, extra[0], f"expected the end of the file after {width} column clues, found {extra[1]!r}")
    return make_puzzle(path, first_line, rows=rows, columns=columns, source=path)


def looks_like_pycsp3_text(lines: list[str]) -> bool:
    """Whether stripped lines are `R C` and then R + C lines, each its count and its blocks."""
    rows = [line.split() for line in lines if line]
    if not rows or not all(_WHOLE_NUMBER.fullmatch(word) for row in rows for word in row):
        return False
    if len(rows[0]) == 2:
        height, width = map(int, rows[0])
        body = rows[1:]
        if len(body) == height + width and all(int(row[0]) == len(row) - 1 for row in body):
            return True
    return _a_stream_of_clues(lines)


def _a_stream_of_clues(lines: list[str]) -> bool:
    """Whether the numbers of stripped lines, wherever the line breaks fall (PyCSP3's parser reads
    a number at a time: a review found a file with each count on a line of its own read as a
    clue list, and refused), are `R C` and then R + C count-prefixed clues to the last number,
    the rows filling as many cells as the columns; and the lines are not a clue list whose rows
    and columns fill as many cells as each other (rows, a blank line, columns)."""
    words = [word for line in lines for word in line.split()]
    if len(words) < 2 or len(words) > MOST_NUMBERS or not all(_WHOLE_NUMBER.fullmatch(word) for word in words):
        return False
    numbers = [int(word) for word in words]
    height, width = numbers[0], numbers[1]
    if not (1 <= height <= MAX_SIDE and 1 <= width <= MAX_SIDE):
        return False
    at, filled = 2, [0, 0]
    for index in range(height + width):
        if at >= len(numbers) or at + numbers[at] >= len(numbers):
            return False
        filled[index >= height] += sum(numbers[at + 1 : at + 1 + numbers[at]])
        at += 1 + numbers[at]
    if at != len(numbers) or filled[0] != filled[1]:
        return False
    return not _another_reading(lines)


def _another_reading(lines: list[str]) -> bool:
    """Whether stripped lines of whole numbers read as a clue list (rows, a blank line, columns)
    or as nin (`W H`, H rows, W columns, no blank line), their rows filling as many cells as
    their columns: the line-by-line formats come first where a stream of numbers could be both."""
    groups = [group for group in "\n".join(lines).split("\n\n") if group.strip()]
    sums = [sum(int(word) for word in group.split()) for group in groups]
    if len(sums) == 2 and sums[0] == sums[1]:
        return True
    body = [line.split() for line in lines[1:] if line]
    size = lines[0].split()
    if "" in lines or len(size) != 2 or len(body) != int(size[0]) + int(size[1]):
        return False
    height = int(size[1])
    rows, columns = (sum(int(word) for line in side for word in line) for side in (body[:height], body[height:]))
    return rows == columns
