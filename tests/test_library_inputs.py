"""What a program that embeds nonosat hands it, refused with the documented errors (a review of
the Python API as a web backend uses it): never a wrong puzzle, a bare TypeError or an
AttributeError."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest

from nonosat import Puzzle, load, load_all
from nonosat.deadline import Deadline
from nonosat.errors import InvalidPuzzle, UsageError
from nonosat.formats import load_all_bytes, load_bytes, save

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DANCER = PUZZLES / "webpbn-00001-dancer.non"


@pytest.mark.parametrize("cells", [[["#", "."], [".", "#"]], [[-1, 0], [0, 1]], [[2, 0], [0, 1]], [[0.5, 0], [0, 1]]])
def test_a_black_and_white_picture_is_of_0_and_1(cells: list[list[object]]) -> None:
    """`Puzzle.from_grid([["#", "."], [".", "#"]])` made the clues ((2,), (2,)): any true cell was
    filled, '.' too (the characters Solution.text() writes). Cells are 0 or 1 (True and False,
    and NumPy's integers, which have __index__, too); anything else is refused."""
    with pytest.raises(InvalidPuzzle, match=r"the goal's cell \(row 1, column 1\): expected 0 \(empty\) or 1"):
        Puzzle.from_grid(cells)
    with pytest.raises(InvalidPuzzle, match="expected 0"):
        Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), goal=cells)  # type: ignore[arg-type]
    assert Puzzle.from_grid([[True, False], [False, True]]).rows == ((1,), (1,))


def test_the_reports_take_seconds_as_every_call_does() -> None:
    """`check_report(puzzle, name, 5)` and `(..., None)` were an AttributeError: the deadline is
    seconds, None or a Deadline, as for every other call."""
    from nonosat.reports import check_report, solve_report

    puzzle = load_bytes(DANCER.read_bytes(), DANCER.name)
    for deadline in (5, 2.5, None, Deadline.after(5)):
        assert check_report(puzzle, "dancer.non", deadline).record()["status"] == "unique"
        assert solve_report(puzzle, "dancer.non", deadline).record()["status"] == "unique"


def test_bytes_are_named_by_a_str_and_a_puzzle_picked_by_a_whole_number(tmp_path: Path) -> None:
    """`load_bytes(data, None)` and `save(puzzle, None)` were a TypeError; `load_bytes(set, name,
    "1")` said "there is no puzzle $1 (the file holds $1 to $1000)", and True was taken as 1."""
    data = DANCER.read_bytes()
    with pytest.raises(UsageError, match="name: expected the file's name as a str, not NoneType"):
        load_bytes(data, None)  # type: ignore[arg-type]
    for number in ("1", True, 1.0, 0):
        with pytest.raises(UsageError, match="number: expected a whole number of at least 1"):
            load_bytes(data, "dancer.non", number)  # type: ignore[arg-type]
    assert load_bytes(data, "dancer.non", 1).title == "Dancer"
    with pytest.raises(UsageError, match="path: expected a file's path, not NoneType"):
        save(load_bytes(data, "dancer.non"), None)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"path: expected a file's path, not bytes$"):  # nothing to read
        save(load_bytes(data, "dancer.non"), b"dancer.non")  # type: ignore[arg-type]
    for path in (None, 3, b"dancer.non"):  # were looked for as files: "no such file"
        for read in (load, load_all):
            bytes_hint = r" \(a file's bytes go to nonosat.formats.load_bytes\)" if isinstance(path, bytes) else ""
            with pytest.raises(
                UsageError, match=f"path: expected a file's path, not {type(path).__name__}{bytes_hint}$"
            ):
                read(path)  # type: ignore[arg-type]
    assert load(str(DANCER)).title == load(DANCER).title == "Dancer"


@pytest.mark.parametrize("moment", ["x", math.nan, True, math.inf])
def test_a_deadline_is_a_moment_on_the_monotonic_clock(moment: object) -> None:
    """`Deadline("x")` was taken; `Deadline(nan)` meant passed at once (where `timeout=nan` is
    refused), and a moment on time.time()'s clock meant never."""
    with pytest.raises(UsageError, match="Deadline"):
        Deadline(moment)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"time.time\(\)'s clock\?\): make one with Deadline.after"):
        Deadline(time.time() + 1)
    soon = Deadline.after(1)  # the way to make one
    assert soon.at is not None and Deadline(soon.at).at == soon.at


