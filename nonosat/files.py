"""Writing files safely: never half-written, never overwritten unless asked."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from nonosat.errors import UsageError


def write_text_atomic(path: str | Path, text: str, *, force: bool = False) -> None:
    """Write UTF-8 text to `path` through a temporary file in the same folder, then rename it.

    Readers see either the old file or the complete new one. An existing file is replaced only
    with `force`; otherwise this raises UsageError.
    """
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{target} is a folder, not a file")
    if target.exists() and not force:
        raise UsageError(f"{target} already exists; use --force to overwrite it")
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        write_new_file(temporary, text)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from error


def write_new_file(path: Path, text: str) -> None:
    """Create `path` (which must not exist) with the usual permissions, and flush it to disk."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
