"""Checking a certificate folder (nonosat.certificate): `nonosat verify DIR`.

Each claim is checked apart from the solver that made it: `puzzle.cnf` must be exactly the
encoding of `puzzle.json`'s clues (made again here; its comments aside), each grid must meet the clues, `unique.cnf`
must be `puzzle.cnf` with the solution's blocking clause added, and the DRAT proof must refute its
formula in an independent checker: the `dratify` package (pure Python, `pip install
'nonosat[verify]'`),
else `drat-trim` on the PATH. A certificate that fails any of these is refused
(CertificateRefused, exit code 7), naming the file and what is wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from nonosat.certificate import blocking_clause, read_grid_text, whole_formula, with_clause
from nonosat.clues import line_name
from nonosat.deadline import Deadline, alarm
from nonosat.errors import CutShort, NonosatError, TimeUp, UsageError
from nonosat.limits import MAX_FILE_BYTES, MAX_PROOF_BYTES
from nonosat.model import Grid, Puzzle


class CertificateRefused(NonosatError):
    """A certificate whose files do not prove what it claims."""

    exit_code = 7


@dataclass(frozen=True)
class Verified:
    """What `verify` found true: the verdict, the encoding, and how the proof was checked."""

    status: str
    encoding: str
    checker: str
    """"dratify", "drat-trim", or "" when the verdict needs no proof (multiple)."""
    puzzle: str = ""
    """Which puzzle: puzzle.json's title and size (`Dancer, 5x10`), or its size."""


def verify(
    folder: str | Path,
    checker: str | None = None,
    *,
    timeout: float | Deadline | None = None,
    puzzle: Puzzle | None = None,
) -> Verified:
    """Check a certificate folder; raise CertificateRefused naming what fails. `checker` is
    "dratify" or "drat-trim" (default: dratify when it is installed, else drat-trim). `timeout`
    (seconds, or a command's Deadline) bounds the whole check: TimeUp when it passes first (dratify
    is held to it only in the main thread, by a timer signal; drat-trim everywhere). With
    `puzzle`, the certificate must be of its clues (and their colours): a certificate of another
    puzzle, sound in itself, verified (a review)."""
    if checker not in (None, "dratify", "drat-trim"):
        raise UsageError(f"unknown checker {checker!r}: dratify or drat-trim")
    if not isinstance(folder, str | os.PathLike):
        raise UsageError(f"verify takes a folder's path, not {type(folder).__name__}")
    if puzzle is not None and not isinstance(puzzle, Puzzle):  # a file's name was an AttributeError (a review)
        raise UsageError(f"puzzle is a Puzzle (nonosat.load reads one), not {type(puzzle).__name__}")
    deadline = Deadline.of(timeout)
    root = Path(folder)
    if root.exists() and not root.is_dir():  # `verify ring.non`: a review found it called "no such folder"
        raise UsageError(f"{root} is a file, not a certificate's folder")
    if not root.is_dir():
        raise UsageError(f"{root}: no such folder")
    with alarm(deadline, "checking the certificate"):
        return _verify(root, checker, deadline, puzzle)


def _verify(root: Path, checker: str | None, deadline: Deadline, expected: Puzzle | None) -> Verified:
    from nonosat.formats import load

    meta = _meta(root)
    status, encoding = meta["status"], meta["encoding"]
    if status in ("unique", "none"):
        _checker_here(checker)  # before the formula is made again (a review: "time limit reached" instead)
    try:
        puzzle = load(root / "puzzle.json")  # refuses what is not a regular file within MAX_FILE_BYTES
    except TimeUp:
        raise
    except NonosatError as error:  # a certificate's file, not the user's input: the certificate is refused
        raise CertificateRefused(str(error)) from None
    if expected is not None:
        _same_clues(root, puzzle, expected)
    cnf = _read(root, "puzzle.cnf")
    try:
        again, _ = whole_formula(puzzle, encoding, deadline)
    except TimeUp:
        raise
    except CutShort as error:  # a formula past the clause limit: no certificate of nonosat's has one
        raise CertificateRefused(f"{root / 'puzzle.json'}: {error}") from None
    if _clauses(cnf) != _clauses(again):
        raise CertificateRefused(f"{root / 'puzzle.cnf'}: not the {encoding} encoding of puzzle.json's clues")
    if status == "multiple":
        first, second = _grid(root, "solution-1.txt", puzzle), _grid(root, "solution-2.txt", puzzle)
        if first == second:
            raise CertificateRefused(f"{root}: solution-1.txt and solution-2.txt are the same grid")
        return Verified(status, encoding, "", _named(puzzle))
    if status == "unique":
        solution = _grid(root, "solution.txt", puzzle)
        formula = _read(root, "unique.cnf")
        if _clauses(formula) != _clauses(with_clause(cnf, blocking_clause(puzzle, solution))):
            raise CertificateRefused(
                f"{root / 'unique.cnf'}: not puzzle.cnf with the clause that rules solution.txt out"
            )
        name, proof = "unique.cnf", "unique.drat"
    elif status == "none":
        name, proof = "puzzle.cnf", "none.drat"
    else:
        raise CertificateRefused(f"{root / 'certificate.json'}: unknown status {status!r}")
    used = _check_proof(root / name, root / proof, checker, deadline)
    return Verified(status, encoding, used, _named(puzzle))


