"""Where a batch run's work runs: worker processes on this machine, or a Dask cluster."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from nonosat.batch import sharing as cores
from nonosat.batch import work
from nonosat.batch.results import Record
from nonosat.batch.tasks import Task
from nonosat.batch.work import RunOptions, solve_chunk, solve_task
from nonosat.choices import Choice
from nonosat.errors import NonosatError, UsageError

T = TypeVar("T")


class Executor(Choice):
    """Where a batch run's puzzles are solved."""

    LOCAL = "local"
    """Worker processes on this machine."""
    DASK = "dask"
    """A Dask cluster (or a LocalCluster started for the run)."""


EXECUTORS = tuple(Executor)
DASK_HINT = "pip install 'nonosat[dask]'"

LOCAL_CHUNK = 8
DASK_CHUNK = 64
"""Puzzles per task: tournament puzzles take milliseconds, so one task per puzzle would spend
more time on scheduling than on solving."""
HAND_BACK = 0.2
"""Seconds of a chunk's work after which a local worker hands back the records it has (and the
rest of the chunk goes back in the queue): a record is kept, and safe from Ctrl-C, within about
this long of its puzzle's end, not when the whole chunk is done."""


def chunks(items: list[T], jobs: int, most: int = LOCAL_CHUNK) -> Iterator[list[T]]:
    """The items in chunks of up to `most`, smaller for a few items, so that every worker has
    some (a review found six puzzles on two workers solved one after the other, in one chunk)."""
    size = max(1, min(most, -(-len(items) // (4 * jobs))))
    for start in range(0, len(items), size):
        yield items[start : start + size]


def local(todo: list[Task], jobs: int, options: RunOptions) -> Iterator[Record]:
    if jobs == 1:
        for task in todo:
            yield solve_task(task, options)
        return
    from nonosat.solver.race import can_race

    race = can_race()  # workers are processes of ours, one puzzle at a time: they may race
    for records in pooled(solve_task, chunks(todo, jobs), jobs, options, race):
        yield from records


def for_a_while(job: Callable[..., T], chunk: list[Any], *args: Any) -> tuple[list[T], list[Any]]:
    """In a worker: `job(item, *args)` for the items of a chunk, in order, until HAND_BACK
    seconds have passed; the results, and the items left."""
    import time

    start = time.monotonic()
    done: list[T] = []
    for k, item in enumerate(chunk):
        done.append(job(item, *args))
        if time.monotonic() - start >= HAND_BACK:
            return done, chunk[k + 1 :]
    return done, []


def pooled(job: Callable[..., T], pieces: Iterator[list[Any]], jobs: int, *args: Any) -> Iterator[list[T]]:
    """`job(item, *args)` for every item of the pieces (chunks of tasks), on `jobs` worker processes, the
    results of each chunk as soon as it is done, or has run HAND_BACK seconds (its rest then queued
    again), with no more than a few chunks queued. The workers share a table of the
    cores their puzzles take (nonosat.batch.sharing), for the race. They ignore Ctrl-C and die with this
    process: when the run does not finish (Ctrl-C, an error, a consumer that stops early) they
    are killed at once, and when this process is killed outright Linux kills them
    (nonosat.processes). A worker that dies (killed by the system for memory, say) ends the run
    with an error: the records so far are kept, and the same command resumes."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing import resource_tracker, util

    from nonosat import interrupts
    from nonosat.processes import main_hidden

    context = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing inherited but what we pass
    if os.name == "posix":  # Windows has no resource tracker
        resource_tracker.ensure_running()  # outside `held`: it unblocks SIGINT itself, which would lose one there
    shared = cores.table(context, jobs)
    pool = ProcessPoolExecutor(
        jobs,
        mp_context=context,
        initializer=worker_starts,
        initargs=(shared, work.RACE_AFTER, interrupts.started_ignoring(), os.getpid(), util.get_temp_dir()),
    )

    def submit(chunk: list[Any]) -> Any:
        with interrupts.held(), main_hidden():  # a worker started now begins life ignoring Ctrl-C, which we handle
            return pool.submit(for_a_while, job, chunk, *args)

    pending: set[Any] = set()
    finished = False
    try:
        for chunk in pieces:
            pending.add(submit(chunk))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results, rest = future.result()
                yield results
                following = rest or next(pieces, None)
                if following:
                    pending.add(submit(following))
        finished = True
    except BrokenProcessPool:
        raise NonosatError(
            "a worker process died (the system may have killed it for memory); "
            "the results so far are kept, and the same command resumes"
        ) from None
    finally:
        if not finished:
            kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def kill_workers(pool: Any) -> None:
    """End a pool's worker processes now (their puzzles are abandoned)."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list(getattr(pool, "_processes", {}).values()):  # before 3.14, the pool's own table
        process.kill()


def worker_starts(shared: tuple[Any, Any], race_after: float, ignoring: bool, parent: int, temporary: str) -> None:
    """A batch worker's first act: leave Ctrl-C to its parent, die with it, take a core slot.
    `ignoring`: the command was started ignoring Ctrl-C, and so are the rivals this worker starts;
    `parent`: the run's process id (killed while this worker started, it is gone already);
    `temporary`: the run's multiprocessing folder, where this worker's fork server (for its races)
    puts its socket too, removed with the run's (a killed worker's own `pymp-*` was left: a review)."""
    from multiprocessing import process

    from nonosat import interrupts
    from nonosat.processes import die_with_parent

    config = getattr(process.current_process(), "_config", None)
    if isinstance(config, dict) and os.path.isdir(temporary):
        config["tempdir"] = temporary
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    interrupts.ignoring_for_workers(ignoring)
    die_with_parent(parent)
    cores.join(shared, race_after)


def check_executor(executor: str) -> None:
    """Refuse an unknown executor, or Dask when it is not installed, before any work starts."""
    if executor not in EXECUTORS:
        raise UsageError(f"the executor is {' or '.join(EXECUTORS)}, not {executor!r}")
    if executor == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UsageError(f"{{executor}} dask needs Dask: {DASK_HINT}", executor="executor") from None


def dask(todo: list[Task], scheduler: str | None, jobs: int, options: RunOptions) -> Iterator[Record]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError(f"{{executor}} dask needs Dask: {DASK_HINT}", executor="executor") from None
    cluster: Any = None
    quiet_loop_once_interrupted()
    if scheduler is None:
        client, cluster = _local_cluster(jobs, Client, LocalCluster)
    else:
        from nonosat.batch.cluster import connect

        client = connect(scheduler)
    try:
        pieces = chunks(todo, jobs, DASK_CHUNK)
        futures = [client.submit(solve_chunk, chunk, options, False, pure=False) for chunk in pieces]
        for future in as_completed(futures):
            yield from future.result()
    except BaseException as error:
        # After Ctrl-C, no closing: it takes a second or more, which Ctrl-C does not leave a
        # command (the run's last line, how to resume, was lost to it: a review). The process
        # ends instead: a LocalCluster's workers are ended with it, and a scheduler forgets the
        # tasks of a client gone.
        if not isinstance(error, KeyboardInterrupt):
            _close(client, cluster)
        elif cluster is not None:
            end_local_workers()
        raise
    _close(client, cluster)


def _local_cluster(jobs: int, client: Any, local_cluster: Any) -> tuple[Any, _Together]:
    """A LocalCluster of `jobs` worker processes for this run, and its client."""
    import logging

    quiet_resource_tracker()
    loop = deaf_loop()
    try:
        # the workers leave Ctrl-C to this process (`dask_worker`), and do not log a warning for
        # each task cancelled by it: not for this command's output
        local = local_cluster(
            loop=loop.loop,
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
            preload=["nonosat.batch.dask_worker"],
        )
    except KeyboardInterrupt:
        end_local_workers()
        raise
    return client(local), _Together(local, loop)


WORKERS_END_WITHIN = 0.5
"""Seconds `end_local_workers` waits for the workers it killed."""


DASK_WORKER = "Dask Worker process"
"""How a Dask nanny names the worker process it starts ("Dask Worker process (from Nanny)")."""


def end_local_workers() -> None:
    """Kill this process's Dask worker processes (a LocalCluster's, started by multiprocessing;
    not a library caller's own: the mends' review) and wait for them: after Ctrl-C a worker still
    starting (it ignores Ctrl-C: `deaf_loop`) ran on for up to 3 s after the command had ended,
    until it saw its parent gone (a review)."""
    import multiprocessing
    import time

    children = [child for child in multiprocessing.active_children() if child.name.startswith(DASK_WORKER)]
    for child in children:
        child.kill()
    until = time.monotonic() + WORKERS_END_WITHIN
    for child in children:
        child.join(max(0.0, until - time.monotonic()))


def _close(client: Any, cluster: Any) -> None:
    client.close()
    if cluster is not None:
        cluster.close()


def deaf_loop() -> Any:
    """A running Dask event loop (a `distributed.utils.LoopRunner`) whose thread does not take
    SIGINT, for a LocalCluster: the cluster's worker processes are started from it, or from
    threads it starts, and begin life with SIGINT blocked, as their starter had it. Started from
    a thread that heard it, a worker that Ctrl-C reached while it still imported Dask (before
    its preload, `dask_worker`, ignores it) printed a KeyboardInterrupt traceback after
    "nonosat: interrupted" (CI, Ctrl-C 2.5 s into a run while the cluster started)."""
    from distributed.utils import LoopRunner

    from nonosat import interrupts

    runner = LoopRunner()
    with interrupts.deaf_threads():
        runner.start()
    return runner


class _Together:
    """A LocalCluster and the loop runner it was given (`deaf_loop`), closed in that order."""

    def __init__(self, cluster: Any, loop: Any) -> None:
        self.cluster = cluster
        self.loop = loop

    def close(self) -> None:
        self.cluster.close()
        self.loop.stop()


LOOP_LOGGER = "tornado.application"
"""The logger of uncaught errors in the event loop a Dask client runs in a thread of its own."""

LOOP_LOGGERS = (LOOP_LOGGER, "asyncio")
"""The loggers `quiet_loop_once_interrupted` quiets: tornado's, and asyncio's, which said "Task
exception was never retrieved ... Nanny failed to start" for each worker that Ctrl-C ended while
the cluster started (the mends' review)."""


def quiet_loop_once_interrupted() -> None:
    """Drop what the client's event loop logs once Ctrl-C (or SIGTERM) was heard: the command is
    ending, and Dask's own cancelling of the call the main thread waited on can fail there (CI
    printed "NameError: cannot access free variable 'future'" from `distributed.utils.sync`,
    with its traceback, between "nonosat: interrupted" and the line saying how to resume, when
    Ctrl-C came before the loop had started the call). Added once per process."""
    import logging

    from nonosat import interrupts

    for name in LOOP_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(each, _AfterASignal) for each in logger.filters):
            logger.addFilter(_AfterASignal(interrupts.heard_a_signal))


class _AfterASignal:
    """A logging filter that lets records through until `heard` says a signal came."""

    def __init__(self, heard: Callable[[], bool]) -> None:
        self.heard = heard

    def filter(self, record: object) -> bool:
        return not self.heard()


TRACKER_WARNING = "ignore::UserWarning:multiprocessing.resource_tracker"
"""The warnings filter the resource tracker of a Dask run starts with (`quiet_resource_tracker`)."""


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running yet, with its warning of
    leaked semaphores ignored: a Dask run interrupted by Ctrl-C ends at once, and the tracker
    then unlinks the semaphores of the LocalCluster's processes, as it is there to do, but said
    so in two lines of "UserWarning: resource_tracker: There appear to be 12 leaked semaphore
    objects" after "nonosat: interrupted" (a review). The tracker is started with the -W options
    of sys.warnoptions as it is when the tracker starts."""
    import os
    import sys

    if os.name != "posix":
        return  # (no resource tracker)
    from multiprocessing import resource_tracker

    sys.warnoptions.append(TRACKER_WARNING)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(TRACKER_WARNING)
