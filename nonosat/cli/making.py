"""generate and random: new puzzles, from a picture or at random, proved to have one solution."""

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nonosat.cli.base import Requirement, TimeoutOption, app, friendly, usage
from nonosat.cli.show import LOG_EVERY, err, out

if TYPE_CHECKING:
    from nonosat.deadline import Deadline

RequireOption = Annotated[
    Requirement,
    typer.Option(
        "--require",
        help="The most the puzzle may need: unique (proved by a search); probe: solvable by line logic and one-cell"
        " lookahead (a line-solvable one is too); or line: by line logic alone, as puzzles for people are.",
    ),
]
MaxChangesOption = Annotated[
    int | None,
    typer.Option(
        "--max-changes", min=0, help="Give up after changing this many cells (default: 10% of the grid, at least 10)."
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", help="Seed for tie-breaks (and the random grid): same seed, same puzzle.")
]
ColoursOption = Annotated[
    int | None,
    typer.Option(
        "--colours",
        metavar="K",
        help="A colour puzzle of at most K colours (1 to 62) plus the blank (a picture's colours are quantised"
        " to K; white and transparent pixels are blank); default: black and white.",
    ),
]
GeneratedOutput = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="Write the puzzle here (.non, or any format convert writes); default: print it as .non."
    ),
]


PreviewChangesOption = Annotated[
    bool,
    typer.Option(
        "--preview-changes",
        help="Draw into --preview the starting picture beside the final one, with the changed cells marked"
        " (added green, removed red) instead of the puzzle sheet.",
    ),
]


def check_preview(preview: Path | None, changes: bool, force: bool) -> None:
    from nonosat.render.sheets import check_picture_path

    if changes and preview is None:
        raise typer.BadParameter("draws into --preview: give --preview FILE too", param_hint="--preview-changes")
    if preview is not None:
        check_picture_path(preview, force=force)


def check_not_the_picture(image: Path, outputs: dict[str, Path | None]) -> None:
    """Refuse an output that is the picture read, even with --force (a review: `--preview
    logo.png --force` of logo.png drew over the author's picture)."""
    for option, path in outputs.items():
        try:
            same = path is not None and os.path.exists(path) and os.path.samefile(path, image)
        except OSError:  # (a picture that is not there: its reading says so; a link to nowhere is written through)
            same = False
        if same:
            raise typer.BadParameter(f"{path} is the picture read: it would be drawn over", param_hint=option)


def check_output(output: Path | None, force: bool, colours: int | None) -> None:
    """Refuse, before any work, an output that could not be written: an existing file without
    --force, a folder that is not there, a suffix of no format nonosat writes, or a format of
    black and white only for --colours (a review found each refused after the whole repair, with
    the preview already written)."""
    if output is None:
        return
    if str(output) == "-":  # as convert takes it: said what does the same (a review)
        raise typer.BadParameter("without --output the puzzle is printed as .non; leave it out", param_hint="--output")
    from nonosat.formats import writer
    from nonosat.formats.atomic import ensure_writable
    from nonosat.formats.writing import format_for_suffix

    ensure_writable(output, force=force)  # the folder there too
    writer(format_for_suffix(output, nameable=False), colour=colours is not None and colours >= 2)


@contextlib.contextmanager
def showing_the_repair() -> Iterator[None]:
    """On a terminal, a line on standard error that says where the repair stands while it runs,
    gone when it ends (`generate` toward `unique` took a minute on a sparse picture with nothing
    shown); where standard error is a pipe or a file, that line every LOG_EVERY seconds (a
    review: `--require unique` ran for minutes in a pipe without a word)."""
    from nonosat.generate.progress import watched

    started = time.monotonic()
    if not err.is_terminal:
        last = [started]

        def log(text: str) -> None:
            now = time.monotonic()
            if now - last[0] >= LOG_EVERY:
                last[0] = now
                with contextlib.suppress(OSError, ValueError):  # a log that cannot be written: the repair goes on
                    err.print(f"{text} · {now - started:.0f} s", markup=False)

        with watched(log):
            yield
        return
    from nonosat import interrupts

    status = err.console().status("starting", spinner="dots")
    with interrupts.deaf_threads():  # Rich's refresh thread leaves Ctrl-C to the main thread
        status.start()
    interrupts.at_end(status.stop)  # an interrupted command ending at once shows the cursor again

    def watch(text: str) -> None:
        status.update(f"{text} · {time.monotonic() - started:.0f} s")

    try:
        with watched(watch):
            yield
    finally:
        status.stop()


