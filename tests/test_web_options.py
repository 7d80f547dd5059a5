"""No query parameter of the web API is taken and then ignored: for every parameter of every
endpoint (nonosat.web.options.ENDPOINTS), two requests that differ in that parameter alone, and
what the parameter changes in the answer. The command line's options have their table in
tests/test_options.py."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from web_requests import DANCER, PUZZLES, TWO_BY_TWO, hard_puzzle, upload  # noqa: E402

from nonosat.web.options import ENDPOINTS  # noqa: E402

Body = Callable[[], dict[str, Any]]
"""The keyword arguments of a request's post: an upload or a JSON body."""

Seen = Callable[[Any], Any]
"""What a reply shows of the parameter's effect."""


def dancer() -> dict[str, Any]:
    return upload(DANCER)


def two_puzzles() -> dict[str, Any]:
    """An XML set: the dancer (5x10), then a 2x2 puzzle."""
    from nonosat.formats import load
    from nonosat.formats.webpbn import dump_xml_all
    from nonosat.model import Puzzle

    tiny = Puzzle.from_grid(((1, 0), (1, 0)), title="Tiny")
    return {"files": {"file": ("set.xml", dump_xml_all([load(DANCER), tiny]).encode())}}


def with_state(body: Body, state: str) -> Body:
    def both() -> dict[str, Any]:
        kwargs = body()
        return {**kwargs, "data": {"state": state}}

    return both


def hard() -> dict[str, Any]:
    return {"json": hard_puzzle()}


def ambiguous() -> dict[str, Any]:
    return {"json": TWO_BY_TWO}


def colour() -> dict[str, Any]:
    return upload(PUZZLES / "ring-colour.non")


def diagonal_drawing() -> dict[str, Any]:
    """A drawing (the puzzle's goal) of two diagonal cells: ambiguous; changing any one cell
    makes it unique, and the seed breaks the tie."""
    return {"json": {**TWO_BY_TWO, "goal": ["10", "01"]}}


PROBING_DRAWING = ["001001", "000111", "100110", "011000", "011101", "100101"]
"""A drawing whose puzzle is unique but needs probing: found by rating random 6x6 grids."""


def probing_drawing() -> dict[str, Any]:
    return {"json": {"rows": [[1]] * 6, "cols": [[1]] * 6, "goal": PROBING_DRAWING}}


TWO_SWITCHES = ["100000", "010000", "000000", "000000", "000010", "000001"]
"""A drawing with two diagonal pairs, each ambiguous on its own: it takes two changed cells."""


def two_switches_drawing() -> dict[str, Any]:
    return {"json": {"rows": [[1]] * 6, "cols": [[1]] * 6, "goal": TWO_SWITCHES}}


def two_switches_picture() -> dict[str, Any]:
    return _png([0 if cell == "1" else 255 for row in TWO_SWITCHES for cell in row], 6, "L")


def _png(pixels: list[int] | list[tuple[int, int, int]], side: int, mode: str) -> dict[str, Any]:
    from PIL import Image

    image = Image.new(mode, (side, side))
    image.putdata(pixels)
    out = io.BytesIO()
    image.save(out, "PNG")
    return {"files": {"file": ("picture.png", out.getvalue())}}


def gradient() -> dict[str, Any]:
    """16x16 grey levels, black on the left to near white on the right: the threshold moves the
    edge, invert fills the other side, colours=2 makes two colours."""
    return _png([x * 16 for _ in range(16) for x in range(16)], 16, "L")


def checkerboard() -> dict[str, Any]:
    """An 8x8 checkerboard: ambiguous as a puzzle, one changed cell makes it unique, and the seed
    breaks the tie."""
    return _png([0 if (x + y) % 2 == 0 else 255 for y in range(8) for x in range(8)], 8, "L")


def probing_picture() -> dict[str, Any]:
    """PROBING_DRAWING as 6x6 black and white pixels."""
    return _png([0 if cell == "1" else 255 for row in PROBING_DRAWING for cell in row], 6, "L")


def noise() -> dict[str, Any]:
    """12x12 pixels of random colours: the k-means++ start (seeded) can win the quantisation."""
    rng = random.Random(1)
    return _png([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(144)], 12, "RGB")


def status(reply: Any) -> Any:
    return reply.json().get("status")


def cut_short(reply: Any) -> Any:
    return reply.status_code, reply.json().get("cut_short")


def field(name: str) -> Seen:
    def seen(reply: Any) -> Any:
        return reply.json().get(name)

    return seen


def count_of(name: str) -> Seen:
    def seen(reply: Any) -> Any:
        return len(reply.json().get(name) or [])

    return seen


def code(reply: Any) -> Any:
    return reply.status_code


def puzzle_field(name: str) -> Seen:
    def seen(reply: Any) -> Any:
        return reply.json()["puzzle"].get(name)

    return seen


