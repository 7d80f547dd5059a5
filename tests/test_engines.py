"""Engines you can name: `--engine auto|cdcl|dfs|sat` (and `engine=` in Python, `engine` on the
web API, batch and `solve_many`) chooses what searches what line logic leaves open; naming
`--solver` or `--encoding` chooses the SAT engine, and naming them with another is a usage
error; an engine that cannot take a puzzle is refused at once. The engines are cross-checked on
a sample of every corpus folder: the same verdicts, and the same solutions where there are at
most ten."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nonosat import Puzzle, load, load_all, solve
from nonosat.batch import solve_many
from nonosat.cli import app
from nonosat.errors import UsageError
from nonosat.solver import Status, check, compiled
from nonosat.solver.backends import SOLVERS, rival
from nonosat.solver.encodings import ENCODINGS
from nonosat.solver.engines import ENGINES, Engine, choose, takes

ROOT = Path(__file__).resolve().parent.parent
FOREVER = str(ROOT / "puzzles" / "webpbn-06574-forever.non")
RING_COLOUR = str(ROOT / "puzzles" / "ring-colour.non")

needs_core = pytest.mark.skipif(compiled.core is None, reason="the compiled core was not built")


def run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.slow
@needs_core
def test_every_solver_and_encoding_gives_the_sat_method_and_its_own_counts() -> None:
    """On a black-and-white 25x25 the compiled core would answer; naming a solver or an
    encoding makes the SAT engine answer, with the formula's and the solver's counts."""
    seen = {}
    for solver, encoding in itertools.product(SOLVERS, ENCODINGS):
        code, stdout, stderr = run("solve", FOREVER, "--solver", solver, "--encoding", encoding, "--format", "json")
        record = json.loads(stdout)
        assert (code, record["method"], record["status"]) == (0, "sat", "unique"), (solver, encoding, stderr)
        assert (record["solver"], record["encoding"], record["rival"]) == (solver, encoding, False)  # said, not guessed
        stats = record["stats"]
        assert stats["clauses"] > 0 and {"conflicts", "decisions", "propagations"} <= set(stats), (solver, stats)
        seen[solver, encoding] = (stats["variables"], stats["decisions"], stats["propagations"])
    for solver in SOLVERS:  # the encoding shapes the formula
        assert seen[solver, "blocks"][0] < seen[solver, "automaton"][0]
    assert len({counts for counts in seen.values()}) > len(SOLVERS)  # the solvers' own counts differ
    _, default, _ = run("solve", FOREVER, "--format", "json")
    assert [json.loads(default)[key] for key in ("method", "solver", "encoding")] == ["cdcl", None, None]
    _, text, _ = run("solve", FOREVER, "--solver", "glucose4", "--encoding", "automaton")
    assert "unique · SAT (glucose4, automaton) · " in text


def test_the_sat_engines_rival_is_of_another_kind() -> None:
    """A review: cadical153 (or 103, or 300) was raced by CaDiCaL 1.9.5, not by MiniSat."""
    assert {name: rival(name) for name in SOLVERS if name.startswith("cadical")} == dict.fromkeys(
        [name for name in SOLVERS if name.startswith("cadical")], "minisat22"
    )
    assert {rival(name) for name in SOLVERS if not name.startswith("cadical")} == {"cadical195"}


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("engine", ["cdcl", "dfs", "sat", "auto"])
def test_each_engine_answers_by_its_name(engine: str) -> None:
    code, stdout, _ = run("check", FOREVER, "--engine", engine, "--format", "json", "--no-rating")
    record = json.loads(stdout)
    assert code == 0 and record["status"] == "unique"
    assert record["method"] == ("cdcl" if engine == "auto" else engine)


@pytest.mark.parametrize(
    "args", [["--engine", "cdcl", "--encoding", "automaton"], ["--engine", "dfs", "--solver", "cadical195"]]
)
@pytest.mark.parametrize("command", ["solve", "check"])
def test_a_solver_or_encoding_with_a_compiled_engine_is_a_usage_error(command: str, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", command, FOREVER, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert f"nonosat: {args[2]} is the SAT engine's; the {args[1]} engine has no {args[2][2:]}" in done.stderr
    assert f"(drop --engine {args[1]}, or make it --engine sat)" in done.stderr
    with pytest.raises(UsageError, match="the SAT engine's"):
        option: dict[str, Any] = {args[2].strip("-"): args[3]}
        solve(load(FOREVER), engine=args[1], **option)


@pytest.mark.parametrize("engine", ["cdcl", "dfs"])
def test_an_engine_that_cannot_take_the_puzzle_is_refused_at_once(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled core the cdcl and dfs engines take no puzzle: one line, exit 2; with
    it they take colour and grids over 126 cells a side too."""
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "solve", RING_COLOUR, "--engine", engine],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NONOSAT_PURE_PYTHON": "1"},
    )
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert f"the {engine} engine needs the compiled core" in done.stderr and "Traceback" not in done.stderr
    assert "NONOSAT_PURE_PYTHON turns it off" in done.stderr  # not "not built here" (a review)
    wide = Puzzle.from_grid([[1, 0] * 65, [0, 1] * 65])
    if compiled.colour_core() is not None:
        assert solve(load(RING_COLOUR), engine=engine).method == engine
        assert solve(wide, engine=engine, count=3).method in ("line", engine)
    monkeypatch.setattr(compiled, "core", None)
    monkeypatch.setattr(compiled, "wide_core", None)
    with pytest.raises(UsageError, match="needs the compiled core"):
        solve(wide, engine=engine)
    with pytest.raises(UsageError, match="engine"):
        solve(wide, engine="quantum")
    assert solve(load(RING_COLOUR), engine="sat").method == "sat"
    assert solve(load(RING_COLOUR)).method == "sat"  # auto, without the core


