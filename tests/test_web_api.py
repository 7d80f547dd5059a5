"""The JSON API (issue 18), through Starlette's test client: every endpoint, every error path,
the limits, and the same records as the command line's --format json on corpus files."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from nonosat.web.app import create_app  # noqa: E402
from nonosat.web.settings import WebSettings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"
TWO_BY_TWO = {"rows": [[1], [1]], "cols": [[1], [1]]}
"""Two solutions: the diagonals."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = WebSettings(max_upload_bytes=1_000_000, max_side=80, max_count=100_000)
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        yield c


def upload(path: Path, name: str | None = None) -> dict[str, Any]:
    return {"files": {"file": (name or path.name, path.read_bytes())}}


def cli_record(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *args, "--format", "json"], capture_output=True, text=True, timeout=120
    )
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """What must be equal between the command line and the API: all but where and how long."""
    return {key: value for key, value in record.items() if key not in ("path", "seconds", "line_open")}


def test_check_is_the_command_lines_record(client: TestClient) -> None:
    answer = client.post("/api/check", **upload(DANCER))
    assert answer.status_code == 200
    record = answer.json()
    assert record["path"] == DANCER.name and record["status"] == "unique" and record["level"] == "line"
    assert record["line_open"] == []
    assert comparable(record) == comparable(cli_record("check", str(DANCER)))


@pytest.mark.slow
def test_every_endpoint_answers_a_json_body(client: TestClient) -> None:
    body = client.post("/api/convert?to=json", **upload(DANCER)).json()
    assert body["title"] == "Dancer" and len(body["rows"]) == 10
    solved = client.post("/api/solve?count=3", json=body).json()
    assert solved["status"] == "unique" and solved["count_is_exact"] and len(solved["solutions"]) == 1
    rated = client.post("/api/rate", json=body).json()
    assert rated["level"] in ("line", "probe", "search")
    explained = client.post("/api/explain", json=body).json()
    assert explained["steps"] and explained["open_cells"] == 0
    first = explained["steps"][0]
    assert {"line", "after", "fixed", "reason"} <= set(first)


def test_count_and_timeout_are_cut_to_the_servers_most() -> None:
    settings = WebSettings(max_count=3, max_timeout=0.5)
    with TestClient(create_app(settings), raise_server_exceptions=False) as small:
        answer = small.post("/api/solve?count=1000&timeout=1000", json=hard_puzzle()).json()
    assert len(answer["solutions"]) <= 3 and not answer["count_is_exact"]


def test_multiple_solutions_name_the_differing_cells_and_open_cells(client: TestClient) -> None:
    record = client.post("/api/check", json=TWO_BY_TWO).json()
    assert record["status"] == "multiple" and record["level"] == "ambiguous"
    assert sorted(record["differences"]) == [[1, 1], [1, 2], [2, 1], [2, 2]]
    assert sorted(record["line_open"]) == [[1, 1], [1, 2], [2, 1], [2, 2]]
    first, second = record["solutions"]
    assert first != second and sorted([first, second]) == [["#.", ".#"], [".#", "#."]]


@pytest.mark.slow
def test_no_solution_names_the_lines_at_fault(client: TestClient) -> None:
    refuted = client.post("/api/check", json={"rows": [[2], [2]], "cols": [[1], [1]]}).json()
    assert refuted["status"] == "none" and refuted["method"] == "checks"
    assert refuted["diagnosis"]["lines"]
    # possible by the totals, impossible by search: rows 1 1 / 1 1 over columns 2 / 0
    found = client.post("/api/check", json={"rows": [[1], [1]], "cols": [[2], []]}).json()
    assert found["status"] == "unique"
    cross = {"rows": [[1], [1, 1], [1]], "cols": [[1, 1], [1], [1]]}
    record = client.post("/api/check", json=cross).json()
    assert record["status"] == "none"
    assert record["diagnosis"]["lines"] and all(
        line.startswith(("row ", "column ")) for line in record["diagnosis"]["lines"]
    )