def write_generated(
    made: Any, output: Path | None, preview: Path | None, force: bool, changes: bool, deadline: "Deadline"
) -> None:
    """Write (or print) a generated puzzle and its preview, then say what was proved. The
    preview's drawing keeps to the deadline: when it passes, nothing is written."""
    from nonosat.formats import dumps, save
    from nonosat.render.text import generated_line

    puzzle = made.puzzle
    if output is not None:  # a colour puzzle in a format of black and white: refused before anything is written
        from nonosat.formats import writer
        from nonosat.formats.writing import format_for_suffix

        writer(format_for_suffix(output, nameable=False), colour=puzzle.is_colour)
    new = {path for path in (preview, output) if path is not None and not os.path.lexists(path)}
    written: list[Path] = []  # the new files written: removed again if the command does not end well
    try:
        if preview is not None and changes:
            from nonosat.render.changes import save_changes

            save_changes(made.start, puzzle.goal, puzzle.palette, preview, force=force, deadline=deadline)
        elif preview is not None:
            from nonosat.render.sheets import save_picture

            save_picture(puzzle, puzzle.goal, preview, force=force, deadline=deadline)
        written += [preview] if preview in new else []
        dropped: list[str] = []
        if output is None:
            out.file.write(dumps(puzzle, "non"))
        else:
            dropped = save(puzzle, output, force=force)
            written += [output] if output in new else []
        err.print(generated_line(made, output, preview, dropped), markup=False, soft_wrap=True)
    except BaseException:  # Ctrl-C between the preview and the puzzle (an author's review: exit 130
        for path in written:  # with the preview, or both, written): what it wrote goes again
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise


def threshold_level(text: str) -> Any:
    """--threshold, read as the web API reads its `threshold` (nonosat.values.threshold)."""
    from nonosat.values import threshold

    return usage("--threshold", lambda: threshold(text))


