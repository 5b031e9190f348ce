"""The table "Where the editions differ" (docs/rules/mille-bornes.md), cell by cell, played out as exact
scenarios on each edition (the loaded configs are checked in ``test_edition_data.py``).
Tests are named ``test_<edition>_<cell>``; a cell shared by several editions is one helper
``_<cell>(key)`` called by one named test per edition (at the end of the file)."""

from __future__ import annotations

import json

import pytest

from rallye.core.errors import ConfigError, IllegalAction
from rallye.mille import get_edition, legal_actions, load_edition, new_match, outcome
from rallye.mille.edition import editions

from .conftest import FILLER, ROLLING, do, driving, scenario, sheet, tab

CLASSIC = ("wm2006", "hu", "fxschmid")


def legal(state):
    return [str(a) for a in legal_actions(state)]


# -- players -------------------------------------------------------------------------
def _players_2_3_4_6(key):
    assert get_edition(key).players == (2, 3, 4, 6)
    for n in (2, 3, 4, 6):
        assert new_match(key, n).n_players == n
    for n in (1, 5, 7):
        with pytest.raises(ConfigError):
            new_match(key, n)


def test_meilen_players_2_to_6():
    assert get_edition("meilen").players == (2, 3, 4, 5, 6)
    for n in range(2, 7):
        assert new_match("meilen", n).n_players == n


# -- sides ---------------------------------------------------------------------------
def _sides_alone_2_3_two_teams_of_2_for_4_three_teams_of_2_for_6(key):
    ed = get_edition(key)
    assert ed.sides_for(2) == ((0,), (1,))
    assert ed.sides_for(3) == ((0,), (1,), (2,))
    assert ed.sides_for(4) == ((0, 2), (1, 3))
    assert ed.sides_for(6) == ((0, 3), (1, 4), (2, 5))


def test_fxschmid_sides_six_players_two_teams_of_3():
    ed = get_edition("fxschmid")
    assert ed.sides_for(2) == ((0,), (1,))
    assert ed.sides_for(3) == ((0,), (1,), (2,))
    assert ed.sides_for(4) == ((0, 2), (1, 3))
    assert ed.sides_for(6) == ((0, 2, 4), (1, 3, 5))
    # seat 4 drives on the tableau it shares with seats 0 and 2
    s = scenario("fxschmid", 6, hands={4: ["D100", *FILLER]}, tableaus={0: driving(300)}, current=4)
    assert do(s, "play D100").tableaus[0].km == 400


def test_meilen_sides_everyone_alone():
    ed = get_edition("meilen")
    for n in range(2, 7):
        assert ed.sides_for(n) == tuple((seat,) for seat in range(n))


# -- target --------------------------------------------------------------------------
def _target_700_alone_1000_teams(key):
    assert [new_match(key, n).target for n in (2, 3, 4, 6)] == [700, 700, 1000, 1000]


def test_meilen_target_1000_always():
    assert [new_match("meilen", n).target for n in range(2, 7)] == [1000] * 5


# -- cards removed with 2–3 players ----------------------------------------------------
def _count(cards, card):
    return sum(1 for c in cards if c == card)


def _small_game_removes_one_each_of_stop_out_of_gas_flat_tire_accident(key):
    ed = get_edition(key)
    full = ed.deck_for(4)
    for n in (2, 3):
        small = ed.deck_for(n)
        assert len(small) == 102
        for card in ("STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"):
            assert _count(small, card) == _count(full, card) - 1
        assert _count(small, "SPEED_LIMIT") == 4  # the speed limit stays
        s = new_match(key, n, seed=1)
        assert len(s.deck) == 102


def test_fxschmid_small_game_also_removes_speed_limit():
    ed = get_edition("fxschmid")
    full = ed.deck_for(4)
    for n in (2, 3):
        small = ed.deck_for(n)
        assert len(small) == 101
        for card in ("STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT", "SPEED_LIMIT"):
            assert _count(small, card) == _count(full, card) - 1


def test_meilen_small_game_removes_no_cards():
    ed = get_edition("meilen")
    assert ed.deck_for(2) == ed.deck_for(3) == ed.deck_for(4) == ed.deck_for(6)
    assert len(ed.deck_for(2)) == 104


def _full_deck_106_cards_for_4_and_6_players(key):
    ed = get_edition(key)
    assert len(ed.deck_for(4)) == len(ed.deck_for(6)) == 106


# -- extra turn after an ordinary safety -----------------------------------------------
def _no_extra_turn_after_an_ordinary_safety(key):
    s = scenario(key, 3, hands={0: ["EXTRA_TANK", *FILLER]}, draw=["D25", "D50", "D75"])
    after = do(s, "play EXTRA_TANK")
    assert after.current == 1
    assert len(after.hands[0]) == 6


