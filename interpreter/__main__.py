"""`python -m interpreter ARGS` runs the `gamedef` command line (the same as the console script)."""

from interpreter.cli import run

run()