def test_bytes_of_many_puzzles_are_picked_by_number_as_the_messages_say(tmp_path: Path) -> None:
    """A review found that bytes of a file of several puzzles were told to "select one as
    FILE#N", and a name ending in #5 then got "unknown format: no reader takes .txt#5 files, nor
    this content" (the content was a tournament file). Both now say `number=`, the web's wording
    ?number (its messages name its query parameters), and a path still FILE#N."""
    from nonosat.errors import ParseError
    from nonosat.web.jobs import WEB_NAMES

    data = b"".join(b"$%d\n1\n0\n1\n0\n" % n for n in (1, 2))  # two tournament puzzles of 2x2
    with pytest.raises(ParseError, match=r"holds 2 puzzles; select one with number=N, e.g. load_bytes") as caught:
        load_bytes(data, "pair.txt")
    assert "?number=1" in caught.value.worded(WEB_NAMES) and "FILE#N" not in caught.value.worded(WEB_NAMES)
    with pytest.raises(UsageError, match=r"'pair.txt#2' picks puzzle 2 .* name the file 'pair.txt' and give number=2"):
        load_bytes(data, "pair.txt#2")
    assert load_bytes(data, "pair.txt", 2).source == "pair.txt#2"
    with pytest.raises(UsageError, match=r"name the file 'pair.txt' \(every puzzle of the file is read\)"):
        load_all_bytes(data, "pair.txt#2")  # it takes no number
    (tmp_path / "pair.txt").write_bytes(data)
    with pytest.raises(ParseError, match=r"select one as FILE#N, e.g. .*pair.txt#1"):
        load(str(tmp_path / "pair.txt"))


def test_a_zero_between_a_clues_numbers_is_refused_padding_is_not() -> None:
    """`1,0,1` was read as `1 1` (an author's `1,10,1` lost a digit and the puzzle changed);
    zeros that pad a clue before or after its numbers, as MiniZinc's tables do, still read."""
    with pytest.raises(InvalidPuzzle, match="column 2: a 0 between other numbers"):
        Puzzle(rows=((1, 1),), columns=((1,), (2, 0, 1), (1,)))
    with pytest.raises(InvalidPuzzle, match="row 1: a 0 between other numbers"):  # in colour too (a review)
        Puzzle(rows=((1, 0, 1),), columns=((1,), (), (1,)), row_colours=((1, 1, 1),), column_colours=((1,), (), (1,)))
    padded = Puzzle(rows=((0, 0, 1, 1),), columns=((1, 0),) + ((0,),) + ((0, 1),))
    assert (padded.rows, padded.columns) == (((1, 1),), ((1,), (), (1,)))


def test_what_a_second_review_handed_the_library_is_refused_in_its_own_words() -> None:
    """A review of the Python API as a site embeds it: each of these escaped as a bare Python
    error (AttributeError, TypeError, IndexError, OverflowError), or, the first, made another
    puzzle in silence (every column block colour 1, answered `none`)."""
    from nonosat import Colour, solve
    from nonosat.explain.hint import parse_state
    from nonosat.formats import dumps

    palette = (Colour("white", "#ffffff", "."), Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"))
    with pytest.raises(InvalidPuzzle, match="row colours given without column colours"):
        Puzzle(rows=((1, 1),), columns=((1,), (1,)), palette=palette, row_colours=((1, 2),))
    with pytest.raises(InvalidPuzzle, match="column colours given without row colours"):
        Puzzle(rows=((1, 1),), columns=((1,), (1,)), palette=palette, column_colours=((1,), (2,)))
    for strange in (("a", "b"), (("white", "#ffffff", "."), ("red", "#ff0000", "r"))):
        with pytest.raises(InvalidPuzzle, match="a palette holds Colours"):
            Puzzle(rows=((1,),), columns=((1,),), palette=strange)  # type: ignore[arg-type]
    with pytest.raises(InvalidPuzzle, match="a colour's name is text, not int"):
        Colour(1, 2, 3)  # type: ignore[arg-type]
    ring = load(PUZZLES / "ring.non")
    assert solve(ring, timeout=10**400).status.value == "multiple"  # a whole number past any float: no limit
    with pytest.raises(UsageError, match="expected a Puzzle"):
        dumps(None, "non")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="a state is text, not bytes"):
        parse_state(b"????", ring, "s")  # type: ignore[arg-type]
    solution = solve(ring).solutions[0]
    for palette_given in (palette[:1], "xx", 5):
        with pytest.raises(UsageError, match="palette is the puzzle's Colours"):
            solution.text(palette=palette_given)  # type: ignore[arg-type]