def test_fxschmid_extra_turn_after_any_safety():
    s = scenario("fxschmid", 3, hands={0: ["EXTRA_TANK", *FILLER]}, draw=["D25", "D50", "D75"])
    after = do(s, "play EXTRA_TANK")
    assert after.current == 0  # draws and plays again
    assert len(after.hands[0]) == 7 and "D25" in after.hands[0]
    assert after.draw_pile == ("D50", "D75")
    assert do(after, "discard D25").current == 1  # one extra turn, not more


def test_fxschmid_extra_turn_after_a_safety_with_the_draw_pile_empty():
    s = scenario("fxschmid", 2, hands={0: ["EXTRA_TANK", "D25"], 1: ["D50"]}, draw=[])
    after = do(s, "play EXTRA_TANK")
    assert after.current == 0 and after.hands[0] == ("D25",)


def test_fxschmid_coup_fourre_turn_is_the_extra_turn():
    """The coup-fourré safety does not earn a second extra turn."""
    s = scenario(
        "fxschmid", 3, hands={0: ["ACCIDENT", *FILLER], 2: ["DRIVING_ACE", *FILLER[:5]]},
        tableaus={2: ROLLING}, draw=["D25", "D50", "D75", "D100"],
    )  # fmt: skip
    s = do(s, "attack 3 ACCIDENT")
    assert s.current == 2 and len(s.hands[2]) == 7
    after = do(s, "discard D25")
    assert after.current == 0  # no second turn for the coup-fourré safety itself


# -- safety / all four / coup fourré values --------------------------------------------
def _finish_team_hand(key, tableau, others=None, draw=None):
    players = 2 if key == "meilen" else 4
    s = scenario(key, players, hands={0: ["D100", *FILLER]}, tableaus={0: tableau, **(others or {})}, draw=draw)
    return sheet(do(s, "play D100"))


def _safety_scores_100(key):
    sh = _finish_team_hand(key, driving(900, safeties=["RIGHT_OF_WAY", "DRIVING_ACE"]))
    assert sh.line(0, "safeties") == 200


def test_fxschmid_safety_scores_100_not_200():
    """Resolution: the scan's table says 200; its text and "instead of 4 × 100" say 100."""
    sh = _finish_team_hand("fxschmid", driving(900, safeties=["RIGHT_OF_WAY", "DRIVING_ACE", "EXTRA_TANK"]))
    assert sh.line(0, "safeties") == 300


ALL4 = ["RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE"]


def _all_four_safeties_700_in_place_of_400(key):
    sh = _finish_team_hand(key, driving(900, safeties=ALL4))
    assert sh.line(0, "safeties") + sh.line(0, "all_four") == 700
    three = _finish_team_hand(key, driving(900, safeties=ALL4[:3]))
    assert three.line(0, "all_four") == 0


def test_meilen_all_four_safeties_no_bonus():
    sh = _finish_team_hand("meilen", driving(900, safeties=ALL4))
    assert sh.line(0, "safeties") == 400 and sh.line(0, "all_four") == 0


def _real_coup_fourre_then_finish(key):
    """Side 1 is at 900; P2 attacks it with STOP; P1 holds RIGHT_OF_WAY: a coup fourré,
    then P1 completes the trip in its coup-fourré turn."""
    players = 2 if key == "meilen" else 4
    s = scenario(
        key, players, hands={1: ["STOP", *FILLER], 0: ["RIGHT_OF_WAY", "D100", *FILLER[:4]]},
        tableaus={0: driving(900)}, current=1,
    )  # fmt: skip
    s = do(s, "attack 1 STOP")
    assert s.current == 0 and s.tableaus[0].coups == ("RIGHT_OF_WAY",)
    return sheet(do(s, "play D100"))


def _coup_fourre_300_on_top_of_the_safetys_100(key):
    sh = _real_coup_fourre_then_finish(key)
    assert (sh.line(0, "safeties"), sh.line(0, "coup_fourre")) == (100, 300)


def test_hu_coup_fourre_300_on_the_coup_fourre_line_in_place_of_the_safetys_100():
    """hu's box sheet: a coup fourré is 300 on the coup-fourré line, "100 pontot érő
    ütőkártya helyett"; the safety line counts only the safeties laid normally."""
    sh = _real_coup_fourre_then_finish("hu")
    assert (sh.line(0, "safeties"), sh.line(0, "coup_fourre")) == (0, 300)
    # with a safety laid normally too: 100 on the safety line, the total as before
    s = scenario(
        "hu", 4, hands={1: ["STOP", *FILLER], 0: ["RIGHT_OF_WAY", "D100", *FILLER[:4]]},
        tableaus={0: driving(900, safeties=["EXTRA_TANK"])}, current=1,
    )  # fmt: skip
    sh = sheet(do(s, "attack 1 STOP", "play D100"))
    assert (sh.line(0, "safeties"), sh.line(0, "coup_fourre")) == (100, 300)
    assert sh.hand_totals[0] == 1000 + 100 + 300 + 400 + 300 + 500  # km, the two lines, trip, safe trip, shut-out


