"""The engine's fast path (:mod:`rallye.mille.playout`): the same rules as ``apply``, in
place. Stepped side by side with the engine through random matches of every edition and
player count, it must offer the same legal actions and reach the same state after every
step, through every rule it plays itself and every one it hands to the engine [core: coup
fourré, safety, end of trip, empty draw pile, match; table: extension]."""

from __future__ import annotations

import gc
import random
import sys

import pytest

from rallye.mille import apply, editions, get_edition, legal_actions, new_match, view_for
from rallye.mille.cards import SAFETIES
from rallye.mille.playout import Playout
from rallye.mille.state import MilleState, Tableau, WorkingState

CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]


def _pick(rnd: random.Random, legal, bias: float = 0.8):
    """Mostly a play or an attack (random play alone seldom makes a trip)."""
    plays = [a for a in legal if a.verb != "discard"]
    if plays and rnd.random() < bias:
        return rnd.choice(plays)
    return rnd.choice(legal)


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_playout_steps_exactly_like_the_engine(edition: str, players: int) -> None:
    rnd = random.Random(f"playout/{edition}/{players}")
    seen = {"hands": 0, "safeties": 0, "extend": 0, "passed": 0}
    for seed in range(3):
        s = new_match(edition, players, seed=seed)
        p = Playout(s)
        hands = 0
        while s.phase != "over" and hands < 6:
            legal = legal_actions(s)
            assert p.legal_actions() == legal
            a = _pick(rnd, legal)
            s = apply(s, a)
            p.apply(a)
            assert p.state() == s, (edition, players, seed, str(a))
            seen["safeties"] += a.verb == "play" and a.card in SAFETIES
            seen["extend"] += a.verb == "extend"
            if len(s.sheets) > hands:
                hands = len(s.sheets)
                seen["hands"] += 1
            seen["passed"] += s.draw_count == 0 and s.phase == "play"
        if hands < 6:  # the match ended: its last state too
            assert p.over and p.legal_actions() == ()
    assert seen["hands"] >= 3 and seen["safeties"] > 0 and seen["passed"] > 0, seen
    if get_edition(edition).extension.allowed and players == 2:
        assert seen["extend"] > 0, seen


def test_playout_coups_fourres_are_reached() -> None:
    """The run above meets coups fourrés somewhere (they are handed to the engine)."""
    rnd = random.Random(1)
    coups = 0
    for seed in range(8):
        s = new_match("wm2006", 3, seed=seed)
        p = Playout(s)
        while s.phase != "over" and len(s.sheets) < 2:
            a = _pick(rnd, legal_actions(s), bias=0.95)
            s = apply(s, a)
            p.apply(a)
            assert p.state() == s
            coups += s.events[-1].kind == "coup_fourre" if s.events else 0
    assert coups > 0


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 2), ("hu", 4), ("meilen", 3)])
def test_playout_view_is_the_engine_view_of_every_seat(edition: str, players: int) -> None:
    rnd = random.Random(7)
    s = new_match(edition, players, seed=3)
    p = Playout(s)
    while s.phase != "over" and len(s.sheets) < 2:
        for seat in range(players):
            assert p.view(seat) == view_for(s, seat)
        a = _pick(rnd, legal_actions(s))
        s = apply(s, a)
        p.apply(a)
    with pytest.raises(ValueError, match="no seat"):
        p.view(players)


def test_playout_leaves_its_start_and_its_copies_alone() -> None:
    rnd = random.Random(2)
    s = new_match("wm2006", 2, seed=5)
    for _ in range(30):
        s = apply(s, _pick(rnd, legal_actions(s)))
    start = Playout(s)
    copy = start.copy()
    for _ in range(40):
        start.apply(_pick(rnd, start.legal_actions()))
    assert copy.state() == s  # the copy did not move
    assert Playout(s).state() == s  # nor did the state it was taken from
    copy.load(start.state())
    assert copy.state() == start.state()


def test_playout_checked_move_names_the_rule_and_changes_nothing() -> None:
    """Unchecked by default (its moves come from its legal actions); with ``check=True`` an
    illegal move gets the engine's error and rule name, and the playout is left as it was."""
    from rallye.core.errors import IllegalAction
    from rallye.mille.actions import EXTEND, parse_action

    s = new_match("wm2006", 2, seed=1)
    p = Playout(s)
    for bad, rule in ((EXTEND, "extension-decision"), (parse_action("play D25"), "rolling")):
        with pytest.raises(IllegalAction) as err:
            p.apply(bad, check=True)
        assert err.value.rule == rule
        assert p.state() == s  # nothing lost
    a = p.legal_actions()[0]
    p.apply(a, check=True)
    assert p.state() == apply(s, a)


def test_the_working_copy_takes_every_field_of_a_state_in_order() -> None:
    """The engine's working copy unpacks a state into its slots in one written-out statement:
    its targets are the state's fields, in order, so a copy frozen again is the state."""
    slots = getattr(WorkingState, "__mypyc_attrs__", None) or WorkingState.__slots__  # compiled: its own slots
    assert tuple(slots) == MilleState._fields
    s = new_match("hu", 3, seed=4)
    for _ in range(30):
        assert Playout(s).state() == s
        s = apply(s, legal_actions(s)[-1])


def _tableaus_alive() -> int:
    gc.collect()
    # type(), not isinstance(): isinstance asks some objects for __class__, which a module
    # with deprecated attributes (torch's, in the same test process) answers with a warning
    return sum(1 for o in gc.get_objects() if type(o) is Tableau)


def test_a_working_copy_lets_go_of_the_states_it_held() -> None:
    """Taking over a state (``load``, and the next hand's deal at a hand's end) releases the
    fields held before. The suite runs on the compiled build too, where calling ``__init__``
    again on a working copy leaked every field it held, so a long run ran out of memory."""
    s = new_match("wm2006", 2, seed=1)
    t = apply(s, legal_actions(s)[0])
    p = Playout(s)
    held = sys.getrefcount(s.events), sys.getrefcount(s.tableaus), sys.getrefcount(t.tableaus)
    for _ in range(20):
        p.load(t)
        p.load(s)
    assert (sys.getrefcount(s.events), sys.getrefcount(s.tableaus), sys.getrefcount(t.tableaus)) == held

    def through_a_hand_end() -> None:
        q, rng, hand = Playout(s), random.Random(7), s.hand_no
        while q.state().hand_no == hand:
            q.apply(rng.choice(q.legal_actions()))

    through_a_hand_end()
    alive = _tableaus_alive()
    for _ in range(5):
        through_a_hand_end()
    assert _tableaus_alive() == alive
