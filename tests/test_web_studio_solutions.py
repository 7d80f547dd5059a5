"""The studio's other solutions and marks as authors use them (issue 38), in headless Chromium:
another solution compared with the drawing, two side by side while typing clues, outlined where
they differ (under the keyboard's cursor and on a large board too), Suggest and its colours,
Reveal saying what a player sees, and no mark outliving the verdict it belongs to. Each defect an
author met has a test here that failed before its fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import (  # noqa: F401  (fixtures)
    OCTAGON,
    RING,
    browser_fixture,
    cell,
    draw,
    marked,
    page_fixture,
    resize,
    server_fixture,
    settled,
)
from playwright.sync_api import Page

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_suggest_lists_only_edits_that_free_cells(page: Page) -> None:
    """Defect 9: "Suggest" listed edits that leave as many cells open as now."""
    resize(page, 8, 8)
    draw(page, OCTAGON)
    assert settled(page) == "multiple"
    now = int(re.search(r"(\d+) cells line logic leaves open", page.inner_text("#verdict")).group(1))  # type: ignore[union-attr]
    page.click("#suggest")
    page.wait_for_selector("#status:has-text('best first')")
    left = [int(n) for n in re.findall(r": (\d+) cells left open", page.inner_text("#suggestions"))]
    assert left and all(n < now for n in left), (now, left)

    resize(page, 6, 6)  # a smaller outline: no one-cell edit frees a cell (before, 5 that freed none)
    page.click("#clear")
    draw(page, [(1, 3), (1, 4), (6, 3), (6, 4), (3, 1), (4, 1), (3, 6), (4, 6), (2, 2), (2, 5), (5, 2), (5, 5)])
    assert settled(page) == "multiple"
    page.click("#suggest")
    page.wait_for_selector("#status:has-text('No one-cell edit')")
    assert page.locator("#suggestions li").count() == 0


def test_another_solution_is_compared_with_the_drawing(page: Page) -> None:
    """Defect 2: the outlined cells were where two other solutions differ, not where the drawing
    is not forced. The octagon's first two solutions (from the server) are both not the drawing."""
    resize(page, 8, 8)
    draw(page, OCTAGON)
    assert settled(page) == "multiple"
    rows = page.get_attribute("#other-canvas", "data-rows")
    assert rows is not None
    other = {(r, c) for r, row in enumerate(rows.split("/"), 1) for c, ch in enumerate(row, 1) if ch == "#"}
    differ = other ^ set(OCTAGON)
    assert other != set(OCTAGON) and len(differ) > 4
    assert marked(page, "differs") == differ
    assert f"{len(differ)} cells differ from another solution" in page.inner_text("#verdict")
    assert "from the drawing" in page.inner_text("#other-caption")


def test_typing_clues_of_several_solutions_shows_two_side_by_side(page: Page) -> None:
    """A review found only the second of two solutions drawn while typing clues, its outlines on
    an empty board: the author could not see the first."""
    resize(page, 4, 4)
    draw(page, RING)
    assert settled(page) == "multiple"
    assert page.is_hidden("#first-canvas")  # drawing: the board is the first
    page.click("#mode-clues")
    assert settled(page) == "multiple"
    page.wait_for_selector("#first-canvas:not([hidden])")
    grids = []
    for name in ("#first-canvas", "#other-canvas"):
        rows = page.get_attribute(name, "data-rows")
        assert rows is not None
        grids.append({(r, c) for r, row in enumerate(rows.split("/"), 1) for c, ch in enumerate(row, 1) if ch == "#"})
    first, second = grids

    def runs(cells: list[bool]) -> list[int]:
        return [len(run) for run in "".join("#" if cell else "." for cell in cells).split(".") if run]

    def clues(grid: set[tuple[int, int]]) -> tuple[list[list[int]], list[list[int]]]:
        rows = [runs([(r, c) in grid for c in range(1, 5)]) for r in range(1, 5)]
        return rows, [runs([(r, c) in grid for r in range(1, 5)]) for c in range(1, 5)]

    assert clues(first) == clues(second) == clues(set(RING))  # each is a solution of the ring's clues
    assert first != second and marked(page, "differs") == first ^ second
    assert "Two solutions; the cells where they differ are outlined on both." == page.inner_text("#other-caption")


def test_the_cursor_on_a_cell_where_solutions_differ_shows_both_marks(page: Page) -> None:
    """A review found a cell under the keyboard's cursor showing only the cursor's outline, not
    that another solution differs there (8 cells differ, 7 outlined)."""
    resize(page, 4, 4)
    draw(page, RING)
    assert settled(page) == "multiple"
    first = sorted(marked(page, "differs"))[0]
    page.focus("#board")
    styles = page.eval_on_selector(
        cell(*first),
        """td => { document.querySelectorAll('#board td.cursor').forEach(c => c.classList.remove('cursor'));
                   td.classList.add('cursor'); const s = getComputedStyle(td);
                   return [s.outlineColor, s.boxShadow, getComputedStyle(document.documentElement)
                           .getPropertyValue('--differs')]; }""",
    )
    outline, shadow, differs = styles
    assert differs.strip() == "#e0182d" and "rgb(224, 24, 45)" in shadow and "224, 24, 45" not in outline


