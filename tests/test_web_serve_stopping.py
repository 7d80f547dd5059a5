"""`nonosat serve` stopped or left while it works: SIGTERM or Ctrl-C answers 503 the requests
under way (their uploads still coming too), a server started ignoring Ctrl-C serves on through
it, a client that leaves ends its worker, and a worker that dies is a 503 saying how."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from web_serve_shared import (
    served_fixture,  # noqa: F401  (fixture)
    start,
)

from bench.processes import children, in_group, sigint_blocked_and_ignored

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")


pytestmark = pytest.mark.slow


def status(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5) as reply:
        workers: dict[str, Any] = json.load(reply)["workers"]
        return workers


def hard_body() -> bytes:
    """A random 40x40 grid's clues: counting its solutions runs far past any time given here."""
    from web_requests import hard_puzzle

    return json.dumps(hard_puzzle()).encode()


def asked_hard(port: int, timeout: int) -> tuple[threading.Thread, list[tuple[int, dict[str, Any]]]]:
    """A thread asking the server to count the solutions of `hard_body` within `timeout` s, and
    the list its reply goes into, (status code, JSON), when it comes (an error's as well)."""
    replies: list[tuple[int, dict[str, Any]]] = []

    def ask() -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/solve?count=100000&timeout={timeout}",
            data=hard_body(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout + 10) as reply:
                replies.append((reply.status, json.load(reply)))
        except urllib.error.HTTPError as error:
            replies.append((error.code, json.load(error)))

    asking = threading.Thread(target=ask)
    asking.start()
    return asking, replies


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts the server's processes through /proc")
def test_a_server_started_ignoring_ctrl_c_serves_on_through_it() -> None:
    """A server started as a shell script's background job (`nonosat serve &`, SIGINT ignored)
    goes on ignoring Ctrl-C, as every command does: the request under way gets its answer, no
    process of the server's ends, and SIGTERM still stops it."""
    process, port = start("--max-count", "100000", ignoring=True)
    try:
        assert process.stderr is not None
        assert process.stderr.readline() == f"nonosat: serving on http://127.0.0.1:{port} (SIGTERM stops it)\n"
        asking, replies = asked_hard(port, 3)
        for _ in range(200):
            if status(port)["running"] == 1:
                break
            time.sleep(0.05)
        time.sleep(0.5)  # the worker well into its search
        group = in_group(process.pid)
        assert len(group) >= 3, group  # the server, its fork server and the request's worker
        os.killpg(process.pid, signal.SIGINT)
        asking.join(30)
        assert replies and replies[0][0] == 200 and replies[0][1]["status"] in ("unknown", "multiple"), replies
        assert process.poll() is None and status(port)["live"] >= 0  # still serving
        left = in_group(process.pid)
        assert process.pid in left and len(left) >= 2, (group, left)  # the server and its fork server
    finally:
        process.terminate()
        code = process.wait(timeout=10)
    assert code == 143  # uvicorn hands the signal it heard to nonosat's handler, once the requests are done


