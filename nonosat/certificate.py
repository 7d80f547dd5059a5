"""Certificates: the evidence of a verdict, in files anyone can check without trusting nonosat.

A certificate folder holds the puzzle's clues (`puzzle.json`), its whole formula in DIMACS
(`puzzle.cnf`: every line's clue in the chosen encoding, the cell variables first and numbered
as `encode` numbers them, and no clause from line logic), and by verdict:

- unique: `solution.txt` (the grid, a row of the cells' characters a line), `unique.cnf`
  (`puzzle.cnf` and, as its last clause, the one that rules the solution out) and `unique.drat`,
  a DRAT proof that `unique.cnf` has no model: so the solution is the only one;
- none: `none.drat`, a DRAT proof that `puzzle.cnf` has no model;
- multiple: `solution-1.txt` and `solution-2.txt`, two grids that meet the clues.

`certificate.json` says which (the status, the encoding, the files) and `README.txt` how to
check it. The proofs come from a PySAT solver that logs them (Glucose 4), solving the whole
formula; whichever engine found the verdict. `nonosat.certificate_check.verify` checks a folder.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import FormulaTooLarge, UsageError, WrongAnswer, cannot_write
from nonosat.limits import MAX_CLAUSES
from nonosat.model import Grid, Puzzle

CERTIFICATE_FILES = frozenset(
    ("puzzle.json", "puzzle.cnf", "solution.txt", "unique.cnf", "unique.drat", "none.drat", "solution-1.txt")
    + ("solution-2.txt", "certificate.json", "README.txt")
)
"""Every file a certificate may hold: those of another verdict are removed when one is replaced."""

CERTIFIED = ("unique", "none", "multiple")
"""The verdicts a certificate proves (`unknown` has nothing to prove, `solved` asked no question)."""

CERTIFICATE_ENCODING = "automaton"
"""The encoding of a certificate when none is named: with it, unit propagation makes every
deduction of line logic (encodings/automaton.md), so a line-solvable puzzle's proof is the empty
clause alone and any other's may start from line logic's cells."""

PROOF_SOLVER = "glucose4"
"""The PySAT solver whose DRAT log is the proof (it logs clause deletions too, which keeps the
checker's work small)."""

README = """\
nonosat's verdict on {name} is {status}; {command}
`nonosat verify .` checks it too, and that puzzle.cnf is the {encoding} encoding of puzzle.json's clues.
puzzle.json: the clues; puzzle.cnf: their CNF (its comments map the cell variables); {files}.
"""


@dataclass(frozen=True)
class Certificate:
    """What `make_certificate` wrote: the folder, the verdict and the files."""

    folder: Path
    status: str
    encoding: str
    files: tuple[str, ...]


def refuse_past_limit(puzzle: Puzzle, encoding: str) -> None:
    """Raise FormulaTooLarge if a black-and-white puzzle's whole formula would pass the clause
    limit: known at once from the clues, so a check refuses before it searches (a review: a
    512x512 search ran to its time limit for a certificate that could never be made). A colour
    formula's size is known only as it is built."""
    from nonosat.solver.encodings.grid import unpruned_clauses

    if not puzzle.is_colour and (count := unpruned_clauses(puzzle, encoding)) > MAX_CLAUSES:
        raise FormulaTooLarge(
            f"the CNF would have {count} clauses, past {MAX_CLAUSES}, the limit that keeps memory bounded"
        )


CLAUSE_SECONDS = 3e-6
"""What a clause of a certificate's formula takes after it is built: written as DIMACS (1.6 us
here), loaded into the proof's solver (0.9 us: `nonosat.solver.session` checks that itself),
with room. A review found `check --certificate --timeout 1` ending at 1.2-1.8 s, the formula
written and loaded past the deadline."""


WRITING_A_PROOF_CLAUSE = 1e-6
"""Seconds kept from the proof's search, for each clause of the formula, to take the proof out of
the solver and write the certificate's files (about 0.1 s for 173,744 clauses here: a formula
twice, its proof of a similar size)."""


def whole_formula(puzzle: Puzzle, encoding: str, deadline: Deadline = NO_DEADLINE) -> tuple[str, list[list[int]]]:
    """The puzzle's whole formula from its clues alone (no line logic, no implied clauses): its
    DIMACS text and its clauses. TimeUp when the deadline passes while it is built, or would
    while it is written and loaded (CLAUSE_SECONDS a clause)."""
    from nonosat.solver.board import Board
    from nonosat.solver.encodings.grid import build_formula, to_dimacs

    refuse_past_limit(puzzle, encoding)  # before minutes of building it
    formula = build_formula(Board(puzzle), encoding, deadline, implications=False)
    deadline.check("writing the formula for the certificate", keep=CLAUSE_SECONDS * len(formula.clauses))
    return to_dimacs(formula, encoding), formula.clauses


def blocking_clause(puzzle: Puzzle, grid: Grid) -> list[int]:
    """The clause over the cell variables that holds exactly when a grid differs from `grid`: a
    cell of colour k is not k, or a background cell has some colour."""
    from nonosat.solver.encodings.grid import cell_variable

    clause: list[int] = []
    for r, row in enumerate(grid):
        for c, colour in enumerate(row):
            if colour:
                clause.append(-cell_variable(puzzle, r, c, colour))
            else:
                clause.extend(cell_variable(puzzle, r, c, k) for k in range(1, puzzle.colour_count + 1))
    return clause


def with_clause(dimacs: str, clause: list[int]) -> str:
    """A DIMACS text with one more clause, at the end (its header's count raised by one)."""
    lines = dimacs.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
    _, _, variables, clauses = lines[header].split()
    lines[header] = f"p cnf {variables} {int(clauses) + 1}"
    return "\n".join([*lines, " ".join(map(str, clause)) + " 0"]) + "\n"


def cell_chars(puzzle: Puzzle) -> str:
    """Each colour's character in a solution file, by palette index (`.` and `#` in black and white)."""
    return ".#" if not puzzle.is_colour else "".join(colour.char for colour in puzzle.palette)


def grid_text(puzzle: Puzzle, grid: Grid) -> str:
    """A grid as rows of the cells' characters (`cell_chars`)."""
    chars = cell_chars(puzzle)
    return "".join("".join(chars[cell] for cell in row) + "\n" for row in grid)


def read_grid_text(puzzle: Puzzle, text: str) -> Grid:
    """`grid_text` read back; ValueError for a character that is not a colour of the puzzle."""
    index = {char: i for i, char in enumerate(cell_chars(puzzle))}
    return tuple(tuple(index[char] for char in line) for line in text.splitlines() if line)


def refutation(clauses: list[list[int]], deadline: Deadline = NO_DEADLINE) -> list[str]:
    """A DRAT proof that the clauses have no model, as the solver logged it (a line a step).
    Raises TimeUp past the deadline or on Ctrl-C (as every SAT search: nonosat.solver.session),
    WrongAnswer if they have a model after all."""
    from nonosat.errors import TimeUp
    from nonosat.solver.session import Search

    search = Search(clauses, PROOF_SOLVER, deadline, with_proof=True)
    try:
        answer = False if search.unsatisfiable else search.solve()
        if answer is None:
            raise TimeUp("proving it for the certificate")
        if answer:
            raise WrongAnswer("internal error: the formula a certificate refutes has a model")
        proof: list[str] = search.sat.get_proof() or []
        return proof if proof and proof[-1].strip() == "0" else [*proof, "0"]
    finally:
        search.sat.delete()


def check_certificate_folder(folder: str | Path, force: bool = False) -> None:
    """Refuse (UsageError) a folder for a certificate that is a file, or that holds a
    certificate's file already, unless `force`: before any work, as for any output."""
    from nonosat.arguments import check_flag
    from nonosat.formats.atomic import ensure_writable

    check_flag(force, "force")
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} is a file, not a folder for the certificate")
    above = next((path for path in target.parents if path.exists()), None)
    if not target.exists() and above is not None and not above.is_dir():  # `a-file/certificate`
        raise UsageError(f"cannot make the folder {target} for the certificate: {above} is a file")
    writes_in = target if target.exists() else above
    if writes_in is not None and not os.access(writes_in, os.W_OK | os.X_OK):  # before the search (a review)
        raise UsageError(f"cannot make the certificate in {target}: {writes_in} is read-only")
    found = {name for name in CERTIFICATE_FILES if os.path.lexists(target / name)}
    existing = sorted(found, key=lambda name: (name != "puzzle.json", name))  # the clues' file named first
    if existing and not force:
        raise UsageError(f"{target / existing[0]} already exists; use {{force}} to overwrite it", force="force=True")
    for name in existing:  # a folder, a device or a pipe in a file's place: refused before any is written
        ensure_writable(target / name, force=True)


