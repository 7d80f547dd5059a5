"""Batch runs: every puzzle once, results that agree with `check`, resumable after a kill."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nonosat import NonosatError, Puzzle, UsageError, load, load_all
from nonosat.batch import (
    RECORD_KEYS,
    executors,
    read_results,
    resume_results,
    run,
    solution_sha1,
    solve_many,
    solve_task,
    tasks,
    work,
)
from nonosat.batch import sharing as cores
from nonosat.batch.tasks import WholeFile, pending
from nonosat.batch.work import RunOptions
from nonosat.cli import app
from nonosat.formats.tournament import dump_tournament
from nonosat.solver import Status, check

runner = CliRunner()


@pytest.fixture(scope="module")
def tournament(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament file of the first 120 puzzles of TAAI 2011, numbered $1..$120 as there."""
    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[:120]
    path = tmp_path_factory.mktemp("sets") / "taai2011-120.txt"
    path.write_text(dump_tournament(puzzles))
    return path


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def key(record: dict[str, object]) -> tuple[object, ...]:
    return (record["path"], record["status"], record["solutions"], record["solution_sha1"])


@pytest.mark.slow
def test_paths_expand_to_single_puzzles(tmp_path: Path, tournament: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "a.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    (tmp_path / "README.md").write_text("# not a puzzle")
    (tmp_path / "b.non").write_text("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n")
    found = [task.path for task in tasks([str(tmp_path), str(tournament)])]
    assert found[:2] == [str(tmp_path / "b.non"), str(tmp_path / "deep" / "er" / "a.non")]
    assert found[2:5] == [f"{tournament}#1", f"{tournament}#2", f"{tournament}#3"]
    assert len(found) == 2 + 120
    assert [task.path for task in tasks([str(tmp_path / "*.non")])] == [str(tmp_path / "b.non")]


@pytest.mark.slow
def test_statuses_agree_with_check(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    records = list(run([str(tournament)], out=out, jobs=2))
    assert len(records) == 120 and lines(out) == records
    puzzles = load_all(tournament)
    for record, puzzle in zip(
        sorted(records, key=lambda r: int(str(r["path"]).rpartition("#")[2])), puzzles, strict=True
    ):
        assert set(record) == set(RECORD_KEYS)
        verdict = check(puzzle, jobs=1)
        assert record["status"] == verdict.status.value, record["path"]
        assert record["solutions"] == len(verdict.result.solutions)
        assert record["method"] == verdict.result.method
        if record["status"] == "unique":
            assert record["solution_sha1"] == solution_sha1(verdict.result.solutions[0].grid)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_solve_many_gives_each_puzzle_the_verdict_of_check(tournament: Path, jobs: int) -> None:
    puzzles = load_all(tournament)[:40]
    impossible = Puzzle(rows=((3,), (1,)), columns=((1,), (1,)))  # the clue 3 cannot fit 2 cells
    given = puzzles[:20] + [impossible] + puzzles[20:]
    found = dict(solve_many(given, jobs=jobs))
    assert sorted(found) == list(range(len(given)))
    assert found[20].status is Status.NONE and found[20].method == "checks" and not found[20].solutions
    assert found[20].problems == ("row 1: clue 3 needs 3 cells but the line has 2", *found[20].problems[1:])
    for index, puzzle in enumerate(given):
        if index == 20:
            continue
        result, verdict = found[index], check(puzzle, jobs=1)
        assert result.puzzle == puzzle
        assert result.status is verdict.status, index
        assert all(puzzle.satisfied_by(solution.grid) for solution in result.solutions)
        if result.status is Status.UNIQUE:
            assert result.solutions == verdict.result.solutions
        else:
            assert len(set(result.solutions)) == 2


def test_solve_many_refuses_a_count_below_one() -> None:
    with pytest.raises(NonosatError, match="count must be at least 1"):
        list(solve_many([Puzzle(rows=((1,),), columns=((1,),))], count=0))


def test_solve_many_refuses_what_is_amiss_here_not_in_a_worker() -> None:
    """With two workers, a bad timeout or a non-puzzle came back from a worker as a bare
    NonosatError; with one, as UsageError."""
    from nonosat.errors import UsageError

    one = Puzzle(rows=((1,),), columns=((1,),))
    with pytest.raises(UsageError, match="timeout must be"):
        list(solve_many([one], jobs=2, timeout=-1))
    with pytest.raises(UsageError, match="expected a Puzzle"):
        list(solve_many([one, "one.non"], jobs=2))  # type: ignore[list-item]


def test_a_few_puzzles_are_shared_among_the_workers() -> None:
    """Six puzzles on two workers went in one chunk of eight, one after the other."""
    from nonosat.batch.executors import LOCAL_CHUNK, chunks

    assert [len(chunk) for chunk in chunks(list(range(6)), 2)] == [1] * 6
    assert [len(chunk) for chunk in chunks(list(range(20)), 2)] == [3] * 6 + [2]
    assert {len(chunk) for chunk in chunks(list(range(1000)), 2)} == {LOCAL_CHUNK}
    assert list(chunks([], 2)) == []


@pytest.mark.parametrize(
    ("asked", "refusal"),
    [({"count": 0}, "count must be at least 1"), ({"engine": "magic"}, "magic"), ({"executor": "ray"}, "ray")],
)
def test_run_refuses_what_is_asked_amiss_when_called(tmp_path: Path, asked: dict[str, Any], refusal: str) -> None:
    """Before any record is asked for (`nonosat batch` draws its progress bar in between), and
    before a worker starts or the results file is made."""
    puzzle = tmp_path / "one.non"
    puzzle.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    with pytest.raises(NonosatError, match=refusal):
        run([str(puzzle)], out=tmp_path / "results.jsonl", **asked)
    assert not (tmp_path / "results.jsonl").exists()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="the race needs fork and two cores")
def test_a_worker_that_races_a_slow_puzzle_records_what_one_solver_records(
    tournament: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[Any]
) -> None:
    """Workers race puzzles that take over work.RACE_AFTER; with that at 0 every puzzle that
    needs SAT goes through the race, and the records must not change."""
    monkeypatch.setattr(work, "RACE_AFTER", 0.0)
    found = list(tasks([str(tournament)]))[100:110]
    sat = RunOptions(engine="sat")
    raced = [solve_task(task, sat, race=True) for task in found]  # SAT's race
    alone = [solve_task(task, sat, race=False) for task in found]
    assert [record["method"] for record in raced].count("sat") == len(rivals) >= 5
    assert sum(rival.forked for rival in rivals) >= 5
    for one, other in zip(raced, alone, strict=True):  # the first of several solutions depends on the solver
        assert (one["path"], one["status"], one["solutions"]) == (other["path"], other["status"], other["solutions"])
        if one["status"] == "unique":
            assert one["solution_sha1"] == other["solution_sha1"]


def test_a_racing_puzzle_counts_two_cores_and_a_young_one_counts_one() -> None:
    now = 100.0
    starts = [0.0, now - 0.5, now - 2.0, now - 2.0]  # idle, young, racing, and this worker's own
    assert cores.cores_taken(starts, now, 1.0, mine=3) == 3
    assert cores.cores_taken(starts, now, 1.0, mine=1) == 4
    assert cores.cores_taken([0.0, 0.0], now, 1.0, mine=0) == 0


@pytest.mark.slow
def test_a_worker_waits_for_a_core_while_another_races(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers: while the other one's puzzle is past race_after (two solvers), this worker
    does not start its next puzzle; it starts as soon as that puzzle is done."""
    import multiprocessing
    import threading

    for name in ("_table", "_slot", "_race_after"):
        monkeypatch.setattr(cores, name, getattr(cores, name))  # restored after the test
    shared = cores.table(multiprocessing.get_context("spawn"), 2)
    cores.join(shared, 0.05)
    starts = shared[0]
    starts[1] = time.monotonic() - 1.0  # the other worker (slot 1) is racing
    started = threading.Event()

    def wait_then_say() -> None:
        cores.wait_for_core()
        started.set()

    waiter = threading.Thread(target=wait_then_say)
    waiter.start()
    assert not started.wait(0.3) and starts[0] == 0.0
    starts[1] = 0.0  # the race is over
    assert started.wait(5)
    waiter.join()
    assert starts[0] > 0
    cores.done()
    assert starts[0] == 0.0
    starts[1] = time.monotonic()  # a young puzzle takes one core: this worker does not wait
    cores.wait_for_core()
    assert starts[0] > 0


def test_outside_a_batch_pool_nothing_waits() -> None:
    assert cores._table is None
    cores.wait_for_core()  # returns at once
    cores.done()


def test_a_bad_file_is_one_error_record_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "bad.non").write_text("width 2\nheight x\n")
    (tmp_path / "good.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    records = {r["path"]: r for r in run([str(tmp_path)], jobs=1)}
    bad = records[str(tmp_path / "bad.non")]
    assert bad["status"] == "error" and "bad.non" in str(bad["error"]) and "line 2" in str(bad["error"])
    assert records[str(tmp_path / "good.non")]["status"] == "unique"


@pytest.mark.slow
def test_a_stopped_run_resumes_without_losing_or_repeating(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    stream = run([str(tournament)], out=out, jobs=2)
    assert isinstance(stream, Generator)
    first = [next(stream) for _ in range(30)]
    stream.close()  # as Ctrl-C does: the file keeps what was written
    kept = lines(out)
    assert 30 <= len(kept) < 120 and kept[:30] == first
    rest = list(run([str(tournament)], out=out, jobs=2))
    final = lines(out)
    assert len(rest) == 120 - len(kept)
    assert len(final) == 120 and len({r["path"] for r in final}) == 120


@pytest.mark.slow
def test_a_half_written_last_line_is_dropped_and_redone(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    reference = {key(r) for r in run([str(tournament)], out=out, jobs=1)}
    text = out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:50]) + text[50][:25])  # killed while writing line 51
    cut = "".join(text[:50]) + text[50][:25]
    assert len(read_results(out)) == 50 and out.read_text() == cut  # reading changes nothing
    assert len(resume_results(out)) == 50 and out.read_text() == "".join(text[:50])
    list(run([str(tournament)], out=out, jobs=1))
    assert {key(r) for r in lines(out)} == reference


@pytest.fixture(scope="module")
def hard_tournament(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """120 of the harder TAAI 2011 puzzles (#501-620): 40-80 ms each, where the first 120 take
    1-2 ms, so that a batch over them is still running when the test kills it (the first 120
    were all done before the first look at the results file, on a quiet machine)."""
    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[500:620]
    path = tmp_path_factory.mktemp("hard") / "taai2011-hard.txt"
    path.write_text(dump_tournament(puzzles))
    return path


@pytest.mark.slow
def test_a_killed_command_leaves_a_valid_file_and_the_rerun_completes(hard_tournament: Path, tmp_path: Path) -> None:
    tournament = hard_tournament
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "nonosat", "batch", str(tournament), "--out", str(out), "--jobs", "2"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 20):
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGKILL)  # the command and its workers, with no chance to clean up
    child.wait()
    partial = read_results(out)
    assert 20 <= len(partial) < 120
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = lines(out)
    assert len(final) == 120 and len({r["path"] for r in final}) == 120
    reference = {verdict(r) for r in run([str(tournament)], jobs=1)}
    assert {verdict(r) for r in final} == reference


def verdict(record: dict[str, object]) -> tuple[object, ...]:
    """A record's verdict, and its solution when unique: of a puzzle with several solutions, the
    race (--jobs 2) and one search (jobs=1) may well show different ones."""
    return key(record) if record["status"] == "unique" else key(record)[:3]


@pytest.mark.slow
def test_fail_on_sets_the_exit_code(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    done = runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--jobs", "1", "--fail-on", "multiple"])
    assert done.exit_code == 1 and "multiple" in done.output  # most tournament puzzles have several
    again = runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--fail-on", "none"])
    assert again.exit_code == 0 and "nothing to do" in again.output
    assert runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--require", "unique"]).exit_code == 1
    assert runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--fail-on", "maybe"]).exit_code == 2


def test_a_log_of_a_batch_shows_it_going(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where standard error is not a terminal, Rich draws its bar only at the end: a cron job's
    log showed nothing of a long run until then (a site operator's review). It says what it
    will solve, then a line every LOG_EVERY seconds, whether records come or not (a later
    review: a Dask cluster that lost its workers left the log silent until one came)."""
    import nonosat.batch
    from nonosat.cli import batching
    from nonosat.cli.show import err

    monkeypatch.setattr(batching, "LOG_EVERY", 0.02)
    said: list[str] = []
    twice = threading.Event()
    printing = err.print

    def print_(text: Any, *args: Any, **kwargs: Any) -> None:
        said.append(str(text))
        if sum(line.startswith("solved 1 of 2 · unique 1 · ") for line in said) >= 2:
            twice.set()
        printing(text, *args, **kwargs)

    real = nonosat.batch.run

    def stalling(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
        records = real(*args, **kwargs)
        yield next(records)
        twice.wait(20)  # no record comes now: the log must go on by itself
        yield from records

    monkeypatch.setattr(err, "print", print_)
    monkeypatch.setattr(nonosat.batch, "run", stalling)
    dancer = Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-00001-dancer.non"
    for name in ("a.non", "b.non"):
        (tmp_path / name).write_text(dancer.read_text())
    done = runner.invoke(
        app,
        ["batch", str(tmp_path / "a.non"), str(tmp_path / "b.non"), "--out", str(tmp_path / "r.jsonl"), "--jobs", "1"],
    )
    assert done.exit_code == 0, done.output
    assert said[0] == "solving 2 puzzles" and twice.is_set(), said


def test_the_summary_says_what_this_run_solved_of_the_file() -> None:
    """`--retry unknown` on one set reported "2000 puzzles in rr.jsonl": the file held another."""
    from nonosat.batch.policy import summarize
    from nonosat.render.tables import summary_title

    records: list[dict[str, Any]] = [{"path": f"x.non#{i}", "status": "unique", "seconds": 0.1} for i in range(3)]
    assert summary_title(summarize(records), "r.jsonl", 1) == "3 puzzles in r.jsonl (1 solved in this run)"
    assert summary_title(summarize(records), "r.jsonl", 3) == "3 puzzles in r.jsonl"
    assert summary_title(summarize(records[:1]), "r.jsonl", 1) == "1 puzzle in r.jsonl"  # not "1 puzzles"


@pytest.mark.parametrize("width", [200, 50])
def test_the_summary_title_is_whole_and_wraps_only_at_the_terminals_width(tmp_path: Path, width: int) -> None:
    """Reviews: as the table's title it was wrapped at the table's width ("(0 solved in this" and
    "run)" on two lines), then, told not to wrap, cut at a narrow terminal's."""
    from rich.console import Console

    from nonosat.cli.batching import _print_summary

    records: list[dict[str, Any]] = [{"path": f"x.non#{i}", "status": "unique", "seconds": 0.1} for i in range(3)]
    title = "3 puzzles in some/long/folder/of/results/results.jsonl (0 solved in this run)"
    console = Console(width=width, record=True, color_system=None)
    _print_summary(records, "some/long/folder/of/results/results.jsonl", console, 0)
    lines = console.export_text().splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith("┏"))
    assert " ".join(line.strip() for line in lines[:table]) == title
    assert (table == 1) == (width >= len(title))


def test_one_puzzle_is_one_puzzle_in_every_line_of_a_run(tmp_path: Path) -> None:
    """A review found "solving 1 puzzles"; "nothing to do: all 1 puzzles are already in" too."""
    from typer.testing import CliRunner

    from nonosat.cli import app

    out = tmp_path / "r.jsonl"
    for said in ("solving 1 puzzle", "nothing to do: 1 puzzle already in"):
        ring = Path(__file__).resolve().parent.parent / "puzzles" / "ring.non"
        done = CliRunner().invoke(app, ["batch", str(ring), "--out", str(out)])
        assert done.exit_code == 0 and said in done.output and "1 puzzles" not in done.output, done.output


# --- Dask --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_dask_workers_give_the_same_results_as_local_ones(tournament: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]
    scheduler = subprocess.Popen(
        [*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [*dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        out = tmp_path / "dask.jsonl"
        remote = list(run([str(tournament)], out=out, executor="dask", scheduler=address))
        local = list(run([str(tournament)], jobs=2))
        assert len(remote) == 120 and len(lines(out)) == 120
        assert {key(r) for r in remote} == {key(r) for r in local}
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.slow
def test_dask_without_a_scheduler_starts_a_local_cluster(tournament: Path) -> None:
    pytest.importorskip("distributed")
    first = [str(tournament)]
    remote = list(run(first, executor="dask", jobs=2))
    local = list(run(first, jobs=2))
    assert {key(r) for r in remote} == {key(r) for r in local}


def answering(reply: bytes | None) -> tuple[str, threading.Event]:
    """A TCP port that accepts and then sends `reply` (None: says nothing, as a web server waits
    for a request), until the event is set."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.1)
    done = threading.Event()

    def serve() -> None:
        held = []
        while not done.is_set():
            try:
                peer, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(peer)
            if reply is not None:
                peer.sendall(reply)
        for peer in held:
            peer.close()
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{listener.getsockname()[1]}", done


@pytest.mark.slow
def test_a_wrong_scheduler_address_is_one_line_and_soon(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A review: a port that never answers (the dashboard's) waited for ever; one that answers
    with other bytes was "internal error (MemoryError)", exit 70, and so was an address Dask
    cannot parse; a refused port took 10 s. Each is now a UsageError saying what is wrong."""
    pytest.importorskip("distributed")
    from nonosat.batch import cluster
    from nonosat.errors import UsageError

    monkeypatch.setattr(cluster, "REACH_SECONDS", 1.0)
    one = tmp_path / "one.non"
    one.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    silent, silent_done = answering(None)
    foreign, foreign_done = answering(b"SSH-2.0-OpenSSH_9.6\r\n")
    wrong = {
        "notanaddress": "not an address such as tcp://HOST:8786 (no port)",
        "http://127.0.0.1:8786": "not an address such as tcp://HOST:8786",
        "tcp://::1:8786": "ipv6 needs brackets",
        f"tcp://127.0.0.1:{free_port()}": "connection refused for 1 s",
        silent: "no answer within 1 s (the dashboard's port?",
        foreign: "not a Dask scheduler (MemoryError)",
    }
    try:
        for address, said in wrong.items():
            raised: list[BaseException] = []

            def reach(address: str = address, raised: list[BaseException] = raised) -> None:
                try:
                    list(run([str(one)], out=tmp_path / "r.jsonl", executor="dask", scheduler=address))
                except BaseException as error:  # noqa: BLE001 - looked at below
                    raised.append(error)

            trying = threading.Thread(target=reach, daemon=True)
            trying.start()
            trying.join(60)  # "for ever" was the fault: bounded by the join, not asserted on a clock
            assert not trying.is_alive() and raised and isinstance(raised[0], UsageError), (address, raised)
            assert str(raised[0]).startswith(f"cannot reach the Dask scheduler at {address}: ") and said in str(
                raised[0]
            )
            assert not (tmp_path / "r.jsonl").exists(), address  # a review: left there, empty
    finally:
        silent_done.set()
        foreign_done.set()


def dies_on_three(item: int) -> int:
    """A worker's work that kills its own process on item 3 (as the system would, for memory)."""
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_worker_that_dies_ends_the_run_with_an_error_not_a_hang() -> None:
    results: list[int] = []
    with pytest.raises(NonosatError, match="a worker process died"):
        for done in executors.pooled(dies_on_three, iter([[k] for k in range(8)]), 2):
            results.extend(done)
    assert 3 not in results


@pytest.mark.slow
def test_puzzles_named_file_hash_n_are_the_ones_load_reads(corpus: Path) -> None:
    """`FILE#N` tasks come from the file read once (`WholeFile`): each is the puzzle `load`
    reads alone, and a number past the end or a broken file still gives load's own error."""
    tournament = corpus / "tcga" / "question" / "taai2011.txt"
    pbn = corpus / "colour" / "ianprime0509-nonograms" / "puzzles" / "easy.pbn"
    names = [f"{tournament}#{n}" for n in (1, 2, 500, 1000)] + [f"{pbn}#2", f"{pbn}#1", f"{tournament}#7"]
    found = list(tasks(names + [f"{tournament}#1001"]))
    assert [task.puzzle for task in found[:-1]] == [load(name) for name in names]
    assert [task.path for task in found[:-1]] == names
    assert found[-1].puzzle is None and found[-1].error is not None and "1001" in found[-1].error
    whole = WholeFile()
    assert whole.puzzle(str(tournament)) is None  # a whole file is not FILE#N
    assert whole.puzzle(f"{tournament}#3") == [load(f"{tournament}#3")]


def slow_square(item: int) -> int:
    time.sleep(0.03)
    return item * item


@pytest.mark.slow
def test_a_worker_hands_back_what_it_solved_without_waiting_for_its_whole_chunk() -> None:
    """A review interrupted a batch of slow puzzles after about 12 had been solved and found 0
    records: a worker handed back its records only when its whole chunk of 8 was done. It now
    hands back what it has after HAND_BACK seconds, and the rest of the chunk is queued again."""
    done, rest = executors.for_a_while(slow_square, list(range(8)))
    assert 1 <= len(done) < 8 and done + [k * k for k in rest] == [k * k for k in range(8)]
    results = [result for chunk in executors.pooled(slow_square, iter([list(range(8)), [8, 9]]), 2) for result in chunk]
    assert sorted(results) == [k * k for k in range(10)]


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="results files are held with flock")
def test_a_second_run_on_the_same_results_file_at_once_is_refused(tmp_path: Path) -> None:
    """A review ran two batches on one results file at once: both appended every record (2,000
    records for 1,000 puzzles, and a resume counted them twice). A run holds its file now."""
    puzzle = tmp_path / "ring.non"
    puzzle.write_text((Path(__file__).resolve().parent.parent / "puzzles" / "ring.non").read_text())
    out = tmp_path / "r.jsonl"
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += f"hold(Path({str(out)!r})); print('held', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        with pytest.raises(UsageError, match="another batch run is writing it"):
            pending([str(puzzle)], out)
        refused = CliRunner().invoke(app, ["batch", str(puzzle), "--out", str(out)])
        assert refused.exit_code == 2 and not out.exists()
    finally:
        other.communicate("")
    assert [record["status"] for record in run([str(puzzle)], out=out, jobs=1)] == ["multiple"]
    assert len(out.read_text().splitlines()) == 1 and not (tmp_path / ".r.jsonl.lock").exists()


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="results files are held with flock")
def test_a_second_run_on_another_name_of_the_same_results_file_is_refused(tmp_path: Path) -> None:
    """A review ran two batches at once on two hard links to one results file: both were let
    in (each name had a lock file of its own) and 944 of 1,000 records were written twice."""
    puzzle = tmp_path / "ring.non"
    puzzle.write_text((Path(__file__).resolve().parent.parent / "puzzles" / "ring.non").read_text())
    out, link = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    out.touch()
    os.link(out, link)
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += f"hold(Path({str(out)!r})); print('held', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        with pytest.raises(
            UsageError, match="another batch run is writing it under another name \\(a link to it\\); wait for"
        ):
            pending([str(puzzle)], link)
        assert not (tmp_path / ".b.jsonl.lock").exists() and (tmp_path / ".a.jsonl.lock").exists()
        refused = CliRunner().invoke(app, ["batch", str(puzzle), "--out", str(link)])
        assert refused.exit_code == 2 and out.read_text() == ""
    finally:
        other.communicate("")
    assert [record["status"] for record in run([str(puzzle)], out=link, jobs=1)] == ["multiple"]
    assert len(out.read_text().splitlines()) == 1
    # the mends' review: a results file the run made (or rewrote by a rename) was not held itself
    made, link = tmp_path / "made.jsonl", tmp_path / "made-link.jsonl"
    code = "import sys; from pathlib import Path; from nonosat.batch.holding import hold; "
    code += "from nonosat.batch.results import Writer; "
    code += f"hold(Path({str(made)!r})); Writer(Path({str(made)!r})); print('made', flush=True); sys.stdin.read()"
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "made\n"
        os.link(made, link)
        with pytest.raises(UsageError, match="under another name"):
            pending([str(puzzle)], link)
    finally:
        other.communicate("")


def test_an_address_that_is_no_address_is_refused_before_the_run_begins(tmp_path: Path) -> None:
    """`--scheduler notanaddress` was one line, but after the run's progress had begun: refused
    now with the run's other options, before anything is read (`check_run`); one line, exit 2."""
    pytest.importorskip("distributed")
    one = tmp_path / "one.non"
    one.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    for address in ("notanaddress", "tcp://host", "http://127.0.0.1:8786"):
        done = runner.invoke(
            app, ["batch", str(one), "--out", str(tmp_path / "r.jsonl"), "--executor", "dask", "--scheduler", address]
        )
        assert done.exit_code == 2 and done.output.count("\n") == 1, done.output
        assert done.output.startswith(f"nonosat: cannot reach the Dask scheduler at {address}: not an address")
        assert not (tmp_path / "r.jsonl").exists()


def test_the_scheduler_is_asked_with_the_clients_security(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: the probe connected without the client's TLS context, so every tls:// scheduler
    was "not a Dask scheduler (TypeError)". It asks as Client does."""
    pytest.importorskip("distributed")
    import distributed.comm.core
    from distributed.security import Security

    from nonosat.batch import cluster

    asked: list[dict[str, Any]] = []

    async def connecting(address: str, **kwargs: Any) -> Any:
        asked.append(kwargs)
        raise OSError("no such scheduler here")

    monkeypatch.setattr(distributed.comm.core, "connect", connecting)
    with pytest.raises(UsageError, match="not a Dask scheduler"):
        cluster.connect("tls://scheduler.invalid:8786")
    assert asked and Security().get_connection_args("client").items() <= asked[0].items()  # type: ignore[no-untyped-call]


@pytest.mark.slow
def test_solve_many_and_run_in_a_daemonic_worker_solve_in_it(tmp_path: Path) -> None:
    """A Python user's review: solve_many(jobs=2) in a multiprocessing.Pool's worker (a Celery
    worker is one too) raised a bare AssertionError, "daemonic processes are not allowed to have
    children". There the puzzles are solved in the worker itself."""
    script = tmp_path / "pooled.py"
    script.write_text(
        "import multiprocessing, sys\n"
        "from nonosat import load\n"
        "from nonosat.batch import run, solve_many\n"
        "def grade(path):\n"
        "    many = sorted((i, r.status.value) for i, r in solve_many([load(path)] * 3, jobs=2))\n"
        "    records = [r['status'] for r in run([path], jobs=2)]\n"
        "    return many, records\n"
        "if __name__ == '__main__':\n"
        "    with multiprocessing.get_context('spawn').Pool(1) as pool:\n"
        "        print(pool.map(grade, [sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, str(script), str(Path(__file__).resolve().parent.parent / "puzzles" / "ring.non")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[([(0, 'multiple'), (1, 'multiple'), (2, 'multiple')], ['multiple'])]"