def test_every_argument_a_review_found_unchecked_is_a_usage_error(tmp_path: Path) -> None:
    """A review of the Python API: each of these was a TypeError or an AttributeError from deep
    inside, or was taken as true (`force="yes"` overwrote a file), or drew a colour grid with a
    black-and-white palette as 1s and 2s."""
    from nonosat import Solution, check, solve
    from nonosat.batch import solve_many
    from nonosat.explain.hint import parse_state
    from nonosat.explain.steps import explain

    puzzle = load(DANCER)
    with pytest.raises(UsageError, match="expected a Puzzle"):
        parse_state("?????\n" * 10, None, "state")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="writing is a function"):
        explain(puzzle, timeout=5, writing=5)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="writing gives the seconds"):
        explain(puzzle, timeout=5, writing=lambda step: "x")  # type: ignore[arg-type,return-value]
    assert explain(puzzle, timeout=5, writing=lambda step: 0.0).open_cells == 0
    from fractions import Fraction

    assert explain(puzzle, timeout=5, writing=lambda step: Fraction(0)).open_cells == 0  # type: ignore[arg-type,return-value]
    for wrong in (None, puzzle):
        with pytest.raises(UsageError, match="puzzles is a list of Puzzles"):
            list(solve_many(wrong))  # type: ignore[arg-type]
    target = tmp_path / "dancer.non"
    target.write_text("mine")
    with pytest.raises(UsageError, match="force is True or False, not 'yes'"):
        save(puzzle, target, force="yes")  # type: ignore[arg-type]
    assert target.read_text() == "mine"
    with pytest.raises(UsageError, match="force is True or False"):
        check(puzzle, certificate=tmp_path / "certificate", force=1)  # type: ignore[arg-type]
    from nonosat.batch import run as run_batch

    for flag in ("force", "pictures"):  # the diff's review: force="no" replaced the certificates
        with pytest.raises(UsageError, match=f"{flag} is True or False, not 'no'"):
            run_batch([str(DANCER)], certificates=tmp_path / "certificates", **{flag: "no"})  # type: ignore[arg-type]
    assert not (tmp_path / "certificates").exists()
    assert not (tmp_path / "certificate").exists()
    with pytest.raises(UsageError, match="path: expected a file's path, not an empty name"):
        load("")
    ring = solve(load(PUZZLES / "ring-colour.non"), count=2)
    first, second = ring.solutions
    assert first.differences(second)
    for other in (None, 3, "grid", first.grid):
        with pytest.raises(UsageError, match="differences compares with another Solution"):
            first.differences(other)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="differences compares with another Solution of the same size"):
        first.differences(Solution(((0,),)))
    from nonosat.palette import BLACK_AND_WHITE

    with pytest.raises(UsageError, match="the grid is in colour"):
        first.text(palette=BLACK_AND_WHITE)
    grids: tuple[Any, ...] = ("xx", [[0, 1]], ((0, 1), (1,)), ((0, -1),), ((True, False),), ((0, 1.0),))
    for grid in (*grids, ((0, [1]),), (({},),)):  # the last two unhashable (the diff's review)
        with pytest.raises(UsageError, match="a Solution's grid is equal rows"):
            Solution(grid)
    assert Solution(((0, 2), (1, 0))).text() == ".2\n1." and Solution(()).text() == ""


