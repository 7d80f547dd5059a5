"""Batch runs over whole collections: every puzzle solved once, results streamed to JSON Lines.

    from nonosat.batch import run
    for record in run(["puzzles/"], out="results.jsonl", jobs=2):
        print(record["path"], record["status"])

Paths may be folders (searched recursively), globs, and files holding several puzzles
(tournament files, `.nonpack`, webpbn XML sets), which are expanded to `FILE#N`, one record each;
a path that names nothing is refused before any work. Each record is one JSON object on its own
line (see `RECORD_KEYS`). With `out`, records already in that file are skipped, so a run that was
interrupted or killed picks up where it stopped: a half-written last line is dropped, and at most
the puzzles in flight are redone; `retry` names statuses (such as `unknown`) whose records are
dropped and solved again. One bad file never stops the run: it is one `error` record.

Executors: "local" runs worker processes on this machine; "dask" sends batches of puzzles to a
Dask cluster (`scheduler="tcp://host:8786"`), or to a `LocalCluster` it starts. Dask is an
optional extra, imported only here and only for that executor.
"""

from __future__ import annotations

import glob
import hashlib
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from nonosat import cores
from nonosat.errors import ImpossiblePuzzle, NonosatError, UsageError
from nonosat.model import Grid, Puzzle
from nonosat.results import Record, Writer, read_results, rewrite_results

if TYPE_CHECKING:
    from nonosat.solver import Result

T = TypeVar("T")

RECORD_KEYS = (
    "path",
    "width",
    "height",
    "status",
    "method",
    "solutions",
    "seconds",
    "solution_sha1",
    "goal_ok",
    "error",
)
STATUSES = ("unique", "multiple", "none", "unknown", "error")
"""`goal_ok` is true or false when the puzzle file gives a goal: whether it satisfies the clues."""
EXECUTORS = ("local", "dask")
DASK_HINT = "pip install 'nonosat[dask]'"

SKIPPED_NAMES = ("README", "LICENSE", "LICENCE", "SOURCE", "COPYING", "FORMAT")
SKIPPED_SUFFIXES = (".md", ".out", ".rst", ".html", ".py")
"""Files a folder search passes over: documents and solutions that sit beside puzzle files."""

LOCAL_CHUNK = 8
DASK_CHUNK = 64
"""Puzzles per task: tournament puzzles take milliseconds, so one task per puzzle would spend
more time on scheduling than on solving."""


@dataclass(frozen=True)
class Task:
    """One puzzle to solve, or one file that could not be read (`puzzle` is None)."""

    path: str
    puzzle: Puzzle | None
    error: str | None = None


def solution_sha1(grid: Grid) -> str:
    """SHA-1 of the grid written as rows of '#' and '.' joined by newlines."""
    text = "\n".join("".join("#" if cell else "." for cell in row) for row in grid)
    return hashlib.sha1(text.encode()).hexdigest()


def _files(path: str) -> list[str]:
    """The files a PATHS argument names: itself, a folder's files (recursively), or a glob's;
    UsageError when it names nothing. File names are tidied (`./x` is `x`); game IDs are not."""
    from nonosat.formats import names_game_id

    if Path(path).is_dir():
        found = []
        for file in sorted(Path(path).rglob("*")):
            name = file.name
            if not file.is_file() or name.startswith(".") or file.suffix.lower() in SKIPPED_SUFFIXES:
                continue
            if name.upper().startswith(SKIPPED_NAMES):
                continue
            found.append(str(file))
        if not found:
            raise UsageError(f"{path}: no puzzle files in this folder")
        return found
    if names_game_id(path):
        return [path]
    if not Path(path).exists() and glob.has_magic(path):
        found = sorted(os.path.normpath(p) for p in glob.glob(path, recursive=True) if Path(p).is_file())
        if not found:
            raise UsageError(f"{path}: no file matches")
        return found
    head, hash_sign, tail = path.rpartition("#")
    if not Path(path).exists() and hash_sign and Path(head).is_file():
        return [f"{os.path.normpath(head)}#{tail}"]  # puzzle N of a file of several
    if not Path(path).exists():
        raise UsageError(f"{path}: no such file or folder")
    return [os.path.normpath(path)]


