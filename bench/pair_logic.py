"""Line logic over pairs of neighbouring lines, measured (issue 40's last untried lead):

    python -m bench.pair_logic                          # the far tail's puzzles, from the root
    python -m bench.pair_logic --puzzles 3263:1,3263:2 --reveal 50 --trials 3

Line logic reads one line at a time, and is complete for it: two lines that cross share one
cell, so a pair of crossing lines teaches nothing more. Two neighbouring rows share no cell,
but every column holds one cell of each, and its clue (with its known cells) allows only some
of the four values of that pair of cells. Pair logic solves the two rows together under those
allowances: a walk over the columns through both rows' automata at once (a state a pair of
states), forward and back as `alive_states` walks one line, keeps the values each cell takes in
some completion of both rows; a cell left with one value is fixed. Columns are paired alike.
Every cell it fixes is fixed in every grid of the puzzle (tests/test_bench_pair_logic.py checks
it against brute force).

For each puzzle (`seed:index` of bench/fresh_tournament.py's sets) it prints the cells known
after line logic, and after pair logic and line logic to a fixed point together; with
`--reveal K`, K cells of a solution are first set at random (as a search's decisions would
set them; `--trials` draws), to see what each finds deeper in a search than the root. Pure
Python, about a second a pass over a 25x25 grid: a measure of reach, not of speed.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Sequence

from bench.far_tail import far_tail_puzzles
from nonosat import solve
from nonosat.model import Clue
from nonosat.solver.board import Board
from nonosat.solver.line_logic import Automaton, Contradiction, automaton, settle_line
from nonosat.solver.propagation import line_solve, propagate

Cells = list[int]
"""A line's or grid row's cells: 1 filled, 0 empty, -1 open."""

FAR_TAIL = ("3271:671", "3173:705", "3147:835", "4112:354")
"""Fresh puzzles whose race took 7-14 s (bench/README.md, issue 40): line logic finds 0-10 cells."""


def fits(clue: Clue, cells: Cells) -> bool:
    """Whether a line's known cells admit a completion under its clue."""
    filled = sum(1 << i for i, value in enumerate(cells) if value == 1)
    empty = sum(1 << i for i, value in enumerate(cells) if value == 0)
    try:
        settle_line(clue, len(cells), filled, empty)
    except Contradiction:
        return False
    return True


def _step(a: Automaton, state: int, value: int) -> list[int]:
    """The states one state of a clue's automaton goes to on reading a cell of `value`."""
    moved = ((1 << state) << 1 | ((1 << state) & a.zeros)) & (a.ones if value else a.zeros)
    return [s for s in range(moved.bit_length()) if moved >> s & 1]


def allowed_pairs(clue: Clue, line: Cells, at: int) -> list[tuple[int, int]]:
    """The values of cells `at` and `at + 1` of a crossing line that its clue allows, with its
    other known cells."""
    pairs = []
    for first in (0, 1):
        for second in (0, 1):
            if line[at] in (-1, first) and line[at + 1] in (-1, second):
                tried = list(line)
                tried[at], tried[at + 1] = first, second
                if fits(clue, tried):
                    pairs.append((first, second))
    return pairs


def settle_pair(first: Clue, second: Clue, allowed: Sequence[Sequence[tuple[int, int]]]) -> tuple[Cells, Cells]:
    """Two neighbouring lines solved together, cell k of each taking a pair of values from
    `allowed[k]`: each line's cells, 1 or 0 where every completion of both agrees, -1 elsewhere.
    Raises `Contradiction` when no completion of both exists."""
    a, b = automaton(first), automaton(second)
    reached: list[set[tuple[int, int]]] = [{(0, 0)}]
    for pairs in allowed:
        reached.append(
            {(x, y) for s, t in reached[-1] for u, v in pairs for x in _step(a, s, u) for y in _step(b, t, v)}
        )
    alive = {(x, y) for x, y in reached[-1] if a.accept >> x & 1 and b.accept >> y & 1}
    if not alive:
        raise Contradiction
    taken: list[set[tuple[int, int]]] = [set() for _ in allowed]
    for k in range(len(allowed) - 1, -1, -1):
        before = set()
        for s, t in reached[k]:
            for u, v in allowed[k]:
                if any((x, y) in alive for x in _step(a, s, u) for y in _step(b, t, v)):
                    before.add((s, t))
                    taken[k].add((u, v))
        alive = before
    one = [next(iter(values)) if len(values := {u for u, _ in pairs}) == 1 else -1 for pairs in taken]
    two = [next(iter(values)) if len(values := {v for _, v in pairs}) == 1 else -1 for pairs in taken]
    return one, two


