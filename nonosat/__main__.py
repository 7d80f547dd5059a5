"""`python -m nonosat` (and the `nonosat` console script) run the command line.

Ctrl-C is taken care of before anything heavy is imported: until the command line sets up its
own handling (nonosat.interrupts), an interrupt ends the process at once, quietly, with exit 130.

A command's start-up makes some 20,000 objects that live to its end (modules, classes,
functions): Python's cyclic garbage collector, run every 700 new objects by default, would go
through them 17 times during a check of a small puzzle (5 ms here) and once more at exit (2 ms).
So it runs every 30,000 (none in such a check), and what is left at a normal end is frozen, not
collected.
"""

from __future__ import annotations

import gc
import signal
import sys
from types import FrameType


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    import os

    sys.stderr.write("nonosat: interrupted\n")
    sys.stderr.flush()
    os._exit(130)


def main() -> None:
    """Entry point of the `nonosat` console script."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # started ignoring it: ignored throughout
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    from nonosat.deadline import command_started, ends_with_its_work

    command_started()  # --timeout counts from the process's start
    ends_with_its_work()  # work past the deadline may be left behind: the process ends then
    gc.set_threshold(30_000)
    _streams_that_exist()
    code: object = 0
    try:
        try:
            from nonosat.cli.quick import run

            quick = run(sys.argv[1:])  # `check FILE` and `solve FILE` need no Typer
            if quick is not None:
                raise SystemExit(quick)
            from nonosat.cli import main as command_line

            command_line()
        except SystemExit as done:
            code = done.code
    except KeyboardInterrupt:  # between the commands' own handling and the end
        from nonosat import interrupts

        interrupts.announce()
        code = 130
    except Exception as error:  # noqa: BLE001 - a bug of ours: one line and exit 70, not a traceback and 1
        code = _output_failed(error) or _internal_error(error)
    from nonosat import interrupts

    interrupts.finish()  # a Ctrl-C from now on leaves the exit code alone
    if code == 130:
        code = interrupts.exit_code()  # 143 after SIGTERM
        interrupts.announce()  # said once, also for a Ctrl-C that Typer caught outside a command
        _end_interrupted(code)
    if "multiprocessing" not in sys.modules:  # else collect: its semaphores are released then
        gc.freeze()
    _end_fork_server()
    raise SystemExit(code)


def _end_fork_server() -> None:
    """End the fork server, if one was started (`processes.end_fork_server`): not left holding
    standard output once the command is done."""
    if "multiprocessing.forkserver" in sys.modules:
        from nonosat.processes import end_fork_server

        end_fork_server()


def _streams_that_exist() -> None:
    """A command started with its standard output or error closed (`nonosat solve cat.non >&-`)
    finds sys.stdout (or sys.stderr) None, and every print failed with a traceback and exit 1.
    Such a stream writes to the null device instead, as a pipe closed by its reader drops what is
    written (README, "Exit codes"): the verdict's exit code stands. Opened while the descriptor
    is free, the null device takes its number, so no file opened later gets 1 or 2 (where a
    worker's output would land)."""
    import os

    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):  # in the descriptors' order
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - for the process's life


EXIT_INTERNAL_ERROR = 70
"""A bug of ours (EX_SOFTWARE): not 1, which means "multiple solutions"."""
EXIT_OUTPUT_FAILED = 74
"""The output could not be written (EX_IOERR): a full disk or device, an I/O error."""


def _output_failed(error: Exception) -> int:
    """A write to standard output that failed (`> /dev/full`, a full disk, an I/O error): one
    line and exit 74, not a bug's exit 70; 0 for any other error. The output is then dropped, so
    that the flush at exit does not fail again."""
    import os

    if not isinstance(error, OSError) or not getattr(error, "writing_stdout", False):  # see GuardedStdout
        return 0  # not the output's (a full temporary folder, say): a bug's report, exit 70
    try:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process's life
        sys.stderr.write(f"nonosat: cannot write the output: {error.strerror or error}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return EXIT_OUTPUT_FAILED


def _internal_error(error: Exception) -> int:
    """A bug of ours as one line on standard error (the traceback with NONOSAT_DEBUG=1)."""
    import os

    try:
        if os.environ.get("NONOSAT_DEBUG"):
            import traceback

            traceback.print_exception(error)
        from nonosat.render.terminal import one_line

        sys.stdout.flush()
        sys.stderr.write(
            f"nonosat: internal error ({type(error).__name__}: {one_line(str(error), 200)}); "
            "this is a bug: please report it with the command (NONOSAT_DEBUG=1 shows the traceback)\n"
        )
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return EXIT_INTERNAL_ERROR


def _end_interrupted(code: int) -> None:
    """End an interrupted command at once with exit code `code` (130; 143 after SIGTERM). Python
    itself would end it by SIGINT instead (exit status -2 to the shell) when the KeyboardInterrupt was raised inside
    code run by exec() of a string, such as a dataclass being made, even once it was caught:
    CPython marks it unhandled there. Everything of ours is cleaned up already; what is only
    garbage is collected first, so that multiprocessing's semaphores are released and its
    resource tracker finds none left over."""
    import os

    from nonosat import interrupts

    interrupts.run_at_end()  # (atexit's functions do not run)
    _end_fork_server()
    gc.collect()
    _remove_multiprocessing_folder()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _remove_multiprocessing_folder() -> None:
    """Remove the `pymp-*` folder multiprocessing made for this process (its fork server's
    socket): its own exit function, which atexit runs, would have; a review found one left in
    the temporary folder at every Ctrl-C."""
    if "multiprocessing" not in sys.modules:
        return
    import shutil
    from multiprocessing import process, util

    folder = getattr(process.current_process(), "_config", {}).get("tempdir")
    remove = getattr(util, "_remove_temp_dir", None)
    finalizers = list(getattr(util, "_finalizer_registry", {}).values())
    made_here = any(
        getattr(f, "_callback", None) is remove and folder in (getattr(f, "_args", None) or ()) for f in finalizers
    )
    if isinstance(folder, str) and made_here:  # not a parent's (a process forked by multiprocessing has its parent's)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