@pytest.mark.slow
@needs_core
def test_auto_over_126_tries_cdcl_then_sat_then_cdcl_when_the_formula_outgrows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Black and white of 130x127, line logic leaving it open: `auto` answers by the conflict-driven
    search within its first half second; with no time for it, by the SAT engine; and with the
    clause limit below the SAT engine's formula, by the conflict-driven search, not unknown."""
    import random

    from nonosat.solver import engines
    from nonosat.solver.encodings import grid as formulas

    rng = random.Random(127)
    puzzle = Puzzle.from_grid([[int(rng.random() < 0.6) for _ in range(130)] for _ in range(127)])
    first = solve(puzzle, jobs=1, timeout=60)
    assert first.method.value == "cdcl" and first.status in (Status.UNIQUE, Status.MULTIPLE), first.cut_short
    monkeypatch.setattr(engines, "CDCL_FIRST_SECONDS", 0.0)
    by_sat = solve(puzzle, jobs=1, timeout=60)
    assert by_sat.method.value == "sat" and by_sat.status is first.status
    monkeypatch.setattr(formulas, "MAX_CLAUSES", 1000)
    assert "grew past 1000 clauses" in (solve(puzzle, engine="sat", jobs=1).cut_short or "")
    again = solve(puzzle, jobs=1, timeout=60)
    assert again.method.value == "cdcl" and again.status is first.status
    named = solve(puzzle, jobs=1, solver="minisat22")  # the SAT engine named: its answer stands
    assert named.method.value == "sat" and named.status is Status.UNKNOWN


def test_the_engine_is_chosen_as_documented() -> None:
    bw, colour = load(FOREVER), load(RING_COLOUR)
    assert choose(colour, "auto", None, None) == ("cdcl" if compiled.colour_core() is not None else "sat")
    assert choose(Puzzle.from_grid([[1, 0] * 64]), "auto", None, None) == "sat"  # over 126 a side: sat first
    assert choose(bw, "auto", "glucose4", None) == "sat" and choose(bw, "auto", None, "automaton") == "sat"
    assert choose(bw, "auto", None, None) == ("cdcl" if compiled.core is not None else "sat")
    assert set(ENGINES) == {"auto", "cdcl", "dfs", "sat"}