def test_reveal_and_the_other_solution_say_what_a_player_sees(page: Page) -> None:
    """A review found Reveal saying "Solved (cdcl)." (the engine's name), and, while a player
    solves a drawing, the caption of the other solution saying its cells are "outlined, here and
    on the board", where the board hides them."""
    resize(page, 8, 8)
    draw(page, OCTAGON)
    assert settled(page) == "multiple"
    caption = "#other-caption"
    assert "outlined here and on the board." in page.inner_text(caption)
    page.click("#play")
    page.wait_for_selector("body.playing")
    assert page.inner_text(caption).endswith("outlined here.") and marked(page, "differs")
    page.click("#reveal")
    page.wait_for_selector("#status:has-text('Solved')")
    said = page.inner_text("#status")
    hows = ("by line logic", "by search", "by a SAT solver")
    # and whether it is the only one (a review: "Solved by search." on clues of several)
    assert said in [f"Solved {how}: one of several solutions." for how in hows], said
    page.click("#back-to-drawing")
    page.click("#clear")
    draw(page, [(1, 1), (1, 2), (2, 1)])
    assert settled(page) == "unique"
    page.click("#play")
    page.click("#reveal")
    page.wait_for_selector("#status:has-text('Solved')")
    assert page.inner_text("#status") == "Solved by line logic, the only solution.", page.inner_text("#status")


def test_a_suggestion_in_colour_sets_the_colour_it_names(page: Page, tmp_path: Path) -> None:
    """A review: in a palette of black `X` and green `#` (nonny's Tree), every suggestion said
    "black" and set a cell black, where the server had said green: the page read `#` as colour 1."""
    from nonosat import Colour, Puzzle, save

    palette = (Colour("white", "#ffffff", "."), Colour("black", "#000000", "X"), Colour("green", "#00b000", "#"))
    ring = [[0, 2, 2, 0], [2, 0, 0, 2], [2, 0, 0, 2], [0, 2, 2, 0]]
    save(Puzzle.from_grid(ring, palette, title="Green ring"), tmp_path / "green-ring.json")
    page.set_input_files("#file-input", str(tmp_path / "green-ring.json"))
    page.wait_for_selector("#status:has-text('Read green-ring.json')")
    assert settled(page) == "multiple"
    with page.expect_response("**/api/suggest*") as answered:
        page.click("#suggest")
    edits = answered.value.json()["edits"]
    page.wait_for_selector("#status:has-text('best first')")
    index = next(i for i, edit in enumerate(edits) if edit["colour"] == "#")  # the colour the bug mistook
    row, column = edits[index]["cell"]
    button = page.locator("#suggestions button").nth(index)
    assert f"row {row}, column {column} → green" in button.inner_text()
    button.click()
    shown = page.eval_on_selector(cell(row, column), "td => getComputedStyle(td).backgroundColor")
    assert shown == "rgb(0, 176, 0)", shown


def test_the_other_solutions_outlines_show_on_a_large_board(page: Page) -> None:
    """A review: at 40x40 the other solution's picture had 6 px cells outlined by a 1 px dark red
    line that the browser blurred away: not one pixel of it red, and none on a filled cell."""
    resize(page, 40, 40)
    draw(page, RING)  # a 4x4 ring in the corner: two solutions
    assert settled(page) == "multiple"
    differ = marked(page, "differs")
    assert differ
    reds = page.evaluate(
        """(cells) => {
        const canvas = document.querySelector("#other-canvas");
        const scale = canvas.width / 40;
        const g = canvas.getContext("2d");
        return cells.map(([r, c]) => {
            const data = g.getImageData((c - 1) * scale, (r - 1) * scale, scale, scale).data;
            let red = 0;
            for (let i = 0; i < data.length; i += 4) red += data[i] > 200 && data[i + 1] < 60 && data[i + 2] < 80;
            return red;
        });
    }""",
        sorted(differ),
    )
    assert all(count >= 4 for count in reds), reds  # every differing cell outlined in red that shows


def test_no_marks_outlive_the_verdict_they_belong_to(page: Page) -> None:
    """A review: a clue typed that cannot be read (the verdict "invalid") left the last verdict's
    outlined cells, shaded cells, conflicting lines and its other solution on show; and a check
    that failed (the server gone) left the other solution, its caption pointing at outlines
    that were gone."""
    resize(page, 4, 4)
    draw(page, RING)
    assert settled(page) == "multiple" and marked(page, "differs") and page.is_visible("#other-solution")
    page.click("#mode-clues")
    page.fill("#row-clue-1", "2 x")
    assert settled(page) == "invalid"
    assert marked(page, "differs") == set() and marked(page, "open") == set() and page.is_hidden("#other-solution")
    page.fill("#row-clue-1", "9")
    assert settled(page) == "none" and page.locator("#board th.conflict").count()
    page.fill("#row-clue-1", "-1")
    assert settled(page) == "invalid" and page.locator("#board th.conflict").count() == 0

    page.fill("#row-clue-1", "2")
    assert settled(page) == "multiple" and page.is_visible("#other-solution")
    page.route("**/api/check?*", lambda route: route.abort())
    page.fill("#row-clue-2", "1 1 ")
    assert settled(page) == "error"
    assert marked(page, "differs") == set() and page.is_hidden("#other-solution")
