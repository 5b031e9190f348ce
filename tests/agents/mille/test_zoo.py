"""The opponent zoo (``rallye.agents.mille.zoo``): each style's habit, checked on built views
and along random games, and whole games of zoo bots at every size of every edition."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from rallye import mille
from rallye.agents.base import agent_names, make_agent
from rallye.agents.mille.zoo import STYLES, Table, hazards_gone
from rallye.mille.actions import Action
from rallye.mille.cards import DISTANCE_KM, DISTANCES, REMEDIES, REMEDY_OF, SAFETIES, SAFETY_AGAINST
from rallye.mille.state import Tableau
from rallye.mille.view import MilleView
from rallye.sim.play import MatchJob, play_job

from .helpers import views_of

ZOO = tuple(STYLES)
EMPTY = Tableau()
ROLLING = Tableau(battle=("ROLL",))
EDITIONS = ("wm2006", "hu", "fxschmid", "meilen")


def view(
    hand: tuple[str, ...],
    *tableaus: Tableau,
    players: int = 2,
    edition: str = "wm2006",
    discard: tuple[str, ...] = (),
    **kw: object,
) -> MilleView:
    """Seat 0's view at a table of ``players`` with these tableaus (one per side), the
    others holding 6 cards each and the rest in the draw pile; checked to be a possible view
    (``from_json`` refuses an impossible one)."""
    v = mille.view_for(mille.new_match(edition, players, seed=0), 0)
    tabs = tableaus + (EMPTY,) * (len(v.sides) - len(tableaus))
    sizes = (len(hand),) + (6,) * (players - 1)
    v = dataclasses.replace(v, hand=hand, tableaus=tabs, discard=discard, hand_sizes=sizes, **kw)  # type: ignore[arg-type]
    v = dataclasses.replace(v, draw_count=sum(v.unseen_counts().values()) - 6 * (players - 1))
    assert v.current == 0
    return MilleView.from_json(v.to_json())


def choice(style: str, v: MilleView, seed: int = 0) -> str:
    legal = mille.legal_from_view(v)
    a = make_agent("mille", style, seed).choose(v, legal)
    assert a in legal
    return str(a)


def random_views(players: tuple[int, ...] = (2, 3, 4, 6), steps: int = 300) -> list[MilleView]:
    out = []
    for n in players:
        out += [v for v in views_of("wm2006", n, seed=n, steps=steps) if v.phase == "play"]
    return out


VIEWS = random_views()


def test_the_zoo_is_registered() -> None:
    assert set(ZOO) == {"zoo-racer", "zoo-attacker", "zoo-hoarder", "zoo-counter", "zoo-cautious", "zoo-team"}
    assert set(ZOO) <= set(agent_names("mille"))


@pytest.mark.parametrize("style", ZOO)
def test_a_style_is_deterministic_for_a_seed(style: str) -> None:
    def run(seed: int) -> list[Action]:
        bot = make_agent("mille", style, seed)
        return [bot.choose(v, mille.legal_from_view(v)) for v in VIEWS[:300]]

    assert run(5) == run(5)


# -- the racer ---------------------------------------------------------------------------
def test_racer_drives_its_biggest_distance_whenever_it_can() -> None:
    driven = 0
    for v in VIEWS:
        legal = mille.legal_from_view(v)
        drives = [a for a in legal if a.verb == "play" and a.card in DISTANCES]
        if drives:
            biggest = max(drives, key=lambda a: DISTANCE_KM[a.card or ""])
            assert choice("zoo-racer", v) == str(biggest)
            driven += 1
    assert driven > 50


def test_racer_cures_when_it_cannot_drive_and_discards_a_hazard_before_a_remedy() -> None:
    hand = ("D100", "D75", "GASOLINE", "ROLL", "STOP", "SPARE_TIRE", "D25")
    assert choice("zoo-racer", view(hand, Tableau(battle=("ROLL", "STOP")), ROLLING)) == "play ROLL"
    # stopped by an accident it cannot cure, the opponent stopped too: only discards are left
    hand = ("D100", "D75", "GASOLINE", "SPARE_TIRE", "STOP", "D50", "D25")
    v = view(hand, Tableau(battle=("ROLL", "ACCIDENT")), Tableau(battle=("ROLL", "FLAT_TIRE")))
    assert choice("zoo-racer", v) == "discard STOP"


# -- the leader-attacker -----------------------------------------------------------------
def test_attacker_attacks_the_side_nearest_the_target() -> None:
    lead = Tableau(battle=("ROLL",), distance=("D100",) * 5, km=500)
    slow = Tableau(battle=("ROLL",), distance=("D100",), km=100)
    hand = ("D100", "STOP", "ACCIDENT", "GASOLINE", "ROLL", "D50", "D25")
    for tabs, want in (((ROLLING, lead, slow), "attack 2 ACCIDENT"), ((ROLLING, slow, lead), "attack 3 ACCIDENT")):
        assert choice("zoo-attacker", view(hand, *tabs, players=3)) == want


def test_attacker_holds_its_hazards_for_the_leader() -> None:
    stopped_lead = Tableau(battle=("ROLL", "STOP"), distance=("D100",) * 5, km=500)
    slow = Tableau(battle=("ROLL",), distance=("D100",), km=100)
    hand = ("D100", "STOP", "ACCIDENT", "GASOLINE", "ROLL", "D50", "D25")
    assert choice("zoo-attacker", view(hand, ROLLING, stopped_lead, slow, players=3)) == "play D100"
    # the leader is safe from accidents: that hazard may go to the other side
    safe_lead = stopped_lead._replace(safeties=("DRIVING_ACE",))
    hand = ("D100", "ACCIDENT", "GASOLINE", "ROLL", "D50", "D25", "SPARE_TIRE")
    v = view(hand, Tableau(battle=("ROLL", "FLAT_TIRE")), safe_lead, slow, players=3)
    assert choice("zoo-attacker", v) == "play SPARE_TIRE"  # cures before that
    v = view(hand, Tableau(battle=("ROLL", "OUT_OF_GAS")), safe_lead, slow, players=3)
    assert choice("zoo-attacker", v) == "play GASOLINE"
    v = view(hand, Tableau(battle=("ROLL", "STOP")), safe_lead, slow, players=3)
    assert choice("zoo-attacker", v) == "play ROLL"
    hand = ("D100", "ACCIDENT", "D75", "D50", "D25", "D200", "D100")
    v = view(hand, Tableau(battle=("ROLL", "STOP")), safe_lead, slow, players=3)
    assert choice("zoo-attacker", v) == "attack 3 ACCIDENT"


def test_attacker_attacks_a_leader_whenever_it_can() -> None:
    attacked = 0
    for v in VIEWS:
        t = Table.of(v)
        legal = mille.legal_from_view(v)
        on_leader = [a for a in legal if a.verb == "attack" and a.side in t.leaders()]
        got = choice("zoo-attacker", v)
        if on_leader:
            assert got in {str(a) for a in on_leader}
            attacked += 1
        elif got.startswith("attack"):
            hazard = got.split()[-1]
            assert all(t.safe_from(lead, hazard) for lead in t.leaders())
    assert attacked > 20


# -- the safety hoarder ------------------------------------------------------------------
def test_hoarder_holds_a_safety_while_its_hazard_may_come() -> None:
    hand = ("EXTRA_TANK", "D100", "D75", "STOP", "GASOLINE", "ROLL", "D50")
    stopped = Tableau(battle=("ROLL", "STOP"))
    assert choice("zoo-hoarder", view(hand, ROLLING, stopped)) == "play D100"
    # 2-player wm2006 has two Out of Gas: both seen, the safety is laid
    gone = view(hand, ROLLING, stopped, discard=("OUT_OF_GAS", "OUT_OF_GAS"))
    assert choice("zoo-hoarder", gone) == "play EXTRA_TANK"


def test_hoarder_lays_a_safety_only_when_it_must() -> None:
    # a hand of safeties and one remedy it cannot use: it discards the remedy
    hand = ("RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE", "SPARE_TIRE", "SPARE_TIRE", "REPAIRS")
    assert choice("zoo-hoarder", view(hand, ROLLING, ROLLING)).startswith("discard")
    # nothing but safeties: it lays one rather than throw it away
    hand = ("RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE")
    assert choice("zoo-hoarder", view(hand, ROLLING, ROLLING)).startswith("play")
    # stopped by the hazard it holds the safety for, without the remedy: it lays the safety
    hand = ("PUNCTURE_PROOF", "D100", "D75", "STOP", "GASOLINE", "ROLL", "D50")
    assert choice("zoo-hoarder", view(hand, Tableau(battle=("ROLL", "FLAT_TIRE")), ROLLING)) == "play PUNCTURE_PROOF"
    # with the remedy in hand it cures with the remedy and keeps the safety
    hand = ("PUNCTURE_PROOF", "D100", "D75", "STOP", "SPARE_TIRE", "ROLL", "D50")
    assert choice("zoo-hoarder", view(hand, Tableau(battle=("ROLL", "FLAT_TIRE")), ROLLING)) == "play SPARE_TIRE"


def test_hoarder_never_lays_a_safety_early_unless_forced() -> None:
    laid = 0
    for v in VIEWS:
        got = choice("zoo-hoarder", v)
        card = got.split()[-1]
        if got.startswith("play") and card in SAFETIES:
            t = Table.of(v)
            on_me = (t.tab.battle_top, t.tab.speed_top)
            forced = all(c in SAFETIES for c in v.hand) or v.draw_count == 0
            # it takes a hazard off its side that no remedy in hand cures
            cures = any(h in SAFETY_AGAINST[card] and REMEDY_OF[h] not in v.hand for h in on_me)
            assert hazards_gone(t, card) or forced or cures, (got, on_me, v.hand)
            laid += 1
    assert laid > 0


# -- the card counter --------------------------------------------------------------------
def test_counter_attacks_with_the_hazard_whose_remedies_are_all_seen() -> None:
    hand = ("STOP", "FLAT_TIRE", "D100", "D75", "D50", "GASOLINE", "REPAIRS")
    me = ROLLING._replace(safeties=("PUNCTURE_PROOF",))  # the flat tire's safety is seen too
    tires_gone = view(hand, me, ROLLING, discard=("SPARE_TIRE",) * 6)
    assert choice("zoo-counter", tires_gone) == "attack 2 FLAT_TIRE"
    me = ROLLING._replace(safeties=("RIGHT_OF_WAY",))
    rolls_gone = view(hand, me, ROLLING, discard=("ROLL",) * 12)
    assert choice("zoo-counter", rolls_gone) == "attack 2 STOP"
    # 12 Rolls unseen: a Stop is more likely answered than not, so it drives first; of six
    # Spare Tires none is more likely than not in the 6 cards held, so a Flat Tire goes first
    hand = ("STOP", "D100", "D75", "D50", "GASOLINE", "REPAIRS", "D25")
    assert choice("zoo-counter", view(hand, ROLLING, ROLLING)) == "play D100"
    hand = ("STOP", "FLAT_TIRE", "D100", "D75", "D50", "GASOLINE", "REPAIRS")
    assert choice("zoo-counter", view(hand, ROLLING, ROLLING)) == "attack 2 FLAT_TIRE"


def test_counter_discards_a_remedy_whose_hazards_are_all_seen() -> None:
    hand = ("GASOLINE", "SPARE_TIRE", "REPAIRS", "D100", "D75", "D50", "END_OF_LIMIT")
    stopped = Tableau(battle=("ROLL", "STOP"))
    v = view(hand, stopped, stopped, discard=("FLAT_TIRE", "FLAT_TIRE"))
    assert choice("zoo-counter", v) == "discard SPARE_TIRE"


# -- the cautious player -----------------------------------------------------------------
def test_cautious_never_discards_a_remedy_while_holding_distance() -> None:
    discards = 0
    for v in VIEWS:
        got = choice("zoo-cautious", v)
        if got.startswith("discard"):
            discards += 1
            card = got.split()[-1]
            assert card not in SAFETIES
            if card in REMEDIES:
                assert not any(c in DISTANCES for c in v.hand), (got, v.hand)
    assert discards > 20


def test_cautious_discards_distance_first_and_lays_safeties_at_once() -> None:
    hand = ("GASOLINE", "SPARE_TIRE", "REPAIRS", "D100", "STOP", "ROLL", "END_OF_LIMIT")
    v = view(hand, Tableau(battle=("ROLL", "ACCIDENT")), Tableau(battle=("ROLL", "STOP")))
    assert choice("zoo-cautious", v) == "play REPAIRS"
    v = view(hand, Tableau(battle=("ROLL", "ACCIDENT", "REPAIRS")), Tableau(battle=("ROLL", "STOP")))
    assert choice("zoo-cautious", v) == "play ROLL"
    hand = ("GASOLINE", "SPARE_TIRE", "REPAIRS", "D100", "STOP", "D25", "END_OF_LIMIT")
    v = view(hand, Tableau(battle=("ROLL", "FLAT_TIRE", "SPARE_TIRE")), Tableau(battle=("ROLL", "STOP")))
    assert choice("zoo-cautious", v) == "discard D25"
    hand = ("EXTRA_TANK", "D100", "D75", "STOP", "GASOLINE", "ROLL", "D50")
    assert choice("zoo-cautious", view(hand, ROLLING, ROLLING)) == "play EXTRA_TANK"


# -- the team player ---------------------------------------------------------------------
def _km(km: int, **kw: object) -> Tableau:
    """A rolling side with ``km`` driven (at most three each of 100, 75, 50, so that three
    such sides fit one deck)."""
    dist: list[str] = []
    for card, most in (("D100", 3), ("D75", 3), ("D50", 3), ("D25", 10)):
        while most and sum(map(DISTANCE_KM.__getitem__, dist)) + DISTANCE_KM[card] <= km:
            dist.append(card)
            most -= 1
    assert sum(map(DISTANCE_KM.__getitem__, dist)) == km
    return Tableau(battle=("ROLL",), distance=tuple(dist), km=km)._replace(**kw)  # type: ignore[arg-type]


def test_team_player_holds_back_the_side_that_threatens_its_team() -> None:
    # wm2006, 6 players: three teams of two, seat 0 (side 1) with seat 3; sides 2 and 3 ahead
    hand = ("STOP", "ACCIDENT", "D100", "D75", "GASOLINE", "ROLL", "D50")
    v = view(hand, _km(300), _km(500), _km(600), players=6)
    assert v.sides == ((0, 3), (1, 4), (2, 5))
    assert choice("zoo-team", v) == "attack 3 ACCIDENT"  # the side nearest the target
    # equally far: the side whose player moves next (seat 1, side 2)
    assert choice("zoo-team", view(hand, _km(300), _km(600), _km(600), players=6)) == "attack 2 ACCIDENT"
    # nobody threatens (all behind and far from 1000): it drives
    assert choice("zoo-team", view(hand, _km(500), _km(200), _km(100), players=6)) == "play D100"
    # the shared tableau first: stopped, it cures before holding anyone back
    v = view(hand, _km(300, battle=("ROLL", "OUT_OF_GAS")), _km(500), _km(600), players=6)
    assert choice("zoo-team", v) == "play GASOLINE"


def test_team_player_banks_its_safeties_near_the_finish() -> None:
    hand = ("EXTRA_TANK", "D100", "D75", "STOP", "GASOLINE", "ROLL", "D50")
    stopped = Tableau(battle=("ROLL", "STOP"))
    assert choice("zoo-team", view(hand, _km(300), stopped, players=4)) == "play D100"
    assert choice("zoo-team", view(hand, _km(800), stopped, players=4)) == "play EXTRA_TANK"


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 4), ("wm2006", 6), ("fxschmid", 6), ("hu", 4)])
def test_team_player_attacks_only_opponents_in_team_games(edition: str, players: int) -> None:
    attacks = 0
    for v in views_of(edition, players, seed=7, steps=300):
        got = make_agent("mille", "zoo-team", 0).choose(v, mille.legal_from_view(v))
        if got.verb == "attack":
            attacks += 1
            assert got.side != v.side and v.seat not in v.sides[got.side or 0]
    assert attacks > 0


# -- the extension -----------------------------------------------------------------------
def _at_700(hand: tuple[str, ...], opp_km: int, discard: tuple[str, ...] = ()) -> MilleView:
    me = _km(700)
    v = view(hand, me, _km(opp_km), discard=discard)
    return dataclasses.replace(v, phase="extend")


EXTEND_CASES = {
    # style: (what it does far ahead with distance and safeties in hand, what it does when the
    # opponent is close and its hand is poor)
    "zoo-racer": ("extend", "extend"),
    "zoo-attacker": ("extend", "decline"),
    "zoo-hoarder": ("extend", "decline"),
    "zoo-counter": ("extend", "decline"),
    "zoo-cautious": ("decline", "decline"),
    "zoo-team": ("extend", "decline"),
}


@pytest.mark.parametrize("style", ZOO)
def test_each_style_decides_the_extension_its_way(style: str) -> None:
    seen = ("STOP", "STOP", "STOP", "STOP", "SPEED_LIMIT", "SPEED_LIMIT", "SPEED_LIMIT", "SPEED_LIMIT")
    good = _at_700(("D100", "D100", "D200", "D75", "RIGHT_OF_WAY", "EXTRA_TANK", "ROLL"), 150, discard=seen)
    good = dataclasses.replace(good, tableaus=(good.tableaus[0]._replace(safeties=("DRIVING_ACE",)), good.tableaus[1]))
    poor = _at_700(("D25", "STOP", "GASOLINE", "ROLL", "SPARE_TIRE", "REPAIRS", "D50"), 600)
    assert (choice(style, good), choice(style, poor)) == EXTEND_CASES[style]


# -- whole games -------------------------------------------------------------------------
@pytest.mark.parametrize("style", ZOO)
def test_whole_games_with_zoo_bots_finish_with_legal_choices(style: str) -> None:
    """Every edition at every size it is played by (2, 3, 4 and 6 players; meilen also 5):
    the style against the rest of the zoo, and against ``medium``; ``play_job`` refuses
    any choice outside the legal list."""
    others = [s for s in ZOO if s != style]
    for edition in EDITIONS:
        assert {2, 3, 4, 6} <= set(mille.get_edition(edition).players)
    for edition, n in ((e, n) for e in EDITIONS for n in mille.get_edition(e).players):
        zoo_only = (style, *itertools.islice(itertools.cycle(others), n - 1))
        mixed = tuple(style if i % 2 == 0 else "medium" for i in range(n))
        for k, bots in enumerate((zoo_only, mixed)):
            job = MatchJob(k, "mille", n, bots, seed=n + 10 * k, bot_seeds=tuple(range(n)), edition=edition)
            result = play_job(job)
            assert result.winners and result.hands >= 1
    again = play_job(job)
    assert again == result


def test_a_zoo_bot_chooses_only_from_the_legal_list_it_is_given() -> None:
    v = view(("D100", "D75", "STOP", "GASOLINE", "ROLL", "D50", "D25"), ROLLING, ROLLING)
    only: tuple[Action, ...] = (mille.parse_action("discard D25"),)
    for style in ZOO:
        assert make_agent("mille", style, 0).choose(v, only) == only[0]
        with pytest.raises(ValueError):
            make_agent("mille", style, 0).choose(v, ())
