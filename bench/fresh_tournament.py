"""Tournament sets nobody tuned on (issue 40): `python -m bench.fresh_tournament [--seeds 1001,1002] [--size 1000]`.

Each set is drawn as the tournament sets are: 25x25 grids, each with a density drawn uniformly
from 0.35 to 0.5 and each cell filled with that probability (the corpus's 24 sets all have a
mean density of 0.424, a spread of 0.043, from 0.349 to 0.499: those of this draw; not 0.5 for
every grid, which makes far easier sets), from a seed written down here and never used for
tuning (the default seeds 1001-1003; the corpus
sets in tcga/ are the regression check). A set is written as one tournament file and run by
`nonosat batch --jobs 2` as a whole command (its start included); the per-puzzle seconds of its
records give the distribution: median, 99th and 99.9th percentiles, the slowest (and for
several fresh sets, of all their puzzles together). With
`--corpus-sets`, the named corpus sets run the same way, side by side.

With `--against CHECKOUT` (another checkout of nonosat, its compiled core built, e.g. a git
worktree of an older commit), every set is run by both, taking turns (this one first on the
first set, the other first on the next), each line of the results names both, and their
verdicts must agree puzzle by puzzle (the same status, the same grid for `unique`; a difference
ends the run with exit 1). The other checkout runs in its own folder with PYTHONPATH set to it
(this one in its own folder too).

With `--records FILE`, every puzzle's record of every run (`nonosat batch`'s, with the set's
name and the side that ran it) is kept as JSON lines, the file rewritten after each set: a run
can be read again with another statistic without running it again.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.percentiles import percentile
from bench.verdicts import corpus_root
from nonosat.formats.atomic import write_text_atomic
from nonosat.formats.tournament import dump_tournament
from nonosat.model import Grid, Puzzle

SIDE = 25
HERE = Path(__file__).resolve().parents[1]
"""This checkout: the batch runs of this side run in its folder."""
DENSITIES = (0.35, 0.5)


SHARES = (("median", 50.0), ("99%", 99.0), ("99.9%", 99.9))  # the percentiles each summary gives


def fresh_grid(rng: random.Random) -> Grid:
    density = rng.uniform(*DENSITIES)
    return tuple(tuple(int(rng.random() < density) for _ in range(SIDE)) for _ in range(SIDE))


def fresh_set(seed: int, size: int) -> list[Puzzle]:
    """`size` puzzles of random 25x25 grids, each of a density from 0.35 to 0.5, the same for
    the same seed."""
    rng = random.Random(f"nonosat fresh tournament {seed}")
    return [Puzzle.from_grid(fresh_grid(rng)) for _ in range(size)]


def run_set(
    path: Path, jobs: int, timeout: float | None, checkout: Path | None = None
) -> tuple[float, list[dict[str, object]]]:
    """`nonosat batch --jobs N` on one file (by the nonosat of `checkout` if given), timed whole;
    its records. It runs in the checkout's folder (this one's by default): `python -m` puts the
    working folder first on the path, ahead of PYTHONPATH, so that run from this checkout the
    other would be this one again."""
    out = path.with_name(f"{path.stem}-{'other' if checkout else 'this'}.jsonl")
    out.unlink(missing_ok=True)
    folder = (checkout or HERE).resolve()
    env = None if checkout is None else {**os.environ, "PYTHONPATH": str(folder)}
    command = [sys.executable, "-m", "nonosat", "batch", str(path), "--out", str(out), "--jobs", str(jobs)]
    if timeout is not None:
        command += ["--timeout", str(timeout)]
    started = time.perf_counter()
    ended = subprocess.run(command, capture_output=True, check=False, env=env, cwd=folder)
    took = time.perf_counter() - started
    if ended.returncode == 130:  # Ctrl-C reached the batch run (its process group) first
        raise KeyboardInterrupt
    return took, [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


def puzzle_name(path: str) -> str:
    """A record's puzzle as one can find it again after the run, its temporary folder gone:
    `fresh-3023.txt#366` is `fresh_set(3023, size)[365]`, a corpus set's name its file in
    tcga/question/."""
    return Path(path).name


def summary(name: str, took: float, records: list[dict[str, object]]) -> str:
    """One line for a set's run: the whole command, the per-puzzle distribution (nearest-rank
    percentiles: of 1,000 puzzles the 99.9th is the second slowest) and the slowest puzzle."""
    seconds = [float(r["seconds"]) for r in records]  # type: ignore[arg-type]
    statuses: dict[str, int] = {}
    for record in records:
        statuses[str(record["status"])] = statuses.get(str(record["status"]), 0) + 1
    slowest = max(records, key=lambda r: float(r["seconds"]))  # type: ignore[arg-type]
    shares = ", ".join(f"{label} {percentile(seconds, share) or 0.0:.3f} s" for label, share in SHARES)
    return (
        f"{name}: {len(records)} puzzles in {took:.1f} s; per puzzle {shares}, slowest "
        f"{float(slowest['seconds']):.2f} s ({puzzle_name(str(slowest['path']))}); {statuses}"  # type: ignore[arg-type]
    )


def disagreements(ours: list[dict[str, object]], theirs: list[dict[str, object]]) -> list[str]:
    """The puzzles two runs of one set disagree on: another status, or another unique grid."""
    by_path = {str(record["path"]): record for record in theirs}
    found = [] if len(ours) == len(theirs) else [f"{len(ours)} records against {len(theirs)}"]
    for record in ours:
        other = by_path.get(str(record["path"]))
        if other is None or other["status"] != record["status"]:
            their_status = None if other is None else other["status"]
            found.append(f"{puzzle_name(str(record['path']))}: {record['status']} against {their_status}")
        elif record["status"] == "unique" and record.get("solutions") != other.get("solutions"):
            found.append(f"{puzzle_name(str(record['path']))}: another unique grid")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fresh_tournament", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1001,1002,1003", help="the fresh sets' seeds (never tuned on)")
    parser.add_argument("--size", type=int, default=1000, help="puzzles a set")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, help="per puzzle (default: none)")
    parser.add_argument("--corpus-sets", default="", help="corpus tournament sets too, e.g. taai2011,icga2016")
    parser.add_argument("--against", help="another checkout of nonosat to run every set too, taking turns")
    parser.add_argument("--records", type=Path, help="keep every puzzle's record here (JSON lines), set by set")
    parser.add_argument("--force", action="store_true", help="overwrite --records")
    args = parser.parse_args(argv)
    if args.records and args.records.is_dir():
        parser.error(f"--records {args.records}: a folder, not a file")
    if args.records and args.records.exists() and not args.force:
        parser.error(f"{args.records} exists; give --force to overwrite it")
    against = Path(args.against) if args.against else None
    if against is not None and not (against / "nonosat" / "__init__.py").is_file():
        parser.error(f"--against {against}: not a checkout of nonosat (no nonosat/__init__.py there)")
    with tempfile.TemporaryDirectory(prefix="fresh-tournament-") as scratch:
        sets: list[tuple[str, Path]] = []
        for seed in [int(s) for s in args.seeds.split(",") if s]:
            path = Path(scratch) / f"fresh-{seed}.txt"
            path.write_text(dump_tournament(fresh_set(seed, args.size)))
            sets.append((f"fresh seed {seed}", path))
        for name in [s for s in args.corpus_sets.split(",") if s]:
            source = corpus_root() / "tcga" / "question" / f"{name}.txt"
            path = Path(scratch) / source.name
            path.write_bytes(source.read_bytes())
            sets.append((name, path))
        pooled: list[dict[str, object]] = []
        pooled_took = 0.0
        kept: list[dict[str, object]] = []

        def keep(name: str, side: str, records: list[dict[str, object]]) -> None:
            """Add a set's records to --records, rewritten whole (atomically) after each set."""
            if args.records:
                kept.extend({"set": name, "side": side, **record} for record in records)
                write_text_atomic(args.records, "".join(json.dumps(r) + "\n" for r in kept), force=True)

        for turn, (name, path) in enumerate(sets):
            if against is None:
                took, records = run_set(path, args.jobs, args.timeout)
                keep(name, "this", records)
                print(summary(name, took, records), flush=True)
                if name.startswith("fresh"):
                    pooled.extend(records)
                    pooled_took += took
                continue
            order = [None, against] if turn % 2 == 0 else [against, None]
            runs = {side: run_set(path, args.jobs, args.timeout, side) for side in order}
            (took, records), (their_took, theirs) = runs[None], runs[against]
            keep(name, "this", records)
            keep(name, str(against), theirs)
            print(summary(f"{name} (this)", took, records), flush=True)
            print(summary(f"{name} ({against})", their_took, theirs), flush=True)
            print(f"{name}: this / other {took / their_took:.3f} (whole command)", flush=True)
            differences = disagreements(records, theirs)
            if differences:
                print(f"{name}: the verdicts differ: {differences[:5]}", flush=True)
                return 1
        if len(pooled) > args.size:
            print(summary("all fresh sets together", pooled_took, pooled), flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the batch runs end with it; the temporary folder goes as `with` unwinds
        print("interrupted", file=sys.stderr)
        sys.exit(130)
