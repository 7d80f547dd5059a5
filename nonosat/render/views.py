"""Rich views of puzzles and solutions: the grid with its clues, bare cells for large grids (one
character per cell, or half-blocks for two rows per line), and two solutions side by side
(the tables of a run are in nonosat.render.tables).

In colour, each cell is drawn in its colour and each clue number on a swatch of its block's
colour (Rich downsamples where the terminal lacks truecolor); with --ascii, a cell is its
colour's character and a clue number is followed by it ("3r"), with no colour codes at all.
Black and white is drawn as it always was."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import accumulate, groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from nonosat.model import Cell, Grid, Line, Puzzle
from nonosat.render.terminal import shown_chars

if TYPE_CHECKING:
    from rich.console import RenderableType

    from nonosat.palette import Colour, Palette

FILLED, EMPTY = "██", "· "
FILLED_ASCII, EMPTY_ASCII = "#", "."
DIFFERENT = "bold red"
MARKED = "XX"
"""A marked cell in colour (red would read as a colour): X on the cell's own colour."""
GREY = "#808080"
"""A blank cell's dot in colour, seen on a light background and on a dark one."""

Glyph = tuple[str, "Style | str | None"]
"""Text as drawn, and its Rich style."""

Token = tuple[str, "Colour | None"]
"""A clue number as drawn, and the colour of its block (None in black and white, or for "0")."""


def clue_tokens(puzzle: Puzzle, is_row: bool, index: int, ascii_cells: bool = False) -> list[Token]:
    """A line's clue numbers as drawn: "0" alone for an empty line; in colour, with --ascii, each
    number followed by its colour's character ("3r"), with a colon between where the character
    could be read as part of the number ("1:1", not "11"), as the page writes clues."""
    clue = puzzle.rows[index] if is_row else puzzle.columns[index]
    if not clue:
        return [("0", None)]
    if not puzzle.is_colour:
        return [(str(n), None) for n in clue]
    palette = puzzle.palette
    chars = shown_chars([colour.char for colour in palette])
    kinds = puzzle.colours_of(is_row, index)
    return [(_block_text(n, chars[k]) if ascii_cells else str(n), palette[k]) for n, k in zip(clue, kinds, strict=True)]


def _block_text(size: int, char: str) -> str:
    return f"{size}{char}" if not (char.isdigit() or char.isspace() or char in ",:") else f"{size}:{char}"


def _all_tokens(puzzle: Puzzle, is_row: bool, ascii_cells: bool) -> list[list[Token]]:
    count = puzzle.height if is_row else puzzle.width
    return [clue_tokens(puzzle, is_row, i, ascii_cells) for i in range(count)]


def swatch(colour: Colour) -> Style:
    """A clue number on its block's colour, in white on dark colours and black on light ones."""
    return Style(color="#ffffff" if colour.is_dark else "#000000", bgcolor=colour.rgb)


def marked_style(colour: Colour) -> Style:
    """A marked cell in colour: a bold X on the cell's own colour (the background's, if blank)."""
    return swatch(colour) + Style(bold=True)


def palette_of(puzzle: Puzzle) -> Palette | None:
    """The puzzle's palette in colour; None in black and white, which is drawn as it always was."""
    return puzzle.palette if puzzle.is_colour else None


def cell_glyphs(palette: Palette | None, ascii_cells: bool, wide: bool = True) -> list[Glyph]:
    """Each cell value's glyph and style, by palette index: blank "· " ("·" when not `wide`, "."
    with --ascii, in colour the background's character: a colour may be "."); filled "██" ("█",
    "#"), in colour in its colour, or with --ascii its character. In colour every cell is drawn on
    the puzzle's background colour, not the terminal's (a review: black cells vanished in a dark
    terminal)."""
    if ascii_cells:
        chars = [EMPTY_ASCII, FILLED_ASCII] if palette is None else shown_chars([colour.char for colour in palette])
        return [(char, None) for char in chars]
    empty, filled = (EMPTY, FILLED) if wide else ("·", "█")
    if palette is None:
        return [(empty, None), (filled, None)]
    ground = palette[0].rgb
    glyphs: list[Glyph] = [(empty, Style(color=GREY, bgcolor=ground))]
    return glyphs + [(filled, Style(color=colour.rgb, bgcolor=ground)) for colour in palette[1:]]


