"""The README's web API examples stay true: each `$ curl ...` of its shell-session blocks is sent
to the app (through Starlette's test client, with the default settings) and answers what the
README shows, but for the seconds."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _curl_examples() -> list[tuple[str, str]]:
    from test_docs import fenced_examples

    return [(command, output.strip()) for command, output in fenced_examples("shell-session", "curl")]


def _request(command: str) -> tuple[str, dict[str, Any]]:
    """The URL's path and query, and the test client's arguments, from a curl command line."""
    words = shlex.split(command)[1:]
    url = ""
    options: dict[str, Any] = {}
    headers: dict[str, str] = {}
    while words:
        word = words.pop(0)
        if word == "-s":
            continue
        if word == "-F":
            field, _, value = words.pop(0).partition("=@")
            options.setdefault("files", {})[field] = (Path(value).name, (ROOT / value).read_bytes())
        elif word == "-H":
            key, _, value = words.pop(0).partition(": ")
            headers[key] = value
        elif word == "-d":
            options["content"] = words.pop(0).encode()
        else:
            url = word
    if headers:
        options["headers"] = headers
    return re.sub(r"^https?://[^/]+", "", url), options


def _without_seconds(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_seconds(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(item) for item in value]
    return value


def test_the_readme_shows_the_web_setup_and_examples() -> None:
    assert "pip install '.[web]' && nonosat serve" in README
    assert len(_curl_examples()) >= 4


@pytest.mark.slow
def test_readme_curl_examples_answer_what_the_readme_shows() -> None:
    from starlette.testclient import TestClient

    from nonosat.web.app import create_app

    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for command, shown in _curl_examples():
            path, options = _request(command)
            answer = client.post(path, **options)
            assert _without_seconds(answer.json()) == _without_seconds(json.loads(shown)), command
