"""The engine API: notation, codes, errors, purity, views, records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kr_helpers import E, chase, playout

from rallye.core.errors import GameOver, IllegalAction, InvalidNotation, NotYourTurn, RecordError
from rallye.knightrider import (
    ACTION_SPACE,
    DETOUR_KINDS,
    KITT_KINDS,
    Action,
    End,
    Enter,
    Move,
    Options,
    Place,
    PlayDetour,
    PlayKitt,
    Recover,
    StartAt,
    State,
    View,
    apply,
    card_name,
    current_player,
    decode_action,
    encode_action,
    is_over,
    legal_actions,
    new_game,
    parse_action,
    render_grid,
    view_for,
    winner,
    winners,
)
from rallye.knightrider import actions as A
from rallye.knightrider import record as R
from rallye.knightrider.state import evolve

QUICK = Options(quick_build=True, turn_limit=60)


def states_along(seed: int, players: int = 3, options: Options = QUICK, every: int = 1):  # type: ignore[no-untyped-def]
    out = []

    def keep(before, action, after):  # type: ignore[no-untyped-def]
        if len(out) < 400:
            out.append(before)

    playout(players, seed, options, each=keep)
    return out[::every]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_notation_round_trips_for_every_legal_action(seed: int) -> None:
    for s in states_along(seed, 2 + seed % 4, Options(turn_limit=25), every=7):
        for a in legal_actions(s):
            text = str(a)
            b = parse_action(text)
            assert b == a and str(b) == text
            if isinstance(a, Move):
                assert b.path == a.path  # type: ignore[union-attr]
            assert eval(repr(a), vars(A)) == a
            code = encode_action(a)
            assert 0 <= code < ACTION_SPACE
            assert decode_action(code) == a
            assert decode_action(code, s) == a and str(decode_action(code, s)) == str(a)


def test_action_codes_are_stable_and_unique_per_state() -> None:
    assert encode_action(End()) == 0
    assert encode_action(parse_action("kitt MANTLE")) == 2
    assert encode_action(parse_action("place at -8,-8 rot 0")) == A.PLACE0
    assert decode_action(A.MOVE0) == Move(-23, -23, 0, 0)
    for s in states_along(3, 4, every=5):
        codes = [encode_action(a) for a in legal_actions(s)]
        assert len(codes) == len(set(codes))
    with pytest.raises(InvalidNotation):
        decode_action(ACTION_SPACE)
    with pytest.raises(InvalidNotation):
        decode_action(-1)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "place 23 at 1 rot 90",
        "place at 1,2 rot 45",
        "move",
        "move 1,2Q =3",
        "move 1,2N =13",
        "move 1,2N* 1,1N =2",
        "move 1,2N 1,1N* =2 jump",
        "kitt JUMP",
        "kitt NITRO",
        "detour BRIDGE at 1,1 rot 0",
        "detour STRAIGHT at 1,1 rot 180",
        "enter X",
    ],
)
def test_parse_rejects_bad_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


def test_illegal_action_message_names_rule_and_input() -> None:
    s = chase({(x, 0): "EW" for x in range(2, 7)}, [((7, 1), E), None], roll=3)
    with pytest.raises(IllegalAction) as ei:
        apply(s, parse_action("move to 9,1E =2"))
    msg = str(ei.value)
    assert msg.startswith("illegal 'move to 9,1E =2' by P1: ") and "[rule: movement]" in msg
    assert ei.value.rule == "movement" and ei.value.code == "illegal_action"
    with pytest.raises(IllegalAction, match=r"illegal 'place at 0,0 rot 0' by P1: .*\[rule: phase\]"):
        apply(s, Place(0, 0, 0))


def test_not_your_turn_and_game_over() -> None:
    s = new_game(3, 1)
    with pytest.raises(NotYourTurn, match=r"by P\d: it is P\d's turn"):
        apply(s, legal_actions(s)[0], player=(s.current + 1) % 3)
    over, _ = playout(2, 5, QUICK)
    assert is_over(over) and current_player(over) is None and legal_actions(over) == ()
    with pytest.raises(GameOver):
        apply(over, End())


def test_apply_is_pure() -> None:
    for s in states_along(8, 3, every=9):
        snapshot = (s.cars, s.board, s.rng, s.escape_deck, s.kitt_hands, s.detours, s.events, s.links)
        for a in legal_actions(s)[:5]:
            apply(s, a)
        assert snapshot == (s.cars, s.board, s.rng, s.escape_deck, s.kitt_hands, s.detours, s.events, s.links)


def test_same_seed_same_game() -> None:
    a, acts_a = playout(4, 77, QUICK)
    b, acts_b = playout(4, 77, QUICK)
    assert a == b and acts_a == acts_b and a.events == b.events
    c, _ = playout(4, 78, QUICK)
    assert c != a


def test_view_json_round_trip_and_json_safe() -> None:
    for s in states_along(4, 3, every=13):
        for p in range(3):
            v = view_for(s, p)
            data = v.to_json()
            text = json.dumps(data)
            assert View.from_json(json.loads(text)) == v


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    s = new_game(3, 2, Options(quick_build=True, shuffle_cards=True))
    v = view_for(s, 1)
    assert v.hand_kitt == s.kitt_hands[1] and v.hand_detour == s.detour_hands[1]
    assert v.hand_sizes == tuple((sum(k), sum(d)) for k, d in zip(s.kitt_hands, s.detour_hands, strict=False))
    assert not hasattr(v, "escape_deck") and not hasattr(v, "rng")


def test_no_leak_escape_deck_order_and_hidden_hands_never_change_a_view() -> None:
    for s in states_along(12, 3, Options(quick_build=True, shuffle_cards=True, turn_limit=40), every=11):
        for p in range(3):
            v = view_for(s, p)
            turned = s.escape_deck[: s.escape_pos]
            rest = tuple(reversed(s.escape_deck[s.escape_pos :]))
            assert view_for(evolve(s, escape_deck=turned + rest), p) == v
            other = (p + 1) % 3
            hands = list(s.kitt_hands)
            h = list(hands[other])
            if sum(h) >= 1:
                i = next(k for k, n in enumerate(h) if n)
                h[i] -= 1
                h[(i + 1) % 4] += 1
                hands[other] = tuple(h)
                assert view_for(evolve(s, kitt_hands=tuple(hands)), p) == v
            assert view_for(evolve(s, rng=replace(s.rng, state=s.rng.state ^ 12345)), p) == v


def test_render_grid_draws_map_cars_and_villain() -> None:
    s, _ = playout(2, 3, Options(quick_build=True, turn_limit=10))
    rows = render_grid(view_for(s, 0))
    text = "\n".join(rows)
    assert "~" in text and "#" in text and "." in text
    assert "V" in text or "!" in text
    assert len({len(r) for r in rows}) == 1


def test_card_names_german_default_english_french_and_hungarian() -> None:
    assert [card_name(k) for k in ("MANTLE", "TURBO1", "TURBO2", "JUMP")] == [
        "Molekül-Mantel",
        "Turbo-Boost I",
        "Turbo-Boost II",
        "Blockier-Sprung",
    ]
    assert card_name("ROADBLOCK") == "Umleitung: Straßensperre"
    assert card_name("LEFT", "en") == "Detour: left curve"
    assert card_name("MANTLE", "fr") == "Bouclier moléculaire"
    assert card_name("ROADBLOCK", "hu") == "Terelés: útzár"
    with pytest.raises(ValueError, match=r"language 'it'.*languages: de, hu, en, fr"):
        card_name("MANTLE", "it")
    with pytest.raises(ValueError, match="no name for card 'OIL'"):
        card_name("OIL", "de")


# ----------------------------------------------------------------------------- records


def test_record_replays_to_the_same_state(tmp_path) -> None:  # type: ignore[no-untyped-def]
    final, actions = playout(3, 9, QUICK)
    lines = R.record_game(3, 9, QUICK, actions)
    assert lines[0]["type"] == "header" and lines[-1] == {"type": "result", "winner": final.winner, "turns": final.turn}
    assert R.replay(lines) == final
    path = tmp_path / "game.jsonl"
    R.save(path, lines)
    assert R.load(path) == final


def test_save_and_resume_unfinished_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    opts = Options(turn_limit=30)
    final, actions = playout(2, 4, opts)
    half = actions[: len(actions) // 2]
    rec = R.Recorder(2, 4, opts)
    for a in half:
        rec.play(a)
    path = tmp_path / "save.jsonl"
    R.save(path, rec.lines())
    resumed = R.load(path)
    assert resumed == rec.state
    s = resumed
    for a in actions[len(half) :]:
        s = apply(s, a)
    assert s == final


def test_altered_record_rejected_naming_the_line() -> None:
    _final, actions = playout(2, 6, QUICK)
    lines = R.record_game(2, 6, QUICK, actions)
    bad = [dict(x) for x in lines]
    k = next(i for i, x in enumerate(bad) if x.get("action", "").startswith("move"))
    bad[k]["action"] = "end"
    with pytest.raises(RecordError, match=rf"line {k + 1}: action 'end'"):
        R.replay(bad)
    bad = [dict(x) for x in lines]
    k = next(i for i, x in enumerate(bad) if x.get("events"))
    bad[k]["events"] = ["P1 rolls 6"]
    with pytest.raises(RecordError, match=rf"line {k + 1}: the recorded chance outcomes"):
        R.replay(bad)
    bad = [dict(x) for x in lines]
    bad[3]["player"] = (bad[3]["player"] + 1) % 2
    with pytest.raises(RecordError, match=r"line 4: .*turn"):
        R.replay(bad)
    bad = [dict(x) for x in lines]
    bad[-1]["winner"] = 7
    with pytest.raises(RecordError, match=rf"line {len(lines)}: result says winner 7"):
        R.replay(bad)
    bad = [dict(x) for x in lines]
    bad[0]["seed"] = 7
    with pytest.raises(RecordError):
        R.replay(bad)
    with pytest.raises(RecordError, match="line 1: the first line must be the header"):
        R.replay(lines[1:])
    with pytest.raises(RecordError, match="line 2 is not valid JSON"):
        R.loads(json.dumps(lines[0]) + "\n{oops\n")


RULES1 = Path(__file__).resolve().parents[1] / "data" / "knightrider"


def test_record_header_names_the_rules_version() -> None:
    _final, actions = playout(2, 6, QUICK)
    lines = R.record_game(2, 6, QUICK, actions)
    assert lines[0]["version"] == 1 and lines[0]["rules"] == 3
    future = [dict(lines[0], rules=4), *lines[1:]]
    with pytest.raises(
        RecordError, match=r"line 1: the game was played under Knight Rider rules 4; this rallye plays rules 3"
    ):
        R.replay(future)


def test_records_of_rules_1_replay_or_are_refused_naming_the_rules_version() -> None:
    """Two records saved by rallye before rules 2 (random play, no 'rules' in the header):
    one whose every action is still legal replays; the other is refused at the first line
    that no longer replays, naming the rules it was played under."""
    state = R.load(RULES1 / "rules1_replays.jsonl")
    assert is_over(state)
    with pytest.raises(RecordError) as info:
        R.load(RULES1 / "rules1_refused.jsonl")
    assert info.value.rule == "record-rules"
    msg = str(info.value)
    assert "line 13: action 'move 7,-11S =1' by P1 does not replay" in msg
    assert "played under Knight Rider rules 1" in msg and "this rallye plays rules 3" in msg


def _candidates(s: State) -> list[Action]:
    """The listed actions and others like them: a move one pip off, facing another way or
    with the jump toggled, a tile on the next square or with another number, every
    K.I.T.T. card, a detour of every kind in every rotation on every laid tile and off the
    track, end, recover and the set-up actions."""
    out: list[Action] = list(legal_actions(s))
    for a in legal_actions(s):
        if isinstance(a, Move):
            plain = replace(a, path=())
            out += [replace(plain, cost=a.cost + 1), replace(plain, heading=(a.heading + 1) % 4)]
            out += [replace(plain, jump=not a.jump)]
        elif isinstance(a, Place):
            out += [replace(a, x=a.x + 1), replace(a, rot=(a.rot + 90) % 360, number=0)]
            out += [replace(a, number=a.number + 1)]
    squares = {(x, y) for _, x, y, _ in s.laid} | {(-9, -9)}
    out += [PlayDetour(k, x, y, r) for k in DETOUR_KINDS for x, y in squares for r in (0, 90, 180, 270)]
    return out + [PlayKitt(k) for k in KITT_KINDS] + [End(), Recover(), StartAt(0, 0), Enter(0), Enter(2)]


@pytest.mark.parametrize("seed", [3, 4])
def test_apply_refuses_exactly_the_actions_legal_actions_does_not_list(seed: int) -> None:
    """``apply`` checks an action by the conditions ``legal_actions`` lists actions by (one set
    of checks, which also names the rule an illegal one breaks): over a game the players
    build and a quick-built one, every listed action applies and every other candidate is
    refused with a rule id, on the state and on a copy without its memo."""
    for options in (Options(turn_limit=12), Options(quick_build=True, tour=1, turn_limit=25)):
        for s in states_along(seed, 2 + seed % 3, options, every=4):
            listed = set(legal_actions(s))
            for i, a in enumerate(_candidates(s)):
                on = evolve(s) if i % 2 else s
                if a in listed and getattr(a, "number", 0) in (0, s.drawn):
                    apply(on, a)
                else:
                    with pytest.raises(IllegalAction) as err:
                        apply(on, a)
                    assert err.value.rule not in (None, "unknown"), a


def test_winner_function() -> None:
    final, _ = playout(2, 15, Options(quick_build=True))
    assert is_over(final) and winner(final) == final.winner and final.winner in (0, 1)


def test_winners_as_in_mille_bornes_the_winning_sides_or_none() -> None:
    """``winners`` means what ``rallye.mille.winners`` means: the winning sides once the game
    is over; ``()`` while it runs and when the turn limit ends it with no winner."""
    final, _ = playout(2, 15, Options(quick_build=True))
    assert winners(final) == (final.winner,) and final.winner is not None
    assert winners(new_game(3, 1, QUICK)) == ()
    stopped, _ = playout(2, 3, Options(quick_build=True, turn_limit=1))
    assert is_over(stopped) and winner(stopped) is None and winners(stopped) == ()


def test_evolve_chance_keeps_the_memo_and_changes_only_chance() -> None:
    """``evolve_chance`` (for adapters scripting chance outcomes) shares the memo of legal
    actions: they cannot depend on the Rng or the escape deck's order. Any other field is
    refused, and the copy plays on as ``evolve`` would."""
    from rallye.core.rng import Rng
    from rallye.knightrider.state import evolve_chance

    for s in states_along(4, 3, every=11):
        if is_over(s):
            continue
        legal = legal_actions(s)
        deck = tuple(reversed(s.escape_deck))
        fast = evolve_chance(s, rng=Rng(5), escape_deck=deck)
        slow = evolve(s, rng=Rng(5), escape_deck=deck)
        assert fast == slow and fast.rng == Rng(5) and fast.escape_deck == deck
        assert legal_actions(fast) is legal  # the memo, not a new search
        assert legal_actions(slow) == legal and legal_actions(slow) is not legal
        for a in legal[:3]:
            assert apply(fast, a) == apply(slow, a)
    with pytest.raises(TypeError, match="changes only"):
        evolve_chance(s, pips=3)


def test_the_memo_holds_only_what_evolve_chance_may_share() -> None:
    """``evolve_chance`` shares a state's memo with a copy whose Rng and escape deck differ,
    which is right only while nothing memoized depends on them. The keys the engine fills
    over whole games are the ones checked for that (legal actions, moves, the move table,
    roadblocks); a new key must be checked too before it joins this list."""
    from rallye.knightrider.state import CHANCE_FIELDS

    assert frozenset({"rng", "escape_deck"}) == CHANCE_FIELDS
    keys: set[str] = set()
    for s in states_along(6, 3, every=1) + states_along(7, 2, every=1):
        if not is_over(s):
            legal_actions(s)
            apply(s, legal_actions(s)[0])
        keys |= set(s._memo or {})
    assert keys and keys <= {"legal", "moves", "move_table", "blocked"}
