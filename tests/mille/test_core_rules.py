"""The common core (docs/rules/mille-bornes.md, "The common core"), clause
by clause, as exact scenarios. Each test is named after the clause it checks."""

from __future__ import annotations

import pytest

from rallye.core.errors import IllegalAction
from rallye.mille import editions, get_edition, legal_actions, new_match, parse_action
from rallye.mille.cards import CARDS
from rallye.mille.engine import deal_from

from .conftest import FILLER, ROLLING, do, driving, scenario, sheet, tab

EDITION_KEYS = ("wm2006", "hu", "fxschmid", "meilen")


def legal(state):
    return [str(a) for a in legal_actions(state)]


def rule_of(state, text):
    with pytest.raises(IllegalAction) as info:
        do(state, text)
    return info.value.rule


# -- Sides ---------------------------------------------------------------------------
@pytest.mark.parametrize("key", EDITION_KEYS)
def test_core_sides_team_mates_sit_alternately(key):
    ed = get_edition(key)
    for n in ed.players:
        sides = ed.sides_for(n)
        for seat in range(n):
            assert seat in sides[seat % len(sides)], (key, n, sides)
        s = new_match(key, n)
        assert s.side_of == tuple(seat % len(sides) for seat in range(n))


def test_core_sides_one_tableau_per_side_shared_by_team_mates():
    # 4 players, sides (0, 2) and (1, 3): seat 2 drives on side 0's tableau.
    s = scenario("wm2006", 4, hands={2: ["D100", *FILLER]}, tableaus={0: driving(300)}, current=2)
    after = do(s, "play D100")
    assert after.tableaus[0].km == 400
    assert after.tableaus[1] == s.tableaus[1]
    assert len(after.tableaus) == 2


def test_core_sides_turns_go_round_the_seats():
    s = new_match("wm2006", 4, seed=5)
    seen = []
    for _ in range(8):
        seen.append(s.current)
        s = do(s, f"discard {s.hands[s.current][0]}")
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3]


# -- Deal ----------------------------------------------------------------------------
@pytest.mark.parametrize("key", EDITION_KEYS)
def test_core_deal_six_cards_each_rest_is_draw_pile(key):
    ed = get_edition(key)
    for n in ed.players:
        s = new_match(key, n, seed=11)
        first = s.current
        # the engine has already drawn the first player's card [engine turn model]
        assert [len(h) for h in s.hands] == [7 if p == first else 6 for p in range(n)]
        assert s.discard == ()
        assert s.draw_count == len(ed.deck_for(n)) - 6 * n - 1
        assert all(t.cards() == () for t in s.tableaus)


def test_core_deal_one_card_at_a_time_starting_left_of_dealer():
    deck = ("RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF") + ("D25",) * 20
    hands = deal_from(deck, 3, dealer=1)
    assert "RIGHT_OF_WAY" in hands[2]  # left of the dealer gets the first card
    assert "EXTRA_TANK" in hands[0]
    assert "PUNCTURE_PROOF" in hands[1]
    assert [len(h) for h in hands] == [6, 6, 6]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_core_deal_player_left_of_dealer_starts(n):
    s = new_match("hu", n, seed=2)
    assert s.dealer == n - 1
    assert s.current == (s.dealer + 1) % n == 0


def test_core_deal_passes_to_next_player_each_hand():
    # end hand 0 at once (team game, no extension) and look at hand 1
    s = scenario("wm2006", 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)}, current=0, dealer=3)
    after = do(s, "play D100")
    assert after.hand_no == 1
    assert after.dealer == 0
    assert after.current == 1
    assert [len(h) for h in after.hands] == [6, 7, 6, 6]


# -- A turn --------------------------------------------------------------------------
def test_core_turn_draw_one_then_play_exactly_one():
    s = scenario(
        "wm2006", 2, hands={0: ["D100", *FILLER], 1: FILLER}, tableaus={0: ROLLING}, draw=["D75", "D50", "D25"]
    )
    after = do(s, "play D100")
    assert after.hands[0] == s.hands[0][1:]  # exactly one card left the hand: the one played
    assert after.current == 1
    assert after.hands[1] == tuple(sorted((*FILLER, "D75"), key=CARDS.index))  # P2 drew the top card
    assert after.draw_pile == ("D50", "D25")


def test_core_turn_ends_with_six_cards_while_draw_pile_lasts():
    s = new_match("fxschmid", 3, seed=9)
    for _ in range(30):
        seat = s.current
        s2 = do(s, str(legal_actions(s)[-1]))
        if s2.draw_count > 0:
            assert len(s2.hands[seat]) == 6
        s = s2


def test_core_turn_no_draw_when_draw_pile_empty():
    s = scenario("wm2006", 2, hands={0: ["D25", "D50"], 1: ["D75", "D100"]}, tableaus={0: ROLLING}, draw=[])
    after = do(s, "discard D25")
    assert after.current == 1
    assert after.hands[1] == ("D75", "D100")


# -- Rolling -------------------------------------------------------------------------
def test_core_rolling_roll_on_top_allows_distance():
    s = scenario("wm2006", 2, hands={0: ["D100", *FILLER]}, tableaus={0: ROLLING})
    assert "play D100" in legal(s)


