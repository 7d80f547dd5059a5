"""Shared fixtures: where the corpus of real puzzles lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def corpus_path() -> Path:
    """The corpus folder: $NONOSAT_CORPUS, else ../shared/corpus beside the checkout."""
    return Path(os.environ.get("NONOSAT_CORPUS", ROOT.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = corpus_path()
    if not path.is_dir():
        pytest.skip(f"corpus not found at {path}; set NONOSAT_CORPUS")
    return path
