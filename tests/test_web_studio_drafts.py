"""The studio keeps an author's work (issue 38), in headless Chromium: a reload brings back the
drawing, a grid being solved and the undo history (its latest steps when the tab's storage is
nearly full); a file read over a drawing, two tabs, and a draft taken up, forgotten or opened
elsewhere lose nothing; and storage full is said at once. Each defect an author met has a test
here that failed before its fix."""

from __future__ import annotations

import pytest
from browser import (  # noqa: F401  (fixtures)
    PUZZLES,
    RING,
    browser_fixture,
    cell,
    drag_along,
    draw,
    marked,
    new_tab,
    page_fixture,
    resize,
    server_fixture,
    settled,
)
from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_a_reload_brings_the_work_back(page: Page) -> None:
    """Defect 11: reloading the page lost all work without a word."""
    resize(page, 6, 5)
    page.fill("#new-colour", "#1f77b4")
    page.click("#add-colour")
    draw(page, [(1, 1), (2, 3), (5, 6)])
    page.fill("#title", "Kept")
    assert settled(page) in ("unique", "multiple")
    page.reload()
    settled(page)
    assert page.locator("#board td.cell").count() == 30
    assert marked(page, "filled") == {(1, 1), (2, 3), (5, 6)}
    assert page.input_value("#title") == "Kept"
    assert page.locator("#palette .swatch").count() == 3
    assert "back as last saved, at " in page.inner_text("#status")

    page.click("#mode-clues")
    page.fill("#row-clue-1", "2")
    page.reload()
    settled(page)
    assert page.get_attribute("body", "data-mode") == "clues" and page.input_value("#row-clue-1") == "2"
    page.click("#clear")  # Clear empties the clues; a reload keeps that too
    page.reload()
    settled(page)
    assert page.input_value("#row-clue-1") == ""


def test_a_grid_being_solved_comes_back_after_a_reload(page: Page) -> None:
    """A review found: the cells filled in to solve typed clues (which become the drawing when
    the clues have no single solution) and a "Solve it yourself" grid were lost on reload, while
    the page said the work was back."""
    page.set_input_files("#file-input", str(PUZZLES / "jwilk-data000.nin"))
    page.wait_for_selector("body[data-mode=clues]")
    settled(page)
    drag_along(page, 1, 1, 3)
    page.click(cell(2, 2))
    page.click(cell(2, 2))  # filled, then marked empty
    assert marked(page, "filled") == {(1, 1), (1, 2), (1, 3)} and marked(page, "crossed") == {(2, 2)}
    page.reload()
    settled(page)
    assert page.get_attribute("body", "data-mode") == "clues"
    assert marked(page, "filled") == {(1, 1), (1, 2), (1, 3)} and marked(page, "crossed") == {(2, 2)}

    page.click("#mode-draw")
    page.click("#clear")
    resize(page, 4, 4)
    draw(page, RING)
    settled(page)
    page.click("#play")
    page.click(cell(1, 2))
    page.click(cell(1, 1), button="right")
    page.reload()
    settled(page)
    assert page.get_attribute("body", "data-mode") == "draw" and "playing" in (
        page.get_attribute("body", "class") or ""
    )
    assert marked(page, "filled") == {(1, 2)} and marked(page, "crossed") == {(1, 1)}
    page.click("#back-to-drawing")
    assert marked(page, "filled") == set(RING)


def test_undo_and_redo_come_back_after_a_reload(page: Page) -> None:
    """A reload brought the work back but not its undo history: the steps before it were gone."""
    draw(page, [(1, 1), (2, 2), (3, 3)])
    page.click("#undo")
    assert marked(page, "filled") == {(1, 1), (2, 2)}
    settled(page)
    page.reload()
    settled(page)
    assert marked(page, "filled") == {(1, 1), (2, 2)}
    assert page.is_enabled("#undo") and page.is_enabled("#redo")
    page.click("#undo")
    assert marked(page, "filled") == {(1, 1)}
    page.click("#redo")
    page.click("#redo")
    assert marked(page, "filled") == {(1, 1), (2, 2), (3, 3)} and not page.is_enabled("#redo")
    page.click("#clear")
    page.reload()  # twice over: the history kept goes on being kept
    settled(page)
    assert marked(page, "filled") == set()
    page.click("#undo")
    assert marked(page, "filled") == {(1, 1), (2, 2), (3, 3)}