def test_hu_score_sheet_keeps_the_totals_of_safety_plus_200():
    """Resolution (arithmetic): all four with k coups fourrés is 700 + 200k in hu, on the
    box's lines: 100 per normal safety, 300 per coup fourré, 300 for all four."""
    safeties = ["RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE"]
    for k in range(5):
        sh = _finish_team_hand("hu", driving(900, safeties=safeties, coups=safeties[:k]))
        lines = (sh.line(0, "safeties"), sh.line(0, "coup_fourre"), sh.line(0, "all_four"))
        assert lines == (100 * (4 - k), 300 * k, 300)
        assert sum(lines) == 700 + 200 * k


# -- trip / safe trip / delayed action ---------------------------------------------------
def _trip_completed_400(key):
    assert _finish_team_hand(key, driving(900)).line(0, "trip") == 400


def _safe_trip_300(key):
    assert _finish_team_hand(key, driving(900)).line(0, "safe_trip") == 300


def test_meilen_safe_trip_200():
    assert _finish_team_hand("meilen", driving(900)).line(0, "safe_trip") == 200


def _delayed_action_300(key):
    assert _finish_team_hand(key, driving(900), draw=[]).line(0, "delayed_action") == 300


def test_meilen_no_delayed_action_bonus():
    # P2 draws the last card and completes 1000 in that very turn
    s = scenario("meilen", 2, hands={0: FILLER, 1: FILLER}, tableaus={1: driving(900)}, draw=["D100"])
    s = do(s, "discard REPAIRS")
    assert s.draw_count == 0
    sh = sheet(do(s, "play D100"))
    assert sh.completed_by == 1
    assert sh.line(1, "trip") == 400 and sh.line(1, "delayed_action") == 0


# -- shut-out ------------------------------------------------------------------------
def _shutout_500_per_shut_out_opposing_side_to_the_side_that_completed(key):
    # 6 players: three teams of 2, target 1000, no extension.
    def finish(others):
        s = scenario(key, 6, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900), **others})
        return sheet(do(s, "play D100"))

    both_shut = finish({})
    assert [both_shut.line(side, "shutout") for side in range(3)] == [1000, 0, 0]
    one_shut = finish({1: driving(200)})
    assert [one_shut.line(side, "shutout") for side in range(3)] == [500, 0, 0]


def _shutout_nothing_when_no_side_completed(key):
    s = scenario(key, 3, hands={0: ["D25"], 1: [], 2: []}, tableaus={0: driving(300)}, draw=[])
    sh = sheet(do(s, "discard D25"))
    assert sh.completed_by is None
    assert [sh.line(side, "shutout") for side in range(3)] == [0, 0, 0]


def test_fxschmid_shutout_bonus_goes_to_every_placed_side():
    # 3 players: P1 completes 700 (and declines the extension), side 2 placed, side 3 not.
    s = scenario("fxschmid", 3, hands={0: ["D100", *FILLER]}, tableaus={0: driving(600), 1: driving(250)})
    sh = sheet(do(s, "play D100", "decline"))
    assert sh.completed_by == 0
    assert [sh.line(side, "shutout") for side in range(3)] == [500, 500, 0]


def test_fxschmid_shutout_bonus_goes_to_every_placed_side_trip_completed_or_not():
    s = scenario("fxschmid", 3, hands={0: ["D25"], 1: [], 2: []}, tableaus={0: driving(300), 1: driving(50)},
                 draw=[])  # fmt: skip
    sh = sheet(do(s, "discard D25"))
    assert sh.completed_by is None
    assert [sh.line(side, "shutout") for side in range(3)] == [500, 500, 0]


def test_fxschmid_shutout_bonus_with_two_shut_out_sides_goes_to_the_placed_side_only():
    """fxschmid shut-out: 500 per shut-out opposing side to every side that placed; a
    shut-out side counts only its safeties and coups fourrés, so it earns nothing for the
    other shut-out side ("Fahrer, die nicht platziert sind, zählen nur ...")."""
    s = scenario("fxschmid", 3, hands={0: ["D100", *FILLER]}, tableaus={0: driving(600)})
    sh = sheet(do(s, "play D100", "decline"))
    assert sh.completed_by == 0
    assert [sh.line(side, "shutout") for side in range(3)] == [1000, 0, 0]
    assert sh.hand_totals[1:] == (0, 0)


