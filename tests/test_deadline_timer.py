"""The deadline of a command: counted from the process's start (keeping the time the process takes
to end), and its timer signal, the alarm, kept apart from a caller's own."""

from __future__ import annotations

import signal
import sys
import time
from types import FrameType, SimpleNamespace

import pytest

from nonosat import deadline as deadlines
from nonosat.deadline import Deadline, TimeUp, alarm, process_age

IMPORTED = time.monotonic()

needs_timer = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers here")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the start is read from /proc")
def test_the_process_age_counts_from_the_start() -> None:
    """This process started before this module was imported (an order, not a timing: pytest's
    start-up comes between)."""
    started = time.monotonic() - process_age()
    assert 0 < process_age() and started <= IMPORTED + 0.02


def test_a_command_deadline_counts_the_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review measured `solve --timeout 1` taking 1.3-1.5 s under load: Python's start-up and the
    imports (0.2-0.3 s there) came before the deadline was made. In a process that is no
    `nonosat` program (this one, running commands through CliRunner), it counts from now."""
    monkeypatch.setattr(deadlines, "time", SimpleNamespace(monotonic=lambda: 1000.0))  # a clock that stands still
    monkeypatch.setattr(deadlines, "_command_started", None)
    monkeypatch.setattr(deadlines, "process_age", lambda: 0.4)
    assert Deadline.for_command(1.0).remaining() == 1.0
    deadlines.command_started()
    assert Deadline.for_command(1.0).remaining() == pytest.approx(1.0 - 0.4 - deadlines.EXITING)
    assert Deadline.for_command(None).at is None
    # a process a wrapper started long before (`sleep 3; exec nonosat ...`): at most
    # START_UP_CREDIT of its age is counted, not its whole age
    monkeypatch.setattr(deadlines, "process_age", lambda: 3.0)
    deadlines.command_started()
    left = Deadline.for_command(2.0).remaining()
    assert left == pytest.approx(2.0 - deadlines.START_UP_CREDIT - deadlines.EXITING)  # not 2.0 - 3.0


def test_a_command_deadline_keeps_the_time_the_process_takes_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new user's check found `solve dom_14.dzn --timeout 1` ending at 1.02-1.05 s: its work ended by
    the deadline, the process (its fork server and resource tracker) 35-40 ms later. The
    program's deadline comes EXITING sooner; a command run in a long-lived process is not
    ended with it, and keeps the whole limit."""
    monkeypatch.setattr(deadlines, "_command_started", None)  # first: put back as it was, not as set here
    monkeypatch.setattr(deadlines, "process_age", lambda: 0.0)
    deadlines.command_started()
    left = Deadline.for_command(1.0).remaining()
    assert left is not None and 1.0 - deadlines.EXITING - 0.01 < left <= 1.0 - deadlines.EXITING
    assert Deadline.for_command(0.01).remaining() == 0.0  # less than the process's end: unknown at once
    monkeypatch.setattr(deadlines, "_command_started", None)
    whole = Deadline.for_command(1.0).remaining()
    assert whole is not None and whole > 1.0 - deadlines.EXITING


@needs_timer
def test_the_alarm_rings_at_the_deadline() -> None:
    with pytest.raises(TimeUp, match="reading"), alarm(Deadline.after(0.05), "reading"):
        time.sleep(2)


@pytest.mark.slow
@needs_timer
def test_a_callers_timer_goes_on_through_an_alarm() -> None:
    """alarm() used to set the caller's own interval timer to nothing, and replace its handler."""
    rang: list[int] = []

    def theirs(signum: int, frame: FrameType | None) -> None:
        rang.append(signum)

    before = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
        with alarm(Deadline.after(5), "reading"):
            time.sleep(0.5)  # theirs rings about ten times meanwhile (fewer under load); ours not at all
        inside = len(rang)
        assert signal.getsignal(signal.SIGALRM) is theirs
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        assert interval == pytest.approx(0.05) and 0 < left <= 0.05
        time.sleep(0.12)
        assert inside >= 2 and len(rang) > inside
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@needs_timer
def test_the_alarm_still_rings_beside_a_callers_timer() -> None:
    def theirs(signum: int, frame: FrameType | None) -> None:
        pass

    before = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)
        with pytest.raises(TimeUp), alarm(Deadline.after(0.1), "reading"):
            time.sleep(2)
        assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(0.02)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
