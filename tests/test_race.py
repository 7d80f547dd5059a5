"""The race of solvers: a rival forked beside a running search, the first to finish answers, and
nothing else changes."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.processes import alive, descendants
from nonosat import load_all, solve
from nonosat.model import Grid, Puzzle
from nonosat.solver import Result, Status, enumeration
from nonosat.solver import race as portfolio

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not portfolio.can_race(), reason="racing needs a fork server and two cores")


HANG = 10.0
"""Seconds after which a process that should have ended is taken to hang (how fast workers end
is measured by `python -m bench.faults`, not asserted)."""

A: Grid = ((1, 0), (0, 1))
B: Grid = ((0, 1), (1, 0))

Plan = tuple[float, list[Grid], bool]
"""What a fake solver does: reports its grids, waits, then says whether its search ended."""


def fake_work(plan: Plan, found: list[Grid]) -> bool:
    """A module-level fake enumerator (the worker imports it by name)."""
    delay, grids, complete = plan
    for grid in grids:
        found.append(grid)
    time.sleep(delay)
    return complete


def broken_work(plan: Plan, found: list[Grid]) -> bool:
    raise RuntimeError("boom")


def _same_verdicts(puzzles: list[Puzzle], ones: list[Result], twos: list[Result]) -> None:
    """The same verdict and number of solutions (the same one when unique), every grid checked."""
    for puzzle, one, two in zip(puzzles, ones, twos, strict=True):
        assert one.status is two.status, puzzle.name
        assert one.status in (Status.UNIQUE, Status.MULTIPLE)
        assert len(one.solutions) == len(two.solutions)
        if one.status is Status.UNIQUE:
            assert one.solutions == two.solutions
        for solution in two.solutions:
            assert puzzle.satisfied_by(solution.grid)


def _rival(plan: Plan, after: float, work: portfolio.Work = fake_work) -> tuple[portfolio.Rival[Plan], threading.Event]:
    done = threading.Event()
    return portfolio.Rival(work, lambda: plan, after, done.set), done


def test_a_rival_that_finishes_first_stops_the_search_and_answers() -> None:
    rival, done = _rival((0.0, [B], True), 0.0)
    assert done.wait(10), "on_done was not called"
    assert rival.forked
    assert rival.stop() == ([B], True)


def test_a_rival_joins_only_after_its_delay() -> None:
    rival, done = _rival((0.0, [B], True), 30.0)
    time.sleep(0.2)
    assert rival.stop() == ([], None)  # stop does not wait for the delay
    assert not rival.forked and not done.is_set()


def test_a_rivals_time_counts_from_when_the_searchs_own_worker_started() -> None:
    """Where the search runs in a worker (CaDiCaL on the command line), the fork server's start
    is not the search's time: the rival of a 4x4 puzzle answered one run in six (a review)."""
    begun = threading.Event()
    done = threading.Event()
    rival = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, done.set, begins=begun)
    time.sleep(0.3)
    assert not rival.forked and not done.is_set()
    begun.set()
    assert done.wait(10), "on_done was not called"
    assert rival.stop() == ([B], True)
    waiting = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, done.set, begins=threading.Event())
    stopped: list[Any] = []
    stopper = threading.Thread(target=lambda: stopped.append(waiting.stop()))
    stopper.start()
    stopper.join(10)  # (a bound on the wait: stuck for an event no one sets, it fails, not hangs)
    assert not stopper.is_alive() and stopped == [([], None)] and not waiting.forked


