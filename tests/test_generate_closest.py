"""The generator's closing tries: the repair runs again with fewer changes allowed, then holding
the distance below the closest's, and keeps the puzzle closest to the picture, leaving time to
draw the preview; `--require unique` and `--require probe` look for line logic's puzzle first, so
that they are never further from the picture than `--require line`, under a time limit too."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.errors import GenerateFailed, TimeUp
from nonosat.explain.rating import rate
from nonosat.generate import from_image
from nonosat.solver import Status, check
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")


@pytest.mark.slow
def test_closing_tries_keep_the_puzzle_closest_to_the_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """An author's review: the smiley at 30 wide changed 26 cells (distance 21.09), where a
    tighter limit of changes found a line-solvable puzzle much closer. The repair now runs again
    with fewer changes allowed, a few times, and keeps the closest; the same on every run; and a
    time limit among those tries keeps the closest found so far."""
    import importlib

    from nonosat.errors import TimeUp

    repairing = importlib.import_module("nonosat.generate.repair")
    smiley = Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png"
    monkeypatch.setattr(repairing, "CLOSER_TRIES", 0)
    first = from_image(smiley, width=30, require="line")
    monkeypatch.setattr(repairing, "CLOSER_TRIES", 4)
    closer = from_image(smiley, width=30, require="line")
    assert closer.distance < first.distance and len(closer.changed) < len(first.changed)
    assert line_solve(closer.puzzle).is_complete() and check(closer.puzzle).status is Status.UNIQUE
    assert from_image(smiley, width=30, require="line").puzzle == closer.puzzle  # the same every time
    real, calls = repairing._repair, []

    def out_of_time(*args: object, **kwargs: object) -> object:
        calls.append(args[0])
        if len(calls) > 1:
            raise TimeUp("repairing the picture")
        return real(*args, **kwargs)

    monkeypatch.setattr(repairing, "_repair", out_of_time)
    assert from_image(smiley, width=30, require="line").puzzle == first.puzzle and len(calls) == 2


@pytest.mark.slow
def test_closing_tries_then_hold_the_distance_below_the_closests(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture author's review: the README's smiley at 30 wide, `--require line`, changed 22
    cells (distance 17.00), where `--max-distance 10` found 11 (5.29). After the tries with fewer
    changes, the repair runs again holding the distance below NEARER times the closest's, until
    a try fails; each such limit lies below the closest found before it."""
    import importlib

    repairing = importlib.import_module("nonosat.generate.repair")
    smiley = Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png"
    monkeypatch.setattr(repairing, "NEARER", None)
    before = from_image(smiley, width=30, require="line")
    real, made = repairing._repair, list[tuple[float | None, float | None]]()
    steps: list[tuple[int | None, int]] = []  # each repair's budget of steps, and the steps it took

    def recording(*args: Any, **kwargs: Any) -> Any:
        counted = kwargs["counted"] if "counted" in kwargs else args[9]
        budget = kwargs.get("budget", args[10] if len(args) > 10 else None)
        try:
            found = real(*args, **kwargs)
        except GenerateFailed:
            made.append((args[5], None))  # (its limit of distance, and no puzzle)
            raise
        else:
            made.append((args[5], found.distance))
            return found
        finally:
            steps.append((budget, counted[0]))

    monkeypatch.setattr(repairing, "NEARER", 0.999)
    monkeypatch.setattr(repairing, "_repair", recording)
    after = from_image(smiley, width=30, require="line")
    assert after.distance < before.distance and line_solve(after.puzzle).is_complete()
    assert check(after.puzzle).status is Status.UNIQUE
    held = [(limit, distance) for limit, distance in made if limit is not None]
    assert held and held[-1][1] is None  # the last try failed
    closest = min(distance for limit, distance in made if limit is None and distance is not None)
    for limit, distance in held:
        assert limit < closest and (distance is None or distance < limit)
        closest = closest if distance is None else distance
    first = len(made) - len(held)  # the tries that hold the distance have a budget of their own:
    own = [budget for budget, _ in steps[first:]]  # the first repair's steps, three times, and 20
    assert own[0] == repairing.CLOSER_STEPS * steps[0][1] + 20
    assert own[1:] == [budget - took for budget, took in steps[first:-1] if budget is not None]  # each spends of it


