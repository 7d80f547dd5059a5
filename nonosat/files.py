"""Writing files safely: never half-written, never overwritten unless asked."""

from __future__ import annotations

import os
from pathlib import Path

from nonosat.errors import UsageError


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
    """Raise UsageError if `path` is a folder, or an existing file and `force` is not given."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{target} is a folder, not a file")
    if target.exists() and not force:
        raise UsageError(f"{target} already exists; use --force to overwrite it")


def _write_atomic(target: Path, content: str | bytes, force: bool) -> None:
    ensure_writable(target, force=force)
    temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
    try:
        write_new_file(temporary, content)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from error


def write_new_file(path: Path, content: str | bytes) -> None:
    """Create `path` (which must not exist) with the usual permissions, and flush it to disk.

    Text is written as UTF-8, exactly as given (no newline translation).
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(descriptor, "wb") as file:
        file.write(content.encode("utf-8") if isinstance(content, str) else content)
        file.flush()
        os.fsync(file.fileno())