@pytest.mark.parametrize("battle", [[], ["ROLL", "OUT_OF_GAS", "GASOLINE"], ["ROLL", "STOP"]])
def test_core_rolling_needs_roll_on_top_without_right_of_way(battle):
    s = scenario("wm2006", 2, hands={0: ["D25", *FILLER]}, tableaus={0: tab(battle=battle)})
    assert "play D25" not in legal(s)
    assert rule_of(s, "play D25") == "rolling"


@pytest.mark.parametrize("battle", [[], ["ROLL", "FLAT_TIRE", "SPARE_TIRE"]])
def test_core_rolling_right_of_way_with_empty_or_remedy_top(battle):
    s = scenario("wm2006", 2, hands={0: ["D100", *FILLER]}, tableaus={0: tab(battle=battle, safeties=["RIGHT_OF_WAY"])})
    assert "play D100" in legal(s)
    assert do(s, "play D100").tableaus[0].km == 100


def test_core_rolling_right_of_way_not_with_hazard_on_top():
    s = scenario(
        "wm2006", 2, hands={0: ["D100", *FILLER]},
        tableaus={0: tab(battle=["ROLL", "ACCIDENT"], safeties=["RIGHT_OF_WAY"])},
    )  # fmt: skip
    assert rule_of(s, "play D100") == "rolling"


# -- Speed ---------------------------------------------------------------------------
def test_core_speed_limit_allows_only_25_and_50():
    hand = ["D25", "D50", "D75", "D100", "D200", "REPAIRS", "REPAIRS"]
    s = scenario("wm2006", 2, hands={0: hand}, tableaus={0: tab(battle=["ROLL"], speed=["SPEED_LIMIT"])})
    plays = [a for a in legal(s) if a.startswith("play D")]
    assert plays == ["play D25", "play D50"]
    for card in ("D75", "D100", "D200"):
        assert rule_of(s, f"play {card}") == "speed-limit"


def test_core_speed_limit_does_not_bind_a_side_with_right_of_way():
    s = scenario(
        "wm2006", 2, hands={0: ["D200", *FILLER]},
        tableaus={0: tab(speed=["SPEED_LIMIT"], safeties=["RIGHT_OF_WAY"])},
    )  # fmt: skip
    assert do(s, "play D200").tableaus[0].km == 200


def test_core_speed_end_of_limit_lifts_the_limit():
    s = scenario("wm2006", 2, hands={0: ["D100", *FILLER]}, tableaus={0: tab(battle=["ROLL"], speed=["SPEED_LIMIT"])})
    s = do(s, "play END_OF_LIMIT", "discard GASOLINE")
    assert s.tableaus[0].speed == ("SPEED_LIMIT", "END_OF_LIMIT")
    assert "play D100" in legal(s)


# -- Distance ------------------------------------------------------------------------
def test_core_distance_never_passes_the_target():
    s = scenario("wm2006", 4, hands={0: ["D75", "D50", *FILLER]}, tableaus={0: driving(950)})
    assert "play D75" not in legal(s)
    assert rule_of(s, "play D75") == "exact-distance"
    assert "play D50" in legal(s)


def test_core_distance_reaching_the_target_exactly_is_allowed():
    s = scenario("wm2006", 4, hands={0: ["D50", *FILLER]}, tableaus={0: driving(950)})
    after = do(s, "play D50")
    assert sheet(after).completed_by == 0
    assert sheet(after).line(0, "distance") == 1000


def test_core_distance_at_most_two_d200_per_side_per_hand():
    two = tab(battle=["ROLL"], distance=["D200", "D200"])
    s = scenario("wm2006", 4, hands={2: ["D200", "D25", *FILLER]}, tableaus={0: two}, current=2)
    # seat 2's team mate laid both 200s: the side has its two.
    assert "play D200" not in legal(s)
    assert rule_of(s, "play D200") == "two-200s"
    one = scenario("wm2006", 4, hands={2: ["D200", *FILLER]}, tableaus={0: tab(battle=["ROLL"], distance=["D200"])},
                   current=2)  # fmt: skip
    assert do(one, "play D200").tableaus[0].d200 == 2


# -- Remedies ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("remedy", "hazard"), [("GASOLINE", "OUT_OF_GAS"), ("SPARE_TIRE", "FLAT_TIRE"), ("REPAIRS", "ACCIDENT")]
)
def test_core_remedy_goes_only_onto_its_hazard(remedy, hazard):
    on_it = scenario("wm2006", 2, hands={0: [remedy, "D25"]}, tableaus={0: tab(battle=["ROLL", hazard])})
    after = do(on_it, f"play {remedy}")
    assert after.tableaus[0].battle == ("ROLL", hazard, remedy)
    for battle in ([], ["ROLL"], ["ROLL", "STOP"], ["ROLL", "OUT_OF_GAS" if hazard != "OUT_OF_GAS" else "ACCIDENT"]):
        s = scenario("wm2006", 2, hands={0: [remedy, "D25"]}, tableaus={0: tab(battle=battle)})
        assert f"play {remedy}" not in legal(s)
        assert rule_of(s, f"play {remedy}") == "remedy-matches"


