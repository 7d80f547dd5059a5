"""PyCSP3's JSON data format, `{"rows": [[...], ...], "cols": [[...], ...]}`, plus solutions.

Optional keys carry metadata ("title", "author", "copyright", "license", "catalogue") and the
goal picture ("goal": a list of row strings such as "0110", or a list of lists of 0 and 1).
PyCSP3's model unpacks its data as `rows, cols = data`, so for PyCSP3 itself write without
metadata.
"""

from __future__ import annotations

import json
import re
from typing import Any

from nonosat.errors import ParseError
from nonosat.formats.common import PathName, goal_text, make_puzzle
from nonosat.model import Clue, Grid, Puzzle

METADATA_KEYS = ("title", "author", "copyright", "license", "catalogue")
GOAL_CELLS = {"0": 0, ".": 0, "1": 1, "#": 1}
"""The characters a goal row string may use."""


def key_line(text: str, key: str) -> int | None:
    """The line where `"key"` first appears in a JSON text, to point errors at."""
    found = re.search(rf'"{re.escape(key)}"\s*:', text)
    return text.count("\n", 0, found.start()) + 1 if found else None


def read_object(text: str, path: PathName) -> dict[str, Any]:
    """Parse the JSON text, which must be an object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(path, error.lineno, f"expected JSON: {error.msg} (column {error.colno})") from error
    if not isinstance(data, dict):
        raise ParseError(path, 1, 'expected a JSON object like {"rows": [...], "cols": [...]}')
    return data


def is_whole_number(value: object) -> bool:
    """Whether a JSON value is an integer (true and false do not count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_clues(data: dict[str, Any], keys: tuple[str, ...], text: str, path: PathName) -> list[Clue]:
    """Read the list of clues under the first of `keys` present."""
    key = next((key for key in keys if key in data), None)
    if key is None:
        raise ParseError(path, None, f"expected a {keys[0]!r} list of clues, found none")
    clues = data[key]
    if not isinstance(clues, list) or not clues:
        raise ParseError(path, key_line(text, key), f"expected {key!r} to be a list of clues, found {clues!r}")
    for index, clue in enumerate(clues):
        if not isinstance(clue, list) or not all(is_whole_number(n) and n >= 0 for n in clue):
            raise ParseError(
                path,
                key_line(text, key),
                f"expected {key}[{index}] to be a list of whole numbers, found {clue!r}",
            )
    return [tuple(clue) for clue in clues]


def read_metadata(data: dict[str, Any], text: str, path: PathName) -> dict[str, str]:
    """Read the optional string keys."""
    metadata = {key: data[key] for key in METADATA_KEYS if data.get(key) is not None}
    for key, value in metadata.items():
        if not isinstance(value, str):
            raise ParseError(path, key_line(text, key), f"expected {key!r} to be a string, found {value!r}")
    return metadata


def goal_row(row: object, index: int, line: int | None, path: PathName) -> tuple[int, ...]:
    """Read one row of the goal: a string of 0/1 (or ./#), or a list of 0 and 1."""
    if isinstance(row, str) and set(row) <= GOAL_CELLS.keys():
        return tuple(GOAL_CELLS[cell] for cell in row)
    if isinstance(row, list) and all(is_whole_number(cell) and cell in (0, 1) for cell in row):
        return tuple(row)
    raise ParseError(path, line, f'expected goal[{index}] to be a row like "0110" or [0, 1, 1, 0], found {row!r}')


def read_goal(data: dict[str, Any], text: str, path: PathName) -> Grid | None:
    """Read the optional goal picture."""
    goal = data.get("goal")
    if goal is None:
        return None
    line = key_line(text, "goal")
    if not isinstance(goal, list):
        raise ParseError(path, line, f"expected 'goal' to be a list of rows, found {goal!r}")
    return tuple(goal_row(row, index, line, path) for index, row in enumerate(goal))


def load_json(text: str, path: PathName = None) -> Puzzle:
    """Read a puzzle from PyCSP3-style JSON."""
    data = read_object(text, path)
    return make_puzzle(
        path,
        key_line(text, "goal") if "goal" in data else None,
        rows=read_clues(data, ("rows",), text, path),
        columns=read_clues(data, ("cols", "columns"), text, path),
        goal=read_goal(data, text, path),
        source=path,
        **read_metadata(data, text, path),
    )


def format_json(data: dict[str, Any]) -> str:
    """Write a JSON object one key per line, and a list of clues or rows one item per line."""

    def value(item: object) -> str:
        if isinstance(item, list) and item and all(isinstance(x, (list, str)) for x in item):
            return "[\n    " + ",\n    ".join(json.dumps(x, ensure_ascii=False) for x in item) + "\n  ]"
        return json.dumps(item, ensure_ascii=False)

    return "{\n" + ",\n".join(f"  {json.dumps(key)}: {value(item)}" for key, item in data.items()) + "\n}\n"


def dump_json(puzzle: Puzzle, *, metadata: bool = True) -> str:
    """Write a puzzle as PyCSP3 JSON, with its metadata and goal unless `metadata` is false."""
    data: dict[str, Any] = {"rows": [list(c) for c in puzzle.rows], "cols": [list(c) for c in puzzle.columns]}
    if metadata:
        data.update({key: getattr(puzzle, key) for key in METADATA_KEYS if getattr(puzzle, key) is not None})
        if puzzle.goal is not None:
            data["goal"] = [goal_text((row,)) for row in puzzle.goal]
    return format_json(data)


def dump_solution_json(puzzle: Puzzle, grid: Grid | None, status: str) -> str:
    """Write a solver's answer as JSON: size, clues, status, and the grid as '#'/'.' rows (or null)."""
    solution = None if grid is None else ["".join("#" if cell else "." for cell in row) for row in grid]
    return format_json(
        {
            "width": puzzle.width,
            "height": puzzle.height,
            "rows": [list(c) for c in puzzle.rows],
            "cols": [list(c) for c in puzzle.columns],
            "status": status,
            "solution": solution,
        }
    )
