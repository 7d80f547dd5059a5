"""The generator benchmark: pictures no one here drew, made into puzzles again.

    python -m bench.generate                      # webpbn, nonogram-db and jwilk
    python -m bench.generate --sets webpbn --json gen.json

The pictures are the goals of corpus puzzles (for jwilk's, which give none, the unique solution
nonosat finds). Each is drawn at 8 pixels a cell as a greyscale PNG, blurred (Gaussian, radius
2) and given noise (uniform, +-30 grey levels, seeded), then `nonosat.generate.from_image` makes
a puzzle of the original size from it, once with require="unique" and once with
require="line". Every puzzle it claims is checked again here from its clues alone; a false
claim stops the run with exit code 1. Printed per set: the share proved unique, the share
line-solvable with require="line", the median and maximum share of cells changed against the
original goal, and the median and maximum time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.errors import GenerateFailed
from nonosat.formats.atomic import write_text_atomic
from nonosat.generate import from_image
from nonosat.generate.image import draw_scan
from nonosat.linesolve import line_solve
from nonosat.model import Grid, Puzzle
from nonosat.solver import Status, solve

SETS = {"webpbn": "webpbn/*.non", "nonogram-db": "nonogram-db/**/*.non", "jwilk": "jwilk/*.nin"}
SCALE, BLUR, NOISE = 8, 2.0, 30
LARGEST = 100
"""Pictures wider or taller than this many cells are left out (Cauldron is 512x512)."""


def goals(name: str) -> list[tuple[str, Grid]]:
    """The set's pictures: each puzzle's goal, or its solution when that is unique."""
    found = []
    for path in sorted(corpus_root().glob(SETS[name])):
        for puzzle in load_all(path):
            if max(puzzle.width, puzzle.height) > LARGEST:
                continue
            goal = puzzle.goal
            if goal is None:
                result = solve(puzzle, timeout=60)
                if result.status is not Status.UNIQUE:
                    continue
                goal = result.solutions[0].grid
            found.append((path.name, goal))
    return found


def attempt(picture: Path, goal: Grid, require: str) -> dict[str, object]:
    """One generation, verified independently; its outcome and figures."""
    width, height = len(goal[0]), len(goal)
    started = time.perf_counter()
    try:
        made = from_image(picture, width=width, height=height, require=require)
    except GenerateFailed as failure:
        return {"ok": False, "seconds": time.perf_counter() - started, "why": str(failure)}
    seconds = time.perf_counter() - started
    puzzle = made.puzzle
    bare = Puzzle(rows=puzzle.rows, columns=puzzle.columns)
    proof = solve(bare, jobs=1)
    if proof.status is not Status.UNIQUE or proof.solutions[0].grid != puzzle.goal:
        raise SystemExit(f"bench.generate: FALSE CLAIM on {picture.name} ({require}): {proof.status.value}")
    if require == "line" and not line_solve(bare).is_complete():
        raise SystemExit(f"bench.generate: FALSE CLAIM on {picture.name}: not line-solvable")
    assert puzzle.goal is not None
    changed = sum(a != b for ra, rb in zip(puzzle.goal, goal, strict=True) for a, b in zip(ra, rb, strict=True))
    return {"ok": True, "seconds": seconds, "changed_share": changed / (width * height)}


def run_set(name: str, first: int | None) -> dict[str, object]:
    pictures = goals(name)[:first]
    outcomes: dict[str, list[dict[str, object]]] = {"unique": [], "line": []}
    with tempfile.TemporaryDirectory() as folder:
        for index, (label, goal) in enumerate(pictures):
            picture = Path(folder) / f"{index:04d}-{Path(label).stem}.png"
            draw_scan(goal, picture, scale=SCALE, blur=BLUR, noise=NOISE, seed=index)
            for require in outcomes:
                outcomes[require].append(attempt(picture, goal, require))
    row: dict[str, object] = {"set": name, "pictures": len(pictures)}
    for require, results in outcomes.items():
        done = [r for r in results if r["ok"]]
        shares = [float(r["changed_share"]) for r in done]  # type: ignore[arg-type]
        seconds = [float(r["seconds"]) for r in results]  # type: ignore[arg-type]
        row[require] = {
            "proved": len(done),
            "share": round(len(done) / len(results), 4) if results else 0.0,
            "changed_median": round(statistics.median(shares), 4) if shares else None,
            "changed_max": round(max(shares), 4) if shares else None,
            "seconds_median": round(statistics.median(seconds), 3) if seconds else None,
            "seconds_max": round(max(seconds), 3) if seconds else None,
        }
    return row


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| set | pictures | require | proved | share | changed median | changed max | median s | max s |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        for require in ("unique", "line"):
            r = row[require]
            lines.append(
                f"| {row['set']} | {row['pictures']} | {require} | {r['proved']} | {100 * r['share']:.1f}% "  # type: ignore[index]
                f"| {_percent(r['changed_median'])} | {_percent(r['changed_max'])} "  # type: ignore[index]
                f"| {r['seconds_median']} | {r['seconds_max']} |"  # type: ignore[index]
            )
    return "\n".join(lines)


def _percent(value: object) -> str:
    return "-" if value is None else f"{100 * float(value):.2f}%"  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.generate", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, from: {', '.join(SETS)}")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N pictures of each set")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    if any(n not in SETS for n in names):
        print(f"bench.generate: choose sets from {', '.join(SETS)}", file=sys.stderr)
        return 2
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench.generate: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    rows = []
    for name in names:
        rows.append(run_set(name, args.first))
        print(table(rows[-1:]).split("\n", 2)[2], flush=True)
    print()
    print(table(rows))
    if args.json is not None:
        write_text_atomic(args.json, json.dumps({"sets": rows}, indent=2) + "\n", force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
