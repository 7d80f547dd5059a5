"""The fuzzer's failures kept: a reproducer and a note for the first few of each category, and a
list of all of them for the JSON report.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.fuzz_mutants import Mutant

KEPT_PER_CATEGORY = 50
"""Reproducers kept per failure category; the rest are counted and listed, not written."""
LISTED = 1000
"""Failures listed in the JSON report (all are counted)."""
LARGEST_KEPT = 256 * 1024
"""Bytes: larger mutants are not written to the failures folder; `--replay` makes them again."""


class Keeper:
    """Writes reproducers of failures, a few per category, with a note of what happened."""

    def __init__(self, folder: Path, run_seed: int, timeout: float) -> None:
        self.folder = folder
        self.run_seed = run_seed
        self.timeout = timeout
        self.kept: Counter[str] = Counter()
        self.listed: list[dict[str, object]] = []

    def keep(self, mutant: Mutant, category: str, where: str, detail: str, command: str) -> None:
        """Record a failure; write its mutant and note while few of its category are kept."""
        entry: dict[str, object] = {
            "index": mutant.index,
            "where": where,
            "category": category,
            "group": mutant.seed.group,
            "seed": mutant.seed.name,
            "detail": detail[:4000],
            "replay": self.replay(mutant.index),
            "file": None,
        }
        if self.kept[category] < KEPT_PER_CATEGORY:
            self.kept[category] += 1
            self.folder.mkdir(parents=True, exist_ok=True)
            stem = f"{mutant.index:06d}-{where}-{category}"
            note = (
                f"{category} ({where}) from seed "
                f"{mutant.seed.name}\n\n{detail}\n\nreproduce: {self.replay(mutant.index)}\n"
            )
            if len(mutant.data) <= LARGEST_KEPT:
                kept = self.folder / f"{stem}{mutant.seed.suffix}"
                kept.write_bytes(mutant.data)
                entry["file"] = str(kept)
                note += f"or: {command.replace('FILE', str(kept))}\n"
            (self.folder / f"{stem}.note.txt").write_text(note)  # never the mutant's own name, even for .txt
        if len(self.listed) < LISTED:
            self.listed.append(entry)

    def replay(self, index: int) -> str:
        return f"python -m bench.fuzz --seed {self.run_seed} --timeout {self.timeout:g} --replay {index}"
