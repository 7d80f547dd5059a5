"""Reference CNFs of tiny lines: build them, write them as DIMACS, read them back.

The files live in encodings/reference/<encoding>/<clue>_<cells>.cnf, for instance
`blocks/2-1_uuuuu.cnf` is clue "2 1" on five unknown cells (u unknown, f filled, e empty).
Cell i, counted from 0, is variable i + 1; auxiliary variables follow, numbered in the order the
encoder first asks the pool for them. After a deliberate change to an encoding, rewrite the files
with `python tests/reference_cnf.py` and check the diff by hand against encodings/<encoding>.md;
tests/test_encodings_specs.py fails while the files and the encoders disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pysat.formula import IDPool

from nonosat.model import Clue, clue_text
from nonosat.solver.encodings import ENCODINGS, Clause, Line, Literal
from nonosat.solver.propagation import alive_states, automaton

REFERENCE = Path(__file__).resolve().parent.parent / "encodings" / "reference"

Pattern = str
"""A line's known cells: `?` unknown, `#` filled, `.` empty."""

LINES: list[tuple[Clue, Pattern]] = [
    ((1,), "???"),
    ((2, 1), "?????"),
    ((), "???"),
    ((3,), "?#??"),
    ((1, 1), "?????"),
    ((1, 1), "??#??"),
    ((1, 2), "?.????"),
]
"""The tiny lines that have a reference CNF in every encoding."""

_FILE_LETTERS = {"?": "u", "#": "f", ".": "e"}


def known_masks(pattern: Pattern) -> tuple[int, int]:
    """The (filled, empty) bitmasks of a pattern's known cells."""
    filled = sum(1 << i for i, mark in enumerate(pattern) if mark == "#")
    empty = sum(1 << i for i, mark in enumerate(pattern) if mark == ".")
    return filled, empty


def cell_literals(pattern: Pattern) -> list[Literal]:
    """Variable i + 1 for unknown cell i, and True/False for a known one."""
    return [{"#": True, ".": False}.get(mark, i + 1) for i, mark in enumerate(pattern)]


def make_line(clue: Clue, pattern: Pattern) -> Line:
    """The line to encode; raises `Contradiction` when the known cells admit no completion."""
    alive = alive_states(clue, len(pattern), *known_masks(pattern))
    return Line(("line", 0), clue, cell_literals(pattern), alive)


def encode_line(encoding: str, clue: Clue, pattern: Pattern) -> tuple[list[Clause], IDPool]:
    """The clauses of one line, auxiliary variables numbered from len(pattern) + 1."""
    pool = IDPool(start_from=len(pattern) + 1)
    return ENCODINGS[encoding](make_line(clue, pattern), pool), pool


def state_name(clue: Clue, state: int) -> str:
    """Name an automaton state as encodings/automaton.md does: Z0, B0.0, B0.1, Z1, B1.0, ...

    Zj is the gap before block j (Zk the one after the last block); Bj.o reads cell o of block j.
    """
    a = automaton(clue)
    if not (a.ones >> state) & 1:
        return f"Z{sum(a.block_start(j) < state for j in range(len(clue)))}"
    block = max(j for j in range(len(clue)) if a.block_start(j) <= state)
    return f"B{block}.{state - a.block_start(block)}"


def describe(encoding: str, clue: Clue, key: tuple[object, ...]) -> str:
    """What an auxiliary variable means, from its pool key."""
    _, first, second = key
    assert isinstance(first, int) and isinstance(second, int)
    if encoding == "automaton":
        return f"q[{first},{second}]: after cell {first} the automaton is in {state_name(clue, second)}"
    return f"s[{first},{second}]: block {first} starts at cell {second} or later"


def file_name(clue: Clue, pattern: Pattern) -> str:
    """`2-1_uuuuu.cnf` for clue "2 1" on five unknown cells."""
    letters = "".join(_FILE_LETTERS[mark] for mark in pattern)
    return f"{'-'.join(map(str, clue)) or '0'}_{letters}.cnf"


def dimacs(encoding: str, clue: Clue, pattern: Pattern) -> str:
    """The reference file's text: header comments, then the clauses as the encoder emits them."""
    clauses, pool = encode_line(encoding, clue, pattern)
    n = len(pattern)
    variables = max(n, pool.top)
    lines = [
        "c nonosat reference CNF",
        f"c encoding: {encoding}",
        f"c clue: {clue_text(clue)}",
        f"c length: {n}",
        f"c known: {pattern}",
        "c (known: ? unknown, # filled, . empty; a known cell is a constant and its variable is unused)",
        f"c cells: cell i, counted from 0, is variable i + 1 (1..{n}); true means filled",
    ]
    lines += [f"c {pool.obj2id[key]} = {describe(encoding, clue, key)}" for key in pool.obj2id]
    lines.append(f"p cnf {variables} {len(clauses)}")
    lines += [" ".join(map(str, clause + [0])) for clause in clauses]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Reference:
    """A reference file read back: the line it encodes and its clauses."""

    encoding: str
    clue: Clue
    pattern: Pattern
    variables: int
    clauses: list[Clause]


def read_reference(path: Path) -> Reference:
    """Parse a reference file's header comments and clauses."""
    header: dict[str, str] = {}
    clauses: list[Clause] = []
    variables = count = -1
    for text in path.read_text().splitlines():
        if text.startswith("c "):
            name, colon, value = text[2:].partition(": ")
            if colon and name in ("encoding", "clue", "length", "known"):
                header[name] = value
        elif text.startswith("p cnf "):
            variables, count = map(int, text.split()[2:])
        elif text.strip():
            literals = list(map(int, text.split()))
            assert literals[-1] == 0, f"{path}: clause not ended by 0: {text!r}"
            clauses.append(literals[:-1])
    assert count == len(clauses), f"{path}: header says {count} clauses, file has {len(clauses)}"
    clue = tuple(int(c) for c in header["clue"].split() if c != "0")
    assert len(header["known"]) == int(header["length"]), f"{path}: known cells and length differ"
    return Reference(header["encoding"], clue, header["known"], variables, clauses)


def write_all(folder: Path = REFERENCE) -> list[Path]:
    """Write every reference file; returns the paths written."""
    written = []
    for encoding in sorted(ENCODINGS):
        (folder / encoding).mkdir(parents=True, exist_ok=True)
        for clue, pattern in LINES:
            path = folder / encoding / file_name(clue, pattern)
            path.write_text(dimacs(encoding, clue, pattern))
            written.append(path)
    return written


if __name__ == "__main__":
    for written in write_all():
        print(written)
