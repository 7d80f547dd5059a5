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

    python -m bench.generate --sets hard          # the hard set (bench/hard_pictures.py)
    python -m bench.generate --sets hard --kinds star,random --first 3 --timeout 30

The hard set is built here: shapes drawn with Pillow, corpus goals scanned coarsely (4 pixels a
cell, blur 3, noise +-60) and random grids, each made with require="line" (with a time limit per
generation); every output is solved again from its clues alone (unique, and its goal) and rated
(level "line"). Printed per kind and size, per kind and per size: successes, the share of cells
changed from the thresholded picture (median, max) and seconds (median, max); then the small
cases, where the fewest flips that line logic needs (found by trying every set of cells) stands
beside the number ours changed (up to --cap flips, within --budget seconds a case), and a summary
against the issue's targets. A false claim is reported, and the exit code is then 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.hard_cases import SmallCase, falsehood, make_hard, small_case, small_table
from bench.hard_pictures import KINDS, Picture, hard_pictures, small_pictures
from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.errors import CutShort, GenerateFailed
from nonosat.formats.atomic import write_text_atomic
from nonosat.generate import from_image
from nonosat.generate.image import draw_scan
from nonosat.model import Grid, Puzzle
from nonosat.solver import Status, solve
from nonosat.solver.propagation import line_solve

SETS = {"webpbn": "webpbn/*.non", "nonogram-db": "nonogram-db/**/*.non", "jwilk": "jwilk/*.nin"}
HARD = "hard"
"""The hard set: not among the defaults (it takes minutes), chosen with --sets hard."""
HARD_TIMEOUT, CAP, BUDGET = 60.0, 4, 60.0
SIDE_CLASSES = (20, 30, 40, 50)
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


# The hard set.


@dataclass(frozen=True)
class Outcome:
    """One hard generation: a verified puzzle, or why there is none."""

    kind: str
    name: str
    size: str
    side_class: int
    """The longest side, rounded up to one of SIDE_CLASSES."""
    ok: bool
    seconds: float
    changed: int | None = None
    changed_share: float | None = None
    """Of the cells, changed from the thresholded picture (or the random grid)."""
    why: str | None = None
    false_claim: bool = False


@dataclass(frozen=True)
class Summary:
    """Successes, cells changed (of the successes) and seconds (of all) over some generations."""

    group: str
    pictures: int
    ok: int
    changed_median: float | None
    changed_max: float | None
    over_10: int
    """Successes that changed more than 10% of the cells."""
    seconds_median: float | None
    seconds_max: float | None
    false_claims: int


def hard_attempt(picture: Picture, timeout: float | None) -> Outcome:
    """One hard generation, verified independently; no puzzle or time up is a failure, not an error."""
    longest = max(picture.width, picture.height)
    named = (picture.kind, picture.name, picture.size, next((s for s in SIDE_CLASSES if longest <= s), longest))
    started = time.perf_counter()
    try:
        made = make_hard(picture, timeout)
    except (GenerateFailed, CutShort) as failure:
        return Outcome(*named, False, time.perf_counter() - started, why=f"{type(failure).__name__}: {failure}")
    seconds = time.perf_counter() - started
    false = falsehood(made)
    if false is not None:
        return Outcome(*named, False, seconds, why=f"FALSE CLAIM: {false}", false_claim=True)
    return Outcome(*named, True, seconds, len(made.changed), made.changed_share)


def summary(group: str, outcomes: Sequence[Outcome]) -> Summary:
    shares = [o.changed_share for o in outcomes if o.changed_share is not None]
    seconds = [o.seconds for o in outcomes]
    return Summary(
        group,
        len(outcomes),
        sum(o.ok for o in outcomes),
        statistics.median(shares) if shares else None,
        max(shares) if shares else None,
        sum(share > 0.10 for share in shares),
        statistics.median(seconds) if seconds else None,
        max(seconds) if seconds else None,
        sum(o.false_claim for o in outcomes),
    )