@pytest.mark.slow
@needs_core
def test_rate_batch_solve_many_and_the_web_take_the_engine(tmp_path: Path) -> None:
    code, stdout, _ = run("rate", FOREVER, "--engine", "sat", "--json")
    assert code == 0 and json.loads(stdout)["level"] == "search"
    code, stdout, stderr = run("rate", RING_COLOUR, "--engine", "cdcl", "--json")
    assert code == 1 and json.loads(stdout)["level"] == "ambiguous", stderr  # two solutions, found by cdcl
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("ring.non", "ring-colour.non"):  # both need a search (Forever takes dfs 7 s)
        (folder / name).write_text((ROOT / "puzzles" / name).read_text())
    for engine, expected in (
        ("cdcl", {"ring": "cdcl", "colour": "cdcl"}),
        ("dfs", {"ring": "dfs", "colour": "dfs"}),
        ("sat", {"ring": "sat", "colour": "sat"}),
    ):
        out = tmp_path / f"{engine}.jsonl"
        code, _, stderr = run("batch", str(folder), "--out", str(out), "--jobs", "1", "--engine", engine)
        records = {Path(r["path"]).stem.split("-")[-1]: r for r in map(json.loads, out.read_text().splitlines())}
        assert {name: r["method"] or r["status"] for name, r in records.items()} == expected, stderr
    puzzles = [load(FOREVER), load(RING_COLOUR)]
    assert [r.method for _, r in sorted(solve_many(puzzles, jobs=1, engine="sat"))] == ["sat", "sat"]
    with pytest.raises(UsageError, match="engine"):
        list(solve_many(puzzles, jobs=1, engine="quantum"))
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nonosat.web.app import create_app
    from nonosat.web.settings import WebSettings

    with TestClient(create_app(WebSettings())) as client:
        files = {"file": ("forever.non", Path(FOREVER).read_bytes())}
        ring = {"file": ("ring.non", (ROOT / "puzzles" / "ring.non").read_bytes())}
        for endpoint in ("check", "solve"):
            for engine, sent in (("sat", files), ("dfs", ring)):
                answer = client.post(f"/api/{endpoint}?engine={engine}", files=sent)
                assert answer.status_code == 200 and answer.json()["method"] == engine
        assert client.post("/api/rate?engine=sat", files=files).json()["level"] == "search"
        colour = {"file": ("ring.non", Path(RING_COLOUR).read_bytes())}
        taken = client.post("/api/solve?engine=cdcl", files=colour)
        assert taken.status_code == 200 and taken.json()["method"] == "cdcl"
        assert client.post("/api/solve?engine=quantum", files=files).status_code == 400


# --- the cross-check on the corpus -------------------------------------------------------------


def corpus_sample(corpus: Path) -> list[tuple[str, Puzzle]]:
    """A sample of every folder: the first puzzles of four tournament sets, the survey puzzles up
    to 50x50, every tenth jwilk puzzle, nonogram-db's and the MiniZinc set's small ones,
    pynogram's, and every colour puzzle (the SAT engine's and the depth-first search's)."""
    found: list[tuple[str, Puzzle]] = []
    for name in ("taai2011", "tcga2015", "icga2018", "taai2020"):
        path = corpus / "tcga" / "question" / f"{name}.txt"
        found += [(f"{name}#{n}", puzzle) for n, puzzle in enumerate(load_all(path)[:6], start=1)]
    files = sorted((corpus / "webpbn").glob("*.non")) + sorted((corpus / "jwilk").glob("*.nin"))[::10]
    files += sorted((corpus / "nonogram-db").rglob("*.non")) + sorted((corpus / "minizinc").glob("non_fast_*.dzn"))
    files += sorted((corpus / "pynogram").glob("*.txt"))
    files += [path for path in sorted((corpus / "colour").rglob("*")) if path.suffix in (".xml", ".g", ".non", ".cnon")]
    for path in files:
        try:
            puzzles = load_all(path)
        except Exception:  # noqa: BLE001 - a corpus file nonosat refuses is the readers' tests' concern
            continue
        found += [(f"{path.name}#{n}", p) for n, p in enumerate(puzzles[:2], 1) if max(p.width, p.height) <= 60]
    return found