def cell_width(puzzle: Puzzle, columns: list[list[Token]], ascii_cells: bool) -> int:
    """Terminal columns per cell: its glyph, or the widest column clue number if wider (in colour
    with --ascii, one more, so that "1r" and "2b" above neighbouring columns stay apart)."""
    number = max(len(t) for tokens in columns for t, _ in tokens) + (puzzle.is_colour and ascii_cells)
    return max(1 if ascii_cells else 2, number)


def column_widths(puzzle: Puzzle, columns: list[list[Token]], ascii_cells: bool) -> list[int]:
    """Terminal columns per column: `cell_width`, and one more for a column whose clue number of
    two digits or more, as wide as that, has a number on its left in the same header line: "10"
    and "11" read "1011" (a review). Only those columns widen, so that a 25x25 puzzle keeps to 80
    columns (with --ascii, one digit a column, side by side, as before)."""
    width = cell_width(puzzle, columns, ascii_cells)
    depth = max(map(len, columns))
    levels = [[""] * (depth - len(tokens)) + [t for t, _ in tokens] for tokens in columns]
    widths = [width]
    for left, right in zip(levels, levels[1:], strict=False):
        touching = any(len(right[level]) >= max(width, 2) and left[level] for level in range(depth))
        widths.append(width + touching)
    return widths


def fitted(glyph: str, width: int) -> str:
    """A cell's glyph over `width` terminal columns: a filled cell's block drawn across them all
    (a filled row stays solid), any other glyph followed by spaces."""
    return glyph[0] * width if glyph and set(glyph) == {"█"} else glyph.ljust(width)


def grid_width(puzzle: Puzzle, ascii_cells: bool = False) -> int:
    """How many terminal columns `grid_view` needs."""
    row_clue = max(len(" ".join(t for t, _ in tokens)) for tokens in _all_tokens(puzzle, True, ascii_cells))
    return row_clue + 1 + sum(column_widths(puzzle, _all_tokens(puzzle, False, ascii_cells), ascii_cells))


def grid_view(
    puzzle: Puzzle,
    grid: Grid | None,
    *,
    highlight: Iterable[Cell] = (),
    lines: Iterable[Line] = (),
    ascii_cells: bool = False,
    no_colour: bool = False,
) -> Text:
    """The grid with row clues right-aligned at the left and column clues bottom-aligned above.

    `grid` None draws the empty puzzle sheet, and a cell None in `grid` is left blank;
    `highlight` marks cells (row, column) in red (with `no_colour`, for an output that shows no
    red such as a pipe, a black-and-white cell reads X or o), `lines` marks the clues of those
    lines in red (with --ascii, or `no_colour`: a `<` after the row and a `^` under the column).
    In colour, a marked cell is an X on its colour, and a marked line keeps its swatches and
    gets the `<` or `^`.
    """
    marked = set(highlight)
    lines = list(lines)
    marked_rows = {line.index for line in lines if line.is_row}
    marked_columns = {line.index for line in lines if not line.is_row}
    palette = palette_of(puzzle)
    swatches = palette is not None and not ascii_cells
    pointers = ascii_cells or no_colour or palette is not None
    glyphs = cell_glyphs(palette, ascii_cells)
    rows = _all_tokens(puzzle, True, ascii_cells)
    columns = _all_tokens(puzzle, False, ascii_cells)
    widths = column_widths(puzzle, columns, ascii_cells)
    row_texts = [" ".join(t for t, _ in tokens) for tokens in rows]
    clue_style = None if ascii_cells else "cyan"  # --ascii is for logs: no colour at all
    mark_style = None if ascii_cells else DIFFERENT
    margin = max(map(len, row_texts))
    depth = max(map(len, columns))
    text = Text(no_wrap=True, overflow="ignore")
    rows_of: dict[int | None, tuple[str, list[int], Style | str | None]] = {}  # see _append_equal_runs
    rows_marked = {r for r, _ in marked}
    blank: list[int | None] = [None] * puzzle.width
    for level in range(depth):
        text.append(" " * (margin + 1))
        heads: list[Glyph] = []
        for c, tokens in enumerate(columns):
            offset = level - (depth - len(tokens))
            if swatches:
                _append_token(text, tokens[offset] if offset >= 0 else ("", None), widths[c], clue_style)
                continue
            style = mark_style if c in marked_columns and not pointers else clue_style
            heads.append(((tokens[offset][0] if offset >= 0 else "").rjust(widths[c]), style))
        _append_runs(text, heads)
        text.append("\n")
    for r, clue in enumerate(row_texts):
        if swatches:
            text.append(" " * (margin - len(clue)))
            for i, token in enumerate(rows[r]):
                _append_token(text, token, len(token[0]) + (i > 0), clue_style)
            text.append(" ")
        else:
            style = mark_style if r in marked_rows and not pointers else clue_style
            text.append(clue.rjust(margin) + " ", style=style)
        if r not in rows_marked:  # a run of equal cells at once (a 512x512 grid's cells took 0.4 s)
            _append_equal_runs(text, blank if grid is None else grid[r], widths, glyphs, rows_of)
        else:
            cells: list[Glyph] = []
            for c in range(puzzle.width):
                value = None if grid is None else grid[r][c]
                glyph, look = (" ", None) if value is None else glyphs[value]
                if (r, c) in marked and palette is not None and swatches and value is not None:
                    glyph, look = MARKED, marked_style(palette[value])
                elif (r, c) in marked:
                    look = mark_style
                    if no_colour and palette is None and value is not None:  # no red to see: X and o
                        glyph = "X" if value else "o"
                cells.append((fitted(glyph, widths[c]), look))
            _append_runs(text, cells)
        if pointers and r in marked_rows:
            text.append(" <", style=mark_style)
        if r + 1 < len(row_texts):
            text.append("\n")
    if pointers and marked_columns:
        text.append("\n" + " " * (margin + 1))
        pointed = "".join(("^" if c in marked_columns else "").rjust(widths[c]) for c in range(puzzle.width)).rstrip()
        text.append(pointed, style=mark_style)
    return text


