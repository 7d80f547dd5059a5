"""The JSON API's error paths (issue 18): bad requests and bad uploads get 400 and one line (what
the command line says), a client names a file and never a path, static files stay in the
package, and what a review found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from web_requests import DANCER, TWO_BY_TWO, hard_puzzle, has_pillow  # noqa: E402


@pytest.mark.parametrize(
    ("query", "body", "words"),
    [
        (
            "/api/check?timeout=abc",
            TWO_BY_TWO,
            "timeout: expected a positive number of seconds (or inf for none), not 'abc'",
        ),
        (
            "/api/check?timeout=-1",
            TWO_BY_TWO,
            "timeout: expected a positive number of seconds (or inf for none), not -1",
        ),
        ("/api/check?timeout=nan", TWO_BY_TWO, "timeout"),
        ("/api/check?timeout=-" + "1" * 400, TWO_BY_TWO, "not '-11111"),  # as typed, not "-inf" (a review)
        ("/api/solve?count=0", TWO_BY_TWO, "count: expected a whole number from 1"),
        (
            "/api/solve?count=" + "9" * 5000,
            TWO_BY_TWO,
            "count: expected a whole number of at most 4000 digits, not one of 5000",
        ),
        ("/api/check?number=" + "9" * 5000, TWO_BY_TWO, "number: expected a whole number of at most 4000 digits"),
        ("/api/check?colour=red", TWO_BY_TWO, "unknown parameter 'colour'"),
        ("/api/convert", TWO_BY_TWO, "to: name the format"),
        ("/api/convert?to=pdf", TWO_BY_TWO, "to: expected one of"),
        ("/api/render?as=gif", TWO_BY_TWO, "as: expected one of svg, png"),
        ("/api/repair?require=nice", TWO_BY_TWO, "require: expected one of unique, probe, line"),
        ("/api/check", {"rows": [[1]]}, "<input>"),
        ("/api/check", {"rows": [[-1]], "cols": [[1]]}, "<input>"),
        ("/api/check", [1, 2], "expected a JSON object"),
        ("/api/check?number=2", TWO_BY_TWO, "no puzzle #2"),
    ],
)
def test_bad_requests_get_400_and_one_line(client: TestClient, query: str, body: Any, words: str) -> None:
    answer = client.post(query, json=body)
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


@pytest.mark.slow
def test_bad_uploads_say_what_the_command_line_says(client: TestClient, tmp_path: Path) -> None:
    bad = tmp_path / "broken.non"
    bad.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\nx\n")
    said = subprocess.run([sys.executable, "-m", "nonosat", "check", str(bad)], capture_output=True, text=True)
    assert said.returncode == 2
    answer = client.post("/api/check", files={"file": ("broken.non", bad.read_bytes())})
    assert answer.status_code == 400
    assert said.stderr.strip() == f"nonosat: {answer.json()['error']}".replace("broken.non", str(bad))
    for name, data in (("x.png", b"\x89PNG\r\n\x1a\nnot really"), ("empty.non", b""), ("nul.txt", b"a\0b")):
        reply = client.post("/api/check", files={"file": (name, data)})
        assert reply.status_code == 400 and reply.json()["error"].startswith(name), reply.text
    for query, files in (("/api/check", {"other": ("a.non", b"x")}), ("/api/generate", {"file": ("a.non", b"x")})):
        reply = client.post(query, files=files)
        assert reply.status_code == 400 and reply.json()["error"]
    assert client.post("/api/check", content=b"rows", headers={"content-type": "text/plain"}).status_code == 400
    broken = client.post(
        "/api/check", content=b"--xx\r\nnonsense", headers={"content-type": "multipart/form-data; boundary=xx"}
    )
    assert broken.status_code == 400 and broken.json()["error"]


@pytest.mark.slow
def test_a_client_names_a_file_never_a_path(client: TestClient) -> None:
    for name in ("../../etc/passwd", "/etc/passwd", "..\\..\\secret.non", "C:\\x\\dancer.non"):
        reply = client.post("/api/check", files={"file": (name, DANCER.read_bytes())})
        assert reply.status_code == 200 and "/" not in reply.json()["path"] and "\\" not in reply.json()["path"]
    game_id = client.post("/api/check", files={"file": ("5x5:2/1.1/3/1/2/1/3/2.1/1/1", b"")})
    assert game_id.status_code == 400  # a name is never read as a Tatham ID, a path or anything but a name


def test_static_files_stay_in_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    for path in (
        "/static/../pyproject.toml",
        "/static/%2e%2e/pyproject.toml",
        "/static/..%2fapp.py",
        "/static//etc/passwd",
    ):
        reply = client.get(path)
        assert reply.status_code == 404 and "[project]" not in reply.text and "root:" not in reply.text
    assert client.get("/nowhere").json()["error"].startswith("not found")
    assert client.get("/api/check").status_code == 405


@pytest.mark.slow
def test_what_a_review_found(client: TestClient) -> None:
    """A title outside latin-1 named a download (a 500); a picture's grid escaped the side limit
    when one side was left to its aspect; a non-ASCII digit passed for a threshold; the open
    cells of a check cut short were said to be none."""
    titled = {**TWO_BY_TWO, "title": "日本 Ωmega"}
    for query in ("/api/convert?to=non", "/api/render"):
        reply = client.post(query, json=titled)
        assert reply.status_code == 200 and 'filename="' in reply.headers["content-disposition"]
    if has_pillow():
        tall = client.post("/api/picture?width=5", files={"file": ("tall.png", _png(4, 400))})
        assert tall.status_code == 400 and "limit of 80 cells a side" in tall.json()["error"]
    many = client.post("/api/picture?colours=1000", files={"file": ("x.png", b"x")})
    assert many.status_code == 400 and many.json()["error"] == "colours: expected a whole number from 1 to 62, not 1000"
    bad = client.post("/api/picture?threshold=²", files={"file": ("x.png", b"x")})
    assert bad.status_code == 400 and bad.json()["error"].startswith("threshold: expected otsu")
    short = client.post("/api/check?timeout=0.3", json=hard_puzzle()).json()
    assert "line_open" not in short or short["level"] != "unknown"


@pytest.mark.slow
def test_what_a_second_review_found(client: TestClient) -> None:
    """A clue past 2**63 was a 500 from check (line logic's open cells, looked for after the
    cheap checks had refuted the puzzle) and from certificate (an automaton as long as the clue);
    repair dropped the copyright, licence and catalogue number; a picture's side over the limit
    was said to be of a grid 0 cells high."""
    import io
    import zipfile

    for size in (2**63, 10**30):
        long = {"rows": [[size], [1]], "cols": [[1], [1]]}
        checked = client.post("/api/check", json=long)
        assert checked.status_code == 200 and checked.json()["status"] == "none", checked.text
        proof = client.post("/api/certificate", json=long)
        assert proof.status_code == 200, proof.text
        with zipfile.ZipFile(io.BytesIO(proof.content)) as archive:
            assert archive.read("certificate/none.drat").split() == [b"0"]
    ring = [".##.", "#..#", "#..#", ".##."]
    named = {"title": "Ring", "author": "Ann", "copyright": "© 2026 Ann", "license": "CC BY 4.0", "catalogue": "7"}
    drawing = {"rows": [[2], [1, 1], [1, 1], [2]], "cols": [[2], [1, 1], [1, 1], [2]], "goal": ring, **named}
    fixed = client.post("/api/repair?require=line", json=drawing)
    assert fixed.status_code == 200, fixed.text
    assert {key: fixed.json()["puzzle"].get(key) for key in named} == named
    if has_pillow():
        wide = client.post("/api/picture?width=81", files={"file": ("wide.png", _png(400, 300))})
        assert wide.status_code == 400 and "81x61 is over the limit of 80" in wide.json()["error"], wide.text
        unreadable = client.post("/api/picture?height=81", files={"file": ("x.png", b"not a picture")})
        assert unreadable.status_code == 400 and "81 cells high is over the limit" in unreadable.json()["error"]


def _png(width: int, height: int) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (width, height), 0).save(buffer, "PNG")
    return buffer.getvalue()


def test_a_timeout_of_many_digits_is_cut_as_a_long_one_is(client: TestClient) -> None:
    """A review: 1e20 was cut to the server's longest, 100000000000000000000 refused as no number."""
    for digits in ("100000000000000000000", "1" * 4000 + ".5"):
        answer = client.post(f"/api/check?timeout={digits}", json=TWO_BY_TWO)
        assert answer.status_code == 200 and answer.json()["status"] == "multiple", answer.text


