"""webpbn XML: a hand-written file and nonosat's own read back, a goal alone gives the clues,
and a puzzle set (as a .nonpack) selects its puzzles with FILE#N."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_shared import DANCER, HAND_WRITTEN_XML, TINY, TINY_GOAL, clues_of

from nonosat.errors import ParseError
from nonosat.formats import dumps, load, load_all, loads, save
from nonosat.formats.non import dump_non
from nonosat.formats.webpbn import dump_xml_all, load_xml_all
from nonosat.model import Puzzle


def test_hand_written_webpbn_xml_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "corner.xml"
    path.write_text(HAND_WRITTEN_XML)
    expected = Puzzle(
        rows=TINY.rows,
        columns=TINY.columns,
        title="Corner & bar",
        author="Set Author",  # from the puzzle set, since the puzzle names none
        copyright="© 2024 Someone",
        catalogue="#9999",
        goal=TINY_GOAL,
    )
    assert load(path) == expected
    assert loads(dumps(expected, "xml")) == expected


def test_webpbn_xml_written_by_nonosat_reads_back(tmp_path: Path) -> None:
    dancer = load(DANCER)
    save(dancer, tmp_path / "dancer.xml")
    assert load(tmp_path / "dancer.xml") == dancer


def test_webpbn_xml_goal_alone_gives_the_clues_and_rows_may_share_bars() -> None:
    text = "<puzzleset><puzzle><solution><image>|X..|...|XXX|</image></solution></puzzle></puzzleset>"
    assert loads(text) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL)


def test_webpbn_puzzle_set_selects_with_hash_n(tmp_path: Path) -> None:
    path = tmp_path / "set.xml"
    dancer = load(DANCER)
    path.write_text(dump_xml_all([dancer, Puzzle(rows=TINY.rows, columns=TINY.columns, title="Tiny")]))
    puzzles = load_all(path)
    assert [p.title for p in puzzles] == ["Dancer", "Tiny"]
    assert [p.source for p in puzzles] == [f"{path}#1", f"{path}#2"]
    assert load(f"{path}#2") == puzzles[1]
    with pytest.raises(ParseError, match=r"holds 2 puzzles; select one as FILE#N"):
        load(path)
    with pytest.raises(ParseError, match=r"no puzzle #3"):
        load(f"{path}#3")
    assert len(load_xml_all(path.read_text())) == 2


def test_nonpack_selects_with_hash_n(tmp_path: Path) -> None:
    path = tmp_path / "two.nonpack"
    path.write_text(dump_non(load(DANCER)) + "====\n" + dump_non(TINY))
    dancer, tiny = load_all(path)
    assert dancer.title == "Dancer" and clues_of(tiny) == clues_of(TINY)
    assert load(f"{path}#2") == tiny and tiny.source == f"{path}#2"


def test_a_nonpack_puzzle_picked_by_number_is_read_alone(tmp_path: Path) -> None:
    """A review found `FILE.nonpack#2` of a file of 27,000 puzzles reading all of them first (18 s,
    700 MB). Only the part picked is read now: a broken part elsewhere does not stop it, and the
    part picked, broken, is named by its line in the whole file."""
    part = dump_non(TINY)
    broken = part.replace("\nrows\n1\n", "\nrows\nx\n", 1)
    path = tmp_path / "three.nonpack"
    path.write_text("====\n".join([part, broken, part]))
    with pytest.raises(ParseError):
        load_all(path)
    third = load(f"{path}#3")
    assert clues_of(third) == clues_of(TINY) and third.source == f"{path}#3"
    with pytest.raises(ParseError) as refused:
        load(f"{path}#2")
    assert refused.value.line == part.count("\n") + 2 + broken.split("\n").index("rows") + 1
    with pytest.raises(ParseError, match=r"there is no puzzle #4 \(the file holds #1 to #3\)"):
        load(f"{path}#4")


def test_a_nonpack_is_read_in_one_pass_keeping_the_whole_files_line_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found a .nonpack of 4,000 small puzzles took 17.6 s to read: each part was read
    after as many blank lines as came before it, so the lines read grew with the square of the
    parts. Every part is now read once, and an error still names the line in the whole file."""
    import nonosat.formats.nonpack as nonpack

    part = dump_non(TINY)
    text = "====\n".join([part] * 300)
    read: list[int] = []
    real = nonpack.load_non  # type: ignore[attr-defined]

    def counting(text: str, *args: object, **kwargs: int) -> Puzzle:
        read.append(text.count("\n") + 1)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(nonpack, "load_non", counting)
    assert len(nonpack.load_nonpack_all(text)) == 300
    assert sum(read) <= text.count("\n") + 300  # each line of the file once, not 300 * 150 of them
    lines = part.count("\n") + 1  # a part and its separator
    broken = "====\n".join([part] * 299 + [part.replace("\nrows\n1\n", "\nrows\nx\n", 1)])
    with pytest.raises(ParseError) as refused:
        nonpack.load_nonpack_all(broken)
    assert refused.value.line == 299 * lines + part.split("\n").index("rows") + 2


