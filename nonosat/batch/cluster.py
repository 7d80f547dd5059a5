"""Reaching a Dask scheduler for a batch run: a wrong address is refused in one line, and soon.

Dask's own Client waits for ever on a port that accepts and never answers as Dask does (the
scheduler's dashboard, one port up, is an easy slip), raises MemoryError on one that answers
with other bytes (it reads them as a message's length), ValueError on an address it cannot
parse, and says "timed out" of a port refused or a host not found. So the address is looked at
first: read, connected to, and asked who it is, each step within REACH_SECONDS; only a
scheduler's answer lets the run go on (a review found each of these).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

from nonosat.errors import UsageError

REACH_SECONDS = 10.0
"""The longest each step of reaching the scheduler may take."""

EXAMPLE = "tcp://HOST:8786"


def read_address(scheduler: str) -> tuple[str, str]:
    """The scheme and the place of a scheduler's address, or UsageError: no network, so that a
    run refuses an address that is no address before its work begins (`batch.check_run`)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(scheduler)
        get_backend(scheme)  # an unknown scheme (http://) is a ValueError only at the connection
        if scheme in ("tcp", "tls") and ":" in location:
            parse_host_port(location)  # IPv6 without brackets: Dask's own words
    except ValueError as error:
        raise _unreachable(scheduler, f"not an address such as {EXAMPLE} ({error})") from None
    if scheme in ("tcp", "tls") and ":" not in location.rpartition("]")[2]:
        raise _unreachable(scheduler, f"not an address such as {EXAMPLE} (no port)")
    return scheme, location


def connect(scheduler: str) -> Any:
    """A distributed.Client of the scheduler at `scheduler`, or UsageError saying what is wrong."""
    from distributed import Client

    scheme, location = read_address(scheduler)
    if scheme == "tcp":
        _listening(scheduler, location)
    try:
        reply = _asked(scheduler)
    except (TimeoutError, asyncio.TimeoutError):  # (two classes before Python 3.11)
        raise _unreachable(
            scheduler,
            f"no answer within {REACH_SECONDS:g} s (the dashboard's port? the scheduler's is 8786 unless set)",
        ) from None
    except Exception as error:  # noqa: BLE001 - whatever Dask's comms raise for bytes not Dask's (MemoryError...)
        raise _unreachable(scheduler, f"what answers there is not a Dask scheduler ({type(error).__name__})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        kind = reply.get("type") if isinstance(reply, dict) else type(reply).__name__
        raise _unreachable(scheduler, f"what answers there is a {kind}, not a Dask scheduler")
    try:
        return Client(scheduler, timeout=f"{REACH_SECONDS:g}s")
    except OSError as error:  # (TimeoutError among them)
        raise _unreachable(scheduler, str(error)) from None


def _unreachable(scheduler: str, why: str) -> UsageError:
    return UsageError(f"cannot reach the Dask scheduler at {scheduler}: {why}")


def _listening(scheduler: str, location: str) -> None:
    """Refuse a TCP port nothing listens on, or a host that cannot be found, in words (Dask
    says "timed out"). A refused port is tried again for REACH_SECONDS, as Dask does: a script
    may start the scheduler and the run together."""
    host, _, port = location.rpartition(":")  # (read_address made sure of the port)
    until = time.monotonic() + REACH_SECONDS
    try:
        while True:
            try:
                with socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS):
                    return
            except ConnectionRefusedError:
                if time.monotonic() > until:
                    raise
                time.sleep(0.2)
    except ValueError:
        raise _unreachable(scheduler, f"not an address such as {EXAMPLE} (port {port!r})") from None
    except TimeoutError:
        raise _unreachable(scheduler, f"no connection within {REACH_SECONDS:g} s") from None
    except ConnectionRefusedError:
        raise _unreachable(scheduler, f"connection refused for {REACH_SECONDS:g} s") from None
    except OSError as error:
        raise _unreachable(scheduler, error.strerror or str(error)) from None


def _asked(scheduler: str) -> Any:
    """`_identity`'s answer, asked on an event loop of its own thread (the caller may be running
    one: a notebook's), its error raised here."""
    outcome: dict[str, Any] = {}

    def ask() -> None:
        try:
            outcome["reply"] = asyncio.run(_identity(scheduler))
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            outcome["error"] = error

    asking = threading.Thread(target=ask, name="nonosat-scheduler-probe", daemon=True)
    asking.start()
    asking.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("reply")


async def _identity(scheduler: str) -> Any:
    """What the peer says it is, asked as a Dask client asks (`identity`)."""
    from distributed.comm.core import connect as open_comm
    from distributed.security import Security

    security = Security().get_connection_args("client")  # as Client asks: tls:// needs its context
    comm = await asyncio.wait_for(open_comm(scheduler, timeout=REACH_SECONDS, **security), REACH_SECONDS)
    try:
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), REACH_SECONDS)
        return await asyncio.wait_for(comm.read(), REACH_SECONDS)
    finally:
        comm.abort()
