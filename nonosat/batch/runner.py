"""A batch run: every task solved once, on the chosen executor, each record written as it comes."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from nonosat.arguments import check_flag, check_whole
from nonosat.batch.executors import check_executor, chunks, dask, local, pooled
from nonosat.batch.results import Record, Writer
from nonosat.batch.tasks import Task, pending
from nonosat.batch.work import RunOptions, solve_numbered, solve_one
from nonosat.errors import NonosatError, UsageError
from nonosat.limits import MAX_COUNT, MAX_JOBS
from nonosat.model import Puzzle

if TYPE_CHECKING:
    from nonosat.solver import Result


def run(
    paths: Sequence[str],
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    timeout: float | None = None,
    count: int = 2,
    executor: str = "local",
    scheduler: str | None = None,
    todo: list[Task] | None = None,
    retry: Sequence[str] = (),
    pictures: bool = False,
    engine: str = "auto",
    certificates: str | Path | None = None,
    force: bool = False,
) -> Iterator[Record]:
    """Solve every puzzle the paths hold: an iterator of each new record as it finishes. What
    is asked amiss (the executor, the engine, the count, a certificates path that is a file) is
    refused by this call, before any record is asked for.

    With `out`, records are appended to that JSON Lines file as they come, and puzzles it
    already holds are skipped, except those whose status is in `retry` (solved again, with
    this run's `timeout` per puzzle). `jobs` is the number of worker processes (default: the
    cores this process may use), `count` the solutions looked for (2 decides uniqueness).
    `todo` gives the tasks directly (see `pending`), instead of expanding `paths` again. Folders
    give their puzzle files, and their pictures too with `pictures`. `engine` searches what line
    logic leaves open (see `nonosat.solver.solve`); a puzzle it cannot take is an `error` record.
    With `certificates`, a folder, each decided verdict's certificate is written into a folder of
    it named after the puzzle (`nonosat.certificate`). A run that goes on with an `out` that is
    there replaces the certificates of the puzzles it solves again; any other run refuses,
    before any work, a folder of certificates that holds one for a puzzle it is to solve, unless
    `force`. A `scheduler` is for the dask executor only.
    """
    check_flag(pictures, "pictures")
    check_flag(force, "force")  # force="no" replaced the certificates (a review)
    workers = check_run(executor, engine, count, jobs, certificates, scheduler)  # before a record is asked for
    if todo is None:
        found = pending(paths, out, retry=retry, pictures=pictures)
        todo = found.todo
        if certificates is not None and found.gone:
            from nonosat.batch.work import forget_certificates

            forget_certificates(certificates, found.gone)
    if certificates is not None and not force and not _resuming(out):
        _check_no_certificates(Path(certificates), todo)
    if certificates is not None:
        _check_certificates_can_be_made(Path(certificates), todo)
    options = RunOptions(timeout, count, engine, None if certificates is None else str(certificates))
    return _records(todo, None if out is None else Path(out), workers, options, executor, scheduler)


def check_run(
    executor: str, engine: str, count: int, jobs: int | None, certificates: str | Path | None, scheduler: str | None
) -> int:
    """Refuse (UsageError) what `run` is asked amiss, before anything is read or written (the
    command line asks before `pending` takes retried records out of the results file); the
    number of workers."""
    from nonosat.solver.engines import check_engine

    check_executor(executor)
    check_engine(engine)
    workers = _workers(count, jobs)
    if certificates is not None and Path(certificates).exists() and not Path(certificates).is_dir():
        raise UsageError(f"{certificates} is a file, not a folder for the certificates")
    if certificates is not None and not Path(certificates).exists():
        from nonosat.certificate import check_certificate_folder

        check_certificate_folder(certificates, force=True)  # in a read-only folder, before any work (a review)
    if scheduler is not None and executor != "dask":
        raise UsageError("{scheduler} is for the Dask executor only", scheduler="scheduler")
    if scheduler is not None:
        from nonosat.batch.cluster import read_address

        read_address(scheduler)  # an address that is no address, before the run begins (its reach: at the run)
    return workers


def _resuming(out: str | Path | None) -> bool:
    """Whether the run goes on with a results file that is there already (whose runs wrote the
    certificates)."""
    return out is not None and Path(out).is_file()


def _check_no_certificates(certificates: Path, todo: list[Task]) -> None:
    """Refuse a certificate of a puzzle to solve already in `certificates` (a new run's would
    replace it without a word)."""
    from nonosat.batch.work import certificate_folder

    if not certificates.is_dir():
        return
    there = {entry.name for entry in certificates.iterdir()}  # read once, not a look for each puzzle
    for task in todo:
        folder = certificates / certificate_folder(task.path)
        if folder.name in there and folder.is_dir() and any(folder.iterdir()):
            raise UsageError(
                f"{folder} already holds a certificate of {task.path}; use {{force}} to replace the certificates",
                force="force=True",
            )


def _check_certificates_can_be_made(certificates: Path, todo: list[Task]) -> None:
    """Refuse a read-only folder of certificates that a puzzle to solve has no folder in yet,
    before any work (a review: every puzzle solved, each record "no certificate"); one whose
    puzzles all have theirs is written in them (the diff's review: a rerun with --retry)."""
    import os

    from nonosat.batch.work import certificate_folder

    if not certificates.is_dir() or os.access(certificates, os.W_OK | os.X_OK):
        return
    there = {entry.name for entry in certificates.iterdir()}
    new = sum(certificate_folder(task.path) not in there for task in todo)
    if new:
        raise UsageError(f"cannot make the certificates of {new} puzzle(s) in {certificates}: the folder is read-only")


def _workers(count: int, jobs: int | None) -> int:
    """Check `count` and `jobs` as `run` and `solve_many` take them; the number of workers: `jobs`,
    else the usable cores within the limit a `jobs` is held to; 1 (the puzzles solved in this
    process) in a daemonic process, which may have no children: a `multiprocessing.Pool`'s
    worker, a Celery worker (a Python user's review: a bare AssertionError from the pool)."""
    from nonosat.processes import usable_cores

    check_whole(count, "count", MAX_COUNT)
    if jobs is not None:
        check_whole(jobs, "jobs", MAX_JOBS)
    if "multiprocessing" in sys.modules and sys.modules["multiprocessing"].current_process().daemon:
        return 1
    return jobs if jobs is not None else min(usable_cores(), MAX_JOBS)


def _records(
    todo: list[Task], out: Path | None, workers: int, options: RunOptions, executor: str, scheduler: str | None
) -> Iterator[Record]:
    """`run`'s records, each written to `out` (if any) as it comes."""
    writer = Writer(out) if out is not None else None
    stream: Iterable[Record]
    if executor == "dask":
        stream = dask(todo, scheduler, workers, options)
    else:
        stream = local(todo, workers, options)
    try:
        for record in stream:
            if writer is not None:
                writer.write(record)
            yield record
    finally:
        if isinstance(stream, Iterator) and hasattr(stream, "close"):
            stream.close()  # ends the workers now, not when the generator is collected
        if writer is not None:
            writer.close()


def solve_many(
    puzzles: Sequence[Puzzle],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    count: int = 2,
    engine: str = "auto",
) -> Iterator[tuple[int, Result]]:
    """Solve puzzles already in memory on `jobs` worker processes (default: the usable cores), yielding
    (index, result) pairs as they finish, not in order. Each puzzle gets one core, and one that
    is still unsolved after RACE_AFTER seconds races a rival, as in `run`; `engine` as `solve`'s. A puzzle
    refuted before any search gives a `none` result (method `checks`), as `solve` does; an error
    `solve` raises in a worker is raised here as a `NonosatError` with its message."""
    from nonosat.arguments import check_puzzle
    from nonosat.deadline import seconds_or_none
    from nonosat.solver.engines import check_engine

    check_engine(engine)
    seconds_or_none(timeout)
    workers = _workers(count, jobs)
    if isinstance(puzzles, Puzzle) or not isinstance(puzzles, Iterable):  # a TypeError from list() (a review)
        raise UsageError(f"puzzles is a list of Puzzles, not {type(puzzles).__name__}")
    numbered = list(enumerate(puzzles))
    for _, puzzle in numbered:  # here, not in a worker: the caller gets UsageError, as from `solve`
        check_puzzle(puzzle)
    options = RunOptions(timeout, count, engine)
    if workers == 1:
        for index, puzzle in numbered:
            yield index, solve_one(puzzle, options)
        return
    from nonosat.solver.race import can_race

    race = can_race()
    for results in pooled(solve_numbered, chunks(numbered, workers), workers, options, race):
        for index, outcome in results:
            if isinstance(outcome, str):
                raise NonosatError(outcome)
            yield index, outcome