def test_a_picture_is_inverted_only_when_asked_with_true(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from nonosat.generate import from_image

    with pytest.raises(UsageError, match="invert is True or False, not 'yes'"):
        from_image(PUZZLES / "smiley-picture.png", width=10, invert="yes")  # type: ignore[arg-type]


def test_json_colours_are_text_and_a_colour_clue_of_0_alone_is_an_empty_line(tmp_path: Path) -> None:
    """A review: JSON's `"rgb": 123` was read as the text '123', the colour #112233, and the
    README's "a clue 0 alone is an empty line" did not hold in colour (`(0,)` with no colours was
    "1 block(s) but 0 colour(s)")."""
    from nonosat import Colour
    from nonosat.errors import ParseError

    palette = '[{"name":"white","rgb":"#ffffff","char":"."},{"name":"red","rgb":%s,"char":"r"}]'
    text = '{"rows":[[[1,"red"]]],"cols":[[[1,"red"]]],"palette":%s}'
    assert load_bytes((text % (palette % '"#ff0000"')).encode(), "red.json").palette[1].rgb == "#ff0000"
    for wrong in ("123", "null", "true", "12.5", '["#ff0000"]'):
        with pytest.raises(ParseError, match=r"red.json, line 1: expected colour 2's 'rgb' to be text"):
            load_bytes((text % (palette % wrong)).encode(), "red.json")
    colours = (Colour("white", "#ffffff", "."), Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b"))
    empty = Puzzle(
        rows=((0,), (1,)),
        columns=((0,), (1,)),
        palette=colours,
        row_colours=((), (1,)),
        column_colours=((), (1,)),
    )
    assert empty.rows == ((), (1,)) and empty.row_colours == ((), (1,))
    with pytest.raises(InvalidPuzzle, match="1 block"):  # a block of 1 still needs its colour
        Puzzle(
            rows=((1,), (1,)),
            columns=((1,), (1,)),
            palette=colours,
            row_colours=((), (1,)),
            column_colours=((1,), (1,)),
        )


def test_numpys_true_and_false_are_switches_as_its_whole_numbers_are_counts(tmp_path: Path) -> None:
    """The diff's review: check_flag took only Python's bool, where check_whole takes NumPy's
    integers."""
    numpy = pytest.importorskip("numpy")
    puzzle = load(DANCER)
    target = tmp_path / "dancer.non"
    save(puzzle, target, force=numpy.False_)
    save(puzzle, target, force=numpy.True_)
    with pytest.raises(UsageError, match="already exists"):
        save(puzzle, target, force=numpy.False_)


@pytest.mark.parametrize(
    ("text", "options", "said"),
    [
        (b"1 1\n1\n1\n", {"fmt": "nin"}, r"^text: expected the file's text as a str, not bytes \(decode it"),
        (None, {}, r"^text: expected the file's text as a str, not NoneType$"),
        ("$1\n1\n1\n$2\n1\n1\n", {"fmt": "tournament", "number": "1"}, r"^number: expected a whole number .* not '1'$"),
        ("$1\n1\n1\n$2\n1\n1\n", {"fmt": "tournament", "number": True}, r"^number: .* not True$"),
        ("$1\n1\n1\n$2\n1\n1\n", {"fmt": "tournament", "number": 1.0}, r"^number: .* not 1\.0$"),
        ("1 1\n1\n1\n", {"fmt": 5}, r"^fmt: expected a format's name as a str \(or None\), not int$"),
        ("1 1\n1\n1\n", {"path": 3}, r"^path: expected the file's name as a str \(or None\), not int$"),
    ],
)
def test_loads_checks_its_arguments_as_load_bytes_does(text: object, options: dict[str, object], said: str) -> None:
    """A Python user's review: bytes and None raised bare TypeError and AttributeError, and
    number="1" said "there is no puzzle $1 (the file holds $1 to $2)"."""
    from nonosat.formats import loads

    with pytest.raises(UsageError, match=said):
        loads(text, **options)  # type: ignore[arg-type]
    assert loads("$1\n1\n1\n$2\n0\n0\n", fmt="tournament", number=2).rows == ((),)  # a whole number picks


def test_wrong_arguments_found_by_the_faults_review_are_the_librarys_own_errors(tmp_path: Path) -> None:
    """A faults review passed 17 bad values to every parameter of the public functions: these
    were bare TypeErrors or AttributeErrors from deep inside."""
    from nonosat import Solution, solve
    from nonosat.certificate_check import verify
    from nonosat.errors import NonosatError
    from nonosat.formats import dumps
    from nonosat.generate import from_image

    dancer = load(DANCER)
    wrong: list[tuple[Any, str]] = [
        (lambda: Solution((1, 0)), "a Solution's grid is equal rows"),  # type: ignore[arg-type]
        (lambda: Solution((None,)), "a Solution's grid is equal rows"),  # type: ignore[arg-type]
        (lambda: solve(dancer, encoding=["blocks"]), "unknown encoding"),  # type: ignore[arg-type]
        (lambda: dumps(dancer, ["non"]), "unknown format"),  # type: ignore[arg-type]
        (lambda: Puzzle.from_grid([[1]], palette=None), "a palette is a tuple of Colours"),  # type: ignore[arg-type]
        (lambda: verify(tmp_path, puzzle="ring.non"), "puzzle is a Puzzle"),  # type: ignore[arg-type]
        (lambda: from_image(PUZZLES / "knot-picture.png", width=10, read="print"), "read is a function"),  # type: ignore[arg-type]
    ]
    for call, said in wrong:
        with pytest.raises(NonosatError, match=said):
            call()
