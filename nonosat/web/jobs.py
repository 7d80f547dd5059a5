"""What a worker does with one request: read the upload, make the library call the command line
makes, and give back the reply (a record as JSON, a file, or a picture). Nothing here touches
the network or asyncio; it runs in a worker process from the fork server (see `pool`), where
the deadline's alarm works."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nonosat.errors import CutShort, GenerateFailed, ImpossiblePuzzle, NonosatError, ParseError, TooLarge
from nonosat.limits import MAX_SIDE

if TYPE_CHECKING:
    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle

WEB_NAMES = {
    "threshold": "threshold",
    "invert": "invert",
    "width": "width",
    "max_changes": "max_changes",
    "max_distance": "max_distance",
    "seed": "seed",
    "count": "count",
    "require": "require",
    "colours": "colours",
    "engine": "engine",
    "number": "?number",
    "name": "the upload's file name",
    "select": "with the query parameter number, e.g. ?number=1",
}
"""How the API names the library's parameters in a message (NonosatError.worded): as its query
parameters."""

JSON_NAME = "<input>"
"""How answers name a puzzle sent as a JSON body (the command line names its file)."""


@dataclass(frozen=True)
class Job:
    """One request, as the server read it and checked its options."""

    kind: str
    data: bytes
    name: str
    """The upload's file name (no folder), or `<input>` for a JSON body."""
    fmt: str | None
    """"json" for a JSON body; None to find the format as the command line does."""
    timeout: float
    """Seconds for the whole request, counted from `received`: waiting for a worker and
    starting it count too."""
    max_side: int
    options: dict[str, Any] = field(default_factory=dict)
    received: float = field(default_factory=time.time)
    """When the server read the request, on the wall clock (a worker is another process: the
    monotonic clock's start is not promised to be shared)."""

    @property
    def path(self) -> str:
        """The puzzle's `path` in an answer: the name, with `#N` when `number` chose one of a file
        of several, as the command line's `FILE#N` (a review found the number dropped)."""
        number = self.options.get("number")
        return self.name if number is None else f"{self.name}#{number}"

    def remaining(self) -> float:
        """Seconds left of the request's time, between 0 and its timeout."""
        return min(self.timeout, max(0.0, self.timeout - (time.time() - self.received)))


@dataclass(frozen=True)
class Reply:
    """What the server sends back."""

    status: int
    body: bytes
    media_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def json(data: Any, status: int = 200) -> Reply:
        return Reply(status, json.dumps(data).encode())

    @staticmethod
    def error(message: str, status: int = 400) -> Reply:
        return Reply.json({"error": message}, status)


def answer(job: Job) -> Reply:
    """The reply to a job; nonosat's own errors become a 4xx with their one-line message."""
    from nonosat.deadline import Deadline
    from nonosat.render.terminal import one_line

    deadline = Deadline.after(job.remaining())
    try:
        reply: Reply = work_for(job.kind)(job, deadline)
        return reply
    except GenerateFailed as error:
        return Reply.error(one_line(error.worded(WEB_NAMES)), 422)
    except CutShort as error:
        return cut_short(job, one_line(str(error)))
    except NonosatError as error:
        return Reply.error(one_line(error.worded(WEB_NAMES)))


FILE_KINDS = ("convert", "render", "certificate")
"""The requests whose answer is a file, not a record."""


def cut_short(job: Job, reason: str) -> Reply:
    """Time ran out before the work had an answer (waiting for a worker, reading the puzzle,
    making a picture's grid): a record of the puzzle's path, status unknown and why, or for a
    file, 422 (there is nothing to send). Work that ran out with an answer in part (a search)
    answers in its own shape instead."""
    from nonosat.render.records import unread_record

    if job.kind in FILE_KINDS:
        return Reply.error(f"nothing to send: unknown ({reason})", 422)
    return Reply.json(unread_record(job.path, reason))


def read_puzzle(job: Job, deadline: Deadline) -> Puzzle:
    """The upload as a puzzle, found as `nonosat.formats.load` finds a file's format, within the
    server's size limit."""
    from nonosat.deadline import finished_by
    from nonosat.formats import decode_text, load_bytes, loads

    number, fmt = job.options.get("number"), job.fmt

    def read() -> Puzzle:
        if fmt is not None:
            return loads(decode_text(job.data, job.name), fmt=fmt, path=job.name, number=number)
        return load_bytes(job.data, job.name, number)

    try:
        puzzle = finished_by(deadline, f"reading {job.name}", read)  # Pillow's C hears no timer signal
    except (TooLarge, ParseError) as error:  # past nonosat's own limit on sides: this server's is lower still
        if f"over the limit of {MAX_SIDE} cells a side" not in str(error) or job.max_side >= MAX_SIDE:
            raise
        raise TooLarge(f"{error}; this server takes up to {job.max_side} cells a side") from None
    try:
        check_side(puzzle.width, puzzle.height, job.max_side)
    except TooLarge as error:  # named as every other error about the upload is (a review)
        raise TooLarge(f"{job.path}: {error}") from None
    return puzzle


