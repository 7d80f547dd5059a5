"""The computer-olympiad tournament format (TAAI / TCGA / ICGA): many square puzzles per file.

Each puzzle starts with a line `$N`, followed by its column clues and then its row clues, one
per line, numbers separated by tabs; an empty line (or `0`) is an empty clue. A puzzle of size
n has 2n clue lines, so the size is read from the file, not assumed. Solution files use the
same `$N` headers, each followed by the grid's rows of tab-separated 0 and 1.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from nonosat.errors import ParseError, UsageError
from nonosat.formats.common import PathName, has_breaks, make_puzzle, parse_clue, refuse_odd_clue, split_lines
from nonosat.formats.guard import guarded
from nonosat.limits import MAX_CELLS, MAX_SIDE
from nonosat.model import Clue, Grid, Puzzle

CLUE_SHAPE = "a clue of whole numbers separated by tabs"
MOST_LINES = 2 * min(MAX_SIDE, math.isqrt(MAX_CELLS))
"""The most clue lines of an entry: a square puzzle within the limits (512x512)."""
_HEADER = re.compile(r"\$([0-9]+)")


@dataclass(frozen=True)
class Block:
    """The lines of one `$N` entry: its number, the header's line number, and its body."""

    number: int
    line: int
    body: list[tuple[int, str]]
    following: int | None = None
    """The number of the entry after it, if any."""


def read_blocks(text: str, path: PathName) -> list[Block]:
    """Split a tournament file into its `$N` entries, in file order."""
    blocks: list[Block] = []
    odd = has_breaks(text)  # (each line looked at only then: 8% of reading the corpus sets, a review)
    for line_number, line in enumerate(split_lines(text), start=1):
        header = _HEADER.fullmatch(line.strip())
        if header:
            if blocks:
                blocks[-1] = replace(blocks[-1], following=int(header.group(1)))
            blocks.append(Block(int(header.group(1)), line_number, []))
        elif blocks:
            body = blocks[-1].body
            if len(body) >= MOST_LINES and not line.strip():
                continue  # blank lines past the most an entry can hold end it (a million took minutes)
            if len(body) >= MOST_LINES:  # refused before it is read (a fuzz review:
                side = MOST_LINES // 2  # 10 MB of one entry was read for 44 s, and took 1 GB)
                raise ParseError(
                    path,
                    line_number,
                    f"expected puzzle ${blocks[-1].number} to end within {MOST_LINES} clue lines"
                    f" ({side}x{side}, the largest square the limits allow), found more",
                )
            if odd:
                refuse_odd_clue(line, path, line_number, CLUE_SHAPE)  # two clues as one (`2\f2 1`), before the count
            body.append((line_number, line))
        elif line.strip():
            raise ParseError(path, line_number, f"expected a puzzle header like '$1', found {line.strip()!r}")
    if not blocks:
        raise ParseError(path, None, "expected a puzzle header like '$1', found none")
    check_unique(blocks, path)
    return blocks


def check_unique(blocks: Sequence[Block], path: PathName) -> None:
    """Refuse a file that numbers two entries alike."""
    seen: set[int] = set()
    for block in blocks:
        if block.number in seen:
            raise ParseError(path, block.line, f"found a second puzzle ${block.number}")
        seen.add(block.number)