def test_a_form_field_that_is_not_read_is_refused_not_ignored(client: TestClient) -> None:
    """A review found `curl -F file=@big.non -F timeout=1 /api/explain` answering after 1.8 s
    with every step: the form field `timeout` was ignored without a word (options are read from
    the query string). A field the endpoint does not read is refused, saying where options go."""
    puzzle = DANCER.read_bytes()
    reply = client.post("/api/explain", files={"file": ("dancer.non", puzzle)}, data={"timeout": "1"})
    assert reply.status_code == 400
    assert reply.json()["error"] == (
        "the form field 'timeout' is not read: the upload goes in file, and options in the query string "
        "(/api/explain?timeout=...)"
    )
    hint = client.post("/api/hint", files={"file": ("dancer.non", puzzle)}, data={"state": "?????\n" * 10})
    assert hint.status_code == 200, hint.text
    assert client.post("/api/explain?timeout=1", files={"file": ("dancer.non", puzzle)}).status_code == 200


def test_a_form_field_sent_twice_is_refused_not_one_of_them_dropped(client: TestClient) -> None:
    """A review found `-F file=@cat.non -F 'file=<dancer.non'` answered with Dancer's verdict, Cat
    dropped without a word (two file uploads were refused, a file and a text field were not),
    and a hint given two files answering with the second's steps."""
    cat, dancer = (DANCER.parent / "webpbn-00006-cat.non").read_bytes(), DANCER.read_bytes()
    both = client.post("/api/check", files={"file": ("cat.non", cat)}, data={"file": dancer.decode()})
    assert both.status_code == 400 and both.json()["error"] == "the form field 'file' came 2 times: send one"
    hint = client.post(
        "/api/hint",
        files=[("file", ("dancer.non", dancer)), ("file", ("cat.non", cat))],
        data={"state": "?????\n" * 10},
    )
    assert hint.status_code == 400 and hint.json()["error"] == "the form field 'file' came 2 times: send one"
    states = client.post("/api/hint", files={"file": ("dancer.non", dancer)}, data={"state": ["?????\n" * 10] * 2})
    assert states.status_code == 400 and "'state' came 2 times" in states.json()["error"]
    files = client.post("/api/check", files=[("file", ("dancer.non", dancer)), ("file", ("cat.non", cat))])
    said = files.json()["error"]  # a review: "...multipart/form-data: 400: Too many files. ..."
    assert files.status_code == 400 and said.endswith(": Too many files. Maximum number of files is 1."), said
    assert "400" not in said


