"""Explain on colour puzzles (issue 16): the steps of `explain` are replayed cell by cell
against a line deduction of the tests' own (tests/colour_explained.py), and the last one must
leave the solution; and what the command line prints of them, of its line statistics and of its
hints.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from colour_explained import BLUE, LINE_SOLVABLE, NEEDS_PROBING, RGB, VICERES, colour_file, replay, solution_of
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.explain.hint import hint, parse_state
from nonosat.explain.rating import rate
from nonosat.explain.steps import explain, trace
from nonosat.explain.words import choice_words, colour_word, spans, unknown_mark
from nonosat.model import Puzzle
from nonosat.palette import BLACK_AND_WHITE, WHITE, Colour

runner = CliRunner()


# --- explain ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LINE_SOLVABLE)
def test_the_steps_of_a_line_solvable_colour_puzzle_replay_to_its_solution(corpus: Path, name: str) -> None:
    puzzle = load(colour_file(corpus, name))
    logic = trace(puzzle)
    assert logic.complete and logic.level == "line" and logic.steps
    grid = solution_of(replay(puzzle, logic.steps), puzzle)
    assert puzzle.satisfied_by(grid) and grid == logic.board.grid()
    if puzzle.goal is not None:
        assert grid == puzzle.goal


def test_probe_steps_in_colour_are_sound_and_the_rest_replays(corpus: Path) -> None:
    puzzle = load(colour_file(corpus, NEEDS_PROBING))
    assert puzzle.goal is not None
    logic = trace(puzzle)
    assert logic.complete and logic.level == "probe"
    probes = [step for step in logic.steps if step.kind == "probe"]
    assert probes and all(step.probe in [*step.fixed, *(c for c, _ in step.narrowed)] for step in probes)
    assert solution_of(replay(puzzle, logic.steps, puzzle.goal), puzzle) == puzzle.goal


def small_puzzle() -> Puzzle:
    """5x4, three colours; line logic solves it."""
    grid = [[1, 1, 2, 3, 0], [0, 3, 2, 1, 1], [3, 3, 3, 1, 1], [1, 3, 0, 0, 1]]
    return Puzzle.from_grid(grid, RGB)


def test_steps_name_the_colours_of_the_clue_and_of_the_cells() -> None:
    puzzle = small_puzzle()
    logic = trace(puzzle)
    assert logic.complete
    replay(puzzle, logic.steps)
    first, second = logic.steps[:2]
    # column 5 (3red) and row 1 (no red block last) leave its last cell blank: rrbg. is all that fits
    assert first.clue_text == "2red 1blue 1green"
    assert first.describe() == (
        "row 1, clue 2red 1blue 1green: ????? -> rrbg.; columns 1-2 red; column 3 blue; column 4 green; column 5 blank"
    )
    assert second.describe() == (
        "row 2, clue 1green 1blue 2red: ????? -> ??brr; columns 4-5 red; column 3 blue; columns 1-2 blank or green"
    )
    assert second.narrowed == (((1, 0), (0, 3)), ((1, 1), (0, 3)))
    worded = [step.fixed_text() for step in logic.steps]
    assert all(worded) and not any(word in text for text in worded for word in ("filled", "empty"))


def test_a_colour_whose_character_is_a_question_mark_leaves_open_cells_another_mark() -> None:
    gold = Colour("gold", "#ffd700", "?")
    puzzle = Puzzle.from_grid([[1, 1, 0], [0, 2, 2], [1, 0, 2]], (WHITE, gold, BLUE))
    logic = trace(puzzle)
    assert logic.complete
    assert solution_of(replay(puzzle, logic.steps), puzzle) == puzzle.goal
    assert any("_" in step.before for step in logic.steps)
    state = parse_state("??_\n___\n?__\n", puzzle, "state.txt")
    assert state[0] == (1, 1, None) and state[2] == (1, None, None)


def test_words() -> None:
    assert spans([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert colour_word(BLACK_AND_WHITE, 1) == "filled" and colour_word(BLACK_AND_WHITE, 0) == "empty"
    assert colour_word(RGB, 0) == "blank" and colour_word(RGB, 2) == "blue"
    assert choice_words(RGB, (1, 2, 3)) == "not blank"
    assert choice_words(RGB, (0, 1, 3)) == "not blue"
    assert choice_words(RGB, (0, 2)) == "blank or blue"
    assert choice_words(RGB, (1, 2)) == "red or blue"
    assert unknown_mark(".#") == "?" and unknown_mark(".?b") == "_"


@pytest.fixture
def no_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any SAT call (a formula built, a solver made) fails the test."""
    import nonosat.solver.encodings.grid
    import nonosat.solver.session

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a SAT call")

    monkeypatch.setattr(nonosat.solver.encodings.grid, "build_formula", refuse)
    monkeypatch.setattr(nonosat.solver.session.Search, "__init__", refuse)


