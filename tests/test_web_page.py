"""The page of `nonosat serve` in real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright): draw a puzzle and watch the verdict, import a picture, make it unique, download the
.non and check it with the real `nonosat check`; type impossible clues and see the lines marked;
step through line logic; see a server error in the status area.

Screenshots go to a temporary folder, and also to the folder $NONOSAT_SCREENSHOTS names (refresh
the README's pictures with `NONOSAT_SCREENSHOTS=docs pytest tests/test_web_page.py`)."""

from __future__ import annotations

import json
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
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:
    pytest.skip("the browser tests need playwright (pip install playwright)", allow_module_level=True)

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
RING = [(1, 2), (1, 3), (2, 1), (2, 4), (3, 1), (3, 4), (4, 2), (4, 3)]
"""A ring in a 4x4 grid: its clues have three solutions."""
WAIT_MS = 20_000
"""How long the page may take to show what a test waits for (the server's checks take far less)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
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


@pytest.fixture
def shots(tmp_path: Path) -> list[Path]:
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


def test_draw_the_ring_then_make_it_unique(page: Page, shots: list[Path]) -> None:
    resize(page, 4, 4)
    assert settled(page) == "unique"  # an empty grid has one solution
    for row, column in RING:
        page.click(cell(row, column))
    assert settled(page) == "multiple"
    assert "Multiple" in page.inner_text("#verdict")
    assert page.inner_text("#board th.row-clue[data-row='2']").split() == ["1", "1"]
    differs = marked(page, "differs")
    assert len(differs) >= 4 and differs <= {(r, c) for r in range(1, 5) for c in range(1, 5)}
    assert len(marked(page, "open")) == 16  # line logic decides nothing in a ring
    assert page.is_visible("#other-solution")
    screenshot(page, shots, "web-multiple.png")

    page.click(cell(3, 3))  # a ring with one corner thickened has one solution
    assert settled(page) == "unique"
    assert "line logic" in page.inner_text("#verdict")
    assert marked(page, "differs") == set()
    assert marked(page, "open") == set()

    page.keyboard.press("Control+z")
    assert settled(page) == "multiple"
    assert (3, 3) not in marked(page, "filled")
    page.keyboard.press("Control+y")
    assert settled(page) == "unique"
    assert (3, 3) in marked(page, "filled")


def test_drag_fills_then_clears_a_row(page: Page) -> None:
    resize(page, 5, 3)

    def drag(row: int, first: int, last: int) -> None:
        start = page.locator(cell(row, first)).bounding_box()
        end = page.locator(cell(row, last)).bounding_box()
        assert start and end
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
        page.mouse.up()

    drag(2, 1, 4)
    assert marked(page, "filled") == {(2, 1), (2, 2), (2, 3), (2, 4)}
    assert page.inner_text("#board th.row-clue[data-row='2']").strip() == "4"
    assert settled(page) == "unique"
    drag(2, 2, 5)  # starting on a filled cell clears
    assert marked(page, "filled") == {(2, 1)}
    assert page.inner_text("#board th.col-clue[data-col='1']").strip() == "1"


def test_picture_made_unique_and_downloaded(page: Page, shots: list[Path], tmp_path: Path) -> None:
    page.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    page.wait_for_selector("#picture-preview[data-state=ready]")
    page.fill("#picture-width", "15")
    page.wait_for_function("document.querySelector('#picture-info').textContent.startsWith('15×15')")
    assert page.is_enabled("#picture-use")
    screenshot(page, shots, "web-picture.png")
    page.click("#picture-use")
    page.wait_for_selector("#status:has-text('The picture is now the drawing')")
    assert page.locator("#board td.cell").count() == 15 * 15
    assert settled(page) == "multiple"
    assert marked(page, "differs")
    assert len(marked(page, "filled")) > 20

    page.click("#make-unique")
    page.wait_for_selector("#board td.cell.changed")
    assert settled(page) == "unique"
    assert marked(page, "differs") == set()
    assert "Changed" in page.inner_text("#status")
    screenshot(page, shots, "web-made-unique.png")

    page.select_option("#export-format", "non")
    with page.expect_download() as download:
        page.click("#export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".non"
    checked = subprocess.run(
        [sys.executable, "-m", "nonosat", "check", str(saved)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "unique" in checked.stdout


def test_typed_clues_that_conflict_are_marked(page: Page, shots: list[Path]) -> None:
    page.click("#mode-clues")
    resize(page, 3, 3)
    rows = ["3", "0", "0"]
    columns = ["1", "1", "2"]
    for i, clue in enumerate(rows, 1):
        page.fill(f"#row-clue-{i}", clue)
    for i, clue in enumerate(columns, 1):
        page.fill(f"#col-clue-{i}", clue)
    assert settled(page) == "none"
    assert "No solution" in page.inner_text("#verdict")
    conflicts = page.eval_on_selector_all("#board th.conflict", "ths => ths.map(th => th.title)")
    assert conflicts and set(conflicts) <= {"row 1", "row 2", "row 3", "column 1", "column 2", "column 3"}
    screenshot(page, shots, "web-clues-conflict.png")

    page.fill("#row-clue-1", "3x")
    assert settled(page) == "invalid"
    page.fill("#row-clue-1", "3")
    page.fill("#col-clue-3", "1")
    assert settled(page) == "unique"
    assert page.locator("#board th.conflict").count() == 0
    page.click("#reveal")
    page.wait_for_function("!document.querySelector('#board td.cell.unknown')")
    assert marked(page, "filled") == {(1, 1), (1, 2), (1, 3)}
    page.click("#mode-draw")  # the unique solution becomes the drawing
    assert settled(page) == "unique"
    assert marked(page, "filled") == {(1, 1), (1, 2), (1, 3)}


def test_step_through_a_puzzle_file(page: Page) -> None:
    page.set_input_files("#file-input", str(PUZZLES / "dancer.json"))
    page.wait_for_selector("#status:has-text('Read dancer.json')")
    assert page.locator("#board td.cell").count() == 5 * 10
    assert settled(page) == "unique"
    goal = json.loads((PUZZLES / "dancer.json").read_text())["goal"]
    filled = {(r, c) for r, row in enumerate(goal, 1) for c, ch in enumerate(row, 1) if ch == "1"}
    assert marked(page, "filled") == filled
    page.fill("#speed", "20")
    page.click("#step-through")
    page.wait_for_selector("#steps li")
    page.wait_for_function("document.querySelector('#status').textContent.includes('solved by logic')")
    assert not marked(page, "unknown")
    assert marked(page, "filled") == filled
    assert page.locator("#steps li").count() >= 5
    page.click("#back-to-drawing")
    assert marked(page, "filled") == filled


def test_a_bad_file_shows_the_server_error(page: Page, tmp_path: Path) -> None:
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight 2\nrows\n1\n1\ncolumns\n1\n1\nx\n")
    page.set_input_files("#file-input", str(bad))
    page.wait_for_selector("#status[data-kind=error]")
    assert "bad.non" in page.inner_text("#status")
    page.click(cell(1, 1))  # the page goes on working
    assert settled(page) == "unique"