def _same_clues(root: Path, theirs: Puzzle, ours: Puzzle) -> None:
    """Refuse a certificate whose puzzle.json is not of our puzzle's clues and colours, naming
    the first line that differs (titles and other metadata may differ)."""
    where = f"{root / 'puzzle.json'}: not the clues of {ours.source or 'the puzzle given'}"
    if (theirs.width, theirs.height) != (ours.width, ours.height):
        raise CertificateRefused(f"{where} (a {theirs.width}x{theirs.height} puzzle, not {ours.width}x{ours.height})")
    if [(c.char, c.rgb) for c in theirs.palette] != [(c.char, c.rgb) for c in ours.palette]:
        raise CertificateRefused(f"{where} (another palette)")
    for is_row, count in ((True, ours.height), (False, ours.width)):
        for index in range(count):  # by the clue's numbers and colour indexes: a colour's name may differ (a review)
            mine = ((ours.rows if is_row else ours.columns)[index], ours.colours_of(is_row, index))
            if ((theirs.rows if is_row else theirs.columns)[index], theirs.colours_of(is_row, index)) != mine:
                line = line_name("row" if is_row else "column", index)
                there, here = theirs.clue_text(is_row, index), ours.clue_text(is_row, index)
                raise CertificateRefused(f"{where} ({line} is {there!r} there, {here!r} here)")


def _named(puzzle: Puzzle) -> str:
    """The puzzle a certificate is of, as `verify` says it (a review: it never said which): its
    title and size, or its size (puzzle.json's own path would name nothing)."""
    size = f"{puzzle.width}x{puzzle.height}"
    return f"{puzzle.title}, {size}" if puzzle.title else f"a {size} puzzle"


def _clauses(dimacs: str) -> list[str]:
    """A DIMACS text without its comments (which name the puzzle and map its cells): the header
    and the clauses, the part a checker reads."""
    return [line for line in dimacs.splitlines() if not line.startswith("c")]


def _meta(root: Path) -> dict[str, str]:
    try:
        meta = json.loads(_read(root, "certificate.json"))
        status, encoding = meta["status"], meta["encoding"]
    except (ValueError, KeyError, TypeError) as error:
        raise CertificateRefused(f"{root / 'certificate.json'}: expected status and encoding ({error})") from None
    if not isinstance(status, str) or not isinstance(encoding, str):
        raise CertificateRefused(f"{root / 'certificate.json'}: status and encoding must be text")
    from nonosat.solver.encodings import ENCODINGS

    if encoding not in ENCODINGS:
        raise CertificateRefused(f"{root / 'certificate.json'}: {encoding!r} is no encoding of nonosat's")
    listed = meta.get("files", [])
    if not isinstance(listed, list):
        raise CertificateRefused(f"{root / 'certificate.json'}: files must be a list of file names")
    for name in listed:  # every file it lists is there (a review: README.txt went unnoticed)
        if not isinstance(name, str) or not name or "/" in name or "\\" in name or "\0" in name or name in (".", ".."):
            raise CertificateRefused(
                f"{root / 'certificate.json'}: {str(name)[:80]!r} is not a file name of the folder"
            )
        _file(root, name, MAX_PROOF_BYTES)
    return {"status": status, "encoding": encoding}


