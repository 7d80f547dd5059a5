"""`python -m nonosat` runs the command line."""

from nonosat.cli import main

main()
