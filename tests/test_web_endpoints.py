"""The JSON API (issue 18), through Starlette's test client: every endpoint answers, with the
same records as the command line's --format json on corpus files, and the OpenAPI description
lists them all."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from web_requests import (  # noqa: E402
    CORPUS_FORMATS,
    DANCER,
    PUZZLES,
    TWO_BY_TWO,
    cli_record,
    comparable,
    has_pillow,
    upload,
)


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
    dancer = client.post("/api/convert?to=json", files={"file": ("dancer.non", text)}).json()
    steps = client.post("/api/hint", json={"puzzle": dancer, "state": ["?????"] * 10, "steps": 3})
    assert steps.status_code == 400 and "not steps" in steps.json()["error"]  # a review: dropped in silence
    assert client.post("/api/hint", json={"puzzle": dancer, "state": ["?????"] * 10}).status_code == 200
    told = client.post("/api/hint", files={"file": ("dancer.non", text)}, data={"state": "\n".join(wrong)}).json()
    assert told["wrong"] is not None and told["wrong"]["cell"][0] == 1
    missing = client.post("/api/hint", files={"file": ("dancer.non", text)})
    assert missing.status_code == 400 and "state" in missing.json()["error"]
    as_file = client.post("/api/hint", files={"file": ("dancer.non", text), "state": ("grid.txt", state)})
    assert as_file.status_code == 200 and as_file.json()["steps"] == found["steps"]  # curl -F state=@grid.txt
    not_text = client.post("/api/hint", files={"file": ("dancer.non", text), "state": ("grid.txt", b"\xff\xfe?")})
    assert not_text.status_code == 400 and "UTF-8" in not_text.json()["error"]


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
    unreadable = client.post("/api/repair", json={**TWO_BY_TWO, "goal": ["#x", ".#"]})  # a review: "has no goal"
    assert unreadable.status_code == 400 and "could not be read: line 1: expected goal[0]" in unreadable.json()["error"]
    # a review: the clues sent were replaced by the goal's without a word ("line logic solves it already")
    assert fixed["goal_fits_clues"] is True and suggested["goal_fits_clues"] is True
    for endpoint in ("/api/repair", "/api/suggest"):
        misfit = client.post(endpoint, json={**TWO_BY_TWO, "goal": ["11", "11"]}).json()
        assert misfit["goal_fits_clues"] is False
    said = client.post("/api/suggest", json={**TWO_BY_TWO, "goal": ["11", "11"]}).json()["text"][0]
    assert "the goal does not fit the clues sent" in said


@pytest.mark.slow
def test_convert_and_render_are_downloads(client: TestClient) -> None:
    xml = client.post("/api/convert?to=xml", **upload(DANCER))
    assert xml.status_code == 200 and 'filename="Dancer.xml"' in xml.headers["content-disposition"]
    assert xml.headers["content-type"] == "application/xml; charset=utf-8"  # was text/plain
    back = client.post("/api/check", files={"file": ("dancer.xml", xml.content)}).json()
    assert back["status"] == "unique"
    untitled = client.post("/api/convert?to=non", json=TWO_BY_TWO)
    assert 'filename="puzzle.non"' in untitled.headers["content-disposition"]
    assert untitled.headers["content-type"] == "text/plain; charset=utf-8"
    dropped = client.post("/api/convert?to=nin", **upload(DANCER))
    assert dropped.status_code == 200 and "title" in dropped.headers["x-nonosat-dropped"]
    svg = client.post("/api/render?solution=1", **upload(DANCER))
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    assert "x-nonosat-unproved" not in svg.headers  # line logic proved it
    assert 'filename="Dancer-solved.svg"' in svg.headers["content-disposition"]  # not the empty sheet's name
    first = client.post("/api/render?solution=1", json=TWO_BY_TWO)  # two solutions: one drawn, and said so
    assert first.status_code == 200 and "/api/check" in first.headers["x-nonosat-unproved"]
    if sys.modules.get("PIL") is not None or has_pillow():
        png = client.post("/api/render?as=png", **upload(DANCER))
        assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
        assert 'filename="Dancer.png"' in png.headers["content-disposition"]
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


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    from nonosat.web.options import ENDPOINTS

    described = client.get("/openapi.json").json()
    assert described["openapi"].startswith("3.")
    for name, spec in ENDPOINTS.items():
        operation = described["paths"][f"/api/{name}"]["post"]
        assert [p["name"] for p in operation["parameters"]] == [p.name for p in spec.parameters]
    formats = client.get("/api/formats").json()
    assert {"non", "xml", "json"} <= {form["name"] for form in formats["write"]}


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
    shown = cli_record("check", str(path) + (f"#{number}" if number else ""))
    assert comparable(reply.json()) == comparable(shown)
    assert reply.json()["path"] == Path(shown["path"]).name  # FILE#N as the command line's (a review: #N was dropped)


def test_contents_lists_the_puzzles_of_a_file_for_number(client: TestClient) -> None:
    from nonosat.formats import load
    from nonosat.formats.webpbn import dump_xml_all
    from nonosat.model import Puzzle

    tiny = Puzzle.from_grid(((1, 0), (1, 0)), title="Tiny")
    files = {"file": ("set.xml", dump_xml_all([load(DANCER), tiny]).encode())}
    listed = client.post("/api/contents", files=files).json()
    assert listed["count"] == 2 and [p["number"] for p in listed["puzzles"]] == [1, 2]
    assert listed["puzzles"][1] == {"number": 2, "title": "Tiny", "width": 2, "height": 2, "colours": 1}
    assert (listed["puzzles"][0]["width"], listed["puzzles"][0]["height"]) == (5, 10)
    second = client.post("/api/convert?to=json&number=2", files=files).json()
    assert second["title"] == "Tiny"  # the number contents gave opens that puzzle
    one = client.post("/api/contents", **upload(DANCER)).json()
    assert one["count"] == 1 and one["puzzles"][0]["number"] == 1
    bad = client.post("/api/contents", files={"file": ("bad.non", b"width 3\nheight x\n")})
    assert bad.status_code == 400 and "bad.non" in bad.json()["error"]


@pytest.mark.slow  # 0.51 s in CI
def test_certificate_is_a_zip_that_verify_accepts(client: TestClient, tmp_path: Path) -> None:
    import io
    import zipfile

    pytest.importorskip("dratify")
    from nonosat.certificate_check import verify

    for name, status in (("webpbn-06574-forever.non", "unique"), ("ring-colour.non", "multiple")):
        answer = client.post("/api/certificate?encoding=blocks", **upload(PUZZLES / name))
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
        assert "-certificate.zip" in answer.headers["content-disposition"]
        zipfile.ZipFile(io.BytesIO(answer.content)).extractall(tmp_path / name)
        checked = verify(tmp_path / name / "certificate")
        assert (checked.status, checked.encoding) == (status, "blocks")
    refused = client.post("/api/certificate?encoding=cnf", **upload(DANCER))
    assert refused.status_code == 400 and "encoding" in refused.json()["error"]


@pytest.mark.slow  # two command lines
def test_rate_explain_and_hint_answer_a_refuted_puzzle_in_their_own_shape(client: TestClient, tmp_path: Path) -> None:
    """A puzzle the cheap checks refute (a clue longer than its line) gets rate's, explain's and
    hint's own shapes, saying there is no solution, with the problems: the web as the command
    line's --format json (which wrote nothing for it), not the shape of check."""
    long = {"rows": [[3]], "cols": [[1]]}
    (tmp_path / "long.json").write_text(json.dumps(long))
    problems = [
        "row 1: clue 3 needs 3 cells but the line has 1",
        "the row clues fill 3 cells but the column clues fill 1",
    ]
    rated = client.post("/api/rate", json=long).json()
    assert rated["level"] == "none" and rated["difficulty"] is None and rated["problems"] == problems
    assert comparable(rated) == comparable(cli_record("rate", str(tmp_path / "long.json")))
    explained = client.post("/api/explain", json=long).json()
    assert explained["steps"] == [] and explained["contradiction"] == "row 1" and explained["problems"] == problems
    assert comparable(explained) == comparable(cli_record("explain", str(tmp_path / "long.json")))
    hinted = client.post("/api/hint", json={"puzzle": long, "state": ["?"]}).json()
    assert hinted["impossible"] and hinted["problems"] == problems and "no solution" in hinted["text"][0]
    assert "method" not in rated | explained | hinted  # check's shape is not theirs


