"""How nonosat keeps its promises under faults, measured: Ctrl-C, SIGKILL and --timeout.

    python -m bench.faults [--repeat N] [--json OUT] [--sweep] [--only CASE]

Each command runs as a user would start it, in a session of its own, on work that takes seconds
to minutes; then:

- Ctrl-C: SIGINT to its process group (as a terminal sends it) after a moment; measured are the
  seconds until it exits, its exit code, its standard error, and the processes of the group
  still alive when it has exited and one second later (zombies not counted).
  With --sweep, the Ctrl-C cases alone, each run's signal at another moment (from 0.3 s, in
  Python's start, to past the usual moment): a fault that waits on the moment (a solver that
  cannot be stopped mid-step) shows in a sweep sooner than in repeats.
- SIGKILL: to the command alone; measured are the seconds until no process of its group is left.
- --timeout S: the seconds past S at which the command ends, and what it said was cut short.

The issue's bounds: Ctrl-C ends every command within 1 s with exit 130 and one line, nothing
left running; a killed command's workers end within 2 s; a deadline is kept within 1 s. The
tests check the same things with generous bounds (a hang), since they must not assert timings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.processes import in_group, start
from bench.verdicts import corpus_root

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Measure:
    case: str
    kind: str
    seconds: list[float] = field(default_factory=list)
    """Ctrl-C: signal to exit; SIGKILL: signal to the last process gone; timeout: past the deadline."""
    codes: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    """Processes of the group still alive one second after the exit."""
    notes: list[str] = field(default_factory=list)

    def row(self) -> str:
        worst = max(self.seconds) if self.seconds else float("nan")
        median = statistics.median(self.seconds) if self.seconds else float("nan")
        codes = ",".join(sorted({str(c) for c in self.codes}))
        note = self.notes[-1] if self.notes else ""
        return (
            f"| {self.case} | {self.kind} | {median:.2f} | {worst:.2f} "
            f"| {codes} | {max(self.left, default=0)} | {note} |"
        )


def ctrl_c(measure: Measure, args: list[str], cwd: Path, after: float) -> None:
    command = start(args, cwd)
    time.sleep(after)
    if command.poll() is not None:
        measure.notes.append(f"ended before the signal (exit {command.returncode})")
        return
    os.killpg(command.pid, signal.SIGINT)
    sent = time.monotonic()
    _, stderr = command.communicate()
    measure.seconds.append(time.monotonic() - sent)
    measure.codes.append(command.returncode)
    time.sleep(1.0)
    measure.left.append(len(in_group(command.pid)))
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("solving")]
    measure.notes.append(f"last line: {lines[-1] if lines else '(none)'}; traceback: {'Traceback' in stderr}")


def killed(measure: Measure, args: list[str], cwd: Path, after: float) -> None:
    command = start(args, cwd)
    time.sleep(after)
    if command.poll() is not None:
        measure.notes.append(f"ended before the signal (exit {command.returncode})")
        return
    helpers = len(in_group(command.pid)) - 1
    command.kill()
    sent = time.monotonic()
    command.wait()
    while in_group(command.pid) and time.monotonic() - sent < 60:
        time.sleep(0.01)
    measure.seconds.append(time.monotonic() - sent)
    measure.codes.append(command.returncode)
    measure.left.append(len(in_group(command.pid)))
    measure.notes.append(f"{helpers} helper processes when killed")


def deadline(measure: Measure, args: list[str], cwd: Path, limit: float) -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", *args, "--timeout", str(limit)], cwd=cwd, capture_output=True, text=True
    )
    measure.seconds.append(time.monotonic() - started - limit)
    measure.codes.append(done.returncode)
    said = [line for line in (done.stdout + done.stderr).splitlines() if "time limit" in line or "grew past" in line]
    measure.notes.append(said[-1][:90] if said else "(no line about the time limit)")


def fixtures(work: Path) -> dict[str, Path]:
    """The inputs: corpus puzzles, and files made here (a typo, a random grid, a noise picture)."""
    from nonosat import Puzzle
    from nonosat.formats import save

    corpus = corpus_root()
    files = {
        "faase": corpus / "pynogram" / "frans_faase.txt",
        "taai2011": corpus / "tcga" / "question" / "taai2011.txt",
    }
    lines = files["faase"].with_name("LalaFrogKK.txt").read_text().splitlines(keepends=True)
    lines[11] = lines[11].rstrip()[:-1] + "2\n"
    files["typo"] = work / "lala-typo.txt"
    files["typo"].write_text("".join(lines))
    rng = random.Random(1)
    clues = Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(300)] for _ in range(300)])
    files["r300"] = work / "r300.non"
    save(Puzzle(rows=clues.rows, columns=clues.columns), files["r300"], force=True)
    files["ones"] = work / "ones200.non"
    save(Puzzle(rows=((1,),) * 200, columns=((1,),) * 200), files["ones"], force=True)
    hard = work / "hard"
    hard.mkdir(exist_ok=True)
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        (hard / name).write_text(files["faase"].read_text())
    files["hard"] = hard
    state = work / "state.txt"
    state.write_text("\n".join("?" * 95 for _ in range(80)) + "\n")
    files["state"] = state
    try:
        from PIL import Image

        picture = Image.new("L", (120, 120))
        picture.putdata([rng.choice((0, 255)) for _ in range(120 * 120)])
        files["noise"] = work / "noise.png"
        picture.save(files["noise"])
    except ImportError:
        pass
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case (default 3)")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="send each Ctrl-C at a different moment: the runs of a "
        "case spread from 0.3 s to 1 s past its usual moment",
    )
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = parser.parse_args(argv)
    measures: list[Measure] = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        f = fixtures(work)
        p510 = f"{f['taai2011']}#510"
        interrupts: list[tuple[str, list[str], float]] = [
            ("solve --jobs 1 (#510)", ["solve", p510, "--jobs", "1"], 0.5),
            ("solve --jobs 2 (#510)", ["solve", p510, "--jobs", "2"], 0.5),
            ("check (#510)", ["check", p510], 0.5),
            ("solve --jobs 2 (Faase)", ["solve", str(f["faase"]), "--jobs", "2"], 3.0),
            (
                "solve --solver cadical195 --jobs 1 (Faase)",
                ["solve", str(f["faase"]), "--jobs", "1", "--solver", "cadical195"],
                3.0,
            ),
            ("explain (Faase)", ["explain", str(f["faase"])], 2.0),
            ("rate (Faase)", ["rate", str(f["faase"])], 2.0),
            ("hint (Faase)", ["hint", str(f["faase"]), "--state", str(f["state"])], 2.0),
            (
                "random 100x100",
                ["random", "--width", "100", "--height", "100", "-o", str(work / "r.non"), "--force"],
                2.0,
            ),
            (
                "batch --jobs 1 (Faase x4)",
                ["batch", str(f["hard"]), "--out", str(work / "b1.jsonl"), "--jobs", "1"],
                3.0,
            ),
            (
                "batch --jobs 2 (Faase x4)",
                ["batch", str(f["hard"]), "--out", str(work / "b2.jsonl"), "--jobs", "2"],
                3.0,
            ),
        ]
        if "noise" in f:
            interrupts.append(
                (
                    "generate 120x120 noise",
                    ["generate", str(f["noise"]), "--width", "120", "-o", str(work / "g.non"), "--force"],
                    2.0,
                )
            )
        for case, command, after in interrupts:
            if args.only not in case:
                continue
            measure = Measure(case, "Ctrl-C" + (" swept" if args.sweep else ""))
            for run in range(args.repeat):
                for stale in work.glob("b*.jsonl"):
                    stale.unlink()
                moment = 0.3 + (after + 0.7) * run / max(1, args.repeat - 1) if args.sweep else after
                ctrl_c(measure, command, work, moment)
            measures.append(measure)
            print(measure.row(), flush=True)
        for case, command in (
            ("solve --jobs 2 (Faase)", ["solve", str(f["faase"]), "--jobs", "2"]),
            ("batch --jobs 2 (Faase x4)", ["batch", str(f["hard"]), "--out", str(work / "k.jsonl"), "--jobs", "2"]),
        ):
            if args.only not in case or args.sweep:
                continue
            measure = Measure(case, "SIGKILL")
            for _ in range(args.repeat):
                for stale in work.glob("k*.jsonl"):
                    stale.unlink()
                killed(measure, command, work, 4.0)
            measures.append(measure)
            print(measure.row(), flush=True)
        limits: list[tuple[str, list[str], float]] = [
            ("check LalaFrogKK with a typo (conflicting lines)", ["check", str(f["typo"])], 3.0),
            ("solve random 300x300 (building the CNF)", ["solve", str(f["r300"])], 2.0),
            ("check 200x200 of 1s (rating)", ["check", str(f["ones"])], 5.0),
            ("rate 200x200 of 1s", ["rate", str(f["ones"])], 2.0),
            (
                "random 100x100 (whole run)",
                ["random", "--width", "100", "--height", "100", "-o", str(work / "t.non"), "--force"],
                2.0,
            ),
            ("solve Faase --jobs 2 (search)", ["solve", str(f["faase"]), "--jobs", "2"], 2.0),
        ]
        for case, command, limit in limits:
            if args.only not in case or args.sweep:
                continue
            measure = Measure(case, f"--timeout {limit:g}")
            for _ in range(args.repeat):
                deadline(measure, command, work, limit)
            measures.append(measure)
            print(measure.row(), flush=True)
    print()
    print("| case | fault | median s | worst s | exit codes | left after 1 s | last note |")
    print("|---|---|---|---|---|---|---|")
    for measure in measures:
        print(measure.row())
    if args.json is not None:
        from nonosat.formats.atomic import write_text_atomic

        write_text_atomic(args.json, json.dumps([asdict(m) for m in measures], indent=1) + "\n", force=True)
    broken = [
        m
        for m in measures
        if (
            m.kind.startswith("Ctrl-C")
            and (any(c != 130 for c in m.codes) or any(m.left) or max(m.seconds, default=0) > 1.0)
        )
        or (m.kind == "SIGKILL" and max(m.seconds, default=0) > 2.0)
        or (m.kind.startswith("--timeout") and max(m.seconds, default=0) > 1.0)
    ]
    for measure in broken:
        print(f"over the bound: {measure.case} ({measure.kind})")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