def _remove(path: Path) -> None:
    """Remove an older certificate's file, if there: one that cannot be is a UsageError (a
    read-only folder; a review found exit 70), as a file that cannot be written is."""
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        raise UsageError(f"cannot remove {path}: {error.strerror or error}") from None


def make_certificate(
    puzzle: Puzzle,
    status: str,
    grids: tuple[Grid, ...],
    folder: str | Path,
    *,
    encoding: str = CERTIFICATE_ENCODING,
    force: bool = False,
    deadline: Deadline = NO_DEADLINE,
) -> Certificate:
    """Write the certificate of a verdict (`unique`, `none` or `multiple`, with the grids found)
    into `folder` (made if missing; files in it are replaced only with `force`)."""
    from nonosat.formats.atomic import write_text_atomic

    _check_certified(status)
    target = Path(folder)
    check_certificate_folder(target, force)
    files = certificate_files(puzzle, status, grids, encoding=encoding, deadline=deadline)
    made = [folder for folder in (target, *target.parents) if not folder.exists()]  # the folders mkdir makes
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a folder that cannot be made (a read-only one above it): a review found exit 70
        raise cannot_write(target, error, "make the folder {path} for the certificate") from None
    written: list[Path] = []
    try:
        check_certificate_folder(target, force)  # again: the proof took time
        _remove(target / "certificate.json")  # written last: a folder without it is no certificate
        for name in sorted(files, key=lambda name: name == "certificate.json"):  # the certificate.json last
            write_text_atomic(target / name, files[name], force=force)
            written.append(target / name)
        for name in CERTIFICATE_FILES - set(files):  # an older certificate's files that would mislead
            _remove(target / name)
    except BaseException:  # a full disk halfway, Ctrl-C: no half certificate is left (a review)
        _take_back(made, written)
        raise
    return Certificate(target, status, encoding, tuple(files))