def zipped(name: str) -> Seen:
    """A file of the zip the reply holds (a certificate's)."""

    def seen(reply: Any) -> Any:
        import io
        import zipfile

        return zipfile.ZipFile(io.BytesIO(reply.content)).read(f"certificate/{name}")

    return seen


def download(reply: Any) -> Any:
    return reply.status_code, reply.headers.get("content-type"), reply.headers.get("content-disposition")


@dataclass(frozen=True)
class Effect:
    """Two requests, the first without the parameter (or with another value), the second with
    it, and what differs. `shown`, when given, is what each reply must show."""

    body: Body
    first: str
    second: str
    seen: Seen
    shown: tuple[Any, Any] | None = None


def timeout(body: Body, seen: Seen = cut_short, query: str = "") -> Effect:
    """A deadline passed before the work began (a request's time counts from its arrival, and
    starting a worker takes longer than 1 ms): the reply says it was cut short."""
    joined = f"{query}&" if query else ""
    return Effect(body, query, f"{joined}timeout=0.001", seen)


def number(seen: Seen, state: str | None = None) -> Effect:
    body = two_puzzles if state is None else with_state(two_puzzles, state)
    return Effect(body, "number=1", "number=2", seen)


def seed_differs(body: Body, query: str, seed: int, seen: Seen) -> Effect:
    """Seed 0 and a seed whose tie-break or k-means start differs on this picture or drawing."""
    joined = f"{query}&" if query else ""
    return Effect(body, f"{joined}seed=0", f"{joined}seed={seed}", seen)


def picture_effects(endpoint: str, grid: Seen) -> dict[tuple[str, str], Effect]:
    """How the picture's reading shows on the gradient: in the grid (the goal, or the generated
    puzzle's start) and, for colours, in the palette."""
    changes = {"width": "width=8", "height": "height=4", "threshold": "threshold=200", "invert": "invert=1"}
    effects = {(endpoint, name): Effect(gradient, "", query, grid) for name, query in changes.items()}
    effects[endpoint, "colours"] = Effect(gradient, "", "colours=2", puzzle_field("palette"))
    return effects


DANCER_STATE = "\n".join(["?????"] * 10)
TINY_STATE = "??\n??"
DIMENSIONS = field("width")

EFFECTS: dict[tuple[str, str], Effect] = {
    ("check", "timeout"): timeout(hard, status),
    ("check", "number"): number(DIMENSIONS, None),
    ("check", "engine"): Effect(ambiguous, "engine=cdcl", "engine=sat", field("method"), ("cdcl", "sat")),
    ("solve", "timeout"): timeout(hard, status),
    ("solve", "number"): number(DIMENSIONS),
    ("solve", "engine"): Effect(ambiguous, "engine=dfs", "engine=sat", field("method"), ("dfs", "sat")),
    ("solve", "count"): Effect(ambiguous, "", "count=1", count_of("solutions"), (2, 1)),
    ("rate", "timeout"): timeout(dancer, field("level")),
    ("rate", "number"): number(field("line_passes")),
    ("rate", "engine"): Effect(colour, "engine=sat", "engine=quantum", code, (200, 400)),  # its search is unseen
    ("explain", "timeout"): timeout(dancer, field("open_cells")),
    ("explain", "number"): number(count_of("steps")),
    ("hint", "timeout"): Effect(with_state(dancer, DANCER_STATE), "", "timeout=0.001", status, (None, "unknown")),
    ("hint", "number"): number(code, TINY_STATE),
    ("hint", "steps"): Effect(with_state(dancer, DANCER_STATE), "", "steps=3", count_of("steps"), (1, 3)),
    **picture_effects("picture", puzzle_field("goal")),
    ("picture", "seed"): seed_differs(noise, "colours=4", 3, puzzle_field("goal")),
    ("generate", "timeout"): timeout(checkerboard, status),
    **picture_effects("generate", field("start")),
    ("generate", "seed"): seed_differs(checkerboard, "", 1, field("changed")),
    ("generate", "require"): Effect(probing_picture, "", "require=line", count_of("changed")),
    ("generate", "max_changes"): Effect(two_switches_picture, "", "max_changes=1", code, (200, 422)),
    ("generate", "max_distance"): Effect(checkerboard, "", "max_distance=0", code, (200, 422)),
    ("repair", "timeout"): timeout(diagonal_drawing, status),
    ("repair", "require"): Effect(probing_drawing, "", "require=line", count_of("changed")),
    ("repair", "max_changes"): Effect(two_switches_drawing, "", "max_changes=1", code, (200, 422)),
    ("repair", "max_distance"): Effect(diagonal_drawing, "", "max_distance=0", code, (200, 422)),
    ("repair", "seed"): seed_differs(diagonal_drawing, "", 1, field("changed")),
    ("suggest", "timeout"): timeout(diagonal_drawing, status),
    ("suggest", "count"): Effect(diagonal_drawing, "", "count=2", count_of("edits"), (4, 2)),
    ("convert", "number"): Effect(two_puzzles, "to=non&number=1", "to=non&number=2", download),
    ("convert", "to"): Effect(dancer, "to=non", "to=xml", download),
    ("render", "timeout"): Effect(dancer, "solution=1", "solution=1&timeout=0.001", code, (200, 422)),
    ("render", "number"): Effect(two_puzzles, "number=1", "number=2", download),
    ("render", "as"): Effect(dancer, "as=svg", "as=png", download),
    ("render", "solution"): Effect(dancer, "", "solution=1", lambda reply: reply.content),
    ("contents", "timeout"): timeout(two_puzzles, status),
    ("certificate", "timeout"): Effect(dancer, "", "timeout=0.001", code, (200, 422)),
    ("certificate", "number"): Effect(two_puzzles, "number=1", "number=2", download),
    ("certificate", "engine"): Effect(ambiguous, "engine=cdcl", "engine=quantum", code, (200, 400)),
    ("certificate", "encoding"): Effect(dancer, "encoding=automaton", "encoding=blocks", zipped("puzzle.cnf")),
}

