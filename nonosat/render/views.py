"""Rich views of puzzles and solutions: the grid with its clues, bare cells for large grids (one
character per cell, or half-blocks for two rows per line), two solutions side by side, and the
table of line logic's work per line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text

from nonosat.model import Cell, Clue, Grid, Line, Puzzle

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

    from nonosat.batch.policy import Summary
    from nonosat.linesolve import LineStats

FILLED, EMPTY = "██", "· "
FILLED_ASCII, EMPTY_ASCII = "#", "."
DIFFERENT = "bold red"


def _clue_columns(clues: Iterable[Clue]) -> list[list[str]]:
    return [[str(n) for n in clue] or ["0"] for clue in clues]


def grid_width(puzzle: Puzzle, ascii_cells: bool = False) -> int:
    """How many terminal columns `grid_view` needs."""
    cell = 1 if ascii_cells else 2
    row_clue = max(len(" ".join(map(str, c)) or "0") for c in puzzle.rows)
    number = max((len(str(n)) for c in puzzle.columns for n in c), default=1)
    return row_clue + 1 + puzzle.width * max(cell, number)


def grid_view(
    puzzle: Puzzle,
    grid: Grid | None,
    *,
    highlight: Iterable[Cell] = (),
    lines: Iterable[Line] = (),
    ascii_cells: bool = False,
) -> Text:
    """The grid with row clues right-aligned at the left and column clues bottom-aligned above.

    `grid` None draws the empty puzzle sheet, and a cell None in `grid` is left blank;
    `highlight` marks cells (row, column) in red, `lines` marks the clues of those lines in
    red (with --ascii, a `<` after the row and a `^` under the column).
    """
    marked = set(highlight)
    lines = list(lines)
    marked_rows = {line.index for line in lines if line.is_row}
    marked_columns = {line.index for line in lines if not line.is_row}
    filled, empty = (FILLED_ASCII, EMPTY_ASCII) if ascii_cells else (FILLED, EMPTY)
    number = max((len(str(n)) for c in puzzle.columns for n in c), default=1)
    cell = max(len(filled), number)
    row_texts = [" ".join(map(str, c)) or "0" for c in puzzle.rows]
    clue_style = None if ascii_cells else "cyan"  # --ascii is for logs: no colour at all
    mark_style = None if ascii_cells else DIFFERENT
    margin = max(map(len, row_texts))
    columns = _clue_columns(puzzle.columns)
    depth = max(map(len, columns))
    text = Text(no_wrap=True, overflow="ignore")
    for level in range(depth):
        text.append(" " * (margin + 1))
        for c, numbers in enumerate(columns):
            offset = level - (depth - len(numbers))
            style = mark_style if c in marked_columns else clue_style
            text.append((numbers[offset] if offset >= 0 else "").rjust(cell), style=style)
        text.append("\n")
    for r, clue in enumerate(row_texts):
        text.append(clue.rjust(margin) + " ", style=mark_style if r in marked_rows else clue_style)
        for c in range(puzzle.width):
            value = None if grid is None else grid[r][c]
            glyph = (filled if value else empty).ljust(cell) if value is not None else " " * cell
            text.append(glyph, style=mark_style if (r, c) in marked else None)
        if ascii_cells and r in marked_rows:
            text.append(" <")
        if r + 1 < len(row_texts):
            text.append("\n")
    if ascii_cells and marked_columns:
        text.append("\n" + " " * (margin + 1))
        text.append("".join(("^" if c in marked_columns else "").rjust(cell) for c in range(puzzle.width)).rstrip())
    return text


def plain_grid(
    grid: Grid,
    *,
    ascii_cells: bool = True,
    highlight: Iterable[tuple[int, int]] = (),
) -> Text:
    """Just the cells, one character each, for grids too wide to draw with their clues.

    Highlighted cells are red, and in ASCII (no colour) they read X (filled) and o (empty).
    """
    marked = set(highlight)
    text = Text(no_wrap=True, overflow="ignore")
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if (r, c) in marked:
                glyph = ("X" if value else "o") if ascii_cells else ("█" if value else "·")
                text.append(glyph, style=None if ascii_cells else DIFFERENT)
            else:
                text.append((FILLED_ASCII if value else EMPTY_ASCII) if ascii_cells else ("█" if value else "·"))
        if r + 1 < len(grid):
            text.append("\n")
    return text


HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
"""The character for a (top, bottom) pair of cells."""


def half_block_grid(grid: Grid) -> Text:
    """Just the cells, two rows per character line (`▀`, `▄`, `█` or a space), for large grids.

    A grid of odd height ends with a line whose lower halves are empty.
    """
    lines = []
    for r in range(0, len(grid), 2):
        top = grid[r]
        bottom = grid[r + 1] if r + 1 < len(grid) else (0,) * len(top)
        lines.append("".join(HALF_BLOCKS[bool(a), bool(b)] for a, b in zip(top, bottom, strict=True)))
    return Text("\n".join(lines), no_wrap=True, overflow="ignore")


def side_by_side(
    puzzle: Puzzle, first: Grid, second: Grid, *, width: int, ascii_cells: bool = False
) -> RenderableType | None:
    """Two solutions next to each other, with the cells where they differ marked.

    Draws them with their clues if that fits in `width` columns, else as bare cells; None if
    even that does not fit.
    """
    differ = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if first[r][c] != second[r][c]]
    gap = 4
    if 2 * grid_width(puzzle, ascii_cells) + gap <= width and not ascii_cells:
        views = [grid_view(puzzle, g, highlight=differ, ascii_cells=ascii_cells) for g in (first, second)]
    elif 2 * puzzle.width + gap <= width:
        views = [plain_grid(g, ascii_cells=ascii_cells, highlight=differ) for g in (first, second)]
    else:
        return None
    from rich.console import Group
    from rich.table import Table

    table = Table.grid(padding=(0, gap))
    heading = "" if ascii_cells else "bold"
    table.add_row(Text("solution 1", style=heading), Text("solution 2", style=heading))
    table.add_row(*views)
    return Group(table)


def describe_cells(cells: list[tuple[int, int]], limit: int = 12) -> str:
    """Name cells as people count them: "row 3 column 5, ..."."""
    named = [f"(row {r + 1}, column {c + 1})" for r, c in cells[:limit]]
    more = f" and {len(cells) - limit} more" if len(cells) > limit else ""
    return ", ".join(named) + more


def line_stats_table(puzzle: Puzzle, stats: LineStats, cut_short: str | None) -> Table:
    """Per line: how many passes line logic made over it, the cells it fixed, and the time."""
    from rich.table import Table

    from nonosat.model import clue_text, line_name

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
        clue = puzzle.rows[index] if is_row else puzzle.columns[index]
        table.add_row(
            line_name("row" if is_row else "column", index),
            clue_text(clue),
            str(passes),
            str(fixed),
            f"{1000 * seconds:.2f}",
        )
    return table


def summary_table(summary: Summary, results: str) -> Table:
    """A batch run's puzzles by status: how many, their total and longest seconds."""
    from rich.table import Table

    from nonosat.render.terminal import clean

    table = Table(title=f"{summary.total} puzzles in {clean(results)}", title_justify="left")
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    table.add_column("total s", justify="right")
    table.add_column("slowest s", justify="right")
    for status, (count, total, slowest) in summary.by_status.items():
        table.add_row(status, str(count), f"{total:.2f}", f"{slowest:.3f}")
    return table


def fitted_grid(puzzle: Puzzle, grid: Grid | None, ascii_cells: bool, width: int) -> RenderableType | None:
    """The grid with its clues if it fits `width` characters, else the bare cells (half-blocks,
    or # and . with `ascii_cells`), else None: it is too wide for any view here."""
    if grid_width(puzzle, ascii_cells) <= width:
        return grid_view(puzzle, grid, ascii_cells=ascii_cells)
    if grid is not None and puzzle.width <= width:
        return plain_grid(grid, ascii_cells=True) if ascii_cells else half_block_grid(grid)
    return None
