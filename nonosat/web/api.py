"""The API's endpoints: read the request (its options, then the puzzle or picture it sends),
hand the job to a worker, and send the reply. Every error is `{"error": "..."}`: 400 for bad
input, 413 for too large an upload, 503 when busy (with Retry-After); never a traceback."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import PurePath
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from nonosat.errors import TooLarge
from nonosat.web.jobs import JSON_NAME, Job, Reply, cut_short
from nonosat.web.options import ENDPOINTS, BadRequest, Endpoint, read_options
from nonosat.web.pool import Busy, Pool, Stopping
from nonosat.web.settings import WebSettings


class TooBig(TooLarge):
    """The body grew past the upload limit while it was read (a body sent without a length)."""


def error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> Response:
    """`{"error": "..."}`, written as every answer is (`Reply.json`)."""
    return response(Reply.error(message, status), headers)


def too_big(limit: int, headers: dict[str, str] | None = None) -> Response:
    return error(f"the upload is over this server's limit of {limit} bytes", 413, headers)


CLOSE = {"Connection": "close"}
"""For an answer sent before the body was read whole (its time ran out, or it grew too big): the
connection ends with it, where uvicorn kept it open for as long as the client went on sending a
byte now and then."""

WRAPPING = 1 << 16
"""What a multipart body may hold besides its file and a hint's state: the parts' headers and
boundaries. The file itself is held to the limit (`read_upload`): a 1 MiB file sent with `curl
-F` was refused for its wrapping."""


def wrapping(max_side: int) -> int:
    """What a multipart body may hold besides its file: WRAPPING and a hint's state, a grid of
    the largest side as rows of characters (1 MB at 1024 cells a side)."""
    return WRAPPING + max_side * (max_side + 2)


class BodyLimit:
    """ASGI middleware: 413 for a body over the limit (a multipart one: over the limit and its
    `wrapping`), by its Content-Length, or by counting as it arrives (then `TooBig` is raised
    from `receive`, inside the endpoint, which answers 413: raised any further out, Starlette
    would make it a 500)."""

    def __init__(self, app: Any, limit: int, wrapped: int = WRAPPING) -> None:
        self.app, self.limit, self.wrapped = app, limit, wrapped

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        wrapped = headers.get(b"content-type", b"").lower().startswith(b"multipart/")
        limit = self.limit + (self.wrapped if wrapped else 0)
        if length is not None and (not length.isdigit() or int(length) > limit):
            response = too_big(self.limit, CLOSE) if length.isdigit() else error("Content-Length is not a number")
            await response(scope, receive, send)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise TooBig
            return message

        await self.app(scope, counted, send)


async def read_upload(
    request: Request, endpoint: Endpoint, limit: int
) -> tuple[bytes, str, str | None, dict[str, Any]]:
    """(bytes, name, format or None to find it, fields): a multipart field `file` of at most
    `limit` bytes (and `state` for a hint, as text or as a file: `curl -F state=@grid.txt`), or a
    JSON body (BodyLimit holds it to the limit): a puzzle in nonosat's JSON, or {"puzzle": ...,
    "state": ...}."""
    kind = media_type(request)
    fields: dict[str, Any] = {}
    if kind == "multipart/form-data":
        parts = {"max_files": 2 if endpoint.name == "hint" else 1, "max_fields": 4, "max_part_size": limit + WRAPPING}
        async with request.form(**parts) as form:  # a field's size: Starlette's 1 MiB, else (a file's is ours)
            taken = ("file", "state") if endpoint.name == "hint" else ("file",)
            other = next((key for key in form if key not in taken), None)
            if other is not None:  # `curl -F timeout=1` was ignored without a word
                raise BadRequest(
                    f"the form field {other[:40]!r} is not read: the upload goes in {' and '.join(taken)}, "
                    f"and options in the query string (/api/{endpoint.name}?{other[:40]}=...)"
                )
            twice = next((key for key in taken if len(form.getlist(key)) > 1), None)
            if twice is not None:  # a review found the last of two `file` fields read, the first dropped
                raise BadRequest(f"the form field {twice!r} came {len(form.getlist(twice))} times: send one")
            upload = form.get("file")
            if upload is None or (isinstance(upload, str) and endpoint.takes == "picture"):
                raise BadRequest(f"expected a multipart field 'file' holding {what_to_send(endpoint)}")
            state = form.get("state")
            if isinstance(state, str):
                fields["state"] = state
            elif state is not None:
                try:
                    fields["state"] = (await state.read()).decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise BadRequest("state: expected the grid so far as UTF-8 text") from None
            if isinstance(upload, str):  # a puzzle's text as a field (`curl -F 'file=<x.non'`, a filename* only)
                name, data = "upload", upload.encode()  # not UTF-8: read as Latin-1 by Starlette
            else:
                name = PurePath((upload.filename or "upload").replace("\\", "/")).name or "upload"  # never a path
                data = await upload.read()
            if len(data) > limit:
                raise TooBig
            return data, name, None, fields
    if kind == "application/json" and endpoint.takes != "picture":
        body = await request.body()
        if endpoint.name == "hint":
            return hint_body(body, fields)
        return body, JSON_NAME, "json", fields
    raise BadRequest(f"send {what_to_send(endpoint)} as multipart/form-data (field 'file'){json_too(endpoint)}")


def what_to_send(endpoint: Endpoint) -> str:
    return {
        "picture": "a picture (PNG, JPEG, GIF, BMP or WebP)",
        "drawing": "a puzzle whose goal is the drawing",
    }.get(endpoint.takes, "a puzzle file")


def json_too(endpoint: Endpoint) -> str:
    return "" if endpoint.takes == "picture" else ", or as application/json in nonosat's JSON puzzle format"


def hint_body(body: bytes, fields: dict[str, Any]) -> tuple[bytes, str, str | None, dict[str, Any]]:
    """A hint's JSON body: {"puzzle": {...}, "state": ["#.?", ...] or "#.?\\n..."}."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise BadRequest(f'{JSON_NAME}: expected JSON like {{"puzzle": {{...}}, "state": [...]}}') from None
    if not isinstance(data, dict) or "puzzle" not in data or "state" not in data:
        raise BadRequest(f'{JSON_NAME}: a hint\'s JSON is {{"puzzle": {{...}}, "state": ["rows of # . ?", ...]}}')
    unknown = sorted(str(key) for key in data if key not in ("puzzle", "state"))
    if unknown:  # refused, as a form's other fields are: `"steps": 3` was dropped in silence (a review)
        raise BadRequest(
            f"{JSON_NAME}: a hint's JSON holds puzzle and state only, not {', '.join(unknown)}"
            " (options such as steps go in the query: ?steps=3)"
        )
    state = data["state"]
    if isinstance(state, list) and all(isinstance(row, str) for row in state):
        state = "\n".join(state)
    if not isinstance(state, str):
        raise BadRequest(f"{JSON_NAME}: state is a list of rows of # . ? (or one string of them)")
    fields["state"] = state
    return json.dumps(data["puzzle"]).encode(), JSON_NAME, "json", fields


