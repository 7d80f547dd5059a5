"""Shared fixtures: where the corpus of real puzzles lives, a count of the solver races, and the
web API's test client; and a note at the end of a run naming the tests that took `SLOW` seconds
or more without the `slow` mark (a report for people, never a failure: timings vary from machine
to machine)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent

SLOW = 0.5
"""Seconds from which a test is marked `slow` (pyproject.toml's marker says so too)."""

_unmarked_slow: list[tuple[float, str]] = []


def corpus_path() -> Path:
    """The corpus folder: $NONOSAT_CORPUS, else ../shared/corpus beside the checkout."""
    return Path(os.environ.get("NONOSAT_CORPUS", ROOT.parent / "shared" / "corpus"))


def pytest_configure(config: pytest.Config) -> None:
    """The commands the tests signal hear Ctrl-C even when pytest was started ignoring it (a
    script's background job, whose SIGINT they would inherit ignored, and keep ignoring)."""
    from bench.processes import hear_ctrl_c

    hear_ctrl_c()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that reads the corpus (through the `corpus` fixture) is marked `corpus`."""
    for item in items:
        if "corpus" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.corpus)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration >= SLOW and "slow" not in report.keywords:
        _unmarked_slow.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _unmarked_slow:
        terminalreporter.section(f"tests over {SLOW} s without the slow mark")
        for seconds, name in sorted(_unmarked_slow, reverse=True):
            terminalreporter.write_line(f"{seconds:.2f} s {name}")


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = corpus_path()
    if not path.is_dir():
        pytest.skip(f"corpus not found at {path}; set NONOSAT_CORPUS")
    return path


@pytest.fixture
def rivals(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every `portfolio.Rival` made during the test, so that a test of the race can count the
    rivals that were made and the ones that forked a worker (`forked`)."""
    from nonosat.solver import race as portfolio

    made: list[Any] = []

    class Counted(portfolio.Rival[Any]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(portfolio, "Rival", Counted)
    return made


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The web API through Starlette's test client, one a module (which skips itself without
    Starlette): uploads of up to 1,000,000 bytes, 80 cells a side, 100,000 solutions."""
    from starlette.testclient import TestClient

    from nonosat.web.app import create_app
    from nonosat.web.settings import WebSettings

    settings = WebSettings(max_upload_bytes=1_000_000, max_side=80, max_count=100_000)
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        yield c
