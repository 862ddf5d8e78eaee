"""The Wall is Down as a whole: invariants over many random games of 1 to 4 players,
replay and save/load identity, observations that leak nothing, the command line
(`gamedef run twid`, `gamedef cards twid`)."""

from __future__ import annotations

import random
import tomllib

import pytest
import tomli_w

from interpreter.cli import main
from interpreter.saving import state_from_dict, state_to_dict
from tests.twid_helpers import game

SEEDS = range(1, 5)


def zones(g, s) -> list[str]:
    """Every card where the rules keep cards; a card being played (`acting_card`, or a text
    resolving, perhaps inside another's) is in none of them."""
    out = list(g.var(s, "deck")) + list(g.var(s, "post_deck")) + list(g.var(s, "discard"))
    out += list(g.var(s, "removed")) + list(g.var(s, "in_play"))
    for h in g.var(s, "hand").values():
        out += list(h)
    for name in ("revealed", "header"):
        out += [c for c in g.var(s, name).values() if c]
    return out


def random_game(g, players: int, seed: int, check=None, limit: int = 20_000):
    rnd = random.Random(seed)
    s = g.start(players=players, seed=seed)
    moves = []
    while not g.is_over(s):
        assert len(moves) < limit, "the game does not end"
        if check:
            check(s)
        labels = [m.label for m in g.legal_moves(s)]
        assert len(labels) == len(set(labels)), labels
        move = rnd.choice(labels)
        moves.append(move)
        s = g.apply(s, move)
    return s, moves


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_and_keep_every_card_and_cube(players, seed):
    g = game()
    deck = [c for c in g.compiled.types["TwidCard"] if g.compiled.fields["number"][c] not in ("P1", "P2")]
    if players == 1:
        deck = [c for c in deck if not g.compiled.fields["removed_in_solo"][c]]

    def check(s):
        where = zones(g, s)
        assert len(where) == len(set(where)), "a card is in two places"
        missing = set(deck) - set(where)
        assert missing <= {g.var(s, "acting_card"), *g.var(s, "texts_resolving")}, missing
        cubes = 80 if players == 2 else 40
        for side, row in g.var(s, "influence").items():
            assert all(n >= 0 for n in row.values())
            assert sum(row.values()) <= cubes, side
        assert all(sum(g.var(s, "influence")[t][x] for t in g.var(s, "influence")) <= 8 for x in ("germany", "iraq"))
        assert all(v >= 0 for v in g.var(s, "vp").values())

    s, moves = random_game(g, players, seed, check)
    assert sorted(zones(g, s)) == sorted(set(zones(g, s)))
    result = g.result(s)
    assert result is not None
    if players > 1:
        assert len(result) == 1 and result[0] in g.seats_for(players)
        lines = g.narrate(s)
        # How games end: 10 VP, the NWO card (rounds 6 to 8), or the end of round 8.
        ended = any("reaches" in line or line == "NWO: the game ends" for line in lines)
        assert ended or (g.var(s, "round") == 8 and g.var(s, "action_phase") == 0)


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_replays_to_the_same_state_and_survives_save_and_load(players):
    g = game()
    s, moves = random_game(g, players, 11)
    again = g.start(players=players, seed=11)
    for i, move in enumerate(moves):
        again = g.apply(again, move)
        if i == len(moves) // 2:
            saved = tomllib.loads(tomli_w.dumps(state_to_dict(g, again)))
            loaded = state_from_dict(g, saved)
            assert loaded == again
    assert again == s


@pytest.mark.parametrize("players", [2, 4])
def test_no_hand_or_header_choice_shows_in_another_seats_observation_or_narration(players):
    g = game()
    seats = g.seats_for(players)
    rnd = random.Random(5)
    s = g.start(players=players, seed=5)
    for _ in range(400):
        if g.is_over(s):
            break
        for viewer in seats:
            obs = g.observation(s, viewer)["vars"]
            for other in seats:
                if other != viewer:
                    assert obs["hand"][other] == {"hidden": len(g.var(s, "hand")[other])}
                    assert isinstance(obs["header"][other], dict)
            secret = {c for other in seats if other != viewer for c in g.var(s, "hand")[other]}
            secret |= {c for other in seats if other != viewer for c in [g.var(s, "header")[other]] if c}
            titles = {g.compiled.rt.display(c) for c in secret}
            for line in g.narrate(s, player=viewer):
                assert not (line.startswith(tuple(o for o in seats if o != viewer)) and " draws " in line), line
                assert not any(f"chose {t} as header" in line for t in titles), line
        s = g.apply_index(s, rnd.randrange(len(g.legal_moves(s))))


def test_gamedef_run_twid_plays_four_players_by_default(capsys):
    assert main(["run", "twid", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "US, EU, Russia, China" in out and "game over" in out


def test_gamedef_run_twid_with_one_player_plays_a_solo_game(capsys):
    assert main(["run", "twid", "--players", "1", "--seed", "3", "--option", "solo_goal=planet", "--quiet"]) == 0
    assert "The Wall is Down: Solo" in capsys.readouterr().out


def test_gamedef_cards_lists_cards_as_a_designer_reads_them(capsys):
    assert main(["cards", "twid", "--where", "block=W", "--where", "ops=4"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    head = "14  Fall of the Berlin Wall — epoch pre 9/11 · ops 4 · block W · types Political · removed_after_text"
    assert lines[0] == head
    assert lines[1].startswith("    Remove 1 Russian influence on Germany, add 1 West influence on Germany.")
    titles = [line.split("  ", 1)[1].split(" — ")[0] for line in lines if not line.startswith(" ")]
    assert titles == ["Fall of the Berlin Wall", "Wolfowitz doctrine", "9/11 attacks", "War on terror"]
    assert out.err.strip() == "(4 cards)"


def test_gamedef_cards_filters_by_words_and_reports_a_bad_filter(capsys):
    assert main(["cards", "twid", "--search", "Lybia", "--kind", "TwidCard"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert [h.split(" — ")[0] for h in heads] == ["25  Muammar Gaddafi", "76  Libyan civil war"]
    assert main(["cards", "twid", "--where", "opz=1"]) == 2
    assert "did you mean 'ops'?" in capsys.readouterr().err
    assert main(["cards", "twid", "--search", "no such words"]) == 1


def test_the_header_names_the_usual_player_count(capsys, tmp_path):
    assert main(["info", "twid"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "The Wall is Down (twid): 1 to 4 players, 4 by default"
    bad = tmp_path / "bad.game"
    bad.write_text('game bad { players 2..4 default 5 }\nprocedure play() {\n    rule "r"\n    game over []\n}\n')
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.game:1:1: error: the default of 5 players is outside 2..4" in err


def test_options_that_do_not_compose_are_refused_with_the_fix(capsys):
    assert main(["run", "twid", "--players", "2", "--option", "solo_goal=planet", "--quiet"]) == 2
    assert "--option solo_goal is for a solo game: add --players 1" in capsys.readouterr().err
    assert main(["run", "twid", "--players", "1", "--option", "alternate_goal=true", "--quiet"]) == 2
    assert "drop --option alternate_goal" in capsys.readouterr().err
    both = ["--option", "promos=true", "--option", "alternate_goal=true"]
    assert main(["run", "twid", "--players", "4", *both, "--quiet"]) == 0
