"""The commands people run most, `check FILE` and `solve FILE` as they are, without Typer.

Typer and Click take about 40 ms to import and to build a command, as long as line logic takes
to solve a 45x45 puzzle. The plain forms below run the same library calls as the Typer commands
(`solving`) and print through the same functions (`show`); anything else, including every
option and `--help`, goes to Typer.
"""

from __future__ import annotations

QUICK_FORMS = (("check",), ("check", "--no-rating"), ("solve",))
"""The command and the options after FILE that run here."""


def run(argv: list[str]) -> int | None:
    """Run `argv` (the arguments after `nonosat`) and give its exit code, or None when it is not
    one of the quick forms: then nothing was done, and Typer runs it."""
    if len(argv) < 2 or argv[1].startswith("-") or (argv[0], *argv[2:]) not in QUICK_FORMS:
        return None
    command, file = argv[0], argv[1]
    from nonosat import interrupts
    from nonosat.cli.show import complain, error_line
    from nonosat.errors import NonosatError
    from nonosat.render.terminal import guard_stdout

    guard_stdout()
    interrupts.watch_ctrl_c()
    try:
        if command == "check":
            return _check(file, rating="--no-rating" not in argv)
        return _solve(file)
    except NonosatError as error:
        complain(error_line(error))
        return error.exit_code
    except KeyboardInterrupt:
        interrupts.announce()
        return interrupts.EXIT_INTERRUPTED


def _check(file: str, rating: bool) -> int:
    from nonosat.cli.show import cores, load_puzzle, show_checked
    from nonosat.deadline import Deadline
    from nonosat.reports import check_report

    deadline = Deadline.after(None)
    puzzle = load_puzzle(file, deadline)
    answer = check_report(puzzle, file, deadline, jobs=cores(None), rating=False, diagnose=False)
    return show_checked(answer, False, False, deadline, rating=rating)


def _solve(file: str) -> int:
    from nonosat.cli.show import cores, load_puzzle, show_solved
    from nonosat.deadline import Deadline
    from nonosat.reports import solve_report

    deadline = Deadline.after(None)
    puzzle = load_puzzle(file, deadline)
    answer = solve_report(puzzle, file, deadline, jobs=cores(None), diagnose=False)
    return show_solved(answer, False, False, deadline)
