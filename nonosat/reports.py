"""Reports: what solve and check found about one puzzle, as the command line and the web API
both give it.

    report = check_report(puzzle, "dancer.non", Deadline.after(10))
    report.record()  # what `nonosat check dancer.non --format json` prints, and /api/check sends

Each runs the library's calls in the order the command line always has (the solver, then the
rating, then the lines at fault when there is no solution) and keeps what they found, so that
the command line can draw it for people and the web can send its record (see
`nonosat.render.records`): the two cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from nonosat.deadline import Deadline
from nonosat.errors import ImpossiblePuzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from nonosat.explain.diagnosis import Diagnosis
    from nonosat.explain.rating import Rating
    from nonosat.model import Cell, Puzzle
    from nonosat.render.records import Record
    from nonosat.solver import Result, Verdict

RATING_SECONDS = 1.0
RATING_TIMES = 10
"""check rates within `rating_bound`: RATING_TIMES the verdict's time, and at least
RATING_SECONDS (probing a big open grid can take far longer than the verdict; `rate` has no
such bound)."""

Conflict = tuple["Diagnosis | None", "str | None"]
"""The lines at fault (None when there is a solution after all), or why the search for them
stopped (`nonosat.explain.diagnosis.conflicting_lines`)."""


@dataclass(frozen=True)
class Report:
    """What solve or check found about one puzzle, and its record (the JSON both faces send)."""

    puzzle: Puzzle
    name: str
    """How the record names the puzzle: the file as given, or an upload's name."""
    result: Result
    """What the solver found: `none` by cheap checks before any search when `refuted`."""
    verdict: Verdict | None = None
    """check's verdict (None for solve)."""
    rating: Rating | None = None
    at_fault: Conflict | None = None
    """The lines at fault, looked for when there is no solution and `conflicts` was asked."""
    conflicts: bool = True
    goal_ok: bool | None = None
    """check: whether the file's goal satisfies the clues (None without a goal)."""
    line_open: tuple[Cell, ...] | None = None
    """The cells line logic alone leaves open, when asked for and found in time (the web page
    shades them)."""

    @property
    def status(self) -> str:
        return self.result.status.value

    @property
    def refuted(self) -> ImpossiblePuzzle | None:
        """The cheap checks that refuted the puzzle before any search, as the error the rating,
        explain and hint raise for it; None when the solver had to look."""
        problems = self.result.problems
        return ImpossiblePuzzle(list(problems), self.puzzle.source) if problems else None

    def record(self) -> Record:
        """The report as `--format json` prints it."""
        from nonosat.render.records import diagnosis_record, refuted_record, result_record, verdict_record

        diagnosis = None if self.at_fault is None else diagnosis_record(self.puzzle, *self.at_fault)
        if self.verdict is not None:
            data = verdict_record(self.verdict, self.name, self.rating, diagnosis, self.conflicts)
        else:
            data = result_record(self.result, self.name)
            if self.status == "none" and self.conflicts:
                data["diagnosis"] = diagnosis
        if self.result.problems:  # every key of a solve or check's record too (a review: a script's
            # j["solutions"] failed on these alone)
            data.update(refuted_record(self.puzzle, self.result.problems, self.name, diagnosis, self.goal_ok))
            if "level" in data:
                data["level"] = "none"
        if self.line_open is not None:
            data["line_open"] = [[r + 1, c + 1] for r, c in self.line_open]
        return data


