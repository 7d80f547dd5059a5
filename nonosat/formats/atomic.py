"""Writing files safely: never half-written, never overwritten unless asked, no litter.

A file is written to a hidden temporary file beside it, `.NAME.PID.RANDOM.tmp`, flushed to disk,
then renamed over the target. A writer killed half-way leaves that temporary file behind; the
next write of the same target removes it, once the process that made it has ended. A symbolic
link is followed (the file it points to is written, the link stays), and only regular files are
written: a device, a pipe or a socket is refused even with `force` (the rename would replace
/dev/null itself).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from nonosat.errors import UsageError, cannot_write


def write_text_atomic(path: str | Path, text: str, *, force: bool = False) -> None:
    """Write UTF-8 text to `path` through a temporary file in the same folder, then rename it.

    Readers see either the old file or the complete new one. An existing file is replaced only
    with `force`; otherwise this raises UsageError.
    """
    _write_atomic(Path(path), text, force)


def write_bytes_atomic(path: str | Path, data: bytes, *, force: bool = False) -> None:
    """Write bytes to `path` the way `write_text_atomic` writes text."""
    _write_atomic(Path(path), data, force)


def ensure_writable(path: str | Path, *, force: bool = False) -> None:
    """Raise UsageError if `path` is a folder, a device, a pipe or a socket (through a link too),
    an existing file and `force` is not given, or in a folder that is not there (a review found
    `generate --preview nodir/x.png` refused only after the whole repair, the puzzle lost)."""
    from nonosat.arguments import check_flag

    check_flag(force, "force")
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{target} is a folder, not a file")
    if target.parent.exists() and not target.parent.is_dir():  # `-o a-file/x.non`
        raise UsageError(f"cannot write {target}: {target.parent} is a file, not a folder")
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {target}: the folder {target.parent} is not there")
    folder = Path(os.path.realpath(target)).parent if target.is_symlink() else target.parent  # where it is written
    if not folder.is_dir():  # a link into a folder that is not there (a review: it was called read-only)
        raise UsageError(f"cannot write {target}: the folder {folder} is not there")
    if not os.access(folder, os.W_OK | os.X_OK):  # a review: `generate -o ro/x.non` lost the puzzle
        raise UsageError(f"cannot write {target}: the folder {folder} is read-only")
    if target.exists() and not target.is_file():
        raise UsageError(f"{target} is not a regular file (a device, pipe or socket): nonosat writes only files")
    if target.exists() and not force:
        raise UsageError(f"{target} already exists; use {{force}} to overwrite it", force="force=True")


OLD_TEMPORARY_AGE = 3600.0
"""Seconds after which a temporary file of the older naming (no process id) counts as stale, and
any one where a writer's process cannot be looked at (LOOKS_AT_PROCESSES)."""

LOOKS_AT_PROCESSES = os.name == "posix"
"""Whether `os.kill(pid, 0)` asks if a process runs. On Windows it would end the process."""


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove the temporary files that writes of `target` left behind when they were killed:
    those whose writer has ended (or, named before process ids were, an hour old)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(?:(\d+)\.)?[0-9a-f]{{8}}\.tmp")
    removed: list[Path] = []
    try:
        neighbours = list(os.scandir(target.parent if str(target.parent) else "."))
    except OSError:
        return removed
    for entry in neighbours:
        match = pattern.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        try:
            if match.group(1) is not None and LOOKS_AT_PROCESSES:
                stale = not _running(int(match.group(1)))
            else:
                stale = time.time() - entry.stat().st_mtime > OLD_TEMPORARY_AGE
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _running(pid: int) -> bool:
    """Whether process `pid` runs (POSIX only: see LOOKS_AT_PROCESSES)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _write_atomic(target: Path, content: str | bytes, force: bool) -> None:
    ensure_writable(target, force=force)
    if target.is_symlink():  # the file it points to, beside which the temporary file goes
        target = Path(os.path.realpath(target))
    remove_stale_temporaries(target)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        write_new_file(temporary, content, _permissions(target))
        os.replace(temporary, target)
    except BaseException as error:  # Ctrl-C too: no temporary file is left behind
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise cannot_write(target, error) from error
        raise


def _permissions(target: Path) -> int | None:
    """The read, write and execute bits of the file a write replaces (None for a new file, and on
    Windows, whose read-only bit would make the temporary file impossible to rename or remove): a
    file only its owner could read (0600) stayed so through `--force` only if the new one is made
    so. Set-user-id and the like are not carried over to new content."""
    if os.name == "nt":
        return None
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        return None


def write_new_file(path: Path, content: str | bytes, permissions: int | None = None) -> None:
    """Create `path` (which must not exist) with the usual permissions, or `permissions` (those of
    the file it will replace, set before anything is written), and flush it to disk.

    Text is written as UTF-8, exactly as given (no newline translation).
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if permissions is None else 0o600)
    if permissions is not None:
        try:
            os.fchmod(descriptor, permissions)
        except OSError:  # a file system without permission bits: the owner's 0600 stands
            pass
    with os.fdopen(descriptor, "wb") as file:
        file.write(content.encode("utf-8") if isinstance(content, str) else content)
        file.flush()
        os.fsync(file.fileno())
