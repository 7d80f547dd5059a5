"""The studio's typed clues and palette as authors use them (issue 38), in headless Chromium: typing
the clues and drawing again keeps the drawing (across a reload, and remapped when a colour is
removed), a removed colour's blocks leave the clues, every colour character (a digit, the dot)
reads as the command line reads it, the page's grammar reads back every colour file as the server
does, and clues that cannot be read or have no single solution are kept and said so. Each defect
an author met has a test here that failed before its fix."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from browser import (  # noqa: F401  (fixtures)
    PUZZLES,
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

from nonosat import check, load

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_typing_the_clues_and_back_keeps_an_ambiguous_drawing(page: Page) -> None:
    """Defect 5: "Type the clues" then "Draw the picture" left an empty grid."""
    resize(page, 4, 4)
    draw(page, RING)
    assert settled(page) == "multiple"
    page.click("#mode-clues")
    assert settled(page) == "multiple"
    page.click("#mode-draw")
    assert marked(page, "filled") == set(RING)
    assert settled(page) == "multiple"


def test_typing_the_clues_a_reload_and_back_keeps_an_ambiguous_drawing(page: Page) -> None:
    """A review found: the drawing kept for the way back lived in the page only, so after a reload
    in clues mode "Draw the picture" gave an empty grid (and undo did not bring it back)."""
    resize(page, 4, 4)
    draw(page, RING)
    assert settled(page) == "multiple"
    page.click("#mode-clues")
    settled(page)
    page.reload()
    settled(page)
    assert page.get_attribute("body", "data-mode") == "clues"
    page.click("#mode-draw")
    assert marked(page, "filled") == set(RING)
    page.click("#undo")  # back to the clues, and forward to the drawing again
    assert page.get_attribute("body", "data-mode") == "clues"
    page.click("#mode-draw")
    assert marked(page, "filled") == set(RING)


def test_removing_a_colour_while_typing_clues_remaps_the_drawing_kept_for_the_way_back(page: Page) -> None:
    """A review found the drawing kept for the way back (now saved with the rest) left with the
    old palette's numbers when a colour was removed while typing clues: shifted or missing colours."""
    kept = page.evaluate(
        """async () => {
        const model = await import("/static/model.js");
        const { state } = model;
        model.addColour("#ff0000");
        model.addColour("#0000ff");
        state.drawn = { grid: [1, 2, 3, 0], width: 2, height: 2, texts: "" };
        model.removeColour(2);
        return [state.drawn.grid, state.palette.length];
    }"""
    )
    assert kept == [[1, 0, 2, 0], 3]


def test_removing_a_colour_takes_its_blocks_out_of_the_typed_clues(page: Page) -> None:
    """Typed clues that named a removed colour were left as typed, each then "cannot read"; with
    the palette left black and white, every typed clue was (its "2b" no longer read)."""
    texts = page.evaluate(
        """async () => {
        const model = await import("/static/model.js");
        const { state } = model;
        const colours = [
          { name: "white", rgb: "#ffffff", char: "." },
          { name: "black", rgb: "#000000", char: "b" },
          { name: "red", rgb: "#ff0000", char: "r" },
          { name: "blue", rgb: "#0000ff", char: "u" },
        ];
        const clues = [[[1, "red"]], [[1, "black"]]];
        model.loadPuzzle({ rows: clues, cols: clues, palette: colours });
        state.mode = "clues";
        state.rowText = ["2r 1b, 1u", "1b,1u", "3x"];
        state.colText = ["1u", "", "1r"];
        model.removeColour(2);
        const once = [state.rowText.slice(), state.colText.slice(), model.clues().rows.map((c) => c !== null)];
        model.removeColour(2);
        return [once, [state.rowText, state.colText, model.clues().rows.map((c) => c !== null)]];
    }"""
    )
    assert texts == [
        [["1b 1u", "1b,1u", "3x"], ["1u", "", ""], [True, True, False]],
        [["1", "1", "3x"], ["", "", ""], [True, True, False]],
    ]


def test_a_palette_left_white_and_black_is_black_and_white_with_its_characters(page: Page) -> None:
    """A review found a puzzle whose black is "X" (corpus easy.pbn #2) with its yellow removed
    written in X where black and white reads #: a wrong verdict ("the drawing does not fit"), an
    export without its goal, an empty reveal. Recolouring to white and black alone does the same."""
    found = page.evaluate(
        """async () => {
        const model = await import("/static/model.js");
        const { recolour } = await import("/static/reshape.js");
        const colours = [
          { name: "white", rgb: "#ffffff", char: "." },
          { name: "black", rgb: "#000000", char: "X" },
          { name: "yellow", rgb: "#ffff00", char: "@" },
        ];
        const one = [[[1, "black"]], [[1, "yellow"]]];
        model.loadPuzzle({ rows: one, cols: one, palette: colours, goal: ["X.", ".@"] });
        model.removeColour(2);
        const removed = [model.state.palette.map((c) => c.char).join(""), model.toPuzzle().goal];
        model.loadPuzzle({ rows: one, cols: one, palette: colours, goal: ["X.", ".@"] });
        model.removeColour(1);
        recolour(1, "#000000");
        return [removed, [model.state.palette.map((c) => c.char).join(""), model.toPuzzle().goal]];
    }"""
    )
    assert found == [[".#", ["#.", ".."]], [".#", ["..", ".#"]]]


