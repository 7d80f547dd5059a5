"""serve: the web page and the JSON API (nonosat.web), on uvicorn."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from nonosat.cli.base import app, friendly
from nonosat.cli.show import err
from nonosat.limits import MAX_COUNT, MAX_FILE_BYTES, MAX_JOBS, MAX_SIDE

if TYPE_CHECKING:
    import socket

WEB_HINT = "pip install 'nonosat[web]'"
REQUEST_TIMEOUT = 10.0
"""Seconds a request that names no timeout gets, unless --request-timeout (or a lower
--max-request-timeout) says otherwise."""
GRACE: Any = 0.5
"""Seconds uvicorn gives requests under way to be answered (503: their workers end at the stop)."""


@app.command(short_help="Serve the authors' page and the JSON API.")
@friendly
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, help="Port to listen on (0: a free one, which the first line names)."),
    ] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=MAX_JOBS, help="Requests answered at once, a process each.")
    ] = 2,
    max_queue: Annotated[
        int, typer.Option("--max-queue", min=0, help="Requests that may wait for a worker; beyond, 503.")
    ] = 32,
    max_upload: Annotated[
        int, typer.Option("--max-upload", min=1, max=MAX_FILE_BYTES, help="Bytes of an upload (beyond: 413).")
    ] = 1 << 20,
    max_side: Annotated[
        int, typer.Option("--max-side", min=1, max=MAX_SIDE, help="Cells a side of a puzzle or picture grid.")
    ] = 200,
    request_timeout: Annotated[
        float | None,
        typer.Option(
            "--request-timeout",
            min=0.001,
            help="Seconds a request gets when it names no timeout: 10, or --max-request-timeout if less"
            " (the server itself runs until Ctrl-C).",
            show_default=False,
        ),
    ] = None,
    max_request_timeout: Annotated[
        float, typer.Option("--max-request-timeout", min=0.001, help="The most seconds a request may ask for.")
    ] = 60.0,
    max_count: Annotated[
        int, typer.Option("--max-count", min=1, max=MAX_COUNT, help="The most solutions a solve may ask for.")
    ] = 100,
) -> None:
    """Serve the page where authors draw and check puzzles, and the JSON API, until Ctrl-C.

    Needs nonosat[web]. Example: nonosat serve (then open http://127.0.0.1:8000)
    """
    from importlib.util import find_spec

    try:
        if find_spec("python_multipart") is None and find_spec("multipart") is None:  # Starlette reads uploads with it
            raise ImportError("python-multipart")
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        from nonosat.errors import UsageError

        raise UsageError(f"serve needs Starlette and uvicorn: {WEB_HINT}") from None
    from nonosat.web.app import create_app
    from nonosat.web.settings import WebSettings

    settings = WebSettings(
        max_upload_bytes=max_upload,
        max_side=max_side,
        default_timeout=min(REQUEST_TIMEOUT if request_timeout is None else request_timeout, max_request_timeout),
        max_timeout=max_request_timeout,
        max_count=max_count,
        workers=workers,
        max_queue=max_queue,
    )
    bound = check_address(host, port)
    port = bound.getsockname()[1]
    if request_timeout is not None and request_timeout > max_request_timeout:
        err.print(
            f"warning: --request-timeout {request_timeout:g} is over --max-request-timeout"
            f" {max_request_timeout:g}: a request that names no timeout gets {max_request_timeout:g} s",
            markup=False,
            soft_wrap=True,
        )
    if not _loopback(host):
        err.print(
            f"warning: listening on {host}: anyone who can reach this machine can use the server",
            markup=False,
            soft_wrap=True,
        )
    shown = f"[{host}]" if ":" in host else host
    from nonosat import interrupts

    stopped_by = "SIGTERM stops it" if interrupts.started_ignoring() else "Ctrl-C stops it"
    err.print(f"nonosat: serving on http://{shown}:{port} ({stopped_by})", markup=False, soft_wrap=True)
    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="warning")
    config.timeout_graceful_shutdown = GRACE  # typed int, used as asyncio's float timeout
    server = _server_class(uvicorn.Server)(config)
    with bound:
        server.run(sockets=[bound])  # until Ctrl-C (or SIGTERM): the workers end first, and requests under way get 503
    if not server.started:
        from nonosat.errors import UsageError

        raise UsageError(f"the server on {host}:{port} did not start")
    interrupts.announce()
    raise typer.Exit(interrupts.EXIT_INTERRUPTED)


def _server_class(uvicorns: Any) -> Any:
    """uvicorn's Server, whose shutdown first ends the workers (each request under way is then
    answered 503, not cut off); for a server started ignoring Ctrl-C (a shell script's background
    job), one that goes on ignoring it, as every other command does (uvicorn's own handler would
    stop it, and its wakeup byte would reach the command line's watcher); SIGTERM still stops it."""
    import contextlib
    import signal
    from collections.abc import Iterator

    from nonosat import interrupts

    class Stopping(uvicorns):  # type: ignore[misc]
        def handle_exit(self, *args: Any, **kwargs: Any) -> None:
            from nonosat.web.pool import every_pool_stopping

            # At the signal itself: Ctrl-C at a terminal reaches the workers too, and a worker
            # that died of it must be answered as stopping, not "interrupted (Ctrl-C)" (a review)
            every_pool_stopping()
            super().handle_exit(*args, **kwargs)

        async def shutdown(self, *args: Any, **kwargs: Any) -> None:
            from nonosat.web.pool import stop_every_pool

            stop_every_pool()
            await super().shutdown(*args, **kwargs)

    server: Any = Stopping
    if not interrupts.started_ignoring():
        return server

    class IgnoringCtrlC(server):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # uvicorn puts back what was there: ignored
                yield

    return IgnoringCtrlC


def check_address(host: str, port: int) -> "socket.socket":
    """Refuse at once, in one line, an address this machine cannot listen on (taken, or not its
    own); else the socket bound to it, for the server to listen on: for port 0, a free one the
    system gives (a review: "serving on http://127.0.0.1:0", and the port it served on said
    nowhere; then, found free and let go, the port could be taken before the server bound it)."""
    import socket

    from nonosat.errors import UsageError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        bound = socket.socket(family, kind, proto)
        try:
            bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            bound.bind(address)
            bound.listen()  # the port is this server's from now on (connections wait until it starts)
        except OSError:
            bound.close()
            raise
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return bound


def _loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only: localhost, or an address of 127.0.0.0/8 or ::1."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
