"""Worker processes for the server: one per request, from the fork server, a bounded number at
once and a bounded queue of requests waiting for one.

A worker is forked from the fork server (nonosat.processes: a clean single-threaded process
with the library imported; spawned afresh where the platform has no fork server, Windows),
answers one job, sends the reply and ends. Killing it never harms
another request, so a client that leaves, or a job past its time and grace, ends its worker at
once: the server never hangs on a solve. Beyond `workers` running and `max_queue` waiting, a
request is turned away (`Busy`: 503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from nonosat.errors import NonosatError
from nonosat.web.jobs import Job, Reply, cut_short
from nonosat.web.settings import WebSettings

T = TypeVar("T")

PRELOAD = [
    "nonosat.web.jobs",
    "nonosat.reports",
    "nonosat.formats",
    "nonosat.formats.non",
    "nonosat.formats.jsonfmt",
    "nonosat.formats.webpbn",
    "nonosat.render.records",
    "nonosat.render.terminal",
    "nonosat.render.text",
    "nonosat.explain.rating",
    "nonosat.explain.diagnosis",
    "nonosat.explain.steps",
    "nonosat.solver.drive",
]
"""What the fork server imports besides the solver's own (processes.PRELOAD), so that a worker starts
with what a request needs."""


class Busy(NonosatError):
    """Every worker is busy and the queue is full."""


class Stopping(NonosatError):
    """The server began to stop while the request's upload was still coming."""


STOPPING = "the server is stopping: this request was not answered"


def _worker(conn: Any, job: Job, ignore_ctrl_c: bool) -> None:
    """A worker's whole life: one job, its reply sent back, then os._exit (no cleanup, no
    traceback on the server's terminal but for a bug's). `ignore_ctrl_c`: the server was started
    ignoring Ctrl-C (`interrupts.started_ignoring`)."""
    from nonosat.deadline import ends_with_its_work
    from nonosat.processes import worker_prologue
    from nonosat.web.jobs import answer

    try:
        worker_prologue(conn, ignore_ctrl_c)
        ends_with_its_work()  # (os._exit after the reply)
        try:
            reply = answer(job)
        except MemoryError:
            reply = Reply.error("the puzzle needs more memory than the server allows", 503)
        except Exception as error:  # a bug: said in one line to the client, in full on the server
            import traceback

            traceback.print_exc(file=sys.stderr)
            reply = Reply.error(f"internal error ({type(error).__name__}); the server's log has the details", 500)
        conn.send(reply)
    except BaseException:  # noqa: B036 - the server sees the pipe close, and says the worker died
        pass
    finally:
        os._exit(0)


def death(exitcode: int | None) -> str:
    """How a worker that sent no reply ended, from its exit code, for the client's message."""
    if exitcode is None:
        return "closed its pipe without a reply"
    if exitcode < 0 and -exitcode == getattr(signal, "SIGKILL", None):  # (Windows has none)
        return "was killed (SIGKILL: out of memory?)"
    if exitcode == -signal.SIGINT:
        return "was interrupted (Ctrl-C)"
    if exitcode < 0:
        try:
            return f"was ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was ended by signal {-exitcode}"
    return f"ended without a reply (exit code {exitcode})"


_POOLS: weakref.WeakSet[Pool] = weakref.WeakSet()


def every_pool_stopping() -> None:
    """The server has been told to stop (its signal handler): from now on a worker that ends
    without a reply is answered as stopping (`stop_every_pool` ends them, in the event loop)."""
    for pool in list(_POOLS):
        pool.stopping = True


def stop_every_pool() -> None:
    """The server is stopping (SIGTERM, Ctrl-C): end the workers of every pool now, so that each
    request under way is answered 503 before the server closes its connections (a SIGTERM left
    them to uvicorn, which cut them off without an answer, or a 500 and a traceback)."""
    for pool in list(_POOLS):
        pool.stop()