def test_meilen_no_shutout_bonus():
    s = scenario("meilen", 3, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})
    sh = sheet(do(s, "play D100"))
    assert [sh.line(side, "shutout") for side in range(3)] == [0, 0, 0]


# -- extension -----------------------------------------------------------------------
def _at_700(key, players=2, *, draw=None, hands=None, others=None):
    """P1 at 600 plays D100: 700, the extension decision."""
    h = {0: ["D100", "D100", "D100", "D100", *FILLER[:3]], **(hands or {})}
    s = scenario(key, players, hands=h, tableaus={0: driving(600), **(others or {})}, draw=draw)
    s = do(s, "play D100")
    assert s.phase == "extend" and s.current == 0
    return s


def _extension_a_lone_player_reaching_700_may_extend(key, players):
    s = _at_700(key, players)
    assert legal(s) == ["extend", "decline"]
    ext = do(s, "extend")
    assert ext.target == 1000 and ext.extended_by == 0 and ext.phase == "play"


def _extension_only_in_2_3_player_games(key):
    # teams play to 1000: reaching 700 is no decision, and 1000 ends the hand at once
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(600)})
    assert do(s, "play D100").phase == "play"
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})
    assert sheet(do(s, "play D100")).extended_by is None


def _extension_decline_ends_the_hand_at_700_with_the_trip(key):
    sh = sheet(do(_at_700(key), "decline"))
    assert sh.completed_by == 0 and sh.extended_by is None
    assert sh.line(0, "trip") == 400 and sh.line(0, "extension") == 0


def _extension_play_goes_on_with_the_next_seat(key):
    s = do(_at_700(key, 3), "extend")
    assert s.current == 1 and len(s.hands[1]) == 7
    assert s.sheets == ()


def test_wm2006_extension_allowed_even_after_the_draw_pile_ran_out():
    s = _at_700("wm2006", draw=[])
    assert legal(s) == ["extend", "decline"]
    s = do(s, "extend")
    assert s.current == 1 and s.phase == "play"


def _extension_bonus_to_whoever_completes_1000(key):
    # another side completes the extended trip
    s = do(_at_700(key, hands={1: ["D100", *FILLER]}, others={1: driving(900)}), "extend")
    sh = sheet(do(s, "play D100"))
    assert sh.completed_by == 1 and sh.extended_by == 0
    assert (sh.line(1, "trip"), sh.line(1, "extension"), sh.line(1, "safe_trip")) == (400, 200, 300)
    assert (sh.line(0, "trip"), sh.line(0, "extension"), sh.line(0, "safe_trip")) == (0, 0, 0)
    # the caller completes it
    s = do(_at_700(key), "extend", "discard REPAIRS", "play D100", "discard REPAIRS", "play D100",
           "discard REPAIRS")  # fmt: skip
    sh = sheet(do(s, "play D100"))
    assert sh.completed_by == 0 and sh.line(0, "distance") == 1000
    assert (sh.line(0, "trip"), sh.line(0, "extension"), sh.line(0, "safe_trip")) == (400, 200, 300)


def test_wm2006_extension_nobody_completes_nobody_gets_the_trip_bonuses():
    s = _at_700("wm2006", draw=[], hands={0: ["D100", "REPAIRS"], 1: ["REPAIRS"]})
    sh = sheet(do(s, "extend", "discard REPAIRS", "discard REPAIRS"))
    assert sh.completed_by is None and sh.extended_by == 0
    for side in (0, 1):
        for line in ("trip", "extension", "safe_trip", "delayed_action", "shutout"):
            assert sh.line(side, line) == 0, (side, line)
    assert sh.line(0, "distance") == 700


def test_hu_extended_hand_also_ends_when_the_draw_pile_runs_out():
    def extended(key):
        return do(_at_700(key, draw=["REPAIRS", "REPAIRS"]), "extend", "discard REPAIRS")

    # P1 now begins a turn that draws the last card; after that turn the hu hand ends
    s = extended("hu")
    assert s.current == 0 and s.draw_count == 0
    after = do(s, "discard REPAIRS")
    sh = sheet(after)
    assert sh.completed_by is None and sh.extended_by == 0
    assert sh.line(0, "trip") == 0 and sh.line(0, "extension") == 0
    # wm2006 plays on from the hands
    w = do(extended("wm2006"), "discard REPAIRS")
    assert w.sheets == () and w.current == 1


def test_hu_extension_not_offered_once_the_draw_pile_is_empty():
    """Project resolution (docs/rules/mille-bornes.md, Resolution "hu extension"): an extended
    hu hand would end at once, so none is offered."""
    s = scenario("hu", 2, hands={0: ["D100", "D25"]}, tableaus={0: driving(600)}, draw=[])
    sh = sheet(do(s, "play D100"))
    assert sh.completed_by == 0 and sh.line(0, "delayed_action") == 300


