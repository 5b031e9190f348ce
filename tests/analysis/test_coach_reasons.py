"""Each reason of the coach in the situation it names (issue #61, item 3): small pure
functions of the view and the candidate facts. Mille Bornes positions are built with the
engine tests' scenarios, Knight Rider's with their chase boards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.knightrider.kr_helpers import E, W, move_to
from tests.knightrider.kr_helpers import chase as kr_chase
from tests.mille.conftest import driving, scenario, tab

from rallye.analysis import coach_kr, coach_mille
from rallye.analysis.coach import Margin, Reason, pick
from rallye.analysis.coach_kr import Facts as KRFacts
from rallye.analysis.coach_mille import FEW_TO_DRAW, Facts
from rallye.analysis.evaluators import Candidate, Judgement
from rallye.knightrider import Move, PlayDetour, PlayKitt, view_for
from rallye.knightrider.actions import End
from rallye.knightrider.state import evolve
from rallye.mille import view_for as mille_view
from rallye.mille.actions import parse_action
from rallye.mille.state import EXTEND_PHASE


def facts(best: str, nxt: str | None = None, edition: str = "wm2006", players: int = 2, **kw: Any) -> Facts:
    """The facts of seat 0's decision in a scenario (``kw``: :func:`scenario`'s)."""
    view = mille_view(scenario(edition, players, **kw), 0)
    return Facts(view, parse_action(best), parse_action(nxt) if nxt else None)


def said(reason: Reason | None) -> tuple[str, dict[str, Any]] | None:
    return None if reason is None else (reason.key, reason.params)


# -- Mille Bornes: one's own side -----------------------------------------------------------------
def test_a_distance_that_ends_the_trip_exactly() -> None:
    f = facts("play D100", hands={0: ["D100", "D50"]}, tableaus={0: driving(600)})
    assert said(coach_mille.completes_trip(f)) == ("coach.mille.completes_trip", {"card": "D100", "km": 700})
    assert coach_mille.distance_left(f) is None
    f = facts("play D50", hands={0: ["D100", "D50"]}, tableaus={0: driving(600)})
    assert coach_mille.completes_trip(f) is None
    assert said(coach_mille.distance_left(f)) == ("coach.mille.distance_left", {"card": "D50", "km": 50})


def test_a_remedy_on_ones_own_hazard_and_the_roll_to_start() -> None:
    out_of_gas = tab(battle=["ROLL", "OUT_OF_GAS"])
    f = facts("play GASOLINE", hands={0: ["GASOLINE"]}, tableaus={0: out_of_gas})
    assert said(coach_mille.repairs(f)) == (
        "coach.mille.repairs",
        {"remedy": "GASOLINE", "hazard": "OUT_OF_GAS"},
    )
    f = facts("play ROLL", hands={0: ["ROLL"]})
    assert said(coach_mille.repairs(f)) == ("coach.mille.start_rolling", {"remedy": "ROLL"})
    stopped = tab(battle=["ROLL", "STOP"])
    f = facts("play ROLL", hands={0: ["ROLL"]}, tableaus={0: stopped})
    assert said(coach_mille.repairs(f)) == ("coach.mille.repairs", {"remedy": "ROLL", "hazard": "STOP"})
    limited = tab(battle=["ROLL"], speed=["SPEED_LIMIT"])
    f = facts("play END_OF_LIMIT", hands={0: ["END_OF_LIMIT"]}, tableaus={0: limited})
    assert said(coach_mille.repairs(f)) == (
        "coach.mille.repairs",
        {"remedy": "END_OF_LIMIT", "hazard": "SPEED_LIMIT"},
    )


def test_a_safety_on_the_hazard_it_guards_against() -> None:
    flat = tab(battle=["ROLL", "FLAT_TIRE"])
    f = facts("play PUNCTURE_PROOF", hands={0: ["PUNCTURE_PROOF"]}, tableaus={0: flat})
    assert said(coach_mille.safety_repairs(f)) == (
        "coach.mille.safety_repairs",
        {"safety": "PUNCTURE_PROOF", "hazard": "FLAT_TIRE"},
    )
    assert coach_mille.safety_repairs(facts("play PUNCTURE_PROOF", hands={0: ["PUNCTURE_PROOF"]})) is None


def test_a_safety_laid_when_few_cards_are_left_to_draw() -> None:
    few = ["REPAIRS"] * FEW_TO_DRAW
    f = facts("play EXTRA_TANK", hands={0: ["EXTRA_TANK"]}, draw=few)
    assert said(coach_mille.safety_late(f)) == ("coach.mille.safety_late", {"safety": "EXTRA_TANK", "count": 10})
    f = facts("play EXTRA_TANK", hands={0: ["EXTRA_TANK"]}, draw=few + ["REPAIRS"])
    assert coach_mille.safety_late(f) is None


def test_a_safety_laid_for_its_own_sake_and_the_turn_it_gives() -> None:
    f = facts("play RIGHT_OF_WAY", hands={0: ["RIGHT_OF_WAY"]}, tableaus={0: driving(100)})
    assert said(coach_mille.safety_now(f)) == ("coach.mille.safety_now", {"safety": "RIGHT_OF_WAY", "hazard": "STOP"})
    # fxschmid: a safety laid gives another turn
    f = facts("play EXTRA_TANK", edition="fxschmid", hands={0: ["EXTRA_TANK"]}, tableaus={0: driving(100)})
    assert said(coach_mille.safety_now(f)) == (
        "coach.mille.safety_turn",
        {"safety": "EXTRA_TANK", "hazard": "OUT_OF_GAS"},
    )
    assert coach_mille.safety_now(facts("play D100", hands={0: ["D100"]}, tableaus={0: driving(100)})) is None


def test_keep_your_right_of_way_while_stop_cards_are_unseen() -> None:
    # meilen deals five Stop cards; none seen: all five may still come
    f = facts("play D100", edition="meilen", hands={0: ["D100", "RIGHT_OF_WAY"]}, tableaus={0: driving(100)})
    assert said(coach_mille.keep_safety(f)) == (
        "coach.mille.keep_safety",
        {"safety": "RIGHT_OF_WAY", "hazard": "STOP", "count": 5, "total": 5},
    )
    f = facts(
        "play D100", edition="meilen", hands={0: ["D100", "RIGHT_OF_WAY"]}, tableaus={0: driving(100)}, discard=["STOP"]
    )
    reason = coach_mille.keep_safety(f)
    assert reason is not None and reason.params["count"] == 4
    names = {"RIGHT_OF_WAY": "Right of Way", "STOP": "Stop"}
    assert reason.text("en", names.__getitem__) == (
        "keep Right of Way for a coup fourré: 4 of the 5 Stop cards are still unseen"
    )
    # laying it, or with the draw pile nearly empty, nothing to keep it for
    assert coach_mille.keep_safety(facts("play RIGHT_OF_WAY", edition="meilen", hands={0: ["RIGHT_OF_WAY"]})) is None
    late = facts("play D100", edition="meilen", hands={0: ["D100", "RIGHT_OF_WAY"]}, draw=["REPAIRS"] * 3)
    assert coach_mille.keep_safety(late) is None


# -- attacks ------------------------------------------------------------------------------------
def test_attack_the_opponent_near_the_end_of_the_trip() -> None:
    f = facts("attack 2 STOP", hands={0: ["STOP"]}, tableaus={1: driving(600)})
    assert said(coach_mille.attack_near_end(f)) == ("coach.mille.attack_near_end", {"km": 100})
    assert coach_mille.attack_near_end(facts("attack 2 STOP", hands={0: ["STOP"]}, tableaus={1: driving(300)})) is None
    three = facts("attack 3 STOP", players=3, hands={0: ["STOP"]}, tableaus={2: driving(500)})
    assert said(coach_mille.attack_near_end(three)) == ("coach.mille.attack_near_end_who", {"km": 200, "side": 3})


def test_attack_when_the_remedy_is_mostly_gone() -> None:
    gone = ["GASOLINE"] * 3  # 3 of wm2006's 6 Gasoline cards are on the discard pile
    f = facts("attack 2 OUT_OF_GAS", hands={0: ["OUT_OF_GAS"]}, tableaus={1: driving(100)}, discard=gone)
    assert said(coach_mille.attack_remedies_scarce(f)) == (
        "coach.mille.attack_remedies_scarce",
        {"remedy": "GASOLINE", "count": 3, "total": 6},
    )
    f = facts("attack 2 OUT_OF_GAS", hands={0: ["OUT_OF_GAS"]}, tableaus={1: driving(100)}, discard=gone[:2])
    assert coach_mille.attack_remedies_scarce(f) is None


def test_attack_when_every_remedy_is_seen() -> None:
    gone = ["GASOLINE"] * 6  # all of wm2006's Gasoline cards are on the discard pile
    f = facts("attack 2 OUT_OF_GAS", hands={0: ["OUT_OF_GAS"]}, tableaus={1: driving(100)}, discard=gone)
    assert said(coach_mille.attack_remedies_scarce(f)) == (
        "coach.mille.attack_only_safety",
        {"remedy": "GASOLINE", "total": 6, "safety": "EXTRA_TANK"},
    )
    # the Extra Tank is on one's own side: nothing can repair it
    mine = tab(battle=["ROLL"], safeties=["EXTRA_TANK"])
    f = facts("attack 2 OUT_OF_GAS", hands={0: ["OUT_OF_GAS"]}, tableaus={0: mine, 1: driving(100)}, discard=gone)
    assert said(coach_mille.attack_remedies_scarce(f)) == (
        "coach.mille.attack_no_remedy",
        {"remedy": "GASOLINE", "total": 6},
    )


def test_an_attack_says_what_the_side_then_needs() -> None:
    f = facts("attack 2 FLAT_TIRE", hands={0: ["FLAT_TIRE"]}, tableaus={1: driving(100)})
    assert said(coach_mille.attack_stops(f)) == ("coach.mille.attack_stops_who", {"side": 2, "remedy": "SPARE_TIRE"})
    f = facts("attack 2 SPEED_LIMIT", hands={0: ["SPEED_LIMIT"]}, tableaus={1: driving(100)})
    assert said(coach_mille.attack_stops(f)) == ("coach.mille.attack_limit_who", {"side": 2})


# -- discards -----------------------------------------------------------------------------------
def test_discard_a_third_200() -> None:
    two = tab(battle=["ROLL"], distance=["D200", "D200"])
    f = facts("discard D200", hands={0: ["D200"]}, tableaus={0: two})
    assert said(coach_mille.discard_dead(f)) == ("coach.mille.discard_two_200", {"card": "D200"})


def test_discard_a_distance_past_the_end_of_the_trip() -> None:
    # 950 of an extended 1000: the trip cannot grow any more
    f = facts("discard D100", hands={0: ["D100"]}, tableaus={0: driving(950)}, target=1000, extended_by=0)
    assert said(coach_mille.discard_dead(f)) == ("coach.mille.discard_too_far", {"card": "D100", "km": 50})
    # at 650 of 700 the trip may still be extended to 1000: the card may yet be played
    assert coach_mille.discard_dead(facts("discard D100", hands={0: ["D100"]}, tableaus={0: driving(650)})) is None


def test_discard_a_hazard_every_opponent_is_safe_from() -> None:
    safe = tab(battle=["ROLL"], safeties=["DRIVING_ACE"])
    f = facts("discard ACCIDENT", hands={0: ["ACCIDENT"]}, tableaus={1: safe})
    assert said(coach_mille.discard_dead(f)) == (
        "coach.mille.discard_guarded",
        {"card": "ACCIDENT", "safety": "DRIVING_ACE"},
    )
    assert coach_mille.discard_dead(facts("discard ACCIDENT", hands={0: ["ACCIDENT"]})) is None


def test_discard_a_remedy_ones_own_safety_makes_useless() -> None:
    mine = tab(battle=["ROLL"], safeties=["EXTRA_TANK", "RIGHT_OF_WAY"])
    f = facts("discard GASOLINE", hands={0: ["GASOLINE", "ROLL"]}, tableaus={0: mine})
    assert said(coach_mille.discard_dead(f)) == (
        "coach.mille.discard_own_safety",
        {"card": "GASOLINE", "safety": "EXTRA_TANK"},
    )
    f = facts("discard ROLL", hands={0: ["GASOLINE", "ROLL"]}, tableaus={0: mine})
    assert said(coach_mille.discard_dead(f)) == (
        "coach.mille.discard_own_safety",
        {"card": "ROLL", "safety": "RIGHT_OF_WAY"},
    )


def test_discard_a_second_copy_or_a_remedy_whose_hazards_are_all_seen() -> None:
    f = facts("discard SPARE_TIRE", hands={0: ["SPARE_TIRE", "SPARE_TIRE"]})
    assert said(coach_mille.discard_spare(f)) == ("coach.mille.discard_double", {"card": "SPARE_TIRE", "count": 2})
    # wm2006's two Flat Tire cards of a 2-player game are both on the discard pile
    f = facts("discard SPARE_TIRE", hands={0: ["SPARE_TIRE"]}, discard=["FLAT_TIRE", "FLAT_TIRE"])
    assert said(coach_mille.discard_spare(f)) == (
        "coach.mille.discard_hazards_seen",
        {"card": "SPARE_TIRE", "hazard": "FLAT_TIRE", "total": 2},
    )
    f = facts("discard SPARE_TIRE", hands={0: ["SPARE_TIRE"]}, discard=["FLAT_TIRE"])
    assert coach_mille.discard_spare(f) is None


def test_discard_a_distance_the_other_cards_in_hand_make_up_for() -> None:
    f = facts("discard D50", hands={0: ["D50", "D100", "D100", "D25"]}, tableaus={0: driving(500)})
    assert said(coach_mille.discard_distance_covered(f)) == (
        "coach.mille.discard_distance_covered",
        {"card": "D50", "km": 225, "left": 200},
    )
    f = facts("discard D50", hands={0: ["D50", "D100", "D25"]}, tableaus={0: driving(500)})
    assert coach_mille.discard_distance_covered(f) is None


def test_keep_the_remedy_the_next_best_would_throw_away() -> None:
    f = facts("discard D25", "discard REPAIRS", hands={0: ["D25", "REPAIRS"]})
    assert said(coach_mille.keeps_remedy(f)) == (
        "coach.mille.keep_remedy",
        {"remedy": "REPAIRS", "hazard": "ACCIDENT", "count": 2, "total": 2},
    )
    # a second Repairs in hand: throwing one away keeps the other
    assert (
        coach_mille.keeps_remedy(facts("discard D25", "discard REPAIRS", hands={0: ["D25", "REPAIRS", "REPAIRS"]}))
        is None
    )


def test_the_next_best_attack_risks_a_coup_fourre() -> None:
    f = facts("play D100", "attack 2 STOP", hands={0: ["D100", "STOP"]}, tableaus={0: driving(100), 1: driving(100)})
    assert said(coach_mille.coup_fourre_risk(f)) == (
        "coach.mille.coup_fourre_risk",
        {"hazard": "STOP", "safety": "RIGHT_OF_WAY"},
    )
    # the Right of Way seen (on one's own side): no coup fourré to fear
    mine = tab(battle=["ROLL"], distance=["D100"], safeties=["RIGHT_OF_WAY"])
    f = facts("play D100", "attack 2 STOP", hands={0: ["D100", "STOP"]}, tableaus={0: mine, 1: driving(100)})
    assert coach_mille.coup_fourre_risk(f) is None
    # the best attacks too, with the same risk: nothing to tell apart
    f = facts("attack 2 ACCIDENT", "attack 2 STOP", hands={0: ["ACCIDENT", "STOP"]}, tableaus={1: driving(100)})
    assert coach_mille.coup_fourre_risk(f) is None


def test_extend_or_decline_the_trip() -> None:
    at_700 = {"tableaus": {0: driving(700), 1: driving(300)}, "phase": EXTEND_PHASE}
    f = facts("extend", hands={0: ["D100", "D200", "ROLL"]}, **at_700)
    assert said(coach_mille.extension(f)) == ("coach.mille.extend", {"km": 300, "more": 300, "count": 20})
    f = facts("decline", hands={0: ["D25", "ROLL"]}, draw=["REPAIRS"] * 4, **at_700)
    assert said(coach_mille.extension(f)) == ("coach.mille.decline", {"more": 300, "count": 4, "km": 300})


def _judgement(best: str, nxt: str, win: float = 0.6, next_win: float = 0.5) -> tuple[Judgement, Margin]:
    a, b = parse_action(best), parse_action(nxt)
    ca, cb = Candidate(a, 0.0, 0.0, win, 0.01), Candidate(b, -40.0, 5.0, next_win, 0.01)
    return Judgement(a, (ca, cb), (win, 1 - win), {}), Margin(cb, 40.0, win - next_win, False)


def test_the_reasons_are_the_most_telling_first_with_the_evaluation_last() -> None:
    view = mille_view(scenario("wm2006", 2, hands={0: ["D100", "REPAIRS"]}, tableaus={0: driving(600)}), 0)
    judgement, m = _judgement("play D100", "discard REPAIRS")
    keys = [r.key for r in coach_mille.reasons(view, (), judgement, m)]
    assert keys == ["coach.mille.completes_trip", "coach.mille.keep_remedy", "coach.mille.win_chance_vs"]
    # nothing particular to say about a discard: the fallback, then the evaluation
    view = mille_view(scenario("wm2006", 2, hands={0: ["D50", "D75"]}, tableaus={0: driving(100)}), 0)
    judgement, m = _judgement("discard D50", "discard D75", 0.55, 0.55)
    reasons = coach_mille.reasons(view, (), judgement, m)
    assert [(r.key, r.params) for r in reasons] == [
        ("coach.mille.discard_least", {"card": "D50"}),
        ("coach.mille.win_chance", {"pct": 55}),
    ]
    assert pick([None, Reason("coach.mille.a"), Reason("coach.mille.b"), Reason("coach.mille.c")], None) == (
        Reason("coach.mille.a"),
        Reason("coach.mille.b"),
        Reason("coach.mille.c"),
    )


# -- Knight Rider ---------------------------------------------------------------------------------
ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20; the villain on square 6,0: field 19,1


def chase(layout: dict[tuple[int, int], str], cars: list[Any], **kw: Any) -> Any:
    """The engine tests' chase board, the tiles not laid set aside as unused (so a view of
    it accounts for every tile)."""
    s = kr_chase(layout, cars, **kw)
    laid = {number for number, *_ in s.laid}
    return evolve(s, unused=tuple(sorted({t.number for t in s.pieces.tiles} - laid)))


def kr_facts(state: Any, best: Any, best_win: float | None = None) -> KRFacts:
    return KRFacts(view_for(state, state.current), best, None, best_win)


def _move(state: Any, x: int, y: int) -> Move:
    from rallye.knightrider import legal_actions

    return next(a for a in legal_actions(state) if isinstance(a, Move) and (a.x, a.y) == (x, y))


def test_a_move_onto_the_villain_catches_it_and_nothing_else_is_said() -> None:
    s = chase(ROAD, [((13, 1), E), ((7, 1), W)], roll=6, villain=(6, 0))
    f = kr_facts(s, _move(s, 19, 1))
    assert said(coach_kr.catch_now(f)) == ("coach.kr.catch_now", {})
    m = Margin(None, None, None, False)
    j = Judgement(f.best, (Candidate(f.best, None, None, None, None),), (0.5, 0.5), {})
    assert [r.key for r in coach_kr.reasons(f.view, (), j, m)] == ["coach.kr.catch_now"]


def test_a_move_says_how_far_the_villain_is_then_and_the_next_rolls_odds() -> None:
    s = chase(ROAD, [((7, 1), E), ((6, 1), W)], roll=2, villain=(6, 0))
    reason = coach_kr.next_roll(kr_facts(s, _move(s, 9, 1)))
    assert reason is not None and reason.key == "coach.kr.next_roll_pips"
    assert reason.params["count"] == 10  # fields 9 to 19 on a straight road
    assert 0 <= reason.params["pct"] <= 100
    nearer = chase(ROAD, [((13, 1), E), ((6, 1), W)], roll=2, villain=(6, 0))
    close = coach_kr.next_roll(kr_facts(nearer, _move(nearer, 15, 1)))
    assert close is not None and close.params["count"] == 4
    assert close.params["pct"] > reason.params["pct"]  # nearer: a better chance next turn


def test_a_turbo_boost_says_what_it_makes_of_the_roll() -> None:
    s = chase(ROAD, [((13, 1), E), ((7, 1), W)], roll=3, villain=(6, 0))
    assert said(coach_kr.turbo(kr_facts(s, PlayKitt("TURBO1"), 1.0))) == (
        "coach.kr.turbo_catch",
        {"kitt": "TURBO1", "roll": 3, "pips": 6},
    )
    assert said(coach_kr.turbo(kr_facts(s, PlayKitt("TURBO1"), 0.2))) == (
        "coach.kr.turbo",
        {"kitt": "TURBO1", "roll": 3, "pips": 6},
    )
    assert said(coach_kr.distance_now(kr_facts(s, PlayKitt("TURBO1")))) == ("coach.kr.distance_now", {"count": 6})


def test_a_rival_one_roll_from_the_villain() -> None:
    s = chase(ROAD, [((7, 1), E), ((16, 1), E)], roll=2, villain=(6, 0))
    assert said(coach_kr.rival_close(kr_facts(s, End()))) == ("coach.kr.rival_close_who", {"player": 2, "count": 3})
    far = chase(ROAD, [((7, 1), E), ((8, 1), E)], roll=2, villain=(6, 0))
    assert coach_kr.rival_close(kr_facts(far, End())) is None


def test_a_roadblock_cuts_the_nearest_rival_off() -> None:
    s = chase(ROAD, [((7, 1), E), ((13, 1), E)], roll=2, villain=(6, 0))
    reason = coach_kr.block(kr_facts(s, PlayDetour("ROADBLOCK", 5, 0, 0)))
    assert said(reason) == ("coach.kr.block_cut_who", {"detour": "ROADBLOCK", "player": 2, "before": 6})
    assert reason is not None and "Detour: roadblock" in reason.text("en")


def test_ending_the_turn_before_or_after_the_move() -> None:
    s = chase(ROAD, [((7, 1), E), ((6, 1), W)], roll=2, villain=(6, 0))
    assert said(coach_kr.end_turn(kr_facts(s, End()))) == ("coach.kr.end", {})
    moved = move_to(s, 9, 1, E)
    assert moved.moved and said(coach_kr.end_turn(kr_facts(moved, End()))) == ("coach.kr.end_keep_cards", {})


def test_a_detour_with_no_rival_on_the_road_cuts_their_odds() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=2, villain=(6, 0))
    detour = PlayDetour("RIGHT", 5, 0, 0)
    assert said(coach_kr.block(kr_facts(s, detour))) == ("coach.kr.block_odds", {"detour": "RIGHT"})
    # the detours are weighed by the rivals' odds, not by rule of thumb: that is not said
    j = Judgement(detour, (Candidate(detour, None, None, None, None),), (0.5, 0.5), {})
    reasons = coach_kr.reasons(view_for(s, 0), (), j, Margin(None, None, None, False))
    assert [r.key for r in reasons] == ["coach.kr.block_odds"]


def test_the_shell_against_a_rival_near_ones_car() -> None:
    s = chase(ROAD, [((10, 1), E), ((7, 1), E)], roll=2, villain=(6, 0))
    assert said(coach_kr.mantle(kr_facts(s, PlayKitt("MANTLE")))) == ("coach.kr.mantle_who", {"player": 2, "count": 3})


@pytest.mark.parametrize("lang", ["de", "en", "fr", "hu"])
def test_the_reasons_read_in_every_language(lang: str) -> None:
    s = chase(ROAD, [((7, 1), E), ((16, 1), E)], roll=2, villain=(6, 0))
    reason = coach_kr.rival_close(kr_facts(s, End()))
    assert reason is not None
    seat = {"de": "S2", "en": "P2", "fr": "J2", "hu": "J2"}[lang]
    assert reason.text(lang).startswith(seat)


WHO_REASONS = [
    Reason("coach.mille.attack_near_end_who", {"km": 200, "side": 2}),
    Reason("coach.mille.attack_limit_who", {"side": 2}),
    Reason("coach.mille.attack_stops_who", {"side": 2, "remedy": "SPARE_TIRE"}),
    Reason("coach.kr.block_who", {"detour": "ROADBLOCK", "player": 2, "before": 6, "after": 9}),
    Reason("coach.kr.block_cut_who", {"detour": "ROADBLOCK", "player": 2, "before": 6}),
    Reason("coach.kr.mantle_who", {"player": 2, "count": 3}),
    Reason("coach.kr.rival_close_who", {"player": 2, "count": 1}),
]


@pytest.mark.parametrize("lang", ["de", "en", "fr", "hu"])
def test_a_reason_names_the_side_or_player_as_the_screen_does(lang: str) -> None:
    """Each screen fills ``{who}`` with the name it shows; the sentence takes it as it is (in
    Hungarian never before a case ending), and without names it says "side 2" / "P2"."""
    asked: list[tuple[str, int]] = []

    def who(kind: str, index: int) -> str:
        asked.append((kind, index))
        return "Anna Kovács"

    for reason in WHO_REASONS:
        text = reason.text(lang, who=who)
        assert "Anna Kovács" in text and "{" not in text, text
        if lang == "hu":  # the name in the nominative: followed by a space, a colon or "útja"
            assert re.search(r"Anna Kovács(:| |$)", text), text
        plain = reason.text(lang)
        assert "{" not in plain and "2" in plain and "Anna" not in plain, plain
    assert set(asked) == {("side", 1), ("player", 1)}
