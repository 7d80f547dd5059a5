"""Certificates on the command line: `check --certificate DIR` writes one, `verify DIR` checks it."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from nonosat.cli.base import Encoding, TimeoutOption, app, friendly

if TYPE_CHECKING:
    from nonosat.deadline import Deadline
    from nonosat.model import Puzzle
    from nonosat.reports import Report


def refuse_certificate_past_limit(puzzle: "Puzzle", encoding: Encoding | None) -> None:
    """Refuse at once, before the search, a certificate whose formula would pass the clause limit."""
    from nonosat.certificate import CERTIFICATE_ENCODING, refuse_past_limit
    from nonosat.errors import CutShort

    try:
        refuse_past_limit(puzzle, CERTIFICATE_ENCODING if encoding is None else encoding.value)
    except CutShort as error:
        raise CutShort(f"no certificate: {error}") from None


def write_certificate(
    answer: "Report", folder: Path, encoding: Encoding | None, force: bool, deadline: "Deadline", quiet: bool
) -> None:
    """Write the certificate of a check's verdict (none for unknown: there is nothing to prove)."""
    from nonosat.certificate import CERTIFICATE_ENCODING, CERTIFIED, make_certificate
    from nonosat.cli.show import complain, say
    from nonosat.errors import CutShort

    result = answer.result
    status = result.status.value
    if status not in CERTIFIED:
        complain(f"no certificate: the verdict is {status}")
        return
    grids = tuple(solution.grid for solution in result.solutions)
    try:
        made = make_certificate(
            answer.puzzle,
            status,
            grids,
            folder,
            encoding=CERTIFICATE_ENCODING if encoding is None else encoding.value,
            force=force,
            deadline=deadline,
        )
    except CutShort as error:
        raise CutShort(f"no certificate: {error}") from None
    line = f"certificate: {made.folder} ({', '.join(made.files)}); check it with nonosat verify {made.folder}"
    if quiet:
        complain(line)
    else:
        say(line)


@app.command(short_help="Check a certificate that check --certificate wrote.")
@friendly
def verify(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The certificate's folder.")],
    checker: Annotated[
        str | None,
        typer.Option("--checker", help="dratify or drat-trim (default: dratify when installed, else drat-trim)."),
    ] = None,
    timeout: TimeoutOption = None,
    puzzle: Annotated[
        str | None,
        typer.Option(
            "--puzzle", metavar="FILE", help="Your puzzle file: the certificate must be of its clues (FILE#N in a set)."
        ),
    ] = None,
) -> None:
    """Check a certificate: puzzle.cnf is the encoding of puzzle.json's clues, every grid meets
    the clues, and the DRAT proof refutes its formula in an independent checker.

    Exits 0 when it holds, 7 when it does not (the file and what is wrong are named), 4 when
    --timeout passes first.
    Example: nonosat verify forever-proof --puzzle puzzles/webpbn-06574-forever.non
    """
    from nonosat.certificate_check import verify as check_folder
    from nonosat.cli.show import load_puzzle, say
    from nonosat.deadline import Deadline

    deadline = Deadline.for_command(timeout)
    ours = None if puzzle is None else load_puzzle(puzzle, deadline)
    verified = check_folder(folder, checker, timeout=deadline, puzzle=ours)
    how = f", the proof checked by {verified.checker}" if verified.checker else ", both grids meet the clues"
    say(f"{folder}: verified: {verified.puzzle}: {verified.status} ({verified.encoding} encoding{how})")
