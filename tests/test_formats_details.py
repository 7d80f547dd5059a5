"""Each format's details, read and saved: every corpus .non and .nin file loads and round-trips,
every format round-trips its clues; .non's blank lines, metadata, licence, unknown keys and goal
marks, .nin's stray sets of clues, JSON's PyCSP3 data, solutions and the line of an element at
fault, clue lists' commas and dashes, and the samples in puzzles/ agree; `save` round-trips,
refuses to overwrite, needs a known suffix and says which fields a format cannot hold."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from formats_shared import clues_of, clues_only, corpus_files, totals_agree

from nonosat.errors import ParseError, UsageError
from nonosat.formats import FORMATS, dropped_fields, dumps, load, loads, save
from nonosat.formats.cluelist import dump_cluelist, load_cluelist
from nonosat.formats.jsonfmt import dump_json, dump_solution_json, element_line, load_json
from nonosat.formats.nin import dump_nin, load_nin
from nonosat.formats.non import dump_non, load_non
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)), title="Tiny")
"""A 3x3 puzzle with an empty row, small enough to write by hand in every format."""


def test_non_corpus_loads_and_round_trips(corpus: Path) -> None:
    files = corpus_files(corpus, "webpbn/*.non") + corpus_files(corpus, "nonogram-db/**/*.non")
    for file in files:
        puzzle = load(file)
        assert puzzle.source == str(file)
        assert totals_agree(puzzle), file
        if puzzle.goal is not None:
            assert puzzle.satisfied_by(puzzle.goal), file
        assert load_non(dump_non(puzzle)) == puzzle, file
        assert load_json(dump_json(puzzle)) == puzzle, file
        assert load_cluelist(dump_cluelist(puzzle)) == clues_only(puzzle), file


def test_non_corpus_keeps_metadata(corpus: Path) -> None:
    dancer = load(corpus / "webpbn" / "webpbn-00001-dancer.non")
    assert (dancer.title, dancer.author, dancer.catalogue) == ("Dancer", "Jan Wolter", "webpbn.com #1")
    assert dancer.copyright == "© Copyright 2004 by Jan Wolter"  # &copy; unescaped
    wild = load(corpus / "webpbn" / "webpbn-35105-wild.non")
    assert wild.license == "CC-BY-4.0"


def test_nin_corpus_loads_and_round_trips(corpus: Path) -> None:
    for file in corpus_files(corpus, "jwilk/*.nin"):
        puzzle = load(file)
        assert puzzle.source == str(file)
        assert totals_agree(puzzle), file
        assert load_nin(dump_nin(puzzle)) == puzzle, file


def test_nin_ignores_stray_sets_of_clues_after_the_last_column_clue(tmp_path: Path) -> None:
    """As jwilk's reader does (his data142.nin carries four): lines enough for another puzzle,
    which with the puzzle's own read as no puzzle of another size (as data142's: not every clue
    fits its line). Sets that would make the whole file one puzzle are refused: it reads two ways."""
    path = tmp_path / "extra.nin"
    path.write_text(dump_nin(TINY) + "\n".join(["4 4", "1", "0"] * 2) + "\n\n")
    assert load(path) == clues_only(TINY)
    path.write_text(dump_nin(TINY) + "\n".join(["1 1", "1", "0"] * 2) + "\n\n")  # as a 7x5 puzzle too
    with pytest.raises(ParseError, match="line 8: .* one 7x5 puzzle: the file reads two ways"):
        load(path)
    path.write_text(dump_nin(TINY) + "\n".join(["1 1", "1", "0", "2", "x"]) + "\n")
    with pytest.raises(ParseError, match="line 8: expected the end of the file after the 3 column clues, found '1 1'"):
        load(path)


@pytest.mark.parametrize("fmt", sorted(name for name, form in FORMATS.items() if form.dump is not None))
def test_every_format_round_trips_its_clues(fmt: str) -> None:
    assert clues_only(loads(dumps(TINY, fmt), fmt=fmt)) == clues_only(TINY)


def test_non_blank_line_is_an_empty_clue_only_inside_a_section() -> None:
    text = "width 3\nheight 3\n\nrows\n1\n\n\n\n\ncolumns\n1\n\n1\n\n\n"
    puzzle = load_non(text)
    assert puzzle.rows == ((1,), (), ())
    assert puzzle.columns == ((1,), (), (1,))


def test_non_metadata_survives_quotes_and_escapes() -> None:
    awkward = Puzzle(
        rows=TINY.rows,
        columns=TINY.columns,
        title='say "hi" &amp; M&M',
        author="line\nbreak",
        license="public domain, more or less",
        goal=((1, 0, 0), (0, 0, 0), (1, 1, 1)),
    )
    assert load_non(dump_non(awkward)) == awkward
    assert load_json(dump_json(awkward)) == awkward


def test_non_reads_bare_and_quoted_license() -> None:
    base = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
    assert load_non(base + "license CC-BY-3.0\n").license == "CC-BY-3.0"
    assert load_non(base + 'license "see the README"\n').license == "see the README"


def test_non_ignores_unknown_keys_and_reads_goal_with_any_filled_mark() -> None:
    text = 'width 2\nheight 1\nfavourite "blue"\nrows\n1\ncolumns\n1\n0\ngoal "a0"\n'
    assert load_non(text).goal == ((1, 0),)
    dotted = 'width 3\nheight 1\nrows\n1,1\ncolumns\n1\n0\n1\ngoal "#.#"\n'  # (a new user's review:
    assert load_non(dotted).goal == ((1, 0, 1),)  # '.' was a filled mark, and convert wrote "111")


def test_json_accepts_pycsp3_data_and_goal_lists() -> None:
    text = '{"rows": [[1], [], [3]], "cols": [[1, 1], [1], [1]]}'
    assert load_json(text) == clues_only(TINY)
    text = '{"rows": [[1]], "columns": [[1]], "goal": [[1]], "title": "One"}'
    assert load_json(text) == Puzzle(rows=((1,),), columns=((1,),), goal=((1,),), title="One")


def test_json_without_metadata_is_plain_pycsp3() -> None:
    assert set(json.loads(dump_json(load(DANCER), metadata=False))) == {"rows", "cols"}


def test_solution_json() -> None:
    dancer = load(DANCER)
    assert dancer.goal is not None
    data = json.loads(dump_solution_json(dancer, dancer.goal, "unique"))
    assert (data["width"], data["height"], data["status"]) == (5, 10, "unique")
    assert data["rows"] == [list(c) for c in dancer.rows] and data["cols"] == [list(c) for c in dancer.columns]
    assert data["solution"][0] == ".##.."
    assert json.loads(dump_solution_json(dancer, None, "unsatisfiable"))["solution"] is None


def test_a_solution_json_reads_back_as_the_puzzle_with_its_solution_for_goal(tmp_path: Path) -> None:
    """A review found `solve -o x.json` writing a file that read back without the solution (and
    without the title): `.non` and `.xml` outputs keep both. The solution's JSON now carries the
    metadata, and its "solution" is read as the goal where no "goal" is given."""
    from nonosat.formats import save_solution

    dancer = load(DANCER)
    assert dancer.goal is not None
    flipped = tuple(tuple(1 - cell for cell in row) for row in dancer.goal)  # a grid that is not the goal
    for grid in (dancer.goal, flipped):
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.json"
        save_solution(replace(dancer, goal=None), grid, "unique", path)
        again = load(path)
        assert again.goal == grid and again.title == "Dancer" and again.author == dancer.author
        assert clues_of(again) == clues_of(dancer)
    both = json.loads(path.read_text()) | {"goal": ["11111"] * 10}
    assert load_json(json.dumps(both)).goal == ((1,) * 5,) * 10  # a goal given wins
    broken = load_json(json.dumps(both | {"goal": None, "solution": ["#x..."]}), "bad.json")
    assert broken.goal is None and broken.goal_problem is not None and "goal[0]" in broken.goal_problem


def test_cluelist_reads_commas_and_dashes() -> None:
    assert load_cluelist("1\n-\n3\n\n1, 1\n1\n1,0\n") == clues_only(TINY)


def test_impossible_puzzles_still_load() -> None:
    puzzle = load_non("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    assert puzzle.problems()


def test_samples_in_puzzles_folder_agree() -> None:
    dancer = load(DANCER)
    assert load(PUZZLES / "dancer.json") == dancer
    assert load(PUZZLES / "dancer.clues") == clues_only(dancer)
    for sample in PUZZLES.glob("*.n*n"):
        assert totals_agree(load(sample)), sample


def test_save_round_trips_and_refuses_to_overwrite(tmp_path: Path) -> None:
    dancer = load(DANCER)
    for suffix in (".non", ".json"):
        path = tmp_path / f"dancer{suffix}"
        assert save(dancer, path) == []  # nothing the file cannot hold
        assert load(path) == dancer
        with pytest.raises(UsageError, match="force=True"):
            save(dancer, path)
    path = tmp_path / "dancer.non"
    save(TINY, path, force=True)
    assert load(path) == TINY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dancer.json", "dancer.non"]  # no temporary files


def test_save_needs_a_known_suffix_or_a_format(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="suffix"):
        save(TINY, tmp_path / "tiny.txt")
    save(TINY, tmp_path / "tiny.txt", fmt="tournament")
    assert clues_only(load(tmp_path / "tiny.txt")) == clues_only(TINY)


def test_save_says_which_fields_the_format_cannot_hold(tmp_path: Path) -> None:
    """`save` dropped a title (or a goal) without a word, where `convert` warns: it returns them."""
    dancer = load(DANCER)
    dropped = save(dancer, tmp_path / "dancer.nin")
    assert "title" in dropped and dropped == dropped_fields(dancer, "nin")
    assert load(tmp_path / "dancer.nin").title is None


def test_a_json_error_names_the_line_of_the_element_at_fault() -> None:
    """Brackets and commas inside strings, escaped quotes and nested lists do not move the count."""
    text = '{"title": "[x]", "rows": [[[1, "a],"], [2, "b\\\\\\"c,["]],\n  [[1, "d"]], [3]],\n "cols": []}'
    assert [element_line(text, "rows", index) for index in range(3)] == [1, 2, 2]
    assert element_line(text, "cols", 0) == 3 and element_line(text, "nowhere", 0) is None


def test_a_valid_json_file_never_looks_for_an_elements_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """element_line reads the text from the list's start: called for every clue, it made a
    512x512 JSON puzzle take 16 s to read (0.1 s without). Only a clue at fault may call it."""
    from nonosat.formats import jsonfmt

    monkeypatch.setattr(jsonfmt, "element_line", lambda *args: pytest.fail("looked for a line"))
    puzzle = load(PUZZLES / "webpbn-00001-dancer.non")
    assert loads(dumps(puzzle, "json"), fmt="json").rows == puzzle.rows
    colour = load(PUZZLES / "ring-colour.non")
    assert loads(dumps(colour, "json"), fmt="json").rows == colour.rows
    gaps = Puzzle.from_grid([[1, 0], [0, 0]])
    padded = dumps(gaps, "json").replace("[]", "[0]")  # an empty line as [0], valid (a review)
    assert "[0]" in padded and loads(padded, fmt="json").rows == gaps.rows
