"""--timeout is a deadline for the whole command: every stage that can run long (the conflicting
lines, building the CNF, rating, explain, hint, random and generate, --live and --linestats)
keeps to the deadline and says what it cut short, and the options that skip a stage skip it.

A command is taken to hang when it runs `SLACK` seconds past its deadline (the bound the issue
sets is 1 s; `python -m bench.faults` measures it, and bench/README.md has the figures)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from limits_shared import SLACK, nonosat

from nonosat import Puzzle, load, solve
from nonosat.deadline import Deadline
from nonosat.errors import TimeUp
from nonosat.formats import save
from nonosat.solver import Status

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lala_typo(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """LalaFrogKK with one clue number off by one: a counting argument, hard for SAT."""
    lines = (corpus / "pynogram" / "LalaFrogKK.txt").read_text().splitlines(keepends=True)
    assert lines[11].rstrip().endswith(" 1")
    lines[11] = lines[11].rstrip()[:-1] + "2\n"
    path = tmp_path_factory.mktemp("typo") / "lala.txt"
    path.write_text("".join(lines))
    return path


@pytest.mark.slow
def test_the_conflicting_lines_keep_to_the_deadline(lala_typo: Path) -> None:
    done = nonosat("check", str(lala_typo), "--timeout", "3", limit=3)
    assert done.returncode == 3, done.stderr
    assert "the row clues fill 237 cells but the column clues fill 236" in done.stderr
    assert "time limit reached while looking for the conflicting lines" in done.stdout


@pytest.mark.slow
def test_a_deleted_row_line_keeps_to_the_deadline(corpus: Path, tmp_path: Path) -> None:
    lines = (corpus / "pynogram" / "LalaFrogKK.txt").read_text().splitlines(keepends=True)
    del lines[13]
    path = tmp_path / "short.txt"
    path.write_text("".join(lines))
    done = nonosat("solve", str(path), "--timeout", "3", limit=3)
    assert done.returncode == 3 and "no solution" in done.stderr


def test_no_conflicts_skips_the_conflicting_lines(lala_typo: Path) -> None:
    done = nonosat("check", str(lala_typo), "--no-conflicts", "--format", "json", limit=5)
    assert done.returncode == 3 and '"diagnosis": null' in done.stdout


@pytest.fixture(scope="module")
def random_300(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(1)
    picture = [[int(rng.random() < 0.5) for _ in range(300)] for _ in range(300)]
    clues = Puzzle.from_grid(picture)
    path = tmp_path_factory.mktemp("random") / "r300.non"
    save(Puzzle(rows=clues.rows, columns=clues.columns), path)
    return path


@pytest.mark.slow
def test_building_the_cnf_keeps_to_the_deadline(random_300: Path) -> None:
    # Half a second: a fast machine builds the 3,000,000 clauses of the limit in about 1.5 s
    # (then the status names the clause limit, not the time), and no machine in under 0.5 s.
    done = nonosat("solve", str(random_300), "--engine", "sat", "--timeout", "0.5", limit=0.5)
    assert done.returncode == 4
    assert "unknown (time limit reached while" in done.stdout


@pytest.mark.slow
def test_a_cnf_past_the_clause_limit_is_unknown_not_a_crash(random_300: Path) -> None:
    """13.8 million clauses would take 2.9 GB: the SAT engine's build stops at the limit, and says
    so (the compiled conflict-driven search writes no CNF: `auto` takes it there)."""
    result = solve(load(random_300), engine="sat")
    assert result.status is Status.UNKNOWN and result.cut_short is not None
    assert "grew past 3000000 clauses" in result.cut_short


@pytest.fixture(scope="module")
def ones_200(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ones") / "ones200.non"
    save(Puzzle(rows=((1,),) * 200, columns=((1,),) * 200), path)
    return path


@pytest.mark.slow
def test_rating_keeps_to_the_deadline(ones_200: Path) -> None:
    """Every clue 1: line logic does nothing, and with several solutions the verdict is the
    level (no probing of 40,000 cells both ways); a unique puzzle's rating that runs out of time
    says unknown."""
    done = nonosat("check", str(ones_200), "--timeout", "5", limit=5)
    assert done.returncode == 1, done.stderr  # the verdict, multiple, stands
    assert "multiple" in done.stdout and "level: ambiguous" in done.stdout
    done = nonosat("rate", str(ones_200), "--timeout", "5", limit=5)
    assert done.returncode == 1 and "ambiguous" in done.stdout
    from nonosat import load, solve
    from nonosat.explain.rating import rate

    forever = load(ROOT / "puzzles" / "webpbn-06574-forever.non")  # unique; line logic stalls
    rated = rate(forever, result=solve(forever), timeout=1e-9)
    assert rated.level == "unknown" and rated.score is None
    assert rated.cut_short is not None and "time limit reached" in rated.cut_short


@pytest.mark.slow
def test_no_rating_skips_the_rating(ones_200: Path) -> None:
    done = nonosat("check", str(ones_200), "--no-rating", "--format", "json", limit=30)
    assert done.returncode == 1 and '"level": null' in done.stdout


@pytest.mark.slow
def test_explain_keeps_to_the_deadline(ones_200: Path) -> None:
    done = nonosat("explain", str(ones_200), "--timeout", "2", limit=2)
    assert done.returncode == 4 and "time limit reached while probing" in done.stdout


@pytest.mark.slow
def test_random_and_generate_keep_to_the_deadline_for_the_whole_run(tmp_path: Path) -> None:
    done = nonosat("random", "--width", "100", "--height", "100", "--timeout", "2", limit=2, cwd=tmp_path)
    assert done.returncode == 4 and "time limit reached while" in done.stderr
    assert done.stdout == ""  # nothing printed as a puzzle
    pytest.importorskip("PIL")
    from PIL import Image

    rng = random.Random(5)
    picture = Image.new("L", (120, 120))
    picture.putdata([rng.choice((0, 255)) for _ in range(120 * 120)])
    picture.save(tmp_path / "noise.png")
    done = nonosat("generate", "noise.png", "--width", "120", "-o", "out.non", "--timeout", "2", limit=2, cwd=tmp_path)
    assert done.returncode == 4 and "time limit reached while" in done.stderr
    assert not (tmp_path / "out.non").exists()


def test_random_looks_at_the_deadline_while_it_draws_the_picture() -> None:
    """A review found `random --width 256 --height 256 --timeout 0.05` running 0.4 s past its
    deadline: the smoothed picture (0.3 s a colour at 256x256) never looked at the clock."""
    from nonosat.generate import random_puzzle

    with pytest.raises(TimeUp, match="drawing the random picture"):
        random_puzzle(256, 256, colours=3, timeout=Deadline(0.0))  # a deadline long past


@pytest.mark.slow
def test_hint_keeps_to_the_deadline(corpus: Path, tmp_path: Path) -> None:
    """With a mark, a completion of the grid is looked for first (to blame the mark if there is
    none): on this 95x80 puzzle that takes longer than the limit. With none, logic's step comes
    after a bounded search (a review: no step in 20 s, where `explain` gave one at once)."""
    rows = ["?" * 95 for _ in range(80)]
    state = tmp_path / "state.txt"
    state.write_text("\n".join(rows) + "\n")
    faase = str(corpus / "pynogram" / "frans_faase.txt")
    done = nonosat("hint", faase, "--state", str(state), "--timeout", "5", limit=5)
    assert done.returncode == 0 and done.stdout.startswith("row 2, clue 0: "), done.stderr
    rows[1] = "." * 95  # that step followed: the next hint as soon (the diff's review: 20 s, then none)
    state.write_text("\n".join(rows) + "\n")
    done = nonosat("hint", faase, "--state", str(state), "--timeout", "5", limit=5)
    assert done.returncode == 0 and done.stdout.startswith("row 4, clue 0: "), done.stderr
    rows[1] = "?" * 95
    rows[40] = "?" * 47 + "." + "?" * 47
    state.write_text("\n".join(rows) + "\n")
    done = nonosat("hint", faase, "--state", str(state), "--timeout", "2", limit=2)
    assert done.returncode == 4 and "time limit reached while" in done.stderr


@pytest.mark.slow
def test_live_and_linestats_keep_to_the_deadline(corpus: Path) -> None:
    """--live shows 461 steps of Swing at 0.02 s each, --linestats runs line logic on Cauldron
    again: both stop at the deadline."""
    import os

    swing = str(corpus / "webpbn" / "webpbn-00529-swing.non")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "nonosat", "solve", swing, "--live", "--jobs", "1", "--timeout", "1"],
            capture_output=True,
            text=True,
            timeout=1 + SLACK,
            env=dict(os.environ, COLUMNS="250"),
        )
    except subprocess.TimeoutExpired:
        pytest.fail("--live ran past the deadline")
    assert done.returncode == 4 and "time limit reached" in done.stdout
    cauldron = str(corpus / "webpbn" / "cauldron-512x512.non")
    done = nonosat("solve", cauldron, "--linestats", "--timeout", "0.5", limit=0.5)
    assert "time limit reached" in done.stdout
