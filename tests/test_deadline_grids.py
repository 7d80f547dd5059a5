"""The grids of a search under a deadline: checked only while it holds (those found by a search that
ran past it still checked), a count of many stopping in time to hand them over, and time kept
from the deadline to show them, with what drawing them imports imported before the search."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from nonosat.deadline import Deadline
from nonosat.model import Grid, Puzzle


def test_many_solutions_are_checked_only_while_the_deadline_holds() -> None:
    """A review found `solve(count=1_000_000, timeout=1)` taking 3-9 s on a 9x9 grid of 9!
    solutions: the grids the core found were made grids and checked with no deadline."""
    from nonosat import Puzzle, solve
    from nonosat.solver.outcome import Status, verified_within

    puzzle = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)
    every = solve(puzzle, count=1000)
    grids = [solution.grid for solution in every.solutions]
    assert (len(grids), every.status, every.complete) == (720, Status.MULTIPLE, True)
    checked, whole = verified_within(puzzle, grids, Deadline.after(None))
    assert (len(checked), whole) == (720, True)
    no_grace = Deadline(time.monotonic() - 1, grace=-10.0)  # no time at all to check: cut at the first look
    checked, whole = verified_within(puzzle, grids, no_grace)
    assert (len(checked), whole) == (15, False)


def test_grids_found_by_a_search_that_ran_past_its_deadline_are_still_checked() -> None:
    """A second review found `--count 1000000 --timeout 5` saying "at least 63 solutions" for
    every engine, and the SAT engine finding fewer the more time it had (759 at 0.3 s, 63 at 4
    s): a search stops a little after its deadline, and by then its 0.1 s of grace was gone,
    so only the grids before the first look at the clock were kept. The grace now runs from the
    moment the checking begins, when that is past the deadline."""
    from nonosat import Puzzle, solve
    from nonosat.solver.outcome import verified_within

    passed = Deadline(time.monotonic() - 1)
    handing_over = passed.handing_over()
    assert passed.at is not None and handing_over.at is not None
    assert handing_over.at >= passed.at + 1.1  # from now (a second past the deadline), not from the deadline
    assert Deadline.after(None).handing_over().at is None
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    grids = [solution.grid for solution in solve(puzzle, count=120).solutions]
    checked, whole = verified_within(puzzle, grids, passed)
    assert (len(checked), whole) == (120, True)


def test_a_count_of_many_stops_searching_in_time_to_hand_its_grids_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found `solve --count 1000000 --timeout 3` ending at 3.2-3.8 s for every engine:
    the search ran to the deadline, and then the core's grids were handed over to Python (a
    quarter of a second for 400,000 grids), made grids, checked and written out. A count above
    2 now stops searching before the deadline by 0.1 ms for each grid asked for, at most a fifth
    of the time left and half a second (a diff review found --count 3 losing a verdict to a
    reserve made for a million);
    the grids of a first try before the race are made only until that try's own end; the core
    hands its grids over packed, read only as far as there is time."""
    from nonosat.solver import compiled, drive, engines
    from nonosat.solver.compiled_search import CoreSearch
    from nonosat.solver.propagation import line_solve

    if compiled.core is None:
        pytest.skip("the compiled core is not built")
    puzzle = Puzzle(rows=((1,),) * 14, columns=((1,),) * 14)  # 14! grids
    asked: list[Deadline] = []
    search_as_asked = engines.search_as_asked

    def spy(engine: str, chosen: Any, request: Any, named: bool) -> Any:
        asked.append(request.deadline)
        return search_as_asked(engine, chosen, request, named=named)

    monkeypatch.setattr(drive, "search_as_asked", spy)
    for count, kept, most in ((2, 0.0, 0.5), (3, 0.0003, 0.5), (1000, 0.1, 0.5), (1000, 0.05, 0.05)):
        monkeypatch.setattr(drive, "HAND_OVER_MOST", most)  # 0.1 ms a grid, at most HAND_OVER_MOST
        deadline = Deadline.after(60)
        result = drive.solve_within(puzzle, deadline, count=count, engine="cdcl")
        assert len(result.solutions) == count and deadline.at is not None and asked[-1].at is not None
        assert deadline.at - asked[-1].at == pytest.approx(kept, abs=1e-9)
    first_try = CoreSearch(line_solve(puzzle), "cdcl", Deadline.after(60))
    grids: list[Grid] = []
    assert first_try.run(10**6, grids, within=0.05) is None and grids
    assert first_try.ending.at is not None and first_try.deadline.at is not None
    assert first_try.ending.at < first_try.deadline.at - 50  # not made until the search's own deadline