def test_fxschmid_extension_declared_at_the_moment_of_reaching_700():
    s = _at_700("fxschmid", 3)
    # anything but the decision is refused; after a decline the hand is over (no later call)
    assert legal(s) == ["extend", "decline"]
    with pytest.raises(IllegalAction) as info:
        do(s, "discard REPAIRS")
    assert info.value.rule == "extension-decision"
    assert sheet(do(s, "decline")).completed_by == 0


def test_fxschmid_failed_extension_gives_200_to_each_placed_opponent():
    s = _at_700(
        "fxschmid", 3, draw=[], hands={0: ["D100", "REPAIRS"], 1: ["REPAIRS"], 2: ["REPAIRS"]},
        others={1: driving(300), 2: tab(safeties=["EXTRA_TANK"])},
    )  # fmt: skip
    sh = sheet(do(s, "extend", "discard REPAIRS", "discard REPAIRS", "discard REPAIRS"))
    assert sh.completed_by is None and sh.extended_by == 0
    assert [sh.line(side, "extension") for side in range(3)] == [0, 200, 0]
    # the shut-out opponent counts only its safeties and coups fourrés
    assert sh.line(2, "safeties") == 100 and sum(sh.rows[2]) == 100


def test_fxschmid_failed_extension_200_to_each_placed_opponent_whether_or_not_it_completed():
    s = _at_700(
        "fxschmid", 3, hands={1: ["D100", *FILLER]}, others={1: driving(900), 2: driving(50)},
    )  # fmt: skip
    sh = sheet(do(s, "extend", "play D100"))
    assert sh.completed_by == 1
    assert [sh.line(side, "extension") for side in range(3)] == [0, 200, 200]
    assert sh.line(1, "trip") == 400


def test_fxschmid_successful_extension_200_to_the_caller():
    s = do(_at_700("fxschmid"), "extend", "discard REPAIRS", "play D100", "discard REPAIRS", "play D100",
           "discard REPAIRS")  # fmt: skip
    sh = sheet(do(s, "play D100"))
    assert sh.completed_by == 0
    assert [sh.line(side, "extension") for side in range(2)] == [200, 0]


def test_meilen_no_extension():
    s = scenario("meilen", 2, hands={0: ["D100", *FILLER]}, tableaus={0: driving(600)})
    assert do(s, "play D100").phase == "play"
    s = scenario("meilen", 2, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})
    after = do(s, "play D100")
    assert after.phase == "over" and sheet(after).extended_by is None
    assert "extend" not in legal(s)


# -- draw pile runs out --------------------------------------------------------------
def _draw_pile_runs_out_play_on_from_the_hands(key):
    s = scenario(key, 2, hands={0: FILLER, 1: FILLER}, draw=["D25"])
    s = do(s, "discard REPAIRS")  # P2 draws the last card
    s = do(s, "discard REPAIRS")
    assert s.sheets == () and s.current == 0 and len(s.hands[0]) == 5
    s = do(s, "discard REPAIRS")
    assert s.current == 1 and len(s.hands[1]) == 6


def test_meilen_hand_ends_after_turn_that_drew_last_card():
    s = scenario("meilen", 3, hands={0: FILLER, 1: FILLER, 2: ["D100", *FILLER]}, draw=["D25"])
    s = do(s, "discard REPAIRS")  # P2's turn draws the last card
    assert s.current == 1 and s.draw_count == 0 and s.sheets == ()
    after = do(s, "discard REPAIRS")
    assert after.phase == "over"  # one-hand game: P3 never plays
    assert after.hands[2] == s.hands[2]
    assert sheet(after).completed_by is None


def test_meilen_coup_fourre_turn_whose_replacement_draw_took_the_last_card_is_played_out():
    s = scenario(
        "meilen", 3, hands={0: ["ACCIDENT", *FILLER], 2: ["DRIVING_ACE", *FILLER[:5]]},
        tableaus={2: ROLLING}, draw=["D50"],
    )  # fmt: skip
    s = do(s, "attack 3 ACCIDENT")
    assert s.phase == "play" and s.current == 2 and s.draw_count == 0
    assert len(s.hands[2]) == 6 and "D50" in s.hands[2]  # the replacement; the turn's draw finds nothing
    after = do(s, "discard D50")
    assert after.phase == "over"
    sh = sheet(after)
    assert (sh.line(2, "safeties"), sh.line(2, "coup_fourre")) == (100, 300)