def sizes_allowed(body: list[tuple[int, str]]) -> range:
    """The sizes n an entry's 2n clue lines allow: blank lines at its end may be empty clues of
    its last rows, or padding before the next `$` or the end of the file."""
    filled = len(body)
    while filled and not body[filled - 1][1].strip():
        filled -= 1
    return range((filled + 1) // 2, len(body) // 2 + 1)


def choose_size(body: list[tuple[int, str]], clues: list[Clue], sizes: range, usual: int | None) -> int:
    """The size of an entry whose trailing blank lines leave a choice.

    The file's usual size comes first, if it is allowed. Then the sizes are tried in the order
    the entry's own empty clues suggest: where it writes them as `0` (as nonosat does), blank
    lines at its end are padding and the smallest size comes first; where it writes them as
    blank lines, or has none, the size that reads every line comes first. The first size whose
    row and column clues fill the same number of cells wins (a clue list read one line off almost
    never does); when none does, the smallest.
    """
    inside = [line.strip() for _, line in body[: 2 * sizes[0]]]
    padded = "0" in inside and "" not in inside
    order = list(sizes if padded else reversed(sizes))
    if usual is not None and usual % 2 == 0 and usual // 2 in sizes:
        order.insert(0, usual // 2)
    for size in order:
        if sum(map(sum, clues[:size])) == sum(map(sum, clues[size : 2 * size])):
            return size
    return sizes[0]


def usual_length(blocks: Sequence[Block]) -> int | None:
    """The most common number of lines in an entry, when the file has more than one (the
    shortest of the most common: two entries, one of them two merged, make a tie)."""
    if len(blocks) < 2:
        return None
    counts = Counter(len(block.body) for block in blocks).most_common()
    return min(length for length, count in counts if count == counts[0][1])


def block_puzzle(block: Block, usual: int | None, path: PathName, last: LastEntry | None = None) -> Puzzle:
    """Read the puzzle of one `$N` entry: n column clues, then n row clues. `last`, for the last
    entry of a file: one that cannot be a puzzle as read (its rows and columns fill different
    numbers of cells, or a clue is longer than its line) where it is smaller than the others, or
    where the file ends inside its last line (cut by bytes), is a file cut short, refused (read, it
    would get a verdict of its own: "none"). A smaller last puzzle that can be is read."""
    sizes = sizes_allowed(block.body)
    if not sizes or sizes[-1] < 1:
        raise ParseError(
            path,
            block.line,
            f"expected puzzle ${block.number} to have as many row clues as column clues, "
            f"found {len(block.body)} clue {'line' if len(block.body) == 1 else 'lines'}",
        )
    body = block.body[: 2 * sizes[-1]]
    clues = [parse_clue(line, None, path, number, CLUE_SHAPE) for number, line in body]
    refuse_if_two(block, clues, usual, path)
    size = choose_size(body, clues, sizes, usual)
    columns, rows = clues[:size], clues[size : 2 * size]
    if last is not None:
        last.refuse_if_cut(block, columns, rows, size, path)
    return make_puzzle(
        path,
        block.line,
        columns=columns,
        rows=rows,
        source=numbered_source(path, block.number),  # (no title: `#N` was written as one by every
        # format that holds one, and counted as dropped by the tournament's own)
        catalogue=str(block.number),  # its number in the set, written back as `$N` (it came out `$1`)
    )


def refuse_if_two(block: Block, clues: list[Clue], usual: int | None, path: PathName) -> None:
    """Refuse an entry of at least twice the file's usual number of lines, followed by an entry
    numbered more than one after it (the ones between missing), whose first two runs of that many lines each read as a
    puzzle of the usual size: two puzzles with the `$N` between them lost (a fuzz review: tcga's
    $1 and $2 read as one 50x50 puzzle, `multiple`). Numbered in order, it is a larger puzzle (a
    diff's review: a file nonosat wrote of a 2x2 and a 4x4 puzzle was refused)."""
    skipped = block.following is not None and block.following > block.number + 1
    if not skipped or usual is None:
        return
    for padding in range(min(usual, 3) + 1):  # the usual entry's blank lines after its puzzle (a fuzz
        size, odd = divmod(usual - padding, 2)  # review: with one, the check was skipped)
        first = clues[: 2 * size]
        if odd or size < 1 or len(clues) < 4 * size + padding or not _could_be(first[:size], first[size:], size):
            continue
        for start in range(2 * size, 2 * size + padding + 1):
            second = clues[start : start + 2 * size]
            if _could_be(second[:size], second[size:], size):
                raise ParseError(
                    path,
                    block.body[start][0],
                    f"expected a header like '${block.number + 1}' before this line: puzzle ${block.number} has"
                    f" {len(block.body)} clue lines where the others in the file have {usual},"
                    " and they read as two puzzles",
                )


def numbered_source(path: PathName, number: int) -> str | None:
    """Name one puzzle of a file as `FILE#N`."""
    return f"{path}#{number}" if path is not None else None


def _could_be(columns: list[Clue], rows: list[Clue], size: int) -> bool:
    """Whether clues read as a size x size puzzle could be one: rows and columns fill as many
    cells, and every clue fits its line."""
    fits = all(sum(clue) + len(clue) - 1 <= size for clue in (*columns, *rows) if clue)
    return fits and sum(map(sum, columns)) == sum(map(sum, rows))


@dataclass(frozen=True)
class LastEntry:
    """What tells a file's last entry cut short: the smallest size another entry's lines allow
    (blank lines at an entry's end may be padding; None without others), and whether the file
    ends inside a line (no line break after its last characters)."""

    others: int | None
    mid_line: bool

    def refuse_if_cut(self, block: Block, columns: list[Clue], rows: list[Clue], size: int, path: PathName) -> None:
        """Raise ParseError when the entry read as `size` x `size` looks cut short (see
        `block_puzzle`)."""
        if _could_be(columns, rows, size):
            return
        where = block.body[-1][0]
        if self.others is not None and size < self.others:
            raise ParseError(
                path,
                where,
                f"expected puzzle ${block.number} to have {2 * self.others} clue lines as the others in the file do,"
                f" found {len(block.body)}, which are no puzzle: is the file cut short?",
            )
        if self.mid_line:
            raise ParseError(
                path,
                where,
                f"expected puzzle ${block.number}'s last line to end with a line break, found the file ending inside"
                " it and clues that are no puzzle: is the file cut short?",
            )


def last_entry(blocks: Sequence[Block], block: Block, text: str) -> LastEntry | None:
    """`LastEntry` for the file's last entry, None for the others."""
    if block is not blocks[-1]:
        return None
    sizes = [allowed[0] for allowed in (sizes_allowed(other.body) for other in blocks[:-1]) if allowed]
    return LastEntry(min(sizes) if sizes else None, not text.rstrip(" \t").endswith(("\n", "\r")))


def load_tournament_all(text: str, path: PathName = None) -> list[Puzzle]:
    """Read every puzzle of a tournament file, in file order."""
    blocks = read_blocks(text, path)
    usual = usual_length(blocks)
    return [block_puzzle(block, usual, path, last_entry(blocks, block, text)) for block in blocks]


def load_tournament_each(text: str, path: PathName = None) -> list[tuple[int, Puzzle | ParseError]]:
    """Every puzzle of a tournament file by its `$N`, in file order, with a puzzle's own fault in
    its place (a batch run keeps the others: one bad clue made 999 puzzles one error)."""
    # (whatever goes wrong in a puzzle is its ParseError: a number of 5,000 digits raised
    # ValueError, which ended a batch run; the diff's review)

    blocks = read_blocks(text, path)
    usual = usual_length(blocks)
    each: list[tuple[int, Puzzle | ParseError]] = []
    for block in blocks:
        read = functools.partial(block_puzzle, block, usual, path, last_entry(blocks, block, text))
        try:
            each.append((block.number, guarded(read, path, None, text)))
        except ParseError as error:
            each.append((block.number, error))
    return each


def select_block(blocks: Sequence[Block], number: int | None, path: PathName) -> Block:
    """The entry `$number`, or the only entry when no number is given."""
    if number is None:
        if len(blocks) == 1:
            return blocks[0]
        raise ParseError(
            path,
            None,
            f"the file holds {len(blocks)} puzzles; select one {{select}}",
            select=f"as FILE#N, e.g. {path or 'FILE'}#{blocks[0].number}",
        )
    for block in blocks:
        if block.number == number:
            return block
    raise ParseError(path, None, f"there is no puzzle ${number} (the file holds {held_numbers(blocks)})")


def held_numbers(blocks: Sequence[Block]) -> str:
    """The numbers of a file's entries, for a message: "$1 to $1000", "$7, $9 and $12", or the
    range with how many are missing from it ("$7 to $12" was said of a file without $8)."""
    numbers = sorted({block.number for block in blocks})
    first, last = numbers[0], numbers[-1]
    if last - first + 1 == len(numbers):
        return f"${first}" if first == last else f"${first} to ${last}"
    if len(numbers) <= 6:
        return ", ".join(f"${n}" for n in numbers[:-1]) + f" and ${last}"
    return f"${first} to ${last}, {last - first + 1 - len(numbers)} of them missing"


def holds_catalogue(catalogue: str | None) -> bool:
    """Whether a puzzle's catalogue entry can be its `$N` in a tournament file: a whole number from 1,
    written as it reads back (`007` would come back `7`)."""
    if catalogue is None or not (catalogue.isascii() and catalogue.isdigit()):
        return False
    return catalogue == str(int(catalogue)) and int(catalogue) > 0


def load_tournament(text: str, path: PathName = None, number: int | None = None) -> Puzzle:
    """Read puzzle `$number` of a tournament file (no number: the file must hold exactly one)."""
    blocks = read_blocks(text, path)
    block = select_block(blocks, number, path)
    return block_puzzle(block, usual_length(blocks), path, last_entry(blocks, block, text))


def kept_catalogue(puzzle: Puzzle) -> frozenset[str]:
    """The catalogue entry, when it is written as the puzzle's `$N` (`Format.keeps_of`)."""
    return frozenset({"catalogue"}) if holds_catalogue(puzzle.catalogue) else frozenset()


def dump_tournament(puzzles: Sequence[Puzzle]) -> str:
    """Write square puzzles as a tournament file, each numbered by its catalogue entry when every
    one is a different whole number (a tournament file's own `$N`, as read), else $1, $2, ... in
    order."""
    lines: list[str] = []
    own = [int(p.catalogue) for p in puzzles if p.catalogue is not None and holds_catalogue(p.catalogue)]
    numbers = own if len(own) == len(puzzles) == len(set(own)) else list(range(1, len(puzzles) + 1))
    for number, puzzle in zip(numbers, puzzles, strict=True):
        if puzzle.width != puzzle.height:
            raise UsageError(
                f"the tournament format holds only square puzzles; {puzzle.name} is {puzzle.width}x{puzzle.height}"
            )
        lines += [f"${number}", *tab_clues(puzzle.columns), *tab_clues(puzzle.rows)]
    return "\n".join(lines) + "\n"


def tab_clues(clues: Sequence[Clue]) -> list[str]:
    """Clues as tab-separated lines, an empty clue as `0`: the tournaments write it as an empty
    line, which blank lines added at the end of a file would make ambiguous."""
    return ["\t".join(map(str, clue)) or "0" for clue in clues]


def solution_row(line: str, number: int, path: PathName) -> tuple[int, ...]:
    """Read one grid row of tab-separated 0 and 1."""
    cells = line.split()
    for cell in cells:
        if cell not in ("0", "1"):
            raise ParseError(path, number, f"expected a row of 0 and 1 separated by tabs, found {cell!r}")
    return tuple(int(cell) for cell in cells)


def block_grid(block: Block, path: PathName) -> Grid:
    """Read the solution grid of one `$N` entry."""
    lines = [(number, line) for number, line in block.body if line.strip()]
    rows = [solution_row(line, number, path) for number, line in lines]
    if not rows:
        raise ParseError(path, block.line, f"expected the grid of ${block.number}, found no rows")
    for (number, _), row in zip(lines, rows, strict=True):
        if len(row) != len(rows[0]):
            raise ParseError(path, number, f"expected {len(rows[0])} cells like the first row, found {len(row)}")
    return tuple(rows)


def load_tournament_solutions(text: str, path: PathName = None) -> dict[int, Grid]:
    """Read a tournament solution file: each `$N` with its grid."""
    return {block.number: block_grid(block, path) for block in read_blocks(text, path)}
