"""What each writer keeps of a puzzle, the formats that cannot be written, and `convert`, which
drops fields out loud and never overwrites unasked."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_shared import DANCER, DANCER_ID, READ_ONLY, TINY, TINY_GOAL, WRITERS, clues_of, run

from nonosat.errors import UsageError
from nonosat.formats import FIELDS, FORMATS, convert, dropped_fields, dumps, load, loads
from nonosat.model import Puzzle

FULL = Puzzle(
    rows=TINY.rows,
    columns=TINY.columns,
    title='Tiny <&> "quoted"',
    author="Ann Author",
    copyright="© 2024 Ann",
    license="CC0-1.0",
    catalogue="#1",
    goal=TINY_GOAL,
    description="Two <cells> & a gap",  # XML's <description> was lost, even XML to XML (a review of the formats)
)
"""TINY with every optional field."""


@pytest.mark.parametrize("name", WRITERS)
def test_each_writer_keeps_what_it_says(name: str) -> None:
    again = loads(dumps(FULL, name), fmt=name)
    for field in FIELDS:
        if field in FORMATS[name].keeps:
            assert getattr(again, field) == getattr(FULL, field), field
        elif name == "tournament" and field == "catalogue":  # `#1` is no `$N`: read back as its place
            assert again.catalogue == "1"
        elif (name, field) != ("tournament", "title"):  # the tournament format names each puzzle #N
            assert getattr(again, field) is None, field
    assert dropped_fields(FULL, name) == [field for field in FIELDS if field not in FORMATS[name].keeps]


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_formats_cannot_be_written(name: str) -> None:
    with pytest.raises(UsageError, match=f"cannot write {name}"):
        dumps(TINY, name)


# --- convert -----------------------------------------------------------------------------------


def test_convert_reports_what_it_dropped_and_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "dancer.nin"
    assert convert(DANCER, target) == ["title", "author", "copyright", "catalogue", "goal"]
    assert clues_of(load(target)) == clues_of(load(DANCER))
    with pytest.raises(UsageError, match="force=True"):
        convert(DANCER, target)
    assert convert(DANCER, tmp_path / "dancer.xml") == []
    assert convert(tmp_path / "dancer.xml", target, force=True) == [
        "title",
        "author",
        "copyright",
        "catalogue",
        "goal",
    ]
    assert convert(DANCER, tmp_path / "dancer.id", to="tatham") == [
        "title",
        "author",
        "copyright",
        "catalogue",
        "goal",
    ]
    assert (tmp_path / "dancer.id").read_text() == DANCER_ID + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dancer.id", "dancer.nin", "dancer.xml"]


def test_convert_to_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found `convert X - --to nin` writing a file named "-" (encode -o - writes to
    standard output): now the same, with what the format drops said on standard error."""
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = run("convert", str(DANCER), "-", "--to", "nin")
    assert code == 0 and clues_of(loads(stdout, fmt="nin")) == clues_of(load(DANCER))
    assert stderr == "dropped: title, author, copyright, catalogue, goal\n" and not (tmp_path / "-").exists()
    code, _, stderr = run("convert", str(DANCER), "-")
    assert code == 2 and "name the format with --to" in stderr and not (tmp_path / "-").exists()


def test_convert_says_it_dropped_a_goal_it_could_not_read(tmp_path: Path) -> None:
    """A review found a goal written with 'a' for 1 dropped silently by convert (wrote, exit 0),
    where check says the goal cannot be read."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"rows": [[1], [1]], "cols": [[1], [1]], "goal": ["a.", ".1"]}')
    code, _, stderr = run("convert", str(broken), str(tmp_path / "out.non"))
    assert code == 0 and "dropped: goal (it could not be read)" in stderr
    assert "goal (it could not be read)" in dropped_fields(load(broken), "json")


def test_convert_command(tmp_path: Path) -> None:
    target = tmp_path / "dancer.nin"
    code, _, stderr = run("convert", str(DANCER), str(target))
    assert code == 0
    assert stderr == f"wrote {target} (dropped: title, author, copyright, catalogue, goal)\n"
    target.write_text("precious")
    code, _, stderr = run("convert", str(DANCER), str(target))
    assert code == 2 and stderr.count("\n") == 1 and "--force" in stderr and target.read_text() == "precious"
    code, _, stderr = run("convert", str(DANCER), str(target), "--force")
    assert code == 0 and clues_of(load(target)) == clues_of(load(DANCER))
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "dancer.mk"))
    assert code == 0 and load(tmp_path / "dancer.mk").rows == load(DANCER).rows
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "dancer.txt"), "--to", "xml")
    assert code == 0 and stderr == f"wrote {tmp_path / 'dancer.txt'}\n"
    assert load(tmp_path / "dancer.txt").title == "Dancer"
    for target_name, words in [("dancer.png", "cannot write png"), ("dancer.txt", "suffix")]:
        code, _, stderr = run("convert", str(DANCER), str(tmp_path / "new" / target_name))
        assert code == 2 and stderr.count("\n") == 1 and words in stderr
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "x.non"), "--to", "bogus")
    assert code == 2 and "'bogus' is not one of 'non'" in stderr
    code, _, stderr = run("convert", str(DANCER), str(tmp_path / "out.non"), "--to", "nin")  # a review: unsaid
    assert code == 0 and stderr.splitlines()[1] == (
        f"note: {tmp_path / 'out.non'} holds nin, but its suffix names non: nonosat will read it as non"
    )


@pytest.mark.parametrize("suffix", [".tatham", ".tournament"])
def test_the_pages_export_names_are_suffixes_that_convert_writes_and_load_reads(tmp_path: Path, suffix: str) -> None:
    """A review found the page exporting `Knot.tatham` and `Knot.tournament`, which the command
    line read by their content but would not write: `convert k.non k.tatham` and `generate -o
    k.tatham` said they could not tell the format from the suffix."""
    knot = Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-00016-knot.non"  # square, as tournaments are
    target = tmp_path / f"knot{suffix}"
    code, _, stderr = run("convert", str(knot), str(target))
    assert code == 0 and stderr.startswith(f"wrote {target}"), stderr
    assert clues_of(load(target)) == clues_of(load(knot))
    pytest.importorskip("PIL")
    made = tmp_path / f"made{suffix}"
    picture = knot.parent / "knot-picture.png"
    code, _, stderr = run("generate", str(picture), "--width", "12", "--height", "12", "-o", str(made))
    assert code == 0 and (load(made).width, load(made).height) == (12, 12), stderr
