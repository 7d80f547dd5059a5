"""One incremental PySAT search with a deadline, that another thread or Ctrl-C can stop."""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any, Literal

from nonosat import handlers, interrupts
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.solver.backends import RAW_ADD, budgeted, pysolvers
from nonosat.solver.encodings import Clause
from nonosat.solver.encodings.base import FREEING_A_CLAUSE

LOAD_SLICE = 1 << 16
"""Clauses added between looks at the deadline while a formula is loaded."""


def ending(name: str, clauses: int) -> float:
    """Seconds it takes to let go of a loaded solver of this many clauses and of their lists in
    Python: kept from its search, so that a search cut short by the deadline has ended by it
    (0.3 s for 2.1 million clauses)."""
    return clauses * (DELETING_A_CLAUSE.get(name, DELETING_A_CLAUSE[""]) + FREEING_A_CLAUSE)


BOOTSTRAPPING_A_CLAUSE = 1.5e-6
"""Seconds a solver takes to start with a clause when it logs a proof (`bootstrap_with`, in one
call: 0.15-0.2 s for 173,744 clauses here, 0.9-1.2 us), with room."""

DELETING_A_CLAUSE = {"cadical195": 1.5e-7, "": 8e-8}
"""Seconds a solver takes to delete itself, per clause loaded (measured on 0.9-2.1 million
clauses: CaDiCaL 50-145 ns, Glucose 48-80 ns, MiniSat 25-52 ns)."""


def load_clauses(sat: Any, name: str, clauses: list[Clause], deadline: Deadline = NO_DEADLINE) -> bool:
    """Add the clauses to a PySAT solver; False if one of them is empty. Raises TimeUp when the
    deadline passes first (or is nearer than what letting go of the clauses and the solver would
    take)."""
    raw = RAW_ADD.get(name)
    handle = getattr(sat.solver, raw[1], None) if raw else None
    add = getattr(pysolvers(), raw[0], None) if raw else None
    for start in range(0, len(clauses), LOAD_SLICE):
        keep = ending(name, start) + (len(clauses) - start) * FREEING_A_CLAUSE  # the loaded ones, the rest
        deadline.check("loading the CNF into the solver", keep=keep)
        part = clauses[start : start + LOAD_SLICE]
        if handle is None or add is None:
            if not all(part):
                return False
            sat.append_formula(part)
            continue
        if not all(part):
            return False
        deque(map(add, repeat(handle), part), maxlen=0)  # no Python loop: a quarter of the load's time
    return True


FIRST_BUDGET = 100
"""Conflicts in CaDiCaL's first slice (the next budgets are scaled by the time taken). A review
found `timeout=0.5` overrun by half a second on frans_faase.txt: 1,000 conflicts took 0.72 s
there, and 100 take 0.63 s, most of it CaDiCaL's start on the formula, which no budget bounds."""

SLICE_SECONDS = 0.25
"""The longest a conflict budget of a solver without interrupt() (CaDiCaL) should take, so that
a stop (the rival's answer, Ctrl-C) is heard within about this long: CaDiCaL holds Python's GIL
through a slice, so not even the Ctrl-C watcher runs before it ends. Its inprocessing is not
counted in conflicts, and a slice now and then takes over a second: the command line runs
CaDiCaL in a worker instead (`search_in_workers`), and so does a library call on a large formula
(`enumeration.APART_CLAUSES`)."""


@contextlib.contextmanager
def _pysat_leaves_sigint_alone() -> Iterator[None]:
    """PySAT sets its SIGINT handler around a solve only in the main thread, as its MainThread
    says: here it is told otherwise (in a worker of ours, which runs nothing else meanwhile)."""
    from pysat._utils import MainThread

    check = MainThread.__dict__["check"]  # the staticmethod itself
    MainThread.check = staticmethod(lambda: False)
    try:
        yield
    finally:
        MainThread.check = check


