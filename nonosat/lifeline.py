"""Processes of ours die with their parent, so that no solver goes on for nobody.

A `nonosat` killed outright (SIGKILL) runs no cleanup. Its batch workers ask Linux for a
parent-death signal (`PR_SET_PDEATHSIG`): SIGKILL as soon as the thread that started them ends,
which for ours is the parent's end; where that call does not exist, a daemon thread watches the
parent's process id and ends the process within `POLL` seconds of its parent. A race worker's
parent is the fork server, which lives as long as any of its workers: so the race worker watches
a connection to the process that asked for it instead, and ends when that connection closes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

POLL = 0.5
"""Seconds between looks at the parent, where Linux's parent-death signal is not available."""

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Arrange for this process to end when its parent does (call it first thing in a child)."""
    parent = os.getppid()
    if not _parent_death_signal():
        threading.Thread(target=_watch, args=(parent,), name="nonosat-lifeline", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _parent_death_signal() -> bool:
    """Ask Linux to kill this process when its parent ends; False elsewhere (macOS, Windows: the
    watching thread does it)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0)
    except (OSError, AttributeError, TypeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL)
    os._exit(1)


def die_when_closed(connection: Any) -> None:
    """End this process as soon as the other end of `connection` closes (its owner died or let
    go). The connection must carry nothing towards this process."""
    threading.Thread(target=_wait_for_close, args=(connection,), name="nonosat-lifeline", daemon=True).start()


def _wait_for_close(connection: Any) -> None:
    try:
        connection.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)
