"""The options of the command line that no other test showed to change what they say they
change (tests/test_options.py's table names these tests as their proof)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nonosat import Puzzle, load
from nonosat.cli import app
from nonosat.formats import save

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
FOREVER = str(PUZZLES / "webpbn-06574-forever.non")


def run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def test_solve_no_conflicts_names_no_lines() -> None:
    cross = str(PUZZLES / "broken-cross.non")
    named = run("solve", cross, "--ascii")
    quiet = run("solve", cross, "--ascii", "--no-conflicts")
    assert named[0] == quiet[0] == 3
    assert "cannot all hold together" in named[1] and "cannot all hold" not in quiet[1]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "check"])
def test_jobs_two_races_and_jobs_one_does_not(command: str, monkeypatch: pytest.MonkeyPatch, rivals: list[Any]) -> None:
    """With the rival due at once, --jobs 2 starts one beside the search; --jobs 1 none."""
    from nonosat.solver import compiled, compiled_search
    from nonosat.solver import race as racing

    if compiled.core is None:
        pytest.skip("the compiled core was not built")
    monkeypatch.setattr(racing, "RACE_AFTER", 0.0)
    monkeypatch.setattr(compiled_search, "warmed", lambda: True)  # no first try alone: the rival at once
    assert run(command, FOREVER, "--jobs", "1")[0] == 0 and not rivals
    assert run(command, FOREVER, "--jobs", "2")[0] == 0 and len(rivals) == 1


def test_rate_format_json_is_the_record() -> None:
    code, text, _ = run("rate", FOREVER)
    code_json, record, _ = run("rate", FOREVER, "--format", "json")
    assert code == code_json == 0 and text.startswith("Forever: 25x25\n")
    assert json.loads(record)["level"] == "search" and "difficulty 5/5" in text


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "solve"])
def test_check_solver_and_encoding_choose_the_sat_engine(command: str) -> None:
    _, by_default, _ = run(command, FOREVER, "--format", "json")
    _, by_solver, _ = run(command, FOREVER, "--format", "json", "--solver", "glucose4")
    _, by_encoding, _ = run(command, FOREVER, "--format", "json", "--encoding", "automaton")
    methods = [json.loads(record)["method"] for record in (by_default, by_solver, by_encoding)]
    from nonosat.solver import compiled

    assert methods == ["cdcl" if compiled.core is not None else "sat", "sat", "sat"]
    assert json.loads(by_encoding)["stats"]["variables"] > json.loads(by_solver)["stats"]["variables"]


def test_encode_encoding_shapes_the_formula_and_force_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "forever.cnf"
    assert run("encode", FOREVER, "-o", str(target))[0] == 0
    blocks = target.read_text()
    code, _, stderr = run("encode", FOREVER, "-o", str(target), "--encoding", "automaton")
    assert code == 2 and "--force" in stderr and target.read_text() == blocks
    assert run("encode", FOREVER, "-o", str(target), "--encoding", "automaton", "--force")[0] == 0
    automaton = target.read_text()
    assert "encoding blocks" in blocks and "encoding automaton" in automaton
    header = [int(line.split()[2]) for text in (blocks, automaton) for line in text.splitlines() if line[:5] == "p cnf"]
    assert header[0] < header[1]  # more variables: a state per cell


@pytest.mark.slow
def test_render_solution_keeps_to_its_timeout(tmp_path: Path) -> None:
    rng = random.Random(1)
    picture = [[int(rng.random() < 0.5) for _ in range(150)] for _ in range(150)]
    clues = Puzzle.from_grid(picture)
    path = tmp_path / "r150.non"
    save(Puzzle(rows=clues.rows, columns=clues.columns), path)
    target = tmp_path / "r150.svg"
    done = subprocess.run(
        # 1.5 s, not 0.3: on a Python without byte-code caches (CI's second run) the start-up
        # alone took the 0.3 s, and the time ran out while the file was read, not searched
        [sys.executable, "-m", "nonosat", "render", str(path), "--solution", "-o", str(target), "--timeout", "1.5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 4 and "nothing to draw: unknown (time limit reached while" in done.stderr, done.stderr
    assert not target.exists()  # (20 s without an answer here, with no time limit)


def noise_picture(folder: Path) -> Path:
    pytest.importorskip("PIL")
    from PIL import Image

    rng = random.Random(5)
    image = Image.new("L", (12, 12))
    image.putdata([rng.choice((0, 255)) for _ in range(144)])
    path = folder / "noise.png"
    image.save(path)
    return path


def test_generate_seed_title_license_and_force(tmp_path: Path) -> None:
    picture = noise_picture(tmp_path)
    made = {}
    for seed in range(4):
        target = tmp_path / f"seed{seed}.non"
        code, _, stderr = run("generate", str(picture), "--width", "12", "--seed", str(seed), "-o", str(target))
        assert code == 0, stderr
        made[seed] = target.read_text()
    again = tmp_path / "again.non"
    assert run("generate", str(picture), "--width", "12", "--seed", "1", "-o", str(again))[0] == 0
    assert again.read_text() == made[1] and len(set(made.values())) > 1  # one seed, one puzzle; others differ
    target = tmp_path / "seed0.non"
    named = ["--title", "Noise", "--license", "CC0", "-o", str(target)]
    code, _, stderr = run("generate", str(picture), "--width", "12", *named)
    assert code == 2 and "--force" in stderr and target.read_text() == made[0]
    assert run("generate", str(picture), "--width", "12", *named, "--force")[0] == 0
    written = load(target)
    assert (written.title, written.license) == ("Noise", "CC0")


def test_random_max_changes_preview_changes_and_force(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    size = ["--width", "12", "--height", "12", "--seed", "4"]
    plain, marked = tmp_path / "plain.png", tmp_path / "marked.png"
    target = tmp_path / "random.non"
    code, _, stderr = run("random", *size, "-o", str(target), "--preview", str(plain))
    assert code == 0, stderr
    changed = int(stderr.split(" cells changed")[0].rsplit(" ", 1)[1]) if " cells changed" in stderr else 1
    assert run("random", *size, "-o", str(target))[0] == 2  # exists: needs --force
    assert run("random", *size, "-o", str(target), "--force", "--preview", str(marked), "--preview-changes")[0] == 0
    with Image.open(plain) as one, Image.open(marked) as two:
        assert two.width > one.width  # the start beside the end
    if changed:
        code, _, stderr = run("random", *size, "--max-changes", "0")
        assert code == 5 and "--max-changes" in stderr


@pytest.mark.slow
def test_batch_jobs_count_executor_and_scheduler_reach_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat.batch import executors, runner

    out = tmp_path / "r.jsonl"
    ring = str(PUZZLES / "ring.non")
    assert run("batch", ring, "--out", str(out), "--jobs", "1", "--count", "5")[0] == 0
    record = json.loads(out.read_text())
    assert record["solutions"] == 3  # the exact count, not the 2 that decide uniqueness
    pools: list[int] = []
    real_pooled = executors.pooled

    def counted(job: Any, pieces: Any, jobs: int, *args: Any) -> Any:
        pools.append(jobs)
        return real_pooled(job, pieces, jobs, *args)

    monkeypatch.setattr(executors, "pooled", counted)
    assert run("batch", ring, "--out", "-", "--jobs", "1")[0] == 0 and pools == []
    assert run("batch", ring, "--out", "-", "--jobs", "2")[0] == 0 and pools == [2]
    asked: list[tuple[Any, ...]] = []

    def fake_dask(todo: Any, scheduler: Any, jobs: int, options: Any) -> Any:
        asked.append((scheduler, jobs, options.count, options.engine, options.certificates))
        return iter([])

    monkeypatch.setattr(runner, "dask", fake_dask)
    monkeypatch.setattr(runner, "check_executor", lambda executor: None)
    dask = ["--executor", "dask", "--scheduler", "tcp://scheduler:8786", "--jobs", "3", "--count", "4"]
    run("batch", ring, "--out", str(tmp_path / "d.jsonl"), *dask)
    assert asked == [("tcp://scheduler:8786", 3, 4, "auto", None)]
    from nonosat import processes
    from nonosat.limits import MAX_JOBS

    monkeypatch.setattr(processes, "usable_cores", lambda: 4 * MAX_JOBS)  # a machine of 1,024 cores
    run("batch", ring, "--out", str(tmp_path / "e.jsonl"), "--executor", "dask")
    assert asked[-1][1] == MAX_JOBS  # the default within the limit --jobs is held to


@pytest.mark.slow
def test_serve_request_timeouts_bound_the_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """--request-timeout is a request's time when it names none, --max-request-timeout the most
    it may name: a 300x300 random grid (seconds to build its CNF) comes back unknown within them."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nonosat.web import app as web_app

    made: list[Any] = []
    real_create = web_app.create_app

    def capture(settings: Any) -> Any:
        made.append(settings)
        return real_create(settings)

    import uvicorn

    monkeypatch.setattr(web_app, "create_app", capture)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: setattr(self, "started", True))
    limits = ["--request-timeout", "0.4", "--max-request-timeout", "0.8", "--max-side", "300", "--port", "0"]
    code, _, _ = run("serve", *limits)
    assert code == 130 and (made[0].default_timeout, made[0].max_timeout) == (0.4, 0.8)
    code, _, said = run("serve", "--max-request-timeout", "5", "--port", "0")  # the default 10, cut: no warning
    assert code == 130 and made[1].default_timeout == 5 and "warning" not in said
    served = re.search(r"serving on http://127\.0\.0\.1:([0-9]+) ", said)  # a review: it said ":0"
    assert served and int(served[1]) > 0, said
    rng = random.Random(1)
    clues = Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(300)] for _ in range(300)])
    body = {"rows": [list(c) for c in clues.rows], "cols": [list(c) for c in clues.columns]}
    with TestClient(real_create(made[0])) as client:
        for query in ("", "?timeout=1000"):
            answer = client.post(f"/api/solve{query}", json=body)
            assert answer.status_code == 200 and answer.json()["status"] == "unknown", answer.text


