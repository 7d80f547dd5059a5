"""bench/easy_head.py on a tiny scale, against a stand-in for pbnsolve that answers as it does
(no timings are checked): verdicts are read, compared, and a disagreement stops the run."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from bench import easy_head

STAND_IN = """#!{python}
import sys
from nonosat import load, solve
status = solve(load(sys.argv[-1]), jobs=1).status.value
print({{"unique": "unique logical", "multiple": "multiple"}}.get(status, "contradiction") if {honest} else "unique")
"""


def stand_in(tmp_path: Path, honest: bool) -> str:
    script = tmp_path / "pbnsolve"
    script.write_text(STAND_IN.format(python=sys.executable, honest=honest))
    script.chmod(0o755)
    return str(script)


@pytest.mark.slow
def test_the_head_of_a_tournament_set_against_a_stand_in(corpus: Path, tmp_path: Path) -> None:
    nonosat = shutil.which("nonosat")
    if nonosat is None:
        pytest.skip("no nonosat command on PATH")
    out = tmp_path / "head.json"
    common = ["--nonosat", nonosat, "--sets", "taai2011", "--first", "4", "--runs", "1", "--parts", "heads"]
    assert easy_head.main(["--pbnsolve", stand_in(tmp_path, True), *common, "--json", str(out)]) == 0
    (head,) = json.loads(out.read_text())["heads"]
    assert head["set"] == "taai2011" and head["puzzles"] == head["agree"] == 4
    assert head["nonosat"] > 0 and head["pbnsolve"] > 0
    with pytest.raises(SystemExit, match="pbnsolve unique"):  # most tournament puzzles have several solutions
        easy_head.main(["--pbnsolve", stand_in(tmp_path, False), *common])


def test_pbnsolve_verdicts_in_nonosat_words() -> None:
    assert easy_head.pbnsolve_verdict("unique logical\n", 0) == "unique"
    assert easy_head.pbnsolve_verdict("trivial unique depth-2\n", 0) == "unique"
    assert easy_head.pbnsolve_verdict("multiple\n", 0) == "multiple"
    assert easy_head.pbnsolve_verdict("contradiction\n", 0) == "none"
    assert easy_head.pbnsolve_verdict("", 1).endswith("(exit 1)")


@pytest.mark.slow
def test_the_line_solvable_files_are_black_and_white_and_line_solvable(corpus: Path) -> None:
    """The files both benches (cli_times, easy_head) give the black-and-white peers: pynogram's
    colour puzzles are not among them (CP-SAT's peer refused apples.txt)."""
    from bench.cli_times import line_solvable
    from nonosat import load
    from nonosat.solver.propagation import line_solve

    files = line_solvable(30)
    names = {path.name for path in files}
    assert "webpbn-00001-dancer.non" in names and "apples.txt" not in names and "uk.txt" not in names
    for path in files[::10]:
        puzzle = load(path)
        assert not puzzle.is_colour and line_solve(puzzle).is_complete(), path