def _take_back(made: list[Path], written: list[Path]) -> None:
    """Remove the files a certificate that failed halfway wrote, and the folders made for it (the
    mend's review: `n1/n2/cert` left n1/n2), the deepest first."""
    for path in written:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
    for folder in made:
        try:
            folder.rmdir()  # only if empty: nothing of anyone else's is removed
        except OSError:
            return


def _check_certified(status: str) -> None:
    if status not in CERTIFIED:
        raise UsageError(f"there is no certificate of a verdict that is {status}: only of unique, none or multiple")


def certificate_files(
    puzzle: Puzzle,
    status: str,
    grids: tuple[Grid, ...],
    *,
    encoding: str = CERTIFICATE_ENCODING,
    deadline: Deadline = NO_DEADLINE,
) -> dict[str, str]:
    """The files of a verdict's certificate, by name, in memory (the web API zips them without
    a folder on the server's disk, which a worker killed mid-request would leave behind)."""
    from nonosat.formats import dumps

    _check_certified(status)
    for grid in grids:
        if not puzzle.satisfied_by(grid):
            raise WrongAnswer("internal error: a grid to certify breaks the clues")
    clues = replace(puzzle, goal=None, goal_problem=None)
    cnf, clauses = whole_formula(puzzle, encoding, deadline)
    proving = deadline.sooner(WRITING_A_PROOF_CLAUSE * len(clauses))  # the proof taken out and the files written by it
    files: dict[str, str] = {"puzzle.json": dumps(clues, "json"), "puzzle.cnf": cnf}
    if status == "unique":
        (grid,) = grids[:1]
        block = blocking_clause(puzzle, grid)
        files["solution.txt"] = grid_text(puzzle, grid)
        files["unique.cnf"] = with_clause(cnf, block)
        files["unique.drat"] = "\n".join(refutation([*clauses, block], proving)) + "\n"
        command = "`drat-trim unique.cnf unique.drat` prints s VERIFIED (drat-trim shares no code with nonosat)."
    elif status == "none":
        files["none.drat"] = "\n".join(refutation(clauses, proving)) + "\n"
        command = "`drat-trim puzzle.cnf none.drat` prints s VERIFIED (drat-trim shares no code with nonosat)."
    else:
        if len(set(grids)) < 2:
            raise WrongAnswer("internal error: a certificate of several solutions needs two different grids")
        first, second = list(dict.fromkeys(grids))[:2]
        files["solution-1.txt"], files["solution-2.txt"] = grid_text(puzzle, first), grid_text(puzzle, second)
        command = "no proof is needed: solution-1.txt and solution-2.txt both meet the clues."
    described = {
        "solution.txt": "solution.txt: the solution",
        "unique.cnf": "unique.cnf: puzzle.cnf and, last, the clause that rules the solution out",
        "unique.drat": "unique.drat: the proof that unique.cnf has no model",
        "none.drat": "none.drat: the proof that puzzle.cnf has no model",
        "solution-1.txt": "solution-1.txt and solution-2.txt: two solutions",
    }
    listed = "; ".join(described[name] for name in files if name in described)
    meta: dict[str, Any] = {"status": status, "encoding": encoding, "files": [*files, "certificate.json", "README.txt"]}
    files["certificate.json"] = json.dumps(meta, indent=2) + "\n"
    files["README.txt"] = README.format(
        name=puzzle.name, status=status, command=command, encoding=encoding, files=listed
    )
    return files
