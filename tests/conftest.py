"""The slow cases of the parametrized sweeps, read from each test file's `SLOW_CASES`.

Why: the README's `pytest` must finish within minutes on a 2-core machine. A sweep keeps
its smaller cases in the default run (the fewest players, the first variant), so no test
function loses its coverage by default; its larger cases (more players, the longest games,
whole games by a search agent, Ray) run with `pytest -m slow`, which `.ci/run` runs too.
A file says which of its cases are slow beside the tests themselves: a whole test with
`@pytest.mark.slow`, some cases of a sweep in its `SLOW_CASES` (regular expressions
matched from the start of the test's name, its parameters included).
"""

from __future__ import annotations

import re

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the cases a file names in its `SLOW_CASES`; the `-m` filter of the run then
    leaves them out."""
    patterns: dict[object, re.Pattern[str] | None] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module not in patterns:
            cases = getattr(module, "SLOW_CASES", ())
            patterns[module] = re.compile("|".join(f"(?:{c})" for c in cases)) if cases else None
        pattern = patterns[module]
        if pattern is not None and pattern.match(item.name):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_columns_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS from the shell running the tests would wrap piped listings (terminal.listing
    honours it); a test that wants a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
