"""`nonosat generate` and `nonosat random` on the command line: the puzzle written is one `check`
proves unique; an output that cannot be written or cannot hold the picture is refused before any
work, and what a format cannot hold is named; a failure, a bad picture, a deadline or Ctrl-C
leaves nothing written, and the picture read is never drawn over."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from generate_shared import draw
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.generate import random_puzzle
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")


runner = CliRunner()


def test_generate_writes_a_puzzle_that_check_proves_unique(corpus: Path, tmp_path: Path) -> None:
    goal = load(corpus / "webpbn" / "webpbn-00016-knot.non").goal
    picture = draw(goal, tmp_path / "knot.png")  # type: ignore[arg-type]
    out, preview = tmp_path / "knot.non", tmp_path / "knot-preview.png"
    done = runner.invoke(
        app,
        [
            "generate",
            str(picture),
            "--width",
            "25",
            "--require",
            "line",
            "-o",
            str(out),
            "--preview",
            str(preview),
            "--author",
            "A. Author",
        ],
    )
    assert done.exit_code == 0, done.output
    assert "unique (proved by line logic)" in done.output and "cells changed" in done.output
    assert preview.stat().st_size > 0
    puzzle = load(out)
    assert puzzle.width == 25 and puzzle.author == "A. Author" and puzzle.goal is not None
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0 and "unique" in checked.output
    again = runner.invoke(app, ["generate", str(picture), "--width", "25", "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


@pytest.mark.parametrize(
    ("command", "output", "colours", "said"),
    [
        ("random", "c.nin", "3", "holds black and white only"),
        ("generate", "missing/x.non", None, "the folder missing is not there"),
        ("generate", "x.txt", None, "use .non"),
        ("generate", "x.non", None, "the folder nodir is not there"),  # --preview nodir/preview.png
        ("random", "x.non", None, "the folder nodir is not there"),
        ("random", "-", None, "without --output the puzzle is printed as .non"),  # as convert takes `-`
        ("generate", "-", None, "without --output the puzzle is printed as .non"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, output: str, colours: str | None, said: str
) -> None:
    """A review found these refused after the whole repair, with the preview already written.
    (`generate --colours` can make a black-and-white puzzle, of a picture quantised to black
    alone: its format is checked once the picture is read, before anything is written.)"""
    import nonosat.generate as generating

    monkeypatch.chdir(tmp_path)
    picture = draw(tuple(tuple((r * c) % 3 == 0 for c in range(6)) for r in range(6)), tmp_path / "p.png")
    for name in ("from_image", "random_puzzle"):
        monkeypatch.setattr(generating, name, lambda *a, **k: pytest.fail("the work began"))
    source = [str(picture), "--width", "6"] if command == "generate" else ["--width", "6", "--height", "6"]
    preview = "nodir/preview.png" if output == "x.non" else "preview.png"
    asked = [command, *source, "-o", output, "--preview", preview]
    done = runner.invoke(app, asked + (["--colours", colours] if colours else []))
    assert done.exit_code == 2 and said in done.output and "name the format" not in done.output
    assert not (tmp_path / "preview.png").exists()


def test_generate_in_colour_to_a_black_and_white_format(tmp_path: Path) -> None:
    """A picture of black alone, with --colours 2, is a black-and-white puzzle: written as .nin
    (a review found it refused after the first fix); a colour one is refused, nothing written."""
    black = draw(tuple(tuple((r * c) % 3 == 0 for c in range(6)) for r in range(6)), tmp_path / "p.png", blur=0)
    done = runner.invoke(app, ["generate", str(black), "--width", "6", "--colours", "2", "-o", str(tmp_path / "b.nin")])
    assert done.exit_code == 0 and (tmp_path / "b.nin").exists(), done.output
    pytest.importorskip("PIL")
    from PIL import Image

    picture = Image.new("RGB", (6, 6), "white")
    picture.paste((200, 0, 0), (0, 0, 3, 3))
    picture.paste((0, 0, 200), (3, 3, 6, 6))
    picture.save(tmp_path / "c.png")
    asked = ["generate", str(tmp_path / "c.png"), "--width", "6", "--colours", "2", "-o", str(tmp_path / "c.nin")]
    refused = runner.invoke(app, [*asked, "--preview", str(tmp_path / "c.svg")])
    assert refused.exit_code == 2 and "holds black and white only" in refused.output
    assert not (tmp_path / "c.nin").exists() and not (tmp_path / "c.svg").exists()


@pytest.mark.parametrize(
    ("size", "colours", "output", "said"),
    [
        (["--width", "6"], ["--colours", "2"], "c.nin", "holds black and white only"),
        (["--width", "6", "--height", "5"], [], "s.tournament", "holds only square puzzles; c is 6x5"),
    ],
)
def test_an_output_that_cannot_hold_the_picture_is_refused_before_the_repair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: list[str], colours: list[str], output: str, said: str
) -> None:
    """A picture author's review: a colour puzzle as .nin, and one that is not square as a
    tournament, were refused only after the whole repair (7-15 s). Once the picture is read."""
    pytest.importorskip("PIL")
    from PIL import Image

    import nonosat.generate as generating

    picture = Image.new("RGB", (6, 6), "white")
    picture.paste((200, 0, 0), (0, 0, 3, 3))
    picture.paste((0, 0, 200), (3, 3, 6, 6))
    picture.save(tmp_path / "c.png")
    monkeypatch.setattr(generating, "repair", lambda *a, **k: pytest.fail("the repair began"))
    done = runner.invoke(app, ["generate", str(tmp_path / "c.png"), *size, *colours, "-o", str(tmp_path / output)])
    assert done.exit_code == 2 and said in done.output, done.output
    assert not (tmp_path / output).exists()


def test_generate_names_what_the_output_format_cannot_hold(tmp_path: Path) -> None:
    """`-o x.nin` dropped the goal and the title, and `.xml` the licence, without a word, where
    `convert` names what it drops."""
    picture = draw(tuple(tuple(int((r * c) % 3 == 0) for c in range(6)) for r in range(6)), tmp_path / "p.png")
    for output, dropped in (
        ("x.nin", "(dropped: title, license, goal)"),
        ("x.xml", "(dropped: license)"),
        ("x.non", None),
    ):
        done = runner.invoke(
            app, ["generate", str(picture), "--width", "6", "--license", "CC0", "-o", str(tmp_path / output)]
        )
        assert done.exit_code == 0, done.output
        assert (dropped in done.output) if dropped else "dropped" not in done.output


def test_a_preview_past_the_deadline_writes_nothing(tmp_path: Path) -> None:
    """`--timeout` did not cover drawing `--preview`: the run ended past it with exit 0."""
    from nonosat.cli.making import write_generated
    from nonosat.deadline import Deadline, TimeUp
    from nonosat.generate import random_puzzle

    made = random_puzzle(8, 8, seed=1)
    out, preview = tmp_path / "r.non", tmp_path / "r.png"
    for changes in (False, True):
        with pytest.raises(TimeUp, match="drawing r.png"):
            write_generated(made, out, preview, False, changes, Deadline(time.monotonic() - 1))
        assert not out.exists() and not preview.exists()


def test_the_picture_read_is_never_drawn_over(tmp_path: Path) -> None:
    """A review: `generate logo.png --preview logo.png --force` drew over the author's picture."""
    picture = tmp_path / "smiley.png"
    original = (Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png").read_bytes()
    picture.write_bytes(original)
    for preview in (str(picture), f"{tmp_path}/./smiley.png"):
        done = CliRunner().invoke(app, ["generate", str(picture), "--width", "10", "--preview", preview, "--force"])
        assert done.exit_code == 2 and "is the picture read" in done.output
    assert picture.read_bytes() == original
    (tmp_path / "dangling.png").symlink_to(tmp_path / "nowhere.png")  # the review of the mend: an internal
    done = CliRunner().invoke(
        app, ["generate", str(picture), "--width", "10", "--preview", str(tmp_path / "dangling.png")]
    )
    assert done.exit_code == 0 and (tmp_path / "nowhere.png").exists()  # error; written through, as before


def test_generate_failure_exits_5_and_writes_nothing(tmp_path: Path) -> None:
    checkerboard = tuple(tuple((r + c) % 2 for c in range(6)) for r in range(6))
    picture = draw(checkerboard, tmp_path / "board.png", blur=0)
    out = tmp_path / "board.non"
    done = runner.invoke(app, ["generate", str(picture), "--max-changes", "0", "-o", str(out)])
    assert done.exit_code == 5 and not out.exists()
    assert done.output.count("\n") == 1 and "Traceback" not in done.output


@pytest.mark.parametrize("kind", ["missing", "not an image", "blank"])
def test_bad_pictures_get_one_line_and_exit_2(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "picture.png"
    if kind == "not an image":
        path.write_text("hello")
    elif kind == "blank":
        Image.new("L", (10, 10), 255).save(path)
    done = runner.invoke(app, ["generate", str(path)])
    assert done.exit_code == 2
    assert done.output.startswith(f"nonosat: {path}: ") and done.output.count("\n") == 1


def test_random_prints_a_non_file_that_loads(tmp_path: Path) -> None:
    done = runner.invoke(app, ["random", "--width", "9", "--height", "7", "--seed", "5", "--require", "line"])
    assert done.exit_code == 0
    text = done.stdout
    (tmp_path / "r.non").write_text(text)
    puzzle = load(tmp_path / "r.non")
    assert (puzzle.width, puzzle.height) == (9, 7) and line_solve(puzzle).is_complete()


def test_ctrl_c_between_the_preview_and_the_puzzle_leaves_neither(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An author's review sent Ctrl-C at the end of `random -o si.non --preview si.png`: exit 130
    with the preview written and not the puzzle (a rerun then refused, the preview being there),
    or both written. What the command wrote is removed again; a file it replaced with --force
    stays replaced."""
    import nonosat.formats as formats
    from nonosat.cli.making import write_generated
    from nonosat.deadline import Deadline

    made = random_puzzle(6, 6, seed=1)

    def interrupted(*args: object, **kwargs: object) -> list[str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(formats, "save", interrupted)
    preview, output = tmp_path / "si.png", tmp_path / "si.non"
    with pytest.raises(KeyboardInterrupt):
        write_generated(made, output, preview, False, False, Deadline.after(None))
    assert not preview.exists() and not output.exists()
    preview.write_bytes(b"the author's own")
    with pytest.raises(KeyboardInterrupt):
        write_generated(made, output, preview, True, False, Deadline.after(None))
    assert preview.exists() and preview.read_bytes() != b"the author's own"  # replaced, as --force asked