@pytest.mark.slow
@needs_core
def test_the_engines_agree_on_a_sample_of_every_corpus_folder(corpus: Path) -> None:
    """Every engine that takes a puzzle gives the same verdict; where a puzzle has at most ten
    solutions (and every engine finished), the same set of them."""
    sample = corpus_sample(corpus)
    compared = colour = sets = 0
    for name, puzzle in sample:
        engines = [engine for engine in ("cdcl", "dfs", "sat") if takes(Engine(engine), puzzle) is None]
        colour += puzzle.is_colour
        # dfs has no learning: Forever takes it 7 s and non_fast_10 over 20 s, which tell nothing more
        verdicts = {e: check(puzzle, engine=e, timeout=4 if e == "dfs" else 20).result for e in engines}
        decided = {e: r.status for e, r in verdicts.items() if r.status is not Status.UNKNOWN}
        assert len(set(decided.values())) <= 1, (name, decided)
        compared += len(decided) > 1
        if set(decided.values()) == {Status.MULTIPLE}:
            found = {engine: solve(puzzle, engine=engine, count=11, timeout=20) for engine in engines}
            if all(r.complete for r in found.values()) and all(len(r.solutions) <= 10 for r in found.values()):
                grids = {engine: {s.grid for s in r.solutions} for engine, r in found.items()}
                assert len({frozenset(g) for g in grids.values()}) == 1, (name, {e: len(g) for e, g in grids.items()})
                sets += 1
    assert compared >= 60 and colour >= 10 and sets >= 3, (compared, colour, sets)


@pytest.mark.parametrize("engine", ["sat", "cdcl"])
def test_a_grid_an_engine_gets_wrong_is_caught_before_it_is_shown(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every engine's grids are checked against the clues once, where `solve` hands them over
    (the sat engine's are not checked again inside it): a grid with one cell turned, as a faulty
    solver would give it, raises WrongAnswer naming a line, and is never a result."""
    from nonosat.errors import WrongAnswer
    from nonosat.solver import engines

    if engine == "cdcl" and compiled.core is None:
        pytest.skip("the compiled core was not built")
    real = engines.search

    def faulty(chosen: Engine, request: Any) -> Any:
        found = real(chosen, request)
        first = found.grids[0]
        found.grids[0] = ((1 - first[0][0],) + first[0][1:],) + first[1:]
        return found

    monkeypatch.setattr(engines, "search", faulty)
    with pytest.raises(WrongAnswer, match="internal error: a solver's grid breaks (row|column)"):
        solve(load(FOREVER), engine=engine)


def test_a_models_grid_is_the_same_whatever_order_the_solver_lists_it_in() -> None:
    """`GridFormula.grid` reads the cells from the head of a model PySAT lists by variable, and
    from the whole model when a solver lists it otherwise (or leaves variables out)."""
    import random

    from pysat.solvers import Solver

    from nonosat.solver.encodings.grid import build_formula
    from nonosat.solver.propagation import line_solve

    puzzle = load(FOREVER)
    formula = build_formula(line_solve(puzzle))
    with Solver("minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()
    assert [abs(literal) for literal in model[:100]] == list(range(1, 101))  # the order relied on
    grid = formula.grid(model)
    shuffled = model[:]
    random.Random(3).shuffle(shuffled)
    only_cells = [literal for literal in model if 0 < literal <= puzzle.width * puzzle.height]
    assert formula.grid(shuffled) == grid == formula.grid(only_cells)
    assert puzzle.satisfied_by(grid)


def test_a_search_cut_short_with_no_grid_names_no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """`solver` and `encoding` are of the grids shown, or of the proof: a SAT search that ran out
    of time before its first grid named `minisat22` and `blocks` all the same (a review)."""
    from nonosat.solver import enumeration

    def cut_short(formula: Any, count: int, solver: str, deadline: Any, **options: Any) -> Any:
        options["answered"].update(solver=solver, rival=False)
        return [], False, "time limit reached while searching"

    monkeypatch.setattr(enumeration, "enumerate_grids", cut_short)
    result = solve(load(FOREVER), engine="sat")
    assert (result.status, result.method.value) == (Status.UNKNOWN, "sat")
    assert (result.solver, result.encoding, result.rival) == (None, None, False)
    monkeypatch.undo()
    answered = solve(load(FOREVER), engine="sat")
    assert (answered.status, answered.solver, answered.encoding) == (Status.UNIQUE, "minisat22", "blocks")
