"""Fuzzing: mutants of corpus files through every reader, `check` and the command line.

    python -m bench.fuzz                                  # 100,000 mutants, 500 also through the CLI
    python -m bench.fuzz --mutants 2000 --cli 50 --json fuzz.json
    python -m bench.fuzz --replay 4711                    # mutant 4711 again, in this process

The seeds are small real files of the corpus (`$NONOSAT_CORPUS`, else `../shared/corpus` beside
the checkout): the `.non` files of webpbn and nonogram-db, jwilk's `.nin`, MiniZinc's `.dzn`,
pynogram's `.txt`, single puzzles (and one run of three) cut from each tournament file, and every
file of `colour/` (read, or refused cleanly). The formats the corpus lacks are written from
small corpus puzzles: webpbn XML (one puzzle and a set of two), JSON, `.mk`, clue lists, Tatham
game IDs, `.g`, `.cwd`, PyCSP3 text, `.nonpack`, PBM (plain and raw) and PNG (with Pillow).

Each mutant is a seed changed one to eight times: bytes flipped, spans deleted or duplicated,
lines deleted, duplicated, swapped or repeated, tokens inserted (digits, 10**30, a 5,000-digit
number, `-`, `#`, `$`, brackets, quotes, Unicode digits, NUL, control characters, invalid
UTF-8), numbers replaced, the file cut short, brackets nested 100,000 deep, pieces of other
seeds spliced in. A third of the text mutants only get numbers replaced and lines moved, so
that more of them load and `check` meets odd puzzles. PNG mutants also get header fields and
decompressed pixels changed, and their chunk checksums fixed more often than not, so that the
decoder, not only the checksum, is tested. Mutant N of a run depends only on `--seed` and N.

Every mutant is written to a file with its seed's suffix and read with `nonosat.load_all`, then
`load(FILE#N)` for some N, then up to three of its puzzles go through `nonosat.check(timeout=S)`,
in worker processes. What the project promises, and what is counted:

- ok: the file loaded and every check returned a verdict;
- refused: a `ParseError` naming the file (from `load_all`; `load(FILE#N)` may refuse a number
  past the file's puzzles, and is judged only for the three failures below);
- other NonosatError: the file loaded and `check` raised a NonosatError (ImpossiblePuzzle);
- traceback: any other exception (or a worker that died), from a reader or from `check`;
- hang: a check that took longer than S + 1 s, or a worker stuck in one stage (a read or a
  check) for S + 6 s, which is then killed and replaced. Reading has no deadline in the API,
  so its time is reported (the slowest reads, and how many took over 1 s), not judged;
- unnamed: a reader's error that is not a ParseError naming the file.

Then `--cli` mutants spread evenly over the run, and the riskiest ones (the `--cli-risky` K
slowest to read, the K slowest to check, and the first K whose reading raised a Python warning,
which the command line would print on standard error), go through `python -m nonosat check FILE
--timeout S` (every fourth as `FILE#1`), whose deadline covers reading: exit codes 0, 1, 2, 3, 4
and 6 only ("undocumented" otherwise), code 2 with one line on standard error that starts
"nonosat: " and names the file ("unnamed" otherwise), no "Traceback", and an end within S + 1 s
("hang"). Failures keep their mutant under `--failures` (default bench/results/fuzz-failures/)
with a note of what happened and how to reproduce it. Exit code 1 when any traceback, hang,
undocumented exit code or unnamed message was found, else 0; 2 for usage errors.

The parts: the seeds in bench/fuzz_seeds.py, the mutations and mutant N in fuzz_mutants.py (what
they insert in fuzz_tokens.py), the categories in fuzz_categories.py, one mutant through the API
in fuzz_worker.py and the pool of workers in fuzz_pool.py, the command line in fuzz_cli.py, the
failures kept in fuzz_failures.py, and both runs in fuzz_runs.py; here, the command and its report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench.fuzz_categories import API_CATEGORIES, CLI_CATEGORIES, FAILURES
from bench.fuzz_cli import cli_sample
from bench.fuzz_failures import Keeper
from bench.fuzz_mutants import make_mutant
from bench.fuzz_runs import run_api, run_command_line
from bench.fuzz_seeds import REPO, Seed, all_seeds, corpus_root
from bench.fuzz_worker import run_mutant


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def source_digest() -> dict[str, object]:
    """Which nonosat ran: its folder, a SHA-1 of its sources, and the git commit when that is exact."""
    import nonosat

    package = Path(nonosat.__file__).resolve().parent
    digest = hashlib.sha1()
    for file in sorted(package.rglob("*.py")):
        digest.update(str(file.relative_to(package)).encode() + b"\0" + file.read_bytes())
    commit = None
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=package, capture_output=True, text=True, timeout=10, check=False
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."],
            cwd=package,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if head.returncode == 0 and dirty.returncode == 0:
            commit = head.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return {"path": str(package), "sources_sha1": digest.hexdigest(), "commit": commit}


def table(rows: dict[str, Counter[str]], categories: Sequence[str], first: str) -> str:
    """A Markdown table of counts, one row per group and a total row."""
    total: Counter[str] = Counter()
    for counts in rows.values():
        total.update(counts)
    lines = [
        f"| {first} | mutants | " + " | ".join(categories) + " |",
        "|---|---:|" + "---:|" * len(categories),
    ]
    for name, counts in [*sorted(rows.items()), ("total", total)]:
        shown = f"**{name}**" if name == "total" else name
        lines.append(
            f"| {shown} | {sum(counts.values()):,} | " + " | ".join(f"{counts[c]:,}" for c in categories) + " |"
        )
    return "\n".join(lines)


def replay(args: argparse.Namespace, seeds: list[Seed]) -> int:
    """Make mutant N again, keep it in the failures folder, and run it through the API here."""
    mutant = make_mutant(args.replay, args.seed, seeds)
    args.failures.mkdir(parents=True, exist_ok=True)
    path = args.failures / f"replay-{mutant.index:06d}{mutant.seed.suffix}"
    path.write_bytes(mutant.data)
    print(f"mutant {mutant.index} of seed {mutant.seed.name} ({len(mutant.data)} bytes), kept as {path}")
    with tempfile.TemporaryDirectory(prefix="nonosat-fuzz-") as folder:
        outcome = run_mutant(mutant, Path(folder), args.timeout, lambda stage: print(f"  {stage}", flush=True))
    print(
        f"{outcome.category} {outcome.stage}; errors {outcome.error_types}; "
        f"check {outcome.statuses}; {outcome.seconds:.2f} s"
    )
    if outcome.detail:
        print(outcome.detail)
    for warning in outcome.warnings:
        print(f"warned: {warning}")
    print(f"the command line: python -m nonosat check {path} --timeout {args.timeout:g}")
    return 1 if outcome.category in FAILURES else 0


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--mutants", type=int, default=100_000, metavar="N", help="mutants through the API (default 100000)"
    )
    parser.add_argument(
        "--cli", type=int, default=500, metavar="N", help="of them, how many also go through the CLI (default 500)"
    )
    parser.add_argument(
        "--cli-risky",
        type=int,
        default=20,
        metavar="K",
        help="also through the CLI: the K slowest to read, the K "
        "slowest to check, the first K that warned (default 20)",
    )
    parser.add_argument(
        "--timeout", type=float, default=2.0, metavar="S", help="the deadline of each check (default 2)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="the run's seed: mutant N depends only on it and N (default 0)"
    )
    parser.add_argument(
        "--jobs", type=int, default=usable_cores(), metavar="N", help="worker processes (default: the usable cores)"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the counts, settings and failures as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    parser.add_argument(
        "--failures",
        type=Path,
        default=REPO / "bench" / "results" / "fuzz-failures",
        metavar="DIR",
        help="where reproducers are kept (default bench/results/fuzz-failures)",
    )
    parser.add_argument("--note", default="", help="a note kept in the JSON settings (what was run: a commit, say)")
    parser.add_argument("--replay", type=int, metavar="N", help="make mutant N again and run it in this process")
    args = parser.parse_args(argv)
    if min(args.mutants, args.cli, args.cli_risky) < 0 or args.jobs < 1 or not args.timeout > 0:
        parser.error("--mutants, --cli and --cli-risky must be at least 0, --jobs at least 1, --timeout positive")
    args.cli = min(args.cli, args.mutants)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench.fuzz: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    if args.json is not None and not args.json.resolve().parent.is_dir():
        print(f"bench.fuzz: cannot write {args.json}: no folder {args.json.parent}", file=sys.stderr)
        return 2
    seeds = all_seeds(corpus_root())
    if args.replay is not None:
        return replay(args, seeds)
    from nonosat.formats.atomic import write_text_atomic

    keeper = Keeper(args.failures, args.seed, args.timeout)
    started = time.monotonic()
    groups = Counter(seed.group for seed in seeds)
    print(
        f"{len(seeds)} seeds in {len(groups)} groups; {args.mutants:,} mutants, {args.cli} through the CLI, "
        f"check timeout {args.timeout:g} s, {args.jobs} workers, seed {args.seed}",
        flush=True,
    )
    api, api_extras, slowest = run_api(args, seeds, keeper)
    print(f"\nThrough the API ({api_extras['seconds']} s):\n")
    print(table(api, API_CATEGORIES, "seed group"))
    print(f"\ncheck statuses {api_extras['check_statuses']}; errors {api_extras['error_types']}")
    slowest_load, slowest_check = (
        api_extras[k][0] if api_extras[k] else None for k in ("slowest_loads", "slowest_checks")
    )
    print(f"loads over 1 s: {api_extras['loads_over_1s']}; slowest load {slowest_load}; slowest check {slowest_check}")
    print(f"mutants whose reading warned: {api_extras['mutants_with_warnings']}")
    indices = sorted(set(cli_sample(args.cli, args.mutants)) | set(slowest))
    cli, cli_extras = run_command_line(args, seeds, keeper, indices)
    print(
        f"\nThrough `python -m nonosat check` ({len(indices)} commands: {args.cli} spread over the run and the "
        f"riskiest, {args.cli_risky} of each kind; {cli_extras['seconds']} s; "
        f"exit codes {cli_extras['exit_codes']}, slowest {cli_extras['slowest_seconds']} s):\n"
    )
    print(table(cli, CLI_CATEGORIES, "seed group"))
    totals = Counter[str]()
    for row in (*api.values(), *cli.values()):
        totals.update({c: row[c] for c in FAILURES})
    seconds = round(time.monotonic() - started, 1)
    print("\nfailures: " + ", ".join(f"{c} {totals[c]}" for c in FAILURES) + f"; {seconds} s in all")
    for entry in keeper.listed[:20]:
        print(
            f"  {entry['category']} ({entry['where']}) mutant {entry['index']} "
            f"of {entry['seed']}: {entry['file'] or entry['replay']}"
        )
    if args.json is not None:
        report = {
            "settings": {
                "mutants": args.mutants,
                "cli": args.cli,
                "cli_risky": args.cli_risky,
                "timeout": args.timeout,
                "seed": args.seed,
                "note": args.note,
                "jobs": args.jobs,
                "python": sys.version.split()[0],
                "nonosat": source_digest(),
                "seeds": dict(sorted(groups.items())),
            },
            "seconds": seconds,
            "api": {"counts": {g: dict(c) for g, c in api.items()}, **api_extras},
            "cli": {"counts": {g: dict(c) for g, c in cli.items()}, **cli_extras},
            "failures": {c: totals[c] for c in FAILURES},
            "failed": keeper.listed,
        }
        write_text_atomic(args.json, json.dumps(report, indent=2) + "\n", force=args.force)
        print(f"wrote {args.json}")
    return 1 if any(totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
