"""Cross-check nonosat's verdicts against an independent CP-SAT solver, and time both.

    python -m bench.verdicts tcga/question/taai2011.txt --first 300
    python -m bench.verdicts 'webpbn/*.non' --json verdicts.json

Each FILE (a glob pattern is expanded here) is looked for as given, then under the corpus root:
$NONOSAT_CORPUS, else ../shared/corpus beside the checkout. A tournament file's puzzles are all
checked, or the first N with --first. Exit code 0 when every verdict agrees, 1 when any disagrees
or either solver ran out of time, 2 for bad input or usage.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bench.peer_cpsat import PeerError, PeerResult, peer_check
from nonosat import NonosatError, Puzzle, load_all, solve
from nonosat.formats.atomic import write_text_atomic
from nonosat.model import Grid
from nonosat.solver import WrongAnswer

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("nonosat", "python-sat", "ortools")
DECIDED = ("unique", "multiple", "none")


class BadAnswer(NonosatError):
    """A solver returned a grid that breaks the clues, or "multiple" without two grids."""


def corpus_root() -> Path:
    """The corpus folder: $NONOSAT_CORPUS, else ../shared/corpus beside the checkout."""
    return Path(os.environ.get("NONOSAT_CORPUS", REPO.parent / "shared" / "corpus"))


@dataclass(frozen=True)
class Answer:
    """One solver's verdict on one puzzle, its verified solutions and its wall-clock time."""

    status: str
    solutions: tuple[Grid, ...]
    seconds: float


@dataclass(frozen=True)
class Comparison:
    """Both solvers' answers on one puzzle."""

    number: int
    """The puzzle's $N in a tournament file, else its place in the file (from 1)."""
    puzzle: Puzzle
    nonosat: Answer
    peer: Answer

    @property
    def decided(self) -> bool:
        return self.nonosat.status in DECIDED and self.peer.status in DECIDED

    @property
    def agrees(self) -> bool:
        """Same verdict and, for "unique", the same grid."""
        if not self.decided or self.nonosat.status != self.peer.status:
            return False
        return self.nonosat.status != "unique" or self.nonosat.solutions == self.peer.solutions

    @property
    def disagrees(self) -> bool:
        return self.decided and not self.agrees

    def wrong(self) -> str:
        """Which side is refuted by the other's verified solutions (found grids are certificates)."""
        grids = set(self.nonosat.solutions) | set(self.peer.solutions)
        refuted = [
            name
            for name, answer in (("nonosat", self.nonosat), ("CP-SAT", self.peer))
            if (len(grids) >= 2 and answer.status != "multiple") or (grids and answer.status == "none")
        ]
        return " and ".join(refuted) or "neither is refuted by a verified grid"


@dataclass(frozen=True)
class FileSummary:
    """The comparisons of every puzzle checked in one file."""

    name: str
    comparisons: list[Comparison]

    def count(self, status: str) -> int:
        """How many puzzles both solvers agree have this status."""
        return sum(1 for c in self.comparisons if c.agrees and c.nonosat.status == status)

    def line(self) -> str:
        """The summary line: agreement, verdicts, and both solvers' total time."""
        found = self.comparisons
        nonosat = sum(c.nonosat.seconds for c in found)
        peer = sum(c.peer.seconds for c in found)
        ratio = f"{nonosat / peer:.3f}" if peer else "n/a"
        return (
            f"{self.name}: {len(found)} puzzles, {sum(c.agrees for c in found)} agree, "
            f"{sum(c.disagrees for c in found)} disagree, "
            f"{sum(not c.decided for c in found)} unknown | "
            f"unique {self.count('unique')}, multiple {self.count('multiple')}, "
            f"none {self.count('none')} | nonosat {nonosat:.3f} s, CP-SAT {peer:.3f} s, "
            f"nonosat/CP-SAT {ratio}"
        )


def expand(pattern: str) -> list[Path]:
    """The files a FILE argument names: as given, else under the corpus root; globs expanded."""
    for root in (Path.cwd(), corpus_root()):
        candidate = root / pattern
        if glob.has_magic(pattern):
            found = sorted(Path(p) for p in glob.glob(str(candidate)) if Path(p).is_file())
            if found:
                return found
        elif candidate.is_file() or Path(str(candidate).rpartition("#")[0]).is_file():
            return [candidate]
    raise NonosatError(f"{pattern}: no such file here or under the corpus root {corpus_root()}")


def display_name(path: Path) -> str:
    """A file's name relative to the corpus root or the current folder when it is in one."""
    for root in (corpus_root(), Path.cwd()):
        try:
            return str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            continue
    return str(path)


def puzzle_number(puzzle: Puzzle, index: int) -> int:
    """$N of a tournament puzzle (its source ends in #N), else its place in the file."""
    tail = (puzzle.source or "").rpartition("#")[2]
    return int(tail) if tail.isdigit() else index + 1


def nonosat_answer(puzzle: Puzzle, timeout: float | None, jobs: int | None = 1, engine: str = "auto") -> Answer:
    """nonosat's uniqueness verdict (a puzzle refuted before search is "none", as any other)."""
    started = time.perf_counter()
    result = solve(puzzle, timeout=timeout, jobs=jobs, engine=engine)
    grids = tuple(solution.grid for solution in result.solutions)
    return Answer(result.status.value, grids, time.perf_counter() - started)