@pytest.mark.parametrize(
    "battle", [[], ["ROLL", "STOP"], ["ROLL", "OUT_OF_GAS", "GASOLINE"], ["ROLL", "FLAT_TIRE", "SPARE_TIRE"],
               ["ROLL", "ACCIDENT", "REPAIRS"]],
)  # fmt: skip
def test_core_roll_onto_empty_stop_or_remedy(battle):
    s = scenario("wm2006", 2, hands={0: ["ROLL", "D25"]}, tableaus={0: tab(battle=battle)})
    assert "play ROLL" in legal(s)
    after = do(s, "play ROLL")
    assert after.tableaus[0].battle == (*battle, "ROLL")
    assert after.tableaus[0].rolling


def test_core_roll_never_onto_roll():
    s = scenario("wm2006", 2, hands={0: ["ROLL", "D25"]}, tableaus={0: ROLLING})
    assert "play ROLL" not in legal(s)
    assert rule_of(s, "play ROLL") == "roll-onto"


@pytest.mark.parametrize("hazard", ["OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"])
def test_core_roll_not_onto_another_hazard(hazard):
    s = scenario("wm2006", 2, hands={0: ["ROLL", "D25"]}, tableaus={0: tab(battle=["ROLL", hazard])})
    assert rule_of(s, "play ROLL") == "roll-onto"


def test_core_roll_not_for_a_side_with_right_of_way():
    s = scenario("wm2006", 2, hands={0: ["ROLL", "D25"]}, tableaus={0: tab(safeties=["RIGHT_OF_WAY"])})
    assert "play ROLL" not in legal(s)
    assert rule_of(s, "play ROLL") == "roll-with-right-of-way"


@pytest.mark.parametrize("speed", [[], ["SPEED_LIMIT", "END_OF_LIMIT"]])
def test_core_end_of_limit_only_onto_speed_limit(speed):
    s = scenario("wm2006", 2, hands={0: ["END_OF_LIMIT", "D25"]}, tableaus={0: tab(battle=["ROLL"], speed=speed)})
    assert "play END_OF_LIMIT" not in legal(s)
    assert rule_of(s, "play END_OF_LIMIT") == "remedy-matches"


def test_core_after_a_remedy_a_side_needs_roll_before_it_drives():
    s = scenario(
        "wm2006", 2, hands={0: ["GASOLINE", "D100", "ROLL"], 1: FILLER},
        tableaus={0: tab(battle=["ROLL", "OUT_OF_GAS"])},
    )  # fmt: skip
    s = do(s, "play GASOLINE")
    s = do(s, "discard REPAIRS")  # P2
    assert "play D100" not in legal(s)
    s = do(s, "play ROLL", "discard REPAIRS")
    assert "play D100" in legal(s)


def test_core_after_a_remedy_a_side_with_right_of_way_drives_at_once():
    s = scenario(
        "wm2006", 2, hands={0: ["GASOLINE", "D100"], 1: FILLER},
        tableaus={0: tab(battle=["OUT_OF_GAS"], safeties=["RIGHT_OF_WAY"])},
    )  # fmt: skip
    s = do(s, "play GASOLINE", "discard REPAIRS")
    assert "play D100" in legal(s)


# -- Attacks -------------------------------------------------------------------------
@pytest.mark.parametrize("hazard", ["STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"])
def test_core_attack_battle_hazard_onto_rolling_opponent(hazard):
    s = scenario("wm2006", 2, hands={0: [hazard, "D25"]}, tableaus={1: ROLLING})
    assert "attack 2 " + hazard in legal(s)
    after = do(s, f"attack 2 {hazard}")
    assert after.tableaus[1].battle == ("ROLL", hazard)
    assert not after.tableaus[1].rolling
    assert after.hands[0] == ("D25",)


@pytest.mark.parametrize("battle", [[], ["ROLL", "OUT_OF_GAS", "GASOLINE"]])
def test_core_attack_only_a_rolling_side(battle):
    s = scenario("wm2006", 2, hands={0: ["STOP", "ACCIDENT", "D25"]}, tableaus={1: tab(battle=battle)})
    assert not [a for a in legal(s) if a.startswith("attack")]
    assert rule_of(s, "attack 2 STOP") == "attack-rolling"


@pytest.mark.parametrize("hazard", ["STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"])
def test_core_attack_never_onto_another_hazard(hazard):
    s = scenario("wm2006", 2, hands={0: ["ACCIDENT", "STOP"]}, tableaus={1: tab(battle=["ROLL", hazard])})
    assert rule_of(s, "attack 2 ACCIDENT") == "hazard-on-hazard"


@pytest.mark.parametrize(
    ("hazard", "safety"),
    [("STOP", "RIGHT_OF_WAY"), ("SPEED_LIMIT", "RIGHT_OF_WAY"), ("OUT_OF_GAS", "EXTRA_TANK"),
     ("FLAT_TIRE", "PUNCTURE_PROOF"), ("ACCIDENT", "DRIVING_ACE")],
)  # fmt: skip
def test_core_attack_never_against_the_matching_safety_on_the_tableau(hazard, safety):
    s = scenario("wm2006", 2, hands={0: [hazard, "D25"]}, tableaus={1: tab(battle=["ROLL"], safeties=[safety])})
    assert f"attack 2 {hazard}" not in legal(s)
    assert rule_of(s, f"attack 2 {hazard}") == "attack-safety"


