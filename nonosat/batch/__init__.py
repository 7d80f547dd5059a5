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

from nonosat.batch.executors import EXECUTORS, check_executor
from nonosat.batch.results import RECORD_KEYS, STATUSES, Record, read_results, resume_results, solution_sha1
from nonosat.batch.runner import run, solve_many
from nonosat.batch.tasks import Task, check_paths, pending, same_path, tasks
from nonosat.batch.work import RACE_AFTER, RunOptions, solve_task

__all__ = [
    "EXECUTORS",
    "RACE_AFTER",
    "RECORD_KEYS",
    "STATUSES",
    "Record",
    "RunOptions",
    "Task",
    "check_executor",
    "check_paths",
    "pending",
    "read_results",
    "resume_results",
    "run",
    "same_path",
    "solution_sha1",
    "solve_many",
    "solve_task",
    "tasks",
]
