"""What the tests of batch runs share (tests/test_batch_*.py): a tournament file of TAAI 2011's
first 120 puzzles (the fixture `tournament`, one a module), a results file's records, and what of
a record two runs must agree on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonosat import load_all
from nonosat.formats.tournament import dump_tournament


@pytest.fixture(scope="module", name="tournament")
def tournament_fixture(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament file of the first 120 puzzles of TAAI 2011, numbered $1..$120 as there."""
    puzzles = load_all(corpus / "tcga" / "question" / "taai2011.txt")[:120]
    path = tmp_path_factory.mktemp("sets") / "taai2011-120.txt"
    path.write_text(dump_tournament(puzzles))
    return path


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def key(record: dict[str, object]) -> tuple[object, ...]:
    return (record["path"], record["status"], record["solutions"], record["solution_sha1"])


def verdict(record: dict[str, object]) -> tuple[object, ...]:
    """A record's verdict, and its solution when unique: of a puzzle with several solutions, the
    race (--jobs 2) and one search (jobs=1) may well show different ones."""
    return key(record) if record["status"] == "unique" else key(record)[:3]
