"""`python -m interpreter ARGS` runs the `gamedef` command line (the same as the console script)."""

import sys

from interpreter.cli.commands import main

sys.exit(main())