def grouped(outcomes: Sequence[Outcome], key: Callable[[Outcome], str]) -> list[Summary]:
    """The summary of each group of outcomes with the same key, in order of appearance."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(key(outcome), []).append(outcome)
    return [summary(name, members) for name, members in groups.items()]


def chosen(pictures: list[Picture], kinds: Sequence[str], first: int | None) -> list[Picture]:
    """The pictures of these kinds, the first N of each kind."""
    taken: Counter[str] = Counter()
    found = []
    for picture in pictures:
        if picture.kind in kinds and (first is None or taken[picture.kind] < first):
            taken[picture.kind] += 1
            found.append(picture)
    return found


def run_hard(
    kinds: Sequence[str], first: int | None, timeout: float | None, cap: int, budget: float, small: bool
) -> dict[str, Any]:
    """Every hard picture of the chosen kinds, then the small cases, each printed as it ends."""
    outcomes, cases = [], []
    with tempfile.TemporaryDirectory() as folder:
        for picture in chosen(hard_pictures(Path(folder)), kinds, first):
            outcomes.append(hard_attempt(picture, timeout))
            print(progress(outcomes[-1]), flush=True)
        for picture in chosen(small_pictures(Path(folder)), kinds, first) if small else []:
            cases.append(small_case(picture, cap, budget, timeout))
            print(progress(cases[-1]), flush=True)
    return {
        "settings": {"timeout": timeout, "cap": cap, "budget": budget, "kinds": list(kinds), "first": first},
        "generations": outcomes,
        "by_kind_and_size": grouped(outcomes, lambda o: f"{o.kind} {o.size}" + f" {o.name}" * (o.kind == "corpus")),
        "by_kind": grouped(outcomes, lambda o: o.kind),
        "by_side": grouped(sorted(outcomes, key=lambda o: o.side_class), lambda o: f"up to {o.side_class}"),
        "all": summary("all", outcomes),
        "small": cases,
    }


def progress(record: Outcome | SmallCase) -> str:
    """One line as a generation or a small case ends."""
    head = f"  {record.kind} {record.name} {record.size}:"
    if isinstance(record, SmallCase):
        ours = record.ours if record.ours is not None else record.why
        return f"{head} exhaustive {record.exhaustive.text} ({record.exhaustive.seconds:.2f} s), ours {ours}"
    if record.ok:
        return f"{head} ok, {record.changed} changed ({_percent(record.changed_share)}), {record.seconds:.2f} s"
    return f"{head} failed after {record.seconds:.2f} s: {record.why}"


def hard_table(rows: Sequence[Summary], what: str) -> str:
    lines = [
        f"| {what} | pictures | ok | share | changed median | changed max | >10% | median s | max s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.group} | {r.pictures} | {r.ok} | {_percent(r.ok / r.pictures)} | {_percent(r.changed_median)} "
            f"| {_percent(r.changed_max)} | {r.over_10} | {_seconds(r.seconds_median)} | {_seconds(r.seconds_max)} |"
        )
    return "\n".join(lines)


def hard_report(hard: dict[str, Any]) -> str:
    """The hard set's tables, and a summary against the issue's targets."""
    parts = [
        hard_table(hard[key], what)
        for key, what in (("by_kind_and_size", "kind, size"), ("by_kind", "kind"), ("by_side", "longest side"))
    ]
    cases: list[SmallCase] = hard["small"]
    if cases:
        parts.append(small_table(cases))
    done: Summary = hard["all"]
    decided = [c for c in cases if c.within_1 is not None]
    needing = [c for c in decided if c.exhaustive.minimum != 0]
    lines = [
        "hard set, against the issue's targets [in brackets]:",
        f"  success {done.ok}/{done.pictures} ({_percent(done.ok / max(1, done.pictures))}) [>=95%]",
        f"  cells changed, of the successes: median {_percent(done.changed_median)} [<=2%], "
        f"max {_percent(done.changed_max)} [<=10%], {done.over_10} over 10%",
        f"  seconds: median {_seconds(done.seconds_median)} [<=2], max {_seconds(done.seconds_max)} [<=10]",
        f"  false claims (not unique from the clues, another goal, or not rated line): {false_claims(hard)} [0]",
        f"  small cases within 1 of the exhaustive minimum: {_share(decided)} [>=90%]; of those needing a flip: "
        f"{_share(needing)}; undecided: {len(cases) - len(decided)}",
    ]
    parts.append("\n".join(lines))
    return "\n\n".join(parts)


def false_claims(hard: dict[str, Any]) -> int:
    """Claimed puzzles that failed the checks, of the hard set and of the small cases."""
    done: Summary = hard["all"]
    cases: list[SmallCase] = hard["small"]
    return done.false_claims + sum(case.false_claim for case in cases)


def _share(cases: Sequence[SmallCase]) -> str:
    within = sum(bool(c.within_1) for c in cases)
    return f"{within}/{len(cases)}" + (f" ({_percent(within / len(cases))})" if cases else "")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.generate", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    every = (*SETS, HARD)
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, from: {', '.join(every)}")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N pictures of each set (hard: kind)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"hard set: comma-separated, from: {', '.join(KINDS)}")
    parser.add_argument(
        "--timeout",
        type=float,
        default=HARD_TIMEOUT,
        metavar="S",
        help="hard set: seconds a generation (default %(default)s)",
    )
    parser.add_argument(
        "--cap", type=int, default=CAP, metavar="K", help="small cases: try up to K flips (default %(default)s)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET,
        metavar="S",
        help="small cases: seconds of search each (default %(default)s)",
    )
    parser.add_argument("--no-small", action="store_true", help="hard set: leave out the small cases")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if any(n not in every for n in names) or any(k not in KINDS for k in kinds):
        print(f"bench.generate: choose sets from {', '.join(every)}, kinds from {', '.join(KINDS)}", file=sys.stderr)
        return 2
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench.generate: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    rows = []
    for name in (n for n in names if n != HARD):
        rows.append(run_set(name, args.first))
        print(table(rows[-1:]).split("\n", 2)[2], flush=True)
    if rows:
        print()
        print(table(rows))
    report: dict[str, Any] = {"sets": rows}
    if HARD in names:
        report[HARD] = hard = run_hard(kinds, args.first, args.timeout, args.cap, args.budget, not args.no_small)
        print()
        print(hard_report(hard))
    if args.json is not None:
        text = json.dumps(report, indent=2, default=_plain) + "\n"
        write_text_atomic(args.json, text, force=args.force)
    return 1 if HARD in names and false_claims(report[HARD]) else 0


def _plain(value: object) -> object:
    """Dataclasses as JSON objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"not JSON: {value!r}")


if __name__ == "__main__":
    sys.exit(main())