def _file(root: Path, name: str, most: int) -> Path:
    """A certificate's file, refused unless it is a regular file of at most `most` bytes: a
    certificate may come from anyone, and a link to /dev/zero or a pipe hung verify, or took
    all the memory."""
    path = root / name
    try:
        found = path.stat()
    except FileNotFoundError:
        raise CertificateRefused(f"{path}: no such file (a certificate holds it)") from None
    except (OSError, ValueError) as error:  # (ValueError: a name too strange for the system)
        raise CertificateRefused(f"{path}: cannot be read ({_why(error)})") from None
    if not stat.S_ISREG(found.st_mode):
        raise CertificateRefused(f"{path}: not a regular file (a folder, device or pipe)")
    if found.st_size > most:
        raise CertificateRefused(f"{path}: {found.st_size} bytes, over the limit of {most}")
    return path


def _read(root: Path, name: str) -> str:
    most = MAX_PROOF_BYTES if name.endswith(".drat") else MAX_FILE_BYTES
    path = _file(root, name, most)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CertificateRefused(f"{path}: cannot be read ({_why(error)})") from None


def _why(error: Exception) -> str:
    """Why a file could not be read, in words ("Permission denied", "not UTF-8 text"), not the
    name of a Python class (a review found "(FileNotFoundError)")."""
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    return getattr(error, "strerror", None) or str(error) or error.__class__.__name__


def _grid(root: Path, name: str, puzzle: Puzzle) -> Grid:
    try:
        grid = read_grid_text(puzzle, _read(root, name))
    except KeyError as error:
        raise CertificateRefused(f"{root / name}: {error} is not a colour of the puzzle") from None
    if not puzzle.satisfied_by(grid):
        wrong = puzzle.violations(grid)
        raise CertificateRefused(f"{root / name}: breaks the clues ({', '.join(wrong[:3])})")
    return grid


def _checker_here(checker: str | None) -> None:
    """Refuse (UsageError, exit 2) a DRAT checker that is not here, before any work."""
    if checker == "dratify" and not _has_dratify():
        raise UsageError(NO_DRATIFY)
    if checker == "drat-trim" and shutil.which("drat-trim") is None:
        raise UsageError("drat-trim is not on the PATH")
    if checker is None and not _has_dratify() and shutil.which("drat-trim") is None:
        raise UsageError(f"no DRAT checker here: {NO_DRATIFY}, or put drat-trim on the PATH")


NO_DRATIFY = "pip install 'nonosat[verify]' (it brings dratify, a DRAT checker in Python)"


def _check_proof(formula: Path, proof: Path, checker: str | None, deadline: Deadline) -> str:
    """Run the DRAT checker on a formula and its proof (`_checker_here` said it is here); the
    checker's name when it verified."""
    wanted = checker or ("dratify" if _has_dratify() else "drat-trim")
    if wanted == "dratify":
        from dratify import check_proof, parse_dimacs

        formula_text, proof_text = _read(formula.parent, formula.name), _read(proof.parent, proof.name)
        try:
            result = check_proof(parse_dimacs(formula_text), proof_text)
        except TimeUp:  # the deadline's timer signal, inside dratify
            raise
        except Exception as error:  # noqa: BLE001 - dratify says a proof is malformed in many ways (ValueError, ...)
            why = f"{type(error).__name__}: {error}"[:200]
            raise CertificateRefused(f"{proof}: not a proof dratify can read ({why})") from None
        if not (result.ok and result.reached_empty):
            raise CertificateRefused(f"{proof}: dratify does not verify it against {formula.name} ({result})")
        return "dratify"
    binary = shutil.which("drat-trim")
    if binary is None:  # gone since `_checker_here`
        raise UsageError("drat-trim is not on the PATH")
    _file(proof.parent, proof.name, MAX_PROOF_BYTES)  # the formula was read (and so checked) before
    try:
        done = subprocess.run(
            [binary, str(formula), str(proof)],
            capture_output=True,
            text=True,
            check=False,
            timeout=deadline.remaining(),
        )
    except subprocess.TimeoutExpired:  # run() has killed drat-trim
        raise TimeUp("checking the proof with drat-trim") from None
    if "s VERIFIED" not in done.stdout.splitlines():
        last = (done.stdout.strip().splitlines() or ["no output"])[-1]
        raise CertificateRefused(f"{proof}: drat-trim does not verify it against {formula.name} ({last})")
    return "drat-trim"


def _has_dratify() -> bool:
    import importlib.util

    return importlib.util.find_spec("dratify") is not None