def test_a_webpbn_set_is_read_puzzle_by_puzzle_with_the_sets_author_wherever_it_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A review found a 30 MB set of 5,000 puzzles took 960 MB to read, every element of the
    file held as a tree until the last was parsed. Each `<puzzle>` is now read as it ends, its
    elements dropped: no more than one puzzle's elements are alive at once. The set's author
    stands in for a puzzle's missing one before the puzzles or after them (then the set is read
    again as a whole); a puzzle's own wins; and a root that is not a set is refused as before,
    whatever its puzzles hold."""
    import nonosat.formats.webpbn as webpbn
    import nonosat.formats.xmltree as xmltree

    puzzle = dumps(Puzzle(rows=TINY.rows, columns=TINY.columns), "xml").split("<puzzleset>")[1].split("</puzzleset>")[0]
    own = puzzle.replace('defaultcolor="black">', 'defaultcolor="black"><author>Own</author>', 1)
    live = [0]  # Nodes made and not yet freed
    alive: list[int] = []  # how many when each puzzle is read

    class CountedNode(xmltree.Node):
        def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
            super().__init__(tag, attrs, line)
            live[0] += 1

        def __del__(self) -> None:
            live[0] -= 1

    real = webpbn.read_puzzle

    def counting(node: xmltree.Node, defaults: dict[str, str], path: object) -> Puzzle:
        alive.append(live[0])
        return real(node, defaults, path)  # type: ignore[arg-type]

    monkeypatch.setattr(xmltree, "Node", CountedNode)
    monkeypatch.setattr(webpbn, "read_puzzle", counting)
    text = f"<puzzleset><author>Set</author>{puzzle * 40}{own}</puzzleset>"
    first = load_xml_all(text)
    assert [p.author for p in first] == ["Set"] * 40 + ["Own"]
    elements = text.count("<") - text.count("</")
    assert len(alive) == 41 and max(alive) * 10 < elements  # each puzzle's elements went once it was read
    late = load_xml_all(f"<puzzleset>{own}{puzzle * 3}<author>Set</author><copyright>C</copyright></puzzleset>")
    assert [(p.author, p.copyright) for p in late] == [("Own", "C")] + [("Set", "C")] * 3
    broken = puzzle.replace("<count>", "<count>x", 1)
    with pytest.raises(ParseError, match=r"expected a <puzzleset> root element, found <set>"):
        load_xml_all(f"<set>{broken}</set>")
    with pytest.raises(ParseError, match=r"expected a whole number in <count>"):
        load_xml_all(f"<puzzleset>{puzzle}{broken}</puzzleset>")
    with pytest.raises(ParseError, match=r"expected well-formed XML"):  # the file's fault first, as before
        load_xml_all(f"<puzzleset>{puzzle}{broken}<puzzle>")
    with pytest.raises(ParseError, match=r"unknown entity &foo;"):
        load_xml_all(f'<!DOCTYPE pbn SYSTEM "x"><puzzleset>{broken}<author>&foo;</author></puzzleset>')
