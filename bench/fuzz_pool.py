"""The fuzzer's pool of worker processes, with a guard for hangs: a worker stuck in one stage
past the check's deadline + 1 s + KILL_SLACK is killed and replaced.
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from bench.fuzz_categories import HANG, KILL_SLACK, TRACEBACK
from bench.fuzz_seeds import Seed
from bench.fuzz_worker import Outcome, worker


@dataclass
class Slot:
    """One worker process, the mutant it is on and since when it has been in its current stage."""

    process: Any
    conn: Connection
    ready: bool = False
    index: int | None = None
    stage: str = "start"
    since: float = 0.0


Stuck = Callable[[int, str, str, str], None]
"""Told of a mutant whose worker hung or died: its index, the category, the stage and what happened."""


class Pool:
    """Worker processes that run mutants; one stuck in a stage past the guard is killed and replaced."""

    def __init__(self, jobs: int, seeds: list[Seed], run_seed: int, timeout: float) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.base = Path(tempfile.mkdtemp(prefix="nonosat-fuzz-"))
        """The workers' files: a killed worker cannot clean up its own."""
        self.arguments = (seeds, run_seed, timeout, self.base)
        self.guard = timeout + 1.0 + KILL_SLACK
        self.slots = [self.start() for _ in range(jobs)]

    def start(self) -> Slot:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=worker, args=(child, *self.arguments), daemon=True)
        process.start()
        child.close()
        return Slot(process, parent, since=time.monotonic())

    def replace(self, slot: Slot) -> None:
        slot.process.kill()
        slot.process.join()
        slot.conn.close()
        self.slots[self.slots.index(slot)] = self.start()

    def run(self, indices: Sequence[int], on_stuck: Stuck) -> Iterator[Outcome]:
        """Outcomes of the mutants, as they finish; `on_stuck(index, category, stage, why)` for a worker
        that hung (and was killed) or died."""
        waiting = list(reversed(indices))
        while waiting or any(slot.index is not None for slot in self.slots):
            for slot in self.slots:
                if slot.ready and slot.index is None and waiting:
                    slot.index, slot.stage, slot.since = waiting.pop(), "sent", time.monotonic()
                    slot.conn.send(slot.index)
            answered = wait([slot.conn for slot in self.slots], timeout=0.5)
            for slot in [slot for slot in self.slots if slot.conn in answered]:
                try:
                    kind, message = slot.conn.recv()
                except (EOFError, OSError):
                    self.died(slot, on_stuck)
                    continue
                if kind == "ready":
                    slot.ready = True
                elif kind == "stage":
                    slot.stage, slot.since = message, time.monotonic()
                else:
                    slot.index = None
                    yield message
            now = time.monotonic()
            for slot in list(self.slots):
                if slot.index is not None and now - slot.since > self.guard:
                    on_stuck(
                        slot.index,
                        HANG,
                        slot.stage,
                        f"no answer {now - slot.since:.1f} s into {slot.stage}; worker killed",
                    )
                    self.replace(slot)
                elif not slot.ready and now - slot.since > 120:
                    raise SystemExit("bench.fuzz: a worker did not start within 120 s")

    def died(self, slot: Slot, on_stuck: Stuck) -> None:
        slot.process.join(timeout=5)
        if slot.index is not None:
            on_stuck(
                slot.index,
                TRACEBACK,
                slot.stage,
                f"the worker died (exit code {slot.process.exitcode}) in {slot.stage}",
            )
        elif not slot.ready:
            raise SystemExit(f"bench.fuzz: a worker failed to start (exit code {slot.process.exitcode})")
        self.replace(slot)

    def close(self) -> None:
        for slot in self.slots:
            try:
                slot.conn.send(None)
            except OSError:
                pass
        for slot in self.slots:
            slot.process.join(timeout=5)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
        shutil.rmtree(self.base, ignore_errors=True)
