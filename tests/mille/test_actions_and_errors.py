"""Actions (notation, integer codes, repr) and the error family (DESIGN habits 3 and 5)."""

from __future__ import annotations

import copy

import pytest

from rallye.core.errors import GameError, GameOver, IllegalAction, InvalidNotation, NotYourTurn
from rallye.mille import (
    ALL_ACTIONS,
    NUM_ACTIONS,
    Action,
    apply,
    apply_as,
    check,
    decode_action,
    encode_action,
    explain,
    legal_actions,
    parse_action,
)
from rallye.mille.cards import CARDS

from .conftest import FILLER, ROLLING, driving, scenario, tab


# -- notation and codes --------------------------------------------------------------
def test_all_70_actions_round_trip_through_notation_codes_and_repr():
    assert NUM_ACTIONS == len(ALL_ACTIONS) == 70
    assert len(set(ALL_ACTIONS)) == 70
    assert len({str(a) for a in ALL_ACTIONS}) == 70
    for code, a in enumerate(ALL_ACTIONS):
        assert parse_action(str(a)) == a
        assert parse_action(str(a).lower()) == a
        assert encode_action(a) == a.code == code
        assert decode_action(code) == a
        rebuilt = eval(repr(a), {"Action": Action})
        assert rebuilt == a and hash(rebuilt) == hash(a)


def test_action_code_layout_is_the_documented_one():
    assert [str(decode_action(i)) for i in (0, 4, 18, 19, 37, 38, 39, 44, 67, 68, 69)] == [
        "play D25", "play D200", "play DRIVING_ACE", "discard D25", "discard DRIVING_ACE",
        "attack 1 STOP", "attack 2 STOP", "attack 1 SPEED_LIMIT", "attack 6 ACCIDENT", "extend", "decline",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("PLAY d100", "play D100"), ("play 100", "play D100"), ("attack S2 stop", "attack 2 STOP"),
     ("  discard   right_of_way ", "discard RIGHT_OF_WAY"), ("Extend", "extend"), ("attack p3 ACCIDENT",
     "attack 3 ACCIDENT")],
)  # fmt: skip
def test_notation_input_is_lenient_output_canonical(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("", "empty action"), ("   ", "empty action"), ("fly D100", "unknown verb"), ("play", "write 'play CARD'"),
     ("play D100 D50", "write 'play CARD'"), ("play D300", "unknown card"), ("discard banana", "unknown card"),
     ("attack 2", "write 'attack SIDE CARD'"), ("attack 7 STOP", "side '7'"), ("attack 0 STOP", "side '0'"),
     ("attack x STOP", "side 'x'"), ("attack 2 ROLL", "not a hazard"), ("extend now", "takes nothing"),
     ("decline 1", "takes nothing")],
)  # fmt: skip
def test_malformed_notation_raises_invalid_notation(text, fragment):
    with pytest.raises(InvalidNotation) as info:
        parse_action(text)
    assert fragment in str(info.value)
    assert info.value.rule == "notation" and info.value.code == "invalid_notation"


@pytest.mark.parametrize("value", [None, 12, b"play D100", ["play", "D100"]])
def test_non_text_notation_raises_invalid_notation(value):
    with pytest.raises(InvalidNotation, match="must be text"):
        parse_action(value)


@pytest.mark.parametrize("code", [-1, 70, 1000, True, 3.0, "3", None])
def test_bad_action_codes_raise_invalid_notation(code):
    with pytest.raises(InvalidNotation):
        decode_action(code)


def test_unknown_action_value_has_no_code():
    with pytest.raises(InvalidNotation):
        encode_action(Action("play", "D300"))
    with pytest.raises(InvalidNotation):
        encode_action(Action("attack", "STOP", 6))


def test_legal_actions_are_the_canonical_objects():
    s = scenario("wm2006", 3, hands={0: ["D100", "STOP", "ROLL", "EXTRA_TANK"]}, tableaus={0: ROLLING, 1: ROLLING})
    for a in legal_actions(s):
        assert ALL_ACTIONS[a.code] is a


# -- the error family ----------------------------------------------------------------
def test_error_family_and_stable_codes():
    assert issubclass(NotYourTurn, IllegalAction) and issubclass(GameOver, IllegalAction)
    assert issubclass(IllegalAction, GameError) and issubclass(InvalidNotation, GameError)
    assert (IllegalAction.code, NotYourTurn.code, GameOver.code, InvalidNotation.code) == (
        "illegal_action", "not_your_turn", "game_over", "invalid_notation",
    )  # fmt: skip