def endpoint(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The handler of POST /api/NAME."""
    spec = ENDPOINTS[name]

    async def handle(request: Request) -> Response:
        arrived = time.time()  # the request's time counts from here, the upload's reading included
        settings: WebSettings = request.app.state.settings
        pool: Pool = request.app.state.pool
        try:
            options = read_options(spec, list(request.query_params.multi_items()), settings)
        except BadRequest as problem:
            return error(str(problem))
        seconds = options.pop("timeout", settings.default_timeout)
        try:
            data, upload_name, fmt, fields = await asyncio.wait_for(
                pool.read(read_upload(request, spec, settings.max_upload_bytes)), seconds
            )
        except asyncio.TimeoutError:  # a stalled or slow upload: answered, and its connection closed
            unread = Job(name, b"", unread_name(request), None, seconds, settings.max_side, options, arrived)
            return response(cut_short(unread, f"time limit reached ({seconds:g} s) while reading the upload"), CLOSE)
        except TooBig:
            return too_big(settings.max_upload_bytes, CLOSE)
        except Stopping as stopping:
            return error(str(stopping), 503, CLOSE)
        except BadRequest as problem:
            return error(str(problem))
        except Exception as problem:  # noqa: BLE001 - a broken multipart body, from python-multipart or Starlette
            detail = getattr(problem, "detail", None)  # Starlette's HTTPException: "400: Too many files" as str
            said = detail if isinstance(detail, str) else str(problem)
            return error(f"the upload could not be read as multipart/form-data: {said[:200]}")
        if name == "hint":
            if "state" not in fields:
                return error(
                    "expected the grid so far: a field 'state' of rows of # . ? (in colour, the colours' characters)"
                )
            options["state"] = fields["state"]
        job = Job(name, data, upload_name, fmt, seconds, settings.max_side, options, arrived)
        gone = asyncio.ensure_future(wait_for_disconnect(request))
        try:
            reply = await pool.run(job, gone)
        except Busy:
            return error("the server is busy; try again shortly", 503, {"Retry-After": str(settings.retry_after)})
        finally:
            gone.cancel()
        if reply is None:  # the client left: nobody reads this
            return Response(status_code=499)
        return response(reply)

    return handle


def media_type(request: Request) -> str:
    """The request's media type, without its parameters, in lower case (media types are
    case-insensitive): `application/jsonx` is not JSON (a review found it read as JSON)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def unread_name(request: Request) -> str:
    """How an answer names an upload not read in time: `<input>` for a JSON body, else `upload`
    (its file name comes with the body)."""
    return JSON_NAME if media_type(request) == "application/json" else "upload"


def response(reply: Reply, headers: dict[str, str] | None = None) -> Response:
    headers = {**reply.headers, **(headers or {})}
    return Response(reply.body, status_code=reply.status, media_type=reply.media_type, headers=headers)


async def wait_for_disconnect(request: Request) -> None:
    """Returns when the client disconnects (its body is read by then: receive() only waits)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