def test_meilen_coup_fourre_against_the_turn_that_drew_the_last_card_scored_but_earns_no_turn():
    s = scenario(
        "meilen", 3, hands={0: FILLER, 1: ["ACCIDENT", *FILLER[:5]], 2: ["DRIVING_ACE", *FILLER[:5]]},
        tableaus={2: ROLLING}, draw=["D50"],
    )  # fmt: skip
    s = do(s, "discard REPAIRS")  # P2 draws the last card
    after = do(s, "attack 3 ACCIDENT")
    assert after.phase == "over"
    sh = sheet(after)
    assert (sh.line(2, "safeties"), sh.line(2, "coup_fourre")) == (100, 300)
    assert after.tableaus[2].coups == ("DRIVING_ACE",)
    assert after.discard[-1] == "ACCIDENT"


def test_meilen_nobody_at_1000_every_side_tied_closest_gets_400():
    s = scenario(
        "meilen", 3, hands={0: FILLER, 1: FILLER, 2: FILLER},
        tableaus={0: driving(800), 1: driving(800), 2: driving(500)}, draw=["REPAIRS"],
    )  # fmt: skip
    after = do(s, "discard REPAIRS", "discard REPAIRS")
    sh = sheet(after)
    assert sh.completed_by is None
    assert [sh.line(side, "trip") for side in range(3)] == [400, 400, 0]
    # no safe-trip bonus: no trip was completed
    assert [sh.line(side, "safe_trip") for side in range(3)] == [0, 0, 0]
    assert after.winners == (0, 1)


def _meilen_end(kms, *, players=3):
    """A meilen game whose draw pile runs out in P2's turn, the sides at ``kms``."""
    hands = {p: FILLER for p in range(players)}
    tabs = {p: driving(km) if km else tab() for p, km in enumerate(kms)}
    s = scenario("meilen", players, hands=hands, tableaus=tabs, draw=["REPAIRS"])
    return do(s, "discard REPAIRS", "discard REPAIRS")  # P2's turn draws the last card


def test_meilen_winner_by_distance_exactly_1000_wins():
    """meilen match: "Der Gewinner ist der erste Spieler, der genau 1000 Kilometer zählt",
    decided by distance, not points: the side at 1000 wins though another scores more."""
    four = ["RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE"]
    s = scenario(
        "meilen", 2, hands={0: ["D100", *FILLER]},
        tableaus={0: driving(900), 1: driving(875, safeties=four, coups=four)},
    )  # fmt: skip
    after = do(s, "play D100")
    assert after.winners == (0,) and outcome(after) == "won"
    assert after.totals[1] > after.totals[0]  # the points are scored and shown, they do not decide


def test_meilen_winner_by_distance_the_closest_wins_when_nobody_made_1000():
    """meilen match: "derjenige, der am nächsten an 1000 Kilometern liegt"."""
    after = _meilen_end([800, 500, 0])
    assert after.phase == "over" and after.winners == (0,) and outcome(after) == "won"


def test_meilen_winner_by_distance_sides_tied_closest_share_the_win():
    """meilen match, Resolution: sides tied closest share the win."""
    after = _meilen_end([600, 0, 600])
    assert after.winners == (0, 2) and outcome(after) == "shared"
    assert [sheet(after).line(side, "trip") for side in range(3)] == [400, 0, 400]


def test_meilen_winner_by_distance_a_side_at_0_km_is_never_closest_nobody_drove_is_a_draw():
    """meilen, Resolutions: a side with 0 km is never "closest" (nobody gets the 400), and
    if nobody drove the game is drawn: every side is listed, none won."""
    after = _meilen_end([0, 0, 0])
    assert after.phase == "over" and outcome(after) == "drawn"
    assert after.winners == (0, 1, 2)
    assert [sheet(after).line(side, "trip") for side in range(3)] == [0, 0, 0]


# -- cards left in hand --------------------------------------------------------------
def test_meilen_distance_in_hand_subtracted():
    # P1 completes 1000 holding D200 + D75; P2 holds 2 x D100 + D25 and drove 50
    s = scenario(
        "meilen", 2, hands={0: ["D100", "D200", "D75", "REPAIRS"], 1: ["D100", "D100", "D25", "REPAIRS"]},
        tableaus={0: driving(900), 1: driving(50)},
    )  # fmt: skip
    sh = sheet(do(s, "play D100"))
    assert sh.line(0, "hand_penalty") == -275  # the winner's included
    assert sh.line(1, "hand_penalty") == -225
    assert sh.hand_totals[1] == 50 - 225 < 0  # a total may go below zero


def _distance_in_hand_not_subtracted(key):
    s = scenario(key, 4, hands={0: ["D100", "D200", "D75"], 1: ["D100", "D100"]}, tableaus={0: driving(900)})
    sh = sheet(do(s, "play D100"))
    assert [sh.line(side, "hand_penalty") for side in range(2)] == [0, 0]


