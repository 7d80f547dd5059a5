"""The page of `nonosat serve` in real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright): draw a puzzle and watch the verdict, import a picture, make it unique, download the
.non and check it with the real `nonosat check`; type impossible clues and see the lines marked;
step through line logic; see a server error in the status area.

Screenshots go to a temporary folder, and also to the folder $NONOSAT_SCREENSHOTS names (refresh
the README's pictures with `NONOSAT_SCREENSHOTS=docs pytest tests/test_web_page.py tests/test_web_studio_board.py`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from browser import (  # noqa: F401  (fixtures)
    PUZZLES,
    RING,
    browser_fixture,
    cell,
    marked,
    page_fixture,
    resize,
    screenshot,
    server_fixture,
    settled,
    shots_fixture,
)
from playwright.sync_api import Browser, Page, Route

pytestmark = [pytest.mark.slow, pytest.mark.browser]


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


def test_a_hint_on_marks_that_cannot_all_hold_marks_them_and_blames_none_alone(page: Page) -> None:
    """The ring has several solutions: (row 3, column 4) filled is one of them, and so is row 4
    with its middle cells empty, but not both (the hint said the filled cell "must be empty")."""
    resize(page, 4, 4)
    for row, column in RING:
        page.click(cell(row, column))
    assert settled(page) == "multiple"
    page.click("#play")
    page.click(cell(3, 4))
    page.click(cell(4, 2), button="right")
    page.click(cell(4, 3), button="right")
    page.click("#hint")
    page.wait_for_selector("#status[data-kind=error]")
    status = page.inner_text("#status")
    assert "cannot all hold" in status and "must be" not in status
    blamed = marked(page, "wrong")
    assert len(blamed) >= 2 and blamed <= {(3, 4), (4, 2), (4, 3)}
    drawn = page.eval_on_selector_all("#board td.cell.wrong", "tds => tds.map(td => getComputedStyle(td).outlineStyle)")
    assert drawn == ["solid"] * len(blamed)  # outlined, though they are cells where another solution differs


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


def test_a_picture_made_a_puzzle_on_the_page_is_the_command_lines(page: Page) -> None:
    """A picture author's review: "Use it" then "Make it line-solvable" weighs every cell 1 (the
    drawing has no grey levels left): 16 cells and a blank row where the command line changes 13.
    "Make a puzzle of it" makes the picture a line-solvable puzzle as `nonosat generate --require
    line` does, weighed by the picture, its changed cells outlined."""
    from nonosat.generate import from_image

    smiley = PUZZLES / "smiley-picture.png"
    page.set_input_files("#file-input", str(smiley))
    page.wait_for_selector("#picture-preview[data-state=ready]")
    page.fill("#picture-width", "20")
    page.wait_for_function("document.querySelector('#picture-info').textContent.startsWith('20×20')")
    page.click("#picture-make")
    page.wait_for_selector("#status:has-text('The picture is now a line-solvable puzzle')")
    made = from_image(smiley, width=20, require="line")
    assert made.changed  # (a picture line logic does not solve as it is)
    assert page.is_hidden("#picture-panel") and page.locator("#board td.cell").count() == 20 * 20
    assert marked(page, "changed") == {(r + 1, c + 1) for r, c in made.changed}
    ring = page.eval_on_selector("#board td.cell.changed", "td => getComputedStyle(td).boxShadow")
    assert "255, 255, 255" in ring  # a white ring inside the green outline: seen on a green cell too (a review)
    filled = {(r + 1, c + 1) for r, row in enumerate(made.puzzle.goal or ()) for c, cell in enumerate(row) if cell}
    assert marked(page, "filled") == filled
    said = (
        f"{len(made.changed)} cells changed from the picture (outlined in green), picture distance {made.distance:.2f}."
    )
    assert said in page.inner_text("#status")  # the distance as the command line gives it
    assert settled(page) == "unique" and "line logic" in page.inner_text("#verdict")


def test_an_edit_made_while_a_picture_is_made_a_puzzle_is_kept(page: Page) -> None:
    """As for the fixes (README, "Nothing lost"): a drawing edited while "Make a puzzle of it"
    runs is kept, and the puzzle is not applied; the panel stays open to press it again."""
    page.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    page.wait_for_selector("#picture-preview[data-state=ready]")
    held: list[Route] = []
    page.route("**/api/generate?*", lambda route: held.append(route))  # its answer waits for the edit
    page.click("#picture-make")
    while not held:
        page.wait_for_timeout(20)
    before = marked(page, "filled")
    page.click(cell(1, 1))
    held[0].continue_()
    page.wait_for_selector("#status:has-text('not applied')")
    assert marked(page, "filled") == before ^ {(1, 1)} and marked(page, "changed") == set()
    assert page.is_visible("#picture-panel") and page.is_enabled("#picture-make")
    held.clear()
    page.click("#picture-make")  # the diff's review: settings changed meanwhile were not noticed
    while not held:
        page.wait_for_timeout(20)
    page.fill("#picture-width", "30")
    page.wait_for_function("document.querySelector('#picture-info').textContent.startsWith('30×30')")
    held[0].continue_()
    page.wait_for_selector('#status:has-text("The picture\'s settings changed")')
    assert marked(page, "filled") == before ^ {(1, 1)} and page.is_visible("#picture-panel")
    assert page.is_enabled("#picture-make")  # the preview of the new settings is shown
    held.clear()
    page.click("#picture-make")  # the picture author's review: the panel closed meanwhile left
    while not held:  # "Making a line-solvable puzzle..." as the status for good, the request running
        page.wait_for_timeout(20)
    page.click("#picture-cancel")
    page.wait_for_selector("#status:has-text('Cancelled.')")
    assert page.is_hidden("#picture-panel") and page.is_hidden("#cancel")
    assert marked(page, "filled") == before ^ {(1, 1)}


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


def test_a_file_over_the_upload_limit_is_named_in_the_refusal(page: Page, tmp_path: Path) -> None:
    """A review: "the upload is over this server's limit of 1048576 bytes" named no file."""
    big = tmp_path / "big.non"
    big.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n" + "# padding\n" * 120_000)
    page.set_input_files("#file-input", str(big))
    page.wait_for_selector("#status[data-kind=error]")
    assert page.inner_text("#status").startswith("big.non: the upload is over this server's limit")


def test_on_a_phone_the_busy_line_and_cancel_stay_in_view_while_a_picture_is_made_a_puzzle(
    browser: Browser, server: str
) -> None:
    """A picture author's review: at 390 px, "Make a puzzle of it" is far down the page, and the
    busy line and its Cancel, at the top, were off screen while it ran."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone = context.new_page()
    phone.goto(server)
    settled(phone)
    phone.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    phone.wait_for_selector("#picture-preview[data-state=ready]")
    held: list[Route] = []
    phone.route("**/api/generate?*", lambda route: held.append(route))  # its answer waits
    phone.locator("#picture-make").scroll_into_view_if_needed()
    assert phone.evaluate("window.scrollY") > 0  # (the panel is below the first screen)
    phone.tap("#picture-make")
    while not held:
        phone.wait_for_timeout(20)
    for selector in ("#status", "#cancel"):
        box = phone.locator(selector).bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, (selector, box)
    phone.tap("#cancel")
    phone.wait_for_selector("#status:has-text('Cancelled.')")
    context.close()


def test_the_clue_boxes_stay_inside_their_lists_at_1200_px(browser: Browser, server: str) -> None:
    """A new user's review: at 1200 px, with broken-cross.non read, the column clues' boxes ran
    past their list's right edge, cut off, and "column 1" broke over two lines."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(server)
    settled(page)
    page.set_input_files("#file-input", str(PUZZLES / "broken-cross.non"))
    page.wait_for_selector("#status:has-text('Read broken-cross.non')")
    assert settled(page) == "none"
    page.click("#mode-clues")
    boxes = page.eval_on_selector_all(
        ".clue-input",
        """inputs => inputs.map(input => {
            const own = input.getBoundingClientRect(), list = input.closest('.clue-list').getBoundingClientRect();
            const label = input.closest('label').getBoundingClientRect();
            return [own.right - list.right, own.width, label.height - own.height];
        })""",
    )
    assert len(boxes) == 6 and all(past <= 0.5 and width > 40 and taller < 8 for past, width, taller in boxes), boxes
    context.close()
