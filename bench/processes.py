"""The processes a nonosat command leaves: shared by bench.faults and the signal tests.

Everything a command starts stays in its process group, so a command started in a session of
its own (as a terminal starts it) can be signalled, and counted, as a whole.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rpartition(")")[2].split()[1]) == pid:
                        found.append(int(entry))
            except (FileNotFoundError, ProcessLookupError):
                continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid`: its children, their children, and so on."""
    found: list[int] = []
    todo = [pid]
    while todo:
        below = children(todo.pop())
        found += below
        todo += below
    return found


def in_group(group: int) -> list[int]:
    """The living processes of a process group."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == group and alive(int(entry)):
                    found.append(int(entry))
            except ProcessLookupError:
                continue
    return found


def sigint_blocked_and_ignored(pid: int) -> tuple[bool, bool]:
    """Whether a process blocks SIGINT, and whether it ignores it (bit 2 of /proc's masks)."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    fields = dict(line.split(":\t", 1) for line in lines if ":\t" in line)
    return bool(int(fields["SigBlk"], 16) & 2), bool(int(fields["SigIgn"], 16) & 2)


def hear_ctrl_c() -> None:
    """Let the commands this process starts hear Ctrl-C even when it was started ignoring SIGINT
    (a shell script's background job): an ignored signal is inherited through exec, a handled
    one is not, and a command started ignoring SIGINT keeps ignoring it (nonosat.interrupts).
    For the main thread of a benchmark or a test run, before it starts commands to signal."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


IGNORING_CTRL_C = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
os.execv(sys.executable, [sys.executable, "-m", "nonosat", *sys.argv[1:]])
"""


def ignoring_ctrl_c(args: list[str]) -> list[str]:
    """The command line of `python -m nonosat ARGS` started ignoring SIGINT, as a shell starts a
    script's background job (`nonosat ... &`)."""
    return [sys.executable, "-c", IGNORING_CTRL_C, *args]


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`python -m nonosat ARGS` in a session (and process group) of its own, standard error piped,
    hearing Ctrl-C (`hear_ctrl_c`; call `start` from the main thread); `env` as its environment."""
    hear_ctrl_c()
    return subprocess.Popen(
        [sys.executable, "-m", "nonosat", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
