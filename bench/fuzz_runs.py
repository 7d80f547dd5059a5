"""The fuzzer's two runs: every mutant through the API in the pool of workers, then a sample of
them through the command line; each counted per seed group and category.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.fuzz_categories import API_CATEGORIES, FAILURES
from bench.fuzz_cli import CliOutcome, nonosat_environment, run_cli
from bench.fuzz_failures import Keeper
from bench.fuzz_mutants import Mutant, make_mutant
from bench.fuzz_pool import Pool
from bench.fuzz_seeds import Seed


@dataclass
class Slowest:
    """The `size` mutants with the largest times seen, as (seconds, index, seed)."""

    size: int
    kept: list[tuple[float, int, str]] = field(default_factory=list)

    def add(self, seconds: float, index: int, seed: str) -> None:
        if len(self.kept) < self.size or seconds > self.kept[-1][0]:
            self.kept = sorted([*self.kept, (seconds, index, seed)], reverse=True)[: self.size]

    def json(self) -> list[dict[str, object]]:
        return [{"seconds": round(s, 3), "index": i, "seed": seed} for s, i, seed in self.kept]


def run_api(
    args: argparse.Namespace, seeds: list[Seed], keeper: Keeper
) -> tuple[dict[str, Counter[str]], dict[str, Any], list[int]]:
    """Every mutant through the API in worker processes: counts per group and category, the
    figures beside them, and the riskiest mutants for the command line (the slowest to read and to
    check, and the first that raised warnings)."""
    counts: dict[str, Counter[str]] = {group: Counter() for group in sorted({s.group for s in seeds})}
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    loads, checks = Slowest(args.cli_risky), Slowest(args.cli_risky)
    loads_over_1s = 0
    warned: Counter[str] = Counter()
    warned_indices: list[int] = []
    warning_examples: dict[str, object] = {}
    command = f"python -m nonosat check FILE --timeout {args.timeout:g}"

    def stuck(index: int, category: str, stage: str, why: str) -> None:
        mutant = make_mutant(index, args.seed, seeds)
        counts[mutant.seed.group][category] += 1
        keeper.keep(mutant, category, "api", f"{stage}: {why}", command)

    pool = Pool(args.jobs, seeds, args.seed, args.timeout)
    started = last = time.monotonic()
    done = 0
    try:
        for outcome in pool.run(range(args.mutants), stuck):
            done += 1
            counts[outcome.group][outcome.category] += 1
            statuses.update(outcome.statuses)
            errors.update(outcome.error_types)
            loads.add(outcome.load_seconds, outcome.index, outcome.seed)
            checks.add(outcome.check_seconds, outcome.index, outcome.seed)
            loads_over_1s += outcome.load_seconds > 1.0
            for kind in sorted({w.split(":")[0] for w in outcome.warnings}):
                warned[kind] += 1
                warning_examples.setdefault(
                    kind, {"index": outcome.index, "seed": outcome.seed, "warning": outcome.warnings[0]}
                )
            if outcome.warnings and len(warned_indices) < args.cli_risky:
                warned_indices.append(outcome.index)
            if outcome.category in FAILURES:
                mutant = make_mutant(outcome.index, args.seed, seeds)
                keeper.keep(mutant, outcome.category, "api", f"{outcome.stage}: {outcome.detail}", command)
            if time.monotonic() - last > 30:
                last = time.monotonic()
                print(progress(done, args.mutants, last - started, counts), file=sys.stderr, flush=True)
    finally:
        pool.close()
    extras = {
        "seconds": round(time.monotonic() - started, 1),
        "check_statuses": dict(statuses.most_common()),
        "error_types": dict(errors.most_common()),
        "loads_over_1s": loads_over_1s,
        "mutants_with_warnings": dict(warned.most_common()),
        "warning_examples": warning_examples,
        "slowest_loads": loads.json(),
        "slowest_checks": checks.json(),
    }
    return counts, extras, sorted({index for _, index, _ in loads.kept + checks.kept} | set(warned_indices))


def progress(done: int, total: int, seconds: float, counts: dict[str, Counter[str]]) -> str:
    total_counts: Counter[str] = Counter()
    for row in counts.values():
        total_counts.update(row)
    shown = ", ".join(f"{c} {total_counts[c]}" for c in API_CATEGORIES)
    return f"bench.fuzz: {done:,}/{total:,} mutants in {seconds:.0f} s ({shown})"


def run_command_line(
    args: argparse.Namespace, seeds: list[Seed], keeper: Keeper, indices: Sequence[int]
) -> tuple[dict[str, Counter[str]], dict[str, Any]]:
    """These mutants through the command line, `--jobs` commands at a time."""
    counts: dict[str, Counter[str]] = {group: Counter() for group in sorted({s.group for s in seeds})}
    codes: Counter[int | None] = Counter()
    folder = Path(tempfile.mkdtemp(prefix="nonosat-fuzz-cli-"))
    environment = nonosat_environment()
    started = time.monotonic()
    slowest = 0.0
    try:

        def one(place_and_index: tuple[int, int]) -> tuple[Mutant, CliOutcome]:
            place, index = place_and_index
            mutant = make_mutant(index, args.seed, seeds)
            return mutant, run_cli(mutant, folder, args.timeout, environment, select=place % 4 == 3)

        with ThreadPoolExecutor(args.jobs) as threads:
            for mutant, result in threads.map(one, enumerate(indices)):
                counts[result.group][result.category] += 1
                codes[result.code] += 1
                slowest = max(slowest, result.seconds)
                if result.category in FAILURES:
                    command = (
                        f"python -m nonosat check {'FILE#1' if result.argument.endswith('#1') else 'FILE'} "
                        f"--timeout {args.timeout:g}"
                    )
                    keeper.keep(mutant, result.category, "cli", f"check {result.argument}: {result.detail}", command)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    extras = {
        "seconds": round(time.monotonic() - started, 1),
        "commands": len(indices),
        "exit_codes": {str(code): n for code, n in sorted(codes.items(), key=lambda item: str(item[0]))},
        "slowest_seconds": round(slowest, 3),
    }
    return {group: row for group, row in counts.items() if row}, extras