def check_paths(paths: Sequence[str]) -> None:
    """Refuse, before any work, a path that names no file (UsageError naming it)."""
    if not paths:
        raise UsageError("no puzzle files or folders given")
    for path in paths:
        _files(path)


def tasks(paths: Sequence[str]) -> Iterator[Task]:
    """Every puzzle the paths hold, in order; a file that cannot be read gives one error task
    (whatever went wrong reading it)."""
    from nonosat.formats import load_all

    for given in paths:
        for file in _files(given):
            try:
                puzzles = load_all(file)
            except NonosatError as error:
                yield Task(file, None, str(error))
                continue
            except Exception as error:  # noqa: BLE001 - a reader's bug must not end the run
                yield Task(file, None, f"{file}: cannot be read ({type(error).__name__})")
                continue
            for index, puzzle in enumerate(puzzles):
                yield Task(_label(file, puzzle, index, len(puzzles)), puzzle)


def _label(file: str, puzzle: Puzzle, index: int, count: int) -> str:
    if count == 1:
        return file
    tail = (puzzle.source or "").rpartition("#")[2]
    return f"{file}#{tail if tail.isdigit() else index + 1}"


RACE_AFTER = 1.0
"""Seconds a puzzle gets in a batch worker before a second solver races it (`solve`'s
`race_after`): later than a single solve's 0.1 s, because the other cores are already busy
with other puzzles, so only the rare hard ones (29 of taai2011's 1,000) borrow a core, and
those are where the race cuts the time most. While one races, the other workers hold back their
next puzzle (nonosat.cores)."""


def solve_one(puzzle: Puzzle, timeout: float | None, count: int, race: bool = False) -> Result:
    """`solve` as a batch worker runs it: with `race`, a second solver joins after RACE_AFTER
    seconds, and the puzzle waits to start until the other workers leave it a core (see
    nonosat.cores); a puzzle refuted before any search is a `none` result by line logic."""
    from nonosat.solver import Result, Status, solve

    if race:
        cores.wait_for_core()
    started = time.monotonic()
    try:
        return solve(puzzle, count=count, timeout=timeout, jobs=2 if race else 1, race_after=RACE_AFTER)
    except ImpossiblePuzzle:
        return Result(puzzle, Status.NONE, (), "line", time.monotonic() - started, True)
    finally:
        if race:
            cores.done()


def solve_task(task: Task, timeout: float | None, count: int, race: bool = False) -> Record:
    """Solve one task in this process; with `race`, a puzzle that takes over RACE_AFTER seconds
    is joined by a rival solver in a worker process (one core each, otherwise). Whatever goes
    wrong gives an `error` record: one puzzle never stops the run."""
    record: Record = dict.fromkeys(RECORD_KEYS)
    record.update(path=task.path, solutions=0, seconds=0.0)
    if task.puzzle is None:
        record.update(status="error", error=task.error)
        return record
    puzzle = task.puzzle
    record.update(width=puzzle.width, height=puzzle.height)
    if puzzle.goal is not None:
        record.update(goal_ok=puzzle.satisfied_by(puzzle.goal))
    started = time.perf_counter()
    try:
        result = solve_one(puzzle, timeout, count, race)
    except Exception as error:  # noqa: BLE001 - one puzzle never stops the run
        message = str(error) if isinstance(error, NonosatError) else f"internal error: {type(error).__name__}: {error}"
        record.update(status="error", error=message, seconds=round(time.perf_counter() - started, 6))
        return record
    status = result.status.value
    if status == "solved":  # count=1: a solution, uniqueness not asked
        status = "unique" if result.complete else "solved"
    record.update(
        status=status,
        method=result.method,
        solutions=len(result.solutions),
        seconds=round(result.seconds, 6),
        solution_sha1=solution_sha1(result.solutions[0].grid) if result.solutions else None,
    )
    return record


