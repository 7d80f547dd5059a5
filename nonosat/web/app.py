"""The web application: the page, its static files, the API and its description.

from nonosat.web.app import create_app
app = create_app(WebSettings(workers=4))  # any ASGI server runs it; `nonosat serve` uses uvicorn
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from nonosat.web.api import BodyLimit, endpoint, error, wrapping
from nonosat.web.options import ENDPOINTS
from nonosat.web.pool import Pool
from nonosat.web.settings import WebSettings

STATIC = ("nonosat.web", "static")
"""The page's files, served from the package: a URL never reaches outside that folder."""


async def page(request: Request) -> Response:
    from importlib.resources import files

    html = files("nonosat.web").joinpath("static", "index.html").read_bytes()
    return Response(html, media_type="text/html; charset=utf-8")


async def formats(request: Request) -> JSONResponse:
    """What the API reads and writes: the names /api/convert?to= takes, and their suffixes."""
    from nonosat.formats import FORMATS, SUFFIXES

    def suffixes(name: str) -> list[str]:
        return [suffix for suffix, named in SUFFIXES.items() if named == name]

    return JSONResponse(
        {
            "write": [
                {"name": name, "suffixes": suffixes(name), "colour": form.colour}
                for name, form in FORMATS.items()
                if form.dump is not None
            ],
            "read": [{"name": name, "suffixes": suffixes(name)} for name in FORMATS],
        }
    )


async def status(request: Request) -> JSONResponse:
    """The server's limits and what its workers are doing."""
    from dataclasses import asdict

    settings: WebSettings = request.app.state.settings
    pool: Pool = request.app.state.pool
    return JSONResponse({"settings": asdict(settings), "workers": pool.stats()})


async def openapi(request: Request) -> JSONResponse:
    from nonosat.web.openapi import describe

    return JSONResponse(describe(request.app.state.settings))


async def http_error(request: Request, problem: Exception) -> Response:
    """Starlette's own 404 and 405 in the API's shape."""
    assert isinstance(problem, HTTPException)
    words = {404: "not found", 405: "method not allowed"}.get(problem.status_code, str(problem.detail))
    headers = dict(problem.headers) if problem.headers else None
    return error(f"{words}: {request.method} {request.url.path[:200]}", problem.status_code, headers)


async def server_error(request: Request, problem: Exception) -> Response:
    """A bug in the server itself: one line, never a traceback (the log has it)."""
    return error(f"internal error ({type(problem).__name__}); the server's log has the details", 500)


def quiet_form_parser() -> None:
    """python-multipart logs a malformed body's fault as a warning, which with no logging set up
    Python prints to the server's stderr; the client's 400 says it already. A server that sets up
    logging still receives it (the records propagate)."""
    import logging

    for name in ("python_multipart", "multipart"):  # its name from 0.0.13, and before
        logger = logging.getLogger(name)
        if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):  # once a process
            logger.addHandler(logging.NullHandler())


CLIENTS_FAULTS = ("Invalid HTTP request received.", "Unsupported upgrade request.", "No supported WebSocket library")
"""The beginnings of uvicorn's warnings about a client's malformed request, which its 400 says:
one line on the server's stderr per bad request let any client fill the log (a review), and the
third told it how the server was installed."""


class _ClientsFaults:
    """A logging filter that drops uvicorn's warnings about a client's malformed request."""

    def filter(self, record: Any) -> bool:
        return not str(record.msg).startswith(CLIENTS_FAULTS)


def quiet_clients_faults() -> None:
    """Drop uvicorn's warnings about clients' malformed requests (once a process)."""
    import logging

    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(kept, _ClientsFaults) for kept in logger.filters):
        logger.addFilter(_ClientsFaults())


def create_app(settings: WebSettings | None = None) -> Any:
    """The ASGI application (the upload limit wrapped around Starlette)."""
    settings = settings or WebSettings()
    pool = Pool(settings)
    quiet_form_parser()
    quiet_clients_faults()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.stop()

    routes = [
        Route("/", page),
        Route("/openapi.json", openapi),
        Route("/api/formats", formats),
        Route("/api/status", status),
        *(Route(f"/api/{name}", endpoint(name), methods=["POST"]) for name in ENDPOINTS),
        Mount("/static", StaticFiles(packages=[STATIC]), name="static"),
    ]
    inner = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    inner.state.settings = settings
    inner.state.pool = pool
    outer = BodyLimit(inner, settings.max_upload_bytes, wrapping(settings.max_side))
    outer.state = inner.state  # type: ignore[attr-defined]
    return outer