def check_side(width: int, height: int, side: int) -> None:
    from nonosat.limits import check_grid_size

    check_grid_size(width, height, what="puzzle on this server", side=side)


def check_one_side(width: int | None, height: int | None, side: int) -> None:
    """The one side a request gave (the other left to a picture's aspect) within `side`."""
    from nonosat.errors import TooLarge

    for name, given in (("wide", width), ("high", height)):
        if given is not None and given > side:
            raise TooLarge(f"a puzzle on this server {given} cells {name} is over the limit of {side} cells a side")


def refuted(job: Job, puzzle: Puzzle, error: ImpossiblePuzzle) -> Reply:
    """rate's, explain's or hint's answer for a puzzle the cheap checks refute: in its own shape."""
    from nonosat.render.records import refuted_as

    return Reply.json(refuted_as(job.kind, puzzle, error.problems, job.path))


def check(job: Job, deadline: Deadline) -> Reply:
    from nonosat.reports import check_report

    puzzle = read_puzzle(job, deadline)
    engine = job.options.get("engine", "auto")
    return Reply.json(check_report(puzzle, job.path, deadline, engine=engine, line_open=True).record())


def solve(job: Job, deadline: Deadline) -> Reply:
    from nonosat.reports import solve_report

    puzzle = read_puzzle(job, deadline)
    options = job.options
    report = solve_report(
        puzzle, job.path, deadline, count=options.get("count", 2), engine=options.get("engine", "auto"), written=True
    )
    return Reply.json(report.record())


def rate(job: Job, deadline: Deadline) -> Reply:
    from nonosat.explain.rating import rate as rate_puzzle
    from nonosat.render.records import rating_record

    puzzle = read_puzzle(job, deadline)
    try:
        rating = rate_puzzle(puzzle, timeout=deadline, engine=job.options.get("engine", "auto"))
        return Reply.json(rating_record(job.path, rating))
    except ImpossiblePuzzle as error:
        return refuted(job, puzzle, error)


def explain(job: Job, deadline: Deadline) -> Reply:
    from nonosat.explain.steps import explain as explain_puzzle
    from nonosat.render.records import step_writing, trace_record

    puzzle = read_puzzle(job, deadline)
    try:
        explained = explain_puzzle(puzzle, deadline, writing=step_writing(indented=False))
    except ImpossiblePuzzle as error:
        return refuted(job, puzzle, error)
    return Reply.json(trace_record(job.path, explained.logic, explained.open_cells, explained.search))


def hint(job: Job, deadline: Deadline) -> Reply:
    from nonosat.explain.hint import hint as next_hint
    from nonosat.explain.hint import parse_state
    from nonosat.render.records import hint_record
    from nonosat.render.text import hint_lines

    puzzle = read_puzzle(job, deadline)
    state = parse_state(job.options["state"], puzzle, "state")
    try:
        found = next_hint(puzzle, state, job.options.get("steps", 1), timeout=deadline)
    except ImpossiblePuzzle as error:
        return refuted(job, puzzle, error)
    return Reply.json({**hint_record(found), "text": hint_lines(found)})


def picture_options(job: Job) -> dict[str, Any]:
    """The options `read_picture` takes, from the request's."""
    from nonosat.generate.image import PictureBytes

    options = job.options
    width, height = options.get("width"), options.get("height")
    if width is not None and height is not None:
        check_side(width, height, job.max_side)
    else:  # the other side follows the picture's: known from its header
        from nonosat.generate.image import grid_size

        size = picture_size(job.data)
        if size is not None:
            check_side(*grid_size(size, width, height), job.max_side)
        else:  # an unreadable picture, refused when it is read; a side given is held to the limit first
            check_one_side(width, height, job.max_side)
    return {
        "path": PictureBytes(job.name, job.data),
        "width": options.get("width"),
        "height": options.get("height"),
        "threshold_level": options.get("threshold", "otsu"),
        "invert": options.get("invert", False),
        "colours": options.get("colours"),
        "seed": options.get("seed", 0),
    }


def picture_size(data: bytes) -> tuple[int, int] | None:
    """A picture's (width, height) in pixels from its header, or None if Pillow cannot tell (the
    picture's reading then says why)."""
    import io
    import warnings

    try:
        from PIL import Image

        with warnings.catch_warnings():  # our own limit, MAX_PICTURE_PIXELS, is below Pillow's bomb warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                return image.width, image.height
    except Exception:  # noqa: BLE001 - any unreadable picture is refused when it is read
        return None


