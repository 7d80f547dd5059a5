"""`nonosat serve` as a process: what it prints (its address, a warning for a public address or a
default timeout cut short, nothing for a malformed upload but its 400), Ctrl-C ending it with
130, a taken port one line and exit 2, and the socket it checked held until it serves on it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from typing import Any

import pytest
from web_serve_shared import (
    served_fixture,  # noqa: F401  (fixture)
    start,
    stop,
)

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")


pytestmark = pytest.mark.slow


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
