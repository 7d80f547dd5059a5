"""batch: whole collections of puzzles into a results file, with progress, resumable."""

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from nonosat.cli.base import Engine, EngineOption, Executor, PuzzleTimeoutOption, Require, app, friendly, usage
from nonosat.cli.show import LOG_EVERY, err, out
from nonosat.limits import MAX_COUNT, MAX_JOBS


@app.command(short_help="Solve whole collections into a JSON Lines file.")
@friendly
def batch(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Puzzle files, folders (searched recursively) and globs; files of several puzzles count each one."
        ),
    ],
    results: Annotated[
        str,
        typer.Option(
            "--out",
            help="Results, one JSON object per line; rerunning with the "
            "same file resumes. '-' writes them to standard output.",
        ),
    ],
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, max=MAX_JOBS, help="Worker processes (default: the cores this process may use)."),
    ] = None,
    timeout: PuzzleTimeoutOption = None,
    count: Annotated[
        int,
        typer.Option(
            "--count", min=1, max=MAX_COUNT, help="Look for up to N solutions per puzzle (2 decides uniqueness)."
        ),
    ] = 2,
    require: Annotated[
        Require | None,
        typer.Option(
            "--require",
            help="unique: exit 1 unless every puzzle is unique and every goal "
            "satisfies its clues (as --fail-on multiple,solved,none,unknown,error,goal).",
        ),
    ] = None,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on",
            help="Exit 1 if any puzzle has one of these statuses, e.g. "
            "multiple,solved,none,unknown,error; 'goal' for a goal that breaks its clues.",
        ),
    ] = None,
    retry: Annotated[
        str | None,
        typer.Option(
            "--retry",
            help="Solve again the puzzles whose records have these statuses, e.g. unknown (with this run's --timeout).",
        ),
    ] = None,
    executor: Annotated[
        Executor, typer.Option("--executor", help="local (worker processes) or dask (needs nonosat[dask]).")
    ] = Executor.local,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786; without it a LocalCluster is started."
        ),
    ] = None,
    engine: EngineOption = Engine.auto,
    certificates: Annotated[
        Path | None,
        typer.Option(
            "--certificates",
            metavar="DIR",
            help="Write each decided verdict's certificate into DIR/<the puzzle's path> (see check --certificate).",
        ),
    ] = None,
    pictures: Annotated[
        bool,
        typer.Option(
            "--pictures", help="In folders, read pictures (.png .gif .bmp .webp .pbm) as puzzles too, one cell a pixel."
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace certificates in --certificates DIR of a run that does not resume."),
    ] = False,
) -> None:
    """Solve whole collections into a JSON Lines file, with progress, resumable after Ctrl-C or a kill.

    --timeout is per puzzle. Example: nonosat batch puzzles/ --out results.jsonl
    """
    from nonosat.batch import pending, run
    from nonosat.batch.policy import failing_statuses, failures, parse_statuses
    from nonosat.batch.runner import check_run
    from nonosat.text import counted

    failing = usage("--fail-on" if require is None else "--require", lambda: failing_statuses(require, fail_on))
    retried = usage("--retry", lambda: parse_statuses(retry))
    check_run(executor, engine.value, count, jobs, certificates, scheduler)  # before pending changes the file
    to_stdout = results == "-"
    if to_stdout and _closed_at_start():
        from nonosat.errors import UsageError

        raise UsageError("cannot write the results: standard output is closed")
    out_path = None if to_stdout else Path(results)
    with _reading():
        todo, done, already, ours, changed, gone = pending(paths, out_path, retry=tuple(retried), pictures=pictures)
    if changed:
        err.print(f"{counted(changed, 'puzzle')} changed since {results} was written: solved again", markup=False)
    if gone:
        taken = counted(len(gone), "record")
        err.print(f"{taken} of puzzles their files no longer hold taken out of {results}", markup=False)
        if certificates is not None:
            from nonosat.batch.work import forget_certificates

            forget_certificates(certificates, gone)
    records = list(done)
    stream = run(
        paths,
        out=out_path,
        jobs=jobs,
        timeout=timeout,
        count=count,
        executor=executor,
        scheduler=scheduler,
        todo=todo,
        engine=engine.value,
        certificates=certificates,
        force=force,
    )
    if to_stdout:
        stream = _echo_records(stream)
    new = _run_with_progress(stream, len(todo), already, resumable=not to_stdout) if todo else []
    if not todo:
        err.print(
            f"nothing to do: {'all ' if already > 1 else ''}{counted(already, 'puzzle')} already in {results}",
            markup=False,
        )
    records += new
    _print_summary(records, "standard output" if to_stdout else results, err if to_stdout else out, len(new))
    bad = failures(ours + new, failing)  # this run's puzzles: other paths' records in the file are not judged
    if bad:
        err.print(f"failing: {'; '.join(bad)}", markup=False, soft_wrap=True)
        raise typer.Exit(1)


def _closed_at_start() -> bool:
    """Whether the command began with standard output closed (`>&-`): it writes to the null
    device then (nonosat.__main__), which would take every record and lose it."""
    import os
    import sys

    return getattr(sys.stdout, "name", None) == os.devnull