def test_a_media_type_is_read_whole_not_by_its_start(client: TestClient) -> None:
    """A review found `application/jsonx` read as JSON. Its parameters aside, a media type is
    taken as it is, in any case."""
    body = b'{"rows": [[1], [1]], "cols": [[1], [1]]}'
    odd = client.post("/api/check", content=body, headers={"Content-Type": "application/jsonx"})
    assert odd.status_code == 400 and "as multipart/form-data" in odd.json()["error"], odd.text
    for kind in ("application/json", "Application/JSON; charset=utf-8"):
        reply = client.post("/api/check", content=body, headers={"Content-Type": kind})
        assert reply.status_code == 200 and reply.json()["status"] == "multiple", (kind, reply.text)


def test_a_file_of_several_puzzles_is_told_of_the_number_parameter(client: TestClient) -> None:
    """The advice for a file of several puzzles said FILE#N, which an upload cannot follow: a name
    ending in #2 was "unknown format ... nor this content". Both now say ?number."""
    data = b"".join(b"$%d\n1\n0\n1\n0\n" % n for n in (1, 2))
    whole = client.post("/api/check", files={"file": ("pair.txt", data)})
    assert whole.status_code == 400 and "select one with the query parameter number, e.g. ?number=1" in whole.text
    named = client.post("/api/check", files={"file": ("pair.txt#2", data)})
    assert named.status_code == 400 and "name the file 'pair.txt' and give ?number=2" in named.text, named.text
    assert named.json()["error"].startswith("the upload's file name 'pair.txt#2' picks puzzle 2")
    listed = client.post("/api/contents", files={"file": ("pair.txt#2", data)})  # contents takes no number
    assert listed.status_code == 400 and "(every puzzle of the file is read)" in listed.text, listed.text
    picked = client.post("/api/check?number=2", files={"file": ("pair.txt", data)})
    assert picked.status_code == 200 and picked.json()["path"] == "pair.txt#2", picked.text


def test_a_stopping_pool_ends_an_upload_but_not_another_cancellation() -> None:
    """A review found `Pool.read` leaving its upload's coroutine unrun when the server had
    begun to stop ("coroutine was never awaited" on the server's terminal), and turning the
    request's own time limit, run out as the server stopped, into a stopping 503."""
    import asyncio
    import gc
    import sys
    import warnings

    from nonosat.web.pool import Pool, Stopping
    from nonosat.web.settings import WebSettings

    async def upload(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "read"

    async def scenes() -> list[str]:
        pool = Pool(WebSettings())
        said = [await pool.read(upload(0))]
        pending = asyncio.ensure_future(pool.read(upload(60)))
        await asyncio.sleep(0.01)
        pool.stop()
        try:
            await pending
        except Stopping:
            said.append("stopping")
        try:
            await pool.read(upload(0))
        except Stopping:
            said.append("stopping at once")
        late = Pool(WebSettings())
        reading = asyncio.ensure_future(asyncio.wait_for(late.read(upload(60)), 0.05))
        await asyncio.sleep(0.04)
        late.stopping = True  # the time limit comes as the server begins to stop, before its stop() runs
        try:
            await reading
        except asyncio.TimeoutError:
            said.append("time")
        except Stopping:
            said.append("stopping instead of time")
        return said

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        said = asyncio.run(scenes())
        gc.collect()
    assert said == ["read", "stopping", "stopping at once", "time" if sys.version_info >= (3, 11) else said[-1]]
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
