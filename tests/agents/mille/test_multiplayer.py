"""The levels at tables of three or more players and in teams (issue #63, item 2): whom they
attack, that they never attack their own side, and the search's candidates where several
opposing sides could be attacked."""

from __future__ import annotations

import dataclasses

import pytest

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.distilled import top_moves
from rallye.agents.mille.heuristic import CLASSIC, FITTED, Reading, best_action, cf_risk, exposed_slots, rank_actions
from rallye.agents.mille.levels import mille_level
from rallye.agents.mille.sampler import exclusions
from rallye.agents.mille.search import PimcAgent, spread_attacks
from rallye.mille.actions import parse_action
from rallye.mille.cards import CARD_INDEX, DISTANCE_KM, SAFETIES
from rallye.mille.state import Event, Tableau
from rallye.mille.view import MilleView

from .helpers import random_states, views_of
from .test_zoo import view

HAND = tuple(sorted(("ACCIDENT", "D100", "D75", "GASOLINE", "ROLL", "D50", "STOP"), key=CARD_INDEX.__getitem__))


def side(km: int) -> Tableau:
    """A rolling side with ``km`` driven (one 200 at most, so that three such sides and the
    hand fit one deck)."""
    dist: list[str] = []
    for card, most in (("D200", 1), ("D100", 4), ("D75", 3), ("D50", 3), ("D25", 3)):
        while most and sum(map(DISTANCE_KM.__getitem__, dist)) + DISTANCE_KM[card] <= km:
            dist.append(card)
            most -= 1
    assert sum(map(DISTANCE_KM.__getitem__, dist)) == km
    return Tableau(battle=("ROLL",), distance=tuple(dist), km=km, d200=dist.count("D200"))


def table(players: int, mine: int, *others: int) -> MilleView:
    """Seat 0's view holding :data:`HAND`, its side at ``mine`` km, the opposing sides at
    ``others``, everyone rolling."""
    return view(HAND, side(mine), *map(side, others), players=players)


@pytest.mark.parametrize(
    ("players", "kms", "victim"),
    [
        (3, (675, 500), 1),  # alone to 700: the one 25 km from the finish
        (3, (500, 675), 2),
        (6, (975, 700), 1),  # three teams to 1000
        (6, (700, 975), 2),
    ],
)
def test_with_two_opponents_the_heuristic_attacks_the_side_about_to_finish(
    players: int, kms: tuple[int, int], victim: int
) -> None:
    v = table(players, 300, *kms)
    legal = mille.legal_from_view(v)
    assert {a.side for a in legal if a.verb == "attack"} == {1, 2}  # either could be hit
    for name in ("medium", "tuned", "fitted", "climbed"):  # the heuristic in each of its styles
        got = make_agent("mille", name, 1).choose(v, legal)
        assert got.verb == "attack" and got.side == victim, (name, got)


def test_spread_attacks_keeps_one_attack_per_side_ahead_and_the_order_otherwise() -> None:
    ranked = [
        parse_action(t)
        for t in (
            "attack 2 STOP",
            "attack 2 ACCIDENT",
            "attack 3 STOP",
            "attack 3 ACCIDENT",
            "play D100",
            "play D75",
            "discard D50",
        )
    ]
    got = [str(a) for a in spread_attacks(ranked)]
    assert got == [
        "attack 2 STOP",
        "attack 3 STOP",
        "play D100",
        "play D75",
        "discard D50",
        "attack 2 ACCIDENT",
        "attack 3 ACCIDENT",
    ]
    assert spread_attacks(ranked[4:]) == ranked[4:]


def test_at_three_sides_the_search_weighs_driving_beside_the_attacks() -> None:
    # the heuristic's best four moves are the four attacks; the search compares a drive too
    v = table(6, 300, 700, 975)
    legal = mille.legal_from_view(v)
    ranked = [a for _, a in rank_actions(v, legal, FITTED)]
    assert all(a.verb == "attack" for a in ranked[:4])
    bot = PimcAgent(0, deals=8, plies=2000, top_k=4, extra_discards=3, horizon=12, style=FITTED)
    ev = bot.evaluate(v, legal)
    assert sum(a.verb == "attack" for a in ev.candidates) == 2  # one on each opposing side
    assert {a.side for a in ev.candidates if a.verb == "attack"} == {1, 2}
    assert parse_action("play D100") in ev.candidates
    assert bot.verdict(ev) in legal


def test_at_two_sides_the_search_keeps_the_heuristics_best_four() -> None:
    # two players, and four in teams: every attack goes to the one opposing side, as before
    for players in (2, 4):
        v = view(HAND, side(300), side(600), players=players)
        legal = mille.legal_from_view(v)
        ranked = [a for _, a in rank_actions(v, legal, FITTED)]
        bot = PimcAgent(0, deals=4, plies=500, top_k=4, extra_discards=3, horizon=4, style=FITTED)
        assert list(bot.evaluate(v, legal).candidates) == top_moves(ranked, 4, 3)