@pytest.mark.slow
def test_a_search_in_a_worker_is_raced_only_after_it_has_run_its_time(
    monkeypatch: pytest.MonkeyPatch, rivals: list[Any]
) -> None:
    """The wiring in `search_in_workers`: with the search's own worker slow to start (1.5 s; a
    fork server's first start took 0.1 s here), the rival of a 4x4 ring, due 1 s after (0.1 s on
    the command line), is never forked: the search answers first (a review saw cadical195 answer
    for cadical103). Before, the rival's time ran from before the start."""
    from nonosat import load
    from nonosat.deadline import Deadline
    from nonosat.processes import start_worker as real_start
    from nonosat.solver.encodings.grid import build_formula
    from nonosat.solver.propagation import line_solve

    starts: list[Any] = []

    def slow_first(process: Any) -> None:
        starts.append(process)
        if len(starts) == 1:
            time.sleep(1.5)
        real_start(process)

    monkeypatch.setattr(portfolio, "start_worker", slow_first)
    formula = build_formula(line_solve(load(ROOT / "puzzles" / "ring.non")), "blocks")
    found = enumeration.search_in_workers(formula, 2, "cadical103", Deadline.after(60), True, 1.0)
    assert found is not None and len(found[0]) == 2 and found[3] == portfolio.OURS
    assert len(rivals) == 2 and rivals[0].forked and not rivals[1].forked and len(starts) == 1


def test_a_worker_that_cannot_even_get_a_pipe_is_gone_and_says_it_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """A diff's review: an error before the worker's start (no file to spare for its pipe) ended
    the rival's thread with `started` never set: a rival waiting on it waited for ever."""

    def no_files() -> Any:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(portfolio, "worker_context", no_files)
    started, gone = threading.Event(), threading.Event()
    own = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, lambda: None, on_gone=gone.set, started=started)
    assert started.wait(10) and gone.wait(10) and own.gone and not own.forked
    assert own.stop() == ([], None)


def test_a_rival_stopped_before_it_ends_gives_what_it_found_so_far() -> None:
    rival, done = _rival((30.0, [A], True), 0.0)
    deadline = time.monotonic() + 10
    while not rival.grids and time.monotonic() < deadline:
        time.sleep(0.01)
    grids, complete = rival.stop()
    assert (grids, complete) == ([A], None) and not done.is_set()


@pytest.mark.slow
def test_a_rival_that_dies_leaves_the_search_alone() -> None:
    rival, done = _rival((0.0, [], True), 0.0, broken_work)
    deadline = time.monotonic() + 10
    while not rival.forked and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    assert rival.stop() == ([], None) and not done.is_set()


@pytest.mark.slow
def test_a_rival_that_dies_or_cannot_start_says_it_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = threading.Event()
    rival: portfolio.Rival[Any] = portfolio.Rival(
        broken_work, lambda: (0.0, [], True), 0.0, lambda: None, on_gone=gone.set
    )
    assert gone.wait(10) and rival.gone
    assert rival.stop() == ([], None)
    gone.clear()
    stopped: portfolio.Rival[Any] = portfolio.Rival(
        fake_work, lambda: (30.0, [], True), 0.0, lambda: None, on_gone=gone.set
    )
    time.sleep(0.2)
    stopped.stop()
    assert not stopped.gone and not gone.is_set()  # stopped is not gone
    monkeypatch.setattr(portfolio.Rival, "_start", lambda self: None)
    rival = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, lambda: None, on_gone=gone.set)
    assert gone.wait(10) and rival.gone and not rival.forked
    rival.stop()


@pytest.mark.slow
@pytest.mark.parametrize(("solver", "jobs"), [("cadical195", 1), ("cadical195", 2), ("maplecm", 1)])
def test_the_command_line_runs_cadical_in_a_worker_with_the_same_verdicts(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]], solver: str, jobs: int
) -> None:
    """CaDiCaL holds the GIL, so where Ctrl-C must be heard (the command line's watcher) its
    search runs in a worker; verdicts, counts and grids agree with a search in this process.
    So does MapleCM's, which hears no interrupt while it simplifies a large formula (a review
    saw `--timeout 0.5` end at 1.12 s)."""
    from nonosat import interrupts

    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    here = [solve(p, jobs=1, solver=solver) for p in puzzles]
    assert not rivals
    monkeypatch.setattr(interrupts, "_watching", True)
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    elsewhere = [solve(p, jobs=jobs, solver=solver) for p in puzzles]
    sat = sum(r.method == "sat" for r in elsewhere)
    assert sat > 20 and len([r for r in rivals if r.forked]) >= sat
    assert all(r.work is enumeration.rival_work for r in rivals)
    _same_verdicts(puzzles, here, elsewhere)


