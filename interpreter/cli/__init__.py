"""The `gamedef` command line: commands (main), the terminal's styling (terminal) and a
person playing at the terminal (human). The top layer: nothing in the library imports it.
"""

from interpreter.cli.commands import main

__all__ = ["main"]
