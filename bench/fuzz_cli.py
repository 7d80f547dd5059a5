"""The fuzzer's command-line sample: a mutant through `python -m nonosat check FILE --timeout S`,
judged by its exit code, its standard error and its time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.fuzz_categories import HANG, KILL_SLACK, OK, TRACEBACK, UNDOCUMENTED, UNNAMED
from bench.fuzz_mutants import Mutant, mutant_path

CHECK_EXIT_CODES = {0: "unique", 1: "multiple", 2: "bad input", 3: "no solution", 4: "unknown", 6: "goal breaks clues"}
"""The exit codes README.md documents for `nonosat check`."""


@dataclass
class CliOutcome:
    """What became of one mutant through `python -m nonosat check`."""

    index: int
    group: str
    seed: str
    argument: str
    code: int | None
    seconds: float
    category: str = OK
    detail: str = ""


def nonosat_environment() -> dict[str, str]:
    """The environment for the CLI: the same nonosat as the one imported here comes first."""
    import nonosat

    home = str(Path(nonosat.__file__).resolve().parent.parent)
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(p for p in (home, environment.get("PYTHONPATH")) if p)
    environment.pop("COLUMNS", None)
    return environment


def run_cli(mutant: Mutant, folder: Path, timeout: float, environment: dict[str, str], select: bool) -> CliOutcome:
    """Run `python -m nonosat check FILE --timeout S` (`FILE#1` with `select`) and judge it."""
    path = mutant_path(folder, mutant)
    path.write_bytes(mutant.data)
    argument = f"{path}#1" if select else str(path)
    command = [sys.executable, "-m", "nonosat", "check", argument, "--timeout", str(timeout)]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder, env=environment, start_new_session=True
    )
    try:
        out, err = process.communicate(timeout=timeout + 1.0 + KILL_SLACK)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the command's own process group, with any rival
        out, err = process.communicate()
    seconds = time.perf_counter() - started
    path.unlink(missing_ok=True)
    code = process.returncode
    stderr = err.decode("utf-8", "replace")
    outcome = CliOutcome(mutant.index, mutant.seed.group, mutant.seed.name, argument, code, seconds)
    lines = stderr.splitlines()
    shown = f"exit code {code}; stderr: {stderr[-1500:]!r}; stdout ends: {out.decode('utf-8', 'replace')[-300:]!r}"
    if "Traceback" in stderr:
        outcome.category, outcome.detail = TRACEBACK, shown
    elif seconds > timeout + 1.0:
        outcome.category, outcome.detail = HANG, f"took {seconds:.2f} s; {shown}"
    elif code not in CHECK_EXIT_CODES:
        outcome.category, outcome.detail = UNDOCUMENTED, shown
    elif code == 2 and not (len(lines) == 1 and lines[0].startswith("nonosat: ") and str(path) in lines[0]):
        outcome.category, outcome.detail = UNNAMED, shown
    return outcome


def cli_sample(count: int, total: int) -> list[int]:
    """`count` mutant indices spread evenly over the run."""
    return sorted({i * total // count for i in range(count)}) if count else []
