"""Each platform's path works: where there is no fork server (Windows) workers are spawned, where
there is no SIGKILL children are ended with SIGTERM (which Windows carries out outright), where
there are no signal masks nothing asks for them, and where Ctrl-C's wakeup must be a socket it is
one. Windows and macOS are not here, so the pieces they lack are taken away from Linux: a
`sitecustomize` module (imported by every Python that starts, spawned workers too) removes them.
`nonosat --version` says what the installation has, and why the compiled core is missing when
it is."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bench.processes import alive
from nonosat.formats import atomic
from nonosat.solver import compiled

ROOT = Path(__file__).resolve().parent.parent
RING_COLOUR = ROOT / "puzzles" / "ring-colour.non"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="simulates other platforms on Linux")

WITHOUT_A_FORK_SERVER = """
import multiprocessing, os, signal
del signal.pthread_sigmask  # Windows has no signal masks
multiprocessing.get_all_start_methods = lambda: ["spawn"]  # nor a fork server
_get_context = multiprocessing.get_context
def get_context(method=None):
    with open(os.environ["STARTS_LOG"], "a") as log:
        log.write(f"{method}\\n")
    return _get_context(method)
multiprocessing.get_context = get_context
"""

WITHOUT_THE_COMPILED_CORE = """
import sys
class NoCore:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("nonosat._core"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoCore())
"""


def nonosat_with(prelude: str, tmp_path: Path, *args: str, **options: object) -> subprocess.CompletedProcess[str]:
    """`python -m nonosat ARGS` in every process of which `prelude` ran first."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(textwrap.dedent(prelude))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), STARTS_LOG=str(tmp_path / "starts"))
    return subprocess.run(
        [sys.executable, "-m", "nonosat", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )


def test_version_says_what_is_installed() -> None:
    done = subprocess.run([sys.executable, "-m", "nonosat", "--version"], capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].startswith("nonosat 0.")
    assert lines[1].startswith(f"Python {sys.version_info.major}.{sys.version_info.minor}")
    present = compiled.core is not None and compiled.wide_core is not None
    assert lines[2] == (
        "compiled core: present (black-and-white lines of up to 64 cells and up to 126; any colours and sizes)"
        if present
        else lines[2]
    )
    assert lines[3].startswith("PySAT: python-sat 1.")
    assert lines[4].startswith("extras: ")
    for extra in ("image", "web", "dask", "bench"):  # each either with its versions or how to install it
        assert f"{extra} (" in lines[4]
    assert ("bench (ortools " in lines[4]) == (importlib.util.find_spec("ortools") is not None)
    assert lines[5].startswith("worker processes: from the fork server; ")


def test_version_says_why_the_compiled_core_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NONOSAT_PURE_PYTHON", raising=False)  # (the suite may run with it set)
    done = nonosat_with(WITHOUT_THE_COMPILED_CORE, tmp_path, "--version")
    assert done.returncode == 0, done.stderr
    assert "compiled core: missing, not built (pip install builds it with a C compiler" in done.stdout

    def version_with(pure: str) -> str:
        env = dict(os.environ, NONOSAT_PURE_PYTHON=pure)
        command = [sys.executable, "-m", "nonosat", "--version"]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60).stdout

    assert "compiled core: missing, NONOSAT_PURE_PYTHON is set" in version_with("1")
    if importlib.util.find_spec("nonosat._core") is not None:  # built: =0 leaves it on (a review: it turned it off)
        assert "compiled core: present" in version_with("0")


@pytest.mark.slow
def test_without_a_fork_server_workers_are_spawned(tmp_path: Path) -> None:
    """CaDiCaL runs in a worker process (it holds Python's lock), and the race adds another."""
    done = nonosat_with(
        WITHOUT_A_FORK_SERVER, tmp_path, "solve", str(RING_COLOUR), "--solver", "cadical195", "--count", "5"
    )
    assert done.returncode == 1, done.stderr
    assert "multiple (exactly 2 solutions)" in done.stdout and not done.stderr
    started = (tmp_path / "starts").read_text().split()
    assert "spawn" in started and "forkserver" not in started
    version = nonosat_with(WITHOUT_A_FORK_SERVER, tmp_path, "--version")
    assert "worker processes: spawned, a new interpreter each (no fork server on this platform)" in version.stdout