@pytest.mark.slow
def test_the_closing_tries_leave_time_to_draw_the_preview(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: with --timeout 0.6-0.8 the tries ran to the deadline and the preview then ran
    out of time ("time limit reached while drawing"), exit 4, where the first repair had made a
    puzzle. They take half the time left at most: here tries that would run for ever."""
    import importlib

    repairing = importlib.import_module("nonosat.generate.repair")
    real, calls = repairing._repair, []

    def endless(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        if len(calls) == 1:
            return real(*args, **kwargs)
        while True:  # a closing try that never ends: only its deadline stops it
            args[8].check("a closing try")
            time.sleep(0.01)

    monkeypatch.setattr(repairing, "_repair", endless)
    smiley = Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png"
    outputs = ["-o", str(tmp_path / "s.non"), "--preview", str(tmp_path / "s.png"), "--preview-changes"]
    done = CliRunner().invoke(
        app, ["generate", str(smiley), "--width", "30", "--require", "line", "--timeout", "4", *outputs]
    )
    assert done.exit_code == 0 and len(calls) == 2, done.output
    assert (tmp_path / "s.non").exists() and (tmp_path / "s.png").exists()


def test_a_unique_puzzles_closing_tries_look_for_line_logics(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: `--require unique` ended further from the picture than `--require line` (a logo
    at 30 wide: 20 cells at 7.84 against 18 at 6.02), though a puzzle line logic solves is unique
    too. Its closing tries look for one, and the closest puzzle is kept."""
    import importlib

    repairing = importlib.import_module("nonosat.generate.repair")
    real, asked = repairing._repair, []

    def recording(*args: Any, **kwargs: Any) -> Any:
        asked.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(repairing, "_repair", recording)
    knot = Path(__file__).resolve().parent.parent / "puzzles" / "knot-picture.png"
    made = from_image(knot, width=25, require="unique")
    unique, line = repairing.Requirement.UNIQUE, repairing.Requirement.LINE
    assert asked[:2] == [unique, line]  # as it is; line logic's
    unique_at = asked.index(unique, 1)
    assert unique_at > 2 and set(asked[1:unique_at]) == {line}  # then its closing tries; then unique's
    assert set(asked[unique_at + 1 :]) <= {line}
    assert made.distance <= from_image(knot, width=25, require="line").distance  # never further than line's
    monkeypatch.setattr(repairing, "CLOSER_TRIES", 0)
    assert made.distance <= from_image(knot, width=25, require="unique").distance
    assert check(made.puzzle).status is Status.UNIQUE


@pytest.mark.slow
def test_under_a_time_limit_unique_is_no_further_from_the_picture_than_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A review: `generate lineart.png --width 40 --require unique --timeout 60` changed 108 cells
    (distance 46.25) where `--require line` changed 93 (39.94) in 3.4 s: unique's repair took the
    time that line logic's closing tries needed. They now come first. Here unique's repair takes
    all the time left, whatever the machine: it is cut short, and no time is left after it."""
    import importlib

    repairing = importlib.import_module("nonosat.generate.repair")
    real = repairing._repair

    def cut_short(require: Any, *args: Any, **kwargs: Any) -> Any:
        if require is repairing.Requirement.UNIQUE and kwargs.get("budget") != 0:  # not the picture as it is
            monkeypatch.setattr(repairing, "_later", lambda *args: None)
            raise TimeUp("repairing toward unique")
        return real(require, *args, **kwargs)

    import math

    from PIL import ImageDraw

    rays = Image.new("L", (160, 160), 255)  # a circle and lines through its middle, as the review's
    drawing = ImageDraw.Draw(rays)
    drawing.ellipse((30, 30, 130, 130), outline=0, width=3)
    for k in range(8):
        dx, dy = 110 * math.cos(math.pi * (k / 8 - 0.25)), 110 * math.sin(math.pi * (k / 8 - 0.25))
        drawing.line((80 - dx, 80 - dy, 80 + dx, 80 + dy), fill=0, width=2)
    rays.save(tmp_path / "rays.png")
    line = from_image(tmp_path / "rays.png", width=20, require="line")  # 16 cells; its first repair's 19
    monkeypatch.setattr(repairing, "_repair", cut_short)
    made = from_image(tmp_path / "rays.png", width=20, require="unique", timeout=600)
    assert (made.distance, len(made.changed)) == (line.distance, len(line.changed))
    assert made.changed and check(made.puzzle).status is Status.UNIQUE


def fresh_picture(seed: int, path: Path) -> Path:
    """Rings, strokes and boxes of random sizes, blurred: 240x240 pixels (bench/README.md,
    "Closing tries": pictures no choice was made on)."""
    from PIL import ImageFilter

    rng = random.Random(seed)
    image = Image.new("L", (240, 240), 255)
    pen = ImageDraw.Draw(image)
    for _ in range(rng.randint(3, 7)):
        x, y = rng.randint(0, 200), rng.randint(0, 200)
        box = (x, y, x + rng.randint(20, 120), y + rng.randint(20, 120))
        kind = rng.random()
        if kind < 0.4:
            pen.ellipse(box, outline=0, width=rng.choice((3, 6, 12)))
        elif kind < 0.7:
            pen.line(box, fill=0, width=rng.choice((3, 5, 9)))
        else:
            pen.rectangle(box, fill=rng.choice((0, 90)))
    image.filter(ImageFilter.GaussianBlur(1.5)).save(path)
    return path


@pytest.mark.parametrize("seed", [9003, 9005, 9018, 9019, 9030])
def test_a_unique_puzzle_is_never_further_from_the_picture_than_line_logics(tmp_path: Path, seed: int) -> None:
    """On pictures drawn afresh, `--require unique` (the default) often ended further from the
    picture than `--require line`, stricter (seed 9003 at 25 wide: 5 cells at 1.92 against 5 at
    1.44): its repair, steered by two solutions at a time, took another path. It now looks for
    a puzzle line logic solves first, and keeps the closer of the two."""
    picture = fresh_picture(seed, tmp_path / f"fresh-{seed}.png")
    unique, line = from_image(picture, width=25, require="unique"), from_image(picture, width=25, require="line")
    assert unique.distance <= line.distance, (unique.distance, line.distance)
    assert check(unique.puzzle).status is Status.UNIQUE


@pytest.mark.slow  # two repairs of a 30-wide picture, about 1.5 s
def test_probe_is_no_further_from_the_picture_than_line() -> None:
    """A review: `--require probe`, a looser ceiling than `line`, came further from the picture
    (the smiley at 30 wide: 24 cells at 21.92, where `line` changed 22 at 17.00; 4 of 71
    pictures measured). Like `unique`, it now looks for line logic's puzzle first."""
    smiley = Path(__file__).resolve().parent.parent / "puzzles" / "smiley-picture.png"
    line = from_image(smiley, width=30, require="line")
    probe = from_image(smiley, width=30, require="probe")
    assert probe.distance <= line.distance
    assert rate(probe.puzzle).level in ("line", "probe")
