"""The statistics behind `gamedef balance`'s verdicts: Holm and Benjamini–Hochberg against
the textbook's values, Cochran–Mantel–Haenszel and the Mantel–Haenszel difference against
hand-computed ones, a card a strong seat plays more not mistaken for a strong card, the
first player's advantage measured within seat, and on a small card game written for these
tests (tests/play/balance/toy_cards.game) a planted jackpot flagged first and the fair game
flagging nothing.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.core.errors import UsageError
from interpreter.play import balance as bal
from interpreter.play import simulate as sim
from interpreter.play import stats
from interpreter.play.simulate import GameRecord

TOY = str(Path(__file__).resolve().parent / "balance" / "toy_cards.game")


# ---- corrections -------------------------------------------------------------------------------
def test_holm_and_bh_of_a_worked_example():
    """p = 0.01, 0.04, 0.03, 0.005 (m = 4). Holm: sorted 0.005·4 = 0.02, 0.01·3 = 0.03,
    0.03·2 = 0.06, 0.04·1 = 0.04 raised to 0.06 (monotone). Benjamini–Hochberg: 0.005·4/1
    = 0.02, 0.01·4/2 = 0.02, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04. Both in the order given."""
    p = [0.01, 0.04, 0.03, 0.005]
    assert stats.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert stats.adjust(p, "holm") == stats.holm(p) and stats.adjust(p, "bh") == stats.benjamini_hochberg(p)
    assert stats.holm([0.5, 0.9]) == [1.0, 1.0]  # capped at 1


def test_the_fifteen_p_values_of_benjamini_and_hochberg_1995():
    """The example of Benjamini and Hochberg's paper: of these 15 p-values, a family-wise
    procedure rejects 3 at 0.05 and the false discovery rate procedure 4."""
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528]
    p += [0.7590, 1.000]
    assert sum(a < 0.05 for a in stats.holm(p)) == 3
    assert sum(a < 0.05 for a in stats.benjamini_hochberg(p)) == 4


# ---- Cochran–Mantel–Haenszel -------------------------------------------------------------------
def test_cmh_of_one_stratum_is_pearson_times_n_minus_1_over_n():
    """One 2×2 table [[10, 20], [30, 40]] (exposed: 10 of 30 succeed; not: 30 of 70):
    Pearson's chi-square is N(ad - bc)² / (r1 r2 c1 c2) = 100·200² / (30·70·40·60) = 0.79365;
    the Mantel–Haenszel statistic is (N - 1)/N of it, 0.78571."""
    chi2, p = stats.cmh([stats.Stratum(30, 10, 70, 30)])
    pearson = 100 * (10 * 40 - 20 * 30) ** 2 / (30 * 70 * 40 * 60)
    assert pearson == pytest.approx(0.793651, abs=1e-6)
    assert chi2 == pytest.approx(pearson * 99 / 100)
    assert p == pytest.approx(2 * (1 - stats._NORMAL.cdf(math.sqrt(chi2))))


def test_cmh_and_mh_difference_of_two_strata_by_hand():
    """Stratum 1: 6 of 10 exposed succeed, 4 of 10 not; stratum 2: 5 of 20 and 5 of 20.
    E[a] = 5 and 5; a - E = 1 and 0; Var = 10·10·10·10/(20²·19) = 1.315789 and
    20·20·10·30/(40²·39) = 1.923077: chi-square 1/3.238866 = 0.308749.
    The difference: weights 10·10/20 = 5 and 20·20/40 = 10, differences 0.2 and 0:
    5·0.2/15 = 0.066667. Its variance takes each rate with a success and a failure added,
    7/12 and 5/12, 6/22 and 6/22: 5²(2·(35/144)/10) + 10²(2·(96/484)/20) = 1.215278 +
    1.983471 = 3.198749, over 15²: standard error 0.119234."""
    strata = [stats.Stratum(10, 6, 10, 4), stats.Stratum(20, 5, 20, 5)]
    chi2, _ = stats.cmh(strata)
    assert chi2 == pytest.approx(0.308749, abs=1e-6)
    est = stats.mh_difference(strata)
    assert est.value == pytest.approx(0.066667, abs=1e-6)
    assert est.se == pytest.approx(0.119234, abs=1e-6)
    assert (est.low, est.high) == pytest.approx((est.value - 1.959964 * est.se, est.value + 1.959964 * est.se))


def test_simpsons_paradox_pooled_shows_an_effect_the_strata_do_not():
    """Within each stratum the exposed win exactly as often as the others (80% and 20%), but
    most of the exposed are in the strong stratum: pooled, they win 74% against 26%. The
    stratified test and difference see nothing."""
    strata = [stats.Stratum(90, 72, 10, 8), stats.Stratum(10, 2, 90, 18)]
    pooled = stats.cmh([stats.Stratum(100, 74, 100, 26)])
    assert pooled[1] < 1e-10
    chi2, p = stats.cmh(strata)
    assert chi2 == pytest.approx(0.0) and p == pytest.approx(1.0)
    assert stats.mh_difference(strata).value == pytest.approx(0.0)
    assert stats.cmh([stats.Stratum(5, 2, 0, 0)]) == (0.0, 1.0)  # no one unexposed: no evidence
    assert stats.mh_difference([stats.Stratum(5, 2, 0, 0)]) is None


def test_paired_differences():
    """Differences 1, 2, 3, 4: mean 2.5, sample deviation 1.290994, error 0.645497."""
    est = stats.paired([1, 2, 3, 4])
    assert est.value == pytest.approx(2.5) and est.se == pytest.approx(0.645497, abs=1e-6)
    assert math.isinf(stats.paired([3]).se)


def test_the_exact_sign_test_by_hand():
    """Four games turned one way and none the other: 2 · (1/2)^4 = 0.125, which a normal
    interval of the mean of 200 differences (+0.02 ± 0.0195) would call a change. Seven
    against one: 2 · (1 + 8) / 256. Only the non-zero differences count; none: 1."""
    assert stats.sign_test([1.0] * 4 + [0.0] * 196) == pytest.approx(0.125)
    assert stats.sign_test([1.0] * 7 + [-1.0] + [0.0] * 50) == pytest.approx(2 * 9 / 256)
    assert stats.sign_test([0.5, -2.0, 3.0]) == pytest.approx(1.0)
    assert stats.sign_test([0.0] * 10) == 1.0
    # the difference a 5% test finds 4 times in 5: (1.959964 + 0.841621) standard errors
    assert stats.detectable(0.01) == pytest.approx(0.02801585, abs=1e-7)


# ---- the report's figures on made-up records ------------------------------------------------------
def _rec(seed: int, winner: str, chose: dict[str, list[str]], first: str = "a") -> GameRecord:
    cards = tuple((seat, card, 1) for seat, names in chose.items() for card in names)
    return GameRecord(seed, (winner,), 10, None, "", "", cards, (), first)


def test_a_card_the_strong_seat_plays_more_is_not_flagged():
    """Seat a wins 160 of 200 games. a chooses card x in 180 of its games, b in 20 of its:
    within each seat x changes nothing (a wins 80% with it and without, b 20%). Pooled over
    seat-games x's choosers win 74% against 26%, the old report's "higher"; within seat its
    effect is 0 and it is not flagged."""
    records = []
    for i in range(200):
        winner = "a" if i % 5 != 0 else "b"  # in every block of five games
        block = (i // 5) % 10  # whole blocks: who chooses x is independent of who wins
        chose = {"a": ["x"] if block != 9 else [], "b": ["x"] if block == 9 else []}
        records.append(_rec(i, winner, chose))
    tests = bal.component_tests({2: records}, {2: ("a", "b")}, {"x": ("Card", "X")})
    (x,) = tests["components"]
    assert x["effect"] == pytest.approx(0.0, abs=1e-9) and x["verdict"] == "no effect shown"
    assert tests["correction"] == "Holm" and tests["tested"] == 1 and tests["flagged"] == 0


def test_a_jackpot_among_fair_cards_is_flagged_first_and_alone():
    """Twenty cards chosen at random by both seats, winning as often as not; a jackpot whose
    chooser wins every game it is chosen in. Only the jackpot is flagged, first, higher."""
    import random

    rng = random.Random(7)
    fair = [f"c{i}" for i in range(20)]
    records = []
    for i in range(300):
        chose = {s: rng.sample(fair, 5) for s in ("a", "b")}
        winner = rng.choice(["a", "b"])
        if i % 6 == 0:
            chose[winner].append("jackpot")
        records.append(_rec(i, winner, chose))
    catalogue = {name: ("Card", name) for name in [*fair, "jackpot"]}
    tests = bal.component_tests({2: records}, {2: ("a", "b")}, catalogue)
    first = tests["components"][0]
    assert first["card"] == "jackpot" and first["verdict"] == "higher" and first["low"] > 0
    assert tests["flagged"] == 1


def test_first_player_is_measured_within_seat_when_it_changes():
    """The first seat alternates; seat a wins 3 of 4 games whatever the order, so within seat
    the first move is worth nothing, however the raw first-mover rate reads. Then a game
    where the first mover always wins: within seat +100 points."""
    seat_only = [_rec(i, "a" if (i // 2) % 4 else "b", {}, first="a" if i % 2 else "b") for i in range(200)]
    fp = bal.first_player(seat_only, 2, ("a", "b"))
    assert fp["method"] == "within seat"
    assert fp["within_seat"]["effect"] == pytest.approx(0.0, abs=1e-9)
    assert fp["reading"].startswith("no measurable first-player advantage within seat")
    mover = [_rec(i, "a" if i % 2 else "b", {}, first="a" if i % 2 else "b") for i in range(40)]
    fp = bal.first_player(mover, 2, ("a", "b"))
    assert fp["within_seat"]["effect"] == pytest.approx(1.0) and fp["reading"].startswith("a seat wins more")


# ---- a small card game -------------------------------------------------------------------------------
def test_a_card_counts_as_played_when_its_text_ran():
    """In the toy game each seat plays two cards: each chosen card's `effect` runs once, in
    the game's record as performed, and nothing performed was not chosen."""
    game = load_game(TOY)
    setup = sim.Setup(game=TOY, players=2)
    for seed in range(1, 6):
        r = sim.play_game(game, setup, seed)
        assert sorted((s, c) for s, c, _ in r.performed) == sorted((s, c) for s, c, _ in r.cards)
        assert all(k == 1 for _, _, k in r.performed) and len(r.cards) == 4