def test_drawing_again_after_unreadable_clues_says_they_cannot_be_read(page: Page) -> None:
    """A review found clues that cannot be read called "not in yet" on the way back to drawing."""
    resize(page, 5, 5)
    draw(page, [(1, 1), (1, 2), (1, 3)])
    settled(page)
    page.click("#mode-clues")
    settled(page)
    page.fill("#row-clue-2", "2 x")
    page.wait_for_selector("#verdict[data-status=invalid]")
    page.click("#mode-draw")
    assert "cannot be read" in page.inner_text("#status"), page.inner_text("#status")
    assert marked(page, "filled") == {(1, 1), (1, 2), (1, 3)}


RAINBOW = Path("colour/nonny/data/puzzles/color/rainbow.non")


def test_a_colour_whose_character_is_a_digit_reads_as_the_command_line_reads_it(page: Page, corpus: Path) -> None:
    """Defect 3: Nonny's rainbow.non ("0" is green) imported as "No solution" ("2 green" read as
    20) where `nonosat check` says unique."""
    path = corpus / RAINBOW
    if not path.exists():
        pytest.skip(f"{RAINBOW} is not in this corpus")
    page.set_input_files("#file-input", str(path))
    page.wait_for_selector("#status:has-text('Read rainbow.non')")
    assert settled(page) == "unique"
    assert "2:0" in page.input_value("#row-clue-3")  # 2 green, the colour after a colon
    page.click("#reveal")
    page.wait_for_function("!document.querySelector('#board td.cell.unknown')")
    checked = check(load(path)).result
    assert checked.status.value == "unique"
    solution = checked.solutions[0].grid
    assert marked(page, "filled") == {(r, c) for r, row in enumerate(solution, 1) for c, v in enumerate(row, 1) if v}


DOT_IS_BLACK = "#d\n @:@ #0000FF\n 0:+ white\n 1:. black\n: rows\n1 1@\n2\n1@\n: columns\n1 1@\n1\n1@ 1\n"
"""Olsak's .g as dvekocky.g writes it: the background is `+`, and `.` is black. The solution:
black, blank, blue; blank, black, black; blue, blank, blank."""


def test_solving_on_the_page_when_a_colour_is_the_dot(page: Page, tmp_path: Path) -> None:
    """A review found that the page took `.` for a cell marked blank whatever the palette: with
    black `.`, a right click painted the cell black, Hint called the cell marked blank wrong, and
    Reveal drew every black cell crossed out."""
    path = tmp_path / "dot.g"
    path.write_text(DOT_IS_BLACK)
    page.set_input_files("#file-input", str(path))
    page.wait_for_selector("#status:has-text('Read dot.g')")
    assert settled(page) == "unique"
    page.click("#play")
    page.click(cell(1, 2), button="right")  # marked blank, as it is in the solution
    assert marked(page, "crossed") == {(1, 2)} and not marked(page, "filled")
    page.click("#hint")
    page.wait_for_selector("#status:not([data-kind=busy])")
    assert page.get_attribute("#status", "data-kind") != "error", page.inner_text("#status")
    assert not marked(page, "wrong")
    page.click("#reveal")
    page.wait_for_function("!document.querySelector('#board td.cell.unknown')")
    assert marked(page, "crossed") == {(1, 2), (2, 1), (3, 2), (3, 3)}
    assert marked(page, "filled") == {(1, 1), (1, 3), (2, 2), (2, 3), (3, 1)}


def test_every_colour_character_survives_the_typed_clue(page: Page) -> None:
    """The page's grammar of typed clues reads back what it writes, for every character a palette
    may use (digits, a colon, a comma, letters, symbols), and refuses what it cannot read."""
    wrong = page.evaluate(
        """async () => {
        const model = await import("/static/model.js");
        const chars = [..."abcXYZ#@*0123456789:,.;-+%"];
        const wrong = [];
        for (const first of chars) {
          for (const second of chars) {
            if (first === second || first === ".") continue;
            const palette = [{name: "white", rgb: "#ffffff", char: "."},
                             {name: "one", rgb: "#ff0000", char: first}, {name: "two", rgb: "#00ff00", char: second}];
            const clue = [[2, 1], [10, 2], [1, 2], [3, 1]];
            const text = model.clueText(clue, palette);
            const back = model.parseClue(text, "row 1", palette);
            if (JSON.stringify(back) !== JSON.stringify(clue)) wrong.push([first, second, text, back]);
          }
        }
        for (const bad of ["2:", "2:q", "x", "2rr", ":0"]) {
          const palette = [{char: "."}, {char: "r"}, {char: "0"}];
          try { model.parseClue(bad, "row 1", palette); wrong.push(["accepted", bad]); } catch (_) {}
        }
        return wrong;
    }"""
    )
    assert wrong == []


