"""`nonosat serve` under load (issue 18), against one `nonosat check` process per request.

    python -m bench.load                              # 20 clients, 200 requests, 2 workers
    python -m bench.load --clients 10 --max-queue 8 --json load.json

Starts the real server on a free port, then `--clients` clients sending `POST /api/check` with
corpus puzzles (request i: puzzle i modulo the puzzles; a 503 makes its client wait Retry-After,
and the request is not sent again). The peer, in the same run: the same requests, each a
`nonosat check FILE --format json --jobs 1` process, `--workers` at once. Prints throughput,
latency percentiles and statuses of both, their ratios, and the server's /api/status at the end.
Exit code 1 for a verdict that differs from the peer's (`unknown` is no verdict), or a failure
(see `failed`); 2 for bad usage. bench/README.md has the details and the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

from bench.percentiles import percentile
from bench.processes import alive, in_group
from bench.verdicts import corpus_root
from nonosat.formats.atomic import write_text_atomic

REPO = Path(__file__).resolve().parent.parent
QUICK = [
    f"webpbn/webpbn-{name}.non"
    for name in ("00001-dancer", "00006-cat", "00016-knot", "00021-skid", "00023-edge")
    + ("00027-bucks", "00065-mum", "00529-swing", "06574-forever", "36459-moss")
]
"""The webpbn survey puzzles the server checks in under 0.5 s each (the other three take 1-2 s,
or are over its 200-cell side)."""


@dataclass(frozen=True)
class Outcome:
    """One request: its puzzle, HTTP status (None for the peer's processes), verdict and time."""

    index: int
    puzzle: str
    http: int | None
    verdict: str | None
    seconds: float
    error: str | None = None


@dataclass(frozen=True)
class Settings:
    """One run of the load test."""

    puzzles: list[Path]
    clients: int = 20
    requests: int | None = 200
    seconds: float | None = None
    timeout: float = 10.0
    workers: int = 2
    max_queue: int = 32


Sender = Callable[[int], Awaitable[tuple[Outcome, float]]]
"""Sends request i; gives back its outcome and the seconds its client waits before the next."""


@dataclass
class Running:
    """The server while it runs; `left` is filled in once it is stopped."""

    url: str
    process: subprocess.Popen[bytes]
    left: list[int] = field(default_factory=list)
    """Its processes still running 5 s after it exited on SIGINT (then killed)."""

    def answering(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited {self.process.returncode} before answering")
        try:
            return httpx.get(f"{self.url}/api/status", timeout=1).status_code == 200
        except httpx.TransportError:
            return False


def wait_until(ready: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@contextmanager
def server(workers: int, max_queue: int, log: Any) -> Iterator[Running]:
    """The real server on a free port, up and answering; stopped with Ctrl-C (SIGINT) at the end,
    and its whole process group killed if anything of it is left, whatever happens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["serve", "--port", str(port), "--workers", str(workers), "--max-queue", str(max_queue)]
    process = subprocess.Popen(
        [sys.executable, "-m", "nonosat", *command], cwd=REPO, stdout=log, stderr=log, start_new_session=True
    )
    running = Running(f"http://127.0.0.1:{port}", process)
    try:
        if not wait_until(running.answering, 60):
            raise RuntimeError("the server did not answer /api/status within 60 s")
        yield running
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
        wait_until(lambda: not in_group(process.pid), 5)
        running.left = in_group(process.pid)
    finally:
        if alive(process.pid) or in_group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def summary(outcomes: list[Outcome], wall: float) -> dict[str, Any]:
    """Throughput (answers a second), latency of the answers, and counts of statuses and errors."""
    answered = [o.seconds for o in outcomes if o.verdict is not None]
    shares = {"p50": 50, "p90": 90, "p95": 95, "p99": 99, "max": 100}
    return {
        "requests": len(outcomes),
        "answered": len(answered),
        "seconds": wall,
        "throughput": len(answered) / wall if wall > 0 else 0.0,
        "latency": {name: percentile(answered, share) for name, share in shares.items()},
        "http": dict(sorted(Counter(str(o.http) for o in outcomes if o.http is not None).items())),
        "verdicts": dict(sorted(Counter(o.verdict for o in outcomes if o.verdict is not None).items())),
        "errors": dict(Counter(o.error for o in outcomes if o.error is not None)),
    }


async def clients(settings: Settings, send: Sender) -> tuple[list[Outcome], float]:
    """`settings.clients` clients sending requests 0, 1, 2 ... through `send(index)` until the
    count (or the time) is reached; every outcome, in request order, and the wall-clock time."""
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    numbers = iter(range(settings.requests if settings.requests is not None else sys.maxsize))

    async def client() -> None:
        for index in numbers:
            if settings.seconds is not None and time.perf_counter() - started >= settings.seconds:
                return
            outcome, pause = await send(index)
            outcomes.append(outcome)
            await asyncio.sleep(pause)

    await asyncio.gather(*(client() for _ in range(settings.clients)))
    return sorted(outcomes, key=lambda o: o.index), time.perf_counter() - started


async def load(url: str, settings: Settings) -> tuple[list[Outcome], float]:
    """The server's side: every request through HTTP."""
    uploads = [(path.name, path.read_bytes()) for path in settings.puzzles]
    limits = httpx.Limits(max_connections=settings.clients)
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(600.0), limits=limits) as http:

        async def send(index: int) -> tuple[Outcome, float]:
            name, data = uploads[index % len(uploads)]
            started = time.perf_counter()
            try:
                query = {"timeout": settings.timeout}
                reply = await http.post("/api/check", params=query, files={"file": (name, data)})
            except httpx.HTTPError as failure:
                return Outcome(index, name, None, None, time.perf_counter() - started, type(failure).__name__), 0.0
            took = time.perf_counter() - started
            body = reply.json() if reply.headers.get("content-type", "").startswith("application/json") else {}
            verdict = body.get("status") if reply.status_code == 200 else None
            error = None if reply.status_code in (200, 503) else f"HTTP {reply.status_code}: {body.get('error')}"
            pause = float(reply.headers.get("retry-after", -1)) if reply.status_code == 503 else 0.0
            if pause < 0:
                error, pause = "HTTP 503 without Retry-After", 0.0
            return Outcome(index, name, reply.status_code, verdict, took, error), pause

        return await clients(settings, send)


async def peer(settings: Settings, count: int) -> tuple[list[Outcome], float]:
    """The same `count` requests, each one `nonosat check --format json` process, `workers` at once."""
    slots = asyncio.Semaphore(settings.workers)
    base = [sys.executable, "-m", "nonosat", "check", "--format", "json", "--jobs", "1"]

    async def send(index: int) -> tuple[Outcome, float]:
        path = settings.puzzles[index % len(settings.puzzles)]
        started = time.perf_counter()
        async with slots:
            process = await asyncio.create_subprocess_exec(
                *base, "--timeout", str(settings.timeout), str(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            try:
                out, err = await process.communicate()
            except BaseException:
                process.kill()
                await process.wait()
                raise
        took = time.perf_counter() - started
        try:
            verdict: str | None = json.loads(out)["status"]
            error = None
        except (ValueError, KeyError):
            verdict, error = None, f"exit {process.returncode}: {err.decode(errors='replace').strip()[-200:]}"
        return Outcome(index, path.name, None, verdict, took, error), 0.0

    return await clients(replace(settings, requests=count, seconds=None), send)


def disagreements(ours: list[Outcome], theirs: list[Outcome]) -> list[dict[str, Any]]:
    """The requests both sides decided (neither `unknown`) with different verdicts."""
    found = []
    for a, b in zip(ours, theirs, strict=True):
        if a.verdict not in (None, "unknown") and b.verdict not in (None, "unknown") and a.verdict != b.verdict:
            found.append({"index": a.index, "puzzle": a.puzzle, "server": a.verdict, "peer": b.verdict})
    return found


def run(settings: Settings) -> dict[str, Any]:
    """The whole load test: the server under load, then the peer on the same requests."""
    with tempfile.TemporaryFile() as log:
        with server(settings.workers, settings.max_queue, log) as running:
            ours, wall = asyncio.run(load(running.url, settings))
            status = httpx.get(f"{running.url}/api/status", timeout=10).json()
        log.seek(0)
        server_log = log.read().decode(errors="replace")
    theirs, peer_wall = asyncio.run(peer(settings, len(ours)))
    ours_sum, other = summary(ours, wall), summary(theirs, peer_wall)

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b else None

    return {
        "settings": {**asdict(settings), "puzzles": [str(p) for p in settings.puzzles]},
        "server": ours_sum,
        "peer": other,
        "ratios": {
            "throughput": ratio(ours_sum["throughput"], other["throughput"]),
            "p50": ratio(ours_sum["latency"]["p50"], other["latency"]["p50"]),
        },
        "status_at_end": status,
        "server_exit": running.process.returncode,
        "left_running": len(running.left),
        "tracebacks": server_log.count("Traceback"),
        "disagreements": disagreements(ours, theirs),
    }


def report(figures: dict[str, Any]) -> None:
    settings, ratios = figures["settings"], figures["ratios"]
    print(
        f"{settings['clients']} clients, {figures['server']['requests']} requests of {len(settings['puzzles'])} "
        f"puzzles, timeout {settings['timeout']:g} s; {settings['workers']} workers, queue {settings['max_queue']}"
    )
    print("side    answered  seconds   answers/s   p50    p90    p95    p99    max   HTTP / verdicts / errors")
    for side in ("server", "peer"):
        got = figures[side]
        times = "  ".join(f"{t:5.3f}" if t is not None else "    -" for t in got["latency"].values())
        counts = [", ".join(f"{key} {n}" for key, n in got[part].items()) or "-" for part in ("http", "verdicts")]
        print(
            f"{side:7} {got['answered']:8}  {got['seconds']:7.2f}  {got['throughput']:9.2f}  {times}   "
            + " / ".join([*counts, f"errors {sum(got['errors'].values())}"])
        )
        for error, count in got["errors"].items():
            print(f"  {count} x {error}")
    shown = {key: "-" if value is None else f"{value:.2f}" for key, value in ratios.items()}
    print(f"server/peer: throughput {shown['throughput']}, p50 latency {shown['p50']}")
    print(
        f"/api/status at the end: {json.dumps(figures['status_at_end']['workers'])}; after SIGINT the server "
        f"exited {figures['server_exit']}, {figures['left_running']} processes left, "
        f"{figures['tracebacks']} tracebacks in its log"
    )
    for found in figures["disagreements"]:
        print(f"DISAGREE request {found['index']} {found['puzzle']}: server {found['server']}, peer {found['peer']}")


def failed(figures: dict[str, Any]) -> bool:
    """A wrong verdict, a request with no HTTP answer, a 5xx (or a 503 without Retry-After), a
    peer's process with no verdict, or a traceback in the server's log."""
    return bool(
        figures["disagreements"]
        or any(not error.startswith("HTTP 4") for error in figures["server"]["errors"])
        or figures["peer"]["errors"]
        or figures["tracebacks"]
    )


def puzzle_files(patterns: Sequence[str]) -> list[Path]:
    """Each pattern's files (a name or a glob), as given, else under the corpus root."""
    found: list[Path] = []
    for pattern in patterns:
        root = Path(".") if any(Path(".").glob(pattern)) else corpus_root()
        matches = sorted(path for path in root.glob(pattern) if path.is_file())
        if not matches:
            raise ValueError(f"no puzzle file matches {pattern} (nor under {corpus_root()})")
        found += matches
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", nargs="+", default=QUICK, help="files or globs (default: 10 quick webpbn)")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (default 20)")
    parser.add_argument("--requests", type=int, default=200, help="requests in all (default 200)")
    parser.add_argument("--seconds", type=float, help="send requests for this long instead of --requests")
    parser.add_argument("--timeout", type=float, default=10.0, help="each check's time limit (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="the server's workers and the peer's (default 2)")
    parser.add_argument("--max-queue", type=int, default=32, help="the server's queue (default 32)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--force", action="store_true", help="overwrite --json")
    args = parser.parse_args(argv)
    if min(args.clients, args.requests, args.workers) < 1 or args.max_queue < 0:
        parser.error("--clients, --requests and --workers must be at least 1, --max-queue at least 0")
    if args.json and args.json.exists() and not args.force:
        parser.error(f"{args.json} exists; give --force to overwrite it")
    try:
        puzzles = puzzle_files(args.puzzles)
    except ValueError as problem:
        parser.error(str(problem))
    requests = None if args.seconds is not None else args.requests
    settings = Settings(puzzles, args.clients, requests, args.seconds, args.timeout, args.workers, args.max_queue)
    figures = run(settings)
    report(figures)
    if args.json:
        write_text_atomic(args.json, json.dumps(figures, indent=2) + "\n", force=args.force)
    return 1 if failed(figures) else 0


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM unwinds as Ctrl-C does: the server and the peer are stopped


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminated)
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the server is stopped by then, and the peer's processes with it
        sys.exit(130)
