"""`python -m bench --engine cdcl,sat --peer pbnsolve`: each engine against one run of the peer,
on a tiny scale, with a stand-in for pbnsolve that prints what pbnsolve prints (no timings are
checked); its grids are read back and checked, and a wrong one stops the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import run
from bench.peer_pbnsolve import read_answer

STAND_IN = """#!{python}
import sys
from nonosat import load, solve
puzzle = load(sys.argv[-1])
result = solve(puzzle, jobs=1)
print(puzzle.name)
grids = [s.grid for s in result.solutions]
show = lambda grid: "\\n".join("".join("X" if c else "." for c in row) for row in grid)
if result.status.value == "unique":
    print("UNIQUE {kind}SOLUTION:")
    print(show({wrong}(grids[0])))
elif result.status.value == "multiple":
    print("FOUND MULTIPLE SOLUTIONS:"); print(show(grids[0])); print("ALTERNATE SOLUTION"); print(show(grids[1]))
else:
    print("NO SOLUTION.")
"""


def stand_in(tmp_path: Path, kind: str = "", wrong: bool = False) -> str:
    script = tmp_path / "pbnsolve"
    flip = "(lambda g: tuple(tuple(1 - c for c in row) for row in g))" if wrong else ""
    script.write_text(STAND_IN.format(python=sys.executable, kind=kind, wrong=flip))
    script.chmod(0o755)
    return str(script)


def test_pbnsolve_answers_are_read_with_their_grids() -> None:
    text = "Ring\nFOUND MULTIPLE SOLUTIONS:\n..XX\n.X.X\nX.X.\nXX..\nALTERNATE SOLUTION\nXX..\nX.X.\n.X.X\n..XX\n"
    status, grids = read_answer(text, 4)
    assert status == "multiple" and grids[0][0] == (0, 0, 1, 1) and grids[1][3] == (0, 0, 1, 1)
    for head in ("UNIQUE SOLUTION:", "UNIQUE LINE SOLUTION:", "UNIQUE DEPTH-2 SOLUTION:"):
        assert read_answer(f"Dot\n{head}\nX\n", 1) == ("unique", (((1,),),))
    assert read_answer("Cross\nNO SOLUTION.\n", 3) == ("none", ())
    assert read_answer("Big\n", 3) == ("unknown", ())
    assert read_answer("Flag\nUNIQUE LINE SOLUTION:\nrr.\n.bb\n", 2, {".": 0, "r": 1, "b": 2}) == (
        "unique",
        (((1, 1, 0), (0, 2, 2)),),
    )


@pytest.mark.slow
def test_each_engine_against_one_run_of_the_peer(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "engines.json"
    common = ["--sets", "webpbn", "--timeout", "30", "--jobs", "1", "--peer", "pbnsolve"]
    code = run.main([*common, "--engine", "cdcl,sat", "--pbnsolve", stand_in(tmp_path, "LINE "), "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["settings"]["engines"] == ["cdcl", "sat"] and data["settings"]["peer"] == "pbnsolve"
    cdcl, sat = data["sets"]
    assert (cdcl["set"], sat["set"]) == ("webpbn (cdcl)", "webpbn (sat)")
    assert sat["puzzles"] == cdcl["puzzles"] and not cdcl["skipped"]  # Cauldron, 512x512, too
    assert cdcl["agree"] == cdcl["puzzles"] and sat["agree"] == sat["puzzles"]
    assert cdcl["peer"] == sat["peer"] or cdcl["peer"]["wall_s"] == sat["peer"]["wall_s"]  # one run of the peer
    wrong = run.main([*common, "--engine", "sat", "--pbnsolve", stand_in(tmp_path, wrong=True)])
    assert wrong == 1  # a grid that breaks the clues: no time reported
