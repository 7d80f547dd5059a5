"""One mutant through the API, in a worker process: `load_all(FILE)`, `load(FILE#N)` and
`check(puzzle, timeout=S)`, every error classified.
"""

from __future__ import annotations

import shutil
import signal
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.fuzz_categories import HANG, OK, OTHER, REFUSED, SEVERITY, TRACEBACK, UNNAMED
from bench.fuzz_mutants import Mutant, make_mutant, mutant_path
from bench.fuzz_seeds import Seed

PUZZLES_PER_MUTANT = 3
"""Puzzles of one mutant that go through `check` (a tournament run can hold several)."""


@dataclass
class Outcome:
    """What became of one mutant through the API."""

    index: int
    group: str
    seed: str
    category: str = OK
    stage: str = ""
    detail: str = ""
    error_types: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    seconds: float = 0.0
    load_seconds: float = 0.0
    """The longer of `load_all` and `load(FILE#N)`."""
    check_seconds: float = 0.0
    """The longest `check`."""
    warnings: list[str] = field(default_factory=list)
    """The warnings reading raised (Pillow's DecompressionBombWarning, say), as "Class: message"."""

    def worsen(self, category: str, stage: str, detail: str) -> None:
        """Keep the worst category seen (a traceback over a hang over an unnamed message...)."""
        if SEVERITY[category] < SEVERITY[self.category]:
            self.category, self.stage, self.detail = category, stage, detail


def reader_error(outcome: Outcome, stage: str, error: BaseException, path: Path) -> None:
    """Classify an error from `load_all` or `load(FILE#N)`: only a ParseError naming the file is
    clean (and for `FILE#N`, a number past the file's puzzles is expected, so it is not counted)."""
    from nonosat import NonosatError, ParseError

    if isinstance(error, ParseError) and error.path == str(path):
        if stage == "load_all":
            outcome.error_types.append(type(error).__name__)
            outcome.worsen(REFUSED, stage, str(error)[:300])
        return
    outcome.error_types.append(type(error).__name__)
    if isinstance(error, NonosatError):
        shown = f"{type(error).__name__} (path {getattr(error, 'path', None)!r}): {error}"
        outcome.worsen(UNNAMED, stage, shown[:2000])
    else:
        outcome.worsen(TRACEBACK, stage, "".join(traceback.format_exception(error))[-4000:])


def read_mutant(mutant: Mutant, path: Path, outcome: Outcome, report: Callable[[str], None]) -> list[Any]:
    """`load_all(FILE)`, then `load(FILE#N)`: the puzzles of the first, every error classified.

    Reading has no deadline in the API, so a slow read is timed, not judged, here; the slowest
    ones go through the command line too, whose --timeout covers reading."""
    from nonosat import load, load_all

    loaded: list[Any] = []
    for stage in ("load_all", f"load #{mutant.number}"):
        report(stage)
        begun = time.perf_counter()
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                if stage == "load_all":
                    loaded = load_all(path)
                else:
                    load(f"{path}#{mutant.number}")
            except Exception as error:  # noqa: BLE001 - classified, not hidden
                reader_error(outcome, stage, error, path)
        outcome.load_seconds = max(outcome.load_seconds, time.perf_counter() - begun)
        outcome.warnings += [f"{w.category.__name__}: {str(w.message)[:200]}" for w in warned]
    return loaded


def run_mutant(mutant: Mutant, folder: Path, timeout: float, report: Callable[[str], None]) -> Outcome:
    """Load a mutant's file, select a puzzle by number, check up to three of its puzzles."""
    from nonosat import NonosatError, check

    outcome = Outcome(mutant.index, mutant.seed.group, mutant.seed.name)
    path = mutant_path(folder, mutant)
    path.write_bytes(mutant.data)
    started = time.perf_counter()
    limit = timeout + 1.0
    try:
        puzzles = read_mutant(mutant, path, outcome, report)
        for number, puzzle in enumerate(puzzles[:PUZZLES_PER_MUTANT], start=1):
            stage = f"check puzzle {number}"
            report(stage)
            begun = time.perf_counter()
            try:
                outcome.statuses.append(check(puzzle, timeout=timeout).status.value)
            except NonosatError as error:
                outcome.error_types.append(type(error).__name__)
                outcome.worsen(OTHER, stage, str(error)[:300])
            except Exception as error:  # noqa: BLE001 - classified, not hidden
                outcome.error_types.append(type(error).__name__)
                outcome.worsen(TRACEBACK, stage, "".join(traceback.format_exception(error))[-4000:])
            took = time.perf_counter() - begun
            outcome.check_seconds = max(outcome.check_seconds, took)
            if took > limit:
                outcome.worsen(HANG, stage, f"check(timeout={timeout:g}) took {took:.2f} s")
    finally:
        path.unlink(missing_ok=True)
    outcome.seconds = time.perf_counter() - started
    return outcome


def warm_up(seeds: Sequence[Seed], folder: Path) -> None:
    """Import every reader and the solver, so that no first mutant pays for the imports."""
    from nonosat import check, load_all

    for seed in {seed.group: seed for seed in seeds}.values():
        path = folder / f"warm-up{seed.suffix}"
        path.write_bytes(seed.data)
        try:
            for puzzle in load_all(path)[:1]:
                if puzzle.width * puzzle.height <= 100:
                    check(puzzle, timeout=1)
        except Exception:  # noqa: BLE001, S110 - only imports matter here; the run itself classifies errors
            pass
        path.unlink()


def worker(conn: Connection, seeds: list[Seed], run_seed: int, timeout: float, base: Path) -> None:
    """Run mutants by index until told to stop: ("stage", name) before each stage, then ("done", outcome)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    folder = Path(tempfile.mkdtemp(prefix="worker-", dir=base))
    try:
        warm_up(seeds, folder)
        conn.send(("ready", ""))
        while (index := conn.recv()) is not None:
            mutant = make_mutant(index, run_seed, seeds)
            outcome = run_mutant(mutant, folder, timeout, lambda stage: conn.send(("stage", stage)))
            conn.send(("done", outcome))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