@pytest.mark.parametrize("battle", [[], ["ROLL", "ACCIDENT", "REPAIRS"]])
def test_core_attack_right_of_way_side_with_empty_or_remedy_top_is_attackable(battle):
    s = scenario(
        "wm2006", 2, hands={0: ["FLAT_TIRE", "D25"]}, tableaus={1: tab(battle=battle, safeties=["RIGHT_OF_WAY"])}
    )
    after = do(s, "attack 2 FLAT_TIRE")
    assert after.tableaus[1].battle_top == "FLAT_TIRE"


@pytest.mark.parametrize("battle", [[], ["ROLL", "STOP"], ["ROLL", "ACCIDENT"]])
def test_core_speed_limit_attack_needs_no_rolling_target(battle):
    s = scenario("wm2006", 2, hands={0: ["SPEED_LIMIT", "D25"]}, tableaus={1: tab(battle=battle)})
    after = do(s, "attack 2 SPEED_LIMIT")
    assert after.tableaus[1].speed == ("SPEED_LIMIT",)
    assert after.tableaus[1].battle == tuple(battle)


def test_core_speed_limit_never_onto_speed_limit():
    s = scenario("wm2006", 2, hands={0: ["SPEED_LIMIT", "D25"]}, tableaus={1: tab(speed=["SPEED_LIMIT"])})
    assert rule_of(s, "attack 2 SPEED_LIMIT") == "attack-speed-twice"
    lifted = scenario(
        "wm2006", 2, hands={0: ["SPEED_LIMIT", "D25"]}, tableaus={1: tab(speed=["SPEED_LIMIT", "END_OF_LIMIT"])}
    )
    assert "attack 2 SPEED_LIMIT" in legal(lifted)


def test_core_attack_allowed_while_stopped_yourself():
    s = scenario("wm2006", 2, hands={0: ["STOP", "D25"]}, tableaus={0: tab(battle=["ROLL", "ACCIDENT"]), 1: ROLLING})
    assert "attack 2 STOP" in legal(s)


def test_core_attack_only_onto_an_opposing_side():
    s = scenario("wm2006", 4, hands={0: ["STOP", "D25"]}, tableaus={0: ROLLING, 1: ROLLING})
    assert [a for a in legal(s) if a.startswith("attack")] == ["attack 2 STOP"]
    assert rule_of(s, "attack 1 STOP") == "attack-own-side"
    assert rule_of(s, "attack 3 STOP") == "attack-side"


# -- Safeties ------------------------------------------------------------------------
@pytest.mark.parametrize("battle", [[], ["ROLL"], ["ROLL", "FLAT_TIRE"]])
def test_core_safety_playable_on_own_turn_rolling_or_not(battle):
    s = scenario("wm2006", 2, hands={0: ["EXTRA_TANK", "D25"]}, tableaus={0: tab(battle=battle)})
    assert "play EXTRA_TANK" in legal(s)
    after = do(s, "play EXTRA_TANK")
    assert after.tableaus[0].safeties == ("EXTRA_TANK",)
    assert after.tableaus[0].coups == ()
    assert after.tableaus[0].battle == tuple(battle)  # FLAT_TIRE is not its hazard


def test_core_safety_protects_for_the_rest_of_the_hand():
    s = scenario("wm2006", 2, hands={0: ["DRIVING_ACE", "D25"], 1: ["ACCIDENT", *FILLER]}, tableaus={0: ROLLING})
    s = do(s, "play DRIVING_ACE")
    assert "attack 1 ACCIDENT" not in legal(s)
    s = do(s, "discard GASOLINE", "discard D25")
    assert "attack 1 ACCIDENT" not in legal(s)


@pytest.mark.parametrize(
    ("safety", "hazard"), [("EXTRA_TANK", "OUT_OF_GAS"), ("PUNCTURE_PROOF", "FLAT_TIRE"), ("DRIVING_ACE", "ACCIDENT"),
                           ("RIGHT_OF_WAY", "STOP")],
)  # fmt: skip
def test_core_safety_clears_its_hazard_on_top_to_the_discard_pile(safety, hazard):
    s = scenario("wm2006", 2, hands={0: [safety, "D25"]}, tableaus={0: tab(battle=["ROLL", hazard])}, discard=["D50"])
    after = do(s, f"play {safety}")
    assert after.tableaus[0].battle == ("ROLL",)  # the top is again the card beneath
    assert after.discard == ("D50", hazard)
    assert after.tableaus[0].rolling


def test_core_right_of_way_clears_speed_limit_on_the_speed_pile():
    s = scenario(
        "wm2006", 2, hands={0: ["RIGHT_OF_WAY", "D25"]}, tableaus={0: tab(battle=["ROLL"], speed=["SPEED_LIMIT"])}
    )
    after = do(s, "play RIGHT_OF_WAY")
    assert after.tableaus[0].speed == ()
    assert after.discard == ("SPEED_LIMIT",)