@app.command(short_help="Make a puzzle with one solution from a picture.")
@friendly
def generate(
    image: Annotated[Path, typer.Argument(help="A picture: PNG, JPEG, GIF, BMP or WebP.")],
    output: GeneratedOutput = None,
    width: Annotated[
        int | None, typer.Option("--width", min=1, help="Cells across; alone, the height follows the picture's aspect.")
    ] = None,
    height: Annotated[
        int | None, typer.Option("--height", min=1, help="Cells down; alone, the width follows the picture's aspect.")
    ] = None,
    threshold: Annotated[
        str, typer.Option("--threshold", help="otsu, or a grey level 0..255: darker cells are filled.")
    ] = "otsu",
    invert: Annotated[bool, typer.Option("--invert", help="Fill the light cells instead of the dark ones.")] = False,
    colours: ColoursOption = None,
    require: RequireOption = Requirement.unique,
    max_changes: MaxChangesOption = None,
    max_distance: Annotated[
        float | None,
        typer.Option(
            "--max-distance",
            min=0.0,
            help="Never move the picture further than this: a black or white cell changed counts 1, one near the"
            " threshold less (default: no limit but --max-changes).",
        ),
    ] = None,
    seed: SeedOption = 0,
    preview: Annotated[
        Path | None, typer.Option("--preview", help="Also draw the final picture with its clues: .png or .svg.")
    ] = None,
    preview_changes: PreviewChangesOption = False,
    suggest: Annotated[
        int | None,
        typer.Option(
            "--suggest",
            min=1,
            metavar="N",
            help="Make nothing: list the N one-cell edits that leave line logic the fewest cells open for what they"
            " cost the picture, for editing by hand.",
        ),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="Title (default: from the file name).")] = None,
    author: Annotated[str | None, typer.Option("--author", help="Author, written into the puzzle.")] = None,
    license: Annotated[str | None, typer.Option("--license", help="Licence, written into the puzzle.")] = None,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a puzzle from a picture, changing as few cells as needed to prove it has one solution.

    Example: nonosat generate puzzles/smiley-picture.png --width 30 --require line -o smiley.non

    In colour: nonosat generate parrot.png --width 30 --colours 4 -o parrot.xml
    """
    from nonosat.deadline import Deadline
    from nonosat.generate import from_image

    deadline = Deadline.for_command(timeout)
    if suggest is not None:
        if output is not None or preview is not None:
            raise typer.BadParameter("makes nothing: leave out --output and --preview", param_hint="--suggest")
        suggest_edits_for(image, width, height, threshold_level(threshold), invert, colours, suggest, seed, deadline)
        return
    check_output(output, force, None)  # a picture quantised to black alone is black and white: known once read
    check_preview(preview, preview_changes, force)
    check_not_the_picture(image, {"--output": output, "--preview": preview})
    with showing_the_repair():
        made = from_image(
            image,
            width=width,
            height=height,
            threshold_level=threshold_level(threshold),
            invert=invert,
            colours=colours,
            require=require,
            max_changes=max_changes,
            max_distance=max_distance,
            seed=seed,
            timeout=deadline,
            title=title,
            author=author,
            license=license,
            read=None if output is None else lambda start: check_holds(output, start),
        )
    write_generated(made, output, preview, force, preview_changes, deadline)


def check_holds(output: Path, start: Any) -> None:
    """Refuse, once the picture is read and before the repair, an output whose format cannot hold
    the picture's puzzle: a colour one as .nin, one that is not square as a tournament (a review
    found both refused only after the whole repair, 7-15 s)."""
    from nonosat.formats import dumps
    from nonosat.formats.writing import format_for_suffix

    dumps(start, format_for_suffix(output, nameable=False))


def suggest_edits_for(
    image: Path,
    width: int | None,
    height: int | None,
    level: Any,
    invert: bool,
    colours: int | None,
    count: int,
    seed: int,
    timeout: "Deadline",
) -> None:
    """Print the best one-cell edits of a picture's puzzle."""
    from nonosat.generate import suggest_edits
    from nonosat.render.text import suggestion_lines

    found = suggest_edits(
        image,
        width=width,
        height=height,
        threshold_level=level,
        invert=invert,
        colours=colours,
        count=count,
        seed=seed,
        timeout=timeout,
    )
    for line in suggestion_lines(image, found):
        out.print(line, markup=False, soft_wrap=True)


@app.command("random", short_help="Make a random puzzle with one solution.")
@friendly
def random_command(
    width: Annotated[int, typer.Option("--width", min=1, help="Cells across.")],
    height: Annotated[int, typer.Option("--height", min=1, help="Cells down.")],
    output: GeneratedOutput = None,
    density: Annotated[
        float, typer.Option("--density", min=0.0, max=1.0, help="Share of filled cells in the random grid.")
    ] = 0.5,
    colours: ColoursOption = None,
    seed: SeedOption = 0,
    require: RequireOption = Requirement.unique,
    max_changes: MaxChangesOption = None,
    preview: Annotated[
        Path | None, typer.Option("--preview", help="Also draw the puzzle's picture with its clues: .png or .svg.")
    ] = None,
    preview_changes: PreviewChangesOption = False,
    timeout: TimeoutOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --output or --preview if it exists.")] = False,
) -> None:
    """Make a random puzzle with one solution, proved, as Simon Tatham's Pattern does.

    Example: nonosat random --width 15 --height 15 --require line --seed 7 (add --colours 3 for colour)
    """
    from nonosat.deadline import Deadline
    from nonosat.generate import random_puzzle

    deadline = Deadline.for_command(timeout)
    check_output(output, force, colours)
    check_preview(preview, preview_changes, force)
    with showing_the_repair():
        made = random_puzzle(
            width,
            height,
            density=density,
            colours=colours,
            seed=seed,
            require=require,
            max_changes=max_changes,
            timeout=deadline,
        )
    write_generated(made, output, preview, force, preview_changes, deadline)