FILL_SESSION_STORAGE = """room => {
    sessionStorage.removeItem("filler");
    let low = 0, high = 1 << 24;  // the most characters that fit, less `room`
    while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        try { sessionStorage.setItem("probe", "x".repeat(mid)); low = mid; } catch (_) { high = mid - 1; }
        sessionStorage.removeItem("probe");
    }
    sessionStorage.setItem("filler", "x".repeat(Math.max(0, low - room)));
}"""


def test_a_history_too_large_to_keep_keeps_its_latest_steps(page: Page) -> None:
    """A reload with the tab's storage nearly full keeps the latest undo steps that fit (each
    snapshot here about 400 characters), not none and not the oldest."""
    strokes = [(row, column) for row in range(1, 11) for column in range(1, 5)]
    draw(page, strokes)
    settled(page)
    page.evaluate(FILL_SESSION_STORAGE, 4000)
    page.reload()
    settled(page)
    assert marked(page, "filled") == set(strokes)
    undone = 0
    while page.is_enabled("#undo"):
        page.click("#undo")
        undone += 1
        assert marked(page, "filled") == set(strokes[: len(strokes) - undone])
    assert 0 < undone < len(strokes)


def test_a_file_read_over_a_drawing_keeps_the_drawing_in_the_browser(page: Page) -> None:
    """A review found that a file read over a drawing could be undone, but a reload (which
    forgets the undo history) lost the drawing: the draft held the file's puzzle alone. The work
    it replaces is kept under "Kept in this browser" and opens again."""
    resize(page, 6, 5)
    draw(page, [(1, 1), (2, 3), (5, 6)])
    page.fill("#title", "Drawn first")
    settled(page)
    assert not page.is_visible("#drafts")
    page.set_input_files("#file-input", str(PUZZLES / "dancer.json"))
    page.wait_for_selector("#status:has-text('Read dancer.json')")
    page.reload()
    page.wait_for_selector("#drafts:not([hidden])")
    assert page.input_value("#title") == "Dancer"
    kept = page.inner_text("#draft-list")
    assert "Drawn first · 6×5" in kept, kept
    page.select_option("#draft-list", label=next(line for line in kept.splitlines() if "Drawn first" in line))
    page.click("#draft-open")
    page.wait_for_selector("#board tbody tr:nth-child(5) td.cell[data-col='6']")
    assert marked(page, "filled") == {(1, 1), (2, 3), (5, 6)} and page.input_value("#title") == "Drawn first"


def test_two_tabs_keep_each_others_work(browser: Browser, server: str) -> None:
    """A review found that whichever tab closed last wrote over the other's work: one draft for
    every tab. Each tab now keeps its own; a new tab starts from the latest, and the others are
    listed under "Kept in this browser"."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})

    def tab() -> Page:
        return new_tab(context, server)

    first = tab()
    draw(first, [(1, 1), (2, 2)])
    first.fill("#title", "first puzzle")
    settled(first)
    second = tab()
    assert "Your latest work is back" in second.inner_text("#status")
    assert second.input_value("#title") == "first puzzle"
    second.click("#clear")
    second.fill("#title", "second puzzle")
    draw(second, [(5, 5)])
    settled(second)
    first.wait_for_selector("#status:has-text('changed in another tab too')")
    first.fill("#title", "first puzzle v2")
    draw(first, [(3, 3)])
    settled(first)
    first.close(run_before_unload=True)
    second.close(run_before_unload=True)
    third = tab()
    assert "1 more is kept" in third.inner_text("#status")
    titles = {third.input_value("#title")} | {
        text.split(" · ")[0] for text in third.locator("#draft-list option").all_inner_texts()
    }
    assert titles == {"first puzzle v2", "second puzzle"}
    kept = third.input_value("#title")
    third.click("#draft-open")
    assert third.input_value("#title") == ({"first puzzle v2", "second puzzle"} - {kept}).pop()
    filled = {"first puzzle v2": {(1, 1), (2, 2), (3, 3)}, "second puzzle": {(5, 5)}}
    assert marked(third, "filled") == filled[third.input_value("#title")]
    context.close()


def test_two_tabs_solving_one_draft_keep_each_others_grid(browser: Browser, server: str) -> None:
    """The review of the mend that keeps a grid being solved with the draft: two tabs solving
    the same drawing wrote over each other's grid without a word (only the clues were compared)."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    first = new_tab(context, server)
    resize(first, 4, 4)
    draw(first, RING)
    settled(first)
    first.click("#play")
    first.click(cell(4, 4), button="right")
    first.evaluate("() => window.dispatchEvent(new Event('pagehide'))")  # kept now, as a reload would
    second = new_tab(context, server)
    assert marked(second, "crossed") == {(4, 4)}
    first.click(cell(1, 2))
    second.click(cell(3, 3))
    # the first's save (200 ms after its change) is heard by the second, which goes on apart
    second.wait_for_selector("#status:has-text('changed in another tab too')")
    for tab, own in ((first, (1, 2)), (second, (3, 3))):
        tab.reload()
        settled(tab)
        assert marked(tab, "filled") == {own} and marked(tab, "crossed") == {(4, 4)}
    context.close()