def picture(job: Job, deadline: Deadline) -> Reply:
    """A picture made into a grid, without repair: the page's preview of an import."""
    from nonosat.generate.picture import read_picture
    from nonosat.model import Puzzle
    from nonosat.render.records import puzzle_record

    found = read_picture(**picture_options(job), deadline=deadline)  # its size held to the side already
    puzzle = Puzzle.from_grid(found.grid, found.palette, title=Path(job.name).stem)
    return Reply.json({"puzzle": puzzle_record(puzzle), "threshold": found.threshold})


def generate(job: Job, deadline: Deadline) -> Reply:
    from nonosat.generate import from_image
    from nonosat.render.records import generated_record

    options = job.options
    made = from_image(
        **picture_options(job),
        require=options.get("require", "unique"),
        max_changes=options.get("max_changes"),
        max_distance=options.get("max_distance"),
        timeout=deadline,
    )
    return Reply.json(generated_record(made))


def drawing(job: Job, deadline: Deadline) -> tuple[Puzzle, Any]:
    """The puzzle and its goal, the drawing to repair (every change of a cell costs 1)."""
    from nonosat.errors import UsageError

    puzzle = read_puzzle(job, deadline)
    goal = puzzle.goal
    if goal is None and puzzle.goal_problem is not None:  # a goal given, but not one of these clues' grid
        raise UsageError(f"{job.path}: the goal, the drawing to change, could not be read: {puzzle.goal_problem}")
    if goal is None:
        raise UsageError(f"{job.path}: the puzzle has no goal, and the drawing to change is its goal")
    return puzzle, goal


GOAL_FITS = "goal_fits_clues"
"""The answer's field that says whether the goal fits the clues sent: the drawing is what is
changed (or weighed), and the answer's clues are made from it, so clues it does not fit are not
used (a review found them replaced without a word)."""


def repair(job: Job, deadline: Deadline) -> Reply:
    """The page's drawing changed until its puzzle meets the requirement."""
    import time

    from nonosat.generate import Generated, default_max_changes
    from nonosat.generate.repair import repair as repair_grid
    from nonosat.model import TEXT_FIELDS, Puzzle
    from nonosat.render.records import generated_record

    started = time.monotonic()
    puzzle, goal = drawing(job, deadline)
    options = job.options
    limit = options.get("max_changes")  # 0 too: the drawing as it is, or no puzzle, as on the command line
    limit = default_max_changes(puzzle.width, puzzle.height) if limit is None else limit
    fixed = repair_grid(
        goal,
        changed_cost(goal),
        options.get("require", "unique"),
        palette=puzzle.palette,
        max_changes=limit,
        max_distance=options.get("max_distance"),
        unit=1.0,
        seed=options.get("seed", 0),
        timeout=deadline,
    )
    made = Puzzle.from_grid(fixed.grid, puzzle.palette, **{name: getattr(puzzle, name) for name in TEXT_FIELDS})
    seconds = time.monotonic() - started
    record = generated_record(Generated(made, goal, fixed.changed, fixed.result, None, seconds, None, fixed.distance))
    return Reply.json({**record, GOAL_FITS: puzzle.satisfied_by(goal)})


def changed_cost(goal: Any) -> Any:
    """Every cell changed from the drawing costs 1 (the drawing has no grey levels)."""
    return lambda row, column, colour: 0.0 if goal[row][column] == colour else 1.0


def suggest(job: Job, deadline: Deadline) -> Reply:
    from nonosat.generate import Suggestions
    from nonosat.generate.suggestions import suggest as suggest_edits
    from nonosat.render.records import suggestions_record
    from nonosat.render.text import suggestion_lines

    puzzle, goal = drawing(job, deadline)
    left, edits = suggest_edits(
        goal,
        changed_cost(goal),
        job.options.get("count", 5),
        palette=puzzle.palette,
        unit=1.0,
        timeout=deadline,
    )
    found = Suggestions(left, edits, puzzle.palette)
    text = suggestion_lines(job.path, found)
    fits = puzzle.satisfied_by(goal)
    if not fits:
        text = [f"{job.path}: the goal does not fit the clues sent: these are the goal's own clues' edits", *text]
    return Reply.json({**suggestions_record(found), "text": text, GOAL_FITS: fits})


ANSWERS: dict[str, Any] = {
    "check": check,
    "solve": solve,
    "rate": rate,
    "explain": explain,
    "hint": hint,
    "picture": picture,
    "generate": generate,
    "repair": repair,
    "suggest": suggest,
}
"""Each endpoint's work that answers a record, by the name in its path (/api/NAME); the answers
about files (`convert`, `render`, `contents`, `certificate`) are in web/file_jobs.py."""


def work_for(kind: str) -> Any:
    """The work of an endpoint, by its name."""
    if kind in ANSWERS:
        return ANSWERS[kind]
    from nonosat.web import file_jobs

    return file_jobs.ANSWERS[kind]
