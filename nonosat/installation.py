"""What this installation of nonosat has: its version, the Python, the compiled core (or why it
is missing), PySAT, the optional extras, and how worker processes start here.
`nonosat --version` prints it, so that a failed C build or a missing extra is never silent."""

from __future__ import annotations

import platform
import sys

from nonosat import __version__

EXTRAS = {
    "image": ("Pillow",),
    "web": ("starlette", "uvicorn", "python-multipart", "Pillow"),
    "dask": ("distributed",),
    "verify": ("dratify",),
    "bench": ("ortools",),
}
"""The extras of pyproject.toml, each by the distributions it needs."""


def version_of(distribution: str) -> str | None:
    """The installed version of a distribution, or None when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def core_line() -> str:
    """Whether the compiled core is here, both builds: present, or why not."""
    from nonosat.solver import compiled

    builds = {
        f"black-and-white lines of up to {compiled.MAX_SIDE} cells": ("nonosat._core", compiled.core),
        f"up to {compiled.WIDE_SIDE}": ("nonosat._core_wide", compiled.wide_core),
    }
    if all(module is not None for _, module in builds.values()):
        return f"compiled core: present ({' and '.join(builds)}; any colours and sizes)"
    why = {compiled.MISSING.get(name, "not loaded") for name, module in builds.values() if module is None}
    if compiled.core is None and compiled.wide_core is None and len(why) == 1:
        return f"compiled core: missing, {why.pop()} (puzzles are solved in Python: the same answers, slower)"
    states = [
        f"{lines} {'present' if module is not None else 'missing, ' + compiled.MISSING.get(name, 'not loaded')}"
        for lines, (name, module) in builds.items()
    ]
    return f"compiled core: {'; '.join(states)}"


def extras_line() -> str:
    found, missing = [], []
    for extra, needs in EXTRAS.items():
        versions = {name: version_of(name) for name in needs}
        if all(versions.values()):
            found.append(f"{extra} ({', '.join(f'{name} {v}' for name, v in versions.items())})")
        else:
            missing.append(f"{extra} (pip install 'nonosat[{extra}]')")
    line = f"extras: {'; '.join(found) or 'none'}"
    return line + (f"; not installed: {', '.join(missing)}" if missing else "")


def workers_line() -> str:
    from nonosat.processes import start_method, usable_cores

    how = (
        "from the fork server"
        if start_method() == "forkserver"
        else "spawned, a new interpreter each (no fork server on this platform)"
    )
    cores = usable_cores()
    return f"worker processes: {how}; {cores} usable core{'' if cores == 1 else 's'}"


def report() -> list[str]:
    """The lines of `nonosat --version`."""
    pysat = version_of("python-sat")
    return [
        f"nonosat {__version__}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, {sys.platform})",
        core_line(),
        f"PySAT: {'python-sat ' + pysat if pysat else 'missing (pip install python-sat)'}",
        extras_line(),
        workers_line(),
    ]
