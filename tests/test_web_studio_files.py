"""The studio's files and pictures as authors use them (issue 38), in headless Chromium: a file of
several puzzles offers the choice of one, a file's title, author, copyright, licence and
description are written back in every format that holds them, and "Use it" takes the preview of
the picture settings shown. Each defect an author met has a test here that failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import (  # noqa: F401  (fixtures)
    PUZZLES,
    RING,
    browser_fixture,
    cell,
    draw,
    page_fixture,
    resize,
    server_fixture,
    settled,
)
from playwright.sync_api import Page, Route

from nonosat import check, load

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_use_it_waits_for_the_preview_of_the_settings_shown(page: Page) -> None:
    """A review found "Use it", pressed just after a setting changed, taking the preview of the
    settings before (a 20x10 black-and-white grid instead of the 30x15 colour one asked for)."""
    page.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    page.wait_for_selector("#picture-preview[data-state=ready]")
    assert page.is_enabled("#picture-use")
    held: list[Route] = []
    page.route("**/api/picture?*", lambda route: held.append(route))  # the new preview waits
    page.fill("#picture-width", "15")
    assert not page.is_enabled("#picture-use")
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()
    page.wait_for_function("document.querySelector('#picture-info').textContent.startsWith('15×15 cells')")
    assert page.is_enabled("#picture-use")


def test_a_file_of_several_puzzles_offers_the_choice_of_one(page: Page, corpus: Path) -> None:
    """Defect 4: a file of several puzzles (easy.pbn, a tournament file) could not be opened:
    "select one as FILE#N", and no way to choose."""
    easy = corpus / "colour/ianprime0509-nonograms/puzzles/easy.pbn"
    tournament = corpus / "tcga/question/taai2011.txt"
    if not easy.exists() or not tournament.exists():
        pytest.skip("easy.pbn or taai2011.txt is not in this corpus")
    page.set_input_files("#file-input", str(easy))
    page.wait_for_selector("#puzzle-choice:not([hidden])")
    options = page.locator("#choice-list option").all_inner_texts()
    assert options == ["#1 A place I like to be (10×10)", "#2 In a cheerful mood (10×10, 2 colours)"]
    page.select_option("#choice-list", "2")
    page.click("#choice-open")
    page.wait_for_selector("#status:has-text('Read easy.pbn #2')")
    assert page.is_hidden("#puzzle-choice")
    assert page.locator("#palette .swatch").count() == 3
    assert settled(page) == check(load(f"{easy}#2")).result.status.value

    page.set_input_files("#file-input", str(tournament))
    page.wait_for_selector("#puzzle-choice:not([hidden])")
    assert page.locator("#choice-list option").count() == 1000
    assert page.locator("#choice-list option").first.inner_text() == "#1 (25×25)"  # was "#1 #1 (25×25)"
    page.select_option("#choice-list", "500")
    page.click("#choice-open")
    page.wait_for_selector("#status:has-text('Read taai2011.txt #500')")
    assert page.locator("#board td.cell").count() == 25 * 25
    assert settled(page) == check(load(f"{tournament}#500")).result.status.value

    # a review: after Cancel, the line asking to choose one stayed, and stayed when a picture came
    page.set_input_files("#file-input", str(tournament))
    page.wait_for_selector("#puzzle-choice:not([hidden])")
    page.click("#choice-cancel")
    assert page.is_hidden("#puzzle-choice") and page.inner_text("#status") == "Nothing opened from taai2011.txt."
    page.set_input_files("#file-input", str(tournament))
    page.wait_for_selector("#puzzle-choice:not([hidden])")
    page.set_input_files("#file-input", str(PUZZLES / "smiley-picture.png"))
    page.wait_for_selector("#picture-panel:not([hidden])")
    assert page.is_hidden("#puzzle-choice") and "choose one" not in page.inner_text("#status")


def test_title_author_copyright_and_licence_are_exported_in_every_format_that_holds_them(
    page: Page, tmp_path: Path
) -> None:
    resize(page, 4, 4)
    draw(page, RING + [(3, 3)])
    fields = {"title": "Ring", "author": "A. Author", "copyright": "© 2026 A. Author", "license": "CC BY 4.0"}
    for key, value in fields.items():
        page.fill(f"#{key}", value)
    assert settled(page) == "unique"
    for fmt, kept in (("non", set(fields)), ("xml", set(fields) - {"license"}), ("nin", set())):
        page.select_option("#export-format", fmt)
        with page.expect_download() as download:
            page.click("#export")
        saved = tmp_path / f"ring.{fmt}"
        download.value.save_as(saved)
        puzzle = load(saved)
        assert {key for key in fields if getattr(puzzle, key) == fields[key]} == kept, fmt
        status = page.inner_text("#status")
        assert ("cannot hold" in status) == (kept != set(fields)), status
        assert check(puzzle).result.status.value == "unique"
    page.reload()
    settled(page)
    assert {key: page.input_value(f"#{key}") for key in fields} == fields  # kept in the browser too


def test_a_description_read_from_a_file_is_written_back(page: Page) -> None:
    """The review of a mend: the page kept a file's title, author, copyright, licence and
    catalogue entry, not its description, so that an XML file exported again lost it unsaid."""
    kept = page.evaluate(
        """async () => {
        const model = await import("/static/model.js");
        const one = [[1], [1]];
        model.loadPuzzle({ rows: one, cols: one, title: "T", catalogue: "7", description: "Skid-steer loader" });
        const puzzle = model.toPuzzle();
        return [puzzle.title, puzzle.catalogue, puzzle.description];
    }"""
    )
    assert kept == ["T", "7", "Skid-steer loader"]
