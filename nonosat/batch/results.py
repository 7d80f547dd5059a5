"""The results file of a batch run: JSON Lines, one record per puzzle, append-only and resumable.

Each record is written and flushed as soon as its puzzle is done, so a run stopped by Ctrl-C or
killed leaves a valid file: at most a half-written last line, which the next run cuts off. A
file that is not a regular file (a folder, a device such as /dev/full, a pipe) is refused before
anything is read from it, and so is a line longer than any record could be.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from nonosat.batch.holding import hold, hold_as_it_is, let_go
from nonosat.errors import UsageError, cannot_write
from nonosat.formats.atomic import write_text_atomic
from nonosat.render.records import RECORD_KEYS, Record, solution_sha1

__all__ = [
    "RECORD_KEYS",
    "STATUSES",
    "Record",
    "Writer",
    "check_results_path",
    "dumps",
    "read_results",
    "resume_results",
    "rewrite_results",
    "solution_sha1",
]

STATUSES = ("unique", "multiple", "solved", "none", "unknown", "error")
"""The statuses of a batch record (see nonosat.render.records.batch_record): `solved` where one
grid was asked for (`count` 1; a review found it refused by `--retry` and `--fail-on`)."""

MAX_RECORD_BYTES = 1 << 20
"""The longest line a results file may hold: a record is a few hundred bytes."""

RECORD_START = b'{"path": '
"""How every record begins: a half-written last line is cut off only if it begins so, or
follows records (a file of something else is never cut)."""


def check_results_path(out: Path) -> None:
    """Refuse a results file that cannot be appended to: one that is not a regular file, or one
    whose folder does not exist."""
    if out.exists() and not out.is_file():
        raise UsageError(f"{out}: not a regular file; the results go to a file, appended to and resumed")
    if out.is_symlink() and not out.exists():
        raise UsageError(f"{out}: a link to {os.readlink(out)}, which does not exist")
    parent = out.parent if str(out.parent) else Path(".")
    if parent.exists() and not parent.is_dir():
        raise UsageError(f"{out}: {parent} is a file, not a folder")
    if not parent.is_dir():
        raise UsageError(f"{out}: the folder {parent} does not exist")
    if not os.access(out if out.exists() else parent, os.W_OK):  # (a read-only mount, root or not)
        raise UsageError(f"{out}: cannot be written ({'the file' if out.exists() else 'its folder'} is read-only)")


def read_results(out: Path) -> list[Record]:
    """The complete records of a results file; the file is left as it is (a half-written last
    line, from a killed run, is passed over). See `resume_results` to cut that line off."""
    return _scan(out)[0]


def resume_results(out: Path) -> list[Record]:
    """The complete records of a results file, for a run that appends to it: a half-written last
    line (a killed run) is cut off the file, when it follows records or begins as one."""
    records, kept = _scan(out)
    if out.exists() and kept < out.stat().st_size:
        with open(out, "r+b") as handle:
            handle.truncate(kept)
    return records


def _scan(out: Path) -> tuple[list[Record], int]:
    """The records, and how many bytes of the file hold them (and blank lines). Any unreadable
    line but a half-written last one is an error, since it is not ours to drop."""
    check_results_path(out)
    if not out.exists():
        return [], 0
    records: list[Record] = []
    kept = 0
    with open(out, "rb") as handle:
        number = 0
        while True:
            line = handle.readline(MAX_RECORD_BYTES + 1)
            if not line:
                break
            number += 1
            if len(line) > MAX_RECORD_BYTES:
                raise UsageError(
                    f"{out}, line {number}: not a nonosat batch record (a line of over {MAX_RECORD_BYTES} bytes)"
                )
            complete = line.endswith(b"\n")
            if not line.strip():
                kept += len(line)
                continue
            record = _record(line)
            if record is None:
                if not complete and (records or line.startswith(RECORD_START)):
                    break  # the last line, without its newline: a record cut short by a kill
                raise UsageError(f"{out}, line {number}: not a nonosat batch record; choose another results file")
            records.append(record)
            kept += len(line)
    return records, kept


def _record(line: bytes) -> Record | None:
    """A line's record, or None when it is not one: a JSON object with the path, status and
    seconds every record has (a record half edited by hand, or another tool's, is refused here
    rather than failing the run's summary)."""
    try:
        record = json.loads(line.decode("utf-8-sig"))  # a byte order mark (Notepad) too; no sniffing
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    seconds = record.get("seconds")
    whole = isinstance(record.get("path"), str) and isinstance(record.get("status"), str)
    return record if whole and isinstance(seconds, int | float) and not isinstance(seconds, bool) else None


def rewrite_results(out: Path, records: Iterable[Record]) -> None:
    """Replace the results file, atomically, with these records (to drop the ones to redo)."""
    text = "".join(dumps(record) + "\n" for record in records)
    write_text_atomic(out, text, force=True)


def dumps(record: Record) -> str:
    """One record as a line of JSON."""
    return json.dumps(record, separators=(", ", ": "))


class Writer:
    """Appends records to the results file, one flushed line each."""

    def __init__(self, out: Path) -> None:
        check_results_path(out)
        hold(out)  # held already when `pending` read it: one run at a time on a file
        self.made = not out.exists()
        """Whether this run made the file: one it never wrote a record in goes again at the end (a
        review: a run whose scheduler could not be reached left an empty results file)."""
        if out.exists() and out.stat().st_size:
            with open(out, "rb") as handle:
                handle.seek(-1, os.SEEK_END)
                ends_well = handle.read(1) == b"\n"
            if not ends_well:
                with open(out, "ab") as handle:
                    handle.write(b"\n")
        self.out = out
        try:
            self.handle = open(out, "a", encoding="utf-8")
        except OSError as error:
            raise cannot_write(out, error) from None
        self.written = 0
        try:
            hold_as_it_is(out)  # made now, or rewritten since `pending` held it
        except UsageError:
            self.handle.close()
            raise

    def write(self, record: Record) -> None:
        try:
            self.handle.write(dumps(record) + "\n")
            self.handle.flush()
            self.written += 1
            if self.written % 64 == 0:
                os.fsync(self.handle.fileno())
        except OSError as error:
            raise cannot_write(self.out, error) from None

    def close(self) -> None:
        try:
            try:
                self.handle.flush()
                os.fsync(self.handle.fileno())
            finally:
                self.handle.close()
                if self.made and not self.written:
                    self.out.unlink(missing_ok=True)
                let_go(self.out)
        except OSError as error:
            raise cannot_write(self.out, error) from None
