"""Every corpus puzzle through every writer and back: the clues (and what each format keeps)
must come back the same.

    python -m bench.round_trips

The tests do the same on every puzzle of the corpus but the tournament files, of which they
take every 25th; this runs all 24,000 tournament puzzles too (a couple of minutes).
"""

from __future__ import annotations

import sys
import time

from bench.verdicts import corpus_root
from nonosat import load_all
from nonosat.errors import NonosatError
from nonosat.formats import FORMATS, detect_format, dumps, loads

DOCUMENTS = ("LICENSE", "README", "SOURCE", "FORMAT")


def main() -> int:
    writers = sorted(name for name, form in FORMATS.items() if form.dump is not None)
    started = time.perf_counter()
    puzzles = files = refused = 0
    failures: list[str] = []
    for path in sorted(p for p in corpus_root().rglob("*") if p.is_file()):
        if path.name.startswith(DOCUMENTS) or path.suffix in (".md", ".out") or path.parent.name == "solution":
            continue
        try:
            found = load_all(path)
        except NonosatError:
            refused += 1  # files that are no puzzle (licences, a CSV) and color-nonogram's JSON
            continue
        files += 1
        for puzzle in found:
            puzzles += 1
            for name in writers:
                if name == "tournament" and puzzle.width != puzzle.height:
                    continue
                if puzzle.is_colour and not FORMATS[name].colour:
                    continue  # refused: tests/test_colour_formats.py
                text = dumps(puzzle, name)
                again = loads(text, fmt=name)
                kept = all(getattr(again, field) == getattr(puzzle, field) for field in FORMATS[name].keeps)
                if (
                    (again.rows, again.columns) != (puzzle.rows, puzzle.columns)
                    or (again.row_colours, again.column_colours) != (puzzle.row_colours, puzzle.column_colours)
                    or not kept
                    or detect_format(None, text) != name
                ):
                    failures.append(f"{puzzle.source}: {name}")
    seconds = time.perf_counter() - started
    print(
        f"{puzzles} puzzles from {files} files ({refused} refused), {len(writers)} writers: "
        f"{len(failures)} failures, {seconds:.0f} s"
    )
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