def solve_chunk(chunk: list[Task], timeout: float | None, count: int, race: bool = False) -> list[Record]:
    """What one worker task does: solve a batch of puzzles, one record each."""
    return [solve_task(task, timeout, count, race) for task in chunk]


# --- running ----------------------------------------------------------------------------------


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _local(todo: list[Task], jobs: int, timeout: float | None, count: int) -> Iterator[Record]:
    if jobs == 1:
        for task in todo:
            yield solve_task(task, timeout, count)
        return
    from nonosat.portfolio import can_race

    race = can_race()  # workers are processes of ours, one puzzle at a time: they may race
    for records in _pooled(solve_chunk, _chunks(todo, LOCAL_CHUNK), jobs, timeout, count, race):
        yield from records


def _pooled(work: Callable[..., T], chunks: Iterator[Any], jobs: int, *args: Any) -> Iterator[T]:
    """`work(chunk, *args)` for every chunk, on `jobs` worker processes, each result as soon as
    its chunk is done, with no more than a few chunks queued. The workers share a table of the
    cores their puzzles take (nonosat.cores), for the race. They ignore Ctrl-C and die with this
    process: when the run does not finish (Ctrl-C, an error, a consumer that stops early) they
    are killed at once, and when this process is killed outright Linux kills them
    (nonosat.lifeline). A worker that dies (killed by the system for memory, say) ends the run
    with an error: the records so far are kept, and the same command resumes."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing import resource_tracker

    from nonosat import interrupts

    context = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing inherited but what we pass
    resource_tracker.ensure_running()  # outside `held`: it unblocks SIGINT itself, which would lose one there
    shared = cores.table(context, jobs)
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_starts, initargs=(shared, RACE_AFTER))

    def submit(chunk: Any) -> Any:
        with interrupts.held():  # a worker started now begins life ignoring Ctrl-C, which we handle
            return pool.submit(work, chunk, *args)

    pending: set[Any] = set()
    finished = False
    try:
        for chunk in chunks:
            pending.add(submit(chunk))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                following = next(chunks, None)
                if following is not None:
                    pending.add(submit(following))
        finished = True
    except BrokenProcessPool:
        raise NonosatError(
            "a worker process died (the system may have killed it for memory); "
            "the results so far are kept, and the same command resumes"
        ) from None
    finally:
        if not finished:
            _kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _kill_workers(pool: Any) -> None:
    """End a pool's worker processes now (their puzzles are abandoned)."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list(getattr(pool, "_processes", {}).values()):  # before 3.14, the pool's own table
        process.kill()


def _worker_starts(shared: tuple[Any, Any], race_after: float) -> None:
    """A batch worker's first act: leave Ctrl-C to its parent, die with it, take a core slot."""
    from nonosat.lifeline import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    cores.join(shared, race_after)


def check_executor(executor: str) -> None:
    """Refuse an unknown executor, or Dask when it is not installed, before any work starts."""
    if executor not in EXECUTORS:
        raise UsageError(f"the executor is {' or '.join(EXECUTORS)}, not {executor!r}")
    if executor == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UsageError(f"--executor dask needs Dask: {DASK_HINT}") from None


