"""PyCSP3's JSON data format, `{"rows": [[...], ...], "cols": [[...], ...]}`, plus solutions.

"columns" may stand for "cols" (not both); "width" and "height", when given, must match the
numbers of column and row clues; other keys are ignored. Optional keys carry metadata
("title", "author", "copyright", "license", "catalogue", "description") and the goal picture ("goal": a list of
row strings such as "0110", or a list of lists of 0 and 1; a solution's JSON, which `solve -o
x.json` writes, gives it as "solution", rows of "#" and ".").
PyCSP3's model unpacks its data as `rows, cols = data`, so for PyCSP3 itself write without
metadata.

Colour: "palette" lists the colours, the background first, each `{"name", "rgb": "#rrggbb",
"char"}`; each block of a clue is then `[length, "colour name"]` (a bare number is the first
colour), and the goal's rows are strings of the colours' characters (or lists of palette
indices). Black and white is written as above, without a palette.

color-nonogram's JSON (`"rows": ["3B2L", ...]`) is refused: its clues also say whether blocks of
different colours touch, which nonosat's rules leave open.
"""

from __future__ import annotations

import json
import re
from typing import Any

from nonosat.clues import zero_between
from nonosat.errors import InvalidPuzzle, ParseError
from nonosat.formats.common import (
    PathName,
    make_puzzle,
    optional_goal,
    refuse_past_the_limits,
    refuse_past_the_side,
    refuse_zero_between,
)
from nonosat.formats.files import line_at
from nonosat.limits import MAX_SIDE
from nonosat.model import Clue, Colours, Grid, Puzzle
from nonosat.palette import Colour, Palette, check_palette

METADATA_KEYS = ("title", "author", "copyright", "license", "catalogue", "description")
GOAL_CELLS = {"0": 0, ".": 0, "1": 1, "#": 1}
"""The characters a goal row string may use."""


def shown(value: object, most: int = 60) -> str:
    """A value of the file as JSON writes it (`[true]`, `null`), not as Python does (`[True]`,
    `None`: a review), cut short past `most` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def key_line(text: str, key: str) -> int | None:
    """The line where `"key"` first appears in a JSON text, to point errors at."""
    found = re.search(rf'"{re.escape(key)}"\s*:', text)
    return text.count("\n", 0, found.start()) + 1 if found else None


def element_line(text: str, key: str, index: int) -> int | None:
    """The line where element `index` of the list under `"key"` begins (the key's own line if it
    cannot be told), so that an error points at the clue at fault, not at the list's start."""
    found = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if found is None:
        return key_line(text, key)
    depth, count, in_string, escaped, element = 0, 0, False, False, True
    for at in range(found.end(), len(text)):
        char = text[at]
        if in_string:
            in_string, escaped = (not (char == '"' and not escaped)), (char == "\\" and not escaped)
            continue
        if element and not char.isspace():
            if count == index:
                return text.count("\n", 0, at) + 1
            element = False
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            if depth == 0:
                break
            depth -= 1
        elif char == "," and depth == 0:
            count, element = count + 1, True
    return key_line(text, key)


