"""The browser tests' shared parts (tests/test_web_page.py, tests/test_web_studio_*.py): `nonosat
serve` on a free port, Debian's headless Chromium through Playwright, the page loaded with its
first verdict shown, and helpers that read the board. A module that imports these skips itself
where Starlette, uvicorn, Playwright or Chromium are missing."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the page needs nonosat[web] (Starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="the page needs nonosat[web] (Starlette, uvicorn)")

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:
    pytest.skip("the browser tests need playwright (pip install playwright)", allow_module_level=True)

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
RING = [(1, 2), (1, 3), (2, 1), (2, 4), (3, 1), (3, 4), (4, 2), (4, 3)]
OCTAGON = [(1, c) for c in range(3, 7)] + [(8, c) for c in range(3, 7)] + [(r, 1) for r in range(3, 7)]
OCTAGON += [(r, 8) for r in range(3, 7)] + [(2, 2), (2, 7), (7, 2), (7, 7)]
"""An outline in an 8x8 grid: many solutions, and line logic fixes none of its cells."""
"""A ring in a 4x4 grid: its clues have three solutions."""
WAIT_MS = 20_000
"""How long the page may take to show what a test waits for (the server's checks take far less)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module", name="server")
def server_fixture() -> Iterator[str]:
    """`nonosat serve` on a free port, as a user starts it; its address."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "nonosat", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/formats", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                output = process.stdout.read().decode() if process.stdout and process.poll() is not None else ""
                pytest.fail(f"nonosat serve did not start on port {port}: {output}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        chromium.close()


@pytest.fixture(name="page")
def page_fixture(browser: Browser, server: str) -> Iterator[Page]:
    """The page, loaded, with its first verdict shown; fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1400, "height": 950}, accept_downloads=True)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    settled(opened)
    yield opened
    context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def new_tab(context: BrowserContext, server: str) -> Page:
    """Another tab of one browser (they share its storage), the page loaded and its verdict shown."""
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    opened.goto(server)
    settled(opened)
    return opened


@pytest.fixture(name="shots")
def shots_fixture(tmp_path: Path) -> list[Path]:
    """Where screenshots go: a temporary folder, and $NONOSAT_SCREENSHOTS when it is set."""
    folders = [tmp_path]
    if os.environ.get("NONOSAT_SCREENSHOTS"):
        folders.append(Path(os.environ["NONOSAT_SCREENSHOTS"]))
    return folders


def screenshot(page: Page, folders: list[Path], name: str) -> None:
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / name)
        assert (folder / name).stat().st_size > 0


def settled(page: Page) -> str:
    """Wait for the verdict of the latest change, and return its status."""
    page.wait_for_selector("#verdict:not([data-status=checking])")
    status = page.get_attribute("#verdict", "data-status")
    assert status is not None
    return status


def cell(row: int, column: int) -> str:
    return f"#board td.cell[data-row='{row}'][data-col='{column}']"


def draw(page: Page, cells: list[tuple[int, int]]) -> None:
    """Click each of `cells` (row, column) on the board."""
    for row, column in cells:
        page.click(cell(row, column))


def marked(page: Page, name: str) -> set[tuple[int, int]]:
    """The cells with class `name`, as (row, column) from 1."""
    found = page.eval_on_selector_all(
        f"#board td.cell.{name}", "tds => tds.map(td => [td.dataset.row, td.dataset.col])"
    )
    return {(int(r), int(c)) for r, c in found}


def resize(page: Page, width: int, height: int) -> None:
    page.fill("#width", str(width))
    page.fill("#height", str(height))
    page.click("#resize")
    page.wait_for_selector(f"#board tbody tr:nth-child({height}) td.cell[data-col='{width}']")


def drag_along(page: Page, row: int, first: int, last: int, steps: int = 8) -> None:
    """Press on one cell of a row and drag to another, as a hand does: the pointer goes where the
    cells were when the stroke began."""
    start = page.locator(cell(row, first)).bounding_box()
    end = page.locator(cell(row, last)).bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=steps)
    page.mouse.up()
