"""Batch runs on Dask (`--executor dask`): workers of a scheduler and a local cluster give the
results local workers give, and a wrong scheduler address is one line, soon, refused before the
run begins; the scheduler is asked with the client's security."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from batch_shared import (
    key,
    lines,
    tournament_fixture,  # noqa: F401  (fixture)
)
from typer.testing import CliRunner

from nonosat import UsageError
from nonosat.batch import run
from nonosat.cli import app

runner = CliRunner()


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
