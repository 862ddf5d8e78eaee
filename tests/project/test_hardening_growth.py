"""Big valid inputs stay cheap: a rule that grows a list one item at a time is stopped by
the step budget within seconds (docs/language.md section 15, "Limits").

Copying a list of n items to add one is n items of work: a loop that does it 100,000 times
does 5 billion, and took minutes before the list limit stopped it. Storing a computed list
spends a step per item, so the budget of 1,000,000 steps stops it after about 1,400 turns.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from interpreter.cli.commands import main

HEADER = 'game grow "Grow" { players 2..2  seats [north, south] }\nvar xs: list int = []\n'


def run(tmp_path: Path, capsys, body: str) -> tuple[int, str, float]:
    source = (
        HEADER + 'procedure play() {\n    rule "Grow"\n' + textwrap.indent(body, "    ") + "\n    game over []\n}\n"
    )
    path = tmp_path / "grow.game"
    path.write_text(source)
    started = time.perf_counter()
    code = main(["run", str(path), "--quiet"])
    elapsed = time.perf_counter() - started
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err, elapsed


@pytest.mark.parametrize(
    "body",
    [
        "while true {\n    xs = xs + [1]\n}",
        "while true {\n    xs = xs + [count(xs) * 2]\n}",
        "let ys = [0]\nwhile true {\n    ys = ys + [1]\n}",
        "let ys = [0]\nwhile true {\n    let zs = ys + [1]\n    ys = zs\n}",
        "let ys = [[0]]\nwhile true {\n    ys = ys + [[count(ys)]]\n}",
    ],
    ids=["var", "computed-item", "local", "let", "list-of-lists"],
)
def test_a_list_grown_one_item_at_a_time_spends_the_step_budget(tmp_path, capsys, body):
    code, err, elapsed = run(tmp_path, capsys, body)
    assert code == 2, err
    assert "more than 1,000,000 steps without a decision" in err, err
    assert "grow.game:" in err
    assert elapsed < 10, f"took {elapsed:.1f} s"


def test_a_list_grown_within_the_budget_is_kept(tmp_path, capsys):
    """A list of 1,000 items grown one at a time costs about 500,000 steps: allowed."""
    code, err, _ = run(tmp_path, capsys, 'for i in 1..1000 {\n    xs = xs + [i]\n}\nlog "{count(xs)} {last(xs)}"')
    assert code == 0, err