def _team_views(edition: str, players: int) -> list[MilleView]:
    return [v for v in views_of(edition, players, seed=11, steps=400) if v.phase == "play"]


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 4), ("wm2006", 6), ("fxschmid", 6), ("hu", 4)])
def test_no_level_attacks_its_own_side_in_team_games(edition: str, players: int) -> None:
    views = _team_views(edition, players)
    assert {len(v.sides[v.side]) for v in views} != {1}  # team games: a partner on the side
    medium = make_agent("mille", "medium", 0)
    searched = 0
    for v in views:
        legal = mille.legal_from_view(v)
        # the engine offers attacks on opposing sides only
        assert all(a.side != v.side for a in legal if a.verb == "attack")
        bots = [medium]
        if searched < 4 and sum(a.verb == "attack" for a in legal) >= 2:
            bots += [mille_level("hard", searched), mille_level("expert", searched)]
            searched += 1
        for bot in bots:
            got = bot.choose(v, legal)
            assert got in legal
            assert got.verb != "attack" or (got.side != v.side and v.seat not in v.sides[got.side or 0])
    assert searched == 4


def test_the_heuristic_extends_against_one_opponent_and_never_against_two() -> None:
    # far ahead at 700 with 400 km and two safeties in hand: worth extending against one
    # opponent, not against two (either may take the long trip's bonuses)
    hand = tuple(
        sorted(("D100", "D100", "D200", "D75", "RIGHT_OF_WAY", "EXTRA_TANK", "ROLL"), key=CARD_INDEX.__getitem__)
    )
    for players, first in ((2, "extend"), (3, "decline")):
        v = dataclasses.replace(view(hand, side(700), *[side(150)] * (players - 1), players=players), phase="extend")
        legal = mille.legal_from_view(v)
        assert {str(a) for a in legal} == {"extend", "decline"}
        for name in ("medium", "tuned", "fitted", "climbed"):
            assert str(make_agent("mille", name, 0).choose(v, legal)) == first, (players, name)


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 3), ("wm2006", 6), ("fxschmid", 6), ("meilen", 5)])
def test_the_exposed_slots_never_rule_out_a_safety_that_is_held(edition: str, players: int) -> None:
    # along random games, every seat's view: a seat whose side was attacked with a hazard a
    # safety answers, without a coup fourré, may hold that safety only among the cards it
    # has drawn since; the reading agrees with the sampler's exclusions and with the truth
    checked = narrowed = 0
    for s in random_states(edition, players, seed=5, steps=300):
        if s.phase != "play":
            continue
        for seat in range(players):
            v = mille.view_for(s, seat)
            excluded = {(e.seat, e.card): e.drawn for e in exclusions(v)}
            for safety in SAFETIES:
                slots = exposed_slots(v, safety)
                for p in range(players):
                    if p == seat:
                        continue
                    size = v.hand_sizes[p]
                    want = min(size, excluded[(p, safety)]) if (p, safety) in excluded else size
                    assert slots[p] == want, (seat, p, safety)
                    assert slots[p] >= (safety in s.hands[p])  # never 0 for a held safety
                    checked += 1
                    narrowed += slots[p] < size
    assert checked > 1000 and narrowed > 50  # the attacks seen narrow it often


def test_with_several_opposing_sides_the_heuristic_attacks_where_no_coup_fourre_can_come() -> None:
    # six players: side 2 was just hit by a Speed Limit without a coup fourré, so neither of
    # its players held Right of Way then, and neither has drawn since: a Stop there cannot be
    # answered, where side 3 (25 km ahead, the heuristic's pick before) may hold it
    limited = side(500)._replace(speed=("SPEED_LIMIT",))
    v = view(HAND, side(300), limited, side(525), players=6, events=(Event(2, "attack", "SPEED_LIMIT", 1),))
    assert exposed_slots(v, "RIGHT_OF_WAY") == [7, 0, 6, 6, 0, 6]
    assert exposed_slots(v, "DRIVING_ACE") == [7, 6, 6, 6, 6, 6]
    legal = mille.legal_from_view(v)
    for style in (CLASSIC, FITTED):
        assert str(best_action(v, legal, style)) == "attack 2 STOP"
        assert str(best_action(v, legal, dataclasses.replace(style, cf_seen=False))) == "attack 3 STOP"
    # two sides (four players in teams) read the risk as before: the whole hand
    v4 = view(HAND, side(300), limited, players=4, events=(Event(1, "attack", "SPEED_LIMIT", 1),))
    r = Reading.of(v4)
    assert cf_risk(r, 1, "STOP") == pytest.approx(12 / r.pool)
