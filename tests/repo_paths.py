"""Where the tests find the repository: its root and the tests' own folder, whichever
folder a test file sits in (tests are in folders by layer and by game)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
