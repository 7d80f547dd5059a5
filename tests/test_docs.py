"""The README stays true: its commands run and print what it shows, and it covers every command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat.cli import EXIT_FOR_STATUS, app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def fenced_examples(fence: str, program: str) -> list[tuple[str, str]]:
    """Each `$ PROGRAM ...` line of the README's blocks fenced as `fence`, with the output shown
    after it."""
    examples = []
    for block in re.findall(rf"```{fence}\n(.*?)```", README, flags=re.S):
        command, _, output = block.partition("\n")
        assert command.startswith(f"$ {program} "), command
        examples.append((command[2:], output))
    return examples


def _console_examples() -> list[tuple[str, str]]:
    return fenced_examples("console", "nonosat")


def _normalise(text: str) -> str:
    """Timings differ from run to run; nothing else may. Timings are the numbers with two or
    more decimals (seconds, in status lines and batch tables) and h:mm:ss clocks, and batch's
    line naming the puzzles that took over 0.25 s, which comes and goes with the machine's speed."""
    text = re.sub(r"(?m)^slowest \(over .*\n", "", text)
    text = re.sub(r'"seconds": [\d.]+', '"seconds": T', text)
    text = re.sub(r"\d+\.\d{2,}", "T", text)
    return re.sub(r"\d+:\d\d:\d\d", "T", text)


@pytest.mark.slow
@pytest.mark.parametrize("command, shown", _console_examples())
def test_readme_examples_print_what_the_readme_shows(tmp_path: Path, command: str, shown: str) -> None:
    shutil.copytree(ROOT / "puzzles", tmp_path / "puzzles")
    args = command.split()[1:]
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"} | {"TERM": "dumb"}  # as a pipe
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *args], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert _normalise(done.stdout + done.stderr) == _normalise(shown)


@pytest.mark.slow
def test_the_pictures_the_readme_shows_are_what_the_commands_draw() -> None:
    from update_readme import PICTURES, picture

    for name in PICTURES:
        assert f"](docs/{name})" in README, name
        assert (ROOT / "docs" / name).read_text() == picture(name), f"docs/{name}: run python tests/update_readme.py"


def test_the_two_setup_commands_are_in_the_readme() -> None:
    assert "pip install . && nonosat solve puzzles/webpbn-00001-dancer.non" in README
    assert "pip install -e '.[test]' && pytest" in README
    lint = "pip install -e '.[test,lint]' && ruff check && ruff format --check && mypy --strict nonosat bench tests"
    assert lint in README and lint in (ROOT / ".ci" / "run").read_text()


def test_every_command_is_documented() -> None:
    commands = {command.name or command.callback.__name__ for command in app.registered_commands}
    documented = set(re.findall(r"^### nonosat (\w+)", README, flags=re.M))
    assert commands == documented


def test_exit_codes_table_matches_the_cli() -> None:
    table = dict(re.findall(r"^\| (\d) \| (.+?) \|$", README, flags=re.M))
    for status, code in EXIT_FOR_STATUS.items():
        assert status in table[str(code)].lower() or (status == "none" and "no solution" in table["3"])
    assert "bad input" in table["2"]


def test_the_start_of_the_cnf_file_the_readme_shows(tmp_path: Path) -> None:
    """The `text` block after `nonosat encode ... -o forever.cnf`: its lines, with `...` for the
    ones left out, are the file's."""
    command = "nonosat encode puzzles/webpbn-06574-forever.non -o forever.cnf"
    after = README[README.index(f"$ {command}") :]
    shown = re.search(r"```text\n(.*?)```", after, flags=re.S)
    assert shown is not None
    shutil.copytree(ROOT / "puzzles", tmp_path / "puzzles")
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *command.split()[1:]], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lines = iter((tmp_path / "forever.cnf").read_text().splitlines())
    for line in shown.group(1).splitlines():
        if line == "...":
            continue
        assert line in lines, line  # in order: `in` consumes the iterator up to the match


def test_the_readme_names_every_method_a_result_can_have() -> None:
    from nonosat.solver.outcome import Method

    listed = re.search(r"`method` \(([^)]*)\)", README)
    assert listed is not None
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == {method.value for method in Method}
    for method in Method:
        assert f"'{method.value}'" in README  # the Python API's comment names each too


