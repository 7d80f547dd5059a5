"""Writing puzzles and solutions to files: the format a path's suffix names, atomic writes that
replace a file only when asked, and what a format cannot hold (dropped, and said so)."""

from __future__ import annotations

from dataclasses import replace

from nonosat.errors import UsageError
from nonosat.formats import (
    FIELDS,
    FORMATS,
    check_path,
    dump_solution_json,
    dumps,
    get_format,
    load,
    loads,
    write_text_atomic,
)
from nonosat.formats.detection import SUFFIXES, suffix_of
from nonosat.model import Grid, Puzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from pathlib import Path


def format_for_suffix(path: str | Path, *, nameable: bool = True) -> str:
    """The format a file's suffix names, for writing (`nameable`: the caller can name the format
    instead, as `convert --to` and `save(fmt=)` can)."""
    suffix = suffix_of(path)
    if suffix not in SUFFIXES:
        writable = ", ".join(s for s, name in SUFFIXES.items() if FORMATS[name].dump is not None)
        raise UsageError(
            f"cannot tell which format to write {path} in from its suffix; use {writable}"
            + (" or name the format" if nameable else "")
        )
    return SUFFIXES[suffix]


def save(puzzle: Puzzle, path: str | Path, *, fmt: str | None = None, force: bool = False) -> list[str]:
    """Write a puzzle to a file atomically, in the format its suffix names (or `fmt`). Returns the
    fields of the puzzle that format cannot hold (`dropped_fields`: its title in a .nin, say),
    as `convert` warns of them; empty when the file holds it all."""
    from nonosat.arguments import check_puzzle

    check_puzzle(puzzle)
    check_path(path, reading=False)
    form = fmt or format_for_suffix(path)
    write_text_atomic(path, dumps(puzzle, form), force=force)
    return dropped_fields(puzzle, form)


def check_solution_path(path: str | Path) -> None:
    """Refuse (UsageError) a path whose suffix names no format that holds a solution: `.nin`,
    `.clues`, `.mk`, `.g` and a Tatham ID keep the clues only, and wrote no solution, silently."""
    if suffix_of(path) == ".json":
        return
    holding = ", ".join(s for s, name in SUFFIXES.items() if "goal" in FORMATS[name].keeps)
    fmt = SUFFIXES.get(suffix_of(path))
    if fmt is None or "goal" not in FORMATS[fmt].keeps:
        if fmt is None:
            what = "names no format nonosat writes"
        elif FORMATS[fmt].dump is None:
            what = f"is a {fmt} file, which nonosat reads but does not write"
        else:
            what = f"is a {fmt} file, which holds no solution"
        raise UsageError(f"{path} {what}: a solution is written as {holding}")


def save_solution(puzzle: Puzzle, grid: Grid, status: str, path: str | Path, *, force: bool = False) -> None:
    """Write a solution atomically: as JSON (with its status) for a .json path, else as the
    puzzle with the solution for its goal, in the format the suffix names (one that holds a goal:
    `check_solution_path`)."""
    check_solution_path(path)
    if suffix_of(path) == ".json":
        write_text_atomic(path, dump_solution_json(puzzle, grid, status), force=force)
    else:
        save(replace(puzzle, goal=grid), path, force=force)


def dropped_fields(puzzle: Puzzle, fmt: str) -> list[str]:
    """The optional fields a puzzle has that the named format cannot hold, in FIELDS order;
    "colour names" ("colour characters") when a colour puzzle written in that format reads back
    with other names (characters, which typed clues and grids use); and
    the goal when the file's could not be read (the puzzle was read without it)."""
    form = get_format(fmt)
    keeps = form.kept(puzzle)
    dropped = [name for name in FIELDS if getattr(puzzle, name) is not None and name not in keeps]
    if puzzle.goal_problem is not None and "goal" not in dropped:  # read without it: say so, never drop it silently
        dropped.append("goal (it could not be read)")
    if puzzle.is_colour and form.colour:
        again = loads(dumps(puzzle, fmt), fmt=fmt)
        for what, field in (("names", "name"), ("characters", "char")):
            if [getattr(c, field) for c in again.palette] != [getattr(c, field) for c in puzzle.palette]:
                dropped.append(f"colour {what}")
    return dropped


def convert(source: str | Path, target: str | Path, *, to: str | None = None, force: bool = False) -> list[str]:
    """Read a puzzle and write it in another format (named by `to`, else by the target's suffix).

    Returns the fields that were dropped because the target format cannot hold them. The target
    is written atomically, and an existing one is replaced only with `force`.
    """
    return save(load(source), target, fmt=to or format_for_suffix(target), force=force)
