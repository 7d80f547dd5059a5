"""The speed benchmark's sets: globs under the corpus root, and generated colour puzzles."""

from __future__ import annotations

from bench.colour_set import colour_set, noise_set
from bench.verdicts import corpus_root, display_name, puzzle_number
from nonosat import NonosatError, Puzzle, load_all

SETS: dict[str, list[str]] = {
    "webpbn": ["webpbn/*.non"],
    "jwilk": ["jwilk/*.nin"],
    "nonogram-db": ["nonogram-db/**/*.non"],
    "minizinc": ["minizinc/*.dzn"],
    "pynogram": ["pynogram/*.txt"],
    "taai2011": ["tcga/question/taai2011.txt"],
    "tcga2014": ["tcga/question/tcga2014.txt"],
    "icga2018": ["tcga/question/icga2018.txt"],
    "taai2020": ["tcga/question/taai2020.txt"],
    "colour": [
        "colour/number-loom/puzzles/*.xml",
        "colour/number-loom/examples/png/*.png",
        "colour/number-loom/examples/char-grid/*.txt",
        "colour/olsak-grid/*.g",
        "colour/nonny/data/puzzles/color/*.non",
        "colour/nonogrid/examples/UK.toml",
        "colour/pynogram/pynogram/examples/uk.txt",
        "colour/colored-nonogram-solver/nonograms/*.cnon",
        "colour/ianprime0509-nonograms/puzzles/easy.pbn",
    ],
    "colour-noise": [],
}
"""The benchmark sets, as globs under the corpus root (and the generated puzzles of GENERATED).
`colour` holds every corpus colour file that nonosat reads (color-nonogram's JSON is refused:
its clues also say whether blocks touch) and the pictures of bench/colour_set.py."""

COLOUR_SEEDS = (0, 1, 2)
"""The seeds of the random colour pictures in the `colour` set: 3 x 25 puzzles."""


def generated(name: str) -> list[tuple[str, Puzzle]]:
    """The generated puzzles of a set, with their labels: random colour pictures (`colour`), or
    the harder noise grids (`colour-noise`); none for the other sets."""
    if name == "colour":
        puzzles = [puzzle for seed in COLOUR_SEEDS for puzzle in colour_set(seed=seed)]
    elif name == "colour-noise":
        puzzles = noise_set()
    else:
        return []
    return [(puzzle.name, puzzle) for puzzle in puzzles]


PER_PUZZLE_SETS = ("colour", "colour-noise")
"""Sets whose every puzzle is printed, as with --per-puzzle."""


def set_puzzles(name: str, first: int | None) -> tuple[list[tuple[str, Puzzle]], list[str]]:
    """The (label, puzzle) pairs of a set, and the files that could not be read, with why."""
    found: list[tuple[str, Puzzle]] = []
    skipped: list[str] = []
    for pattern in SETS[name]:
        for path in sorted(corpus_root().glob(pattern)):
            if path.name in ("SOURCE", "LICENSE") or path.suffix in (".md", ".out", ".survey"):
                continue
            try:
                puzzles = load_all(path)[:first]
            except NonosatError as error:
                skipped.append(f"{display_name(path)}: {error}")
                continue
            for index, puzzle in enumerate(puzzles):
                label = display_name(path) + (f"#{puzzle_number(puzzle, index)}" if len(puzzles) > 1 else "")
                found.append((label, puzzle))
    return found + generated(name), skipped


def missing(name: str) -> str | None:
    """Why a set would be empty here (no corpus, or no file matching its globs), or None."""
    patterns = SETS[name]
    if not patterns:
        return None
    root = corpus_root()
    if not root.is_dir():
        return f"no corpus at {root} (put ../shared beside the checkout, or set NONOSAT_CORPUS)"
    if not any(next(iter(root.glob(pattern)), None) for pattern in patterns):
        return f"set {name}: no file under {root} matches {', '.join(patterns)}"
    return None
