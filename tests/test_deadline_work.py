"""Work held to a deadline: a preview written or a picture read in C ends at the deadline, a
library caller's work is never left running (off the main thread, cut short), a command or a web
worker may leave work behind, and work finished by its deadline gives its value or its error."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import pytest

from nonosat import deadline as deadlines
from nonosat.deadline import Deadline, TimeUp


class _HeldInC:
    """Work that sits in a C call no signal cuts short, as Pillow's decoding or encoding of a big
    picture does: libc's pthread_mutex_lock (through ctypes) on a mutex held until `release`
    (at the latest after 5 s, so that a test of code that waits for it fails, not hangs)."""

    def __init__(self) -> None:
        import ctypes

        self.libc = ctypes.CDLL(None)
        self.mutex = ctypes.create_string_buffer(64)  # zeros: PTHREAD_MUTEX_INITIALIZER
        assert self.libc.pthread_mutex_lock(self.mutex) == 0
        self.safety = threading.Timer(5.0, self.release)
        self.safety.start()
        self.released = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.libc.pthread_mutex_lock(self.mutex)
        self.libc.pthread_mutex_unlock(self.mutex)
        return b""

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.libc.pthread_mutex_unlock(self.mutex)


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's pthread_mutex_lock through ctypes")
def test_a_preview_held_in_c_ends_at_the_deadline(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """A review found `generate --preview big.png --timeout 1.4` ending at 1.66-1.68 s: the
    timer signal of `alarm` is heard only when Pillow's encoding returns."""
    from nonosat.palette import BLACK_AND_WHITE
    from nonosat.render import changes

    held = _HeldInC()
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)  # as in a command
    monkeypatch.setattr(changes, "changes_png", held)
    try:
        with pytest.raises(TimeUp, match="drawing p.png"):
            changes.save_changes(
                ((0, 1),), ((1, 1),), BLACK_AND_WHITE, tmp_path / "p.png", deadline=Deadline.after(0.2)
            )
        assert not held.released  # raised while the C call still held its thread
    finally:
        held.release()
    assert not (tmp_path / "p.png").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's pthread_mutex_lock through ctypes")
def test_a_picture_read_in_c_ends_at_the_deadline(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The same review: a 6300x6300 PNG read 0.2-0.3 s past `generate --timeout 0.9`."""
    from nonosat.generate import picture

    held = _HeldInC()
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)  # as in a command
    monkeypatch.setattr(picture, "load_shades", held)
    try:
        with pytest.raises(TimeUp, match="while reading .*big.png"):
            picture.read_picture(tmp_path / "big.png", width=10, height=10, deadline=Deadline.after(0.2))
        assert not held.released
    finally:
        held.release()


def test_a_library_callers_work_is_never_left_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review of the mend: in a library caller's process, which goes on after a TimeUp,
    work left behind piled up (three calls of from_image cut short left threads decoding 900 MB
    of pictures): there it runs in the caller's thread, held to the deadline by `alarm`; in a
    command (or a web worker), in a thread of its own."""
    ran_in: list[threading.Thread] = []

    def work() -> int:
        ran_in.append(threading.current_thread())
        return 7

    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", False)
    assert deadlines.finished_by(Deadline.after(30), "working", work) == 7
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)
    assert deadlines.finished_by(Deadline.after(30), "working", work) == 7
    assert ran_in[0] is threading.current_thread() and ran_in[1] is not threading.current_thread()
    # A thread that was there before may end meanwhile (the one above, or another test's), so
    # what is compared is whether any thread is there that was not before.
    before = set(threading.enumerate())
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", False)

    def sleep() -> None:
        ran_in.append(threading.current_thread())
        time.sleep(5)

    with pytest.raises(TimeUp, match="sleeping"):
        deadlines.finished_by(Deadline.after(0.05), "sleeping", sleep)
    assert ran_in[2] is threading.current_thread()
    assert set(threading.enumerate()) <= before


def test_a_library_callers_work_past_the_deadline_off_the_main_thread_is_cut_short() -> None:
    """The review of the mend: off the main thread no alarm rings, and a drawing that ran past
    the deadline was written (`save_picture` says nothing is written then)."""
    raised: list[BaseException] = []

    def call() -> None:
        try:
            deadlines.finished_by(Deadline.after(0.05), "sleeping", lambda: time.sleep(0.3))
        except TimeUp as error:
            raised.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    caller.join()
    assert len(raised) == 1 and "sleeping" in str(raised[0])


def test_a_command_and_a_web_worker_may_leave_work_behind() -> None:
    import subprocess

    for code in (
        "import sys; sys.argv = ['nonosat', '--version']\nfrom nonosat.__main__ import main\ntry: main()\n"
        "except SystemExit: pass\nfrom nonosat import deadline; print(deadline._ENDS_WITH_ITS_WORK)",
        "from nonosat import deadline; print(deadline._ENDS_WITH_ITS_WORK)",
    ):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.stdout.split()[-1] == ("True" if "main()" in code else "False"), done.stderr


def test_work_finished_by_its_deadline_gives_its_value_or_its_error() -> None:
    assert deadlines.finished_by(Deadline.after(30), "adding", lambda: 1 + 1) == 2
    assert deadlines.finished_by(Deadline(), "adding", lambda: 3) == 3
    with pytest.raises(ZeroDivisionError):
        deadlines.finished_by(Deadline.after(30), "dividing", lambda: 1 // 0)
    with pytest.raises(TimeUp, match="late"):
        deadlines.finished_by(Deadline.after(0), "late", lambda: 1)
