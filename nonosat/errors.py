"""One exception hierarchy for everything nonosat reports to its users."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from pathlib import Path

    from nonosat.solver import Verdict


class NonosatError(Exception):
    """Parent of every error nonosat raises on purpose; `exit_code` is the CLI's exit status.

    A message that advises a change of parameter names it by a `{name}` placeholder, worded for
    Python by default (`force=True`); `worded` lets the command line name its own flags there.
    """

    exit_code = 2

    def __init__(self, message: str = "", **parameters: str) -> None:
        self.template = message
        self.parameters = parameters
        super().__init__(_fill(message, parameters))

    def worded(self, names: dict[str, str]) -> str:
        """The message with each parameter named as `names` says (as Python calls them, else)."""
        return _fill(self.template, {key: names.get(key, value) for key, value in self.parameters.items()})


def _fill(template: str, parameters: dict[str, str]) -> str:
    """Put each parameter's name in place of its `{key}` (and nothing else: a file name in the
    message may hold braces of its own)."""
    for key, value in parameters.items():
        template = template.replace("{" + key + "}", value)
    return template


class ParseError(NonosatError):
    """A puzzle file could not be read: names the file, the line and what was expected."""

    def __init__(self, path: str | Path | None, line: int | None, expected: str, **parameters: str) -> None:
        self.path = str(path) if path is not None else "<input>"
        self.line = line
        self.expected = _fill(expected, parameters)
        self._expected = expected
        where = self.path if line is None else f"{self.path}, line {line}"
        super().__init__(f"{where}: {expected}", **parameters)

    def reworded(self, **parameters: str) -> ParseError:
        """The same error with some placeholders worded otherwise for Python (`load_bytes` picks
        a puzzle by `number=`, not by a path's FILE#N); `worded` still names them its own way."""
        return ParseError(self.path, self.line, self._expected, **{**self.parameters, **parameters})


class InvalidPuzzle(NonosatError):
    """A puzzle's clues are malformed (negative or non-integer numbers, wrong line count)."""


class ImpossiblePuzzle(NonosatError):
    """A puzzle is refuted before any search: a clue cannot fit its line, or the totals differ."""

    exit_code = 3

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}no solution: " + "; ".join(self.problems))


class UsageError(NonosatError):
    """A request the library cannot carry out as asked (unknown solver, existing output file...)."""


class BadImage(NonosatError):
    """A picture cannot become a puzzle: missing, not an image, or blank after thresholding."""


class GenerateFailed(NonosatError):
    """No puzzle meeting the requirement was found within the allowed changes (nothing written)."""

    exit_code = 5


class CutShort(NonosatError):
    """Work stopped before it reached an answer, for a reason other than bad input: the caller
    reports what it knows (status `unknown`) and never guesses."""

    exit_code = 4
    verdict: Verdict | None = None
    """What was decided before the work was cut short, where something was: `check(puzzle,
    certificate=DIR)` whose certificate could not be made keeps its Verdict here."""


class TimeUp(CutShort):
    """The time limit ran out during `stage` ("line logic", "building the CNF", "rating"...)."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        super().__init__(f"time limit reached while {stage}")


class TooLarge(NonosatError):
    """A grid, file or picture larger than nonosat's documented limits (see nonosat.limits),
    refused before any work starts."""


class FormulaTooLarge(CutShort):
    """The CNF of what line logic left open grew past the limit on clauses: the search would need
    more memory than nonosat allows itself (see nonosat.limits)."""


class WrongAnswer(NonosatError):
    """A solver produced a grid that breaks the clues: a bug, never shown as a solution."""

    exit_code = 70


class OutputFailed(NonosatError):
    """An output file could not be written for want of room or by a fault of the device (a full
    disk, a quota, an I/O error): not the user's usage, exit 74 as for standard output."""

    exit_code = 74


def cannot_write(path: object, error: OSError, doing: str = "write {path}") -> NonosatError:
    """The error for a file `path` that could not be written (or made: `doing`): OutputFailed for
    a full disk, quota or I/O fault, else a UsageError (a read-only folder, a name that is a
    folder...)."""
    import errno

    message = f"cannot {doing.format(path=path)}: {error.strerror or error}"
    disk_faults = (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG)
    return OutputFailed(message) if error.errno in disk_faults else UsageError(message)
