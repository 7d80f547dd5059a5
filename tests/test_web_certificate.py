"""The web API's certificate: made in memory, packed within the request's time (a review found a
scratch folder left in /tmp by every worker killed mid-proof, and a 12 MB proof packed a second
past the request's time limit)."""

from __future__ import annotations

import io
import os
import stat
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from nonosat.deadline import Deadline
from nonosat.errors import TimeUp
from nonosat.web.file_jobs import PACKING_MOST, PACKING_SHARE, certificate
from nonosat.web.jobs import Job

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
FOREVER = PUZZLES / "webpbn-06574-forever.non"


def job_for(path: Path) -> Job:
    return Job("certificate", path.read_bytes(), path.name, None, 30.0, 200, {"encoding": "blocks"})


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a worker killed mid-proof is a forked process")
def test_a_worker_killed_while_proving_leaves_nothing_on_disk(tmp_path: Path) -> None:
    """The pool kills a worker whose client left (SIGKILL: no cleanup runs); here the worker
    ends the same way, by os._exit, as its proof begins."""
    pid = os.fork()
    if pid == 0:  # the worker
        try:
            import nonosat.certificate

            tempfile.tempdir = str(tmp_path)

            def killed(*args: Any, **kwargs: Any) -> list[str]:
                os._exit(9)

            nonosat.certificate.refutation = killed
            certificate(job_for(FOREVER), Deadline.after(30))
        finally:
            os._exit(1)  # the proof was never begun: the test fails below
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9
    assert list(tmp_path.iterdir()) == []


def test_the_proof_leaves_time_to_pack_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import nonosat.certificate

    given: list[tuple[Deadline, float | None]] = []
    made = nonosat.certificate.certificate_files

    def spy(*args: Any, deadline: Deadline, **kwargs: Any) -> dict[str, str]:
        given.append((deadline, outer.remaining()))
        return made(*args, deadline=deadline, **kwargs)

    monkeypatch.setattr(nonosat.certificate, "certificate_files", spy)
    for seconds in (30.0, 4.0):
        outer = Deadline.after(seconds)
        reply = certificate(job_for(FOREVER), outer)
        assert reply.status == 200
        for entry in zipfile.ZipFile(io.BytesIO(reply.body)).infolist():  # files, rw-r--r-- (a review: no type)
            assert entry.external_attr >> 16 == stat.S_IFREG | 0o644, entry.filename
        proving, left = given[-1]
        assert outer.at is not None and proving.at is not None and left is not None
        kept = outer.at - proving.at
        assert kept == pytest.approx(min(PACKING_MOST, PACKING_SHARE * left), abs=0.01)
        assert kept > 0


def test_packing_past_the_time_limit_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    import nonosat.certificate

    made = nonosat.certificate.certificate_files
    outer = Deadline.after(5)

    def slow(*args: Any, **kwargs: Any) -> dict[str, str]:
        files = made(*args, **kwargs)
        outer.at = time.monotonic() - 0.01  # a proof that ends with no time left to pack it
        return files

    monkeypatch.setattr(nonosat.certificate, "certificate_files", slow)
    with pytest.raises(TimeUp, match="packing the certificate"):
        certificate(job_for(FOREVER), outer)
