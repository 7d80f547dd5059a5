"""Signals in a library caller's main thread: its SAT search hears Ctrl-C (KeyboardInterrupt), its
own wakeup descriptor and signal handlers get every signal during a search, which goes on to its
verdict when they return and ends when they raise; frequent signals interrupt a search at most
every half second, and a stop that comes meanwhile is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from signals_shared import HANG, STARTED, waited

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")


LIBRARY_SAT = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own, even under a parent that ignores Ctrl-C
from nonosat import load, solve
puzzle = load(sys.argv[1])
limit = {} if sys.argv[3] == "none" else {"timeout": float(sys.argv[3])}
print("solving", flush=True)
try:
    solve(puzzle, engine="sat", solver=sys.argv[2], **limit)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(130)
print("no interrupt", flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("solver", "timeout"),
    [("minisat22", "600"), ("glucose4", "600"), ("cadical195", "600"), ("minisat22", "none"), ("cadical195", "none")],
)
def test_a_library_callers_sat_search_hears_ctrl_c(corpus: Path, solver: str, timeout: str) -> None:
    """Python's default SIGINT handling, no watcher: the SAT search, whose solver runs in C
    (hours on Faase), ends on Ctrl-C and the caller gets KeyboardInterrupt. Under a time limit
    MiniSat and Glucose were heard only when it passed (now `handlers.heard_by` interrupts
    them), and CaDiCaL, jumped out of by PySAT's own handler, aborted the process."""
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    caller = subprocess.Popen(
        [sys.executable, "-c", LIBRARY_SAT, faase, solver, timeout],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert caller.stdout is not None and caller.stdout.readline().strip() == "solving"
    time.sleep(STARTED)  # well into the solver's search (the formula is built within a second)
    assert caller.poll() is None
    os.killpg(caller.pid, signal.SIGINT)
    stdout, stderr = waited(caller, f"the library's SAT search with {solver} was still running {HANG} s after Ctrl-C")
    assert caller.returncode == 130, stderr
    assert stdout.strip() == "KeyboardInterrupt"


HOST_WAKEUP = """
import os, signal, socket, sys, threading
signal.signal(signal.SIGINT, signal.default_int_handler)  # as LIBRARY_SAT
from nonosat import load, solve
puzzle = load(sys.argv[1])
mine, theirs = socket.socketpair()  # as an event loop's wakeup descriptor (asyncio's)
mine.setblocking(False)
theirs.setblocking(False)
signal.signal(signal.SIGUSR1, lambda *_: None)
signal.set_wakeup_fd(theirs.fileno())
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGUSR1)).start()
verdict = solve(puzzle, engine="sat", solver="minisat22", timeout=1.5)
print(verdict.status.value, signal.set_wakeup_fd(-1) == theirs.fileno(), list(mine.recv(64)), flush=True)
"""


@pytest.mark.slow
def test_a_library_callers_own_wakeup_descriptor_gets_every_signal(corpus: Path) -> None:
    """While a library solve points the wakeup descriptor at its own pipe (`heard_by`), the
    signals it carries go on to the caller's descriptor (an event loop's), and it is put back."""
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    done = subprocess.run([sys.executable, "-c", HOST_WAKEUP, faase], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split(maxsplit=2) == ["unknown", "True", f"[{int(signal.SIGUSR1)}]"]


HOST_HANDLER = """
import os, random, signal, sys, threading
from nonosat import Puzzle, load, solve
ran = []
def handler(number, frame):
    ran.append(number)
    if sys.argv[2] == "raise":
        sys.exit(7)
signal.signal(signal.SIGTERM, handler)  # a server's own, as uvicorn's and gunicorn's workers have
if sys.argv[2] == "raise":
    print("solving", flush=True)
    solve(load(sys.argv[1]), engine="sat", solver="minisat22")  # no time limit: hours on Faase
    print("no exit", flush=True)
else:
    rng = random.Random(7)  # MiniSat takes seconds on these clues: the signal comes in its search
    puzzle = Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(60)] for _ in range(60)])
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
    result = solve(puzzle, engine="sat", solver="minisat22", encoding="blocks", jobs=1, count=2)
    print(result.status.value, len(result.solutions), ran, flush=True)
"""


@pytest.mark.slow
def test_a_library_callers_own_signal_handler_runs_during_a_sat_search(corpus: Path) -> None:
    """A host's SIGTERM handler (a web server's worker) ran only when MiniSat's search ended,
    hours later on Faase: now the search is interrupted for it, and ends when it raises."""
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    caller = subprocess.Popen(
        [sys.executable, "-c", HOST_HANDLER, faase, "raise"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert caller.stdout is not None and caller.stdout.readline().strip() == "solving"
    time.sleep(STARTED)
    assert caller.poll() is None
    os.kill(caller.pid, signal.SIGTERM)
    stdout, stderr = waited(caller, f"the library's SAT search was still running {HANG} s after SIGTERM")
    assert caller.returncode == 7, stderr
    assert stdout == ""


@pytest.mark.slow
def test_after_a_handler_that_returns_the_sat_search_goes_on() -> None:
    """The handler ran (once) and raised nothing: the search goes on to its verdict, not "unknown"."""
    done = subprocess.run(
        [sys.executable, "-c", HOST_HANDLER, "", "return"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["multiple", "2", f"[{int(signal.SIGTERM)}]"]


def pigeonhole(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in `holes` holes: unsatisfiable, and seconds of MiniSat's search at 9."""
    pigeons = holes + 1

    def cell(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    clauses = [[cell(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        clauses += [[-cell(p, h), -cell(q, h)] for p in range(pigeons) for q in range(p + 1, pigeons)]
    return clauses


def solves_counted(search: Any) -> list[object]:
    """The answers of each call into the solver a Search makes from now on."""
    answers: list[object] = []
    solve_limited = search.sat.solve_limited

    def counted(*args: Any, **kwargs: Any) -> object:
        answers.append(solve_limited(*args, **kwargs))
        return answers[-1]

    search.sat.solve_limited = counted
    return answers


@pytest.mark.slow
def test_frequent_signals_interrupt_a_library_search_at_most_every_half_second() -> None:
    """A profiler's SIGPROF or a timer's SIGALRM every 2 ms restarted MiniSat each time (a search
    19 times slower): three alarms 10 ms apart interrupt it once (the others wait OTHERS_EVERY);
    three SIGTERMs interrupt it each time. Every handler runs, and the search goes on to its
    answer when they return."""
    from nonosat import handlers
    from nonosat.solver.session import Search

    assert signal.SIGALRM not in handlers.STOPPING and signal.SIGTERM in handlers.STOPPING
    ran: list[int] = []
    previous = {
        number: signal.signal(number, lambda number, _: ran.append(number))
        for number in (signal.SIGALRM, signal.SIGTERM)
    }
    try:
        for number in (signal.SIGALRM, signal.SIGTERM):
            search = Search(pigeonhole(8), "minisat22")
            answers = solves_counted(search)
            timers = [threading.Timer(0.01 * k, os.kill, (os.getpid(), number)) for k in range(1, 4)]
            for timer in timers:
                timer.start()
            try:
                assert search.solve() is False  # unsatisfiable, proved
            finally:
                for timer in timers:
                    timer.join()
                search.close()
            assert ran and set(ran) == {number}, (number, ran)  # (two pending at once run once)
            interrupted = len(answers) - 1
            assert (interrupted == 1) if number == signal.SIGALRM else (interrupted >= 2), (number, answers)
            ran.clear()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


ALARM = """
import os, signal, sys, threading
sys.path.insert(0, sys.argv[1])
from test_signals_library import pigeonhole
from nonosat.solver.session import Search
def alarm(*_):
    sys.exit(7)
signal.signal(signal.SIGALRM, alarm)
search = Search(pigeonhole(10), "minisat22")  # a minute or more of MiniSat's search
threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGALRM)).start()
search.solve()
print("searched to the end", flush=True)
"""


@pytest.mark.slow
def test_an_alarm_that_raises_ends_a_library_search() -> None:
    """An alarm's handler that raises (a test's time limit) ends the search there, not when the
    search would have ended (a minute or more here)."""
    here = str(Path(__file__).resolve().parent)
    caller = subprocess.Popen(
        [sys.executable, "-c", ALARM, here], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    stdout, stderr = waited(caller, f"the search still ran {HANG} s after its alarm")
    assert caller.returncode == 7 and stdout == "", stderr


def test_a_stop_that_comes_while_a_handler_lets_the_search_go_on_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop (or the deadline) landing between a handler's return and the solver going on was
    cleared with the handler's interrupt: the search then ran on to its end, or forever."""
    from nonosat import handlers
    from nonosat.solver.session import Search

    search = Search(pigeonhole(9), "minisat22")
    answers = solves_counted(search)
    ran = handlers.handler_ran

    def stopped_meanwhile() -> bool:
        search.stop()  # from another thread, just then
        return ran()

    monkeypatch.setattr(handlers, "handler_ran", stopped_meanwhile)
    previous = signal.signal(signal.SIGUSR1, lambda *_: None)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGUSR1))
    try:
        timer.start()
        assert search.solve() is None and search.stopped
        assert answers == [None]  # interrupted once, and not searched again to the end (False)
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
        search.close()