@pytest.mark.slow
def test_without_a_fork_server_the_web_api_answers_from_spawned_workers(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    script = tmp_path / "serve.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from starlette.testclient import TestClient
            from nonosat.web.app import create_app
            from nonosat.web.settings import WebSettings
            if __name__ == "__main__":
                with TestClient(create_app(WebSettings())) as client:
                    files = {{"file": ("ring-colour.non", open({str(RING_COLOUR)!r}, "rb").read())}}
                    answer = client.post("/api/check", files=files)
                    print(answer.status_code, answer.json()["status"])
            """
        )
    )
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(WITHOUT_A_FORK_SERVER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), STARTS_LOG=str(tmp_path / "starts"))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.split() == ["200", "multiple"], done.stderr
    assert "spawn" in (tmp_path / "starts").read_text().split()


@pytest.mark.slow
def test_without_sigkill_the_children_are_ended_with_sigterm() -> None:
    script = textwrap.dedent(
        """
        import signal, subprocess, sys
        kill = signal.SIGKILL
        del signal.SIGKILL  # as on Windows, while nonosat looks
        from nonosat import interrupts
        signal.SIGKILL = kill
        assert interrupts.KILL == signal.SIGTERM
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
        interrupts.child_started(child.pid)
        interrupts.end_now()
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130 and done.stderr == "nonosat: interrupted\n"
    child = int(done.stdout)
    for _ in range(100):
        if not alive(child):  # gone, or a zombie: killed, not yet reaped
            return
        time.sleep(0.05)
    pytest.fail("the child outlived end_now")


@pytest.mark.slow
def test_ctrl_c_is_heard_through_a_socket_pair(tmp_path: Path) -> None:
    """Windows takes only a socket as the wakeup descriptor: the same watcher, through one."""
    prelude = """
    import functools
    from nonosat import interrupts
    interrupts.wakeup_channel = functools.partial(interrupts.wakeup_channel, sockets=True)
    """
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(prelude))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    command = subprocess.Popen(
        [sys.executable, "-m", "nonosat", "random", "--width", "100", "--height", "100", "-o", str(tmp_path / "r.non")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    time.sleep(2.0)
    assert command.poll() is None
    os.killpg(command.pid, signal.SIGINT)
    _, stderr = command.communicate(timeout=10)
    assert command.returncode == 130 and stderr.splitlines() == ["nonosat: interrupted"]


def test_where_processes_cannot_be_looked_at_stale_temporaries_go_by_age(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Windows os.kill(pid, 0) would end the process: the writer's age decides instead."""
    target = tmp_path / "puzzle.non"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    fresh = tmp_path / f".puzzle.non.{int(dead.stdout)}.0123abcd.tmp"
    old = tmp_path / f".puzzle.non.{int(dead.stdout)}.4567cdef.tmp"
    for path in (fresh, old):
        path.write_text("half")
    hours_ago = time.time() - 2 * atomic.OLD_TEMPORARY_AGE
    os.utime(old, (hours_ago, hours_ago))
    monkeypatch.setattr(atomic, "LOOKS_AT_PROCESSES", False)
    assert atomic.remove_stale_temporaries(target) == [old]
    monkeypatch.setattr(atomic, "LOOKS_AT_PROCESSES", True)
    assert atomic.remove_stale_temporaries(target) == [fresh]  # its writer has ended


def test_workers_import_this_nonosat_not_one_in_the_working_folder(tmp_path: Path) -> None:
    """The fork server is `python -c`, whose path starts with the working folder, and it imports
    PRELOAD before taking ours: run from a folder holding another nonosat (a checkout beside an
    installed one), every race's rival ran that one's code (3.11 on: PYTHONSAFEPATH; 3.10: no
    preload there)."""
    decoy = tmp_path / "work" / "nonosat"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text('"""Another nonosat, in the working folder."""\n')
    script = tmp_path / "ask.py"
    script.write_text(
        textwrap.dedent(
            """
            import nonosat
            from nonosat.processes import warm_up, worker_context

            def where(_):
                import nonosat
                return nonosat.__file__

            if __name__ == "__main__":
                warm_up()
                with worker_context().Pool(1) as pool:
                    print(pool.map(where, [0])[0])
                print(nonosat.__file__)
            """
        )
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONSAFEPATH", None)
    done = subprocess.run(
        [sys.executable, str(script)], cwd=decoy.parent, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    child, parent = done.stdout.split()
    assert child == parent == str(ROOT / "nonosat" / "__init__.py")


@pytest.mark.parametrize(("cores", "said"), [(1, "1 usable core"), (2, "2 usable cores")])
def test_version_counts_cores_in_words(monkeypatch: pytest.MonkeyPatch, cores: int, said: str) -> None:
    """A review: one core was "1 usable cores"."""
    from nonosat import installation, processes

    monkeypatch.setattr(processes, "usable_cores", lambda: cores)
    assert installation.workers_line().endswith(f"; {said}")
