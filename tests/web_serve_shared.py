"""What the tests of `nonosat serve` as a process share (tests/test_web_serve_*.py): a free port,
a server started on one and up and answering, Ctrl-C to its whole process group, and a server
for the whole module (the fixture `served`, its port)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.processes import ignoring_ctrl_c

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.fixture(scope="module", name="served")
def served_fixture() -> Iterator[int]:
    process, port = start("--max-count", "100000")
    try:
        yield port
    finally:
        stop(process)