def peer_answer(puzzle: Puzzle, timeout: float | None, workers: int) -> Answer:
    """CP-SAT's uniqueness verdict, timed the same way as nonosat's: the colour peer for a colour
    puzzle, the black-and-white one otherwise."""
    started = time.perf_counter()
    if puzzle.is_colour:
        from bench.peer_cpsat_colour import colour_peer_check

        result: PeerResult = colour_peer_check(puzzle, timeout=timeout, workers=workers)
    else:
        result = peer_check(puzzle, timeout=timeout, workers=workers)
    return Answer(result.status, tuple(result.solutions), time.perf_counter() - started)


def compare(puzzle: Puzzle, number: int, timeout: float | None, workers: int) -> Comparison:
    """Run both solvers on one puzzle."""
    nonosat = nonosat_answer(puzzle, timeout, workers)
    peer = peer_answer(puzzle, timeout, workers)
    for answer in (nonosat, peer):
        if any(not puzzle.satisfied_by(grid) for grid in answer.solutions):
            raise BadAnswer(f"puzzle {number}: a solver returned a grid that breaks the clues")
        if answer.status == "multiple" and len(set(answer.solutions)) < 2:
            raise BadAnswer(f"puzzle {number}: a solver said multiple without two different grids")
    return Comparison(number, puzzle, nonosat, peer)


def warm_up(workers: int, peer: bool = True) -> None:
    """Import and exercise both solvers once (CP-SAT too with `peer`), so the first timed puzzle
    pays no start-up cost."""
    tiny = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    nonosat_answer(tiny, None)
    if peer:
        peer_answer(tiny, None, workers)


def check_file(path: Path, first: int | None, timeout: float | None, workers: int) -> FileSummary:
    """Compare both solvers on the first `first` puzzles of a file (all of them by default)."""
    puzzles = load_all(path)[:first]
    from rich.console import Console
    from rich.progress import Progress

    comparisons = []
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(display_name(path), total=len(puzzles))
        for index, puzzle in enumerate(puzzles):
            comparisons.append(compare(puzzle, puzzle_number(puzzle, index), timeout, workers))
            progress.advance(task)
    return FileSummary(display_name(path), comparisons)


def grid_text(grid: Grid) -> list[str]:
    return ["".join("#" if cell else "." for cell in row) for row in grid]


def answer_json(answer: Answer, with_grids: bool) -> dict[str, object]:
    found: dict[str, object] = {"status": answer.status, "seconds": round(answer.seconds, 6)}
    if with_grids:
        found["solutions"] = [grid_text(grid) for grid in answer.solutions]
    return found


def report_json(summaries: list[FileSummary], settings: dict[str, object]) -> str:
    """Every comparison as JSON; the grids are kept for disagreements only."""
    files = []
    for summary in summaries:
        puzzles = [
            {
                "number": c.number,
                "title": c.puzzle.title,
                "width": c.puzzle.width,
                "height": c.puzzle.height,
                "agree": c.agrees,
                "nonosat": answer_json(c.nonosat, c.disagrees),
                "cpsat": answer_json(c.peer, c.disagrees),
            }
            for c in summary.comparisons
        ]
        files.append({"file": summary.name, "summary": summary.line(), "puzzles": puzzles})
    return json.dumps({"settings": settings, "files": files}, indent=2) + "\n"


def describe(comparison: Comparison) -> str:
    """One line for a puzzle that was not agreed on."""
    c = comparison
    size = f"{c.puzzle.width}x{c.puzzle.height}"
    head = f"  puzzle {c.number} ({size}): nonosat {c.nonosat.status}, CP-SAT {c.peer.status}"
    if c.disagrees:
        return f"{head}; wrong: {c.wrong()}"
    return f"{head} (timed out)"


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.verdicts",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="example: python -m bench.verdicts tcga/question/taai2011.txt --first 300",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="puzzle file or glob, as given or under the corpus root",
    )
    parser.add_argument("--first", type=int, metavar="N", help="check only the first N puzzles of each file")
    parser.add_argument("--timeout", type=float, metavar="S", help="time limit per puzzle, for each solver")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT search workers (default 1)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write every result to OUT as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file if it exists")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Check every file, print a summary line per file and each puzzle not agreed on."""
    args = parse_arguments(argv)
    try:
        if args.first is not None and args.first < 1 or args.workers < 1:
            raise NonosatError("--first and --workers must be at least 1")
        if args.json is not None and args.json.exists() and not args.force:
            raise NonosatError(f"{args.json} already exists; use --force to overwrite it")
        paths = [path for pattern in args.files for path in expand(pattern)]
        warm_up(args.workers)
        summaries = []
        for path in paths:
            summary = check_file(path, args.first, args.timeout, args.workers)
            summaries.append(summary)
            print(summary.line(), flush=True)
            for comparison in summary.comparisons:
                if not comparison.agrees:
                    print(describe(comparison), flush=True)
        if len(summaries) > 1:
            every = [c for s in summaries for c in s.comparisons]
            print(FileSummary(f"total of {len(summaries)} files", every).line())
        if args.json is not None:
            settings = {
                "first": args.first,
                "timeout": args.timeout,
                "cpsat_workers": args.workers,
                "versions": {name: version(name) for name in PACKAGES},
            }
            write_text_atomic(args.json, report_json(summaries, settings), force=args.force)
    except (BadAnswer, PeerError, WrongAnswer) as error:
        print(f"bench.verdicts: wrong answer: {error}", file=sys.stderr)
        return 1
    except (NonosatError, ImportError) as error:
        print(f"bench.verdicts: {error}", file=sys.stderr)
        return 2
    return 0 if all(c.agrees for s in summaries for c in s.comparisons) else 1


if __name__ == "__main__":
    sys.exit(main())