# -- match ---------------------------------------------------------------------------
def _match_to_5000(key):
    assert get_edition(key).match_target == 5000
    tabs = {0: driving(900), 1: driving(100)}
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus=tabs, totals=[3300, 0])
    assert do(s, "play D100").winners == (0,)
    s = scenario(key, 4, hands={0: ["D100", *FILLER]}, tableaus=tabs, totals=[3299, 0])
    assert do(s, "play D100").phase == "play"


def test_fxschmid_match_highest_wins_if_several_pass():
    s = scenario("fxschmid", 4, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900), 1: driving(500)},
                 totals=[3400, 4700])  # fmt: skip
    after = do(s, "play D100")
    assert after.totals == (5100, 5200) and after.winners == (1,)


def test_meilen_match_is_one_hand():
    assert get_edition("meilen").match_target is None
    s = scenario("meilen", 3, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})
    after = do(s, "play D100")
    assert after.phase == "over" and after.winners == (0,) and len(after.sheets) == 1


def test_meilen_config_may_set_a_match_target_of_5000(tmp_path):
    from importlib import resources

    data = json.loads((resources.files("rallye.mille") / "editions" / "meilen.json").read_text(encoding="utf-8"))
    data["key"], data["aliases"], data["match_target"] = "meilen5000", [], 5000
    path = tmp_path / "meilen5000.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ed = load_edition(path)
    s = scenario("meilen", 3, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})._replace(edition=ed)
    after = do(s, "play D100")
    assert after.phase == "play" and after.hand_no == 1 and after.winners == ()


def test_every_edition_is_covered_here():
    assert {e.key for e in editions()} == {"wm2006", "hu", "fxschmid", "meilen"}


# -- one named test per edition for the cells shared by several editions -----------------


def test_wm2006_players_2_3_4_6():
    _players_2_3_4_6("wm2006")


def test_hu_players_2_3_4_6():
    _players_2_3_4_6("hu")


def test_fxschmid_players_2_3_4_6():
    _players_2_3_4_6("fxschmid")


def test_wm2006_sides_alone_2_3_two_teams_of_2_for_4_three_teams_of_2_for_6():
    _sides_alone_2_3_two_teams_of_2_for_4_three_teams_of_2_for_6("wm2006")


def test_hu_sides_alone_2_3_two_teams_of_2_for_4_three_teams_of_2_for_6():
    _sides_alone_2_3_two_teams_of_2_for_4_three_teams_of_2_for_6("hu")


def test_wm2006_target_700_alone_1000_teams():
    _target_700_alone_1000_teams("wm2006")


def test_hu_target_700_alone_1000_teams():
    _target_700_alone_1000_teams("hu")


def test_fxschmid_target_700_alone_1000_teams():
    _target_700_alone_1000_teams("fxschmid")


def test_wm2006_small_game_removes_one_each_of_stop_out_of_gas_flat_tire_accident():
    _small_game_removes_one_each_of_stop_out_of_gas_flat_tire_accident("wm2006")


def test_hu_small_game_removes_one_each_of_stop_out_of_gas_flat_tire_accident():
    _small_game_removes_one_each_of_stop_out_of_gas_flat_tire_accident("hu")


def test_wm2006_full_deck_106_cards_for_4_and_6_players():
    _full_deck_106_cards_for_4_and_6_players("wm2006")


def test_hu_full_deck_106_cards_for_4_and_6_players():
    _full_deck_106_cards_for_4_and_6_players("hu")


def test_fxschmid_full_deck_106_cards_for_4_and_6_players():
    _full_deck_106_cards_for_4_and_6_players("fxschmid")


def test_wm2006_no_extra_turn_after_an_ordinary_safety():
    _no_extra_turn_after_an_ordinary_safety("wm2006")


def test_hu_no_extra_turn_after_an_ordinary_safety():
    _no_extra_turn_after_an_ordinary_safety("hu")


def test_meilen_no_extra_turn_after_an_ordinary_safety():
    _no_extra_turn_after_an_ordinary_safety("meilen")


def test_wm2006_safety_scores_100():
    _safety_scores_100("wm2006")


def test_hu_safety_scores_100():
    _safety_scores_100("hu")


def test_meilen_safety_scores_100():
    _safety_scores_100("meilen")


def test_wm2006_all_four_safeties_700_in_place_of_400():
    _all_four_safeties_700_in_place_of_400("wm2006")


def test_hu_all_four_safeties_700_in_place_of_400():
    _all_four_safeties_700_in_place_of_400("hu")


def test_fxschmid_all_four_safeties_700_in_place_of_400():
    _all_four_safeties_700_in_place_of_400("fxschmid")


def test_wm2006_coup_fourre_300_on_top_of_the_safetys_100():
    _coup_fourre_300_on_top_of_the_safetys_100("wm2006")