def test_core_right_of_way_clears_stop_and_speed_limit_both():
    s = scenario(
        "wm2006", 2, hands={0: ["RIGHT_OF_WAY", "D100"]},
        tableaus={0: tab(battle=["ROLL", "STOP"], speed=["SPEED_LIMIT"])},
    )  # fmt: skip
    after = do(s, "play RIGHT_OF_WAY")
    t = after.tableaus[0]
    assert (t.battle, t.speed) == (("ROLL",), ())
    assert sorted(after.discard) == ["SPEED_LIMIT", "STOP"]
    assert t.rolling and not t.limited


def test_core_safety_leaves_an_unmatched_hazard_on_top():
    s = scenario("wm2006", 2, hands={0: ["RIGHT_OF_WAY", "D25"]}, tableaus={0: tab(battle=["ROLL", "ACCIDENT"])})
    after = do(s, "play RIGHT_OF_WAY")
    assert after.tableaus[0].battle_top == "ACCIDENT"
    assert after.discard == ()


# -- Discarding ----------------------------------------------------------------------
def test_core_discard_any_card_safeties_included_even_when_a_play_is_possible():
    hand = ["D100", "ROLL", "STOP", "END_OF_LIMIT", "RIGHT_OF_WAY", "EXTRA_TANK", "DRIVING_ACE"]
    s = scenario("wm2006", 2, hands={0: hand}, tableaus={0: tab(speed=["SPEED_LIMIT"]), 1: ROLLING})
    discards = [a for a in legal(s) if a.startswith("discard")]
    assert sorted(discards) == sorted(f"discard {c}" for c in hand)
    after = do(s, "discard RIGHT_OF_WAY")
    assert after.discard == ("RIGHT_OF_WAY",)
    assert after.tableaus == s.tableaus


# -- Coup fourré ---------------------------------------------------------------------
def _cf_state(edition="wm2006", players=3, draw=("D25", "D50", "D75", "REPAIRS", "REPAIRS")):
    # P1 attacks P3 (side 2) with ACCIDENT; P3 holds DRIVING_ACE.
    return scenario(
        edition, players,
        hands={0: ["ACCIDENT", "D25", "D25", "D25", "D25", "D25", "D25"], 2: ["DRIVING_ACE", *FILLER[:5]]},
        tableaus={2: driving(100)}, draw=draw,
    )  # fmt: skip


def test_core_coup_fourre_declared_automatically_hazard_discarded_safety_crosswise():
    s = _cf_state()
    after = do(s, "attack 3 ACCIDENT")
    t = after.tableaus[2]
    assert t.battle == ("ROLL",)  # the hazard never lands
    assert t.safeties == ("DRIVING_ACE",) and t.coups == ("DRIVING_ACE",)
    assert after.discard == ("ACCIDENT",)
    assert "DRIVING_ACE" not in after.hands[2]
    assert [(e.seat, e.kind, e.card) for e in after.events[-2:]] == [
        (0, "attack", "ACCIDENT"), (2, "coup_fourre", "DRIVING_ACE"),
    ]  # fmt: skip


def test_core_coup_fourre_defender_draws_replacement_then_takes_a_normal_turn():
    s = _cf_state()
    after = do(s, "attack 3 ACCIDENT")
    assert after.current == 2
    assert after.cf_turn
    # 6 - safety + replacement + the turn's draw = 7; the draw pile lost two cards
    assert len(after.hands[2]) == 7
    assert {"D25", "D50"} <= set(after.hands[2])
    assert after.draw_pile == ("D75", "REPAIRS", "REPAIRS")


def test_core_coup_fourre_hand_back_at_six_after_the_turn():
    """Resolution: "draw two, play one" and "draw one, then come again" are the same count."""
    s = do(_cf_state(), "attack 3 ACCIDENT")
    after = do(s, "discard D25")
    assert len(after.hands[2]) == 6


def test_core_coup_fourre_skips_players_between():
    s = do(_cf_state(), "attack 3 ACCIDENT")
    assert s.current == 2  # P2 (seat 1) is skipped
    after = do(s, "discard D25")
    assert after.current == 0  # play continues after the defender
    assert len(after.hands[1]) == 6  # P2 never drew


def test_core_coup_fourre_by_the_team_mate_who_holds_the_safety():
    s = scenario(
        "wm2006",
        4,
        hands={0: ["STOP", *FILLER], 3: ["RIGHT_OF_WAY", *FILLER[:5]]},
        tableaus={1: ROLLING},
    )
    after = do(s, "attack 2 STOP")
    assert after.current == 3
    assert after.tableaus[1].coups == ("RIGHT_OF_WAY",)
    assert do(after, "discard REPAIRS").current == 0  # seats 1 and 2 skipped


def test_core_coup_fourre_against_speed_limit_is_made_with_right_of_way():
    s = scenario("wm2006", 2, hands={0: ["SPEED_LIMIT", "D25"], 1: ["RIGHT_OF_WAY", *FILLER[:5]]})
    after = do(s, "attack 2 SPEED_LIMIT")
    t = after.tableaus[1]
    assert t.speed == () and t.coups == ("RIGHT_OF_WAY",)
    assert after.discard == ("SPEED_LIMIT",)
    assert after.current == 1


