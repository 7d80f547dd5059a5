"""Puzzle files: every corpus file loads, every format round-trips, and bad files fail cleanly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from formats_shared import clues_of

from nonosat.errors import ParseError, UsageError
from nonosat.formats import FORMATS, detect_format, dropped_fields, dumps, load, load_all, loads, save
from nonosat.formats.cluelist import dump_cluelist, load_cluelist
from nonosat.formats.jsonfmt import dump_json, dump_solution_json, element_line, load_json
from nonosat.formats.nin import dump_nin, load_nin
from nonosat.formats.non import dump_non, load_non
from nonosat.formats.tournament import (
    dump_tournament,
    load_tournament,
    load_tournament_all,
    load_tournament_solutions,
)
from nonosat.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"

TINY = Puzzle(rows=((1,), (), (3,)), columns=((1, 1), (1,), (1,)), title="Tiny")
"""A 3x3 puzzle with an empty row, small enough to write by hand in every format."""


def corpus_files(corpus: Path, pattern: str) -> list[Path]:
    """The corpus files matching a glob pattern, failing loudly if there are none."""
    files = sorted(corpus.glob(pattern))
    assert files, f"no corpus files match {pattern}"
    return files


def totals_agree(puzzle: Puzzle) -> bool:
    """Whether the row clues and the column clues fill the same number of cells."""
    return sum(map(sum, puzzle.rows)) == sum(map(sum, puzzle.columns))


def clues_only(puzzle: Puzzle) -> Puzzle:
    """The same puzzle without metadata or goal, to compare formats that carry only clues."""
    return Puzzle(rows=puzzle.rows, columns=puzzle.columns)


# --- the corpus --------------------------------------------------------------------------------


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


@pytest.mark.slow
def test_every_tournament_file_holds_1000_square_puzzles(corpus: Path) -> None:
    for file in corpus_files(corpus, "tcga/question/*.txt"):
        puzzles = load_all(file)
        assert [p.source for p in puzzles] == [f"{file}#{n}" for n in range(1, 1001)], file
        assert len({(p.width, p.height) for p in puzzles}) == 1, file
        assert all(p.width == p.height and totals_agree(p) for p in puzzles), file


@pytest.mark.slow
def test_tournament_solutions_satisfy_their_puzzles(corpus: Path) -> None:
    question = corpus / "tcga" / "question" / "taai2011.txt"
    solutions = load_tournament_solutions((corpus / "tcga" / "solution" / "taai2011.txt").read_text())
    assert len(solutions) == 1000
    for number, puzzle in enumerate(load_all(question)[:50], start=1):
        assert puzzle.satisfied_by(solutions[number]), number
        assert not puzzle.satisfied_by(solutions[number % 50 + 1]), number


@pytest.mark.slow
def test_tournament_round_trips(corpus: Path) -> None:
    puzzles = load_all(corpus / "tcga" / "question" / "taai2017.txt")  # holds an empty clue line
    assert load_tournament_all(dump_tournament(puzzles)) == puzzles


# --- selection and detection --------------------------------------------------------------------


@pytest.mark.slow
def test_file_hash_n_selects_a_tournament_puzzle(corpus: Path) -> None:
    question = corpus / "tcga" / "question" / "taai2011.txt"
    seventh = load(f"{question}#7")
    assert seventh == load_all(question)[6]
    assert seventh.title is None and seventh.source == f"{question}#7"
    assert load_all(f"{question}#7") == [seventh]


def test_multi_puzzle_file_needs_a_number(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(dump_tournament([TINY, TINY]))
    with pytest.raises(ParseError, match="#N") as raised:
        load(path)
    assert raised.value.path == str(path)
    assert load(f"{path}#2").source == f"{path}#2"


def test_single_tournament_puzzle_needs_no_number(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(dump_tournament([TINY]))
    # no title "#1": it was written as one by every format that holds one (a review); its
    # number is its catalogue entry, written back as its `$N` (a review of the formats: `$1`)
    assert load(path) == Puzzle(rows=TINY.rows, columns=TINY.columns, catalogue="1")


def test_tournament_numbers_are_kept(tmp_path: Path) -> None:
    """A review of the formats: a tournament's puzzle converted on its own came out `$1`, and a
    file of `$7 $9 $12` was said to hold "$7 to $12"."""
    text = "".join(f"${n}\n1\n1\n" for n in (7, 9, 12))
    path = tmp_path / "gaps.txt"
    path.write_text(text)
    assert dumps(load(f"{path}#9"), "tournament").startswith("$9\n")
    assert dumps(load(f"{path}#9"), "non").startswith('catalogue "9"\n')
    assert dump_tournament(load_tournament_all(text)) == text
    assert dump_tournament([TINY, TINY]).startswith("$1\n")  # no catalogue: numbered in order
    assert dropped_fields(load(f"{path}#9"), "tournament") == []
    assert dropped_fields(replace(TINY, title=None, catalogue="A1"), "tournament") == ["catalogue"]
    assert dropped_fields(replace(TINY, title=None, catalogue="007"), "tournament") == ["catalogue"]
    assert dumps(replace(TINY, catalogue="0"), "tournament").startswith("$1\n")
    with pytest.raises(ParseError, match=r"holds \$7, \$9 and \$12\)"):
        load(f"{path}#8")
    many = tmp_path / "many.txt"
    many.write_text("".join(f"${n}\n1\n1\n" for n in (*range(1, 9), 10)))
    with pytest.raises(ParseError, match=r"holds \$1 to \$10, 1 of them missing\)"):
        load(f"{many}#9")


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_tournament_reads_any_line_ending(line_end: str) -> None:
    text = dump_tournament([TINY, TINY]).replace("\n", line_end)
    assert [clues_only(p) for p in load_tournament_all(text)] == [clues_only(TINY)] * 2


def test_tournament_keeps_an_empty_last_row() -> None:
    puzzle = Puzzle(rows=((1,), ()), columns=((1,), ()))
    assert clues_only(load_tournament(dump_tournament([puzzle]))) == puzzle


@pytest.mark.parametrize("fmt", ["non", "nin", "json", "clues", "tournament"])
@pytest.mark.parametrize("suffix", [".txt", ".dat", ""])
def test_format_detected_by_content(tmp_path: Path, fmt: str, suffix: str) -> None:
    path = tmp_path / f"tiny{suffix}"
    path.write_text(dumps(TINY, fmt))
    assert detect_format(path, path.read_text()) == fmt
    assert clues_only(load(path)) == clues_only(TINY)


def test_a_clue_list_that_looks_like_cwd_is_read_as_a_clue_list() -> None:
    """A review found "3 3 2 3 3 / 5 5 2-2" in a .txt read as CWD (height 3, width 3, a different
    and impossible puzzle: `solve` said "no solution"), and 1% of random clue lists up to 12x12
    so. Every one of 1,000 such lists is read by content as the clue list it is; a CWD file
    stays CWD."""
    import random

    rng = random.Random(7)
    for _ in range(1000):
        height, width, density = rng.randint(1, 12), rng.randint(1, 12), rng.random()
        puzzle = Puzzle.from_grid([[int(rng.random() < density) for _ in range(width)] for _ in range(height)])
        text = dumps(puzzle, "clues")
        assert detect_format(None, text) == "clues", text
        assert clues_only(loads(text)) == clues_only(puzzle)
    assert detect_format(None, "3\n3\n2\n3\n3\n\n5\n5\n2 2\n") == "clues"
    assert detect_format(None, "3\n3\n1\n\n3\n\n1 1\n1\n1\n") == "cwd"


def test_suffix_decides_before_content(tmp_path: Path) -> None:
    path = tmp_path / "tiny.nin"
    path.write_text(dump_non(TINY))
    assert detect_format(path, path.read_text()) == "nin"
    with pytest.raises(ParseError):
        load(path)


# --- each format's details --------------------------------------------------------------------


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


# --- bad input ---------------------------------------------------------------------------------

BAD_FILES = [
    # (file name, content, line of the error or None, words the message must hold)
    ("empty.non", "", None, "empty"),
    ("blank.nin", "\n  \n", None, "empty"),
    (
        "truncated.non",
        "width 3\nheight 10\nrows\n" + "1\n" * 7,
        10,
        "expected 10 row clues, the file ends after 7",
    ),
    ("short.non", "width 3\nheight 10\nrows\n" + "1\n" * 7 + "columns\n", 11, "found 7 before 'columns'"),
    ("long.non", "width 1\nheight 1\nrows\n1\n2\ncolumns\n1\n", 5, "found more"),
    # a colour clue past a section's end was skipped as an unknown key: a review's Rainbow with an
    # eleventh column, or a width one short, read as another puzzle, "unique"
    ("long-nonny.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred 1\n", 8, "found more"),
    ("long-black.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\n\nblack 2\ncolumns\n1\n", 7, "found more"),
    ("long-comma.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred,1\n", 8, "found more"),
    ("long-colon.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nred 1\ncolumns\nred 1\nred:1\n", 8, "found more"),
    ("long-db.non", "color a #ff0000\nwidth 1\nheight 1\nrows\n1a\n2a\ncolumns\n1a\n", 6, "1 row clue, found more"),
    ("letters.non", "width 3\nheight 2\nrows\n1\nx3\ncolumns\n1\n1\n1\n", 5, "found 'x3'"),
    ("negative.non", "width 3\nheight 2\nrows\n1\n-3\ncolumns\n1\n1\n1\n", 5, "negative"),
    ("fraction.non", "width 3\nheight 2\nrows\n1\n1.5\ncolumns\n1\n1\n1\n", 5, "found '1.5'"),
    ("undeclared.non", "color red FF0000 r\nwidth 1\nheight 1\nrows\nblue 1\ncolumns\nred 1\n", 5, "no `color` line"),
    ("mixed.non", "color a #ff0000\ncolor red FF0000 r\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", 2, "both"),
    ("nosize.non", "rows\n1\n", 1, "'width' and 'height'"),
    ("bad-size.non", "width five\n", 1, "width"),
    ("truncated.nin", "3 4\n1\n1\n", 3, "expected 4 row clues, the file ends after 2"),
    ("letters.nin", "2 1\n1\n1 a\n0\n", 3, "found 'a' in '1 a'"),
    ("semicolon.non", "width 3\nheight 2\nrows\n1\n2,1;3\ncolumns\n1\n1\n1\n", 5, "found '1;3' in '2,1;3'"),
    ("header.nin", "2\n1\n", 1, "'width height'"),
    (
        "wrong-width.nin",
        "3 3\n1\n1\n1\n1\n1\n1\n2 1\n7\n",
        8,
        "the end of the file after the 3 column clues, found '2 1'",
    ),
    ("words-after.nin", "2 2\n1\n1\n1\n1\n\nhello world\n", 7, "found 'hello world'"),
    ("one-group.clues", "1\n2\n", 2, "blank line"),
    ("negative.clues", "1\n\n-2\n", 3, "negative"),
    ("broken.json", '{"rows": [[1]],\n "cols": [[1]\n', 3, "expected JSON"),
    ("strings.json", '{"rows": [[1]],\n "cols": ["1"]}', 2, "cols[0]"),
    ("third.json", '{"rows": [[1], [1], [1]],\n "cols": [[1],\n  [1, "2"],\n  [3]]}', 3, "cols[1]"),
    ("wide.json", '{"rows": [[1]],\n "cols": [[1]],\n "width": 5}', 3, "expected width 1, the number of column clues"),
    ("tall.json", '{"height": "2",\n "rows": [[1]], "cols": [[1]]}', 1, "expected height 1, the number of row clues"),
    ("twice.json", '{"rows": [[1]],\n "cols": [[1]],\n "columns": [[2]]}', 3, '"cols" or "columns"'),
    ("odd.txt", "$1\n1\n1\n1\n", 1, "as many row clues as column clues"),
    ("letters.txt", "$1\n1\n1\tx\n", 3, "found 'x'"),
    ("twice.txt", "$1\n1\n1\n$1\n1\n1\n", 4, "second puzzle $1"),
]


@pytest.mark.parametrize(("name", "content", "line", "words"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_file_names_path_and_line(tmp_path: Path, name: str, content: str, line: int | None, words: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ParseError) as raised:
        load(path)
    assert raised.value.path == str(path)
    assert raised.value.line == line
    assert words in raised.value.expected


def test_a_bad_goal_names_its_line_and_leaves_the_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "bad-goal.non"
    path.write_text('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "1"\n')
    puzzle = load(path)
    assert puzzle.goal is None and puzzle.rows == ((1,),)
    assert puzzle.goal_problem == "line 8: expected a goal of 2 cells (2x1), found 1"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3),
        (b"width 5\nheight 5\n\xff\xfe\xfd", 3),
        (b"width 5\x07\n", 1),
    ],
)
def test_binary_file_is_not_text(tmp_path: Path, data: bytes, line: int) -> None:
    path = tmp_path / "garbage.non"
    path.write_bytes(data)
    with pytest.raises(ParseError, match="not a text file|not UTF-8 text") as raised:
        load(path)
    assert (raised.value.path, raised.value.line) == (str(path), line)


LATIN_XML = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<puzzleset><puzzle type="grid" defaultcolor="black">'
    '<title>Caf\xe9</title><color name="white" char=".">fff</color><color name="black" char="X">000</color>'
    '<clues type="columns"><line><count>1</count></line></clues>'
    '<clues type="rows"><line><count>1</count></line></clues></puzzle></puzzleset>'
)


def test_text_in_the_encoding_it_says(tmp_path: Path) -> None:
    """A review of the formats: an XML file declaring ISO-8859-1, and a UTF-16 file with its byte
    order mark (Notepad's "Unicode"), were refused as "not a text file"."""
    latin = tmp_path / "cafe.xml"
    latin.write_bytes(LATIN_XML.encode("latin-1"))
    assert load(latin).title == "Caf\xe9"
    text = 'title "Caf\xe9 \u6f22"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n'
    for encoding in ("utf-16", "utf-16-be", "utf-32"):
        wide = tmp_path / f"{encoding}.non"
        mark = {"utf-16-be": b"\xfe\xff"}.get(encoding, b"")
        wide.write_bytes(mark + text.encode(encoding))
        assert load(wide).title == "Caf\xe9 \u6f22", encoding
    for name in ("klingon", "base64", "undefined"):  # (base64: a codec of bytes, an internal error)
        unknown = tmp_path / f"{name}.xml"
        unknown.write_bytes(LATIN_XML.replace("ISO-8859-1", name).encode("latin-1"))
        with pytest.raises(ParseError, match=f"declares the encoding '{name}', which nonosat cannot read"):
            load(unknown)
    for name in ("ISO-8859-1", "UTF-16", "us-ascii", "Shift_JIS"):  # saved as UTF-8 all the same (the
        lying = tmp_path / "lying.xml"  # review of the mend: read as declared, "CafÃ©" or refused)
        lying.write_bytes(LATIN_XML.replace("ISO-8859-1", name).encode("utf-8"))
        assert load(lying).title == "Caf\xe9", name
    latin_non = tmp_path / "latin.non"
    latin_non.write_bytes(text.replace(" \u6f22", "").encode("latin-1"))
    with pytest.raises(ParseError, match=r"not UTF-8 text \(byte 0xe9\)") as raised:
        load(latin_non)
    assert raised.value.line == 1


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.non"
    with pytest.raises(ParseError, match="no such file") as raised:
        load(path)
    assert (raised.value.path, raised.value.line) == (str(path), None)


def test_a_link_to_nothing_says_so(tmp_path: Path) -> None:
    """A review: a dangling link in a folder given to batch was "no such file", though listed."""
    from nonosat.errors import BadImage
    from nonosat.generate import from_image

    (tmp_path / "x.non").symlink_to(tmp_path / "gone" / "x.non")
    with pytest.raises(ParseError, match=r"x\.non: a link to .*gone/x\.non, which is not there$"):
        load(tmp_path / "x.non")
    (tmp_path / "x.png").symlink_to("nowhere.png")
    with pytest.raises(BadImage, match=r"x\.png: a link to nowhere\.png, which is not there$"):
        from_image(tmp_path / "x.png")


def test_missing_puzzle_number(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(dump_tournament([TINY, TINY]))
    with pytest.raises(ParseError, match=r"no puzzle \$9") as raised:
        load(f"{path}#9")
    assert raised.value.path == str(path)
    with pytest.raises(ParseError, match="holds one puzzle"):
        load(f"{DANCER}#2")


# --- saving ------------------------------------------------------------------------------------


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


def test_tournament_refuses_non_square_puzzles() -> None:
    with pytest.raises(UsageError, match="square"):
        dump_tournament([load(DANCER)])


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


def test_totals_that_differ_are_counted_in_words_a_person_would_write() -> None:
    """A new user's review: "the row clues fill 1 cells"."""
    from nonosat.palette import Colour

    assert Puzzle(rows=((1,), (0,)), columns=((1,), (1,))).problems() == [
        "the row clues fill 1 cell but the column clues fill 2"
    ]
    red = (Colour("white", "#ffffff", "."), Colour("red", "#ff0000", "r"))
    coloured = Puzzle(
        rows=((2,), (0,)), columns=((1,), (0,)), palette=red, row_colours=((1,), ()), column_colours=((1,), ())
    )
    assert coloured.problems() == ["the row clues fill 2 red cells but the column clues fill 1 red cell"]
