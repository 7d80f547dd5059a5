"""The deadline of a command: counted from the process's start, and its timer signal kept apart
from a caller's own."""

from __future__ import annotations

import signal
import sys
import threading
import time
from types import FrameType, SimpleNamespace
from typing import Any

import pytest

from nonosat import deadline as deadlines
from nonosat.deadline import Deadline, TimeUp, alarm, process_age
from nonosat.model import Grid, Puzzle

IMPORTED = time.monotonic()

needs_timer = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers here")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the start is read from /proc")
def test_the_process_age_counts_from_the_start() -> None:
    """This process started before this module was imported (an order, not a timing: pytest's
    start-up comes between)."""
    started = time.monotonic() - process_age()
    assert 0 < process_age() and started <= IMPORTED + 0.02


def test_a_command_deadline_counts_the_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review measured `solve --timeout 1` taking 1.3-1.5 s under load: Python's start-up and the
    imports (0.2-0.3 s there) came before the deadline was made. In a process that is no
    `nonosat` program (this one, running commands through CliRunner), it counts from now."""
    monkeypatch.setattr(deadlines, "time", SimpleNamespace(monotonic=lambda: 1000.0))  # a clock that stands still
    monkeypatch.setattr(deadlines, "_command_started", None)
    monkeypatch.setattr(deadlines, "process_age", lambda: 0.4)
    assert Deadline.for_command(1.0).remaining() == 1.0
    deadlines.command_started()
    assert Deadline.for_command(1.0).remaining() == pytest.approx(1.0 - 0.4 - deadlines.EXITING)
    assert Deadline.for_command(None).at is None
    # a process a wrapper started long before (`sleep 3; exec nonosat ...`): at most
    # START_UP_CREDIT of its age is counted, not its whole age
    monkeypatch.setattr(deadlines, "process_age", lambda: 3.0)
    deadlines.command_started()
    left = Deadline.for_command(2.0).remaining()
    assert left == pytest.approx(2.0 - deadlines.START_UP_CREDIT - deadlines.EXITING)  # not 2.0 - 3.0


def test_a_command_deadline_keeps_the_time_the_process_takes_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new user's check found `solve dom_14.dzn --timeout 1` ending at 1.02-1.05 s: its work ended by
    the deadline, the process (its fork server and resource tracker) 35-40 ms later. The
    program's deadline comes EXITING sooner; a command run in a long-lived process is not
    ended with it, and keeps the whole limit."""
    monkeypatch.setattr(deadlines, "_command_started", None)  # first: put back as it was, not as set here
    monkeypatch.setattr(deadlines, "process_age", lambda: 0.0)
    deadlines.command_started()
    left = Deadline.for_command(1.0).remaining()
    assert left is not None and 1.0 - deadlines.EXITING - 0.01 < left <= 1.0 - deadlines.EXITING
    assert Deadline.for_command(0.01).remaining() == 0.0  # less than the process's end: unknown at once
    monkeypatch.setattr(deadlines, "_command_started", None)
    whole = Deadline.for_command(1.0).remaining()
    assert whole is not None and whole > 1.0 - deadlines.EXITING


@needs_timer
def test_the_alarm_rings_at_the_deadline() -> None:
    with pytest.raises(TimeUp, match="reading"), alarm(Deadline.after(0.05), "reading"):
        time.sleep(2)


@pytest.mark.slow
@needs_timer
def test_a_callers_timer_goes_on_through_an_alarm() -> None:
    """alarm() used to set the caller's own interval timer to nothing, and replace its handler."""
    rang: list[int] = []

    def theirs(signum: int, frame: FrameType | None) -> None:
        rang.append(signum)

    before = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
        with alarm(Deadline.after(5), "reading"):
            time.sleep(0.5)  # theirs rings about ten times meanwhile (fewer under load); ours not at all
        inside = len(rang)
        assert signal.getsignal(signal.SIGALRM) is theirs
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        assert interval == pytest.approx(0.05) and 0 < left <= 0.05
        time.sleep(0.12)
        assert inside >= 2 and len(rang) > inside
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@needs_timer
def test_the_alarm_still_rings_beside_a_callers_timer() -> None:
    def theirs(signum: int, frame: FrameType | None) -> None:
        pass

    before = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)
        with pytest.raises(TimeUp), alarm(Deadline.after(0.1), "reading"):
            time.sleep(2)
        assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(0.02)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


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