def _dask(todo: list[Task], scheduler: str | None, jobs: int, timeout: float | None, count: int) -> Iterator[Record]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError(f"--executor dask needs Dask: {DASK_HINT}") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as error:
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        futures = [client.submit(solve_chunk, chunk, timeout, count, pure=False) for chunk in _chunks(todo, DASK_CHUNK)]
        for future in as_completed(futures):
            yield from future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


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
) -> Iterator[Record]:
    """Solve every puzzle the paths hold, yielding each new record as it finishes.

    With `out`, records are appended to that JSON Lines file as they come, and puzzles it
    already holds are skipped, except those whose status is in `retry` (solved again, with
    this run's `timeout` per puzzle). `jobs` is the number of worker processes (default: the
    cores this process may use), `count` the solutions looked for (2 decides uniqueness).
    `todo` gives the tasks directly (see `pending`), instead of expanding `paths` again.
    """
    from nonosat.portfolio import usable_cores

    check_executor(executor)
    if count < 1:
        raise UsageError("count must be at least 1")
    workers = jobs or usable_cores()
    if todo is None:
        todo = pending(paths, out, retry=retry)[0]
    writer = Writer(Path(out)) if out is not None else None
    stream: Iterable[Record]
    if executor == "dask":
        stream = _dask(todo, scheduler, workers, timeout, count)
    else:
        stream = _local(todo, workers, timeout, count)
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


def same_path(path: str) -> str:
    """A record's path as it is compared: `./x` and `x` are the same puzzle (game IDs are kept
    as they are: `//` is an empty clue there)."""
    from nonosat.formats import names_game_id

    if names_game_id(path):
        return path
    head, hash_sign, tail = path.rpartition("#")
    if hash_sign and tail.isdigit():
        return f"{os.path.normpath(head)}#{tail}"
    return os.path.normpath(path)


def pending(paths: Sequence[str], out: str | Path | None, retry: Sequence[str] = ()) -> tuple[list[Task], list[Record]]:
    """The tasks still to do, and the records `out` already holds (empty without `out`).

    Records whose status is in `retry` are taken out of `out` (rewritten atomically), and their
    puzzles are to do again. Raises UsageError for a path that names no file.
    """
    check_paths(paths)
    unknown = set(retry) - set(STATUSES)
    if unknown:
        raise UsageError(f"statuses to retry are {', '.join(STATUSES)}; not {', '.join(sorted(unknown))}")
    done = read_results(Path(out)) if out is not None else []
    if out is not None and any(record.get("status") in retry for record in done):
        done = [record for record in done if record.get("status") not in retry]
        rewrite_results(Path(out), done)
    seen = {same_path(str(record["path"])) for record in done}
    todo = []
    for task in tasks(paths):
        if same_path(task.path) not in seen:  # done before, or named twice in this run
            seen.add(same_path(task.path))
            todo.append(task)
    return todo, done


# --- many puzzles in memory, for library callers --------------------------------------------


def solve_many(
    puzzles: Sequence[Puzzle],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    count: int = 2,
) -> Iterator[tuple[int, Result]]:
    """Solve puzzles already in memory on `jobs` worker processes (default: the usable cores), yielding
    (index, result) pairs as they finish, not in order. Each puzzle gets one core, and one that
    is still unsolved after RACE_AFTER seconds races a second solver, as in `run`. A puzzle
    refuted before any search (`ImpossiblePuzzle`) gives a `none` result by line logic; any
    other error `solve` raises in a worker is raised here as a `NonosatError` with its message."""
    from nonosat.portfolio import usable_cores

    if count < 1:
        raise UsageError("count must be at least 1")
    workers = jobs or usable_cores()
    numbered = list(enumerate(puzzles))
    if workers == 1:
        for index, puzzle in numbered:
            yield index, solve_one(puzzle, timeout, count)
        return
    from nonosat.portfolio import can_race

    race = can_race()
    for results in _pooled(_solve_numbered, _chunks(numbered, LOCAL_CHUNK), workers, timeout, count, race):
        for index, outcome in results:
            if isinstance(outcome, str):
                raise NonosatError(outcome)
            yield index, outcome


def _solve_numbered(
    chunk: list[tuple[int, Puzzle]], timeout: float | None, count: int, race: bool
) -> list[tuple[int, Result | str]]:
    """What one `solve_many` worker task does; an error travels back as its message."""
    done: list[tuple[int, Result | str]] = []
    for index, puzzle in chunk:
        try:
            done.append((index, solve_one(puzzle, timeout, count, race)))
        except NonosatError as error:
            done.append((index, str(error)))
    return done