@pytest.mark.slow
def test_hint_from_a_partial_grid(client: TestClient) -> None:
    text = DANCER.read_text()
    state = "\n".join(["?????"] * 10)
    found = client.post("/api/hint", files={"file": ("dancer.non", text)}, data={"state": state}).json()
    assert found["steps"] and found["steps"][0]["fixed"] and found["wrong"] is None
    wrong = ["#####"] + ["?????"] * 9  # row 1 of the dancer is .##..
    body = {"puzzle": {"rows": [[2]] + [[1]] * 0, "cols": []}, "state": wrong}
    bad_body = client.post("/api/hint", json=body)
    assert bad_body.status_code == 400 and "error" in bad_body.json()
    told = client.post("/api/hint", files={"file": ("dancer.non", text)}, data={"state": "\n".join(wrong)}).json()
    assert told["wrong"] is not None and told["wrong"]["cell"][0] == 1
    missing = client.post("/api/hint", files={"file": ("dancer.non", text)})
    assert missing.status_code == 400 and "state" in missing.json()["error"]


@pytest.mark.slow
def test_picture_generate_repair_and_suggest(client: TestClient) -> None:
    pytest.importorskip("PIL")
    picture = PUZZLES / "smiley-picture.png"
    preview = client.post("/api/picture?width=20", **upload(picture)).json()
    goal = preview["puzzle"]["goal"]
    assert len(goal) == 20 and len(goal[0]) == 20 and preview["threshold"] is not None
    made = client.post("/api/generate?width=20&require=line", **upload(picture)).json()
    assert made["status"] == "unique" and made["method"] == "line"
    assert made["start"] == [row.replace("0", ".").replace("1", "#") for row in goal]
    # the drawing (the goal) of two diagonal cells is ambiguous; repair makes it unique
    drawing = {**TWO_BY_TWO, "goal": ["10", "01"]}
    fixed = client.post("/api/repair?require=line", json=drawing).json()
    assert fixed["status"] == "unique" and fixed["changed"]
    assert client.post("/api/check", json=fixed["puzzle"]).json()["status"] == "unique"
    suggested = client.post("/api/suggest?count=2", json=drawing).json()
    assert suggested["open"] == 4 and len(suggested["edits"]) == 2 and suggested["edits"][0]["open"] == 0
    no_goal = client.post("/api/suggest", json=TWO_BY_TWO)
    assert no_goal.status_code == 400 and "goal" in no_goal.json()["error"]


@pytest.mark.slow
def test_convert_and_render_are_downloads(client: TestClient) -> None:
    xml = client.post("/api/convert?to=xml", **upload(DANCER))
    assert xml.status_code == 200 and 'filename="Dancer.xml"' in xml.headers["content-disposition"]
    back = client.post("/api/check", files={"file": ("dancer.xml", xml.content)}).json()
    assert back["status"] == "unique"
    untitled = client.post("/api/convert?to=non", json=TWO_BY_TWO)
    assert 'filename="puzzle.non"' in untitled.headers["content-disposition"]
    dropped = client.post("/api/convert?to=nin", **upload(DANCER))
    assert dropped.status_code == 200 and "title" in dropped.headers["x-nonosat-dropped"]
    svg = client.post("/api/render?solution=1", **upload(DANCER))
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    if sys.modules.get("PIL") is not None or _has_pillow():
        png = client.post("/api/render?as=png", **upload(DANCER))
        assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
    none = client.post("/api/render?solution=1", json={"rows": [[2], [2]], "cols": [[1], [1]]})
    assert none.status_code == 422 and "nothing to draw" in none.json()["error"]


def test_render_takes_the_number_of_a_puzzle_in_a_set(client: TestClient) -> None:
    """The README lists `number` for /api/render as for every endpoint that reads a puzzle."""
    from nonosat.formats import load
    from nonosat.formats.webpbn import dump_xml_all
    from nonosat.model import Puzzle

    two = dump_xml_all([load(DANCER), Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), title="Tiny")])
    upload_set = {"files": {"file": ("set.xml", two.encode())}}
    first = client.post("/api/render?number=1", **upload_set)
    second = client.post("/api/render?number=2", **upload_set)
    assert first.status_code == second.status_code == 200
    assert 'filename="Dancer.svg"' in first.headers["content-disposition"]
    assert 'filename="Tiny.svg"' in second.headers["content-disposition"]
    assert first.content != second.content
    beyond = client.post("/api/render?number=3", **upload_set)
    assert beyond.status_code == 400 and "no puzzle #3" in beyond.json()["error"]