def test_a_media_type_is_read_whatever_its_case(client: TestClient) -> None:
    """`Content-Type: application/JSON` got 400 "send a puzzle file as multipart/form-data":
    media types are case-insensitive."""
    for kind in ("application/JSON", "Application/Json; charset=UTF-8"):
        reply = client.post("/api/check", content=json.dumps(TWO_BY_TWO), headers={"Content-Type": kind})
        assert reply.status_code == 200 and reply.json()["status"] == "multiple", (kind, reply.text)


def test_a_download_named_in_other_letters_keeps_them_for_browsers(client: TestClient) -> None:
    """A title in other letters was a download named `n-c-d.non`: it keeps the ASCII name, and
    RFC 6266's filename* carries the title's own letters."""
    titled = {**TWO_BY_TWO, "title": "Ñandú über"}
    reply = client.post("/api/convert?to=non", json=titled)
    header = reply.headers["content-disposition"]
    assert header == "attachment; filename=\"Nandu-uber.non\"; filename*=UTF-8''%C3%91and%C3%BA-%C3%BCber.non", header
    chinese = client.post("/api/convert?to=non", json={**TWO_BY_TWO, "title": "龍"})
    wide = "filename*=UTF-8''%E9%BE%8D.non"
    assert chinese.headers["content-disposition"] == f'attachment; filename="puzzle.non"; {wide}'
    plain = client.post("/api/convert?to=non", json={**TWO_BY_TWO, "title": "Ring 2"})
    assert plain.headers["content-disposition"] == 'attachment; filename="Ring-2.non"'


def test_a_puzzle_sent_as_a_form_fields_text_is_read(client: TestClient) -> None:
    """A part without a plain filename (RFC 5987's filename* alone, or `curl -F 'file=<x.non'`)
    reaches Starlette as text: it was refused ("expected a multipart field 'file'"); it is read
    now, its format found from its content. A picture must be a file."""
    text = (PUZZLES / "ring.non").read_text()
    reply = client.post("/api/check", files={"file": (None, text)})  # a part without a filename
    assert reply.status_code == 200 and reply.json()["status"] == "multiple" and reply.json()["path"] == "upload"
    starred = (
        b"--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''r%C3%AFng.non\r\n\r\n"
        + text.encode()
        + b"\r\n--xyz--\r\n"
    )
    kind = {"content-type": "multipart/form-data; boundary=xyz"}
    assert client.post("/api/check", content=starred, headers=kind).json()["status"] == "multiple"
    picture = client.post("/api/picture", files={"file": (None, "not a picture")})
    assert picture.status_code == 400 and "expected a multipart field 'file' holding a picture" in picture.text
