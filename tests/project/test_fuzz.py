"""A fixed-seed sample of the mutation fuzzer in tests/fuzz.py, run with the slow suites
(`pytest -m slow`; CI runs them).

Why: a .game file, transcript or saved state may come from anyone, and the README promises
that each error such a file causes is a message (exit 2), never a traceback; nor may a file
hang the interpreter, exhaust its memory or make it read outside the game's folder. The
sample is sized to finish well within a minute and a half on a 2-core machine; larger runs
are `python -m tests.fuzz --cases 2000 --seed 1 --report /tmp/fuzz_report.txt`.
"""

from __future__ import annotations

import fuzz
import pytest

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The fuzzer's reproducibility (its first cases stay) and Berlin Wall's largest wall.
    r"test_cases_are_reproducible_from_seed_and_index",
]

SEED = 1
CASES = 300  # 600 took 556 s on this 2-core machine beside another suite (a mutant of a file that includes The
# Wall is Down is compiled afresh), too long for CI beside the rest; each hang adds TIME_LIMIT
TIME_LIMIT = 10.0  # a healthy case takes well under a second


@pytest.mark.slow  # whole games: `pytest -m slow`
def test_fuzz_sample_has_no_findings() -> None:
    campaign = fuzz.run_campaign(SEED, range(CASES), time_limit=TIME_LIMIT)
    found = fuzz.findings(campaign)
    details = "\n".join(fuzz.format_finding(f, verbose=True) for f in found)
    text = fuzz.printable(fuzz.summary(campaign) + "\n\n" + details)
    print(text)  # pytest shows it on failure: each finding's mutation (a diff), command and output
    assert not campaign.notes, "some base inputs could not be built:\n" + "\n".join(campaign.notes)
    assert len(campaign.results) == CASES
    assert not found, f"{len(found)} findings in {CASES} fuzz cases (seed {SEED}):\n{text}"


FAST_CASES = 6  # the default run's representative of the sample above: its first cases


def test_the_first_fuzz_cases_have_no_findings() -> None:
    """The sample's first cases, in the default run: a mutant that makes the interpreter
    print a traceback, hang or read outside its folder is caught without `-m slow`."""
    campaign = fuzz.run_campaign(SEED, range(FAST_CASES), jobs=1, time_limit=TIME_LIMIT)
    found = fuzz.findings(campaign)
    details = "\n".join(fuzz.format_finding(f, verbose=True) for f in found)
    assert not campaign.notes, "some base inputs could not be built:\n" + "\n".join(campaign.notes)
    assert len(campaign.results) == FAST_CASES
    assert not found, f"{len(found)} findings in the first {FAST_CASES} fuzz cases (seed {SEED}):\n{details}"


def test_cases_are_reproducible_from_seed_and_index(tmp_path) -> None:
    """A finding is only useful if `--seed S --case I` makes the same mutant again."""
    bases = fuzz.build_bases(tmp_path, [])
    for index in range(40):
        a, b = fuzz.make_case(SEED, index, bases), fuzz.make_case(SEED, index, bases)
        assert (a.operator, a.mutated, a.commands, a.links) == (b.operator, b.mutated, b.commands, b.links)
    assert len({fuzz.make_case(SEED, i, bases).mutated for i in range(40)}) > 30


def test_the_sandbox_sees_a_read_outside_the_mutants_folder(tmp_path) -> None:
    """A canary for the audit hook: were it broken, every outside read would pass as ok.

    The file named on the command line is read wherever it is; from the case folder's point
    of view that is a read outside it, so the classifier must call it one."""
    case, elsewhere = tmp_path / "case", tmp_path / "elsewhere"
    case.mkdir()
    elsewhere.mkdir()
    game = elsewhere / "t.game"
    game.write_bytes((fuzz.ROOT / "examples" / "tictactoe.game").read_bytes())
    worker = fuzz.Worker(tmp_path, 0, TIME_LIMIT, fuzz.MEMORY_LIMIT)
    try:
        outside = fuzz.classify(["check"], worker.run({"cwd": str(case), "argv": ["check", str(game)]}))
        inside = fuzz.classify(["check"], worker.run({"cwd": str(elsewhere), "argv": ["check", "t.game"]}))
    finally:
        worker.stop()
    assert inside.cls == "ok" and inside.exit == 0, inside
    assert outside.cls == "outside-read" and outside.exit == 0, outside
    assert any(str(game) in note for note in outside.outside)


def test_a_new_scratch_file_is_no_outside_read_but_reading_a_file_is(tmp_path):
    """`gamedef check` keeps its two processes' shared counts in unnamed temporary files:
    making a new file reads nothing; opening an existing file outside the folder does."""
    import os

    existing = tmp_path / "secret.txt"
    existing.write_text("x", encoding="utf-8")
    assert fuzz._new_file((str(tmp_path), "w+", os.O_RDWR | os.O_CREAT))  # a folder opened to write: O_TMPFILE
    assert fuzz._new_file((str(tmp_path / "new"), None, os.O_RDWR | os.O_CREAT | os.O_EXCL))
    assert not fuzz._new_file((str(existing), "r", os.O_RDONLY))
    assert not fuzz._new_file((str(existing), "w", os.O_WRONLY | os.O_CREAT | os.O_TRUNC))
    assert not fuzz._new_file((str(tmp_path), "r", os.O_RDONLY))