def test_fxschmid_coup_fourre_300_on_top_of_the_safetys_100():
    _coup_fourre_300_on_top_of_the_safetys_100("fxschmid")


def test_meilen_coup_fourre_300_on_top_of_the_safetys_100():
    _coup_fourre_300_on_top_of_the_safetys_100("meilen")


def test_wm2006_trip_completed_400():
    _trip_completed_400("wm2006")


def test_hu_trip_completed_400():
    _trip_completed_400("hu")


def test_fxschmid_trip_completed_400():
    _trip_completed_400("fxschmid")


def test_meilen_trip_completed_400():
    _trip_completed_400("meilen")


def test_wm2006_safe_trip_300():
    _safe_trip_300("wm2006")


def test_hu_safe_trip_300():
    _safe_trip_300("hu")


def test_fxschmid_safe_trip_300():
    _safe_trip_300("fxschmid")


def test_wm2006_delayed_action_300():
    _delayed_action_300("wm2006")


def test_hu_delayed_action_300():
    _delayed_action_300("hu")


def test_fxschmid_delayed_action_300():
    _delayed_action_300("fxschmid")


def test_wm2006_shutout_500_per_shut_out_opposing_side_to_the_side_that_completed():
    _shutout_500_per_shut_out_opposing_side_to_the_side_that_completed("wm2006")


def test_hu_shutout_500_per_shut_out_opposing_side_to_the_side_that_completed():
    _shutout_500_per_shut_out_opposing_side_to_the_side_that_completed("hu")


def test_wm2006_shutout_nothing_when_no_side_completed():
    _shutout_nothing_when_no_side_completed("wm2006")


def test_hu_shutout_nothing_when_no_side_completed():
    _shutout_nothing_when_no_side_completed("hu")


def test_wm2006_extension_a_lone_player_reaching_700_may_extend():
    for players in (2, 3):
        _extension_a_lone_player_reaching_700_may_extend("wm2006", players)


def test_hu_extension_a_lone_player_reaching_700_may_extend():
    for players in (2, 3):
        _extension_a_lone_player_reaching_700_may_extend("hu", players)


def test_fxschmid_extension_a_lone_player_reaching_700_may_extend():
    for players in (2, 3):
        _extension_a_lone_player_reaching_700_may_extend("fxschmid", players)


def test_wm2006_extension_only_in_2_3_player_games():
    _extension_only_in_2_3_player_games("wm2006")


def test_hu_extension_only_in_2_3_player_games():
    _extension_only_in_2_3_player_games("hu")


def test_fxschmid_extension_only_in_2_3_player_games():
    _extension_only_in_2_3_player_games("fxschmid")


def test_wm2006_extension_decline_ends_the_hand_at_700_with_the_trip():
    _extension_decline_ends_the_hand_at_700_with_the_trip("wm2006")


def test_hu_extension_decline_ends_the_hand_at_700_with_the_trip():
    _extension_decline_ends_the_hand_at_700_with_the_trip("hu")


def test_fxschmid_extension_decline_ends_the_hand_at_700_with_the_trip():
    _extension_decline_ends_the_hand_at_700_with_the_trip("fxschmid")


def test_wm2006_extension_play_goes_on_with_the_next_seat():
    _extension_play_goes_on_with_the_next_seat("wm2006")


def test_hu_extension_play_goes_on_with_the_next_seat():
    _extension_play_goes_on_with_the_next_seat("hu")


def test_wm2006_extension_bonus_to_whoever_completes_1000():
    _extension_bonus_to_whoever_completes_1000("wm2006")


def test_hu_extension_bonus_to_whoever_completes_1000():
    _extension_bonus_to_whoever_completes_1000("hu")


def test_wm2006_draw_pile_runs_out_play_on_from_the_hands():
    _draw_pile_runs_out_play_on_from_the_hands("wm2006")


def test_hu_draw_pile_runs_out_play_on_from_the_hands():
    _draw_pile_runs_out_play_on_from_the_hands("hu")


def test_fxschmid_draw_pile_runs_out_play_on_from_the_hands():
    _draw_pile_runs_out_play_on_from_the_hands("fxschmid")


def test_wm2006_distance_in_hand_not_subtracted():
    _distance_in_hand_not_subtracted("wm2006")


def test_hu_distance_in_hand_not_subtracted():
    _distance_in_hand_not_subtracted("hu")


def test_fxschmid_distance_in_hand_not_subtracted():
    _distance_in_hand_not_subtracted("fxschmid")


def test_wm2006_match_to_5000():
    _match_to_5000("wm2006")


def test_hu_match_to_5000():
    _match_to_5000("hu")


def test_fxschmid_match_to_5000():
    _match_to_5000("fxschmid")
