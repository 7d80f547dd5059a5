"""The tables of a run: line logic's work per line (`explain --stats`), and a batch run's
puzzles by status."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

    from nonosat.batch.policy import Summary
    from nonosat.model import Puzzle
    from nonosat.solver.propagation import LineStats


def line_stats_table(puzzle: Puzzle, stats: LineStats, cut_short: str | None) -> Table:
    """Per line: how many passes line logic made over it, the cells it fixed, and the time."""
    from rich.table import Table

    from nonosat.model import line_name

    title = "line logic, per line" + (f" ({cut_short})" if cut_short else "")
    table = Table(title=title, title_justify="left")
    for name, justify in (
        ("line", "left"),
        ("clue", "left"),
        ("passes", "right"),
        ("cells fixed", "right"),
        ("ms", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for (is_row, index), (passes, fixed, seconds) in sorted(stats.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
        table.add_row(
            line_name("row" if is_row else "column", index),
            puzzle.clue_text(is_row, index),
            str(passes),
            str(fixed),
            f"{1000 * seconds:.2f}",
        )
    return table


def summary_title(summary: Summary, results: str, new: int | None = None) -> str:
    """The line above a batch run's summary: how many puzzles the results hold, and how many of
    them this run solved (`new`) when the file held others already."""
    from nonosat.render.terminal import clean
    from nonosat.text import counted

    title = f"{counted(summary.total, 'puzzle')} in {clean(results)}"
    if new is not None and new != summary.total:
        title += f" ({new} solved in this run)"
    return title


def summary_table(summary: Summary) -> Table:
    """A batch run's puzzles by status: how many, their total and longest seconds (its title,
    `summary_title`, is a line of its own: as the table's title it was wrapped at the table's
    width, and cut at the terminal's when told not to wrap: reviews)."""
    from rich.table import Table

    table = Table()
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    table.add_column("total s", justify="right")
    table.add_column("slowest s", justify="right")
    for status, (count, total, slowest) in summary.by_status.items():
        table.add_row(status, str(count), f"{total:.2f}", f"{slowest:.3f}")
    return table
