"""Fuzzing every reader (issue 14, item 20): mutants (tests/fuzz_mutations.py) of small valid
files (tests/fuzz_seeds.py) give a Puzzle or a ParseError naming the file, never another
exception, whether read from text, from bytes or from a file (`FILE#N` included); a puzzle that
loads goes through `check` within its deadline.

Each test is bounded (a fixed number of examples, derandomized, so every run tries the same
mutants); `python -m bench.fuzz` runs 100,000 mutants of the whole corpus, and the command line
on a sample of them (see bench/README.md, "Fuzzing").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fuzz_mutations import byte_mutants, text_mutants
from fuzz_seeds import byte_seeds, text_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonosat import NonosatError, ParseError, Puzzle, WrongAnswer, check
from nonosat.formats import FORMATS, SUFFIXES, load, load_all, loads

ROOT = Path(__file__).resolve().parent.parent
NAME = "fuzzed/puzzle file.txt"
"""The path every text is read under: an error must name exactly this."""
CHECK_TIMEOUT = 0.5
"""Seconds: the deadline of `check` on a mutant that loads; it must return within it + 1 s."""
CHECKED_PER_MUTANT = 2
CAUGHT_ALL = re.compile(r"cannot be read( as [^()]+)? \(\w+\)$")  # "as tournament", "as an image"
"""The guard's words for an exception no reader raised on purpose (`formats.guard.guarded`: an
IndexError, a KeyError...): a reader that needs it has a fault to mend (a review's mutant of the
.nin reader passed while the guard turned its IndexError into a ParseError)."""

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
)


# --- the promises ------------------------------------------------------------------------------


def reads_or_refuses(read: Callable[[], Puzzle | list[Puzzle]], *paths: str) -> list[Puzzle]:
    """The puzzles a reader returns, or none when it refuses with a ParseError naming the file (one
    of `paths`: `FILE`, or `FILE#N` as given when that names no file); any other exception fails the
    test (a NonosatError that is not such a ParseError says so)."""
    try:
        result = read()
    except ParseError as error:
        assert error.path in paths, f"the ParseError names {error.path!r}, not {paths[0]!r}: {error}"
        assert not CAUGHT_ALL.search(str(error)), f"a reader failed, and the guard caught it: {error}"
        return []
    except NonosatError as error:
        raise AssertionError(
            f"{type(error).__name__} escaped, not a ParseError naming {paths[0]!r}: {error}"
        ) from error
    puzzles = result if isinstance(result, list) else [result]
    assert puzzles and all(isinstance(puzzle, Puzzle) for puzzle in puzzles), result
    return puzzles


def checks_within_deadline(puzzles: list[Puzzle]) -> None:
    """`check` gives a verdict or a NonosatError; within its deadline it never guesses (what is not
    decided is "unknown"). How far past the deadline it ends is measured by `bench.fuzz`."""
    for puzzle in puzzles[:CHECKED_PER_MUTANT]:
        try:
            verdict = check(puzzle, timeout=CHECK_TIMEOUT)
        except WrongAnswer:
            raise  # a solver's grid that breaks the clues is a bug, not a refusal (a review's mutant passed)
        except NonosatError:
            continue
        assert verdict.status.value in {"unique", "multiple", "none", "unknown"}
        for solution in verdict.result.solutions:
            assert puzzle.satisfied_by(solution.grid)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FORMATS))
@FUZZ
@given(data=st.data())
def test_text_reader_survives_mutants(fmt: str, data: st.DataObject) -> None:
    text = data.draw(text_mutants(text_seeds(fmt)), label="text")
    puzzles = reads_or_refuses(lambda: loads(text, fmt=fmt, path=NAME), NAME)
    checks_within_deadline(puzzles)
    reads_or_refuses(lambda: loads(text, path=NAME), NAME)  # the format told by content, as for any .txt


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["pbm", "png"])
@FUZZ
@given(data=st.data())
def test_image_reader_survives_mutants(fmt: str, data: st.DataObject) -> None:
    load_bytes = FORMATS[fmt].load_bytes
    assert load_bytes is not None
    image = data.draw(byte_mutants(byte_seeds(fmt)), label="image")
    puzzles = reads_or_refuses(lambda: load_bytes(image, NAME), NAME)
    checks_within_deadline(puzzles)


SUFFIX_OF = {name: suffix for suffix, name in SUFFIXES.items()}
SELECTORS = ["1", "2", "3", "1000", "0", "-1", "", "x", "1.5", "٣", "²", "1#1"]


@pytest.mark.slow
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_files_and_selection_survive_mutants(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """Through files: `load_all(FILE)` and `load(FILE#N)` for every format, by suffix or by content."""
    fmt = data.draw(st.sampled_from(sorted(FORMATS)), label="format")
    if fmt in ("pbm", "png"):
        content = data.draw(byte_mutants(byte_seeds(fmt)), label="image")
    else:
        content = data.draw(text_mutants(text_seeds(fmt)), label="text").encode("utf-8", "surrogatepass")
    suffix = data.draw(st.sampled_from([SUFFIX_OF.get(fmt, ".txt"), ".txt", ""]), label="suffix")
    path = tmp_path_factory.getbasetemp() / f"fuzzed{suffix}"
    path.write_bytes(content)
    reads_or_refuses(lambda: load_all(path), str(path))
    selector = data.draw(st.sampled_from(SELECTORS), label="N")
    reads_or_refuses(lambda: load(f"{path}#{selector}"), str(path), f"{path}#{selector}")


FAILURES = ROOT / "bench" / "results" / "fuzz-failures"


@pytest.mark.parametrize(
    "path", sorted(p for p in FAILURES.glob("*") if not p.name.endswith(".note.txt")), ids=lambda p: p.name
)
def test_every_kept_fuzz_failure_is_now_refused_cleanly(path: Path) -> None:
    """The mutants that once gave a traceback or an unnamed message (bench/README.md, "Fuzzing")."""
    try:
        puzzles = load_all(path)
    except ParseError as error:
        assert error.path == str(path)
        assert "\n" not in str(error)
        return
    assert puzzles  # read: then it must be a puzzle