def _toy(capsys, *argv: str) -> dict:
    code = main(["balance", TOY, "--games", "300", "--jobs", "1", *argv, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_the_toy_games_jackpot_is_flagged_first(capsys):
    """With its bonus of 6 the jackpot is flagged first, higher, its interval above 0; with
    `jackpot_bonus=0` it is a plain card and no card is flagged (West's head start of a
    point is a seat's, not a card's)."""
    doc = _toy(capsys)
    first = doc["component_tests"]["components"][0]
    assert first["card"] == "jackpot" and first["verdict"] == "higher" and first["low"] > 0.2
    fair = _toy(capsys, "--option", "jackpot_bonus=0")
    assert fair["component_tests"]["flagged"] == 0
    assert fair["counts"][0]["win_rates"][0]["rate"] > 0.5  # West's head start shows in its win rate


def test_the_cards_played_instead_of_the_jackpot_are_not_flagged_for_it(capsys):
    """Each seat of the toy game plays two cards: a seat that plays the jackpot plays one plain
    card fewer, so every plain card (all alike) is played less often in the seat-games the
    jackpot wins, and read against all the others two of them were flagged `lower` at 300
    games. Once the jackpot is flagged, the others are read again within the seat-games
    that played it alike: only the jackpot is flagged, and the method says what it split by."""
    doc = _toy(capsys)
    tests = doc["component_tests"]
    assert [c["card"] for c in tests["components"] if c["verdict"] in ("higher", "lower")] == ["jackpot"]
    assert tests["given"] == ["jackpot"] and tests["strata"].endswith("whether the seat played Jackpot")
    plain = [c for c in tests["components"] if c["card"].startswith("plain")]
    assert all(c["verdict"] == "no effect shown" for c in plain)
    # the effect each needs to be flagged 4 times in 5: the first of 9 tests is read at 0.05/9
    z = stats._NORMAL.inv_cdf(1 - 0.05 / 18) + stats._NORMAL.inv_cdf(0.8)
    assert all(c["detectable"] == pytest.approx(z * c["se"]) for c in plain)
    assert tests["detectable_median"] == pytest.approx(sorted(c["detectable"] for c in tests["components"])[4])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 1001, 2001])