PICTURES = {"picture", "generate"}


def test_the_table_names_every_parameter_of_every_endpoint() -> None:
    taken = {(name, parameter.name) for name, endpoint in ENDPOINTS.items() for parameter in endpoint.parameters}
    assert set(EFFECTS) == taken


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(EFFECTS), ids=lambda key: f"{key[0]}-{key[1]}")
def test_the_parameter_changes_the_answer(client: TestClient, key: tuple[str, str]) -> None:
    endpoint, parameter = key
    effect = EFFECTS[key]
    if endpoint in PICTURES or (endpoint, parameter) == ("render", "as"):
        pytest.importorskip("PIL")
    replies = [client.post(f"/api/{endpoint}?{query}", **effect.body()) for query in (effect.first, effect.second)]
    for reply in replies:
        assert reply.status_code < 500, reply.text
    first, second = (effect.seen(reply) for reply in replies)
    assert first != second, f"{parameter}={effect.second!r} changed nothing in /api/{endpoint}"
    if effect.shown is not None:
        assert (first, second) == effect.shown


def test_every_whole_number_parameter_accepts_what_its_openapi_schema_says() -> None:
    """A review found the OpenAPI document without the bounds the server holds to (a hint's
    steps at most 100, suggest's count at most 50, a seed at least 0): a client read by it was
    refused. Each integer parameter now takes a value exactly when its schema's bounds do."""
    from nonosat.web.options import BadRequest
    from nonosat.web.settings import WebSettings

    settings = WebSettings()
    checked = 0
    for endpoint in ENDPOINTS.values():
        for parameter in endpoint.parameters:
            if parameter.schema.get("type") != "integer":
                continue
            low, high = parameter.schema.get("minimum"), parameter.schema.get("maximum")
            for value in (-1, 0, 1, 50, 51, 100, 101, 10**6):
                allowed = (low is None or value >= low) and (high is None or value <= high)
                try:
                    parameter.read(str(value), settings)
                except BadRequest:
                    assert not allowed, (endpoint.name, parameter.name, value)
                else:
                    assert allowed, (endpoint.name, parameter.name, value)
                checked += 1
    assert checked >= 8 * 10


def test_max_changes_takes_zero_as_the_command_line_does(client: TestClient) -> None:
    """`generate --max-changes 0` runs (the picture as it is, or no puzzle); the API refused
    max_changes=0 with a 400 (a review), and repair read a 0 as the default."""
    unchanged = client.post("/api/repair?max_changes=0", **two_switches_drawing())
    assert unchanged.status_code == 422 and "0 changed cells" in unchanged.json()["error"], unchanged.text
    assert client.post("/api/repair", **two_switches_drawing()).status_code == 200


def test_a_negative_seed_is_taken_as_the_command_line_and_the_library_take_it(client: TestClient) -> None:
    """`generate --seed -1` and `from_image(seed=-1)` run; the API refused seed=-1 with a 400 (a
    picture author's review). It makes what the library makes with that seed."""
    import tempfile
    from pathlib import Path

    from nonosat.generate import from_image

    made = client.post("/api/generate?seed=-1", **checkerboard())
    assert made.status_code == 200, made.text
    with tempfile.TemporaryDirectory() as folder:
        picture = Path(folder) / "board.png"
        picture.write_bytes(checkerboard()["files"]["file"][1])
        library = from_image(picture, seed=-1)
    assert sorted(map(tuple, made.json()["changed"])) == sorted((r + 1, c + 1) for r, c in library.changed)  # (1-based)
    assert made.json()["changed"] != client.post("/api/generate?seed=0", **checkerboard()).json()["changed"]
