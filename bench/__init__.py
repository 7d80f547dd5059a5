"""Benchmarks and cross-checks that measure nonosat against peer solvers in the same run."""