@pytest.mark.usefixtures("no_sat")
def test_a_line_solvable_colour_puzzle_is_explained_rated_and_hinted_without_sat(corpus: Path, tmp_path: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    puzzle = load(path)
    explained = explain(puzzle)
    assert explained.open_cells == 0 and explained.search is None
    done = runner.invoke(app, ["explain", path])
    assert done.exit_code == 0, done.output
    lines = done.stdout.strip().splitlines()
    assert (
        lines[-1]
        == f"solved by line logic in {len(explained.logic.steps)} steps"
        == f"solved by line logic in {len(lines) - 1} steps"
    )
    steps = json.loads(runner.invoke(app, ["explain", path, "--json"]).stdout)["steps"]
    assert [step["reason"] for step in steps] == [step.describe() for step in explained.logic.steps]
    rated = rate(puzzle)
    assert rated.level == "line" and rated.score in (1, 2, 3) and rated.result is None
    done = runner.invoke(app, ["rate", path])
    assert done.exit_code == 0 and "line · difficulty" in done.stdout
    state = tmp_path / "state.txt"
    state.write_text("\n".join("?" * puzzle.width for _ in range(puzzle.height)) + "\n")
    found = hint(puzzle, parse_state(state.read_text(), puzzle, "state.txt"), steps=3)
    # three steps that fix cells, with the ones before them that only rule colours out
    assert [step.describe() for step in found.steps] == [
        step.describe() for step in explained.logic.steps[: len(found.steps)]
    ]
    assert [bool(step.fixed) for step in found.steps].count(True) == 3 and found.steps[-1].fixed
    assert runner.invoke(app, ["hint", path, "--state", str(state)]).exit_code == 0


def test_explain_ends_on_search_for_an_ambiguous_colour_puzzle(corpus: Path) -> None:
    path = colour_file(corpus, VICERES)
    explained = explain(load(path))
    assert explained.open_cells == 8 and explained.search is not None
    assert explained.search.status.value == "multiple"
    done = runner.invoke(app, ["explain", path])
    assert done.exit_code == 1 and "search goes on from here" in done.stdout and "(SAT)" not in done.stdout


# --- live and line statistics -------------------------------------------------------------------


def test_linestats_on_a_colour_puzzle_name_the_colours_of_the_clues(corpus: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    done = runner.invoke(app, ["solve", path, "--linestats"], env={"COLUMNS": "160"})
    assert done.exit_code == 0
    table = done.stdout.split("line logic, per line")[1]
    assert "4black 2brown 4black" in table
    for r in range(10):
        assert f"row {r + 1} " in table and f"column {r + 1} " in table


@pytest.mark.slow
def test_live_still_solves_a_colour_puzzle(corpus: Path) -> None:
    path = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    done = runner.invoke(app, ["solve", path, "--live", "--ascii"], env={"COLUMNS": "160"})
    assert done.exit_code == 0 and "unique" in done.stdout


# --- the words on the command line (render/text.py and render/records.py) -----------------------


def test_explain_and_hint_print_what_each_step_makes_of_the_colours(corpus: Path, tmp_path: Path) -> None:
    tree = colour_file(corpus, "nonny/data/puzzles/color/tree.non")
    lines = runner.invoke(app, ["explain", tree]).stdout.splitlines()
    assert lines[0] == "1. row 1, clue 0: ?????????? -> .......... (columns 1-10 blank)"
    assert (
        "2. row 2, clue 2green: ?????????? -> no cell fixed, colours ruled out (columns 1, 10 blank or green)" in lines
    )
    assert (
        "10. row 10, clue 4black 2brown 4black: ?????????? -> XXXX@@XXXX (columns 1-4, 7-10 black; columns 5-6 brown)"
    ) in lines
    steps = json.loads(runner.invoke(app, ["explain", tree, "--json"]).stdout)["steps"]
    assert steps[9]["clue"] == [[4, "black"], [2, "brown"], [4, "black"]] and steps[9]["narrowed"] == []
    assert steps[1]["narrowed"] == [
        {"cell": [2, 1], "colours": ["white", "green"]},
        {"cell": [2, 10], "colours": ["white", "green"]},
    ]
    blank = tmp_path / "blank.txt"  # nothing known: hint shows the steps that rule colours out first
    blank.write_text("\n".join(["?" * 10] * 10) + "\n")
    hinted = runner.invoke(app, ["hint", tree, "--state", str(blank), "--steps", "2"]).stdout.splitlines()
    assert (
        "row 2, clue 2green: ?????????? -> no cell fixed, colours ruled out, so in row 2: columns 1, 10 blank or green"
        in hinted
    )
    path = colour_file(corpus, "ianprime0509-nonograms/puzzles/easy.pbn#2")
    goal = load(path).goal
    assert goal is not None
    rows = ["".join(".X@"[v] for v in row) for row in goal]  # white ., black X, yellow @
    state = tmp_path / "state.txt"
    state.write_text("\n".join(["?" * 10, *rows[1:]]) + "\n")
    done = runner.invoke(app, ["hint", path, "--state", str(state)])
    assert done.exit_code == 0
    # column 1 is known below row 1 and holds its one black block of 4 already
    assert done.stdout.splitlines()[0] == "column 1, clue 4black: ?..XXXX... -> ...XXXX..., so in column 1: row 1 blank"
    c = rows[1].index("X")
    state.write_text("\n".join([rows[0], rows[1][:c] + "@" + rows[1][c + 1 :], *rows[2:]]) + "\n")
    done = runner.invoke(app, ["hint", path, "--state", str(state)])
    assert done.exit_code == 3
    assert done.stdout.startswith(f"(row 2, column {c + 1}) is wrong: it must be black;")


def test_a_clue_keeps_its_lengths_apart_from_colour_names_that_are_not_words(corpus: Path) -> None:
    """A review found `explain` of number-loom's look_sharp.xml writing "clue 7a00CDFF 1a00CDFF"
    (its colours are named "a00CDFF" and "b1600FF"); the other commands showed "7a". A name of
    letters follows its length as before ("3red"); another name gives way to its character,
    and a character that is no letter to the name in brackets."""
    from nonosat.clues import clue_text
    from nonosat.palette import Colour

    palette = (
        Colour("white", "#ffffff", "."),
        Colour("a00CDFF", "#00cdff", "a"),
        Colour("red", "#ff0000", "r"),
        Colour("#1", "#00ff00", "1"),
    )
    assert clue_text((7, 3, 2), (1, 2, 3), palette) == "7a 3red 2[#1]"
    look_sharp = load(colour_file(corpus, "number-loom/puzzles/look_sharp.xml"))
    assert look_sharp.clue_text(True, 2) == "7a 1a"
