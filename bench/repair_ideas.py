"""Each idea of the repair search, measured: the same hard pictures with one idea changed at a time.

    python -m bench.repair_ideas                 # every variant
    python -m bench.repair_ideas --variants search,no-speck

The pictures: the hard set's shapes (rings, stripes, checkerboard, face) at 30 and 50 cells,
and `random_puzzle(n, n, seed=s, require="line")` for n in 30, 40 and s in 1..4. The variants
change one constant of `nonosat.generate.search` or `nonosat.generate.drawing` (or the cache of
bounds) for the whole run. Printed per variant: successes, cells changed (sum and median share),
the picture distance of the shapes' repairs (summed; see `Generated.distance`), specks and holes
left by the changes (changed cells unlike all four neighbours in the final picture), seconds
(sum and max), and what failed. Every success is proved by the repair itself (its final
check from the clues alone); `bench.generate` checks again from scratch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from bench.hard_pictures import Picture, draw_shape
from nonosat.errors import GenerateFailed, TimeUp
from nonosat.generate import Generated, from_image, random_puzzle
from nonosat.generate import drawing as drawing_module
from nonosat.generate import search as search_module
from nonosat.model import Grid

SHAPES = ("rings", "stripes", "checkerboard", "face")
SIDES = (30, 50)
RANDOM = [(side, seed) for side in (30, 40) for seed in range(1, 5)]
TIMEOUT = 60.0


@contextmanager
def setting(module: object, name: str, value: object) -> Iterator[None]:
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


@contextmanager
def _no_bound_cache() -> Iterator[None]:
    """Every step bounds every change again (the bounds of the last step are dropped)."""
    step = search_module.Search.step

    def forgetful(self: search_module.Search, *args: object, **kwargs: object) -> bool:
        self._bounds = {}  # noqa: SLF001 - the variant measures this cache
        return step(self, *args, **kwargs)  # type: ignore[arg-type]

    with setting(search_module.Search, "step", forgetful):
        yield


VARIANTS: dict[str, Callable[[], object]] = {
    "search": lambda: setting(search_module, "WEIGHT", search_module.WEIGHT),
    "weight-0": lambda: setting(search_module, "WEIGHT", 0.0),
    "weight-0.3": lambda: setting(search_module, "WEIGHT", 0.3),
    "weight-3": lambda: setting(search_module, "WEIGHT", 3.0),
    "no-speck": lambda: setting(drawing_module, "SPECK", 0.0),
    "exact-24": lambda: setting(search_module, "EXACT_TRIES", 24),
    "exact-96": lambda: setting(search_module, "EXACT_TRIES", 96),
    "plateau-4": lambda: setting(search_module, "PLATEAU_TRIES", 4),
    "fresh-bounds": lambda: setting(search_module, "KEEP_BOUNDS", False),
    "no-bound-cache": _no_bound_cache,
}
"""`search` is the search as it is; each other changes one thing."""


def pictures(folder: Path) -> list[Picture]:
    found = []
    for name in SHAPES:
        path = folder / f"{name}.png"
        draw_shape(name, path)
        found += [Picture(name, name, side, side, path) for side in SIDES]
    return found + [Picture("random", f"seed {seed}", side, side, None, seed) for side, seed in RANDOM]


def lonely(made: Generated) -> int:
    """Changed cells unlike all four neighbours in the final picture (specks and holes)."""
    goal: Grid | None = made.puzzle.goal
    assert goal is not None
    height, width = len(goal), len(goal[0])

    def at(r: int, c: int) -> int:
        return goal[r][c] if 0 <= r < height and 0 <= c < width else 0

    return sum(
        all(at(i, j) != goal[r][c] for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        for r, c in made.changed
    )


def make(picture: Picture) -> Generated:
    if picture.path is None:
        return random_puzzle(picture.width, picture.height, seed=picture.seed, require="line", timeout=TIMEOUT)
    return from_image(picture.path, width=picture.width, height=picture.height, require="line", timeout=TIMEOUT)


def _cold() -> None:
    """Empty the caches line logic keeps for the whole process, so that each variant starts as
    the first did (the settled lines of one variant would make the next faster)."""
    from nonosat.solver import line_logic, propagation

    for cached in (
        propagation._cached_settle,  # noqa: SLF001 - the benchmark empties them on purpose
        propagation._cached_settle_colours,  # noqa: SLF001
        line_logic.automaton,
        drawing_module.freedom,
    ):
        cached.cache_clear()


def run(variant: str, chosen: list[Picture]) -> dict[str, object]:
    _cold()
    shares, seconds, specks, changed, ok, distance, failed = [], [], 0, 0, 0, 0.0, []
    with VARIANTS[variant]():  # type: ignore[attr-defined]
        for picture in chosen:
            started = time.perf_counter()
            try:
                made = make(picture)
            except (GenerateFailed, TimeUp):
                seconds.append(time.perf_counter() - started)
                failed.append(f"{picture.kind} {picture.size}")
                continue
            seconds.append(time.perf_counter() - started)
            ok += 1
            changed += len(made.changed)
            shares.append(made.changed_share)
            specks += lonely(made)
            distance += made.distance if picture.path is not None else 0.0
    return {
        "variant": variant,
        "ok": f"{ok}/{len(chosen)}",
        "changed": changed,
        "median": f"{100 * statistics.median(shares):.2f}%" if shares else "-",
        "distance": f"{distance:.1f}",
        "specks": specks,
        "seconds": f"{sum(seconds):.1f}",
        "max": f"{max(seconds):.2f}",
        "failed": ", ".join(failed) or "-",
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.repair_ideas", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, from: {', '.join(VARIANTS)}")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    if any(n not in VARIANTS for n in names):
        print(f"bench.repair_ideas: choose variants from {', '.join(VARIANTS)}", file=sys.stderr)
        return 2
    columns = ("variant", "ok", "changed", "median", "distance", "specks", "seconds", "max", "failed")
    print(
        "| variant | succeeded | cells changed | median share | picture distance (shapes) | specks and holes"
        " | seconds | max s | failed |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        chosen = pictures(Path(folder))
        for name in names:
            row = run(name, chosen)
            print("| " + " | ".join(str(row[key]) for key in columns) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
