"""The studio's board and drawing tools as authors use them (issue 38), in headless Chromium: the
board stays put during a stroke, a quick pen stroke fills every cell it passes over, the line,
rectangle and fill tools, resizing from any side, the keyboard, a board that fits its frame and
stays legible (on a phone too), and painting and undo measured on large boards; nothing hidden
is shown. Each defect an author met has a test here that failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import (  # noqa: F401  (fixtures)
    PUZZLES,
    RING,
    WAIT_MS,
    browser_fixture,
    cell,
    drag_along,
    draw,
    marked,
    page_fixture,
    resize,
    screenshot,
    server_fixture,
    settled,
    shots_fixture,
)
from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_what_is_hidden_is_not_shown(page: Page) -> None:
    """A review saw "Kept in this browser", an empty list and its buttons on a fresh page: the
    `.row` rule's `display: flex` overrode the `hidden` attribute of `#drafts`."""
    shown = page.eval_on_selector_all(
        "[hidden]", "found => found.filter(e => getComputedStyle(e).display !== 'none').map(e => e.id)"
    )
    assert shown == []
    assert not page.is_visible("#drafts")


@pytest.mark.parametrize("colour", [False, True])
def test_the_board_stays_put_during_a_stroke(page: Page, colour: bool) -> None:
    """Defect 1: when a column gained a block its clue grew a line and the rest of the stroke
    landed a row off (row 3 drawn, then a drag along row 13 filled row 12)."""
    resize(page, 15, 15)
    if colour:
        page.fill("#new-colour", "#d62728")
        page.click("#add-colour")
    drag_along(page, 3, 1, 15, steps=30)
    top = page.locator(cell(13, 1)).bounding_box()
    drag_along(page, 13, 1, 15, steps=30)
    filled = marked(page, "filled")
    assert {(13, c) for c in range(1, 16)} <= filled and not {(12, c) for c in range(1, 16)} & filled
    assert filled == {(r, c) for r in (3, 13) for c in range(1, 16)}
    assert top and page.locator(cell(13, 1)).bounding_box() != top  # the clues grew, after the stroke
    settled(page)
    header = page.inner_text("#board th.col-clue[data-col='7']").split()
    assert header == ["1", "1"]


def test_on_a_phone_the_page_fits_its_width_and_the_board_comes_first(browser: Browser, server: str) -> None:
    """Defect 10: at 390 px wide the page was 492 px wide, the status off-screen and the board
    below the fold."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(WAIT_MS)
    phone.goto(server)
    settled(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in ("#status", "#verdict", "#board"):
        box = phone.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)
        assert box["y"] + box["height"] <= 844, (selector, box)  # above the fold
    said = phone.inner_text("#status")  # a review: "right-click clears", on a phone
    assert "right-click" not in said and "touching and dragging" in said, said
    phone.tap(cell(2, 2))
    assert settled(phone) == "unique" and marked(phone, "filled") == {(2, 2)}
    # a review: a screen reader heard each row's clue as a column's heading
    assert phone.get_by_role("rowheader").count() == phone.locator("#board tbody tr").count()
    context.close()


MEASURE = (Path(__file__).parent / "measure_board.js").read_text()
"""A stroke along the middle row and an undo, timed in the page (tests/measure_board.js)."""


def test_painting_and_undo_are_measured_on_large_boards(page: Page) -> None:
    """The painting and undo times at 50x50, 100x100 and 200x200, measured in Chromium and
    printed (bench/README.md records them; a timing is never asserted). What is asserted: the
    stroke filled its row and the undo took it back."""
    for side in (50, 100, 200):
        resize(page, side, side)
        settled(page)
        measured = page.evaluate(MEASURE, side)
        assert measured["filled"] == measured["cells"] >= min(side, 40) and measured["left"] == 0, measured
        print(
            f"{side}x{side}: {measured['perCell']:.2f} ms a cell painted ({measured['cells']} cells in view), "
            f"undo {measured['undo']:.1f} ms"
        )


def window(browser: Browser, server: str, width: int, height: int) -> tuple[BrowserContext, Page]:
    """The page in a browser window of this size, its first verdict in."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server)
    settled(page)
    return context, page


def board_metrics(page: Page) -> dict[str, float]:
    metrics: dict[str, float] = page.evaluate(
        """() => {
        const wrap = document.querySelector(".board-wrap");
        const td = document.querySelector("#board td.cell");
        const th = document.querySelector("#board th.col-clue");
        return { cell: td.getBoundingClientRect().width, font: parseFloat(getComputedStyle(th).fontSize),
                 scroll: wrap.scrollWidth - wrap.clientWidth, wrap: wrap.clientWidth, window: window.innerWidth };
    }"""
    )
    return metrics


