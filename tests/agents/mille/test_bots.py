"""Mille Bornes bots: legal choices only, views only, and the heuristic's habits."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable

import pytest

from rallye import mille
from rallye.agents.base import Agent, make_agent
from rallye.agents.mille.distilled import DistilledAgent
from rallye.agents.mille.heuristic import (
    CLASSIC,
    CLIMBED,
    FITTED,
    STYLES,
    TUNED,
    HeuristicAgent,
    Reading,
    Style,
    best_action,
    card_value,
    rank_actions,
)
from rallye.agents.mille.search import IsmctsAgent, PimcAgent
from rallye.mille.actions import parse_action
from rallye.mille.state import Tableau

from .helpers import PLAYER_COUNTS, random_states, swap_hidden, views_of

#: The bots without a search: the heuristic in every style (with 10 % random moves, to
#: reach more kinds of table) and the distilled correction of the fitted one.
CHEAP_BOTS: dict[str, Callable[[int], Agent]] = {
    **{name: functools.partial(HeuristicAgent, epsilon=0.1, style=style) for name, style in STYLES.items()},
    "distilled": DistilledAgent,
}


@pytest.mark.parametrize("bot_name", list(CHEAP_BOTS))
@pytest.mark.parametrize("edition", sorted(PLAYER_COUNTS))
def test_heuristic_only_returns_legal_actions(edition: str, bot_name: str) -> None:
    """Thousands of decisions across editions, player counts and phases (extension incl.),
    in every style, and of the distilled bot."""
    phases = set()
    for players in PLAYER_COUNTS[edition]:
        bot = CHEAP_BOTS[bot_name](players)
        for v in views_of(edition, players, seed=players, steps=400):
            legal = mille.legal_from_view(v)
            phases.add(v.phase)
            assert bot.choose(v, legal) in legal
    if edition != "meilen":
        assert "extend" in phases


@pytest.mark.parametrize("edition", sorted(PLAYER_COUNTS))
def test_ismcts_only_returns_legal_actions(edition: str) -> None:
    phases = set()
    for players in PLAYER_COUNTS[edition]:
        bot = IsmctsAgent(seed=players, iterations=3, rollout_plies=4)
        for i, v in enumerate(views_of(edition, players, seed=100 + players, steps=600)):
            if v.phase != "extend" and i % 8:
                continue  # every extension decision, and every 8th card decision
            legal = mille.legal_from_view(v)
            phases.add(v.phase)
            assert bot.choose(v, legal) in legal
    if edition != "meilen":
        assert "extend" in phases


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_levels_play_legal_actions_in_a_whole_hand(level: str) -> None:
    s = mille.new_match("wm2006", 3, seed=11)
    bots = [make_agent("mille", level, seed=p) for p in range(3)]
    if level in ("hard", "expert"):
        for b in bots:
            assert isinstance(b, PimcAgent)
            b.deals, b.plies = 3, 150  # keep the test fast
    while not s.sheets:
        v = mille.view_for(s, s.current)
        legal = mille.legal_from_view(v)
        a = bots[s.current].choose(v, legal)
        assert a in legal
        s = mille.apply(s, a)


def test_expert_following_the_hand_sees_only_views() -> None:
    """Expert's tracker (2 players) keeps what it learns from one decision to the next: fed,
    decision after decision of a hand, views made from states with other hidden cards (the
    same view each time), it keeps the same particles and makes the same choices."""
    s = mille.new_match("wm2006", 2, seed=8)
    opponent = make_agent("mille", "medium", seed=1)
    bots = [make_agent("mille", "expert", seed=5, exact=True) for _ in range(2)]
    for bot in bots:
        assert isinstance(bot, PimcAgent) and bot.tracker is not None
        bot.deals, bot.plies = 3, 300  # (a choice, not a budget)
    decisions = swapped = 0
    while not s.sheets:
        v = mille.view_for(s, s.current)
        if s.current == 0:
            a_state, b_state = swap_hidden(v, seed=decisions)
            swapped += a_state.hands != b_state.hands or a_state.draw_pile != b_state.draw_pile
            choices = []
            for bot, state in zip(bots, (a_state, b_state), strict=True):
                seen = mille.view_for(state, 0)
                choices.append(bot.choose(seen, mille.legal_from_view(seen)))
            assert choices[0] == choices[1]
            assert bots[0].tracker.particles == bots[1].tracker.particles  # type: ignore[union-attr]
            action = choices[0]
            decisions += 1
        else:
            action = opponent.choose(v, mille.legal_from_view(v))
        s = mille.apply(s, action)
    # (with the draw pile gone, the opponent's hand is no secret: nothing to swap)
    assert swapped >= 10 and bots[0].tracker.updates >= 5  # type: ignore[union-attr]


def test_heuristic_beats_random_clearly() -> None:
    """Behaviour check: ≥ 80 % of 2-player wm2006 hands won (seats swapped each deal)."""
    wins = games = 0
    for seed in range(50):
        for heuristic_seat in (0, 1):
            s = mille.new_match("wm2006", 2, seed=seed)
            bots = {
                heuristic_seat: make_agent("mille", "heuristic", seed),
                1 - heuristic_seat: make_agent("mille", "random", seed),
            }
            while not s.sheets:
                v = mille.view_for(s, s.current)
                s = mille.apply(s, bots[s.current].choose(v, mille.legal_from_view(v)))
            pts = s.sheets[0].hand_totals
            wins += pts[heuristic_seat] > pts[1 - heuristic_seat]
            games += 1
    assert wins / games >= 0.8


EMPTY = Tableau()


# -- the heuristic's habits --------------------------------------------------------------
def _view(
    hand: tuple[str, ...], me: Tableau, opp: Tableau = EMPTY, draw_count: int = 60, **kw: object
) -> mille.MilleView:
    """A 2-player wm2006 view for seat 0 with the given hand and tableaus."""
    s = mille.new_match("wm2006", 2, seed=0)
    v = mille.view_for(s, 0)
    deck = v.deck_size
    visible = len(hand) + len(me.cards()) + len(opp.cards())
    return dataclasses.replace(
        v,
        hand=hand,
        tableaus=(me, opp),
        draw_count=draw_count,
        hand_sizes=(len(hand), min(6, deck - visible - draw_count)),
        **kw,  # type: ignore[arg-type]
    )


ROLLING = Tableau(battle=("ROLL",))


def _choose(v: mille.MilleView) -> str:
    return str(best_action(v, mille.legal_from_view(v)))


def test_heuristic_cures_a_hazard_first() -> None:
    v = _view(
        ("D100", "D200", "GASOLINE", "STOP", "D25", "ROLL", "D50"), Tableau(battle=("ROLL", "OUT_OF_GAS")), ROLLING
    )
    assert _choose(v) == "play GASOLINE"


def test_heuristic_finishes_the_trip_exactly() -> None:
    me = Tableau(battle=("ROLL",), distance=("D200", "D200", "D100", "D100"), km=600, d200=2)
    v = _view(("D25", "D50", "D75", "D100", "STOP", "ROLL", "GASOLINE"), me, ROLLING)
    assert _choose(v) == "play D100"


def test_heuristic_holds_a_safety_early_and_banks_it_late() -> None:
    hand = ("D25", "D50", "D75", "D100", "ROLL", "GASOLINE", "EXTRA_TANK")
    early = _view(hand, ROLLING, Tableau(battle=("ROLL",)), draw_count=60)
    assert _choose(early) != "play EXTRA_TANK"
    late = _view(hand, ROLLING, Tableau(battle=("ROLL",), distance=("D100",) * 5, km=500), draw_count=2)
    assert _choose(late) == "play EXTRA_TANK"


def test_heuristic_attacks_the_leading_side() -> None:
    # 3 players: side 1 has 500 km, side 2 has 100; both rolling
    s = mille.new_match("wm2006", 3, seed=0)
    v0 = mille.view_for(s, 0)
    lead = Tableau(battle=("ROLL",), distance=("D100",) * 5, km=500)
    slow = Tableau(battle=("ROLL",), distance=("D100",), km=100)
    hand = ("D25", "STOP", "GASOLINE", "SPARE_TIRE", "REPAIRS", "END_OF_LIMIT", "D50")
    v = dataclasses.replace(v0, hand=hand, tableaus=(Tableau(), lead, slow))
    assert _choose(v) == "attack 2 STOP"


def test_heuristic_discards_dead_cards_never_a_safety() -> None:
    # stopped with no remedy in hand: nothing to play but discards
    me = Tableau(battle=("ROLL", "FLAT_TIRE"), safeties=("EXTRA_TANK",))
    v = _view(("D100", "D75", "GASOLINE", "DRIVING_ACE", "D50", "ROLL", "D25"), me, Tableau())
    r = Reading.of(v)
    assert card_value(r, "GASOLINE", v.hand) == 0  # its safety is on the side
    choice = _choose(v)
    assert choice == "discard GASOLINE"
    assert "DRIVING_ACE" not in choice


def test_heuristic_discards_a_third_200_and_distance_that_no_longer_fits() -> None:
    me = Tableau(battle=("ROLL", "ACCIDENT"), distance=("D200", "D200", "D100", "D100", "D50"), km=650, d200=2)
    v = _view(("D200", "D75", "D50", "D25", "ROLL", "ROLL", "STOP"), me, Tableau(), extended_by=1)
    r = Reading.of(v)
    assert card_value(r, "D200", v.hand) == 0
    assert card_value(r, "D75", v.hand) == 0
    assert _choose(v) in ("discard D200", "discard D75")


def test_heuristic_extension_decision_is_a_choice_of_two() -> None:
    for v in views_of("wm2006", 2, seed=9, steps=3000):
        if v.phase == "extend":
            assert _choose(v) in ("extend", "decline")
            break
    else:
        pytest.fail("no extension decision met")


def test_parse_of_every_bot_answer_round_trips() -> None:
    bot = make_agent("mille", "heuristic", 0)
    for s in random_states("hu", 4, seed=2, steps=100):
        v = mille.view_for(s, s.current)
        a = bot.choose(v, mille.legal_from_view(v))
        assert parse_action(str(a)) == a


# -- the tuned and fitted styles ---------------------------------------------------------
def _choose_in(v: mille.MilleView, style: Style) -> str:
    return str(best_action(v, mille.legal_from_view(v), style))


def test_styles_classic_is_the_heuristic_and_the_others_are_registered() -> None:
    """The yardsticks keep the classic heuristic (``heuristic``, ``medium`` and the easy
    level); ``hard`` and ``expert`` search with the fitted one for their own side."""
    assert Style() == CLASSIC
    assert STYLES == {"classic": CLASSIC, "tuned": TUNED, "fitted": FITTED, "climbed": CLIMBED}
    for name in ("heuristic", "easy", "medium"):
        assert make_agent("mille", name).style == CLASSIC  # type: ignore[attr-defined]
    for name in ("hard", "expert"):
        assert make_agent("mille", name).style == FITTED  # type: ignore[attr-defined]
    tuned = make_agent("mille", "tuned")
    assert tuned.name == "tuned" and tuned.style == TUNED  # type: ignore[attr-defined]
    fitted = make_agent("mille", "fitted")
    assert fitted.name == "fitted" and fitted.style == FITTED  # type: ignore[attr-defined]
    climbed = make_agent("mille", "climbed")
    assert climbed.name == "climbed" and climbed.style == CLIMBED  # type: ignore[attr-defined]


def test_climbed_is_fitted_with_four_weights_moved() -> None:
    """``CLIMBED`` is ``FITTED`` climbed in duplicate hands (``research/tune_style.py``): the
    weights the climb took and nothing else; the weights added for the climb keep the
    classic heuristic's constants in every other style (as does ``km_slope``, added later to
    test a preference for small distance cards in play)."""
    moved = {f.name for f in dataclasses.fields(Style) if getattr(CLIMBED, f.name) != getattr(FITTED, f.name)}
    assert moved == {"end_of_limit", "risky_remaining", "limit_keep", "remedy_unseen"}
    added = {
        "hazard_keep": 60.0,
        "roll_keep": 90.0,
        "remedy_keep": 55.0,
        "remedy_unseen": 8.0,
        "remedy_copy": 30.0,
        "attack_progress": 300.0,
        "scarce_remedy": 20.0,
        "limit_rolling": 80.0,
        "safety_idle": 40.0,
        "safety_risky": 460.0,
        "km_surplus": 0.0,
        "d200_keep": 0.0,
        "hazard_copy": 0.0,
        "km_slope": 0.5,
    }
    for style in (CLASSIC, TUNED, FITTED):
        assert {n: getattr(style, n) for n in added} == added


def test_climbed_keeps_a_speed_limit_over_end_of_limit() -> None:
    """Stopped by a flat tire with no cure and no distance in hand, the opponent stopped and
    limited (nothing to attack): only discards. Fitted values End of Limit at 60 and a Speed
    Limit at 43.75 and gives up the Speed Limit; climbed has them the other way round (45 and
    58.75) and gives up End of Limit."""
    me = Tableau(battle=("ROLL", "FLAT_TIRE"))
    opp = Tableau(battle=("ROLL", "STOP"), speed=("SPEED_LIMIT",))
    hand = ("END_OF_LIMIT", "SPEED_LIMIT", "ROLL", "GASOLINE", "STOP", "ACCIDENT", "REPAIRS")
    v = _view(hand, me, opp)
    assert all(a.verb == "discard" for a in mille.legal_from_view(v))
    assert _choose_in(v, FITTED) == "discard SPEED_LIMIT"
    assert _choose_in(v, CLIMBED) == "discard END_OF_LIMIT"
    r = Reading.of(v, CLIMBED)
    assert card_value(r, "SPEED_LIMIT", hand) == 58.75 and card_value(r, "END_OF_LIMIT", hand) == 45.0


def test_tuned_keeps_end_of_limit_and_gives_up_a_short_distance_card() -> None:
    """Stopped by a flat tire with no cure: only discards. The classic heuristic gives up
    End of Limit (worth 25 to it, a 25 km card 42.5); tuned values distance cards lower
    and End of Limit higher (40 against 12.5) and gives up the 25."""
    me = Tableau(battle=("ROLL", "FLAT_TIRE"))
    v = _view(("END_OF_LIMIT", "D25", "D100", "D75", "ROLL", "GASOLINE", "STOP"), me, Tableau())
    assert all(a.verb == "discard" for a in mille.legal_from_view(v))
    assert _choose_in(v, CLASSIC) == "discard END_OF_LIMIT"
    assert _choose_in(v, TUNED) == "discard D25"
    assert card_value(Reading.of(v, TUNED), "D25", v.hand) < card_value(Reading.of(v), "D25", v.hand)


def test_tuned_attacks_before_playing_roll() -> None:
    """Stopped with Roll in hand and a hazard for a rolling opponent: the classic heuristic
    starts first (Roll 950 above any attack on a side at 0 km), tuned attacks first."""
    me = Tableau(battle=("ROLL", "STOP"))
    v = _view(("ROLL", "FLAT_TIRE", "D100", "D75", "D50", "GASOLINE", "REPAIRS"), me, ROLLING)
    assert _choose_in(v, CLASSIC) == "play ROLL"
    assert _choose_in(v, TUNED) == "attack 2 FLAT_TIRE"  # the other seat (numbered from 1)


def test_tuned_holds_its_safety_when_an_opponent_nears_the_finish() -> None:
    """A long draw pile, an opponent rolling 200 km from the finish: the classic heuristic
    finds holding Extra Tank for a coup fourré risky and banks it; tuned keeps holding."""
    hand = ("D25", "D50", "D75", "D100", "ROLL", "GASOLINE", "EXTRA_TANK")
    close = Tableau(battle=("ROLL",), distance=("D200", "D200", "D100", "D100", "D100", "D100"), km=800, d200=2)
    v = _view(hand, ROLLING, close, draw_count=50)
    assert Reading.of(v).risky and not Reading.of(v, TUNED).risky
    assert _choose_in(v, CLASSIC) == "play EXTRA_TANK"
    assert _choose_in(v, TUNED) != "play EXTRA_TANK"


def test_fitted_attacks_before_it_cures_itself() -> None:
    """Stopped by a flat tire with a Spare Tire in hand and a hazard for a rolling opponent: the
    classic heuristic cures first (a remedy scores 1,000, above any attack); fitted puts a
    remedy at 500, below an attack that is unlikely to meet a coup fourré, and attacks."""
    me = Tableau(battle=("ROLL", "FLAT_TIRE"))
    v = _view(("SPARE_TIRE", "OUT_OF_GAS", "D100", "D75", "D50", "ROLL", "D25"), me, ROLLING)
    assert _choose_in(v, CLASSIC) == "play SPARE_TIRE"
    assert _choose_in(v, TUNED) == "play SPARE_TIRE"
    assert _choose_in(v, FITTED) == "attack 2 OUT_OF_GAS"


def test_fitted_banks_its_safety_earlier_as_the_draw_pile_runs_out() -> None:
    """Five cards left to draw in a 2-player game: holding Extra Tank for a coup fourré is
    not yet risky for the classic heuristic (two cards a player) but is for fitted (three),
    which banks it rather than drive."""
    hand = ("D25", "D50", "D75", "D100", "ROLL", "GASOLINE", "EXTRA_TANK")
    v = _view(hand, ROLLING, Tableau(), draw_count=5)
    assert not Reading.of(v).risky and Reading.of(v, FITTED).risky
    assert _choose_in(v, CLASSIC) == "play D100"
    assert _choose_in(v, FITTED) == "play EXTRA_TANK"


def test_rank_actions_in_a_style_is_best_first() -> None:
    for v in views_of("wm2006", 2, seed=5, steps=200):
        legal = mille.legal_from_view(v)
        for style in STYLES.values():
            ranked = rank_actions(v, legal, style)
            assert sorted(str(a) for _, a in ranked) == sorted(str(a) for a in legal)
            assert ranked[0][1] == best_action(v, legal, style)
            if v.phase == "play":
                assert [s for s, _ in ranked] == sorted((s for s, _ in ranked), reverse=True)


def test_reach_penalty_equals_its_plain_statement() -> None:
    """The cached reach test (``reachable``, ``_dividing``) answers exactly as the plain
    rule: 0 when the rest of the hand makes the distance exactly, else 120 over the copies
    (held or unseen) of the cards that make it on their own, 250 with none."""
    from rallye.agents.mille.heuristic import _reach_penalty, _sums
    from rallye.mille.cards import DISTANCE_KM

    def plain(r: Reading, after: int, hand_km: list[int]) -> float:
        if after == 0 or after in _sums(hand_km, after):
            return 0.0
        avail = {k: r.unseen[c] + r.view.hand.count(c) for c, k in DISTANCE_KM.items()}
        small = sum(n for k, n in avail.items() if k <= after and after % k == 0)
        return 250.0 if small == 0 else 120.0 / small

    rng = random.Random(7)
    checked = 0
    for edition in ("wm2006", "meilen"):
        for v in views_of(edition, 2, 11, 300):
            if v.phase != "play":
                continue
            r = Reading.of(v)
            for _ in range(3):
                hand_km = [rng.choice((25, 50, 75, 100, 200)) for _ in range(rng.randrange(7))]
                after = rng.choice((0, 25, 50, 75, 100, 125, 150, 175, 250, 300, 325, 475, 700, 1000))
                assert _reach_penalty(r, after, hand_km) == plain(r, after, hand_km)
                checked += 1
    assert checked > 1000
