"""Write the canonical transcripts to tests/transcripts/<name>.toml.

    python tests/make_transcripts.py            # write the missing ones
    python tests/make_transcripts.py --force    # rewrite all (after a deliberate rules change)
    python tests/make_transcripts.py --force missiles waw   # rewrite those whose names start so

Run once; the files are committed and `tests/runtime/test_transcripts.py` replays them.
"""

from __future__ import annotations

import sys

from repo_paths import ROOT, TESTS

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TESTS))

from canonical_games import CANONICAL, TRANSCRIPTS, play, transcript  # noqa: E402

from interpreter.runtime.saving import write_transcript  # noqa: E402


def main(argv: list[str]) -> int:
    force = "--force" in argv
    prefixes = [arg for arg in argv if not arg.startswith("-")]
    TRANSCRIPTS.mkdir(exist_ok=True)
    for name in CANONICAL:
        if prefixes and not name.startswith(tuple(prefixes)):
            continue
        path = TRANSCRIPTS / f"{name}.toml"
        if path.exists() and not force:
            print(f"{path}: exists (use --force to rewrite)")
            continue
        game, state, moves, _ = play(name)
        write_transcript(transcript(name, game, state, moves), path)
        print(f"{path}: {len(moves)} moves, result {list(game.result(state))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