def _keyboard_interrupt(error: Exception) -> bool:
    return "keyboard interrupt" in str(error).lower()


class Search:
    """One incremental PySAT solver over some clauses (a grid formula's), with a deadline.

    Loading the clauses honours the deadline too (TimeUp). Every solve can be ended from another
    thread with `stop`, and by Ctrl-C (see nonosat.interrupts).
    """

    def __init__(
        self,
        clauses: list[Clause],
        solver: str,
        deadline: Deadline = NO_DEADLINE,
        *,
        whole: bool = False,
        with_proof: bool = False,
    ) -> None:
        from pysat.solvers import Solver

        self.name = solver
        self.deadline = deadline
        self.stoppable = False
        """Whether `stop` may be called from another thread (then every solve can be interrupted)."""
        self.whole = whole
        """Solve in one uninterrupted call, even without Python's SIGINT handling: nothing but the
        end of its process stops it (a race worker). CaDiCaL is not cut into conflict budgets."""
        self.stopped = False
        if with_proof:
            # A DRAT proof (`sat.get_proof()`, a certificate's): the clauses are given as the
            # solver starts, so that they are the formula and what it derives while loading is
            # not logged as lemmas (a formula unit propagation refutes gets the empty proof). That
            # load cannot be cut short: it starts only with time for it and for letting go after
            # (a review: `check --certificate --timeout 2` ended at 2.1-2.5 s).
            letting_go = ending(solver, len(clauses))
            deadline.check("loading the CNF into the solver", keep=letting_go + len(clauses) * BOOTSTRAPPING_A_CLAUSE)
            self.sat = Solver(solver, bootstrap_with=clauses, with_proof=True)
            self.unsatisfiable = False
            self.deadline = deadline.sooner(letting_go)
            return
        self.sat = Solver(solver)
        try:
            self.unsatisfiable = not load_clauses(self.sat, solver, clauses, deadline)
        except BaseException:
            self.sat.delete()
            raise
        self.deadline = deadline.sooner(ending(solver, len(clauses)))  # the solver and clauses let go of by it

    def stop(self) -> None:
        """End the search from another thread: the solve under way, and any later one, give None."""
        self.stopped = True
        if not budgeted(self.name):
            self.sat.interrupt()

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """Whether the formula (under the assumptions) is satisfiable, or None when the deadline
        passed or `stop` was called first. Ctrl-C stops it too (see nonosat.interrupts)."""
        if self.stopped:
            return None
        plain = self.whole or (  # a race worker; or where heard_by cannot listen for Ctrl-C (Windows)
            os.name == "nt" and interrupts.wants_keyboard_interrupt() and not budgeted(self.name)
        )
        if plain and self.deadline.at is None and not self.stoppable:
            return self._solve_plain(assumptions)  # PySAT's solve() holds Python's lock
        interrupts.running(self)
        try:
            if budgeted(self.name):
                answer = self._solve_with_budgets(assumptions)
            else:
                answer = self._solve_with_interrupt(assumptions)
        finally:
            interrupts.finished(self)
        return None if self.stopped else answer

    def next_model(self) -> list[int] | Literal[False] | None:
        """A model, False when there is none, or None when the deadline passed (or `stop` was
        called) first."""
        answer = self.solve()
        if answer is None:
            return None
        return self.sat.get_model() if answer else False

    def _solve_plain(self, assumptions: Sequence[int]) -> bool:
        """A solve with PySAT's own SIGINT handling: Ctrl-C is KeyboardInterrupt, as in Python.
        Not in a worker of ours (`whole`): PySAT's handler, set in C for each solve in a main
        thread, would override the worker's own (Ctrl-C ignored, its parent ends it) and longjmp
        out of the solver on a Ctrl-C to the process group, leaving it broken: freeing it then
        aborted the worker ("munmap_chunk(): invalid pointer", a review saw once)."""
        if self.whole:
            with _pysat_leaves_sigint_alone():
                return bool(self.sat.solve(assumptions=list(assumptions)))
        try:
            return bool(self.sat.solve(assumptions=list(assumptions)))
        except Exception as error:
            if _keyboard_interrupt(error):
                raise KeyboardInterrupt from None
            raise

    def _solve_with_interrupt(self, assumptions: Sequence[int]) -> bool | None:
        """A solve that the deadline, `stop` and a signal's Python handler interrupt; after a
        handler that returns (a host's SIGTERM handler that sets a flag) it goes on."""
        timer = None
        timed_out: list[bool] = []  # the deadline's timer interrupted it
        remaining = self.deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                return None

            def time_up() -> None:
                timed_out.append(True)
                self.sat.interrupt()

            timer = interrupts.Timer(remaining, time_up)
            timer.start()
        try:
            with handlers.heard_by(self.sat.interrupt):  # a library caller's main thread: its handlers run
                while True:
                    answer: bool | None = self.sat.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
                    if answer is not None or self.stopped or timed_out or not handlers.handler_ran():
                        break
                    self.sat.clear_interrupt()  # the handler ran and raised nothing: search on,
                    if self.stopped or timed_out:  # unless a stop or the deadline came meanwhile
                        break
        finally:
            if timer is not None:
                timer.cancel()
            if not self.stopped:
                self.sat.clear_interrupt()
        return answer

    def _solve_with_budgets(self, assumptions: Sequence[int]) -> bool | None:
        """Solve in slices of conflicts, each aimed at half of SLICE_SECONDS (or of a tenth of the
        time left, when that is shorter): after each slice the next budget is scaled by how long
        this one took. A stop (the rival's answer, Ctrl-C) is heard between slices, and the
        deadline is overrun by little more than a slice."""
        budget = FIRST_BUDGET
        while True:
            started = time.monotonic()
            remaining = self.deadline.remaining()
            if remaining is None:
                remaining = float("inf")
            if remaining <= 0 or self.stopped:
                return None
            self.sat.conf_budget(budget)
            answer = self._budget_slice(assumptions)
            if answer is not None:
                return answer
            took = max(time.monotonic() - started, 1e-4)
            aim = min(remaining / 10, SLICE_SECONDS) / 2
            budget = max(100, min(int(budget * aim / took), 4 * budget))

    def _budget_slice(self, assumptions: Sequence[int]) -> bool | None:
        """One conflict budget of CaDiCaL. PySAT's solve_limited sets up its own SIGINT handler
        in the main thread, which longjmps out of the solver's C++ on Ctrl-C: that leaves it
        broken (the next call into it, for its counts or to free it, aborts the process). So the
        slice is run through PySAT's C function without that handler: Ctrl-C is heard between
        slices, by the command line's watcher, or as KeyboardInterrupt as soon as the slice
        returns in a library caller's main thread (Python's own handler only notes it meanwhile)."""
        solve_lim = getattr(pysolvers(), f"{self.name}_solve_lim", None)
        inner = self.sat.solver
        handle = getattr(inner, "cadical", None)
        if solve_lim is None or handle is None:  # another PySAT's layout: its own call, handler and all
            try:
                answer: bool | None = self.sat.solve_limited(assumptions=list(assumptions))
            except Exception as error:
                if _keyboard_interrupt(error):
                    raise KeyboardInterrupt from None
                raise
            return answer
        status = solve_lim(handle, list(assumptions), 0)  # 0: not "the main thread", no handler
        inner.status = None if status == 0 else status > 0  # as PySAT's wrapper records it
        inner.prev_assumps = list(assumptions)
        return inner.status  # type: ignore[no-any-return]

    def counts(self) -> dict[str, int]:
        """The solver's own counts so far: conflicts, decisions, propagations, restarts."""
        try:
            return {name: int(value) for name, value in self.sat.accum_stats().items()}
        except (AttributeError, NotImplementedError, TypeError):
            return {}

    def close(self) -> None:
        self.sat.delete()