@pytest.mark.parametrize(
    ("group", "signal_number", "exit_code", "said_last"),
    [
        (False, signal.SIGTERM, 143, "nonosat: terminated\n"),
        (True, signal.SIGTERM, 143, "nonosat: terminated\n"),
        (True, signal.SIGINT, 130, "nonosat: interrupted\n"),
    ],
    ids=["sigterm", "sigterm-to-group", "ctrl-c"],
)
def test_sigterm_answers_the_requests_under_way_503(
    served: int, group: bool, signal_number: int, exit_code: int, said_last: str
) -> None:
    """A review stopped the server with SIGTERM while requests ran: uvicorn cut them off without
    an answer after its grace, or answered 500 with a traceback. The workers now end as the
    server begins to stop, and each request under way is answered 503. So with Ctrl-C at the
    terminal, or `timeout`'s SIGTERM, which reach the worker too: a later review got "the worker
    answering this request was interrupted (Ctrl-C)", or "ended without a reply (exit code 255)"."""
    process, port = start("--max-count", "100000")
    try:
        asking, replies = asked_hard(port, 50)
        for _ in range(200):
            if status(port)["running"] == 1:
                break
            time.sleep(0.05)
        time.sleep(0.3)  # the worker well into its search
        if group:
            os.killpg(process.pid, signal_number)
        else:
            process.send_signal(signal_number)
        asking.join(30)
        code = process.wait(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    said = process.stderr.read() if process.stderr else ""
    assert replies == [(503, {"error": "the server is stopping: this request was not answered"})], replies
    assert code == exit_code and "Traceback" not in said and "ERROR" not in said, said
    assert said.endswith(said_last), said


def test_sigterm_answers_503_a_request_whose_upload_is_still_coming() -> None:
    """A review stopped the server while two requests were still sending their bodies (a JSON
    one and a multipart one): neither got an answer, which a proxy turns into a 502. Their
    reading ends as the server begins to stop, and each is answered 503."""
    process, port = start()
    clients = []
    try:
        for head, part in (
            ("application/json", b'{"rows": [[1], [1]], '),
            ("multipart/form-data; boundary=XX", b'--XX\r\nContent-Disposition: form-data; name="file"\r\n\r\nwidth'),
        ):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(
                f"POST /api/check?timeout=60 HTTP/1.1\r\nHost: x\r\nContent-Type: {head}\r\n"
                f"Content-Length: 500\r\n\r\n".encode()
                + part
            )
            clients.append(client)
        time.sleep(0.5)  # both read as far as they go
        process.terminate()
        code = process.wait(timeout=10)
        answers = [client.recv(4096) for client in clients]
    finally:
        for client in clients:
            client.close()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    for answer in answers:
        assert answer.startswith(b"HTTP/1.1 503 "), answers
        assert answer.endswith(b'{"error": "the server is stopping: this request was not answered"}'), answers
    assert code == 143


def test_a_client_that_leaves_ends_its_worker(served: int) -> None:
    before = status(served)["killed"]
    body = hard_body()
    with socket.create_connection(("127.0.0.1", served)) as client:
        head = (
            f"POST /api/solve?count=100000&timeout=50 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        client.sendall(head.encode() + body)
        for _ in range(200):
            if status(served)["live"] == 1:
                break
            time.sleep(0.05)
        assert status(served)["running"] == 1
    for _ in range(200):  # the client is gone: its worker is killed at once, not after 50 s
        now = status(served)
        if now["killed"] > before and now["live"] == 0:
            break
        time.sleep(0.05)
    assert now["killed"] == before + 1 and now["live"] == 0 and now["running"] == 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker through /proc")
@pytest.mark.parametrize(
    ("signal_number", "said"),
    [(signal.SIGKILL, "was killed (SIGKILL: out of memory?)"), (signal.SIGINT, "was interrupted (Ctrl-C)")],
)
def test_a_worker_that_dies_is_a_503_saying_how(served: int, signal_number: int, said: str) -> None:
    asking, replies = asked_hard(served, 50)
    server = [pid for pid in children(os.getpid()) if str(served).encode() in Path(f"/proc/{pid}/cmdline").read_bytes()]
    for _ in range(200):  # the worker: a child of the fork server, a child of the server
        workers = [worker for helper in children(server[0]) for worker in children(helper)]
        if workers:
            break
        time.sleep(0.05)
    assert len(workers) == 1
    for _ in range(200):  # past its first steps: a worker begins life ignoring SIGINT (the fork server's)
        if not any(sigint_blocked_and_ignored(workers[0])):
            break
        time.sleep(0.05)
    os.kill(workers[0], signal_number)
    asking.join(30)
    assert replies and replies[0][0] == 503
    assert replies[0][1]["error"] == f"the worker answering this request {said}"