def _pairs_once(clues: Sequence[Clue], crossing: Sequence[Clue], grid: list[Cells]) -> dict[tuple[int, int], int]:
    """Each pair of neighbouring rows of `grid` (lines of `clues`, crossed by lines of
    `crossing`): the open cells it fixes, by (row, cell)."""
    fixed: dict[tuple[int, int], int] = {}
    for r in range(len(clues) - 1):
        allowed = [allowed_pairs(clue, [row[k] for row in grid], r) for k, clue in enumerate(crossing)]
        for row, cells in zip((r, r + 1), settle_pair(clues[r], clues[r + 1], allowed), strict=True):
            fixed.update({(row, k): value for k, value in enumerate(cells) if value >= 0 and grid[row][k] < 0})
    return fixed


def cells_of(board: Board) -> list[Cells]:
    """The board's cells as rows of 1, 0 and -1 (open)."""
    return [
        [-1 if (value := board.cell(r, c)) is None else value for c in range(board.width)] for r in range(board.height)
    ]


def pair_logic(board: Board) -> tuple[Board, int]:
    """Pair logic over rows and over columns, with line logic (`propagate`), to a fixed point:
    the board, and the rounds of pair logic that fixed something. Raises `Contradiction`."""
    board, rounds = propagate(board), 0
    while True:
        grid = cells_of(board)
        fixed = _pairs_once(board.puzzle.rows, board.puzzle.columns, grid)
        turned = [list(column) for column in zip(*grid, strict=True)]
        fixed.update({(r, c): v for (c, r), v in _pairs_once(board.puzzle.columns, board.puzzle.rows, turned).items()})
        if not fixed:
            return board, rounds
        rounds += 1
        for (r, c), value in fixed.items():
            board.set_cell(r, c, value)
        board = propagate(board)


def known(board: Board) -> int:
    return board.height * board.width - board.unknown_count()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", default=",".join(FAR_TAIL), help="seed:index, comma-separated")
    parser.add_argument("--reveal", type=int, default=0, help="cells of a solution set first, at random")
    parser.add_argument("--trials", type=int, default=1, help="random draws of the revealed cells")
    args = parser.parse_args(argv)
    keys = [key.strip() for key in args.puzzles.split(",")]
    if not all(re.fullmatch(r"\d+:\d+", key) and 1 <= int(key.partition(":")[2]) <= 1000 for key in keys):
        parser.error(f"--puzzles: expected seed:index pairs, index 1-1000, comma-separated; not {args.puzzles!r}")
    if not 0 <= args.reveal <= 625 or args.trials < 1:
        parser.error("--reveal is 0-625 cells, --trials at least 1")
    pairs = [tuple(int(part) for part in key.split(":")) for key in keys]
    puzzles = far_tail_puzzles([(seed, index - 1) for seed, index in pairs])  # each seed's set drawn once
    totals = [0, 0]
    for key, puzzle in zip(keys, puzzles, strict=True):
        solution = solve(puzzle, count=1, jobs=1).solutions[0].grid if args.reveal else None
        rng = random.Random(f"{key} {args.reveal}")
        for trial in range(args.trials):
            board = line_solve(puzzle)
            if solution is not None:
                spots = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
                for r, c in rng.sample(spots, args.reveal):
                    board.set_cell(r, c, solution[r][c])
                board = propagate(board)
            by_lines = known(board)
            board, rounds = pair_logic(board)
            with_pairs = known(board)
            totals[0] += by_lines
            totals[1] += with_pairs
            print(f"{key} #{trial + 1}: line logic {by_lines} cells, with pair logic {with_pairs} ({rounds} rounds)")
    print(f"in all: line logic {totals[0]} cells, with pair logic {totals[1]}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