class _HeldInC:
    """Work that sits in a C call no signal cuts short, as Pillow's decoding or encoding of a big
    picture does: libc's pthread_mutex_lock (through ctypes) on a mutex held until `release`
    (at the latest after 5 s, so that a test of code that waits for it fails, not hangs)."""

    def __init__(self) -> None:
        import ctypes

        self.libc = ctypes.CDLL(None)
        self.mutex = ctypes.create_string_buffer(64)  # zeros: PTHREAD_MUTEX_INITIALIZER
        assert self.libc.pthread_mutex_lock(self.mutex) == 0
        self.safety = threading.Timer(5.0, self.release)
        self.safety.start()
        self.released = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.libc.pthread_mutex_lock(self.mutex)
        self.libc.pthread_mutex_unlock(self.mutex)
        return b""

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.libc.pthread_mutex_unlock(self.mutex)


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's pthread_mutex_lock through ctypes")
def test_a_preview_held_in_c_ends_at_the_deadline(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """A review found `generate --preview big.png --timeout 1.4` ending at 1.66-1.68 s: the
    timer signal of `alarm` is heard only when Pillow's encoding returns."""
    from nonosat.palette import BLACK_AND_WHITE
    from nonosat.render import changes

    held = _HeldInC()
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)  # as in a command
    monkeypatch.setattr(changes, "changes_png", held)
    try:
        with pytest.raises(TimeUp, match="drawing p.png"):
            changes.save_changes(
                ((0, 1),), ((1, 1),), BLACK_AND_WHITE, tmp_path / "p.png", deadline=Deadline.after(0.2)
            )
        assert not held.released  # raised while the C call still held its thread
    finally:
        held.release()
    assert not (tmp_path / "p.png").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's pthread_mutex_lock through ctypes")
def test_a_picture_read_in_c_ends_at_the_deadline(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The same review: a 6300x6300 PNG read 0.2-0.3 s past `generate --timeout 0.9`."""
    from nonosat.generate import picture

    held = _HeldInC()
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)  # as in a command
    monkeypatch.setattr(picture, "load_shades", held)
    try:
        with pytest.raises(TimeUp, match="while reading .*big.png"):
            picture.read_picture(tmp_path / "big.png", width=10, height=10, deadline=Deadline.after(0.2))
        assert not held.released
    finally:
        held.release()


def test_a_library_callers_work_is_never_left_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review of the mend: in a library caller's process, which goes on after a TimeUp,
    work left behind piled up (three calls of from_image cut short left threads decoding 900 MB
    of pictures): there it runs in the caller's thread, held to the deadline by `alarm`; in a
    command (or a web worker), in a thread of its own."""
    ran_in: list[threading.Thread] = []

    def work() -> int:
        ran_in.append(threading.current_thread())
        return 7

    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", False)
    assert deadlines.finished_by(Deadline.after(30), "working", work) == 7
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", True)
    assert deadlines.finished_by(Deadline.after(30), "working", work) == 7
    assert ran_in[0] is threading.current_thread() and ran_in[1] is not threading.current_thread()
    # A thread that was there before may end meanwhile (the one above, or another test's), so
    # what is compared is whether any thread is there that was not before.
    before = set(threading.enumerate())
    monkeypatch.setattr(deadlines, "_ENDS_WITH_ITS_WORK", False)

    def sleep() -> None:
        ran_in.append(threading.current_thread())
        time.sleep(5)

    with pytest.raises(TimeUp, match="sleeping"):
        deadlines.finished_by(Deadline.after(0.05), "sleeping", sleep)
    assert ran_in[2] is threading.current_thread()
    assert set(threading.enumerate()) <= before


def test_a_library_callers_work_past_the_deadline_off_the_main_thread_is_cut_short() -> None:
    """The review of the mend: off the main thread no alarm rings, and a drawing that ran past
    the deadline was written (`save_picture` says nothing is written then)."""
    raised: list[BaseException] = []

    def call() -> None:
        try:
            deadlines.finished_by(Deadline.after(0.05), "sleeping", lambda: time.sleep(0.3))
        except TimeUp as error:
            raised.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    caller.join()
    assert len(raised) == 1 and "sleeping" in str(raised[0])


def test_a_command_and_a_web_worker_may_leave_work_behind() -> None:
    import subprocess

    for code in (
        "import sys; sys.argv = ['nonosat', '--version']\nfrom nonosat.__main__ import main\ntry: main()\n"
        "except SystemExit: pass\nfrom nonosat import deadline; print(deadline._ENDS_WITH_ITS_WORK)",
        "from nonosat import deadline; print(deadline._ENDS_WITH_ITS_WORK)",
    ):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.stdout.split()[-1] == ("True" if "main()" in code else "False"), done.stderr


def test_work_finished_by_its_deadline_gives_its_value_or_its_error() -> None:
    assert deadlines.finished_by(Deadline.after(30), "adding", lambda: 1 + 1) == 2
    assert deadlines.finished_by(Deadline(), "adding", lambda: 3) == 3
    with pytest.raises(ZeroDivisionError):
        deadlines.finished_by(Deadline.after(30), "dividing", lambda: 1 // 0)
    with pytest.raises(TimeUp, match="late"):
        deadlines.finished_by(Deadline.after(0), "late", lambda: 1)