def solve_report(
    puzzle: Puzzle,
    name: str,
    deadline: Deadline | float | None,
    *,
    count: int = 2,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int = 1,
    conflicts: bool = True,
    diagnose: bool = True,
    written: bool = False,
) -> Report:
    """Solve for up to `count` solutions (by `engine`, with the SAT engine's `solver` and
    `encoding`: see `nonosat.solver.solve`); with none, the lines at fault (when `conflicts` and
    `diagnose`: the command line's text view finds them itself). `written`: every grid is
    written out (JSON) by the deadline (`solve_within`)."""
    from nonosat.solver.drive import solve_within

    look = conflicts and diagnose
    deadline = Deadline.of(deadline)  # seconds or None too, as every other call takes them
    result = solve_within(
        puzzle, deadline, count=count, engine=engine, solver=solver, encoding=encoding, jobs=jobs, written=written
    )
    found = conflicting_lines(puzzle, deadline) if look and result.status.value == "none" else None
    return Report(puzzle, name, result, at_fault=found, conflicts=conflicts)


def check_report(
    puzzle: Puzzle,
    name: str,
    deadline: Deadline | float | None,
    *,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int = 1,
    rating: bool = True,
    conflicts: bool = True,
    diagnose: bool = True,
    line_open: bool = False,
    line_deadline: Deadline | None = None,
) -> Report:
    """Prove the solution unique or find two (by `engine`, as `solve_report`); rate the puzzle
    (unless `rating` is off or the verdict is unknown); with no solution, the lines at fault (see
    `solve_report`); with `line_open`, the cells line logic alone leaves open. `line_deadline`:
    see `solve_within`."""
    from nonosat.arguments import check_puzzle
    from nonosat.solver.drive import check_within

    check_puzzle(puzzle)
    look = conflicts and diagnose
    goal_ok = puzzle.goal_fits()
    deadline = Deadline.of(deadline)  # seconds or None too, as every other call takes them
    verdict = check_within(
        puzzle, deadline, engine=engine, solver=solver, encoding=encoding, jobs=jobs, line_deadline=line_deadline
    )
    result = verdict.result
    report = Report(puzzle, name, result, verdict=verdict, conflicts=conflicts, goal_ok=goal_ok)
    if rating:
        report = rated(report, deadline)
    found = conflicting_lines(puzzle, deadline) if look and result.status.value == "none" else None
    left = open_cells(puzzle, deadline, report.rating) if line_open else None
    return replace(report, at_fault=found, line_open=left)


def rating_bound(verdict_seconds: float) -> float:
    """The seconds check gives the rating's logic and probing: RATING_TIMES the verdict's, and at
    least RATING_SECONDS."""
    return max(RATING_SECONDS, RATING_TIMES * verdict_seconds)


def rated(report: Report, deadline: Deadline) -> Report:
    """A check's report with its rating, within the deadline and `rating_bound` (none when the
    verdict is unknown, or cheap checks refuted the puzzle). The command line prints the verdict
    first, then rates."""
    result = report.result
    if result.problems or result.status.value == "unknown":
        return report
    from nonosat.explain.rating import rate  # 10 ms of imports that `--no-rating` skips

    bound = rating_bound(result.seconds)
    rating = rate(report.puzzle, result=result, timeout=deadline, probing_seconds=bound)
    return replace(report, rating=rating)


def conflicting_lines(puzzle: Puzzle, deadline: Deadline) -> Conflict:
    """`nonosat.explain.diagnosis.conflicting_lines`, imported only when there is no solution (a
    SAT formula of every line's clue: 20 ms of imports a command with a solution never needs)."""
    from nonosat.explain.diagnosis import conflicting_lines as look_for

    return look_for(puzzle, deadline)


def open_cells(puzzle: Puzzle, deadline: Deadline, rated: Rating | None) -> tuple[Cell, ...] | None:
    """The cells line logic alone leaves open (none when the rating says line logic solves it;
    None when the time ran out first, or line logic finds the clues impossible)."""
    from nonosat.errors import CutShort
    from nonosat.solver.propagation import Contradiction, line_solve

    if rated is not None and rated.level == "line":
        return ()
    try:
        board = line_solve(puzzle, deadline)
    except (CutShort, Contradiction):
        return None
    return tuple((r, c) for r in range(puzzle.height) for c in range(puzzle.width) if board.cell(r, c) is None)