class Pool:
    """Runs jobs in worker processes, `settings.workers` at once (asyncio side)."""

    def __init__(self, settings: WebSettings) -> None:
        _POOLS.add(self)
        self.stopping = False
        self.settings = settings
        self.slots = asyncio.Semaphore(settings.workers)
        self.running = 0
        self.waiting = 0
        self.killed = 0
        """Workers killed because their client left or their time ran out."""
        self.live: set[Any] = set()
        self.reading: set[asyncio.Future[Any]] = set()
        """The uploads still coming: ended at the server's stop, so that their requests are answered too."""

    @staticmethod
    def start() -> None:
        """Start the fork server (with what a request needs imported), before the first request."""
        from nonosat.processes import PRELOAD as SOLVER_PRELOAD
        from nonosat.processes import warm_up, worker_context

        context = worker_context()
        if context.get_start_method() == "forkserver":  # spawned workers (Windows) import as they start
            context.set_forkserver_preload(SOLVER_PRELOAD + PRELOAD)
        warm_up()

    def stop(self) -> None:
        self.stopping = True
        for upload in list(self.reading):
            upload.cancel()
        for process in list(self.live):
            if process.pid is not None:  # one still starting is killed once started (`_in_worker`)
                process.kill()

    async def read(self, upload: Coroutine[Any, Any, T]) -> T:
        """What `upload` reads, unless the server stops first: then Stopping (a review found a
        request whose body was still coming at a SIGTERM cut off without an answer; uvicorn
        waits for it, and then closes its connection). A cancellation of the request's own task
        (its time limit) goes through as it is."""
        if self.stopping:
            upload.close()  # never run: no "coroutine was never awaited" on the server's terminal
            raise Stopping(STOPPING)
        reading = asyncio.ensure_future(upload)
        self.reading.add(reading)
        try:
            return await reading
        except asyncio.CancelledError:
            task = asyncio.current_task()
            cancelling = getattr(task, "cancelling", lambda: 0)()  # Python 3.11 and later
            if self.stopping and reading.cancelled() and not cancelling:
                raise Stopping(STOPPING) from None
            raise
        finally:
            self.reading.discard(reading)

    def stats(self) -> dict[str, int]:
        return {"running": self.running, "waiting": self.waiting, "killed": self.killed, "live": len(self.live)}

    async def run(self, job: Job, gone: asyncio.Future[Any]) -> Reply | None:
        """The worker's reply, or None if the client left first; raises Busy when the queue is full."""
        if self.running + self.waiting >= self.settings.workers + self.settings.max_queue:
            raise Busy
        self.waiting += 1
        try:
            acquire = asyncio.ensure_future(self.slots.acquire())
            await asyncio.wait({acquire, gone}, timeout=job.remaining(), return_when=asyncio.FIRST_COMPLETED)
            if not acquire.done():
                acquire.cancel()
                if gone.done():
                    return None
                return cut_short(job, f"time limit reached ({job.timeout:g} s) while waiting for a worker")
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            if self.stopping:  # a slot freed by the workers' end at the server's stop
                return Reply.error(STOPPING, 503)
            return await self._in_worker(job, gone)
        finally:
            self.running -= 1
            self.slots.release()

    async def _in_worker(self, job: Job, gone: asyncio.Future[Any]) -> Reply | None:
        from nonosat.interrupts import started_ignoring
        from nonosat.processes import start_worker, worker_context

        loop = asyncio.get_running_loop()
        context = worker_context()
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(target=_worker, args=(theirs, job, started_ignoring()), daemon=True)
        self.live.add(process)
        ready: asyncio.Future[None] = loop.create_future()

        def arrived() -> None:
            if not ready.done():
                ready.set_result(None)

        reading = False
        try:
            try:
                await loop.run_in_executor(None, start_worker, process)  # a few ms: the fork server's round trip
            except (OSError, EOFError) as problem:  # no fork server, no descriptors left; EOFError: the fork
                if self.stopping:  # server ended as it started this one (a signal to the group: a 500 in CI)
                    return Reply.error(STOPPING, 503)
                why = getattr(problem, "strerror", None) or str(problem) or "the fork server ended"
                return Reply.error(f"the server could not start a worker ({why})", 503)
            finally:
                theirs.close()
            if self.stopping:  # the server began to stop while this worker started
                process.kill()
            loop.add_reader(ours.fileno(), arrived)
            reading = True
            limit = job.remaining() + self.settings.grace
            done, _ = await asyncio.wait({ready, gone}, timeout=limit, return_when=asyncio.FIRST_COMPLETED)
            if ready in done:
                try:
                    reply: Reply = ours.recv()
                    return reply
                except (EOFError, OSError):
                    await loop.run_in_executor(None, process.join, 1)
                    if self.stopping:
                        return Reply.error(STOPPING, 503)
                    return Reply.error(f"the worker answering this request {death(process.exitcode)}", 503)
            self.killed += 1
            if gone in done:
                return None
            return cut_short(job, f"time limit reached ({job.timeout:g} s)")
        finally:
            if reading:
                loop.remove_reader(ours.fileno())
            ours.close()  # the worker's lifeline: it ends itself even if the kill below missed
            if process.pid is not None:
                if process.is_alive():
                    process.kill()
                await loop.run_in_executor(None, process.join, 5)
            self.live.discard(process)