def test_a_large_board_takes_the_full_width_legibly_and_zooms(browser: Browser, server: str, shots: list[Path]) -> None:
    """A board that scales: at 60x60 the board uses the window's full width, its cells and
    clues legible; at 200x200 it fits, and zoom makes the cells larger and Fit fits again."""
    context, page = window(browser, server, 1400, 1000)
    page.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    page.wait_for_selector("#picture-preview[data-state=ready]")
    page.fill("#picture-width", "60")
    page.wait_for_function("document.querySelector('#picture-info').textContent.startsWith('60×60')")
    page.click("#picture-use")
    page.wait_for_selector("#status:has-text('The picture is now the drawing')")
    settled(page)
    seen = board_metrics(page)
    assert seen["wrap"] > 0.9 * seen["window"] and seen["scroll"] <= 0, seen  # the full width, no scrolling
    assert seen["cell"] >= 17 and seen["font"] >= 9.5, seen
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, shots, "web-60x60.png")

    resize(page, 200, 200)
    settled(page)
    fitted = board_metrics(page)
    assert fitted["scroll"] <= 0 and fitted["cell"] >= 6, fitted
    page.click("#zoom-in")
    page.click("#zoom-in")
    zoomed = board_metrics(page)
    assert zoomed["cell"] > fitted["cell"] + 3 and zoomed["scroll"] > 0, zoomed  # larger cells, the board scrolls
    assert page.get_attribute("#zoom-fit", "aria-pressed") == "false"
    page.click(cell(1, 1))  # still drawn on
    page.click("#zoom-fit")
    assert board_metrics(page)["cell"] == fitted["cell"]
    assert settled(page) in ("unique", "multiple") and (1, 1) in marked(page, "filled")
    context.close()


def test_drawing_by_keyboard(page: Page) -> None:
    """Keyboard drawing: the arrows move a cursor that is seen, Space paints, Shift with an arrow
    paints on the way, Delete clears, Ctrl-Z undoes one key's paint."""
    resize(page, 6, 6)
    page.focus("#board")
    assert marked(page, "cursor") == {(1, 1)}
    outline = page.evaluate("getComputedStyle(document.querySelector('#board td.cell.cursor')).outlineStyle")
    assert outline == "solid"  # the cursor shows while the board has the focus
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "Space"):
        page.keyboard.press(key)
    assert marked(page, "cursor") == {(2, 3)} and marked(page, "filled") == {(2, 3)}
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    assert marked(page, "filled") == {(2, 3), (2, 4), (2, 5)}
    assert settled(page) in ("unique", "multiple")
    assert page.inner_text("#board th.row-clue[data-row='2']").strip() == "3"
    page.keyboard.press("Delete")
    assert marked(page, "filled") == {(2, 3), (2, 4)}
    page.keyboard.press("Control+z")
    assert marked(page, "filled") == {(2, 3), (2, 4), (2, 5)}
    for _ in range(9):
        page.keyboard.press("ArrowDown")  # the cursor stops at the edge
    assert marked(page, "cursor") == {(6, 5)}


def stroke(page: Page, first: tuple[int, int], last: tuple[int, int], shift: bool = False) -> None:
    start = page.locator(cell(*first)).bounding_box()
    end = page.locator(cell(*last)).bounding_box()
    assert start and end
    if shift:
        page.keyboard.down("Shift")
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=6)
    page.mouse.up()
    if shift:
        page.keyboard.up("Shift")


