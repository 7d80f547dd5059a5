"""One batch run at a time on a results file: two runs appending to the same file at once wrote
every record twice. A run holds the file through a lock on a small file beside it (`.NAME.lock`,
an advisory `flock`, which the system lets go when the process ends however it ends; the file is
removed when the run ends well). Where `fcntl` is missing (Windows) nothing is held.
"""

from __future__ import annotations

import os
from pathlib import Path

from nonosat.errors import UsageError

_held: dict[str, tuple[int, Path]] = {}
"""The results files this process holds: their real path -> (the lock's descriptor, its path)."""


def lock_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.lock")


def hold(out: Path) -> None:
    """Hold `out` for this process's run, or raise UsageError if another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        return
    key = os.path.realpath(out)
    if key in _held:
        return
    lock = lock_path(Path(key))
    try:
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise UsageError(f"cannot write {out}: {error.strerror or error} ({lock})") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        raise UsageError(
            f"{out}: another batch run is writing it; wait for that run to end, or give another results file"
        ) from None
    if not _held:
        import atexit

        atexit.register(_let_go_of_all)  # a run that found nothing to do holds the file till its end
    _held[key] = (descriptor, lock)


def _let_go_of_all() -> None:
    for key in list(_held):
        let_go(Path(key))


def let_go(out: Path) -> None:
    """End this process's hold on `out` (nothing if it holds none)."""
    held = _held.pop(os.path.realpath(out), None)
    if held is None:
        return
    descriptor, lock = held
    try:
        lock.unlink()
    except OSError:
        pass
    os.close(descriptor)
