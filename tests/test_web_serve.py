"""`nonosat serve` as a process: what it prints, Ctrl-C, a client that leaves, and the API never
answering 500 to mangled uploads (a fuzz of every reader through the API)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.processes import children, ignoring_ctrl_c, in_group, sigint_blocked_and_ignored

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(*args: str, ignoring: bool = False) -> tuple[subprocess.Popen[str], int]:
    """`nonosat serve ARGS` on a free port, up and answering (`ignoring`: started ignoring SIGINT)."""
    port = free_port()
    command = ["serve", "--port", str(port), *args]
    process = subprocess.Popen(
        ignoring_ctrl_c(command) if ignoring else [sys.executable, "-m", "nonosat", *command],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=1)
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the server did not start: {process.stderr.read() if process.stderr else ''}")


def stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Ctrl-C at the terminal: SIGINT to the whole process group."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        code = process.wait(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return code, process.stderr.read() if process.stderr else ""


@pytest.fixture(scope="module")
def served() -> Iterator[int]:
    process, port = start("--max-count", "100000")
    try:
        yield port
    finally:
        stop(process)


def status(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5) as reply:
        workers: dict[str, Any] = json.load(reply)["workers"]
        return workers


def test_serve_prints_its_address_and_ends_on_ctrl_c_with_130() -> None:
    """Also a warning for a default timeout cut to the most a request may ask for (a review
    found it cut without a word)."""
    process, port = start("--host", "0.0.0.0", "--request-timeout", "100", "--max-request-timeout", "5")
    code, said = stop(process)
    assert code == 130
    lines = said.splitlines()
    assert lines[0] == (
        "warning: --request-timeout 100 is over --max-request-timeout 5: a request that names no timeout gets 5 s"
    )
    assert lines[1].startswith("warning: listening on 0.0.0.0")
    assert lines[2] == f"nonosat: serving on http://0.0.0.0:{port} (Ctrl-C stops it)"
    assert lines[-1] == "nonosat: interrupted" and "Traceback" not in said


def test_a_malformed_upload_is_answered_400_and_nothing_else_is_printed() -> None:
    process, port = start()
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/check",
            data=b"garbage",
            headers={"Content-Type": "multipart/form-data; boundary=xx"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        assert "multipart/form-data" in json.load(refused.value)["error"]
    finally:
        code, said = stop(process)
    assert code == 130
    assert said.splitlines() == [
        f"nonosat: serving on http://127.0.0.1:{port} (Ctrl-C stops it)",
        "nonosat: interrupted",
    ]


def test_a_taken_port_is_one_line_and_exit_2(served: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "serve", "--port", str(served)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"nonosat: cannot listen on 127.0.0.1:{served}:") and done.stderr.count("\n") == 1


def test_the_port_checked_is_held_until_the_server_listens_on_it() -> None:
    """A review: `serve --port 0` found a free port, let it go, and told it; the server bound it
    later, and another process could take it between. The socket checked is now the one served:
    held (listening) from the check, so a second server is refused at once, and port 0 is the
    port that socket has."""
    from nonosat.cli.serving import check_address
    from nonosat.errors import UsageError

    with check_address("127.0.0.1", 0) as held:
        port = held.getsockname()[1]
        assert port > 0
        with pytest.raises(UsageError, match=f"cannot listen on 127.0.0.1:{port}: "):
            check_address("127.0.0.1", port).close()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it listens: a client's connection waits for the server to start
    check_address("127.0.0.1", port).close()  # let go with the socket


def test_serve_serves_on_the_socket_it_checked_and_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """The diff's review: the test above held the socket but not that the server serves on it."""
    import uvicorn
    from typer.testing import CliRunner

    from nonosat.cli import app

    served: list[tuple[int, int]] = []

    def run(self: Any, sockets: list[socket.socket] | None = None) -> None:
        assert sockets is not None and len(sockets) == 1, sockets
        served.append((sockets[0].getsockname()[1], sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)))
        self.started = True  # as if it had served until Ctrl-C

    monkeypatch.setattr(uvicorn.Server, "run", run)
    done = CliRunner().invoke(app, ["serve", "--port", "0"])
    ((port, listening),) = served
    assert port > 0 and listening == 1
    assert f"nonosat: serving on http://127.0.0.1:{port} (" in done.output and done.exit_code == 130, done.output


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