@pytest.mark.slow
def test_a_worker_that_cannot_start_leaves_the_search_here(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat import interrupts

    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:10]
    here = [solve(p, jobs=1, solver="cadical195").status for p in puzzles]
    monkeypatch.setattr(interrupts, "_watching", True)
    monkeypatch.setattr(portfolio.Rival, "_start", lambda self: None)
    for puzzle, status in zip(puzzles, here, strict=True):
        result = solve(puzzle, jobs=1, solver="cadical195", timeout=60)
        assert status in (Status.UNIQUE, Status.MULTIPLE) and result.status is status, puzzle.name
        assert puzzle.satisfied_by(result.solutions[0].grid)


def test_no_rival_outlives_its_stop() -> None:
    rival, _ = _rival((30.0, [], True), 0.0)
    deadline = time.monotonic() + 10
    while not rival.forked and time.monotonic() < deadline:
        time.sleep(0.01)
    assert rival.process is not None
    pid = rival.process.pid
    assert alive(pid)
    rival.stop()
    assert not alive(pid)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["minisat22", "cadical195"])
def test_racing_gives_the_same_verdicts_as_one_solver(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]], solver: str
) -> None:
    """With the race starting at once, every SAT puzzle is raced; verdicts and counts agree with
    a single solver's, and every grid is verified against the clues by the parent."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    single = [solve(p, jobs=1, solver=solver) for p in puzzles]
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    raced = [solve(p, jobs=2, solver=solver) for p in puzzles]
    assert sum(r.method == "sat" for r in raced) == len(rivals) > 20
    assert sum(r.forked for r in rivals) > 10  # a rival starts at once, but the search may end first
    _same_verdicts(puzzles, single, raced)


@pytest.mark.slow
def test_a_race_that_runs_out_of_time_says_unknown(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[509]  # #510, seconds
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    result = solve(
        puzzle, jobs=2, timeout=1.5, engine="sat"
    )  # the CNF in well under that, even on a loaded machine; the search ~7 s
    assert result.status is Status.UNKNOWN
    assert not result.complete and result.cut_short == "time limit reached while searching"


KILLED_MID_RACE = """
import sys
from nonosat import load_all, solve
from nonosat import solver
solver.RACE_AFTER = 0.0
solve(load_all(sys.argv[1])[0], jobs=2, solver=sys.argv[2])  # Faase: minutes for either solver
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
@pytest.mark.parametrize("lead", ["minisat22", "cadical195"])
def test_workers_die_with_a_killed_parent(corpus: Path, lead: str) -> None:
    """SIGKILL gives the parent no chance to stop its rival; the rival, the fork server and
    its resource tracker must all end within 2 s, whichever solver the rival runs (CaDiCaL
    holds the GIL through its search, so no thread of the rival can notice anything)."""
    import signal
    import subprocess
    import sys

    path = str(corpus / "pynogram" / "frans_faase.txt")
    parent = subprocess.Popen([sys.executable, "-c", KILLED_MID_RACE, path, lead])
    helpers: list[int] = []
    deadline = time.monotonic() + 30
    while len(helpers) < 3 and time.monotonic() < deadline and parent.poll() is None:
        time.sleep(0.05)
        helpers = [pid for pid in descendants(parent.pid) if alive(pid)]
    assert len(helpers) >= 3, "the race never started"  # resource tracker, fork server, rival
    time.sleep(1.0)  # the rival has its job and is searching
    assert all(alive(pid) for pid in helpers)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    killed = time.monotonic()
    while any(alive(pid) for pid in helpers) and time.monotonic() < killed + HANG:
        time.sleep(0.05)
    assert not [pid for pid in helpers if alive(pid)], f"helpers alive {HANG} s after their parent was killed"


