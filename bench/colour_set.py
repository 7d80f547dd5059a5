"""A benchmark set of colour puzzles, made from random colour pictures with fixed seeds.

    python -m bench.colour_set                      # the peer on the whole set, one line a puzzle
    python -m bench.colour_set --sizes 40,60 --timeout 60
    python -m bench.colour_set --first 3 --show     # the pictures themselves, a letter a colour
    python -m bench.colour_set --noise              # the harder set of noise grids

Each picture is painted, not drawn cell by cell, so that it looks like a picture rather than
noise: on a blank grid, ellipses (turned at random) and rectangles are painted one over the other,
each in one colour, and one in seven or so in blank to cut holes; one in five is a bar one to three
cells thick. There are 3 + area/40 of them (13 on 20x20, 93 on 60x60), their half axes 3% to 25%
of the side. A picture is drawn again (from the same random stream) until every
colour shows and between 25% and 65% of the cells are blank. Its puzzle is `Puzzle.from_grid`,
with the picture as its goal, on a palette of distinct colours. The same seed gives the same
picture on every machine (Python's `random.Random`).

Such pictures are easy: most are solved by line logic alone. `noise_set()` is the harder
variant: every cell drawn on its own (blank with probability one half, else one of the colours),
25x25 and 30x30 in 2 to 4 colours, which line logic leaves open and which are nearly all
"multiple", as the black-and-white tournament puzzles are (`--noise` below).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence

from nonosat.model import Grid, Puzzle
from nonosat.palette import WHITE, Colour, Palette

COLOURS: Palette = (
    WHITE,
    Colour("black", "#000000", "k"),
    Colour("red", "#d62728", "r"),
    Colour("blue", "#1f77b4", "b"),
    Colour("green", "#2ca02c", "g"),
    Colour("orange", "#ff7f0e", "o"),
    Colour("purple", "#9467bd", "p"),
)
"""The background and six colours, distinct in name, value and character; a puzzle of K colours
takes the first K after the background."""

SIZES = (20, 30, 40, 50, 60)
COLOUR_COUNTS = (2, 3, 4, 5, 6)
BLANK_RANGE = (0.25, 0.65)
"""The share of blank cells a picture must have, else it is drawn again."""

Shape = Callable[[float, float], bool]
"""Whether the point (x, y) is inside a shape."""


def palette_of(colours: int) -> Palette:
    """The background and the first `colours` colours of COLOURS."""
    if not 1 <= colours <= len(COLOURS) - 1:
        raise ValueError(f"between 1 and {len(COLOURS) - 1} colours, not {colours}")
    return COLOURS[: colours + 1]


def paint(width: int, height: int, colours: int, rng: random.Random) -> list[list[int]]:
    """One attempt at a picture: shapes painted one over the other on a blank grid."""
    grid = [[0] * width for _ in range(height)]
    side = min(width, height)
    for _ in range(3 + width * height // 40):
        colour = 0 if rng.random() < 0.15 else rng.randint(1, colours)
        centre_x, centre_y = rng.uniform(0, width), rng.uniform(0, height)
        half_x = rng.uniform(0.03, 0.25) * side
        half_y = rng.uniform(0.03, 0.25) * side
        if rng.random() < 0.2:
            half_y = rng.uniform(0.5, 1.5)  # a bar, one to three cells thick (turned, as an ellipse)
        inside: Shape
        if rng.random() < 0.35:
            inside = rectangle(centre_x, centre_y, half_x, half_y)
        else:
            inside = ellipse(centre_x, centre_y, half_x, half_y, rng.uniform(0, math.pi))
        reach = max(half_x, half_y)
        for r in range(max(0, int(centre_y - reach)), min(height, int(centre_y + reach) + 1)):
            for c in range(max(0, int(centre_x - reach)), min(width, int(centre_x + reach) + 1)):
                if inside(c + 0.5, r + 0.5):
                    grid[r][c] = colour
    return grid


def rectangle(centre_x: float, centre_y: float, half_x: float, half_y: float) -> Shape:
    """An axis-aligned rectangle."""
    return lambda x, y: abs(x - centre_x) <= half_x and abs(y - centre_y) <= half_y


def ellipse(centre_x: float, centre_y: float, half_x: float, half_y: float, angle: float) -> Shape:
    """An ellipse with these half axes, turned by `angle`."""
    cos, sin = math.cos(angle), math.sin(angle)

    def inside(x: float, y: float) -> bool:
        dx, dy = x - centre_x, y - centre_y
        return ((dx * cos + dy * sin) / half_x) ** 2 + ((dy * cos - dx * sin) / half_y) ** 2 <= 1

    return inside


def random_picture(width: int, height: int, colours: int, seed: int) -> Grid:
    """A random colour picture: each cell a palette index, 0 blank; every colour shows and the
    blank share is within BLANK_RANGE."""
    rng = random.Random(f"nonosat colour {width}x{height} k{colours} seed {seed}")
    low, high = BLANK_RANGE
    while True:
        grid = paint(width, height, colours, rng)
        cells = [cell for row in grid for cell in row]
        blank = cells.count(0) / len(cells)
        if low <= blank <= high and set(cells) == set(range(colours + 1)):
            return tuple(tuple(row) for row in grid)


def colour_puzzle(width: int, height: int, colours: int, seed: int = 0) -> Puzzle:
    """The puzzle of one random picture, with the picture as its goal."""
    palette = palette_of(colours)
    grid = random_picture(width, height, colours, seed)
    title = f"random colour {width}x{height} k{colours} seed {seed}"
    return Puzzle.from_grid(grid, palette=palette, title=title)


def colour_set(
    sizes: Sequence[int] = SIZES, colour_counts: Sequence[int] = COLOUR_COUNTS, seed: int = 0
) -> list[Puzzle]:
    """The benchmark set: one square puzzle for every size and number of colours (25 by default,
    20x20 to 60x60, 2 to 6 colours), in that order, the same for the same seed."""
    return [colour_puzzle(size, size, colours, seed) for size in sizes for colours in colour_counts]


NOISE_SIZES = (25, 30)
NOISE_COLOUR_COUNTS = (2, 3, 4)
NOISE_SEEDS = (0, 1, 2, 3, 4)
NOISE_BLANK = 0.5
"""The harder set: 30 noise grids. With half the cells blank, two colours are the hardest (at
40x40 neither nonosat nor the peer decides some of them within 60 s); more colours make a puzzle
easier, as each block's colour tells where it may go."""