def test_core_coup_fourre_not_for_a_safety_played_after_the_moment():
    s = scenario(
        "wm2006", 2, hands={0: ["FLAT_TIRE", "D25"], 1: FILLER}, tableaus={1: ROLLING},
        draw=["PUNCTURE_PROOF", "D25", "D25"],
    )  # fmt: skip
    s = do(s, "attack 2 FLAT_TIRE")  # P2 draws PUNCTURE_PROOF at the start of its turn
    assert s.current == 1 and "PUNCTURE_PROOF" in s.hands[1]
    assert s.tableaus[1].battle_top == "FLAT_TIRE"
    after = do(s, "play PUNCTURE_PROOF")
    assert after.tableaus[1].coups == ()  # a normal safety
    assert after.tableaus[1].battle == ("ROLL",)
    assert after.current == 0  # wm2006: no extra turn after an ordinary safety


@pytest.mark.parametrize("key", ["wm2006", "fxschmid"])
def test_core_coup_fourre_another_safety_in_that_turn_gives_one_more_turn(key):
    s = scenario(
        key, 3, hands={0: ["ACCIDENT", *FILLER], 2: ["DRIVING_ACE", "EXTRA_TANK", *FILLER[:4]]},
        tableaus={2: driving(100)}, draw=["D25", "D50", "D75", "D100", "REPAIRS"],
    )  # fmt: skip
    s = do(s, "attack 3 ACCIDENT")
    assert s.current == 2 and len(s.hands[2]) == 7
    s = do(s, "play EXTRA_TANK")
    assert s.current == 2  # one more turn: draw one, play one
    assert len(s.hands[2]) == 7 and "D75" in s.hands[2]
    s = do(s, "discard D25")
    assert s.current == 0


@pytest.mark.parametrize("key", ["hu", "meilen"])
def test_core_coup_fourre_another_safety_in_that_turn_no_more_turn_elsewhere(key):
    """The "same follows again" sentence names wm2006 and fxschmid only."""
    s = scenario(
        key, 3, hands={0: ["ACCIDENT", *FILLER], 2: ["DRIVING_ACE", "EXTRA_TANK", *FILLER[:4]]},
        tableaus={2: driving(100)}, draw=["D25", "D50", "D75", "D100", "REPAIRS"],
    )  # fmt: skip
    s = do(s, "attack 3 ACCIDENT", "play EXTRA_TANK")
    assert s.current == 0


# -- End of the trip -----------------------------------------------------------------
def test_core_end_of_trip_hand_ends_when_a_side_reaches_the_target_exactly():
    s = scenario("hu", 4, hands={1: ["D100", *FILLER]}, tableaus={1: driving(900)}, current=1)
    after = do(s, "play D100")
    assert sheet(after).completed_by == 1
    assert after.hand_no == 1


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_core_end_of_trip_extension_decision_is_made_at_once(key):
    s = scenario(key, 2, hands={0: ["D100", *FILLER]}, tableaus={0: driving(600)})
    after = do(s, "play D100")
    assert after.phase == "extend" and after.current == 0
    assert legal(after) == ["extend", "decline"]
    assert after.sheets == ()


# -- Empty draw pile -----------------------------------------------------------------
def test_core_empty_draw_pile_play_goes_on_from_the_hands():
    s = scenario("wm2006", 3, hands={0: ["D25", "D50"], 1: ["D75"], 2: ["D100", "ROLL"]}, draw=[])
    s = do(s, "discard D25")
    assert s.current == 1 and s.hands[1] == ("D75",)
    assert legal(s) == ["discard D75"]  # a player with cards must play or discard one


def test_core_empty_draw_pile_a_player_with_no_cards_is_passed_over():
    s = scenario("wm2006", 3, hands={0: ["D25", "D50"], 1: [], 2: ["D100", "ROLL"]}, draw=[])
    after = do(s, "discard D25")
    assert after.current == 2


def test_core_empty_draw_pile_hand_ends_when_every_hand_is_empty():
    """Resolution: the hand ends when every hand is empty."""
    s = scenario("wm2006", 3, hands={0: ["D25"], 1: [], 2: []}, tableaus={1: driving(300)}, draw=[])
    after = do(s, "discard D25")
    assert sheet(after).completed_by is None
    assert sheet(after).line(1, "distance") == 300
    assert sheet(after).line(1, "trip") == 0
    assert after.hand_no == 1


def test_core_empty_draw_pile_player_keeps_playing_alone_when_the_others_are_empty():
    s = scenario("wm2006", 2, hands={0: ["D25", "D50"], 1: []}, draw=[])
    after = do(s, "discard D25")
    assert after.current == 0 and after.hands[0] == ("D50",)