HEARS = """
import os, sys, time
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]
from bench.processes import sigint_blocked_and_ignored
from nonosat import processes
from nonosat.solver import race as portfolio
from test_race import fake_work
processes.warm_up()  # as a search that may race starts it: in the main thread, SIGINT held back
rival = portfolio.Rival(fake_work, lambda: (30.0, [], True), 0.0, lambda: None)
while rival.process is None:
    time.sleep(0.01)
time.sleep(0.5)  # the worker has begun its work
masks = sigint_blocked_and_ignored(rival.process.pid)
rival.stop()
print(*(int(mask) for mask in masks))
"""


@pytest.mark.slow
def test_a_rival_hears_ctrl_c() -> None:
    """The fork server starts with SIGINT held back and ignored (interrupts.held); its workers
    must neither block nor ignore it, or a Ctrl-C at the terminal would not end them."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", HEARS, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["0", "0"]  # SIGINT (bit 2 of the masks) neither blocked nor ignored


@pytest.mark.slow
def test_the_colour_search_is_raced_by_the_sat_engine(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """In colour, the compiled searches' rival is the SAT engine (bench/README.md, "The colour
    race's rival") up to COLOUR_RIVAL_MOST open cells and colours; in black and white,
    and beyond, itself upside down. With the race at once, the
    verdicts are a single search's; and where the search here does not end, the SAT engine's
    answer stands, checked by the parent."""
    from bench.colour_set import noise_puzzle
    from nonosat.processes import warm_up
    from nonosat.solver import compiled_search

    warm_up()  # else a first try without a rival settles these
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    puzzles = [noise_puzzle(25, 25, 2, seed) for seed in range(4)]
    single = [solve(p, jobs=1) for p in puzzles]
    raced = [solve(p, jobs=2) for p in puzzles]
    _same_verdicts(puzzles, single, raced)
    assert len(rivals) == len(puzzles) and all(rival.work is enumeration.rival_work for rival in rivals)
    # the depth-first search in colour alike (35 of 40 hard grids undecided within 30 s upside down)
    depth_first = [solve(p, jobs=2, engine="dfs") for p in puzzles]
    _same_verdicts(puzzles, single, depth_first)
    assert len(rivals) == 2 * len(puzzles) and all(rival.work is enumeration.rival_work for rival in rivals)
    del rivals[len(puzzles) :]
    solve(load_all(str(Path(__file__).parent.parent / "puzzles" / "webpbn-06574-forever.non"))[0], jobs=2)
    assert len(rivals) == len(puzzles) + 1 and rivals[-1].work is compiled_search.upside_down_work
    monkeypatch.setattr(compiled_search, "COLOUR_RIVAL_MOST", 10)  # a grid this large races upside down
    assert solve(puzzles[0], jobs=2).status is single[0].status
    assert len(rivals) == len(puzzles) + 2 and rivals[-1].work is compiled_search.upside_down_work

    def stalled(self: Any, count: int, found: list[Grid], within: float | None = None) -> bool | None:
        while not self.flag[0]:  # as a search that has not ended when the rival answers
            time.sleep(0.01)
        return None

    monkeypatch.setattr(compiled_search.CoreSearch, "run", stalled)
    monkeypatch.setattr(compiled_search, "COLOUR_RIVAL_MOST", 7_500)
    answered = solve(puzzles[0], jobs=2, timeout=HANG)
    assert answered.status is single[0].status and answered.method == "cdcl"
    assert answered.solutions == single[0].solutions or answered.status is Status.MULTIPLE
    # who answered is said: the rival, the SAT engine with CaDiCaL (a review: nothing said so)
    assert (answered.rival, answered.solver, answered.encoding) == (True, "cadical195", "blocks")
    assert not single[0].rival and single[0].solver is None
    from nonosat.render.records import result_record
    from nonosat.render.text import status_line

    assert "CDCL, with its rival: SAT (cadical195, blocks)" in status_line(answered)
    assert {k: result_record(answered, "p")[k] for k in ("method", "solver", "encoding", "rival")} == {
        "method": "cdcl",
        "solver": "cadical195",
        "encoding": "blocks",
        "rival": True,
    }


@pytest.mark.slow
def test_a_library_callers_cadical_runs_in_a_worker_on_a_large_formula(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """A review found `solve(puzzle, timeout=2, solver="cadical300")` on a 140x140 puzzle ending
    at 4.8 s, and Ctrl-C heard 2.3 s late: a slice of CaDiCaL's conflicts holds Python's lock
    through its inprocessing, 3-5 s on 1.4 million clauses. From APART_CLAUSES on, a library
    caller's CaDiCaL (and MapleCM) search runs in a worker from the fork server, as the command
    line's always does; not MiniSat's (interrupted where it is), not a small formula's, and not
    where workers would be spawned (which imports the caller's script again)."""
    from nonosat import processes

    forever = load_all(str(ROOT / "puzzles" / "webpbn-06574-forever.non"))[0]
    here = solve(forever, solver="cadical195")
    assert here.method == "sat" and not rivals  # 8,786 clauses: in this process
    monkeypatch.setattr(enumeration, "APART_CLAUSES", 1000)
    for solver, apart in (("cadical195", True), ("maplecm", True), ("glucose4", True), ("minisat22", False)):
        rivals.clear()
        result = solve(forever, solver=solver, timeout=60)
        assert result.status is here.status and [s.grid for s in result.solutions] == [s.grid for s in here.solutions]
        assert [r.work is enumeration.rival_work and r.forked for r in rivals] == ([True] if apart else []), solver
    rivals.clear()
    # Glucose stops late, not too late for Ctrl-C: apart under a time limit only (above), else
    # here, with its counts (the review of the mend: a worker's 0.1 s and no counts, always)
    result = solve(forever, solver="glucose4")
    assert not rivals and result.status is here.status and result.stats.get("conflicts") is not None
    monkeypatch.setattr(processes, "start_method", lambda: "spawn")
    assert solve(forever, solver="cadical195").status is here.status and not rivals


@pytest.mark.slow
def test_a_worker_does_not_run_the_callers_script_again(tmp_path: Path) -> None:
    """multiprocessing has every worker import the caller's `__main__` again from its path: a
    race from `python -` (no file) lost its rival to a FileNotFoundError traceback (and
    `solve_many` ended: "a worker process died"), and a script without `if __name__ ==
    "__main__":` ran its top level again in every worker. Our workers start with it hidden
    (`processes.main_hidden`)."""
    import subprocess
    import sys

    script = (
        "print('top level', flush=True)\n"
        "from nonosat import Puzzle, solve\n"
        "many = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)  # 12! grids: the rival starts\n"
        "result = solve(many, engine='sat', jobs=2, race_after=0.0, count=3000, timeout=60)\n"
        "print(result.status.value, len(result.solutions), flush=True)\n"
        "from nonosat.batch import solve_many\n"
        "print(sorted(i for i, _ in solve_many([many] * 3, jobs=2, count=1)), flush=True)\n"
    )
    (tmp_path / "unguarded.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for command in ([sys.executable, "-"], [sys.executable, str(tmp_path / "unguarded.py")]):
        ran = subprocess.run(command, input=script, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
        assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr[-2000:]
        assert ran.stdout.splitlines() == ["top level", "multiple 3000", "[0, 1, 2]"], ran.stdout


@pytest.mark.slow
def test_a_workers_solver_is_not_broken_by_ctrl_c_to_its_process_group(tmp_path: Path) -> None:
    """A review saw `munmap_chunk(): invalid pointer` once after Ctrl-C on `check --solver
    cadical195`: the worker running CaDiCaL ignores Ctrl-C (its parent ends it), but PySAT set
    its own SIGINT handler for the solve, which longjmps out of the solver and leaves it broken
    for the free that follows. A worker's search (`whole`) leaves SIGINT as the worker set it:
    here ignored, so the search goes on until it is killed."""
    import signal
    import subprocess
    import sys

    script = (
        "import random, signal\n"
        "from nonosat import Puzzle\n"
        "from nonosat.solver.encodings.grid import build_formula\n"
        "from nonosat.solver.propagation import line_solve\n"
        "from nonosat.solver.session import Search\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a worker of the command line starts\n"
        "random.seed(5)\n"
        "grid = [[int(random.random() < 0.5) for _ in range(70)] for _ in range(70)]\n"
        "formula = build_formula(line_solve(Puzzle.from_grid(grid)))\n"
        "search = Search(formula.clauses, 'cadical195', whole=True)\n"
        "print('searching', flush=True)\n"
        "print(search.solve(), flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None and child.stdout.readline() == "searching\n"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)  # as Ctrl-C comes to the whole process group
    try:
        child.wait(2.5)  # a random 70x70 puzzle takes CaDiCaL far longer
    except subprocess.TimeoutExpired:
        child.kill()
    _, err = child.communicate()
    assert child.returncode == -signal.SIGKILL, err[-2000:]


def test_hiding_main_from_our_workers_leaves_the_callers_other_threads_alone() -> None:
    """A review found 20,568 pickling errors in a caller's thread that pickled a class of its
    `__main__` while `solve(jobs=2)` started its rivals: `__main__` was swapped out of
    sys.modules for the whole process. Now only what this thread tells the workers it starts
    leaves `__main__` out; every other thread sees it, and tells its own processes, as ever."""
    import sys
    from multiprocessing import spawn

    from nonosat import processes

    main = sys.modules["__main__"]
    seen: list[bool] = []
    told_elsewhere: list[dict[str, Any]] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.append(sys.modules["__main__"] is main)
            told_elsewhere.append(spawn.get_preparation_data("theirs"))

    watcher = threading.Thread(target=watch)
    watcher.start()
    told_here = []
    try:
        for _ in range(50):
            with processes.main_hidden():
                told_here.append(spawn.get_preparation_data("ours"))
                time.sleep(0.001)
    finally:
        stop.set()
        watcher.join()
    mains = {"init_main_from_path", "init_main_from_name"}
    assert seen and all(seen)
    assert told_elsewhere and all(mains & set(told) for told in told_elsewhere)
    assert not any(mains & set(told) for told in told_here)
    assert mains & set(spawn.get_preparation_data("after"))


def test_a_race_says_whose_grids_it_gives() -> None:
    """A review found a race that neither side finished reported as the search's own (solver
    minisat22, rival false) while half its grids, or all of them, were the rival's. A race's
    outcome says whose grids it gives, and the result names both solvers for a merge."""
    from dataclasses import replace

    from nonosat.render.text import status_line

    g1, g2, g3 = ((0,),), ((1,),), ((2,),)
    assert portfolio.race_outcome([g1], True, [g2], None, 2)[3] == portfolio.OURS
    assert portfolio.race_outcome([g1], None, [g2], False, 2)[3] == portfolio.THEIRS
    assert portfolio.race_outcome([g1], None, [g1, g2], None, 2)[::3] == ([g1, g2], portfolio.BOTH)
    assert portfolio.race_outcome([], None, [g2, g3], None, 2)[::3] == ([g2, g3], portfolio.THEIRS)
    assert portfolio.race_outcome([g1, g3], None, [g2], None, 2)[::3] == ([g1, g3], portfolio.OURS)
    assert enumeration._answered("minisat22", portfolio.BOTH) == {"solver": "minisat22+cadical195", "rival": True}
    assert enumeration._answered("cadical195", portfolio.THEIRS) == {"solver": "minisat22", "rival": True}
    assert enumeration._answered("glucose4", portfolio.OURS) == {"solver": "glucose4", "rival": False}
    two = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    result = replace(solve(two, engine="sat"), solver="minisat22+cadical195", rival=True)
    assert "· SAT (minisat22+cadical195, blocks) ·" in status_line(result)
    assert "SAT (cadical195, blocks), the race's rival" in status_line(replace(result, solver="cadical195"))
