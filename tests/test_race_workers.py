"""The race's worker processes: they die with a killed parent, never run the caller's script again,
keep their solver whole when Ctrl-C comes to their process group, and hiding `__main__` from them
leaves the caller's other threads alone."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.processes import alive, descendants
from nonosat.solver import race as portfolio

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not portfolio.can_race(), reason="racing needs a fork server and two cores")


HANG = 10.0
"""Seconds after which a process that should have ended is taken to hang (how fast workers end
is measured by `python -m bench.faults`, not asserted)."""


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