# -- Scoring -------------------------------------------------------------------------
def _completed(key, *, tableau, hand=("D100",), draw=None, others=None, players=4, km_before=900):
    s = scenario(
        key, players, hands={0: [*hand, *FILLER]}, tableaus={0: tableau, **(others or {})}, draw=draw,
    )  # fmt: skip
    return sheet(do(s, f"play {hand[0]}"))


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid", "meilen"])
def test_core_scoring_distance_one_point_per_km(key):
    players = 4 if key != "meilen" else 2
    sh = _completed(key, tableau=driving(900), players=players, others={1: driving(375)})
    assert sh.line(0, "distance") == 1000
    assert sh.line(1, "distance") == 375


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid", "meilen"])
def test_core_scoring_100_per_safety(key):
    players = 4 if key != "meilen" else 2
    sh = _completed(
        key, tableau=driving(900, safeties=["EXTRA_TANK"]), players=players,
        others={1: tab(safeties=["DRIVING_ACE", "PUNCTURE_PROOF"])},
    )  # fmt: skip
    assert sh.line(0, "safeties") == 100
    assert sh.line(1, "safeties") == 200


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid", "meilen"])
def test_core_scoring_trip_completed_400(key):
    players = 4 if key != "meilen" else 2
    sh = _completed(key, tableau=driving(900), players=players, others={1: driving(500)})
    assert sh.line(0, "trip") == 400
    assert sh.line(1, "trip") == 0


@pytest.mark.parametrize(("key", "bonus"), [("wm2006", 300), ("hu", 300), ("fxschmid", 300), ("meilen", 200)])
def test_core_scoring_safe_trip_bonus_only_without_d200(key, bonus):
    players = 4 if key != "meilen" else 2
    assert _completed(key, tableau=driving(900), players=players).line(0, "safe_trip") == bonus
    with_200 = tab(battle=["ROLL"], distance=["D200", "D200", "D100", "D100", "D100", "D100", "D100"])
    assert _completed(key, tableau=with_200, players=players).line(0, "safe_trip") == 0


@pytest.mark.parametrize(("key", "bonus"), [("wm2006", 300), ("hu", 300), ("fxschmid", 300), ("meilen", 200)])
def test_core_scoring_safe_trip_bonus_not_with_exactly_one_d200(key, bonus):
    """Core scoring: the safe-trip bonus is for a trip completed with no D200; exactly one
    is one too many (zero and two are tested above)."""
    players = 4 if key != "meilen" else 2
    with_one = tab(battle=["ROLL"], distance=["D200", "D100", "D100", "D100", "D100", "D100", "D100", "D100"])
    sh = _completed(key, tableau=with_one, players=players)
    assert sh.completed_by == 0 and sh.line(0, "trip") == 400
    assert sh.line(0, "safe_trip") == 0
    assert _completed(key, tableau=driving(900), players=players).line(0, "safe_trip") == bonus


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_core_scoring_delayed_action_when_draw_pile_empty_at_completion(key):
    assert _completed(key, tableau=driving(900), draw=[]).line(0, "delayed_action") == 300
    assert _completed(key, tableau=driving(900), draw=["REPAIRS"]).line(0, "delayed_action") == 0


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_core_scoring_delayed_action_includes_the_turn_that_drew_the_last_card(key):
    """Resolution: the pile is empty at the completing play in the turn that drew the last card."""
    s = scenario(key, 4, hands={0: ["REPAIRS", *FILLER], 1: FILLER}, tableaus={1: driving(900)}, draw=["D100"])
    s = do(s, "discard REPAIRS")  # P2 draws the last card, D100
    assert s.current == 1 and s.draw_count == 0
    after = do(s, "play D100")
    assert sheet(after).line(1, "delayed_action") == 300


@pytest.mark.parametrize(("key", "base", "per_cf"), [("wm2006", 700, 300), ("fxschmid", 700, 300), ("hu", 700, 200),
                                                      ("meilen", 400, 300)])  # fmt: skip
@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_core_scoring_all_four_arithmetic(key, base, per_cf, k):
    """Resolution (arithmetic): all four with k coups fourrés is base + per_cf * k."""
    safeties = ["RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE"]
    players = 4 if key != "meilen" else 2
    sh = _completed(key, tableau=driving(900, safeties=safeties, coups=safeties[:k]), players=players)
    got = sh.line(0, "safeties") + sh.line(0, "all_four") + sh.line(0, "coup_fourre")
    assert got == base + per_cf * k


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid", "meilen"])
def test_core_scoring_shut_out_side_keeps_safety_and_coup_fourre_points(key):
    """Resolution: a shut-out side (0 km at the end) keeps its safety and coup-fourré points."""
    players = 4 if key != "meilen" else 2
    sh = _completed(
        key, tableau=driving(900), players=players,
        others={1: tab(battle=["ROLL", "STOP"], safeties=["EXTRA_TANK", "DRIVING_ACE"], coups=["DRIVING_ACE"])},
    )  # fmt: skip
    assert sh.line(1, "distance") == 0
    if key == "hu":  # the box's sheet: the coup fourré 300 on its line, in place of the safety's 100
        assert (sh.line(1, "safeties"), sh.line(1, "coup_fourre")) == (100, 300)
    else:
        assert (sh.line(1, "safeties"), sh.line(1, "coup_fourre")) == (200, 300)


def test_core_scoring_sheet_rows_add_up_to_hand_and_running_totals():
    s = scenario("wm2006", 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900), 1: driving(300)},
                 totals=[1000, 2000])  # fmt: skip
    sh = sheet(do(s, "play D100"))
    assert sh.hand_totals == (sum(sh.rows[0]), sum(sh.rows[1]))
    assert sh.totals == (1000 + sh.hand_totals[0], 2000 + sh.hand_totals[1])
    # 1000 km + 400 trip + 300 safe trip + 0 shut-out (side 2 drove)
    assert sh.hand_totals == (1700, 300)


