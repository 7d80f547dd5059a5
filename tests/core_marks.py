"""What the tests expect of the compiled core, which a user without a C compiler (or with
NONOSAT_PURE_PYTHON set) does not have: the suite passes there too, with the same verdicts, the
SAT engine answering where the conflict-driven search would (README, "Set-up")."""

from __future__ import annotations

import pytest

from nonosat.solver import compiled

needs_core = pytest.mark.skipif(compiled.core is None, reason="the compiled core was not built (or is turned off)")
"""For a test of the compiled core itself (its searches, its engines' names)."""

SEARCH_METHOD = "cdcl" if compiled.core is not None else "sat"
"""The method that answers a puzzle line logic leaves open, by default."""

SEARCH_SAID = "CDCL" if compiled.core is not None else "SAT (minisat22, blocks)"
"""How the status line names it."""
