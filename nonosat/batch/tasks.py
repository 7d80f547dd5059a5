"""What a batch run solves: the puzzles its paths name, one task each, less those already done."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from nonosat.batch.holding import hold
from nonosat.batch.results import STATUSES, Record, check_results_path, resume_results, rewrite_results
from nonosat.errors import NonosatError, UsageError
from nonosat.model import Puzzle

SKIPPED_NAMES = ("README", "LICENSE", "LICENCE", "SOURCE", "COPYING", "FORMAT")
"""Documents that sit beside puzzle files, which a folder search passes over whatever their suffix."""


@dataclass(frozen=True)
class Task:
    """One puzzle to solve, or one file that could not be read (`puzzle` is None)."""

    path: str
    puzzle: Puzzle | None
    file: str
    """The file it was read from (its `path` less `#N` in a file of several)."""
    error: str | None = None


def walked(file: Path, pictures: bool) -> bool:
    """Whether a folder search takes a file: one a reader claims by its suffix (a format's, or .txt
    and the like, whose content decides), pictures only when asked, and no hidden file, document
    or file without a suffix (a cloned repository's LICENSE, Makefile, .js or .rs files), nor a
    .toml, .json or .xml file without a puzzle's sign (`SIGNS`)."""
    from nonosat.formats.detection import PICTURE_SUFFIXES, claimed, suffix_of

    suffix = suffix_of(file)
    if not suffix or not claimed(file) or (suffix in PICTURE_SUFFIXES and not pictures):
        return False
    if file.is_dir() or file.name.startswith(".") or file.name.upper().startswith(SKIPPED_NAMES):
        return False
    sign = SIGNS.get(suffix)
    # not a regular file (a FIFO, a link to nothing): taken, and its record says what it is, as
    # when it is named (a review found them passed over in silence); its sign is never read
    return sign is None or not file.is_file() or _begins_with_sign(file, sign)


SIGNS = {".toml": b"[clues]", ".json": b'"rows"', ".xml": b"<puzzle"}
"""What a file of a suffix that other programs use too holds near its start when it is a puzzle
(a folder search passes over a pyproject.toml, a package.json, an XML file of something else)."""

SIGN_BYTES = 1 << 16
"""How much of such a file a folder search reads to find its sign."""


def _begins_with_sign(file: Path, sign: bytes) -> bool:
    """Whether the start of a file holds `sign`, in UTF-16 or UTF-32 too (the review of a mend: a
    folder's UTF-16 .xml and .json files were passed over, when `check` read them)."""
    from nonosat.formats.files import marked_text

    try:
        with open(file, "rb") as handle:
            head = handle.read(SIGN_BYTES)
    except OSError:
        return True  # reading it for real says what is wrong
    wide = marked_text(head)
    return sign in head or (wide is not None and sign.decode("ascii") in wide)


def files_of(path: str, pictures: bool = False) -> list[str]:
    """The files a PATHS argument names: itself, a folder's puzzle files (recursively, see
    `walked`; pictures too with `pictures`), or a glob's; UsageError when it names nothing. File
    names are tidied (`./x` is `x`); game IDs are not."""
    from nonosat.formats import names_game_id

    if Path(path).is_dir():
        found = [str(file) for file in sorted(Path(path).rglob("*")) if walked(file, pictures)]
        if not found:
            kinds = "puzzle files or pictures" if pictures else "puzzle files (pictures are read with {pictures})"
            raise UsageError(f"{path}: no {kinds} in this folder", pictures="pictures=True")
        return found
    if names_game_id(path):
        return [path]
    if not Path(path).exists() and glob.has_magic(path):
        found = sorted(os.path.normpath(p) for p in glob.glob(path, recursive=True) if Path(p).is_file())
        if not found:
            raise UsageError(f"{path}: no file matches")
        return found
    head, hash_sign, tail = path.rpartition("#")
    if not Path(path).exists() and hash_sign and Path(head).is_file():
        return [f"{os.path.normpath(head)}#{tail}"]  # puzzle N of a file of several
    if not Path(path).exists():
        raise UsageError(f"{path}: no such file or folder")
    return [os.path.normpath(path)]


def check_paths(paths: Sequence[str], pictures: bool = False) -> None:
    """Refuse, before any work, a path that names no file (UsageError naming it)."""
    if not paths:
        raise UsageError("no puzzle files or folders given")
    for path in paths:
        files_of(path, pictures)


def tasks(paths: Sequence[str], pictures: bool = False, skip: str | None = None) -> Iterator[Task]:
    """Every puzzle the paths hold, in order (in folders, pictures only with `pictures`); a file
    that cannot be read gives one error task (whatever went wrong reading it). `skip`: a file's
    real path (the run's results file) that is never read as puzzles."""
    from nonosat.formats import load_all, names_game_id

    whole = WholeFile()
    for given in paths:
        for file in files_of(given, pictures):
            if skip is not None and not names_game_id(file) and os.path.realpath(file) == skip:
                continue  # the run's own results file, in a folder it reads (a review)
            try:
                puzzles = whole.puzzle(file) or load_all(file)
            except NonosatError as error:
                yield from _one_by_one(file) or [Task(file, None, file, str(error))]
                continue
            except Exception as error:  # noqa: BLE001 - a reader's bug must not end the run
                yield Task(file, None, file, f"{file}: cannot be read ({type(error).__name__})")
                continue
            for index, puzzle in enumerate(puzzles):
                yield Task(label(file, puzzle, index, len(puzzles)), puzzle, file)


def _one_by_one(file: str) -> list[Task]:
    """The tasks of a file of several that cannot be read whole, puzzle by puzzle (a bad one an
    error task `FILE#N`); empty where it cannot be taken apart (`formats.each.load_each`)."""
    from nonosat.formats.each import load_each

    each = load_each(file)
    if each is None or len(each) < 2:
        return []
    return [
        Task(f"{file}#{number}", None, file, str(read)) if isinstance(read, NonosatError)
        else Task(f"{file}#{number}", read, file)
        for number, read in each
    ]  # fmt: skip


class WholeFile:
    """The puzzles of the last file of several that a `FILE#N` named, read once for all its N: a
    tournament file of 1,000 takes 30 ms to read, once a puzzle otherwise."""

    def __init__(self) -> None:
        self.file: str | None = None
        self.puzzles: list[Puzzle] | None = None

    def puzzle(self, path: str) -> list[Puzzle] | None:
        """[puzzle N] for `FILE#N`, from the file read whole; None for any other path, or when the
        whole file cannot be read (then `FILE#N` is read alone, and says what is wrong with it)."""
        from nonosat.formats import load_all, split_number
        from nonosat.formats.select import choose

        try:
            file, number = split_number(path)
        except NonosatError:
            return None
        if number is None:
            return None
        if file != self.file:
            self.file, self.puzzles = file, None
            try:
                self.puzzles = load_all(file)
            except Exception:  # noqa: BLE001 - reading FILE#N alone reports it
                return None
        if self.puzzles is None or not 1 <= number <= len(self.puzzles):
            return None
        return [choose(self.puzzles, number, file)]


def label(file: str, puzzle: Puzzle, index: int, count: int) -> str:
    if count == 1:
        return file
    tail = (puzzle.source or "").rpartition("#")[2]
    return f"{file}#{tail if tail.isdigit() else index + 1}"


def same_path(path: str) -> str:
    """A record's path as it is compared: `./x` and `x` are the same puzzle (game IDs are kept
    as they are: `//` is an empty clue there)."""
    from nonosat.formats import names_game_id

    if names_game_id(path):
        return path
    head, hash_sign, tail = path.rpartition("#")
    if hash_sign and tail.isdigit():
        return f"{os.path.normpath(head)}#{tail}"
    return os.path.normpath(path)


class Pending(NamedTuple):
    todo: list[Task]
    """The tasks still to do."""
    done: list[Record]
    """Every record the results file holds (of this run's puzzles or any other)."""
    already: int
    """How many of this run's puzzles the file holds already."""
    ours: list[Record]
    """The records `done` holds of this run's puzzles (as `retry` takes them: `_of`), which the
    run is judged on with this run's new ones."""
    changed: int
    """How many records were of an earlier version of their puzzle's file, taken out to be
    solved again (`puzzle_sha1`)."""
    gone: list[str]
    """The paths of the records of this run's files that were of no puzzle they hold now (`FILE#3` of a file
    now of two puzzles, `FILE` of one now read as several), taken out (a review: --fail-on still
    judged them)."""


def pending(paths: Sequence[str], out: str | Path | None, retry: Sequence[str] = (), pictures: bool = False) -> Pending:
    """The tasks still to do, the records `out` already holds (empty without `out`), and how
    many of this run's puzzles those are.

    Records of this run's puzzles whose status is in `retry` are taken out of `out` (rewritten
    atomically; the records of other puzzles are kept), and those puzzles are to do again. A
    record is of a puzzle when their paths name the same file from this process's folder, however
    spelt (`puzzles/x.non`, `./puzzles/x.non`, its absolute path, a link to its folder), or, where
    a record of the same puzzle names none of this run's so, from `out`'s folder or one above it
    (a run in another folder wrote it: `_Guess`). Raises UsageError for a path
    that names no file, or for an `out` another process's run is writing; `out` is then held for
    this process's run until its results are closed, or the process ends
    (`nonosat.batch.holding.let_go` lets go sooner). Folders give their pictures too with
    `pictures`.
    """
    check_paths(paths, pictures)
    unknown = set(retry) - set(STATUSES)
    if unknown:
        raise UsageError(f"statuses to retry are {', '.join(STATUSES)}; not {', '.join(sorted(unknown))}")
    if out is not None:
        check_results_path(Path(out))
        hold(Path(out))  # before it is read: a second run on the same file at once is refused
    done = resume_results(Path(out)) if out is not None else []
    folders: dict[str, str] = {}  # this call's: a file's 27,000 puzzles follow its folder's links once
    skip = None if out is None else os.path.realpath(out)
    asked = [(puzzle_key(task.path, folders), task) for task in tasks(paths, pictures, skip)]
    keys = {key for key, _ in asked}
    files = {puzzle_key(file, folders) for file in {task.file for _, task in asked}}  # once a file
    guess = _Guess(out, asked, folders, keys | files, retry) if done else None
    kept = [(puzzle_key(str(record["path"]), folders), record) for record in done]
    kept = [(key if guess is None else guess.key(key, record), record) for key, record in kept]
    kept = [(key, record) for key, record in kept if record.get("status") not in retry or not _of(key, keys, files)]
    stale = _changed(kept, asked)
    unread = {key for key, task in asked if task.puzzle is None}  # a file that cannot be read now keeps its records
    gone = {key for key, _ in kept if key not in keys and _of(key, keys, files) and _file_of(key) not in unread}
    dropped = [str(record["path"]) for key, record in kept if key in gone]  # of a file read now, no puzzle of it
    kept = [(key, record) for key, record in kept if key not in stale and key not in gone]
    if out is not None and len(kept) < len(done):
        done = [record for _, record in kept]
        rewrite_results(Path(out), done)
    seen = {key for key, _ in kept}
    already = len(keys & seen)
    todo = []
    for key, task in asked:
        if key not in seen:  # done before, or named twice in this run
            seen.add(key)
            todo.append(task)
    ours = [record for key, record in kept if _of(key, keys, files)]
    return Pending(todo, done, already, ours, len(stale), dropped)


class _Guess:
    """Where a record's path names none of this run's puzzles from this process's folder, the
    puzzle it names from the results file's folder or one above it (a run in another folder wrote
    it: `cd b && nonosat batch set --out r.jsonl`, then `nonosat batch b/set --out b/r.jsonl`;
    a review found every puzzle solved and counted twice). Only a guess: it is taken only for a
    record of that same puzzle (its `puzzle_sha1`) that is not to be retried, so that a record
    is never taken out, or replaced, on a guess (the mend's review: another file's record of
    the same relative name was taken out as "changed")."""

    def __init__(
        self,
        out: str | Path | None,
        asked: list[tuple[str, Task]],
        folders: dict[str, str],
        keys: set[str],
        retry: Sequence[str],
    ) -> None:
        self.folders = folders
        self.keys = keys
        self.retry = set(retry)
        self.tasks = dict(asked)
        self.names = {os.path.basename(key) for key in self.tasks}  # a quick no for other puzzles' records
        self.bases: list[str] = []
        folder = os.path.dirname(os.path.abspath(out)) if out is not None else None
        while folder is not None:
            self.bases.append(folder)
            above = os.path.dirname(folder)
            folder = None if above == folder else above

    def key(self, key: str, record: Record) -> str:
        path = str(record["path"])
        if key in self.keys or os.path.basename(key) not in self.names or os.path.isabs(path):
            return key
        if record.get("status") in self.retry or "puzzle_sha1" not in record:
            return key
        from nonosat.formats import names_game_id

        if names_game_id(path):
            return key
        for base in self.bases:
            guessed = puzzle_key(os.path.join(base, path), self.folders)  # its links followed, as a task's
            task = self.tasks.get(guessed)
            if task is not None:
                return guessed if self._same_puzzle(task, record) else key
        return key

    @staticmethod
    def _same_puzzle(task: Task, record: Record) -> bool:
        from nonosat.render.records import puzzle_sha1

        return task.puzzle is not None and record["puzzle_sha1"] == puzzle_sha1(task.puzzle)


def _changed(kept: list[tuple[str, Record]], asked: list[tuple[str, Task]]) -> set[str]:
    """The keys of records of an earlier version of their puzzle: its `puzzle_sha1` is not that
    of the puzzle the file holds now (None for a file that cannot be read). A record without the
    key (written before it was kept) is taken as it is."""
    from nonosat.render.records import puzzle_sha1

    recorded = {key: record["puzzle_sha1"] for key, record in kept if "puzzle_sha1" in record}
    stale = set()
    for key, task in asked:
        if key in recorded:
            now = None if task.puzzle is None else puzzle_sha1(task.puzzle)
            if recorded.pop(key) != now:
                stale.add(key)
    return stale


def _file_of(key: str) -> str:
    """The file a record's key is of: `FILE` for `FILE#N`."""
    head, hash_sign, tail = key.rpartition("#")
    return head if hash_sign and tail.isdigit() else key


def _of(key: str, keys: set[str], files: set[str]) -> bool:
    """Whether a record is of this run: of one of its puzzles, or of a file it reads, as a whole
    (an error record of a file of several, now read puzzle by puzzle: a review found it never
    taken out by a retry) or as `FILE#N` (a file now read whole, or with fewer puzzles)."""
    return key in keys or key in files or _file_of(key) in files


def puzzle_key(path: str, folders: dict[str, str] | None = None) -> str:
    """A record's path as it is compared with a task's: tidied (`same_path`), and a file's made
    absolute from this process's folder, its folder's symbolic links followed (a folder named
    through a link to it is the same folder; a file that is a link is a name of its own, as
    batch lists it). `folders` keeps the folders already followed, for one set of paths, and
    the keys of files of several puzzles (under `#FILE`: no folder's absolute name starts so), so
    that a file's 300,000 records' `FILE#N` are worked out once (a review: 12 s to start)."""
    folders = {} if folders is None else folders
    head, hash_sign, tail = path.rpartition("#")
    if not (hash_sign and tail.isdigit()):
        return _key(path, folders)
    start = folders.get("#" + head)
    if start is None:  # the key of FILE#N is the key of FILE's part and `#N`
        start = folders["#" + head] = _key(path, folders)[: -len(tail)]
    return start + tail


def _key(path: str, folders: dict[str, str]) -> str:
    from nonosat.formats import names_game_id

    tidy = same_path(path)
    if names_game_id(tidy):
        return tidy
    folder, name = os.path.split(os.path.abspath(tidy))
    if folder not in folders:
        folders[folder] = os.path.realpath(folder)
    return os.path.join(folders[folder], name)
