"""The compiled line logic for any palette and any size (nonosat/core/colour_logic.c) against
brute force (every line of up to 8 cells in 2 colours, 7 in 3) and against the Python line logic
it replaces (line_logic.settle_colour_line, propagation.propagate with compiled=False): the same
cells ruled out, the same passes, the same line found in contradiction."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest

from nonosat.deadline import Deadline
from nonosat.errors import TimeUp
from nonosat.formats import load, load_all
from nonosat.model import Clue, Colours, Puzzle, runs_of
from nonosat.palette import BLACK_AND_WHITE, Colour, Palette
from nonosat.solver import propagation
from nonosat.solver.compiled import colour_core
from nonosat.solver.line_logic import Contradiction, settle_colour_line

core = colour_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core was not built")

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
RED, GREEN = Colour("red", "#ff0000", "r"), Colour("green", "#00ff00", "g")
PALETTES: dict[int, Palette] = {1: BLACK_AND_WHITE, 2: (*BLACK_AND_WHITE, RED), 3: (*BLACK_AND_WHITE, RED, GREEN)}

Line = tuple[int, ...]
Excluded = tuple[int, ...]


def compiled_settle(clue: Clue, colours: Colours, length: int, excluded: Excluded) -> Excluded | None:
    size = (length + 7) // 8
    assert core is not None
    out = core.settle_colours(clue, colours, length, [mask.to_bytes(size, "little") for mask in excluded])
    return None if out is None else tuple(int.from_bytes(data, "little") for data in out)


def python_settle(clue: Clue, colours: Colours, length: int, excluded: Excluded) -> Excluded | None:
    try:
        settled = settle_colour_line(clue, colours, length, excluded)
    except Contradiction:
        return None
    return tuple(mask & ((1 << length) - 1) for mask in settled)


def brute_settle(lines: list[Line], palette: int, length: int, excluded: Excluded) -> Excluded | None:
    """From every line of the clue, those the exclusions allow: each colour's cells that none has."""
    fitting = [line for line in lines if not any(excluded[value] >> i & 1 for i, value in enumerate(line))]
    if not fitting:
        return None
    return tuple(
        sum(1 << i for i in range(length) if all(line[i] != colour for line in fitting))
        for colour in range(palette + 1)
    )


def lines_by_clue(length: int, palette: int) -> dict[tuple[Clue, Colours], list[Line]]:
    found: dict[tuple[Clue, Colours], list[Line]] = defaultdict(list)
    for line in product(range(palette + 1), repeat=length):
        found[runs_of(line)].append(line)
    return found


def exclusions(rng: random.Random, lines: list[Line], palette: int, length: int) -> list[Excluded]:
    """Nothing known; one of the clue's own lines partly known; colours ruled out at random
    (which may leave no completion)."""
    chosen = rng.choice(lines)
    partly = [0] * (palette + 1)
    for i, value in enumerate(chosen):
        if rng.random() < 0.4:
            for colour in range(palette + 1):
                if colour != value:
                    partly[colour] |= 1 << i
    scattered = [0] * (palette + 1)
    for i in range(length):
        kept = rng.randrange(palette + 1)
        for colour in range(palette + 1):
            if colour != kept and rng.random() < 0.35:
                scattered[colour] |= 1 << i
    return [(0,) * (palette + 1), tuple(partly), tuple(scattered)]


@pytest.mark.parametrize(("palette", "longest"), [(1, 9), (2, 8), (3, 6), pytest.param(3, 7, marks=pytest.mark.slow)])
def test_every_short_line_settles_as_brute_force_says(palette: int, longest: int) -> None:
    rng = random.Random(palette)
    checked = 0
    for length in range(1, longest + 1):
        for (clue, colours), lines in lines_by_clue(length, palette).items():
            for excluded in exclusions(rng, lines, palette, length):
                expected = brute_settle(lines, palette, length, excluded)
                assert compiled_settle(clue, colours, length, excluded) == expected, (clue, colours, excluded)
                assert python_settle(clue, colours, length, excluded) == expected, (clue, colours, excluded)
                checked += 1
    assert checked > 3 * 200


