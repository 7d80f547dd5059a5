"""The JSON API's limits (issue 18): counts and timeouts cut to the server's most, uploads and
sides over the limit refused, a solve past its time answers unknown, a full queue gets 503, many
requests at once all succeed, and a request's time counts from its arrival."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from web_requests import DANCER, TWO_BY_TWO, hard_puzzle, upload  # noqa: E402

from nonosat.web.app import create_app  # noqa: E402
from nonosat.web.settings import WebSettings  # noqa: E402


def test_a_server_made_from_python_keeps_to_the_limits_serve_keeps_to() -> None:
    """A review found WebSettings(workers=10**6, max_count=10**9) taken, past the README's
    Limits that `serve --workers` and `--max-count` keep to."""
    from nonosat.errors import UsageError
    from nonosat.limits import MAX_COUNT, MAX_JOBS

    with pytest.raises(UsageError, match=f"workers must be at most {MAX_JOBS}"):
        WebSettings(workers=MAX_JOBS + 1)
    with pytest.raises(UsageError, match=f"max_count must be at most {MAX_COUNT}"):
        WebSettings(max_count=MAX_COUNT + 1)
    assert WebSettings(workers=MAX_JOBS, max_count=MAX_COUNT).workers == MAX_JOBS


def test_a_server_is_refused_limits_past_nonosats_own() -> None:
    """A new user's review: `serve --max-side 5000 --max-upload 100000000` was taken, and the
    status then said 5,000 while 1,024 a side and 32 MiB held. Refused at once, from the command
    line and from Python."""
    from typer.testing import CliRunner

    from nonosat.cli import app
    from nonosat.errors import UsageError
    from nonosat.limits import MAX_FILE_BYTES, MAX_SIDE

    with pytest.raises(UsageError, match=f"max_side must be at most {MAX_SIDE}"):
        WebSettings(max_side=MAX_SIDE + 1)
    with pytest.raises(UsageError, match=f"max_upload_bytes must be at most {MAX_FILE_BYTES}"):
        WebSettings(max_upload_bytes=MAX_FILE_BYTES + 1)
    assert WebSettings(max_side=MAX_SIDE, max_upload_bytes=MAX_FILE_BYTES).max_side == MAX_SIDE
    for option, value in (("--max-side", MAX_SIDE + 1), ("--max-upload", MAX_FILE_BYTES + 1)):
        done = CliRunner().invoke(app, ["serve", option, str(value), "--port", "0"])
        assert done.exit_code == 2 and f"Invalid value for '{option}'" in done.output, done.output


def test_count_and_timeout_are_cut_to_the_servers_most() -> None:
    settings = WebSettings(max_count=3, max_timeout=0.5)
    with TestClient(create_app(settings), raise_server_exceptions=False) as small:
        answer = small.post("/api/solve?count=1000&timeout=1000", json=hard_puzzle()).json()
    assert len(answer["solutions"]) <= 3 and not answer["count_is_exact"]


def test_uploads_over_the_limit_get_413(client: TestClient) -> None:
    big = b"#" * 1_200_000
    reply = client.post("/api/check", files={"file": ("big.non", big)})
    assert reply.status_code == 413 and "1000000 bytes" in reply.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(50):
            yield b"x" * 25_000

    streamed = client.post("/api/check", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    wide = {"rows": [[1]] * 2, "cols": [[]] * 81}
    too_wide = client.post("/api/check", json=wide)
    assert too_wide.status_code == 400 and "limit of 80 cells a side" in too_wide.json()["error"]
    assert too_wide.json()["error"].startswith("<input>: ")  # named, as every other upload's error (a review)


@pytest.mark.parametrize(
    "query",
    [
        "count=1_0",
        "count=%2B5",
        "count=%D9%A3",
        "timeout=1_0",
        "timeout=%D9%A3",
        "count=2&count=3",
        "count= 5",
        "timeout=%201",
    ],
)
def test_a_number_is_ascii_digits_and_a_parameter_is_given_once(client: TestClient, query: str) -> None:
    """`count=1_0`, `count=+5`, `count=٣` (an Arabic-Indic three) and `timeout=1_0` were read as
    numbers (Python's int() and float() take them), and `count=2&count=3` as one of the two."""
    reply = client.post(f"/api/solve?{query}", json=TWO_BY_TWO)
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"].startswith(query.split("=")[0] + ":")


def test_a_long_count_is_a_number_cut_to_the_servers_most(client: TestClient) -> None:
    reply = client.post("/api/solve?count=99999999999999999999", json=TWO_BY_TWO)
    assert reply.status_code == 200 and reply.json()["status"] == "multiple"


def test_a_puzzle_past_nonosats_own_limit_names_the_servers_too(client: TestClient) -> None:
    """A 5000x5000 puzzle was refused as "over the limit of 1024 cells a side", where the
    server's own limit is 200: the author was pointed at the wrong limit."""
    big = {"rows": [[1]] * 5000, "columns": [[1]] * 5000}
    reply = client.post("/api/check", json=big)
    error = reply.json()["error"]
    assert reply.status_code == 400 and "1024 cells a side" in error and "this server takes up to 80" in error


@pytest.mark.slow
def test_a_solve_past_its_time_answers_unknown(client: TestClient) -> None:
    record = client.post("/api/solve?count=100000&timeout=1", json=hard_puzzle()).json()
    assert record["status"] == "unknown" or (record["status"] == "multiple" and not record["count_is_exact"])
    status = client.get("/api/status").json()["workers"]
    assert status["running"] == 0 and status["live"] == 0


@pytest.mark.slow
def test_a_full_queue_gets_503_with_retry_after() -> None:
    settings = WebSettings(workers=1, max_queue=1, retry_after=7, max_count=100_000)
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        replies: list[Any] = []

        def slow() -> None:  # 4 s each: the queue stays full long after the loop below sees it so
            replies.append(c.post("/api/solve?count=100000&timeout=4", json=hard_puzzle()))

        threads = [threading.Thread(target=slow) for _ in range(2)]
        for thread in threads:
            thread.start()
        waited = 0
        while c.get("/api/status").json()["workers"]["waiting"] < 1 and waited < 200:
            threading.Event().wait(0.05)
            waited += 1
        busy = c.post("/api/check", json=TWO_BY_TWO)
        for thread in threads:
            thread.join()
    assert busy.status_code == 503 and busy.headers["retry-after"] == "7" and "busy" in busy.json()["error"]
    assert [reply.status_code for reply in replies] == [200, 200]


@pytest.mark.slow
def test_a_request_whose_time_runs_out_waiting_for_a_worker_is_answered_then() -> None:
    """With the one worker busy for 4 s, a check asking 1 s waited for the worker however long
    that took, then answered `{"status": "unknown", "cut_short": "time limit reached while
    reading ..."}`, with no path. It is now answered when its second is up, before the busy
    request's answer, saying why."""
    settings = WebSettings(workers=1, max_queue=4, max_count=100_000)
    answered: list[str] = []
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:

        def busy() -> None:
            c.post("/api/solve?count=100000&timeout=4", json=hard_puzzle())
            answered.append("busy")

        thread = threading.Thread(target=busy)
        thread.start()
        waited = 0
        while c.get("/api/status").json()["workers"]["running"] < 1 and waited < 200:
            threading.Event().wait(0.05)
            waited += 1
        reply = c.post("/api/check?timeout=1", **upload(DANCER))
        answered.append("check")
        thread.join()
    record = reply.json()
    assert reply.status_code == 200 and record["status"] == "unknown", record
    assert record["path"] == DANCER.name and "waiting for a worker" in record["cut_short"]
    assert answered == ["check", "busy"]


@pytest.mark.slow
def test_twenty_concurrent_checks_all_succeed(client: TestClient, corpus: Path) -> None:
    files = sorted((corpus / "webpbn").glob("webpbn-0*.non"))[:20]
    results: list[Any] = [None] * len(files)

    def check(index: int) -> None:
        results[index] = client.post("/api/check?timeout=30", **upload(files[index]))

    threads = [threading.Thread(target=check, args=(i,)) for i in range(len(files))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(reply.status_code == 200 for reply in results), [r.text for r in results if r.status_code != 200]
    from nonosat import check as verdict_of
    from nonosat import load

    answered = [reply.json()["status"] for reply in results]
    assert answered == [verdict_of(load(file)).status.value for file in files]  # the library's own verdicts, each


def test_a_requests_time_counts_from_its_arrival() -> None:
    """The time a request waits for a worker counts: a job read 2 s ago with 1 s to run is cut
    short before any work, and the same job just read is answered."""
    import time

    from nonosat.web.jobs import Job, answer

    late = Job("check", DANCER.read_bytes(), DANCER.name, None, 1.0, 80, received=time.time() - 2)
    assert late.remaining() == 0
    assert json.loads(answer(late).body)["status"] == "unknown"
    fresh = Job("check", DANCER.read_bytes(), DANCER.name, None, 1.0, 80)
    assert 0 < fresh.remaining() <= 1
    assert json.loads(answer(fresh).body)["status"] == "unique"


def test_a_large_pictures_size_is_read_without_pillows_bomb_warning() -> None:
    """A review found `serve`'s log showing Pillow's DecompressionBombWarning for a picture of
    100 million pixels: our own limit, below Pillow's, refuses it with a message of its own."""
    import io
    import warnings

    image_module = pytest.importorskip("PIL.Image")
    from nonosat.web.jobs import picture_size

    data = io.BytesIO()
    image_module.new("1", (10_000, 10_000)).save(data, "PNG")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert picture_size(data.getvalue()) == (10_000, 10_000)
    assert not [warning for warning in caught if "DecompressionBomb" in warning.category.__name__]


def test_the_upload_limit_is_the_files_size_not_its_wrapping(client: TestClient) -> None:
    """A review found a file of 1,048,426 bytes refused 413 by a server whose limit is 1 MiB: the
    limit counted the multipart wrapping. A file of the limit's size passes it (and is then read:
    this one is no puzzle, 400), one byte more is 413, sent with or without a length."""
    limit = 1_000_000
    exact = b"#" * limit
    reply = client.post("/api/check", files={"file": ("big.txt", exact)})
    assert reply.status_code == 400, reply.text  # past the limit's check: read, and refused as no puzzle
    over = client.post("/api/check", files={"file": ("big.txt", exact + b"#")})
    assert over.status_code == 413 and f"{limit} bytes" in over.json()["error"]
    head = b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n'

    def chunks(size: int) -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield head
        for start in range(0, size, 100_000):
            yield b"#" * min(100_000, size - start)
        yield b"\r\n--xyz--\r\n"

    kind = {"content-type": "multipart/form-data; boundary=xyz"}
    assert client.post("/api/check", content=chunks(limit), headers=kind).status_code == 400
    assert client.post("/api/check", content=chunks(limit + 1), headers=kind).status_code == 413


def test_a_puzzle_sent_as_a_field_is_held_to_the_servers_limit_not_starlettes() -> None:
    """A puzzle's text sent as a form field was held to Starlette's 1 MiB a part (400 "Part
    exceeded maximum size"), whatever the server's limit: now to the server's, as a file is (413
    beyond it)."""
    from starlette.testclient import TestClient as Client

    big = "width 1\nheight 1\nrows\n1\ncolumns\n1\n" + "# " + "x" * 1_200_000 + "\n"
    with Client(create_app(WebSettings(max_upload_bytes=2_000_000))) as roomy:
        reply = roomy.post("/api/check", files={"file": (None, big)})
        assert reply.status_code == 200 and reply.json()["status"] == "unique", reply.text[:200]
    with Client(create_app(WebSettings(max_upload_bytes=1_000_000))) as tight:
        over = tight.post("/api/check", files={"file": (None, big)})
        assert over.status_code == 413, over.text[:200]


def test_a_clients_malformed_request_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    """uvicorn answers malformed HTTP with its own 400 and wrote a warning per request to the
    server's stderr (a review: any client could fill the log; a WebSocket upgrade's told how the
    server was installed). Other warnings still reach the log."""
    import logging

    create_app(WebSettings())
    create_app(WebSettings())  # one filter, however many apps
    logger = logging.getLogger("uvicorn.error")
    with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
        logger.warning("Invalid HTTP request received.")
        logger.warning("Unsupported upgrade request.")
        logger.warning("No supported WebSocket library detected. Please use \"pip install 'uvicorn[standard]'\"")
        logger.warning("Something else.")
    assert [record.getMessage() for record in caplog.records] == ["Something else."]
    assert sum(type(kept).__name__ == "_ClientsFaults" for kept in logger.filters) == 1


def test_a_fork_server_that_ends_while_starting_a_worker_is_a_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI once answered a request 500 "internal error (EOFError)" when SIGTERM reached the whole
    group while a worker was being started: the fork server ended mid-start. That is the
    server stopping (503, as for the requests under way), or a worker it could not start."""
    import asyncio

    from nonosat import processes
    from nonosat.web.jobs import Job
    from nonosat.web.pool import STOPPING, Pool

    def fork_server_ended(process: Any) -> None:
        raise EOFError

    monkeypatch.setattr(processes, "start_worker", fork_server_ended)
    pool = Pool(WebSettings())
    job = Job("check", DANCER.read_bytes(), DANCER.name, None, 10.0, 80)

    async def run(stopping: bool) -> Any:
        pool.stopping = stopping
        return await pool._in_worker(job, asyncio.get_running_loop().create_future())

    starting = asyncio.run(run(False))
    assert starting.status == 503
    assert json.loads(starting.body)["error"] == "the server could not start a worker (the fork server ended)"
    stopping = asyncio.run(run(True))
    assert stopping.status == 503 and json.loads(stopping.body)["error"] == STOPPING
