"""The long cases of the parametrized sweeps, marked `slow` here in one list.

Why: the README's `pytest` must finish within minutes on a 2-core machine. Each sweep below
keeps its smaller cases in the default run (the fewest players, the first variant), so no
test function loses its coverage by default; the larger cases (more players, the longest
games, whole games by a search agent, Ray) run with `pytest -m slow`, which `.ci/run` runs
too. A test marked `@pytest.mark.slow` in its own file stays slow as well.
"""

from __future__ import annotations

import re

import pytest

# Node ids (after `tests/`), as regular expressions matched from the start.
SLOW = [
    # Walls and Wonders: 2 and 3 players of each variant stay; 4 to 8 players are slow.
    r"test_walls_and_wonders_invariants\.py::\w+\[\w+-[4-8]p\]",
    # Missiles, Now!: 2 players stays.
    r"test_missiles_now_invariants\.py::test_every_random_game_ends_with_one_winner_by_a_win_condition\[[3-6]\]",
    # Whole games by the IS-MCTS agent: the first case of each game stays.
    r"test_theory\.py::test_whole_games_of_walls_and_wonders_with_ismcts\[3\]",
    r"test_theory\.py::test_whole_games_of_berlin_wall_with_ismcts\[2\]",
    r"test_theory\.py::test_whole_games_of_downfall_of_empires_with_ismcts_given_the_record\[4-russian\]",
    # Chance mode through the two longest games (the five others stay).
    r"test_theory\.py::test_every_bundled_game_plays_through_chance_mode_and_stable_action_numbers"
    r"\[(twid|downfall_of_empires)\]",
    # IS-MCTS playing many hands or searching Downfall of Empires' secret research; its
    # decisions' independence of what it cannot see stays, for cards and face-down pieces.
    r"test_theory\.py::test_ismcts_wins_chips_from_a_random_kuhn_player",
    r"test_theory\.py::test_ismcts_chooses_the_same_whatever_the_others_researched_in_secret",
    # Ray starts a local cluster; the process-pool simulations stay.
    r"test_simulate\.py::test_ray_gives_the_records_of_one_job",
    # The playout of the longest game (the six other games stay).
    r"test_playout\.py::test_a_playout_ends_in_the_state_that_apply_index_gives\[downfall_of_empires-4p\]",
    # The Wall is Down's canonical games with options (2, 3 and 4 players stay).
    r"test_transcripts\.py::test_canonical_game_matches_its_snapshot\[twid_(promos|solo_planet|solo_elite|alternate_goal)\]",
    # Whole random games of The Wall is Down followed for their VP causes: 2 players stays.
    r"test_narration_causes\.py::test_the_wall_is_down_tells_every_vp_change_with_its_cause\[(3p|4p|promos|alternate_goal|solo\w*)\]",
    # Each bundled game's own tests in the language: the designer-tests runner's unit tests stay.
    r"test_designer_tests\.py::test_every_bundled_test_file_passes",
    # Cases that compile The Wall is Down or Downfall of Empires afresh with options or a
    # variant (several seconds each): the other cases of their files stay.
    r"test_twid_game\.py::test_options_that_do_not_compose_are_refused_with_the_fix",
    # The docs' `balance --against` and `--sweep` commands, which compile The Wall is Down
    # again for each side or value (a minute or two each): the other docs' commands stay.
    r"test_balance\.py::test_each_balance_command_in_the_docs_is_valid\[balancing\.md:gamedef balance "
    r"(examples/twid_house_rules\.game|twid --players 2 --games 100 --sweep)",
    r"test_twid_game\.py::test_a_solo_view_has_no_nwo_track",
    r"test_twid_examples\.py::test_the_new_card_joins_the_pre_9_11_deck_only_with_its_variant",
    r"test_new\.py::test_each_skeleton_comes_with_one_passing_test_that_can_fail\[cards\]",
    r"test_doe_rules\.py::test_option_",
    # A 10,000-statement procedure compiled to measure its memory; the no-collection case stays.
    r"test_hardening_load\.py::test_a_long_procedure_is_compiled_without_memory_for_all_of_it_at_once",
    # The fuzzer's reproducibility (its first cases stay) and Berlin Wall's largest wall.
    r"test_fuzz\.py::test_cases_are_reproducible_from_seed_and_index",
    r"test_invariants\.py::\w+\[wall_of_china-5p-stacks5\]",
    # More single cases of about five seconds each, most a fresh compile of The Wall is Down
    # with a test variant or options; every file keeps its other cases in the default run.
    r"test_twid_fidelity\.py::test_conspiracy_theory_picks_blind_by_default",
    r"test_twid_fidelity\.py::test_a_destabilization_left_with_no_target_places_influence_with_the_option",
    r"test_twid_cards_post_2\.py::test_nord_stream_russia_may_decline_in_two_players",
    r"test_twid_cards_pre_1\.py::test_anti_globalization_economy_cards_have_one_op_less_until_the_round_ends",
    r"test_twid_game\.py::test_gamedef_run_twid_with_one_player_plays_a_solo_game",
    r"test_designer_check\.py::test_the_readme_card_plays_through_the_games_that_stopped",
    r"test_new\.py::test_a_new_card_set_for_twid_gives_every_needed_property",
    r"test_transcripts\.py::test_gamedef_replay_accepts_the_transcript\[twid_alternate_goal\]",
]
_SLOW = re.compile("|".join(f"(?:{p})" for p in SLOW))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the cases named in SLOW; the `-m` filter of the run then leaves them out."""
    for item in items:
        nodeid = item.nodeid.removeprefix("tests/")
        if _SLOW.match(nodeid):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_columns_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS from the shell running the tests would wrap piped listings (terminal.listing
    honours it); a test that wants a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
