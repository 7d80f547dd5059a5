"""What the fuzzer counts for each mutant: the categories through the API and the command line,
which of them are failures, and how long a stuck worker is given.

See bench/fuzz.py for what each category means.
"""

from __future__ import annotations

OK, REFUSED, OTHER, TRACEBACK, HANG, UNNAMED = "ok", "refused", "other NonosatError", "traceback", "hang", "unnamed"
API_CATEGORIES = (OK, REFUSED, OTHER, TRACEBACK, HANG, UNNAMED)
UNDOCUMENTED = "undocumented"
CLI_CATEGORIES = (OK, TRACEBACK, HANG, UNDOCUMENTED, UNNAMED)
FAILURES = (TRACEBACK, HANG, UNDOCUMENTED, UNNAMED)
"""The categories that must be 0."""
SEVERITY = {TRACEBACK: 0, HANG: 1, UNNAMED: 2, OTHER: 3, REFUSED: 4, OK: 5}
KILL_SLACK = 5.0
"""Seconds past S + 1 after which a worker stuck in one stage is killed (its hang is counted either way)."""