ROUND_TRIP = """async ([name, base64]) => {
  // The server reads the file; the page writes its clues as typed text and reads them back.
  const model = await import("/static/model.js");
  const form = new FormData();
  form.append("file", new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]), name);
  const answer = await fetch("/api/convert?to=json", { method: "POST", body: form });
  if (!answer.ok) return { skipped: await answer.text() };
  const puzzle = await answer.json();
  const saved = JSON.stringify(model.state);
  model.loadPuzzle(puzzle, { preferClues: true });
  const typed = model.toPuzzle(false);
  Object.assign(model.state, JSON.parse(saved));
  const block = (b) => (Array.isArray(b) ? `${b[0]}:${b[1]}` : `${b}`);
  const norm = (lines) => lines.map((clue) => clue.map(block).join(" "));
  const theirs = { rows: norm(puzzle.rows), cols: norm(puzzle.cols || puzzle.columns) };
  const ours = { rows: norm(typed.rows), cols: norm(typed.cols) };
  return { same: JSON.stringify(theirs) === JSON.stringify(ours), theirs, ours };
}"""


def test_the_pages_typed_clues_read_back_as_the_server_reads_every_colour_file(page: Page, corpus: Path) -> None:
    """One grammar, tested: every colour file of the corpus that holds one puzzle, as the server
    reads it, written by the page as typed clues and read back by the page, gives the server's
    clues and colours (rainbow.non's digit character among them)."""
    from nonosat.formats import load_all

    files = []
    for path in sorted((corpus / "colour").rglob("*")):
        if path.is_file() and path.name not in ("SOURCE", "LICENSE", "COPYING") and path.suffix not in (".md", ".rs"):
            try:
                puzzles = load_all(path)
            except Exception:  # not a puzzle file nonosat reads (sources, manifests)
                continue
            if len(puzzles) == 1 and puzzles[0].is_colour:
                files.append(path)
    if not files:
        pytest.skip("no colour files in this corpus")
    assert any(path.name == "rainbow.non" for path in files)
    for path in files:
        seen = page.evaluate(ROUND_TRIP, [path.name, base64.b64encode(path.read_bytes()).decode()])
        assert "skipped" not in seen, (path, seen)
        assert seen["same"], (path, seen["theirs"]["rows"][:3], seen["ours"]["rows"][:3])
    assert len(files) >= 15


def test_drawing_the_picture_of_clues_without_a_single_solution_keeps_them(page: Page) -> None:
    """A review: the colour ring's clues (two solutions), imported, became an empty drawing with
    every clue 0 and the verdict "unique", without a word, at "Draw the picture"."""
    page.set_input_files("#file-input", str(PUZZLES / "ring-colour.non"))
    page.wait_for_selector("#status:has-text('Read ring-colour.non')")
    assert settled(page) == "multiple"
    clues = page.inner_text("#board thead") + page.inner_text("#board tbody")
    page.click("#mode-draw")
    assert page.get_attribute("body", "data-mode") == "draw"
    assert "several solutions: the drawing is the first one found" in page.inner_text("#status")
    assert len(marked(page, "filled")) == 7 and settled(page) == "multiple"  # a solution's cells, the same clues
    assert page.inner_text("#board thead") + page.inner_text("#board tbody") == clues
    page.set_input_files("#file-input", str(PUZZLES / "broken-cross.non"))
    page.wait_for_selector("#status:has-text('Read broken-cross.non')")
    assert settled(page) == "none"
    page.click("#mode-draw")
    assert page.get_attribute("body", "data-mode") == "clues"  # nothing to draw: the clues stay
    assert "no solution to draw" in page.inner_text("#status")


def test_clues_that_cannot_be_read_never_take_the_last_verdicts_solution(page: Page) -> None:
    """A review: with a clue typed that cannot be read (the verdict "invalid"), Draw the picture
    drew the solution of the clues before, without a word."""
    page.set_input_files("#file-input", str(PUZZLES / "dancer.clues"))
    page.wait_for_selector("#status:has-text('Read dancer.clues')")
    assert settled(page) == "unique" and page.get_attribute("body", "data-mode") == "clues"
    page.fill("#row-clue-1", "2 x")
    assert settled(page) == "invalid"
    page.click("#mode-draw")
    assert page.get_attribute("body", "data-mode") == "clues" and page.input_value("#row-clue-1") == "2 x"
    assert "These clues cannot be read: mend them" in page.inner_text("#status")
