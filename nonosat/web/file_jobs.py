"""The endpoints whose answer is about a file: the puzzle written in another format (`convert`),
its printed sheet (`render`), the puzzles a file holds (`contents`), and the verdict's
certificate as a zip file (`certificate`). Each takes a `Job` and
answers a `Reply`, as those of web/jobs.py do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nonosat.deadline import Deadline
from nonosat.model import Puzzle
from nonosat.web.jobs import JSON_NAME, Job, Reply, read_puzzle


def convert(job: Job, deadline: Deadline) -> Reply:
    """The puzzle written in another format, as a download."""
    from nonosat.formats import dropped_fields, dumps

    puzzle = read_puzzle(job, deadline)
    target = job.options["to"]
    text = dumps(puzzle, target)
    headers = {"Content-Disposition": disposition("attachment", puzzle, job, suffix_of(target))}
    dropped = dropped_fields(puzzle, target)
    if dropped:
        headers["X-Nonosat-Dropped"] = ", ".join(dropped)
    kind = MEDIA_TYPES.get(target, "text/plain")
    return Reply(200, text.encode(), f"{kind}; charset=utf-8", headers)


MEDIA_TYPES = {"json": "application/json", "xml": "application/xml"}
"""The media type of a converted puzzle in a format of a registered one (the rest are text)."""

CONTENTS_LIMIT = 5000
"""The most puzzles `contents` lists (a tournament file holds 1,000)."""


def contents(job: Job, deadline: Deadline) -> Reply:
    """The puzzles a file holds, to choose one with `number`: each one's number (from 1), title,
    size and colours."""
    from nonosat.deadline import finished_by
    from nonosat.formats import decode_text, load_all_bytes, loads

    fmt = job.fmt

    def read() -> list[Puzzle]:
        if fmt is not None:
            return [loads(decode_text(job.data, job.name), fmt=fmt, path=job.name)]
        return load_all_bytes(job.data, job.name)

    puzzles = finished_by(deadline, f"reading {job.name}", read)  # Pillow's C hears no timer signal
    listed = [
        {"number": n, "title": p.title, "width": p.width, "height": p.height, "colours": p.colour_count}
        for n, p in enumerate(puzzles[:CONTENTS_LIMIT], start=1)
    ]
    return Reply.json({"path": job.name, "count": len(puzzles), "puzzles": listed})


def suffix_of(fmt: str) -> str:
    from nonosat.formats import SUFFIXES

    return next((suffix for suffix, name in SUFFIXES.items() if name == fmt), f".{fmt}")


def disposition(kind: str, puzzle: Puzzle, job: Job, suffix: str) -> str:
    """A download's Content-Disposition, named by the puzzle's title (else the upload's name): in
    ASCII, and for a title in other letters also as RFC 6266's `filename*` (browsers take that)."""
    from urllib.parse import quote

    named = puzzle.title or ("puzzle" if job.name == JSON_NAME else Path(job.name).stem)
    plain, wide = safe_stem(named), safe_stem(named, ascii_only=False)
    header = f'{kind}; filename="{plain}{suffix}"'
    return header if wide == plain else f"{header}; filename*=UTF-8''{quote(wide + suffix)}"


def safe_stem(title: str, ascii_only: bool = True) -> str:
    """A file name from a title: letters, digits, '-' and '_' only (for a header's plain
    `filename`, which is latin-1, ASCII ones: accents dropped, other letters left out)."""
    import re
    import unicodedata

    if ascii_only:
        title = "".join(ch for ch in unicodedata.normalize("NFKD", title) if not unicodedata.combining(ch))
    kept = "".join(ch if (ch.isascii() or not ascii_only) and ch.isalnum() or ch in "-_" else "-" for ch in title)
    return re.sub("-{2,}", "-", kept).strip("-")[:60] or "puzzle"


def render(job: Job, deadline: Deadline) -> Reply:
    """The printed sheet, empty or solved, as SVG or PNG."""
    from nonosat.render.sheets import to_png, to_svg
    from nonosat.render.text import status_line
    from nonosat.solver import solve as solve_puzzle

    puzzle = read_puzzle(job, deadline)
    grid, headers = None, {}
    if job.options.get("solution"):
        result = solve_puzzle(puzzle, count=1, timeout=deadline, jobs=1)
        if result.problems:
            return Reply.error(
                f"nothing to draw: {result.puzzle.source or job.name}: no solution: " + "; ".join(result.problems), 422
            )
        if result.solution is None:
            return Reply.error(f"nothing to draw: {status_line(result)}", 422)
        grid = result.solution.grid
        if result.status.value != "unique":  # as the command line warns (a review: nothing said so)
            headers["X-Nonosat-Unproved"] = "the first solution found; /api/check says whether it is the only one"
    if job.options.get("as") == "png":
        body, media, suffix = to_png(puzzle, grid), "image/png", ".png"
    else:
        body, media, suffix = to_svg(puzzle, grid).encode(), "image/svg+xml", ".svg"
    suffix = ("-solved" if grid is not None else "") + suffix  # the two sheets of a puzzle, two names (a review)
    return Reply(200, body, media, {"Content-Disposition": disposition("inline", puzzle, job, suffix), **headers})


def certificate(job: Job, deadline: Deadline) -> Reply:
    """The verdict's certificate (nonosat.certificate) as a zip file of its folder, named after
    the puzzle; 422 when the verdict is unknown (there is nothing to prove). Made in memory: a
    folder on the server's disk was left behind by a worker killed for a client that left (a
    review). Packed within the request's time: a tenth of what is left after the verdict, at most
    1 s, is kept from the proof for it (a review found a 12 MB proof packed 0.7-1.1 s late)."""
    import io
    import stat
    import time
    import zipfile

    from nonosat.certificate import CERTIFICATE_ENCODING, CERTIFIED, certificate_files
    from nonosat.solver.drive import check_within

    puzzle = read_puzzle(job, deadline)
    verdict = check_within(puzzle, deadline, engine=job.options.get("engine", "auto"), jobs=1)
    status = verdict.result.status.value
    if status not in CERTIFIED:
        why = verdict.result.cut_short or status
        return Reply.error(f"no certificate: the verdict is {status} ({why})", 422)
    grids = tuple(solution.grid for solution in verdict.result.solutions)
    encoding = job.options.get("encoding", CERTIFICATE_ENCODING)
    proving = deadline.sooner(min(PACKING_MOST, PACKING_SHARE * (deadline.remaining() or 0.0)))
    files = certificate_files(puzzle, status, grids, encoding=encoding, deadline=proving)
    buffer = io.BytesIO()
    made = time.localtime()[:6]
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            deadline.check("packing the certificate")
            entry = zipfile.ZipInfo(f"certificate/{name}", date_time=made)
            entry.external_attr = (stat.S_IFREG | 0o644) << 16  # a file, rw-r--r--, as check --certificate writes
            archive.writestr(entry, text, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    headers = {"Content-Disposition": disposition("attachment", puzzle, job, "-certificate.zip")}
    return Reply(200, buffer.getvalue(), "application/zip", headers)


PACKING_SHARE = 0.1
PACKING_MOST = 1.0
"""A tenth of the time left after the verdict, at most a second, is kept from the proof for
packing it (zlib's fastest level packs some 100 MB of a proof a second here)."""


ANSWERS: dict[str, Any] = {"convert": convert, "render": render, "contents": contents, "certificate": certificate}
"""Each of these endpoints' work, by the name in its path (/api/NAME)."""