def test_a_clue_that_cannot_fit_has_no_completion() -> None:
    assert compiled_settle((3, 2), (1, 1), 5, (0, 0)) is None  # 3 + gap + 2 = 6 cells
    assert compiled_settle((3, 2), (1, 2), 5, (0, 0, 0)) == (0b11111, 0b11000, 0b00111)  # colours may touch
    assert compiled_settle((1,) * 9, (1,) * 9, 8, (0, 0)) is None  # more blocks than cells


def boards_agree(puzzle: Puzzle) -> None:
    """Line logic from an empty board, compiled and in Python: the same board, passes and end."""
    ends = []
    for compiled in (True, False):
        board = propagation.Board(puzzle)
        try:
            propagation.propagate(board, compiled=compiled)
            bad = None
        except Contradiction as error:
            bad = error.args
        ends.append((board.row_not, board.col_not, board.passes, bad))
    assert ends[0] == ends[1]


def random_puzzle(rng: random.Random, height: int, width: int, palette: int, fill: float) -> Puzzle:
    grid = [[rng.randint(1, palette) if rng.random() < fill else 0 for _ in range(width)] for _ in range(height)]
    return Puzzle.from_grid(grid, palette=PALETTES[palette])


@pytest.mark.parametrize("name", ["ring-colour.non", "number-loom-take-two.xml", "webpbn-06574-forever.non"])
def test_the_samples_propagate_as_in_python(name: str) -> None:
    boards_agree(load(PUZZLES / name))


@pytest.mark.parametrize("palette", [1, 2, 3])
def test_random_grids_propagate_as_in_python(palette: int) -> None:
    rng = random.Random(palette)
    for height, width, fill in [(12, 15, 0.6), (20, 9, 0.5), (9, 30, 0.75)]:
        boards_agree(random_puzzle(rng, height, width, palette, fill))


def test_clues_that_contradict_stop_at_the_same_line() -> None:
    rng = random.Random(7)
    for palette in (1, 2):
        for _ in range(20):
            puzzle = random_puzzle(rng, 8, 8, palette, 0.6)
            rows = list(puzzle.rows)
            rows[rng.randrange(8)] = (1,) * 4  # four blocks: in most grids the totals now break a column
            changed = Puzzle(
                tuple(rows),
                puzzle.columns,
                palette=puzzle.palette,
                row_colours=None if palette == 1 else tuple((1,) * len(row) for row in rows),
                column_colours=puzzle.column_colours,
            )
            boards_agree(changed)


@pytest.mark.slow
def test_grids_past_the_word_sized_core_propagate_as_in_python() -> None:
    """Black and white over 126 cells a side, which only this core takes, and a colour grid of 127."""
    rng = random.Random(127)
    boards_agree(random_puzzle(rng, 127, 130, 1, 0.7))
    boards_agree(random_puzzle(rng, 127, 127, 3, 0.8))


@pytest.mark.slow
def test_every_colour_puzzle_of_the_corpus_propagates_as_in_python(corpus: Path) -> None:
    files = sorted(path for path in (corpus / "colour").rglob("*") if path.is_file() and path.suffix != ".md")
    checked = 0
    for path in files:
        try:
            puzzles = load_all(path)
        except Exception:  # noqa: BLE001 - licence and source files sit beside the puzzles
            continue
        for puzzle in puzzles:
            if puzzle.is_colour and puzzle.width * puzzle.height <= 100 * 100:
                boards_agree(puzzle)
                checked += 1
    assert checked >= 20


def test_a_deadline_that_passes_stops_the_compiled_line_logic() -> None:
    puzzle = random_puzzle(random.Random(3), 200, 200, 2, 0.7)
    with pytest.raises(TimeUp):
        propagation.propagate(propagation.Board(puzzle), deadline=Deadline.after(1e-6))


ONE = [b"\0", b"\0"]
"""One cell's (or line's) masks for the background and one colour: nothing ruled out."""

