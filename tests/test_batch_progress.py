"""What `nonosat batch` says as it goes and at its end: a log that shows it going where standard
error is no terminal, a summary of what this run solved of the file, its title whole, one puzzle
called one puzzle, and `--fail-on` setting the exit code."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batch_shared import tournament_fixture  # noqa: F401  (fixture)
from typer.testing import CliRunner

from nonosat.cli import app

runner = CliRunner()


@pytest.mark.slow
def test_fail_on_sets_the_exit_code(tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    done = runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--jobs", "1", "--fail-on", "multiple"])
    assert done.exit_code == 1 and "multiple" in done.output  # most tournament puzzles have several
    again = runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--fail-on", "none"])
    assert again.exit_code == 0 and "nothing to do" in again.output
    assert runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--require", "unique"]).exit_code == 1
    assert runner.invoke(app, ["batch", f"{tournament}", "--out", str(out), "--fail-on", "maybe"]).exit_code == 2


def test_a_log_of_a_batch_shows_it_going(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where standard error is not a terminal, Rich draws its bar only at the end: a cron job's
    log showed nothing of a long run until then (a site operator's review). It says what it
    will solve, then a line every LOG_EVERY seconds, whether records come or not (a later
    review: a Dask cluster that lost its workers left the log silent until one came)."""
    import nonosat.batch
    from nonosat.cli import batching
    from nonosat.cli.show import err

    monkeypatch.setattr(batching, "LOG_EVERY", 0.02)
    said: list[str] = []
    twice = threading.Event()
    printing = err.print

    def print_(text: Any, *args: Any, **kwargs: Any) -> None:
        said.append(str(text))
        if sum(line.startswith("solved 1 of 2 · unique 1 · ") for line in said) >= 2:
            twice.set()
        printing(text, *args, **kwargs)

    real = nonosat.batch.run

    def stalling(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
        records = real(*args, **kwargs)
        yield next(records)
        twice.wait(20)  # no record comes now: the log must go on by itself
        yield from records

    monkeypatch.setattr(err, "print", print_)
    monkeypatch.setattr(nonosat.batch, "run", stalling)
    dancer = Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-00001-dancer.non"
    for name in ("a.non", "b.non"):
        (tmp_path / name).write_text(dancer.read_text())
    done = runner.invoke(
        app,
        ["batch", str(tmp_path / "a.non"), str(tmp_path / "b.non"), "--out", str(tmp_path / "r.jsonl"), "--jobs", "1"],
    )
    assert done.exit_code == 0, done.output
    assert said[0] == "solving 2 puzzles" and twice.is_set(), said


def test_the_summary_says_what_this_run_solved_of_the_file() -> None:
    """`--retry unknown` on one set reported "2000 puzzles in rr.jsonl": the file held another."""
    from nonosat.batch.policy import summarize
    from nonosat.render.tables import summary_title

    records: list[dict[str, Any]] = [{"path": f"x.non#{i}", "status": "unique", "seconds": 0.1} for i in range(3)]
    assert summary_title(summarize(records), "r.jsonl", 1) == "3 puzzles in r.jsonl (1 solved in this run)"
    assert summary_title(summarize(records), "r.jsonl", 3) == "3 puzzles in r.jsonl"
    assert summary_title(summarize(records[:1]), "r.jsonl", 1) == "1 puzzle in r.jsonl"  # not "1 puzzles"


@pytest.mark.parametrize("width", [200, 50])
def test_the_summary_title_is_whole_and_wraps_only_at_the_terminals_width(tmp_path: Path, width: int) -> None:
    """Reviews: as the table's title it was wrapped at the table's width ("(0 solved in this" and
    "run)" on two lines), then, told not to wrap, cut at a narrow terminal's."""
    from rich.console import Console

    from nonosat.cli.batching import _print_summary

    records: list[dict[str, Any]] = [{"path": f"x.non#{i}", "status": "unique", "seconds": 0.1} for i in range(3)]
    title = "3 puzzles in some/long/folder/of/results/results.jsonl (0 solved in this run)"
    console = Console(width=width, record=True, color_system=None)
    _print_summary(records, "some/long/folder/of/results/results.jsonl", console, 0)
    lines = console.export_text().splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith("┏"))
    assert " ".join(line.strip() for line in lines[:table]) == title
    assert (table == 1) == (width >= len(title))


def test_one_puzzle_is_one_puzzle_in_every_line_of_a_run(tmp_path: Path) -> None:
    """A review found "solving 1 puzzles"; "nothing to do: all 1 puzzles are already in" too."""
    from typer.testing import CliRunner

    from nonosat.cli import app

    out = tmp_path / "r.jsonl"
    for said in ("solving 1 puzzle", "nothing to do: 1 puzzle already in"):
        ring = Path(__file__).resolve().parent.parent / "puzzles" / "ring.non"
        done = CliRunner().invoke(app, ["batch", str(ring), "--out", str(out)])
        assert done.exit_code == 0 and said in done.output and "1 puzzles" not in done.output, done.output