def noise_picture(width: int, height: int, colours: int, blank: float = NOISE_BLANK, seed: int = 0) -> Grid:
    """A grid of independent cells: blank with probability `blank`, else one of the `colours`
    colours, each as likely; drawn again until every colour shows."""
    palette_of(colours)  # checks the count
    rng = random.Random(f"nonosat colour noise {width}x{height} k{colours} blank {blank} seed {seed}")
    while True:
        grid = tuple(
            tuple(0 if rng.random() < blank else rng.randint(1, colours) for _ in range(width)) for _ in range(height)
        )
        if {cell for row in grid for cell in row} >= set(range(1, colours + 1)):
            return grid


def noise_puzzle(width: int, height: int, colours: int, seed: int = 0, blank: float = NOISE_BLANK) -> Puzzle:
    """The puzzle of one noise grid, with the grid as its goal."""
    grid = noise_picture(width, height, colours, blank, seed)
    title = f"colour noise {width}x{height} k{colours} seed {seed}"
    return Puzzle.from_grid(grid, palette=palette_of(colours), title=title)


def noise_set(
    sizes: Sequence[int] = NOISE_SIZES,
    colour_counts: Sequence[int] = NOISE_COLOUR_COUNTS,
    seeds: Sequence[int] = NOISE_SEEDS,
) -> list[Puzzle]:
    """The harder set: one square noise puzzle for every size, number of colours and seed (30 by
    default: 25x25 and 30x30, 2 to 4 colours, seeds 0 to 4), in that order."""
    return [noise_puzzle(size, size, k, seed) for size in sizes for k in colour_counts for seed in seeds]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.colour_set", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", help="square sides, comma-separated (default 20,30,40,50,60; with --noise 25,30)")
    parser.add_argument("--colours", help="colour counts, 1 to 6 (default 2,3,4,5,6; with --noise 2,3,4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, help="only the first N puzzles")
    parser.add_argument("--timeout", type=float, help="CP-SAT's limit per puzzle, in seconds")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT search workers (default 1)")
    parser.add_argument("--show", action="store_true", help="print each picture, not the peer's times")
    parser.add_argument("--noise", action="store_true", help="noise grids, half blank (noise_puzzle), not pictures")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the set's pictures, or the peer's verdict and time on each puzzle and a summary."""
    args = parse_arguments(argv)
    try:
        default_sizes, default_counts = (NOISE_SIZES, NOISE_COLOUR_COUNTS) if args.noise else (SIZES, COLOUR_COUNTS)
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else list(default_sizes)
        counts = [int(k) for k in args.colours.split(",")] if args.colours else list(default_counts)
        if args.noise:
            puzzles = [noise_puzzle(n, n, k, args.seed) for n in sizes for k in counts][: args.first]
        else:
            puzzles = colour_set(sizes, counts, args.seed)[: args.first]
    except ValueError as error:
        print(f"bench.colour_set: {error}")
        return 2
    if args.show:
        for puzzle in puzzles:
            assert puzzle.goal is not None
            chars = [colour.char for colour in puzzle.palette]
            print(puzzle.name)
            print("\n".join("".join(chars[cell] for cell in row) for row in puzzle.goal), end="\n\n")
        return 0
    from bench.peer_cpsat_colour import peer_times, summary

    results = []
    for puzzle, result in peer_times(puzzles, timeout=args.timeout, workers=args.workers):
        results.append(result)
        print(f"{puzzle.name}: {result.status} in {result.seconds:.3f} s", flush=True)
    print(summary(results))
    return 0 if all(r.status != "unknown" for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