def mangled(data: bytes, rng: random.Random) -> bytes:
    """A file cut, doubled, or with bytes changed, dropped or added."""
    choice = rng.randrange(5)
    if not data or choice == 0:
        return data[: rng.randrange(len(data) + 1)]
    at = rng.randrange(len(data))
    if choice == 1:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if choice == 2:
        return data[:at] + data[at + rng.randrange(1, 20) :]
    if choice == 3:
        return data[:at] + rng.choice([b"-", b"9" * 30, b"\n", b"[", b"{", b"\xff", b"#", b" "]) + data[at:]
    return data + data


def test_mangled_uploads_of_every_format_never_get_a_500(served: int, corpus: Path) -> None:
    from web_requests import CORPUS_FORMATS

    rng = random.Random(18)
    files = [corpus / name.partition("#")[0] for name in CORPUS_FORMATS] + sorted((ROOT / "puzzles").glob("*"))
    seen: dict[int, int] = {}
    for round_ in range(120):
        path = files[round_ % len(files)]
        data = path.read_bytes()
        for _ in range(rng.randrange(1, 4)):
            data = mangled(data, rng)
        name = path.name if rng.random() < 0.8 else rng.choice(["x", "a.png", "b.json", "c.xml", "d.g", ".."])
        boundary = "fuzzboundary"
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n\r\n'.encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(
            f"http://127.0.0.1:{served}/api/{rng.choice(['check', 'solve', 'rate', 'convert?to=json'])}",
            data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                code, text = reply.status, reply.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            code, text = error.code, error.read().decode("utf-8", "replace")
        seen[code] = seen.get(code, 0) + 1
        assert code in (200, 400), (path.name, name, code, text)
        if code == 400:
            message = json.loads(text)["error"]
            assert message and "\n" not in message and "Traceback" not in message
    assert seen.get(400, 0) > 10 and seen.get(200, 0) > 5, seen


def sent_in_part(port: int, path: str, kind: str, body: bytes, sent: int) -> tuple[float, bytes, bool]:
    """A request whose body stops after `sent` bytes: seconds to the answer, the answer, and
    whether the server closed the connection within 2 s of it though a byte more of the body
    came every 0.1 s (uvicorn kept such a connection open as long as bytes came)."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n"
        connection.sendall(head.encode() + body[:sent])
        connection.settimeout(20)
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            more = connection.recv(4096)
            if not more:
                break
            answer += more
        seconds = time.monotonic() - started
        connection.settimeout(0.1)
        for byte in body[sent : sent + 20]:
            try:
                connection.sendall(bytes([byte]))
                if connection.recv(4096) == b"":
                    return seconds, answer, True
            except TimeoutError:
                continue
            except OSError:  # reset: closed
                return seconds, answer, True
        return seconds, answer, False


def test_an_upload_that_stalls_is_answered_when_the_requests_time_is_up(served: int) -> None:
    """A review found an upload that stopped halfway never answered (25 s and more), and a slow
    one answered after its whole upload, past its timeout: the request's time counts from its
    arrival, its reading included. Now each is answered `unknown` when its time is up (for a file
    endpoint, 422), naming what it was doing, and its connection closed (the next review found
    it kept open while a byte more came now and then)."""
    puzzle = (ROOT / "puzzles" / "ring.non").read_bytes()
    form = b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="ring.non"\r\n\r\n' + puzzle
    form += b"\r\n--xyz--\r\n"
    asked = [
        ("/api/check?timeout=1.5", "multipart/form-data; boundary=xyz", form, "upload", 200),
        ("/api/solve?timeout=1", "application/json", b'{"rows": [[1], [1]], "cols": [[1], [1]]}', "<input>", 200),
        ("/api/render?timeout=1", "multipart/form-data; boundary=xyz", form, None, 422),
    ]
    for path, kind, body, name, code in asked:
        _, answer, closed = sent_in_part(served, path, kind, body, len(body) // 2)
        assert closed, (path, answer)
        head, _, text = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 %d" % code), answer
        record = json.loads(text)
        said = record["cut_short"] if code == 200 else record["error"]
        limit = path.partition("timeout=")[2]
        assert f"time limit reached ({limit} s) while reading the upload" in said, record  # the request's own limit
        if code == 200:
            assert record["status"] == "unknown" and record["path"] == name, record


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),  # a review: warned as if public
        ("localhost", True),
        ("LOCALHOST", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("example.org", False),
    ],
)
def test_only_a_public_address_is_warned_of(host: str, loopback: bool) -> None:
    from nonosat.cli.serving import _loopback

    assert _loopback(host) is loopback
