"""Ctrl-C and a batch on Dask (`batch --executor dask`): the command ends with its own lines alone,
the client's loop says nothing once Ctrl-C was heard, the local cluster's workers begin life deaf
to Ctrl-C and end with the command even while they start, and ending them leaves the caller's
own processes alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from signals_shared import HANG, interrupt, waited

from bench.processes import in_group, start

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_ctrl_c_ends_a_dask_batch_with_its_own_lines_alone(corpus: Path, tmp_path: Path) -> None:
    """A review found Ctrl-C on `batch --executor dask` printing Dask's warnings of cancelled
    tasks (and, a worker having heard it too, a KeyboardInterrupt traceback), then the resource
    tracker's "leaked semaphore objects" warning, and not the line saying how to resume: closing
    the cluster outlasted the second a command has after Ctrl-C."""
    pytest.importorskip("distributed")
    out = tmp_path / "d.jsonl"
    tournament = str(corpus / "tcga" / "question" / "taai2011.txt")
    args = ["batch", tournament, "--out", str(out), "--executor", "dask", "--jobs", "2"]
    code, stderr, _, left = interrupt(args, tmp_path)
    assert code == 130 and left == [], stderr
    said = [line for line in stderr.splitlines() if line.strip()]
    done = len(out.read_text().splitlines()) if out.exists() else 0
    last = f"interrupted after {done} new puzzle{'' if done == 1 else 's'}; run the same command again to resume"
    assert said[-2:] == ["nonosat: interrupted", last], stderr
    assert all(line.startswith("solving ") for line in said[:-2]), stderr


@pytest.mark.slow
def test_the_dask_clients_loop_says_nothing_once_ctrl_c_was_heard(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """CI's run of the test above once printed a NameError's traceback from Dask between
    "nonosat: interrupted" and the line saying how to resume: Ctrl-C came while the client's
    loop had not yet started the call the main thread waited on, and Dask's cancelling of it
    failed (`distributed.utils.sync`). Here the loop is kept busy so that it always comes then."""
    pytest.importorskip("distributed")
    import logging

    from distributed.utils import LoopRunner, sync

    from nonosat import interrupts
    from nonosat.batch import executors

    logger = logging.getLogger(executors.LOOP_LOGGER)
    monkeypatch.setattr(logger, "filters", list(logger.filters))
    monkeypatch.setattr(interrupts, "_first", signal.SIGINT)
    executors.quiet_loop_once_interrupted()
    runner = LoopRunner(asynchronous=False)
    runner.start()  # type: ignore[no-untyped-call]
    try:
        runner.loop.add_callback(time.sleep, 1.0)  # busy: sync's call is not started yet, under load too
        threading.Timer(0.05, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT)).start()

        async def nothing() -> None:
            return None

        with caplog.at_level(logging.ERROR), pytest.raises(KeyboardInterrupt):
            sync(runner.loop, nothing)
        cancelled = threading.Event()
        runner.loop.add_callback(cancelled.set)  # after Dask's own cancelling
        assert cancelled.wait(HANG)
    finally:
        runner.stop()  # type: ignore[no-untyped-call]
    assert [record for record in caplog.records if record.name == executors.LOOP_LOGGER] == []
    with caplog.at_level(logging.ERROR):  # the mends' review: "Task exception was never retrieved ... Nanny failed"
        logging.getLogger("asyncio").error("Task exception was never retrieved")
    assert [record for record in caplog.records if record.name == "asyncio"] == []


def sleeping() -> None:
    time.sleep(30)


def test_ending_a_local_clusters_workers_leaves_the_callers_own_processes_alone() -> None:
    """The mends' review: after Ctrl-C in `batch.run(executor="dask")`, a library caller's own
    multiprocessing children were killed with the cluster's workers."""
    import multiprocessing

    from nonosat.batch import executors

    own = multiprocessing.get_context("spawn").Process(target=sleeping, name="the caller's")
    own.start()
    try:
        executors.end_local_workers()
        assert own.is_alive()
    finally:
        own.kill()
        own.join()


SLOW_WORKER_START = """import sys, time
if "--multiprocessing-fork" in sys.argv:
    time.sleep(30)
"""
"""A sitecustomize that keeps each process multiprocessing spawns starting for 30 s."""


def spawned_workers(group: int) -> list[int]:
    """The living processes of a process group that multiprocessing spawned."""
    found = []
    for pid in in_group(group):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                if b"--multiprocessing-fork" in command.read():
                    found.append(pid)
        except OSError:
            continue
    return found


@pytest.mark.slow
def test_ctrl_c_while_a_local_dask_cluster_starts_ends_its_workers_with_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review: Ctrl-C while the LocalCluster's workers still started (they ignore Ctrl-C)
    ended the command at once, and the workers ran on for up to 3 s, until they saw their
    parent gone. Here they take 30 s to start; none is left when the command has ended."""
    pytest.importorskip("distributed")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SLOW_WORKER_START)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))
    puzzle = tmp_path / "dancer.non"
    puzzle.write_text((ROOT / "puzzles" / "webpbn-00001-dancer.non").read_text())
    command = start(
        ["batch", str(puzzle), "--out", str(tmp_path / "d.jsonl"), "--executor", "dask", "--jobs", "2"], tmp_path
    )
    began = time.monotonic()
    while len(spawned_workers(command.pid)) < 2 and time.monotonic() < began + HANG:
        time.sleep(0.02)
    assert len(spawned_workers(command.pid)) == 2, "the cluster's two workers did not start"
    os.killpg(command.pid, signal.SIGINT)
    _, stderr = waited(command, "batch --executor dask was still running after Ctrl-C")
    assert command.returncode == 130, stderr
    assert spawned_workers(command.pid) == [], stderr


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs signal masks")
def test_a_local_dask_clusters_processes_begin_life_deaf_to_ctrl_c() -> None:
    """CI's run of the Dask test above once printed the KeyboardInterrupt tracebacks of the
    LocalCluster's workers: Ctrl-C came while they still imported Dask, before their preload
    ignores it. They are started from the cluster's event loop (or threads it starts), whose
    thread now blocks SIGINT, so they begin life with it blocked."""
    pytest.importorskip("distributed")
    from distributed.utils import sync

    from nonosat.batch import executors

    runner = executors.deaf_loop()
    try:

        async def blocked_in_a_child() -> str:
            shown = "print(next(line for line in open('/proc/self/status') if line.startswith('SigBlk')))"
            return subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, check=True).stdout

        status = sync(runner.loop, blocked_in_a_child)
    finally:
        runner.stop()
    assert int(status.split()[1], 16) & (1 << (signal.SIGINT - 1)), status