def _append_equal_runs(
    text: Text,
    row: Sequence[int | None],
    widths: list[int],
    glyphs: Sequence[Glyph],
    rows_of: dict[int | None, tuple[str, list[int], Style | str | None]],
) -> None:
    """A row of unmarked cells, each run of equal cells as one span cut from a whole row of that
    value (`rows_of`: made once a grid, with where each column starts in it, and its style)."""
    column = 0
    for value, run in groupby(row):
        if value not in rows_of:
            glyph, look = (" ", None) if value is None else glyphs[value]
            drawn = [fitted(glyph, width) for width in widths]
            rows_of[value] = ("".join(drawn), [0, *accumulate(map(len, drawn))], look)
        whole, starts, look = rows_of[value]
        end = column + sum(1 for _ in run)
        text.append(whole[starts[column] : starts[end]], style=look)
        column = end


def _append_runs(text: Text, drawn: list[Glyph]) -> None:
    """Append each run of glyphs of one style as one span: a span a cell made a 512x512 grid
    take seconds to build and print."""
    for look, run in groupby(drawn, key=itemgetter(1)):
        text.append("".join(glyph for glyph, _ in run), style=look)


def _append_token(text: Text, token: Token, width: int, clue_style: str | None) -> None:
    """A clue number right-aligned in `width` columns, on its swatch (only the digits)."""
    number, colour = token
    text.append(" " * (width - len(number)))
    text.append(number, style=swatch(colour) if colour is not None else clue_style)


def plain_grid(
    grid: Grid,
    *,
    ascii_cells: bool = True,
    highlight: Iterable[tuple[int, int]] = (),
    palette: Palette | None = None,
) -> Text:
    """Just the cells, one character each, for grids too wide to draw with their clues.

    Highlighted cells are red, and in ASCII (no colour) they read X (filled) and o (empty).
    With a colour `palette`, each cell is drawn in its colour (in ASCII, its colour's
    character), and a highlighted cell is an X on its colour (in ASCII, not marked).
    """
    marked = set(highlight)
    glyphs = cell_glyphs(palette, ascii_cells, wide=False)
    marked_in_row: dict[int, list[int]] = {}
    for r, c in marked:
        marked_in_row.setdefault(r, []).append(c)
    text = Text(no_wrap=True, overflow="ignore")
    for r, row in enumerate(grid):
        cells = [glyphs[value] for value in row]
        for c in marked_in_row.get(r, ()):
            value = row[c]
            if palette is None:
                cells[c] = (("X" if value else "o"), None) if ascii_cells else (cells[c][0], DIFFERENT)
            elif not ascii_cells:
                cells[c] = "X", marked_style(palette[value])
        _append_runs(text, cells)
        if r + 1 < len(grid):
            text.append("\n")
    return text


HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
"""The character for a (top, bottom) pair of cells."""


def half_block_grid(grid: Grid, palette: Palette | None = None) -> Text:
    """Just the cells, two rows per character line (`▀`, `▄`, `█` or a space), for large grids.

    A grid of odd height ends with a line whose lower halves are empty. In colour, the upper
    half is drawn in the top cell's colour and the lower half in the bottom one's.
    """
    lines = []
    for r in range(0, len(grid), 2):
        top = grid[r]
        bottom = grid[r + 1] if r + 1 < len(grid) else (0,) * len(top)
        lines.append(list(zip(top, bottom, strict=True)))
    if palette is None:
        text = "\n".join("".join(HALF_BLOCKS[bool(a), bool(b)] for a, b in pairs) for pairs in lines)
        return Text(text, no_wrap=True, overflow="ignore")
    looks: dict[tuple[int, int], Glyph] = {}
    for a in range(len(palette)):
        for b in range(len(palette)):
            # the top half in the top cell's colour, on the bottom one's (the background's if blank)
            looks[a, b] = "▀", Style(color=palette[a].rgb, bgcolor=palette[b].rgb)
    coloured = Text(no_wrap=True, overflow="ignore")
    for i, pairs in enumerate(lines):
        _append_runs(coloured, [looks[pair] for pair in pairs])
        if i + 1 < len(lines):
            coloured.append("\n")
    return coloured


def side_by_side(
    puzzle: Puzzle, first: Grid, second: Grid, *, width: int, ascii_cells: bool = False, no_colour: bool = False
) -> RenderableType | None:
    """Two solutions next to each other, with the cells where they differ marked (red, or with
    `no_colour` and in ASCII X and o: a review found a pipe's black-and-white grids unmarked).

    Draws them with their clues if that fits in `width` columns, else as bare cells; None if
    even that does not fit. In colour with --ascii, where a cell's character is its colour, a
    third grid marks the cells that differ with X (when it fits).
    """
    differ = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if first[r][c] != second[r][c]]
    gap = 4
    palette = palette_of(puzzle)
    headings = ["solution 1", "solution 2"]
    if 2 * grid_width(puzzle, ascii_cells) + gap <= width and not ascii_cells:
        views = [grid_view(puzzle, g, highlight=differ, no_colour=no_colour) for g in (first, second)]
    elif 2 * puzzle.width + gap <= width:
        views = [plain_grid(g, ascii_cells=ascii_cells, highlight=differ, palette=palette) for g in (first, second)]
        if palette is not None and ascii_cells and 3 * puzzle.width + 2 * gap <= width:
            cells = set(differ)
            marks = tuple(tuple(int((r, c) in cells) for c in range(puzzle.width)) for r in range(puzzle.height))
            views.append(plain_grid(marks, highlight=differ))
            headings.append("differ")
    else:
        return None
    from rich.console import Group
    from rich.table import Table

    table = Table.grid(padding=(0, gap))
    heading = "" if ascii_cells else "bold"
    table.add_row(*(Text(words, style=heading) for words in headings))
    table.add_row(*views)
    return Group(table)


def describe_cells(cells: list[tuple[int, int]], limit: int = 12) -> str:
    """Name cells as people count them: "row 3 column 5, ..."."""
    named = [f"(row {r + 1}, column {c + 1})" for r, c in cells[:limit]]
    more = f" and {len(cells) - limit} more" if len(cells) > limit else ""
    return ", ".join(named) + more


def fitted_grid(puzzle: Puzzle, grid: Grid | None, ascii_cells: bool, width: int) -> Text | None:
    """The grid with its clues if it fits `width` characters, else the bare cells (half-blocks,
    or # and . with `ascii_cells`; in colour, in its colours or their characters), else None:
    it is too wide for any view here."""
    if grid_width(puzzle, ascii_cells) <= width:
        return grid_view(puzzle, grid, ascii_cells=ascii_cells)
    palette = palette_of(puzzle)
    if grid is not None and puzzle.width <= width:
        return plain_grid(grid, ascii_cells=True, palette=palette) if ascii_cells else half_block_grid(grid, palette)
    return None
