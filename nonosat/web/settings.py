"""The server's limits, each a `nonosat serve` option with a documented default."""

from __future__ import annotations

from dataclasses import dataclass

from nonosat.errors import UsageError
from nonosat.limits import MAX_COUNT, MAX_FILE_BYTES, MAX_JOBS, MAX_SIDE


@dataclass(frozen=True)
class WebSettings:
    """What one server allows a request. The README's "Web API" lists these defaults."""

    max_upload_bytes: int = 1 << 20
    """A request's body: beyond it, 413."""
    max_side: int = 200
    """Rows, or columns, of a puzzle or a generated grid (the page draws every cell)."""
    default_timeout: float = 10.0
    """Seconds a request gets when it names no `timeout`."""
    max_timeout: float = 60.0
    """The most a request's `timeout` may ask for (more is cut to this)."""
    max_count: int = 100
    """The most solutions a solve may look for."""
    workers: int = 2
    """Requests answered at once, each in its own worker process."""
    max_queue: int = 32
    """Requests that may wait for a worker; beyond them, 503 with Retry-After."""
    retry_after: int = 2
    """Seconds a 503 asks the client to wait."""
    grace: float = 2.0
    """Seconds past a request's timeout before its worker is killed outright (the library
    answers `unknown` in time on its own; this is the backstop)."""

    def __post_init__(self) -> None:
        for name in ("max_upload_bytes", "max_side", "max_count", "workers", "retry_after"):
            if getattr(self, name) < 1:
                raise UsageError(f"{{{name}}} must be at least 1, not {getattr(self, name)}", **{name: name})
        for name, most in (
            ("max_count", MAX_COUNT),
            ("workers", MAX_JOBS),
            ("max_side", MAX_SIDE),  # beyond nonosat.limits: the status said 5,000, the limit held 1,024 (a review)
            ("max_upload_bytes", MAX_FILE_BYTES),
        ):
            if getattr(self, name) > most:
                raise UsageError(f"{{{name}}} must be at most {most}, not {getattr(self, name)}", **{name: name})
        if self.max_queue < 0:
            raise UsageError(f"{{max_queue}} must be 0 or more, not {self.max_queue}", max_queue="max_queue")
        for name in ("default_timeout", "max_timeout", "grace"):
            if not getattr(self, name) > 0:
                raise UsageError(f"{{{name}}} must be above 0, not {getattr(self, name)}", **{name: name})