ILLEGAL = [
    # (description, scenario kwargs, action, rule, reason fragment)
    ("third D200", dict(hands={0: ["D200", *FILLER]}, tableaus={0: tab(battle=["ROLL"], distance=["D200", "D200"])}),
     "play D200", "two-200s", "two 200 km cards already played this hand"),
    ("distance while stopped", dict(hands={0: ["D100", *FILLER]}, tableaus={0: tab(battle=["ROLL", "STOP"])}),
     "play D100", "rolling", "STOP lies on the battle pile"),
    ("75 under a limit", dict(hands={0: ["D75", *FILLER]}, tableaus={0: tab(battle=["ROLL"], speed=["SPEED_LIMIT"])}),
     "play D75", "speed-limit", "only 25 and 50"),
    ("past the target", dict(hands={0: ["D200", *FILLER]}, tableaus={0: driving(600)}),
     "play D200", "exact-distance", "600 + 200 would pass the target 700"),
    ("roll onto roll", dict(hands={0: ["ROLL", *FILLER]}, tableaus={0: ROLLING}), "play ROLL", "roll-onto", "ROLL"),
    ("card not held", dict(hands={0: FILLER}), "play D100", "in-hand", "D100 is not in P1's hand"),
    ("hazard on self", dict(hands={0: ["STOP", *FILLER]}), "play STOP", "hazard-on-opponent", "attack"),
    ("attack a side that is not rolling", dict(hands={0: ["STOP", *FILLER]}), "attack 2 STOP", "attack-rolling",
     "not rolling"),
    ("attack own side", dict(hands={0: ["STOP", *FILLER]}, tableaus={0: ROLLING}), "attack 1 STOP",
     "attack-own-side", "opposing side"),
    ("attack a missing side", dict(hands={0: ["STOP", *FILLER]}), "attack 4 STOP", "attack-side", "no side 4"),
    ("extend with no decision", dict(hands={0: FILLER}), "extend", "extension-decision", "no extension decision"),
]  # fmt: skip


@pytest.mark.parametrize(("desc", "kw", "text", "rule", "reason"), ILLEGAL, ids=[x[0] for x in ILLEGAL])
def test_illegal_action_names_rule_action_and_player_and_leaves_state_unchanged(desc, kw, text, rule, reason):
    s = scenario("wm2006", 2, **kw)
    before = copy.deepcopy(s)
    action = parse_action(text)
    assert action not in legal_actions(s)
    with pytest.raises(IllegalAction) as info:
        apply(s, action)
    err = info.value
    assert type(err) is IllegalAction and err.code == "illegal_action"
    assert err.rule == rule
    assert f"'{text}'" in str(err) and "by P1" in str(err)
    assert reason in str(err)
    assert f"[rule: {rule}]" in str(err)
    assert s == before and s.hands == before.hands and s.tableaus == before.tableaus


@pytest.mark.parametrize("card", ["D25", "ROLL", "GASOLINE", "END_OF_LIMIT", "RIGHT_OF_WAY"])
def test_an_attack_built_by_hand_with_a_card_that_is_not_a_hazard_names_the_rule(card):
    """Core attacks: only a hazard goes onto an opposing side. ``Action("attack", card, 1)``
    (the notation cannot say it) is refused by ``apply``, ``check`` and ``explain`` alike,
    naming the rule; it was a ``KeyError``."""
    s = scenario("wm2006", 2, hands={0: [card, *FILLER[:5]]}, tableaus={1: ROLLING})
    action = Action("attack", card, 1)
    assert explain(s, action) == (
        "attack-with-hazard",
        f"{card} is not a hazard: only a hazard attacks an opposing side",
    )
    for call in (apply, check):
        with pytest.raises(IllegalAction) as info:
            call(s, action)
        assert info.value.rule == "attack-with-hazard" and f"{card} is not a hazard" in str(info.value)


def test_an_action_built_by_hand_with_an_unknown_verb_names_the_rule():
    s = scenario("wm2006", 2, hands={0: ["D25", *FILLER[:5]]})
    with pytest.raises(IllegalAction) as info:
        apply(s, Action("drive", "D25"))
    assert info.value.rule == "verb" and "'drive' is not an action" in str(info.value)


def test_illegal_action_message_matches_the_design_example():
    s = scenario("wm2006", 2, hands={0: ["D200", *FILLER]}, tableaus={0: tab(battle=["ROLL"], distance=["D200"] * 2)})
    with pytest.raises(IllegalAction) as info:
        apply(s, parse_action("play D200"))
    assert str(info.value) == "illegal 'play D200' by P1: two 200 km cards already played this hand [rule: two-200s]"


def test_out_of_turn_raises_not_your_turn_via_apply_as():
    s = scenario("wm2006", 3, hands={0: FILLER, 2: ["D25", *FILLER]}, current=0)
    before = copy.deepcopy(s)
    with pytest.raises(NotYourTurn) as info:
        apply_as(s, 2, parse_action("discard D25"))
    err = info.value
    assert err.rule == "turn-order" and err.code == "not_your_turn"
    assert "'discard D25'" in str(err) and "by P3" in str(err) and "P1's turn" in str(err)
    assert s == before
    assert apply_as(s, 0, parse_action("discard REPAIRS")).current == 1


def test_apply_as_still_checks_legality_for_the_player_to_act():
    s = scenario("wm2006", 2, hands={0: FILLER})
    with pytest.raises(IllegalAction) as info:
        apply_as(s, 0, parse_action("play D100"))
    assert info.value.rule == "in-hand"


def test_after_the_match_is_over_every_action_raises_game_over():
    s = scenario("meilen", 2, hands={0: ["D100", *FILLER]}, tableaus={0: driving(900)})
    over = apply(s, parse_action("play D100"))
    assert over.phase == "over"
    assert legal_actions(over) == ()
    for a in (parse_action("discard REPAIRS"), parse_action("extend"), ALL_ACTIONS[0]):
        with pytest.raises(GameOver) as info:
            apply(over, a)
        assert info.value.rule == "match-over" and info.value.code == "game_over"
        assert str(a) in str(info.value)
        for seat in (0, 1):
            with pytest.raises(GameOver):
                apply_as(over, seat, a)


def test_every_card_id_parses_in_play_and_discard():
    for c in CARDS:
        assert parse_action(f"play {c}").card == c
        assert parse_action(f"discard {c}").card == c