def test_the_readme_lists_every_format_convert_writes() -> None:
    from nonosat.cli.base import TargetFormat

    listed = re.search(r"`--to FORMAT` names it instead \(([^)]*)\)", README)
    assert listed is not None
    assert re.findall(r"`(\w+)`", listed.group(1)) == [target.value for target in TargetFormat]


def test_the_readme_says_what_suggestions_count() -> None:
    """`Suggestions.open` and `Edit.open` are counts of cells, and the README says so."""
    import typing

    from nonosat.generate import Suggestions
    from nonosat.generate.search import Edit

    assert typing.get_type_hints(Suggestions)["open"] is int and typing.get_type_hints(Edit)["open"] is int
    assert "`open`, how many cells line logic leaves open" in README
    assert "`open`, how many cells line logic\n  leaves open after it" in README


def test_the_api_table_lists_each_endpoints_parameters() -> None:
    """The README's table of endpoints names, row by row, the query parameters the server takes
    (a row once listed `number` for /api/render, which the server refused)."""
    from nonosat.web.options import ENDPOINTS

    rows = dict(re.findall(r"(?m)^\| `POST /api/(\w+)` \|.*\| (.*) \|$", README))
    assert sorted(rows) == sorted(ENDPOINTS)
    picture = {parameter.name for parameter in ENDPOINTS["picture"].parameters}
    for name, endpoint in ENDPOINTS.items():
        listed = set(re.findall(r"`(\w+)`", rows[name]))
        if rows[name].startswith("those of `picture`"):
            listed = (listed - {"picture"}) | picture
        assert listed == {parameter.name for parameter in endpoint.parameters}, name


@pytest.mark.slow
def test_the_certificate_session_the_readme_shows(tmp_path: Path) -> None:
    """The `text` block of `nonosat verify`'s section: each nonosat command, run in turn in one
    folder, prints what the README shows (drat-trim's line, when drat-trim is on the PATH)."""
    start = README.index("$ nonosat check puzzles/webpbn-06574-forever.non --no-rating --certificate")
    block = README[start : README.index("```", start)]
    steps = re.split(r"(?m)^\$ ", block)[1:]
    shutil.copytree(ROOT / "puzzles", tmp_path / "puzzles")
    ran = 0
    for step in steps:
        command, _, shown = step.partition("\n")
        if not command.startswith("nonosat "):
            if shutil.which("drat-trim") is None:
                continue
            done = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
        else:
            done = subprocess.run(
                [sys.executable, "-m", "nonosat", *command.split()[1:]], cwd=tmp_path, capture_output=True, text=True
            )
        assert _normalise(done.stdout + done.stderr) == _normalise(shown), command
        ran += 1
    assert ran >= 2


@pytest.mark.slow  # mypy's own start-up: about a second
def test_the_python_api_example_passes_mypy_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review found the README's colour example failing `mypy --strict` (a Solution that may
    be None used as one) in a library sold as typed. mypy comes with the lint extra, which CI
    installs with the test extra; the check is skipped where it is missing."""
    api = pytest.importorskip("mypy.api", reason="mypy comes with nonosat[lint]")
    block = README.split("## Python API", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "readme_api.py"
    script.write_text(block)
    cache = tmp_path / "mypy-cache"
    monkeypatch.chdir(ROOT)  # where the package is found, as the editable install leaves it to mypy
    found, errors, status = api.run(["--strict", "--cache-dir", str(cache), "--no-error-summary", str(script)])
    assert status == 0, found + errors


def test_the_python_api_example_prints_what_its_comments_say() -> None:
    """The README's Python block runs as shown (in the checkout's folder, where its paths are),
    and each `print(...)  # shown` prints a line that is what its comment shows: a quoted value
    ('unique'), or the comment's words up to its first `(` or `;`."""
    block = README.split("## Python API", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    shown = []
    for line in block.splitlines():
        match = re.match(r"\s*print\(.*\)\s+#\s+(.*)", line)
        if match:
            comment = match.group(1)
            quoted = re.match(r"'([^']*)'", comment)
            shown.append(quoted.group(1) if quoted else re.split(r"\s*[(;]\s", comment)[0].strip())
    script = "import os, sys\nos.chdir(sys.argv[1])\n" + block
    done = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    from nonosat.solver import compiled

    if compiled.core is None:  # as the README says below the block: everything in Python
        shown = ["sat" if line == "cdcl" else line for line in shown]
    assert len(shown) >= 4 and all(line in printed for line in shown), (shown, printed)