def test_check_and_solve_keep_time_from_the_deadline_to_show_their_grids(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A review found `check --timeout 2` on a 512x512 colour grid with two solutions ending 0.4
    s late: the verdict came in time, and drawing the two grids side by side (a span a cell)
    came after the deadline. The grids are drawn a run at a time now, and the verdict is sought
    by the deadline less the time to show what it finds (`showing_time`: two grids for check,
    one for solve's drawing)."""
    from typer.testing import CliRunner

    from nonosat import reports
    from nonosat.cli import app
    from nonosat.cli.show import showing_time
    from nonosat.formats import save

    end = time.monotonic() + 60
    monkeypatch.setattr(Deadline, "for_command", classmethod(lambda cls, seconds: Deadline(end)))
    asked: dict[str, float | None] = {}

    def spying(name: str) -> Any:
        real = getattr(reports, name)

        def spy(*args: Any, **options: Any) -> Any:
            asked[name] = args[2].at  # (puzzle, source, deadline, ...)
            return real(*args, **options)

        return spy

    for name in ("check_report", "solve_report"):
        monkeypatch.setattr(reports, name, spying(name))
    from nonosat.cli import base

    drawing = base.draw_solution

    def drawn_by(result: Any, target: Any, force: bool, deadline: Deadline) -> None:
        asked["draw_solution"] = deadline.at  # a review: a 512x512 drawing left the grid 0.3 s late
        drawing(result, target, force, deadline)

    monkeypatch.setattr(base, "draw_solution", drawn_by)
    import nonosat.cli.solving as solving

    monkeypatch.setattr(solving, "draw_solution", drawn_by)
    puzzle = Puzzle.from_grid([[1, 0] * 40, [0, 1] * 40] * 40)
    save(puzzle, tmp_path / "p.non")
    for command in ("check", "solve"):
        more = ["--render", str(tmp_path / "p.svg")] if command == "solve" else []
        result = CliRunner().invoke(app, [command, str(tmp_path / "p.non"), "--timeout", "60", *more])
        assert result.exit_code == 1, result.output  # multiple
    assert showing_time(puzzle, 2) > showing_time(puzzle, 1) > showing_time(puzzle, 1, as_json=True) > 0
    assert asked == {
        "check_report": end - showing_time(puzzle, 2),
        "solve_report": end - showing_time(puzzle, 1),
        "draw_solution": end - showing_time(puzzle, 1),
    }


SPY_ON_THE_VIEWS = """
import sys
from nonosat import reports
def spying(name):
    real = getattr(reports, name)
    def spy(*args, **options):
        sys.stderr.write(f"{name}: views {'nonosat.render.views' in sys.modules}\\n")
        return real(*args, **options)
    return spy
for name in ("check_report", "solve_report"):
    setattr(reports, name, spying(name))
sys.argv = ["nonosat", *sys.argv[1:]]
from nonosat.__main__ import main
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "check"])
def test_under_a_time_limit_what_drawing_the_grid_imports_is_imported_before_the_search(command: str) -> None:
    """A review found `solve dom_14.dzn --timeout 3` ending at 3.01-3.05 s: the 0.01 s kept to
    draw a 29x29 grid went on importing Rich's console and render.views (25-35 ms), made after
    the search. Under a time limit they are imported before it (`show.ready_to_show`); without
    one, after it, as the grid needs them (`nonosat solve FILE` starts no faster for it)."""
    import subprocess
    from pathlib import Path

    ring = str(Path(__file__).resolve().parent.parent / "puzzles" / "ring.non")
    report = f"{command}_report"
    for limit, imported in ((["--timeout", "60"], True), ([], False), (["--timeout", "60", "--format", "json"], False)):
        done = subprocess.run(
            [sys.executable, "-c", SPY_ON_THE_VIEWS, command, ring, *limit],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1, done.stderr  # multiple
        assert f"{report}: views {imported}" in done.stderr.splitlines(), (limit, done.stderr)
