"""The library is safe in threaded programs: a race started from threads never forks this process,
the library races only when asked, and a process pinned to one core does not race."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat.solver import race as portfolio

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")


THREADED = """
import os, sys, threading, warnings
warnings.simplefilter("error", DeprecationWarning)
from nonosat import load_all, solve
from nonosat.solver.race import can_race
forks = []
real_fork = os.fork
def counted_fork():
    forks.append(threading.active_count())
    return real_fork()
os.fork = counted_fork
puzzles = load_all(sys.argv[1])[:40]
results = {}
def work(jobs):
    results[jobs] = [solve(p, jobs=jobs, race_after=0.0, engine="sat").status for p in puzzles]
threads = [threading.Thread(target=work, args=(jobs,)) for jobs in (1, 2)]
for thread in threads: thread.start()
for thread in threads: thread.join()
assert results[1] == results[2], "racing changed a verdict"
assert not forks, f"this process forked {len(forks)} times, with {max(forks)} threads running"
print("raced" if can_race() else "no race")
"""


@pytest.mark.slow
def test_the_library_races_safely_from_threads(corpus: Path) -> None:
    """A process with threads must not fork (Python 3.12+ warns that the child may deadlock): the
    race starts its workers from a fork server, and this process never calls os.fork."""
    path = str(corpus / "tcga" / "question" / "taai2011.txt")
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", THREADED, path],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # CPython reports the fork warning as an unraisable exception here
    assert done.stdout.strip() == ("raced" if portfolio.can_race() else "no race")


@pytest.mark.slow
def test_the_library_does_not_race_unless_asked(corpus: Path, rivals: list[portfolio.Rival]) -> None:  # type: ignore[type-arg]
    from nonosat import load_all, solve
    from nonosat.solver import race as racing

    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[:20]
    old, racing.RACE_AFTER = racing.RACE_AFTER, 0.0
    try:
        results = [solve(puzzle, engine="sat") for puzzle in puzzles]  # the race is SAT's
    finally:
        racing.RACE_AFTER = old
    assert any(result.method == "sat" for result in results)
    assert rivals == []


AFFINITY = """
import os
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from nonosat.processes import usable_cores
from nonosat.solver.race import can_race
print(usable_cores(), can_race())
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_cores_are_counted_by_affinity() -> None:
    """A process pinned to one core does not race, however many cores the machine has."""
    done = subprocess.run([sys.executable, "-c", AFFINITY], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["1", "False"]