def test_a_quick_pen_stroke_fills_every_cell_it_passes_over(page: Page) -> None:
    """A quick hand sends an event every few cells: the pen filled only those (row 3 came out
    "#..#..#..#", clue 1 1 1 1, for a stroke across it), as a player's pen did too."""
    resize(page, 10, 6)
    start = page.locator(cell(3, 1)).bounding_box()
    turn = page.locator(cell(3, 10)).bounding_box()
    end = page.locator(cell(6, 10)).bounding_box()
    assert start and turn and end
    y = start["y"] + start["height"] / 2
    x = turn["x"] + turn["width"] / 2
    page.mouse.move(start["x"] + start["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(x, y, steps=3)
    page.mouse.move(x, end["y"] + end["height"] / 2, steps=1)  # three cells down in one event
    page.mouse.up()
    assert marked(page, "filled") == {(3, c) for c in range(1, 11)} | {(r, 10) for r in range(4, 7)}
    assert page.inner_text("#board th.row-clue[data-row='3']").split() == ["10"]
    # a stroke that leaves the board and comes back elsewhere draws no line between (the mend's review)
    first, last = page.locator(cell(1, 1)).bounding_box(), page.locator(cell(6, 1)).bounding_box()
    assert first and last
    outside = first["x"] - 15  # over the row clues
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(outside, first["y"] + first["height"] / 2, steps=1)
    page.mouse.move(outside, last["y"] + last["height"] / 2, steps=1)
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=1)
    page.mouse.up()
    assert {(r, 1) for r in range(1, 7)} & marked(page, "filled") == {(1, 1), (3, 1), (6, 1)}


def test_line_rectangle_and_fill_tools(page: Page) -> None:
    resize(page, 8, 7)
    page.click("#tools [data-tool=line]")
    stroke(page, (1, 1), (4, 4))
    assert marked(page, "filled") == {(1, 1), (2, 2), (3, 3), (4, 4)}
    page.keyboard.press("Control+z")  # one stroke, one undo
    assert marked(page, "filled") == set()
    page.click("#tools [data-tool=box]")
    stroke(page, (2, 2), (5, 6))
    outline = {(r, c) for r in range(2, 6) for c in range(2, 7) if r in (2, 5) or c in (2, 6)}
    assert marked(page, "filled") == outline and not marked(page, "stroke-preview")
    page.click("#tools [data-tool=fill]")
    page.click(cell(3, 3))  # the inside of the outline
    assert marked(page, "filled") == {(r, c) for r in range(2, 6) for c in range(2, 7)}
    page.click(cell(1, 8), button="right")  # right-click fills the outside with the background: nothing changes
    page.click("#tools [data-tool=box]")
    stroke(page, (7, 1), (6, 3), shift=True)  # with Shift, filled
    assert {(6, 1), (6, 2), (6, 3), (7, 1), (7, 2), (7, 3)} <= marked(page, "filled")
    assert settled(page) in ("unique", "multiple")
    assert page.inner_text("#board th.row-clue[data-row='6']").split() == ["3"]


def test_resize_from_any_side_shift_and_recolour(page: Page) -> None:
    resize(page, 4, 4)
    draw(page, [(1, 1)])
    page.select_option("#anchor", "bottom-right")  # the new lines go to the top and the left
    page.fill("#width", "6")
    page.fill("#height", "5")
    page.click("#resize")
    page.wait_for_selector(cell(5, 6))
    assert marked(page, "filled") == {(2, 3)}
    page.click("#shift-right")
    page.click("#shift-up")
    assert marked(page, "filled") == {(1, 4)}
    page.keyboard.press("Control+z")
    assert marked(page, "filled") == {(2, 4)}
    page.select_option("#anchor", "top-left")
    page.fill("#width", "3")
    page.click("#resize")  # the cell falls outside: dropped
    page.wait_for_function("document.querySelectorAll('#board td.cell').length === 15")
    assert marked(page, "filled") == set()

    page.fill("#new-colour", "#ff0000")
    page.click("#add-colour")
    page.click(cell(1, 1))
    assert page.get_attribute("#palette .swatch[data-index='2']", "title") == "red (a)"
    page.fill("#new-colour", "#0000ff")
    page.click("#recolour")
    assert page.get_attribute("#palette .swatch[data-index='2']", "title") == "blue (a)"
    background = page.evaluate(f'getComputedStyle(document.querySelector("{cell(1, 1)}")).backgroundColor')
    assert background == "rgb(0, 0, 255)"
    assert settled(page) == "unique"


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (390, 844)])
def test_a_board_fits_its_frame_and_stays_legible_where_the_window_allows(
    browser: Browser, server: str, tmp_path: Path, width: int, height: int
) -> None:
    """A review: Forever (25x25) at 10 px a cell in a 1024 px window, the three columns leaving
    the board 352 px (a 768 px window gave 23 px); and Fit 6 px wider than the board's frame on
    a phone at 40x40, the last column cut off."""
    import random

    from nonosat import Puzzle, save

    context, page = window(browser, server, width, height)
    page.set_input_files("#file-input", str(PUZZLES / "webpbn-06574-forever.non"))
    page.wait_for_selector("#status:has-text('Read webpbn-06574-forever.non')")
    settled(page)
    forever = board_metrics(page)
    assert forever["scroll"] <= 0, forever
    if width > 1000:
        assert forever["cell"] >= 18, forever  # legible: the board takes the full width, the tools below
    noise = tmp_path / "noise.non"  # clues of many numbers: wider than the clues' estimate
    rng = random.Random(3)
    save(Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(36)] for _ in range(36)]), noise)
    page.set_input_files("#file-input", str(noise))
    page.wait_for_selector("#status:has-text('Read noise.non')")
    settled(page)
    page.click("#zoom-fit")
    fitted = board_metrics(page)
    assert fitted["scroll"] <= 0, fitted
    resize(page, 25, 25)
    page.click("#clear")  # fitted to clues of 0
    draw(page, RING)  # clues grown by clicks: 7 px too wide at 1280 and 390 px before they refitted
    assert settled(page) == "multiple"
    drawn = board_metrics(page)
    assert drawn["scroll"] <= 0, drawn
    context.close()
