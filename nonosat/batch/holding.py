"""One batch run at a time on a results file: two runs appending to the same file at once wrote
every record twice. A run holds the file through a lock on a small file beside it (`.NAME.lock`,
an advisory `flock`, which the system lets go when the process ends however it ends; the file is
removed when the run ends, or is interrupted; a killed run leaves it, empty and harmless). The
results file itself, if there is one, is held too, so that a second name for it (a hard link) is
refused as well: two runs wrote every record twice through two links to one file (a review).
Where `fcntl` is missing (Windows) nothing is held.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from nonosat.errors import UsageError

_held: dict[str, tuple[int, Path, int | None]] = {}
"""The results files this process holds: their real path -> (the lock's descriptor, its path,
the descriptor holding the results file itself, if it was there)."""


def lock_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.lock")


def hold(out: Path) -> None:
    """Hold `out` for this process's run, or raise UsageError if another process holds it. Where
    no lock can be made (a folder this process may not write in, a file system without locks),
    the run goes on without one, as it did before there were locks."""
    try:
        import fcntl
    except ImportError:  # Windows
        return
    key = os.path.realpath(out)
    if key in _held:
        return
    lock = lock_path(Path(key))
    for _ in range(5):  # a lock file removed by the run that held it, between our open and flock: again
        try:
            descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise UsageError(f"{out}: {WRITING.format(how='')}") from None
            return  # no locks on this file system (NFS without a lock manager, some FUSE)
        try:
            same = os.path.samestat(os.fstat(descriptor), os.stat(lock))
        except OSError:
            same = False
        if same:
            break
        os.close(descriptor)
    else:
        return
    try:
        itself = _hold_the_file(key)
    except UsageError:
        _let_go_of(descriptor, lock)
        raise UsageError(f"{out}: {WRITING.format(how=' under another name (a link to it)')}") from None
    if not _held:
        import atexit

        from nonosat import interrupts

        atexit.register(_let_go_of_all)  # a run that found nothing to do holds the file till its end
        interrupts.at_end(_let_go_of_all)  # and an interrupted one, which ends without atexit
    _held[key] = (descriptor, lock, itself)


WRITING = "another batch run is writing it{how}; wait for that run to end, or give another results file"
"""Why a run is refused: another holds the results file (`how`: through which name, or empty)."""


def _hold_the_file(path: str) -> int | None:
    """A descriptor holding the results file itself (a regular file), or None where there is
    none yet (no other name can reach it then) or it cannot be held; UsageError if another
    process holds it."""
    import fcntl

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (non-blocking: a FIFO would wait for a writer)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            return None
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(descriptor)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise UsageError(WRITING.format(how="")) from None
        return None
    return descriptor


def hold_as_it_is(out: Path) -> None:
    """Hold the results file itself again, as it is now (a run that made it, or rewrote it by a
    rename, held no file or one no longer there: the mends' review let a link to the new one in);
    UsageError if another process holds it. Nothing where this process does not hold `out`."""
    key = os.path.realpath(out)
    held = _held.get(key)
    if held is None:
        return
    descriptor, lock, itself = held
    if itself is not None:
        os.close(itself)  # (a second flock of this process's on the same file would conflict)
    try:
        _held[key] = (descriptor, lock, _hold_the_file(key))
    except UsageError:
        _held[key] = (descriptor, lock, None)
        raise UsageError(f"{out}: {WRITING.format(how=' under another name (a link to it)')}") from None


def _let_go_of_all() -> None:
    for key in list(_held):
        let_go(Path(key))


def let_go(out: Path) -> None:
    """End this process's hold on `out` (nothing if it holds none)."""
    held = _held.pop(os.path.realpath(out), None)
    if held is None:
        return
    descriptor, lock, itself = held
    if itself is not None:
        os.close(itself)
    _let_go_of(descriptor, lock)


def _let_go_of(descriptor: int, lock: Path) -> None:
    """Remove the lock file this process holds, and close it."""
    try:
        lock.unlink()
    except OSError:
        pass
    os.close(descriptor)