def test_the_wall_is_down_raises_no_alarm_and_its_planted_jackpot_is_flagged_first(capsys, seed):
    """The unmodified The Wall is Down (2 players, random, 200 games) flags at most one card
    (measured: none in six runs of 200 games); the same game with a card giving 8 VP to the
    player whose text it is (tests/play/balance/twid_jackpot.game) flags that card first."""
    argv = ["--players", "2", "--games", "200", "--seed", str(seed), "--jobs", "2", "--json"]
    assert main(["balance", "twid", *argv]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["component_tests"]["flagged"] <= 1
    jackpot = str(Path(__file__).resolve().parent / "balance" / "twid_jackpot.game")
    assert main(["balance", jackpot, *argv]) == 0
    doc = json.loads(capsys.readouterr().out)
    first = doc["component_tests"]["components"][0]
    assert first["card"] == "jackpot" and first["verdict"] == "higher"


# ---- a change against its base -----------------------------------------------------------------------
def test_a_variant_against_its_base_on_the_same_seeds(capsys):
    """`--variant big_start --against base`: the same 300 seeds with and without West's larger
    head start. The games are paired (the shuffles and dice are the seed's, so the games
    that the head start does not decide end alike), and West's win rate rises by the
    paired difference, its interval above 0, which the report says in a plain sentence."""
    doc = _toy(capsys, "--variant", "big_start", "--against", "base")
    a = doc["against"]
    assert a["base"] == "the game without big_start"
    (c,) = a["counts"]
    assert 0 < c["same_games"] < 300  # common random numbers: most games alike, some turned
    west = c["seats"]["west"]
    base_rate = sum(1 / len(r["winners"]) for r in doc["base_records"]["2"] if "west" in r["winners"])
    assert west["before"] == pytest.approx(base_rate / 300)
    assert west["difference"] > 0.1 and west["low"] > 0 and west["verdict"] == "changed"
    assert c["seats"]["east"]["difference"] == pytest.approx(-west["difference"])  # a win is West's or East's
    paired = [
        (("west" in r["winners"]) / len(r["winners"]) if r["winners"] else 0.0)
        - (("west" in b["winners"]) / len(b["winners"]) if b["winners"] else 0.0)
        for r, b in zip(doc["records"]["2"], doc["base_records"]["2"], strict=True)
    ]
    assert west["difference"] == pytest.approx(sum(paired) / 300)
    main(["balance", TOY, "--games", "300", "--jobs", "1", "--variant", "big_start", "--against", "base"])
    out = capsys.readouterr().out
    assert re.search(r"West \+\d+\.\d pts, 95%: \+\d+\.\d to \+\d+\.\d \(from [\d.]+% to [\d.]+%\): changed", out)


def test_the_same_rules_against_themselves_differ_in_nothing(capsys):
    """Common random numbers: the same game on the same seeds is the same game, every one of
    them, and every difference is 0: each figure says `no difference`, not merely that no
    change was shown, and so does the verdict above them. A variant that writes a rule
    again as it was (the toy game's `same`) is the same game too."""
    for argv in (["--against", TOY], ["--variant", "same", "--against", "base"]):
        doc = _toy(capsys, *argv)
        (c,) = doc["against"]["counts"]
        assert c["same_games"] == 300 and doc["against"]["same_everywhere"]
        assert all(s["difference"] == 0 and s["verdict"] == "no difference" for s in c["seats"].values())
        assert c["decisions"]["verdict"] == "no difference"
        assert all(r["verdict"] == "no difference" for r in doc["against"]["components"])
        assert doc["against"]["changed_components"] == []
    main(["balance", TOY, "--games", "300", "--jobs", "1", "--variant", "same", "--against", "base"])
    out = capsys.readouterr().out
    assert "verdict: no difference: every game ended alike under both rules" in out
    assert "West: no difference (59.8% under both, in every game)" in out


def _pair(seed: int, base_winner: str, winner: str, ending: str = "x", rounds: int = 3) -> tuple:
    a = GameRecord(seed, (base_winner,), 10, rounds, "", ending)
    b = GameRecord(seed, (winner,), 10, rounds, "", ending)
    return a, b


def _against(pairs) -> dict:
    base, changed = [a for a, _ in pairs], [b for _, b in pairs]
    section = {"counts": [{"players": 2, "seats": ["a", "b"]}]}
    return bal.against(section, {2: base}, section, {2: changed}, "base")


def test_four_games_turned_one_way_are_too_few_to_tell():
    """200 paired games of which 4 changed winner, all to seat a: the mean +2 pts has a normal
    interval above 0 (+0.06 to +3.9), which alone would say `changed`; four coin tosses
    fall the same way one time in eight (the exact sign test), so the report does not."""
    pairs = [_pair(i, "b", "a") for i in range(4)] + [_pair(i, "a", "a") for i in range(4, 200)]
    c = _against(pairs)["counts"][0]
    seat = c["seats"]["a"]
    assert seat["low"] > 0 and seat["verdict"] == "no change shown"
    assert seat["differ"] == 4 and seat["p"] == pytest.approx(0.125)
    pairs = [_pair(i, "b", "a") for i in range(9)] + [_pair(i, "a", "a") for i in range(9, 200)]
    assert _against(pairs)["counts"][0]["seats"]["a"]["verdict"] == "changed"  # 9 of 9: p = 0.004


def test_a_change_that_deals_every_game_afresh_raises_no_alarm_in_19_runs_of_20():
    """A change that alters no rule that matters but draws the dice otherwise (a die rolled
    and read by nothing) makes every game another game of the same law. A report reads a
    seat's win, the final round and each of three endings; tested one by one at 95%, one
    of them says `changed` by chance in about a fifth of such reports. Read together
    (Holm, the mirror seat counted once), in 300 made-up reports of 200 games fewer than
    8% say `changed` anywhere (5% expected)."""
    import random

    rng = random.Random(7)
    alarms = 0
    runs = 300
    for _ in range(runs):
        pairs = []
        for i in range(200):
            pairs.append(
                (
                    GameRecord(i, (rng.choice("ab"),), 10, rng.randint(3, 8), "", rng.choice("xyz")),
                    GameRecord(i, (rng.choice("ab"),), 10, rng.randint(3, 8), "", rng.choice("xyz")),
                )
            )
        c = _against(pairs)["counts"][0]
        figures = [*c["seats"].values(), c["rounds"], *c["endings"]]
        alarms += any(f["verdict"] == "changed" for f in figures)
    assert alarms / runs < 0.08


def test_a_card_made_a_little_stronger_is_found_on_the_paired_games(capsys):
    """The toy game's `strong_plain_1` gives Plain 1 a point more: a seat's win rate moves by
    a few points in the games it is played. Its effect under each rules, compared with the
    error of two independent estimates, shows nothing at 300 games; paired game by game
    (the seat that played it, its win under the changed rules minus under the base's), it
    is found, named, and said in the verdict. No other card's rules changed."""
    doc = _toy(capsys, "--variant", "strong_plain_1", "--against", "base")
    a = doc["against"]
    (row,) = a["changed_components"]
    assert row["card"] == "plain_1" and row["verdict"] == "changed" and row["low"] > 0
    unpaired = next(r for r in a["components"] if r["card"] == "plain_1")
    assert unpaired["verdict"] == "no change shown"  # the design without the pairing misses it
    (c,) = a["counts"]
    assert all(s["verdict"] == "no change shown" for s in c["seats"].values())  # both seats play it
    main(["balance", TOY, "--games", "300", "--jobs", "1", "--variant", "strong_plain_1", "--against", "base"])
    out = capsys.readouterr().out
    assert re.search(
        r"verdict: Plain 1 \(its rules changed\) wins more \(\+\d+\.\d pts\) for the seat that plays it", out
    )


def test_the_components_a_change_touched_are_told_by_their_rules_not_their_place():
    """`changed_components`: the card a variant replaces, and nothing else; a procedure
    replaced (`idle_die`: every card calls it, no card changed) names no card."""
    base = load_game(TOY)
    assert bal.changed_components(load_game(TOY, variants=["strong_plain_1"]), base) == ["plain_1"]
    assert bal.changed_components(load_game(TOY, variants=["same"]), base) == []
    assert bal.changed_components(load_game(TOY, variants=["idle_die"]), base) == []


@pytest.mark.slow
def test_a_file_that_adds_a_card_to_the_wall_is_down_changes_none_of_its_cards():
    """The Wall is Down's cards read through a file that includes it are the same cards: a
    file that adds a jackpot changes none of them, and the jackpot is of one side only: an
    added card, not a changed one."""
    jackpot = load_game(str(Path(__file__).resolve().parent / "balance" / "twid_jackpot.game"))
    twid = load_game("twid")
    assert bal.changed_components(jackpot, twid) == []
    (added,) = bal.changed_rules(jackpot, twid)
    assert (added["kind"], added["name"], added["change"]) == ("card", "jackpot", "added")


def test_a_file_against_the_game_it_includes():
    """A file of house rules that starts `include twid` is compared with twid; a game that
    includes nothing and is given no variant is a mistake said with a hint."""
    jackpot = str(Path(__file__).resolve().parent / "balance" / "twid_jackpot.game")
    setup, name = bal.base_setup(sim.Setup(game=jackpot, players=2), "base")
    assert setup.game == "twid" and name == "twid, the game it includes"
    setup, name = bal.base_setup(sim.Setup(game="twid", variants=("quick",)), "base")
    assert setup.game == "twid" and setup.variants == () and name == "the game without quick"
    with pytest.raises(UsageError, match="includes no bundled game"):
        bal.base_setup(sim.Setup(game=TOY), "base")


def test_the_rules_a_change_touched_are_named_with_their_citation(capsys):
    """`changed_rules`: the declarations that differ between the two rules, wherever each is
    written, with the first `rule "..."` of each: the def of West's head start, the
    procedure every card calls, nothing for a def written again as it was. The report
    says it under its verdict."""
    base = load_game(TOY)
    assert bal.changed_rules(load_game(TOY, variants=["big_start"]), base) == [
        {"kind": "def", "name": "head_start", "change": "changed", "rule": None}
    ]
    (plain,) = bal.changed_rules(load_game(TOY, variants=["idle_die"]), base)
    assert plain["kind"] == "procedure" and plain["name"] == "plain" and plain["change"] == "changed"
    assert plain["rule"] == "Toy rules, variant: a die rolled and ignored, then a die's worth of points"
    assert bal.changed_rules(load_game(TOY, variants=["same"]), base) == []
    main(["balance", TOY, "--games", "50", "--jobs", "1", "--variant", "big_start", "--against", "base"])
    assert "  what differs in the rules: def head_start changed\n" in capsys.readouterr().out
    main(["balance", TOY, "--games", "50", "--jobs", "1", "--variant", "same", "--against", "base"])
    assert "what differs in the rules: nothing, declaration by declaration" in capsys.readouterr().out


# ---- sweeps ---------------------------------------------------------------------------------------------
def test_a_def_constant_is_set_for_one_load_and_refused_when_it_is_no_constant():
    """`constants` gives a def without parameters another value (West's head start of the toy
    game, read at the start of play); a name that is no def is refused with the ones that are."""
    game = load_game(TOY, constants={"head_start": 9})
    assert game.var(game.start(players=2, seed=1), "score") == {"west": 9, "east": 0}
    assert load_game(TOY).var(load_game(TOY).start(players=2, seed=1), "score")["west"] == 1  # not cached over
    with pytest.raises(UsageError, match="head_strt is not a def") as err:
        load_game(TOY, constants={"head_strt": 2})
    assert "head_start" in (err.value.hint or "")


def test_a_sweep_over_a_def_marks_where_the_game_is_fair(capsys):
    """`--sweep head_start=-2..2`: West's head start from -2 to 2 points on the same 200 seeds.
    West's win rate rises with it; the game reads fair (both seats' intervals hold 50%) at
    0, where nobody starts ahead, and not at -2 or 2."""
    code = main(["balance", TOY, "--games", "200", "--jobs", "1", "--sweep", "head_start=-2..2", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["kind"] == "def" and doc["values"] == [-2, -1, 0, 1, 2]
    west = [p["counts"][0]["win_rates"][0]["rate"] for p in doc["points"]]
    assert west == sorted(west) and west[0] < 0.4 < 0.6 < west[-1]
    assert 0 in doc["fair_values"]["2"] and -2 not in doc["fair_values"]["2"] and 2 not in doc["fair_values"]["2"]
    for p in doc["points"]:
        (c,) = p["counts"]
        assert c["fair"] == all(w["low"] <= 0.5 <= w["high"] for w in c["win_rates"])


def test_a_sweep_over_an_option_and_its_table_and_chart(capsys, tmp_path):
    """An option is swept through `--option`'s own values (the jackpot's bonus 0 to 2); the
    text has a row per value, the page its chart when matplotlib is installed."""
    page = tmp_path / "sweep.html"
    argv = ["balance", TOY, "--games", "30", "--jobs", "1", "--sweep", "jackpot_bonus=0..2", "--html", str(page)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "option jackpot_bonus from 0 to 2" in out
    assert [line.split()[0] for line in out.splitlines() if re.match(r"^ +[0-2] ", line)] == ["0", "1", "2"]
    text = page.read_text(encoding="utf-8")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "No chart: matplotlib is not installed" in text
    else:
        assert (tmp_path / "sweep-2p-sweep.png").read_bytes().startswith(b"\x89PNG") and "data:image/png" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sweep", "nothing=1..2"], "has no option or def without parameters named 'nothing'"),
        (["--sweep", "head_start=3..1"], "from LO to HI"),
        (["--sweep", "head_start"], "expected NAME=LO..HI"),
        (["--sweep", "head_start=0..1", "--against", "base"], "--sweep and --against"),
    ],
)
def test_a_bad_sweep_is_exit_2_with_a_clear_message(capsys, argv, message):
    try:
        code = main(["balance", TOY, "--games", "5", "--jobs", "1", *argv])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


# ---- why a seat wins ------------------------------------------------------------------------------------
def test_every_point_of_the_wall_is_down_is_traced_to_a_card_or_a_rule():
    """In whole random games of The Wall is Down (2 players), each seat's points gained and
    lost, summed over their sources, are its final VP; every source is a card of the game or
    a rule's citation; the scores kept for the last round are the final ones; and the lead
    changes counted are those of the scores seen move by move."""
    game = load_game("twid")
    cards = sim.card_catalogue(game)
    citations = set(sim.procedure_citations(game).values()) | set(sim.procedure_citations(game))
    for seed in (3, 4):
        r = sim.play_game(game, sim.Setup(game="twid", players=2), seed)
        state = game.start(players=2, seed=seed)
        assert r.score_seats == ("west", "east")
        final = _replay_vp(game, r, seed)
        for seat in r.score_seats:
            assert sum(p for s, _, p in r.gains if s == seat) == pytest.approx(final[-1][seat])
        for _, source, _ in r.gains:
            kind, _, name = source.partition(":")
            assert (kind == "card" and name in cards) or (kind == "rule" and name in citations)
        assert r.score_by_round[-1][1] == tuple(float(final[-1][s]) for s in r.score_seats)
        leaders = [max(vp, key=vp.get) for vp in final if sorted(vp.values())[-1] != sorted(vp.values())[-2]]
        assert r.lead_changes == sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)
        assert state.players == r.score_seats


def _replay_vp(game, record, seed):
    """Each position's VP after each move of the game of `seed`, played again with the same
    random agents (a seed fixes the game)."""
    from interpreter.play.agents import parse_agents

    state = game.start(players=2, seed=seed)
    agents, _ = parse_agents([], game, state.players, seed)
    out = []
    while state.result is None:
        state = game.apply_index(state, agents[state.pending.player].choose(game, state))
        out.append(dict(game.var(state, "vp")))
    assert state.decisions == record.decisions
    return out


def test_the_report_says_where_each_seats_points_came_from(capsys):
    """The toy game scores only through its cards' texts: each seat's points come from the
    cards (the jackpot's share above a plain card's, for its bonus), and the text report
    says so with the lead changes."""
    doc = _toy(capsys)
    why = doc["counts"][0]["why"]
    assert why["games"] == 300 and why["rounds"] == []  # no round counter in the toy game
    for seat in ("west", "east"):
        sources = {x["source"]: x["share"] for x in why["sources"][seat]["sources"]}
        assert all(source.startswith("card:") for source in sources)
        assert sum(sources.values()) == pytest.approx(1.0)
        plain = [share for source, share in sources.items() if source.startswith("card:plain")]
        assert sources["card:jackpot"] > max(plain)
    assert 0 <= why["lead_changes"]["mean"] and 0 <= why["lead_changes"]["never"] <= 1
    main(["balance", TOY, "--games", "50", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "why a seat wins:" in out and re.search(r"West's points \(\d+\.\d gained a game\) by source: card", out)
    assert re.search(r"the lead changed hands \d\.\d\d times a game", out)


def test_a_score_variable_that_is_not_one_is_refused():
    with pytest.raises(UsageError, match="no variable 'deck' from player to a number"):
        sim.score_probe(load_game(TOY), "deck", ("west", "east"))
    probe, seats = sim.score_probe(load_game(TOY), None, ("west", "east"))
    assert seats == ["west", "east"] and probe is not None