class _KeyTwice(Exception):
    """A key given twice in one JSON object."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys each come once: Python's reader keeps the last of two (a fuzz
    review: a second "rows" replaced the first without a word)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        raise _KeyTwice(next(key for key, _ in pairs if key in seen or seen.add(key)))  # type: ignore[func-returns-value]
    return data


def read_object(text: str, path: PathName) -> dict[str, Any]:
    """Parse the JSON text, which must be an object."""
    try:
        data = json.loads(text, object_pairs_hook=_once_each)
    except json.JSONDecodeError as error:
        raise ParseError(path, error.lineno, f"expected JSON: {error.msg} (column {error.colno})") from error
    except _KeyTwice as twice:
        key = str(twice.args[0])
        places = [
            found.start()
            for found in re.finditer(rf'"{re.escape(json.dumps(key, ensure_ascii=False)[1:-1])}"\s*:', text)
        ]
        line = line_at(text, places[1]) if len(places) > 1 else None
        raise ParseError(path, line, f"found the key {key!r} twice in one object") from None
    if not isinstance(data, dict):
        raise ParseError(path, 1, 'expected a JSON object like {"rows": [...], "cols": [...]}')
    return data


def is_whole_number(value: object) -> bool:
    """Whether a JSON value is an integer (true and false do not count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_clues(
    data: dict[str, Any], keys: tuple[str, ...], text: str, path: PathName, palette: Palette | None
) -> tuple[list[Clue], list[Colours]]:
    """Read the list of clues under the first of `keys` present (in colour, with their colours)."""
    key = next((key for key in keys if key in data), None)
    if key is None:
        start = text.count("\n", 0, max(0, text.find("{"))) + 1  # the object's first line
        raise ParseError(path, start, f"expected a {keys[0]!r} list of clues in the object, found none")
    clues = data[key]
    if not isinstance(clues, list) or not clues:
        raise ParseError(path, key_line(text, key), f"expected {key!r} to be a list of clues, found {shown(clues)}")
    long = next((index for index, clue in enumerate(clues) if isinstance(clue, list) and len(clue) > MAX_SIDE), None)
    if long is not None:  # before its blocks are read (a fuzz review: 3 million took 25 s and 486 MB)
        limit = f"over the limit of {MAX_SIDE} cells a side"
        raise ParseError(
            path, element_line(text, key, long), f"found {key}[{long}] of more than {MAX_SIDE} blocks: {limit}"
        )
    if palette is None:
        for index, clue in enumerate(clues):
            if not isinstance(clue, list) or not all(is_whole_number(n) and n >= 0 for n in clue):
                raise ParseError(
                    path,
                    element_line(text, key, index),
                    f"expected {key}[{index}] to be a list of whole numbers, found {shown(clue)}",
                )
            if 0 in clue and zero_between(clue):  # (element_line reads the text: only for a clue at fault)
                refuse_zero_between(clue, path, element_line(text, key, index), f"{key}[{index}] = {clue}")
        return [tuple(clue) for clue in clues], []
    names = {colour.name: index for index, colour in enumerate(palette) if index}

    def line_of(index: int) -> int | None:
        return element_line(text, key, index)

    sizes: list[Clue] = []
    colours: list[Colours] = []
    for index, clue in enumerate(clues):
        blocks = [read_block(block, names) for block in clue] if isinstance(clue, list) else [None]
        unknown = [block[1] for block in clue if unnamed(block, names)] if isinstance(clue, list) else []
        if unknown:
            known = ", ".join(names)
            background = unknown[0] == palette[0].name
            lacks = "the background, which no block has" if background else "a colour the palette lacks"
            raise ParseError(path, line_of(index), f"{key}[{index}] names {unknown[0]!r}, {lacks} ({known})")
        if None in blocks:
            shape = 'a list of blocks such as [3, "red"]'
            raise ParseError(path, line_of(index), f"expected {key}[{index}] to be {shape}, found {shown(clue)}")
        sizes_of = tuple(block[0] for block in blocks if block)
        if 0 in sizes_of and zero_between(sizes_of):  # (element_line reads the text: only for a clue at fault)
            found = f"{key}[{index}] = {json.dumps(clue)}"  # as the file writes it, not as Python would
            refuse_zero_between(sizes_of, path, line_of(index), found)
        sizes.append(sizes_of)
        colours.append(tuple(block[1] for block in blocks if block))
    return sizes, colours


def unnamed(block: object, names: dict[str, int]) -> bool:
    """Whether a block is `[length, "name"]` with a name the palette does not have."""
    return isinstance(block, list) and len(block) == 2 and isinstance(block[1], str) and block[1] not in names


def read_block(block: object, names: dict[str, int]) -> tuple[int, int] | None:
    """A colour block's length and colour: a whole number (the first colour) or `[length,
    "name"]`; None if it is neither."""
    if is_whole_number(block) and block >= 0:  # type: ignore[operator]
        return block, 1  # type: ignore[return-value]
    if isinstance(block, list) and len(block) == 2 and is_whole_number(block[0]) and block[0] >= 0:
        colour = names.get(block[1]) if isinstance(block[1], str) else None
        return None if colour is None else (block[0], colour)
    return None


def read_palette(data: dict[str, Any], text: str, path: PathName) -> Palette | None:
    """The optional palette: a list of {"name", "rgb", "char"}, the background first."""
    palette = data.get("palette")
    if palette is None:
        return None
    line = key_line(text, "palette")
    shape = 'expected \'palette\' to be a list of {"name", "rgb", "char"}, the background first'
    if not isinstance(palette, list) or not all(isinstance(c, dict) for c in palette):
        raise ParseError(path, line, f"{shape}, found {shown(palette)}")
    for number, colour in enumerate(palette, 1):  # rgb 123 was read as the text '123', #112233 (a review)
        for key, value in colour.items():
            if key in ("name", "rgb", "char") and not isinstance(value, str):
                raise ParseError(path, line, f"expected colour {number}'s {key!r} to be text, found {shown(value)}")
    try:
        colours = tuple(Colour(str(c.get("name", "")), str(c.get("rgb", "")), str(c.get("char", ""))) for c in palette)
        check_palette(colours)  # a name twice, before a clue blames it (a review)
    except InvalidPuzzle as error:
        raise ParseError(path, line, str(error)) from error
    return colours


def refuse_color_nonogram(data: dict[str, Any], text: str, path: PathName) -> None:
    """Refuse color-nonogram's JSON, whose clues are strings such as "3B2L"."""
    rows = data.get("rows")
    if "styles" in data or (isinstance(rows, list) and rows and all(isinstance(row, str) for row in rows)):
        raise ParseError(
            path,
            key_line(text, "rows"),
            "found color-nonogram's JSON, whose clues (such as '3B2L', '1L 2L') also say whether blocks of"
            " different colours touch; nonosat's rules leave that open, so reading it would change the puzzle",
        )


def read_metadata(data: dict[str, Any], text: str, path: PathName) -> dict[str, str]:
    """Read the optional string keys."""
    metadata = {key: data[key] for key in METADATA_KEYS if data.get(key) is not None}
    for key, value in metadata.items():
        if not isinstance(value, str):
            raise ParseError(path, key_line(text, key), f"expected {key!r} to be a string, found {shown(value)}")
    return metadata


def goal_row(row: object, index: int, line: int | None, path: PathName, palette: Palette | None) -> tuple[int, ...]:
    """Read one row of the goal: a string of 0/1 (or ./#), or a list of 0 and 1; in colour, a
    string of the colours' characters, or a list of palette indices."""
    cells = GOAL_CELLS if palette is None else {colour.char: i for i, colour in enumerate(palette)}
    if isinstance(row, str) and set(row) <= cells.keys():
        return tuple(cells[cell] for cell in row)
    if isinstance(row, list) and all(is_whole_number(cell) and 0 <= cell < len(palette or "01") for cell in row):
        return tuple(row)
    shape = '"0110" or [0, 1, 1, 0]' if palette is None else "a string of the palette's characters"
    raise ParseError(path, line, f"expected goal[{index}] to be a row like {shape}, found {shown(row)}")


def read_goal(data: dict[str, Any], text: str, path: PathName, palette: Palette | None) -> Grid | None:
    """Read the optional goal picture: "goal", else the "solution" of a solution's JSON
    (`dump_solution_json`, which `solve -o x.json` writes)."""
    key = "goal" if data.get("goal") is not None else "solution"
    goal = data.get(key)
    if goal is None:
        return None
    line = key_line(text, key)
    if not isinstance(goal, list):
        raise ParseError(path, line, f"expected 'goal' to be a list of rows, found {shown(goal)}")
    return tuple(goal_row(row, index, line, path, palette) for index, row in enumerate(goal))


def check_size(data: dict[str, Any], width: int, height: int, text: str, path: PathName) -> None:
    """A "width" or "height" (which the format does not need) must be the clues' own: one that
    is not was ignored, and another puzzle than its author's was solved."""
    for key, count, clues in (("width", width, "column"), ("height", height, "row")):
        if key in data and (not is_whole_number(data[key]) or data[key] != count):
            raise ParseError(
                path,
                key_line(text, key),
                f"expected {key} {count}, the number of {clues} clues, found {shown(data[key])}",
            )


def refuse_too_many_clues(data: dict[str, Any], text: str, path: PathName) -> None:
    """Refuse lists of clues past the limits before a clue is read (a fuzz review: 5 million
    rows in 10 MB were read for 19 s, and took 455 MB)."""
    counts = {key: len(data[key]) for key in ("rows", "cols", "columns") if isinstance(data.get(key), list)}
    for key, count in counts.items():
        refuse_past_the_side(count, "row" if key == "rows" else "column", path, key_line(text, key))
    if "rows" in counts and len(counts) == 2:
        refuse_past_the_limits(
            counts.get("cols", counts.get("columns", 0)), counts["rows"], path, key_line(text, "rows")
        )


def load_json(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from PyCSP3-style JSON."""
    data = read_object(text, path)
    refuse_too_many_clues(data, text, path)
    refuse_color_nonogram(data, text, path)
    palette = read_palette(data, text, path)
    rows, row_colours = read_clues(data, ("rows",), text, path, palette)
    if "cols" in data and "columns" in data:
        raise ParseError(path, key_line(text, "columns"), 'expected the column clues once, as "cols" or "columns"')
    columns, column_colours = read_clues(data, ("cols", "columns"), text, path, palette)
    check_size(data, len(columns), len(rows), text, path)
    colours = (
        {} if palette is None else {"palette": palette, "row_colours": row_colours, "column_colours": column_colours}
    )
    goal, goal_problem = optional_goal(lambda: read_goal(data, text, path, palette))
    given = next((key for key in ("goal", "solution") if data.get(key) is not None), "palette")
    return make_puzzle(
        path,
        key_line(text, given),
        rows=rows,
        columns=columns,
        goal=goal,
        goal_problem=goal_problem,
        source=path,
        **colours,
        **read_metadata(data, text, path),
    )


def format_json(data: dict[str, Any]) -> str:
    """Write a JSON object one key per line, and a list of clues or rows one item per line."""

    def value(item: object) -> str:
        if isinstance(item, list) and item and all(isinstance(x, (list, str, dict)) for x in item):
            return "[\n    " + ",\n    ".join(json.dumps(x, ensure_ascii=False) for x in item) + "\n  ]"
        return json.dumps(item, ensure_ascii=False)

    return "{\n" + ",\n".join(f"  {json.dumps(key)}: {value(item)}" for key, item in data.items()) + "\n}\n"


def clue_lists(puzzle: Puzzle, is_row: bool) -> list[list[Any]]:
    """A puzzle's row (or column) clues as lists: of numbers, or in colour of [length, name]."""
    clues = puzzle.rows if is_row else puzzle.columns
    if not puzzle.is_colour:
        return [list(clue) for clue in clues]
    names = [colour.name for colour in puzzle.palette]
    return [
        [[size, names[colour]] for size, colour in zip(clue, puzzle.colours_of(is_row, i), strict=True)]
        for i, clue in enumerate(clues)
    ]


def palette_list(puzzle: Puzzle) -> list[dict[str, str]]:
    """The palette as JSON: the background first."""
    return [{"name": colour.name, "rgb": colour.rgb, "char": colour.char} for colour in puzzle.palette]


def grid_rows(puzzle: Puzzle, grid: Grid, filled: str, empty: str) -> list[str]:
    """A grid as strings: in colour each cell its colour's character, else `filled` or `empty`."""
    chars = [colour.char for colour in puzzle.palette] if puzzle.is_colour else [empty, filled]
    return ["".join(chars[cell] for cell in row) for row in grid]


def dump_json(puzzle: Puzzle, *, metadata: bool = True) -> str:
    """Write a puzzle as PyCSP3 JSON, with its metadata and goal unless `metadata` is false; in
    colour, with its palette."""
    return format_json(json_object(puzzle, metadata=metadata))


def json_object(puzzle: Puzzle, *, metadata: bool = True) -> dict[str, Any]:
    """The object `dump_json` writes."""
    data: dict[str, Any] = {"rows": clue_lists(puzzle, True), "cols": clue_lists(puzzle, False)}
    if puzzle.is_colour:
        data["palette"] = palette_list(puzzle)
    if metadata:
        data.update({key: getattr(puzzle, key) for key in METADATA_KEYS if getattr(puzzle, key) is not None})
        if puzzle.goal is not None:
            data["goal"] = grid_rows(puzzle, puzzle.goal, "1", "0")
    return data


def dump_solution_json(puzzle: Puzzle, grid: Grid | None, status: str) -> str:
    """Write a solver's answer as JSON: size, clues, the puzzle's title and other metadata,
    status, and the grid as '#'/'.' rows (or null); in colour, with the palette, and the grid
    in the colours' characters. `load_json` reads it back as the puzzle, the grid its goal."""
    data: dict[str, Any] = {
        "width": puzzle.width,
        "height": puzzle.height,
        "rows": clue_lists(puzzle, True),
        "cols": clue_lists(puzzle, False),
    }
    if puzzle.is_colour:
        data["palette"] = palette_list(puzzle)
    data.update({key: getattr(puzzle, key) for key in METADATA_KEYS if getattr(puzzle, key) is not None})
    data["status"] = status
    data["solution"] = None if grid is None else grid_rows(puzzle, grid, "#", ".")
    return format_json(data)
