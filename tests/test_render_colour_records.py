"""Colour in the JSON records: the palette, background first, and solutions as rows of the
palette's characters (hashed in batch records); black-and-white records are unchanged."""

from __future__ import annotations

import hashlib
import json

from colour_views import BW, GRID, OTHER, PALETTE, puzzle, result_of

from nonosat.formats.jsonfmt import dump_json, palette_list
from nonosat.model import Puzzle
from nonosat.render.records import (
    RECORD_KEYS,
    batch_record,
    refuted_record,
    result_record,
    solution_sha1,
    verdict_record,
)
from nonosat.solver.outcome import Status, Verdict


def test_a_colour_result_carries_its_palette_background_first_and_rows_of_its_characters() -> None:
    p = puzzle()
    record = result_record(result_of(p, GRID), "p.json")
    assert list(record)[:4] == ["path", "width", "height", "palette"]
    assert record["palette"] == [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in PALETTE]
    assert record["palette"][0]["name"] == "white"
    assert record["palette"] == palette_list(p) == json.loads(dump_json(p))["palette"]
    assert record["solutions"] == [["nn.yy", ".yrr.", "r.nyn", "yyy.."]]
    assert json.loads(json.dumps(record)) == record
    verdict = verdict_record(Verdict(result_of(p, GRID, OTHER, status=Status.MULTIPLE), None), "p", None, None, False)
    assert verdict["palette"] == record["palette"] and len(verdict["solutions"]) == 2
    assert verdict["differences"] == [[1, 1], [2, 1]]
    refuted = refuted_record(p, ["no"], "p", None, None)
    assert refuted["palette"] == record["palette"]


def test_black_and_white_records_are_unchanged() -> None:
    p = Puzzle.from_grid(BW)
    record = result_record(result_of(p, BW), "bw.non")
    assert list(record) == [
        "path",
        "width",
        "height",
        "status",
        "method",
        "solver",  # who answered, since a review found it said nowhere (None here: no PySAT solver)
        "encoding",
        "rival",
        "solutions",
        "count_is_exact",
        "seconds",
        "stats",
        "cut_short",
    ]
    assert record["solutions"] == [["##.#", ".###", "#..."]]
    batch = batch_record("bw.non", p, result_of(p, BW))
    assert list(batch) == list(RECORD_KEYS)
    assert batch["solution_sha1"] == hashlib.sha1(b"##.#\n.###\n#...").hexdigest()
    assert "palette" not in refuted_record(p, ["no"], "bw", None, None)


def test_a_colour_batch_record_carries_the_palette_and_hashes_the_colours() -> None:
    p = puzzle()
    record = batch_record("p.json", p, result_of(p, GRID))
    assert list(record) == [*RECORD_KEYS, "palette"]
    assert record["palette"] == palette_list(p)
    assert record["solution_sha1"] == hashlib.sha1(b"nn.yy\n.yrr.\nr.nyn\nyyy..").hexdigest()
    swapped = tuple(tuple({1: 3, 3: 1}.get(v, v) for v in row) for row in GRID)  # same shape, other colours
    assert solution_sha1(swapped, PALETTE) != record["solution_sha1"]
    assert batch_record("p.json", p, error="unreadable")["palette"] == record["palette"]
