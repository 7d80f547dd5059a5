"""What a batch worker does with one task, or a chunk of them: solve it, and make its record."""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from nonosat.batch import sharing as cores
from nonosat.batch.results import Record
from nonosat.batch.tasks import Task
from nonosat.errors import NonosatError
from nonosat.model import Puzzle
from nonosat.render.records import batch_record

if TYPE_CHECKING:
    from nonosat.solver import Result

RACE_AFTER = 1.0
"""Seconds a puzzle gets in a batch worker before a second solver races it (`solve`'s
`race_after`): later than a single solve's 0.1 s, because the other cores are already busy
with other puzzles, so only the rare hard ones borrow a core, and those are where the race cuts
the time most. While one races, the other workers hold back their next puzzle
(nonosat.batch.sharing). Not sooner: 0.5 s was tried, and on 44 sets taking turns with 1 s it
made the whole commands about 2% slower (a puzzle that ends between 0.5 s and 1 s races for
nothing, and the other worker waits meanwhile) for a slowest puzzle sooner in only 24 sets of
44 (bench/README.md, "The race in a batch from 0.5 s, and back to 1 s")."""


@dataclass(frozen=True)
class RunOptions:
    """How a batch run solves each puzzle, the same for all of them: its time limit in seconds
    (None: none), how many grids to look for (2 decides uniqueness), the engine (`solve`'s), and
    the folder a decided verdict's certificate goes into (None: no certificates)."""

    timeout: float | None = None
    count: int = 2
    engine: str = "auto"
    certificates: str | None = None


def solve_one(puzzle: Puzzle, options: RunOptions, race: bool = False) -> Result:
    """`solve` as a batch worker runs it: with `race`, a second solver joins after RACE_AFTER
    seconds, and the puzzle waits to start until the other workers leave it a core (see
    nonosat.batch.sharing)."""
    from nonosat.solver import solve

    if race:
        cores.wait_for_core()
    try:
        return solve(
            puzzle,
            count=options.count,
            timeout=options.timeout,
            engine=options.engine,
            jobs=2 if race else 1,
            race_after=RACE_AFTER,
        )
    finally:
        if race:
            cores.done()


def solve_task(task: Task, options: RunOptions, race: bool = False) -> Record:
    """Solve one task in this process; with `race`, a puzzle that takes over RACE_AFTER seconds
    is joined by a rival solver in a worker process (one core each, otherwise). With
    `options.certificates`, a decided verdict's certificate goes into a folder of that one named
    after the puzzle (`certificate_folder`), within the puzzle's time limit too. Whatever goes
    wrong gives an `error` record: one puzzle never stops the run."""
    if task.puzzle is None:
        return _without_certificate(batch_record(task.path, None, error=task.error), options)
    started = time.perf_counter()
    try:
        result = solve_one(task.puzzle, options, race)
    except Exception as error:  # noqa: BLE001 - one puzzle never stops the run
        record = batch_record(task.path, task.puzzle, error=worded(error), seconds=time.perf_counter() - started)
        return _without_certificate(record, options)
    record = batch_record(task.path, task.puzzle, result)
    if options.certificates is None:
        return record
    from nonosat.certificate import CERTIFIED, make_certificate
    from nonosat.deadline import Deadline
    from nonosat.errors import OutputFailed

    if record["status"] not in CERTIFIED:
        return _without_certificate(record, options)
    timeout = options.timeout
    left = None if timeout is None else max(0.0, timeout - (time.perf_counter() - started))
    grids = tuple(solution.grid for solution in result.solutions)
    folder = Path(options.certificates) / certificate_folder(task.path)
    try:
        make_certificate(task.puzzle, record["status"], grids, folder, force=True, deadline=Deadline.after(left))
    except OutputFailed:  # a full disk stops the run, exit 74, as for the results (a review: exit 0)
        raise
    except Exception as error:  # noqa: BLE001 - the verdict stands; the record says why there is no certificate
        record["error"] = f"no certificate: {worded(error)}"
        _without_certificate(record, options)  # (an old one of this path would pass for the new verdict's)
    return record


def _without_certificate(record: Record, options: RunOptions) -> Record:
    """A record whose verdict has no certificate: an older one of the same path, from a run
    before (the puzzle since changed, or retried), is removed, so that `verify` never passes a
    verdict the record no longer gives (a review: Dancer's certificate stayed beside an error)."""
    if options.certificates is not None:
        forget_certificates(options.certificates, [str(record["path"])])
    return record


def forget_certificates(certificates: str | Path, paths: list[str]) -> None:
    """Remove the certificates of these puzzles' paths under `certificates`, where there are any
    (a folder without its certificate.json is not one of ours, and stays)."""
    for path in paths:
        old = Path(certificates) / certificate_folder(path)
        if (old / "certificate.json").is_file():
            shutil.rmtree(old, ignore_errors=True)


def worded(error: Exception) -> str:
    return str(error) if isinstance(error, NonosatError) else f"internal error: {type(error).__name__}: {error}"


def certificate_folder(path: str) -> str:
    """The folder a puzzle's certificate goes into, under --certificates: its path with slashes,
    `:` and `#` (a puzzle of a file of several) made `_`, and 8 hex digits of the path's SHA-1,
    so that two puzzles never share one (`a/b` and `a_b` differ there)."""
    import hashlib

    digest = hashlib.sha1(path.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    readable = re.sub(r"[/\\#:]+", "_", path).strip("_")[-100:]
    return f"{readable}-{digest}"


def solve_chunk(chunk: list[Task], options: RunOptions, race: bool = False) -> list[Record]:
    """What one worker task does: solve a batch of puzzles, one record each."""
    return [solve_task(task, options, race) for task in chunk]


def solve_numbered(item: tuple[int, Puzzle], options: RunOptions, race: bool) -> tuple[int, Result | str]:
    """What a `solve_many` worker does for one puzzle; an error travels back as its message."""
    index, puzzle = item
    try:
        return index, solve_one(puzzle, options, race)
    except NonosatError as error:
        return index, str(error)