BAD_CALLS = {
    "no cells": lambda c: c.settle_colours((1,), (1,), 0, ONE),
    "too long": lambda c: c.settle_colours((1,), (1,), 5000, [b"\0" * 700] * 2),
    "colour not in the palette": lambda c: c.settle_colours((1,), (2,), 3, ONE),
    "colours not as long": lambda c: c.settle_colours((1, 2), (1,), 3, ONE),
    "empty block": lambda c: c.settle_colours((0,), (1,), 3, ONE),
    "masks too short": lambda c: c.settle_colours((1,), (1,), 3, [b"", b""]),
    "no colour": lambda c: c.settle_colours((1,), (1,), 3, [b"\0"]),
    "masks not bytes": lambda c: c.settle_colours((1,), (1,), 3, "xx"),
    "huge block": lambda c: c.settle_colours((10**30,), (1,), 3, ONE),
    "no such line": lambda c: c.propagate_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, ONE, [(True, 5)], 0.0),
    "empty grid": lambda c: c.propagate_colours([], [], [], [], [b"", b""], [b"", b""], [], 0.0),
    "colours of two rows": lambda c: c.propagate_colours([(1,)], [(1,), (1,)], [(1,)], [(1,)], ONE, ONE, [], 0.0),
    "columns' palette": lambda c: c.propagate_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, [b"\0"], [], 0.0),
    "a line without index": lambda c: c.propagate_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, ONE, [(True,)], 0.0),
    "no solution wanted": lambda c: c.search_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, ONE, 0, 0, 0.0),
    "stop read-only": lambda c: c.search_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, ONE, 2, 0, 0.0, bytes(1)),
    "stop empty": lambda c: c.search_colours([(1,)], [(1,)], [(1,)], [(1,)], ONE, ONE, 2, 0, 0.0, bytearray(0)),
    "block of another colour": lambda c: c.blocks_colour((1,), (3,), [[0]], [[5]], [10], [False]),
    "start off the line": lambda c: c.blocks_colour((1,), (1,), [[7]], [[5]], [10], [False]),
    "no start": lambda c: c.blocks_colour((1,), (1,), [[]], [[5]], [10], [False]),
    "solid not as long": lambda c: c.blocks_colour((1,), (1,), [[0]], [[5]], [10], []),
    "literal not a number": lambda c: c.blocks_colour((1,), (1,), [[0]], [["x"]], [10], [False]),
    "cell without literals": lambda c: c.blocks_colour((1,), (1,), [[0]], [[]], [10], [False]),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_the_colour_functions_refuse_bad_arguments_with_an_exception(name: str) -> None:
    """Each compiled colour function given arguments it cannot take raises a Python exception
    (never a crash), naming what is wrong where it can."""
    with pytest.raises((ValueError, TypeError, OverflowError, BufferError)):
        BAD_CALLS[name](core)


def test_observed_colour_line_logic_takes_the_same_steps_in_the_core() -> None:
    """explain's and rate's line logic is observed a pass at a time; in colour each pass's line
    now settles in the core (it took 14 of 20 s on a 512x512 grid in Python): the same passes,
    the same exclusions in the same order, and the same board as in Python, on pictures and
    noise in two to four colours (and a contradiction named alike)."""
    from bench.colour_set import colour_puzzle, noise_puzzle
    from nonosat.solver.propagation import Board, propagate

    puzzles = [colour_puzzle(30, 30, k, seed) for k in (2, 3, 4) for seed in (0, 1)]
    puzzles += [noise_puzzle(20, 20, k, seed) for k in (2, 3) for seed in (0, 1)]
    compared = 0
    for puzzle in puzzles:
        runs = []
        for compiled in (True, False):
            seen: list[object] = []
            board = propagate(Board(puzzle), observe=lambda *step, seen=seen: seen.append(step), compiled=compiled)
            runs.append((seen, board.passes, board.row_not, board.col_not))
        assert runs[0] == runs[1], puzzle.title
        compared += len(runs[0][0])
    assert compared > 500 and propagation._compiled_settle_colours.cache_info().misses > 0  # the core's, used
    first = puzzles[0]
    assert first.row_colours is not None
    broken = replace(first, rows=((1,),) + first.rows[1:], row_colours=((1,),) + first.row_colours[1:])
    named = []
    for compiled in (True, False):
        with pytest.raises(Contradiction) as raised:
            propagate(Board(broken), observe=lambda *step: None, compiled=compiled)
        named.append(raised.value.args)
    assert named[0] == named[1]