def _has_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


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
        ("/api/solve?count=0", TWO_BY_TWO, "count: expected a whole number from 1"),
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


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    from nonosat.web.options import ENDPOINTS

    described = client.get("/openapi.json").json()
    assert described["openapi"].startswith("3.")
    for name, spec in ENDPOINTS.items():
        operation = described["paths"][f"/api/{name}"]["post"]
        assert [p["name"] for p in operation["parameters"]] == [p.name for p in spec.parameters]
    formats = client.get("/api/formats").json()
    assert {"non", "xml", "json"} <= {form["name"] for form in formats["write"]}


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


def hard_puzzle() -> dict[str, Any]:
    """A random 40x40 grid's clues: line logic leaves most of it open, and counting its solutions
    takes far longer than the tests' time limits."""
    import random

    rng = random.Random(1)
    grid = [[rng.random() < 0.5 for _ in range(40)] for _ in range(40)]

    def clue(cells: list[bool]) -> list[int]:
        runs, run = [], 0
        for cell in [*cells, False]:
            if cell:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        return runs

    return {"rows": [clue(row) for row in grid], "cols": [clue(list(col)) for col in zip(*grid, strict=True)]}


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

        def slow() -> None:
            replies.append(c.post("/api/solve?count=100000&timeout=1.5", json=hard_puzzle()))

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
    assert all(reply.json()["status"] in ("unique", "multiple") for reply in results)


CORPUS_FORMATS = [
    "webpbn/webpbn-00001-dancer.non",
    "nonogram-db/gnonograms/blender.non",
    "nonogram-db/qnonograms/examples/candle.non",
    "jwilk/data000.nin",
    "minizinc/dom_06.dzn",
    "pynogram/hello.txt",
    "tcga/question/taai2011.txt#7",
    "colour/number-loom/puzzles/take_two.xml",
    "colour/number-loom/examples/png/pill_bottles.png",
    "colour/number-loom/examples/char-grid/unicode_colors.txt",
    "colour/ianprime0509-nonograms/puzzles/easy.pbn#2",
    "colour/olsak-grid/viceres.g",
    "colour/nonny/data/puzzles/color/tree.non",
    "colour/nonogrid/examples/UK.toml",
    "colour/colored-nonogram-solver/nonograms/1.cnon",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", CORPUS_FORMATS)
def test_every_corpus_format_as_the_command_line(client: TestClient, corpus: Path, name: str) -> None:
    file, _, number = name.partition("#")
    path = corpus / file
    if path.suffix == ".png":
        pytest.importorskip("PIL")
    query = f"/api/check?number={number}" if number else "/api/check"
    reply = client.post(query, **upload(path))
    assert reply.status_code == 200, reply.text
    assert comparable(reply.json()) == comparable(cli_record("check", str(path) + (f"#{number}" if number else "")))


@pytest.mark.slow
def test_what_a_review_found(client: TestClient) -> None:
    """A title outside latin-1 named a download (a 500); a picture's grid escaped the side limit
    when one side was left to its aspect; a non-ASCII digit passed for a threshold; the open
    cells of a check cut short were said to be none."""
    titled = {**TWO_BY_TWO, "title": "日本 Ωmega"}
    for query in ("/api/convert?to=non", "/api/render"):
        reply = client.post(query, json=titled)
        assert reply.status_code == 200 and 'filename="' in reply.headers["content-disposition"]
    if _has_pillow():
        tall = client.post("/api/picture?width=5", files={"file": ("tall.png", _png(4, 400))})
        assert tall.status_code == 400 and "limit of 80 cells a side" in tall.json()["error"]
    bad = client.post("/api/picture?threshold=²", files={"file": ("x.png", b"x")})
    assert bad.status_code == 400 and bad.json()["error"].startswith("threshold: expected otsu")
    short = client.post("/api/check?timeout=0.3", json=hard_puzzle()).json()
    assert "line_open" not in short or short["level"] != "unknown"


def _png(width: int, height: int) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (width, height), 0).save(buffer, "PNG")
    return buffer.getvalue()


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