def _echo_records(stream: Any) -> Any:
    """Write each record to standard output as a line of JSON, as it comes; stop the run when
    its reader has gone (the records so far were read, the rest would be lost)."""
    import sys

    from nonosat.batch.results import dumps
    from nonosat.errors import UsageError

    for record in stream:
        out.file.write(dumps(record) + "\n")
        out.file.flush()
        if getattr(sys.stdout, "closed_pipe", False):
            stream.close()
            raise UsageError("cannot write the results: standard output was closed")
        yield record


@contextlib.contextmanager
def _reading() -> Iterator[None]:
    """On a terminal, a spinner while the puzzles are read (24,000 take seconds, and nothing
    showed that the command had started)."""
    from nonosat import interrupts

    console = err.console()
    if not console.is_terminal:
        yield
        return
    status = console.status("reading the puzzles", spinner="line")
    with interrupts.deaf_threads():  # Rich's refresh thread leaves Ctrl-C to the main thread
        status.start()
    try:
        yield
    finally:
        status.stop()


def _run_with_progress(stream: Any, total: int, before: int, resumable: bool = True) -> list[dict[str, Any]]:
    """Consume the records, showing a progress bar with the ETA and running counts by status
    (where standard error is not a terminal, a line every LOG_EVERY seconds instead); on
    Ctrl-C, say how many were done (and, into a results file, how to go on)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from nonosat import interrupts
    from nonosat.text import counted

    counts: dict[str, int] = {}
    records = []
    note = f" (resuming: {before} already done)" if before else ""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    progress = Progress(*columns, console=err.console(), transient=False)
    log = _Log(total) if not err.console().is_terminal else None
    if log is not None:
        err.print(f"solving {counted(total, 'puzzle')}{note}", markup=False)
    with interrupts.deaf_threads():  # Rich's refresh thread, and the log's, leave Ctrl-C to the main thread
        progress.start()
        if log is not None:
            log.start()
    with progress:
        task = progress.add_task(f"solving{note}", total=total)
        try:
            for record in stream:
                records.append(record)
                counts[record["status"]] = counts.get(record["status"], 0) + 1
                shown = " · ".join(f"{name} {n}" for name, n in sorted(counts.items()))
                progress.update(task, advance=1, description=f"solving{note} · {shown}")
                if log is not None:
                    log.now(len(records), shown)
        except KeyboardInterrupt:
            progress.stop()
            interrupts.announce()
            then = "; run the same command again to resume" if resumable else " (to standard output: no resuming)"
            err.print(f"interrupted after {counted(len(records), 'new puzzle')}{then}", markup=False)
            # then the workers end: a Dask cluster's closing can outlast the second that Ctrl-C
            # leaves a command, and the line above was lost to it (a review)
            stream.close()
            raise typer.Exit(interrupts.EXIT_INTERRUPTED) from None
        finally:
            if log is not None:
                log.stop()
    return records


class _Log(threading.Thread):
    """Where standard error is not a terminal, a line of progress every LOG_EVERY seconds, from a
    thread of its own: a run whose records stopped coming (a Dask cluster that lost every worker,
    a hard puzzle with no time limit) said nothing at all in its log until one came (a review)."""

    def __init__(self, total: int) -> None:
        super().__init__(name="nonosat-batch-log", daemon=True)
        self.total = total
        self.done, self.shown = 0, ""
        self.started = time.monotonic()
        self.ended = threading.Event()
        self.lock = threading.Lock()

    def now(self, done: int, shown: str) -> None:
        with self.lock:
            self.done, self.shown = done, shown

    def run(self) -> None:
        while not self.ended.wait(LOG_EVERY):
            with self.lock:
                counts = f" · {self.shown}" if self.shown else ""
                line = f"solved {self.done} of {self.total}{counts} · {round(time.monotonic() - self.started)} s"
            try:
                err.print(line, markup=False)
            except (OSError, ValueError):  # a log that cannot be written (closed, full): the run goes on
                return

    def stop(self) -> None:
        self.ended.set()
        self.join()


def _print_summary(records: list[dict[str, Any]], results: str, console: Any, new: int) -> None:
    from nonosat.batch.policy import SLOW, summarize
    from nonosat.render.tables import summary_table, summary_title
    from nonosat.render.terminal import clean

    summary = summarize(records)
    console.print(summary_title(summary, results, new), markup=False, highlight=False)  # wrapped as the terminal is
    console.print(summary_table(summary))
    if summary.slowest:
        console.print(
            f"slowest (over {SLOW} s): "
            + ", ".join(f"{clean(str(r['path']))} ({r['status']}, {r['seconds']:.2f} s)" for r in summary.slowest),
            markup=False,
            soft_wrap=True,
        )
    broken = [clean(path) for path in summary.broken_goals]
    if broken:
        console.print(
            f"goals that break their clues: {', '.join(broken[:10])}" + (" ..." if len(broken) > 10 else ""),
            markup=False,
            soft_wrap=True,
        )
