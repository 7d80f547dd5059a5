"""The two checkouts of bench/versions.py: each one's nonosat in a worker process of its own
(bench/version_worker.py, run with PYTHONPATH set to the checkout), and the checks their
answers must pass: every grid against the clues, and the two verdicts alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from nonosat import NonosatError, Puzzle

WORKER = Path(__file__).resolve().parent / "version_worker.py"
DECIDED = ("unique", "multiple", "none")


class VersionMismatch(NonosatError):
    """The two checkouts disagree (puzzles, verdicts or grids), or a grid breaks the clues."""


class Worker:
    """One checkout's nonosat in a process of its own, answering JSON commands over a pipe."""

    def __init__(self, name: str, tree: Path) -> None:
        self.name, self.tree = name, tree.resolve()
        if not self.tree.is_dir():
            raise NonosatError(f"{name}: {self.tree} is not a checkout of nonosat (no such folder)")
        env = dict(os.environ, PYTHONPATH=str(self.tree))
        self.process = subprocess.Popen(  # in the checkout's folder: a fork server imports from it
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=self.tree,
            text=True,
            bufsize=1,
        )
        try:
            hello = self.call({"op": "hello"})
        except BaseException:
            self.close()
            raise
        imported = Path(hello["nonosat"]).resolve()
        if not imported.is_relative_to(self.tree):
            self.close()
            raise NonosatError(f"{name}: nonosat was imported from {imported}, not from {self.tree}")

    def call(self, command: dict[str, Any]) -> dict[str, Any]:
        """Send one command and wait for its answer (files named from here: the worker runs in
        its checkout's folder)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        if "files" in command:
            command = {**command, "files": [str(Path(name).resolve()) for name in command["files"]]}
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise NonosatError(f"{self.name}: the worker for {self.tree} died (exit code {self.process.wait()})")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise NonosatError(f"{self.name} ({self.tree}): {reply['error']}")
        return reply

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_workers(sides: Sequence[tuple[str, Path]]) -> list[Worker]:
    """A worker for each (name, checkout), in order; when one cannot start, those started are
    closed before the error goes on (they were left running)."""
    workers: list[Worker] = []
    try:
        for name, tree in sides:
            workers.append(Worker(name, tree))
    except BaseException:
        for worker in workers:
            worker.close()
        raise
    return workers


def check_answer(puzzle: Puzzle, label: str, side: str, reply: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
    """A side's verdict and grids after checking every grid against the clues."""
    grids = tuple(tuple(tuple(row) for row in grid) for grid in reply["grids"])
    for grid in grids:
        if not puzzle.satisfied_by(grid):
            raise VersionMismatch(f"{label}: {side} returned a grid that breaks the clues")
    if reply["status"] == "multiple" and len(set(grids)) < 2:
        raise VersionMismatch(f"{label}: {side} said multiple without two different grids")
    return reply["status"], grids


def check_pair(label: str, a: tuple[str, tuple[Any, ...]], b: tuple[str, tuple[Any, ...]]) -> None:
    """The two sides' verdicts must be the same when both decided, and a unique one the same grid."""
    if a[0] in DECIDED and b[0] in DECIDED:
        if a[0] != b[0] or (a[0] == "unique" and a[1] != b[1]):
            raise VersionMismatch(f"{label}: A says {a[0]}, B says {b[0]}")


def with_workers(workers: Sequence[Worker], work: Callable[[], None]) -> int:
    """Do `work` with the workers, then close them: 0, or 1 when the checkouts disagreed (said on
    standard error). On Ctrl-C the workers, which heard it too, are killed at once, not after
    their solve, and KeyboardInterrupt goes on (see `command`)."""
    try:
        work()
    except VersionMismatch as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        for worker in workers:
            worker.process.kill()
        raise
    finally:
        for worker in workers:
            worker.close()
    return 0


def command(main: Callable[[], int]) -> NoReturn:
    """Exit with `main`'s code; 2 and one line when a checkout cannot be used (not a checkout,
    its worker dead); 130 and one line on Ctrl-C (the workers, in the same process group, end
    with it)."""
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except NonosatError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