# -- The match -----------------------------------------------------------------------
@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_core_match_ends_when_a_side_has_5000(key):
    # side 1 scores 1000 km + 400 trip + 300 safe trip = 1700 (side 2 drove: no shut-out)
    tabs = {0: driving(900), 1: driving(100)}
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus=tabs, totals=[3300, 4000])
    after = do(s, "play D100")
    assert after.phase == "over" and after.winners == (0,)
    assert after.totals == (5000, 4100)
    not_yet = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus=tabs, totals=[3299, 4000])
    assert do(not_yet, "play D100").phase == "play"


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_core_match_several_past_5000_highest_wins(key):
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900), 1: driving(500)},
                 totals=[3400, 4600])  # fmt: skip
    after = do(s, "play D100")
    # side 1: 3400 + 1700 = 5100; side 2: 4600 + 500 = 5100 -> tie (see next test); make it unequal
    assert after.totals == (5100, 5100)
    s2 = s._replace(totals=(3400, 4700))
    after2 = do(s2, "play D100")
    assert after2.phase == "over" and after2.winners == (1,)


def test_core_match_exact_tie_at_the_top_plays_another_hand():
    """Resolution: an exact tie at the top plays another hand."""
    s = scenario("wm2006", 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900), 1: driving(500)},
                 totals=[3400, 4600])  # fmt: skip
    after = do(s, "play D100")
    assert after.totals == (5100, 5100)
    assert after.phase == "play" and after.hand_no == 1 and after.winners == ()


@pytest.mark.parametrize("key", EDITION_KEYS)
def test_core_legal_actions_and_illegal_actions_agree(key):
    """One legal_actions is the truth: it holds exactly the actions apply accepts."""
    import random

    from rallye.mille import ALL_ACTIONS, explain

    ed = get_edition(key)
    for n in ed.players:
        rnd = random.Random(n)
        s = new_match(key, n, seed=n)
        for _ in range(80):
            if s.phase == "over":
                break
            allowed = set(legal_actions(s))
            for a in ALL_ACTIONS:
                assert (explain(s, a) is None) == (a in allowed), (str(a), explain(s, a))
            s = do(s, str(rnd.choice(sorted(allowed, key=str))))
    assert editions()


def test_core_fast_legal_generator_equals_the_explained_rules():
    """The engine's inlined ``_legal_from`` must agree with ``why_illegal_play`` and
    ``why_illegal_attack`` everywhere, in the documented order (plays by card, attacks by
    hazard then side, discards by card)."""
    from itertools import product

    from rallye.mille.actions import ATTACK, DISCARD, PLAY
    from rallye.mille.cards import HAZARDS
    from rallye.mille.engine import _legal_from, why_illegal_attack, why_illegal_play

    battles = [
        [],
        ["ROLL"],
        ["ROLL", "STOP"],
        ["ROLL", "OUT_OF_GAS"],
        ["ROLL", "OUT_OF_GAS", "GASOLINE"],
        ["ROLL", "FLAT_TIRE", "SPARE_TIRE"],
        ["ROLL", "ACCIDENT"],
        ["ROLL", "ACCIDENT", "REPAIRS"],
    ]
    speeds = [[], ["SPEED_LIMIT"], ["SPEED_LIMIT", "END_OF_LIMIT"]]
    safeties = [[], ["RIGHT_OF_WAY"], ["EXTRA_TANK", "DRIVING_ACE"], ["PUNCTURE_PROOF"]]
    distances = [[], ["D200"], ["D200", "D200"], ["D100"] * 6, ["D200", "D200", "D100", "D100", "D100", "D50"]]
    tabs = [
        tab(battle=b, speed=sp, distance=d, safeties=sf)
        for b, sp, sf, d in product(battles, speeds, safeties, distances)
    ]
    others = tabs[:: len(distances)]  # every battle, speed and safety pile, no distance
    hand = CARDS  # one of every card (a hand is sorted in CARDS order)
    checked = 0
    for t, o, target in product(tabs, others, (700, 1000)):
        if t.km > target:
            continue
        for me in (0, 1):
            tableaus = (t, o) if me == 0 else (o, t)
            want = [PLAY[c] for c in CARDS if c not in HAZARDS and why_illegal_play(t, c, target) is None]
            want += [ATTACK[(h, 1 - me)] for h in CARDS if h in HAZARDS and why_illegal_attack(o, h) is None]
            want += [DISCARD[c] for c in CARDS]
            assert _legal_from(hand, me, tableaus, target) == tuple(want), (t, o, target, me)
            # a hand of a few cards, repeated ones included
            few = ("D25", "D25", "D200", "ROLL", "STOP", "SPEED_LIMIT", "RIGHT_OF_WAY")
            got = _legal_from(few, me, tableaus, target)
            assert got == tuple(a for a in want if a.card in few), (t, o, target, me)
            checked += 1
    assert checked > 20_000


def test_core_legal_actions_parse_back():
    s = new_match("meilen", 5, seed=3)
    for a in legal_actions(s):
        assert parse_action(str(a)) is a