def test_a_draft_taken_up_forgotten_or_opened_elsewhere_is_never_lost(browser: Browser, server: str) -> None:
    """A review of the drafts found three ways to lose work: a tab that had not changed the draft
    it took up kept nothing when another tab wrote over it; a draft forgotten in one tab was gone
    for the tab still showing it; Undo after opening a draft wrote the tab's old work over it."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})

    def tab() -> Page:
        return new_tab(context, server)

    first = tab()
    draw(first, [(1, 1)])
    first.fill("#title", "kept")
    settled(first)
    first.close(run_before_unload=True)
    idle, busy = tab(), tab()  # both take up "kept"; only one of them changes it
    assert idle.input_value("#title") == busy.input_value("#title") == "kept"
    busy.click("#clear")
    busy.fill("#title", "other")
    draw(busy, [(5, 5)])
    settled(busy)
    idle.wait_for_selector("#status:has-text('changed in another tab too')")
    idle.close(run_before_unload=True)
    listed = {text.split(" · ")[0] for text in busy.locator("#draft-list option").all_inner_texts()}
    assert listed == {"kept"}
    busy.on("dialog", lambda dialog: dialog.accept())
    shown = tab()  # takes up the latest: the copy of "kept" that `idle` made
    assert shown.input_value("#title") == "kept"
    busy.select_option("#draft-list", label=busy.locator("#draft-list option").all_inner_texts()[0])
    busy.click("#draft-forget")  # forgets the draft `shown` shows: `shown` keeps it again
    shown.wait_for_timeout(500)
    shown.reload()
    settled(shown)
    assert shown.input_value("#title") == "kept" and marked(shown, "filled") == {(1, 1)}
    shown.click("#draft-open")  # "other", in this tab: Undo must not write "kept" over it
    assert shown.input_value("#title") == "other" and shown.is_disabled("#undo")
    context.close()


def test_storage_full_is_said_at_once_and_asked_about_before_leaving(page: Page) -> None:
    """A review filled the browser's storage: a 40x40 drawing was lost on reload without a word,
    and the page said the work was back as left. Now the author is told at once, and the
    browser asks before the page is left."""
    page.evaluate(
        """() => {
        for (const size of [1 << 20, 1 << 14, 1 << 10, 64]) {
          try { for (let i = 0; ; i += 1) localStorage.setItem(`filler-${size}-${i}`, "x".repeat(size)); } catch (_) {}
        }
        }"""
    )
    resize(page, 40, 40)
    draw(page, [(1, 1)])
    page.wait_for_selector("#status[data-kind=error]:has-text('storage is full')")
    with page.expect_event("dialog") as asked:
        page.close(run_before_unload=True)
    assert asked.value.type == "beforeunload"
    asked.value.dismiss()  # the author stays, and can download the puzzle
    assert marked(page, "filled") == {(1, 1)}