@pytest.mark.parametrize(
    ("option", "bad", "endpoint", "upload"),
    [
        ("--threshold", "²", "picture", "smiley-picture.png"),
        ("--threshold", "256", "picture", "smiley-picture.png"),
        ("--timeout", "nan", "check", "ring.non"),
        ("--timeout", "-1", "check", "ring.non"),
        ("--timeout", "1_0", "check", "ring.non"),  # Click's float took these two; the web did not
        ("--timeout", "\u0663", "check", "ring.non"),
    ],
)
def test_one_parser_per_option_value_for_the_command_line_and_the_web(
    option: str, bad: str, endpoint: str, upload: str
) -> None:
    """`generate --threshold ²` was a ValueError's traceback (str.isdigit takes '²'), while the web
    refused it: both faces read such values with one parser (nonosat.values), in the same words."""
    command = ["generate", str(PUZZLES / upload), "--threshold", bad] if option == "--threshold" else []
    command = command or ["check", str(PUZZLES / upload), "--timeout", bad]
    done = subprocess.run([sys.executable, "-m", "nonosat", *command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    (line,) = done.stderr.strip().splitlines()  # one line, ending in where the options are listed
    said, see = line.split(f"Invalid value for {option}: ", 1)[1].rsplit(" (see '", 1)
    assert see == f"nonosat {command[0]} --help')"
    assert said.startswith("expected ")
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nonosat.web.app import create_app
    from nonosat.web.settings import WebSettings

    with TestClient(create_app(WebSettings())) as client:
        files = {"file": (upload, (PUZZLES / upload).read_bytes())}
        answer = client.post(f"/api/{endpoint}", params={option[2:]: bad}, files=files)
    assert answer.status_code == 400 and answer.json()["error"] == f"{option[2:]}: {said}"
