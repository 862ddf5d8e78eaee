"""The bundled games and examples pass `gamedef check` without a warning: a designer who
copies one, or reads its warnings to learn what the checker means, starts from a file the
checker has nothing to say about (a variable written and never read was one: it costs every
position a slot and says nothing)."""

from __future__ import annotations

import pytest
from repo_paths import ROOT

from interpreter.cli.commands import main

FILES = sorted(p for p in (*ROOT.glob("gamedefs/*.game"), *ROOT.glob("examples/*.game")) if ".test." not in p.name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_bundled_game_checks_without_a_warning(capsys, path):
    code = main(["check", str(path), "--budget", "0"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "warning" not in out.err + out.out, out.err
    assert ": ok" in out.out
