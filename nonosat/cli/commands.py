"""The Typer app with every command registered, in the order --help lists them, and `main`."""

from typing import Annotated, Any

import typer

from nonosat.cli import batching, certifying, explaining, making, serving, solving, writing  # noqa: F401 - each registers its commands
from nonosat.cli.base import EXIT_CODES, EXIT_FOR_LEVEL, app
from nonosat.cli.show import EXIT_FOR_STATUS

__all__ = ["EXIT_CODES", "EXIT_FOR_LEVEL", "EXIT_FOR_STATUS", "app", "main"]


def _version(value: bool) -> None:
    if value:
        from nonosat.cli.show import say
        from nonosat.installation import report

        say(*report())
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool | None,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Show the version, the Python, the compiled core, PySAT and the extras found.",
        ),
    ] = None,
) -> None:
    """Solve nonograms with SAT and prove whether the solution is unique."""


def _only_the_command_asked_for(args: list[str]) -> None:
    """Register only the subcommand on the command line, when there is one: Typer builds a
    Click command for every registered function (reading its signature and annotations) before
    it runs any, and for one command that is a fifth of a small solve's start-up. `nonosat
    --help`, `--version` and unknown names still see every command."""
    name = args[0] if args else ""
    chosen = [info for info in app.registered_commands if _command_name(info) == name]
    if chosen:
        app.registered_commands = chosen


def _command_name(info: Any) -> str:
    from typer.main import get_command_name  # how Typer names a command after its function

    return info.name or get_command_name(info.callback.__name__)


ORDER = (
    "solve",
    "check",
    "verify",
    "explain",
    "rate",
    "hint",
    "encode",
    "convert",
    "render",
    "generate",
    "random",
    "batch",
    "serve",
)
"""The commands as --help lists them: the main jobs first."""

app.registered_commands.sort(key=lambda info: ORDER.index(_command_name(info)))


def main() -> None:
    """Entry point of the `nonosat` console script: Ctrl-C ends any command within a second
    (nonosat.interrupts), and a closed standard output does not change the exit code."""
    import sys

    from nonosat.interrupts import watch_ctrl_c
    from nonosat.render.terminal import guard_stdout

    guard_stdout()
    watch_ctrl_c()
    _only_the_command_asked_for(sys.argv[1:])
    raise SystemExit(_run_app(sys.argv[1:]))


def _run_app(args: list[str]) -> int:
    """Run the app as `app()` does, but a usage error (an unknown option, a bad value, a missing
    file name) is one line on standard error, as bad input is (README, "Exit codes"), not
    Click's four lines of usage, hint, blank line and error."""
    import sys

    from typer.main import get_command

    from nonosat.cli.show import complain, usage_line

    clicks = sys.modules[typer.BadParameter.__module__]  # click's exceptions, or Typer's copy of them (0.28)
    help_alone = getattr(clicks, "NoArgsIsHelpError", ())  # Click 8.2 and later
    try:
        code = get_command(app).main(args=args, prog_name="nonosat", standalone_mode=False)
    except help_alone as error:  # `nonosat` or `nonosat COMMAND` alone: the help, as Click shows it
        error.show()
        return int(error.exit_code)
    except clicks.ClickException as error:
        complain(usage_line(error))
        return int(error.exit_code)
    except typer.Abort:  # end of input at a prompt (there are none today): as Click says it
        complain("Aborted!")
        return 1
    return code if isinstance(code, int) else 0
