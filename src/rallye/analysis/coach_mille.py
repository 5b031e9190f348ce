"""The coach's reasons for a Mille Bornes decision: each a small pure function of the
view and the candidate facts (the preferred move, the next best, the evaluation), never
of a hidden card. ``coach.mille.*`` keys of the ``mille`` catalog (docs/analysis.md).

Unseen cards are those the player has not seen: in the other hands or the draw pile
(:meth:`~rallye.mille.view.MilleView.unseen_counts`); "of the N" counts the deck of the
view's edition and player count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from rallye.analysis.coach import Margin, Reason, pick
from rallye.analysis.evaluators import Judgement
from rallye.mille.actions import Action
from rallye.mille.cards import (
    BATTLE_HAZARDS,
    D200,
    DISTANCE_KM,
    REMEDIES,
    REMEDY_FOR,
    REMEDY_OF,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_AGAINST,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from rallye.mille.state import EXTEND_PHASE, Tableau
from rallye.mille.view import MilleView

#: an opposing side this near the end of its trip (km) is worth attacking now
NEAR_END_KM = 300
#: this few cards left to draw: a safety kept for a coup fourré may never be used
FEW_TO_DRAW = 10


@dataclass(frozen=True)
class Facts:
    """What a reason reads: the view, the preferred move and the next best (or None)."""

    view: MilleView
    best: Action
    next: Action | None

    @property
    def me(self) -> Tableau:
        return self.view.my_tableau

    @cached_property
    def unseen(self) -> dict[str, int]:
        return self.view.unseen_counts()

    @cached_property
    def deck(self) -> Counter[str]:
        return Counter(self.view.edition.deck_for(self.view.n_players))

    @cached_property
    def hand(self) -> Counter[str]:
        return Counter(self.view.hand)

    @property
    def left(self) -> int:
        """Km this side still needs to end the trip."""
        return self.view.target - self.me.km

    def opponents(self) -> list[tuple[int, Tableau]]:
        return [(s, t) for s, t in enumerate(self.view.tableaus) if s != self.view.side]

    def final_target(self) -> bool:
        """The trip cannot grow any more (no extension to come)."""
        v = self.view
        ex = v.edition.extension
        return not ex.allowed or v.extended_by is not None or v.target >= ex.to_km


Rule = Callable[[Facts], Reason | None]


def _hazard_of(tab: Tableau) -> str | None:
    """The hazard this side must repair: its battle pile's, else its speed limit."""
    top = tab.battle_top
    if top in BATTLE_HAZARDS:
        return top
    return SPEED_LIMIT if tab.limited else None


# -- playing on one's own side ------------------------------------------------------------------
def completes_trip(f: Facts) -> Reason | None:
    """A distance that ends the trip exactly: the trip's points."""
    b = f.best
    if b.verb == "play" and b.card in DISTANCE_KM and DISTANCE_KM[b.card] == f.left:
        return Reason("coach.mille.completes_trip", {"card": b.card, "km": f.view.target})
    return None


def repairs(f: Facts) -> Reason | None:
    """A remedy on this side's own hazard (a Roll card on a Stop, or to start rolling)."""
    b = f.best
    if b.verb != "play" or b.card not in REMEDIES:
        return None
    hazard = _hazard_of(f.me)
    if b.card == ROLL and hazard != STOP:
        return Reason("coach.mille.start_rolling", {"remedy": ROLL})
    if REMEDY_FOR[b.card] == hazard:
        return Reason("coach.mille.repairs", {"remedy": b.card, "hazard": hazard})
    return None


def safety_repairs(f: Facts) -> Reason | None:
    """A safety laid on the hazard it guards against: repaired, and safe for the hand."""
    b = f.best
    hazard = _hazard_of(f.me)
    if b.verb == "play" and b.card in SAFETIES and hazard in SAFETY_AGAINST[b.card]:
        return Reason("coach.mille.safety_repairs", {"safety": b.card, "hazard": hazard})
    return None


def safety_late(f: Facts) -> Reason | None:
    """A safety laid with few cards left to draw: a coup fourré is unlikely to come."""
    b = f.best
    if b.verb == "play" and b.card in SAFETIES and f.view.draw_count <= FEW_TO_DRAW:
        return Reason("coach.mille.safety_late", {"safety": b.card, "count": f.view.draw_count})
    return None


def safety_now(f: Facts) -> Reason | None:
    """A safety laid for its own sake: what it guards against (and the turn it gives)."""
    b = f.best
    if b.verb != "play" or b.card not in SAFETIES:
        return None
    hazard = sorted(SAFETY_AGAINST[b.card], key=lambda h: (h == SPEED_LIMIT, h))[0]
    key = "coach.mille.safety_turn" if f.view.edition.extra_turn_after_safety else "coach.mille.safety_now"
    return Reason(key, {"safety": b.card, "hazard": hazard})


def keep_safety(f: Facts) -> Reason | None:
    """A safety held back for a coup fourré: the hazards it answers still unseen."""
    b = f.best
    held = [s for s in SAFETIES if f.hand[s] and not (b.verb == "play" and b.card == s)]
    best_count, best_hazard, best_safety = 0, None, None
    for s in held:
        for h in sorted(SAFETY_AGAINST[s], key=lambda h: (h == SPEED_LIMIT, h)):  # a stop before a limit
            if f.unseen[h] > best_count:
                best_count, best_hazard, best_safety = f.unseen[h], h, s
    if best_hazard is None or f.view.draw_count <= FEW_TO_DRAW:
        return None
    return Reason(
        "coach.mille.keep_safety",
        {"safety": best_safety, "hazard": best_hazard, "count": best_count, "total": f.deck[best_hazard]},
    )


def distance_left(f: Facts) -> Reason | None:
    """A distance that brings the trip's end nearer."""
    b = f.best
    if b.verb == "play" and b.card in DISTANCE_KM and DISTANCE_KM[b.card] < f.left:
        return Reason("coach.mille.distance_left", {"card": b.card, "km": f.left - DISTANCE_KM[b.card]})
    return None


# -- attacks -------------------------------------------------------------------------------------
def _target(f: Facts) -> tuple[int, Tableau] | None:
    b = f.best
    if b.verb != "attack" or b.side is None:
        return None
    return b.side, f.view.tableaus[b.side]


def attack_near_end(f: Facts) -> Reason | None:
    """An attack on a side near the end of its trip."""
    hit = _target(f)
    if hit is None:
        return None
    side, tab = hit
    need = f.view.target - tab.km
    if need > NEAR_END_KM:
        return None
    if len(f.view.sides) == 2:
        return Reason("coach.mille.attack_near_end", {"km": need})
    return Reason("coach.mille.attack_near_end_who", {"km": need, "side": side + 1})


def attack_remedies_scarce(f: Facts) -> Reason | None:
    """An attack whose remedy is mostly gone already (played, discarded or in this hand)."""
    hit = _target(f)
    if hit is None or f.best.card is None:
        return None
    remedy = REMEDY_OF[f.best.card]
    total, unseen = f.deck[remedy], f.unseen[remedy]
    if total and unseen == 0:  # every one is on the table, discarded or in this hand
        safety = SAFETY_FOR[f.best.card]
        if f.unseen[safety]:  # the safety may still come (a coup fourré, or laid later)
            return Reason("coach.mille.attack_only_safety", {"remedy": remedy, "total": total, "safety": safety})
        return Reason("coach.mille.attack_no_remedy", {"remedy": remedy, "total": total})
    if total and unseen * 2 <= total:
        return Reason("coach.mille.attack_remedies_scarce", {"remedy": remedy, "count": unseen, "total": total})
    return None


def attack_stops(f: Facts) -> Reason | None:
    """An attack: what the side then needs to drive again."""
    hit = _target(f)
    if hit is None or f.best.card is None:
        return None
    side, _ = hit
    if f.best.card == SPEED_LIMIT:
        return Reason("coach.mille.attack_limit_who", {"side": side + 1})
    return Reason("coach.mille.attack_stops_who", {"side": side + 1, "remedy": REMEDY_OF[f.best.card]})


# -- discards ------------------------------------------------------------------------------------
def _discarded(f: Facts) -> str | None:
    return f.best.card if f.best.verb == "discard" else None


def discard_dead(f: Facts) -> Reason | None:
    """A discard of a card that can never be played this hand."""
    card = _discarded(f)
    if card is None:
        return None
    if card == D200 and f.me.d200 >= 2:
        return Reason("coach.mille.discard_two_200", {"card": card})
    if card in DISTANCE_KM and DISTANCE_KM[card] > f.left and f.final_target():
        return Reason("coach.mille.discard_too_far", {"card": card, "km": f.left})
    if card in SAFETY_FOR:  # a hazard
        guard = SAFETY_FOR[card]
        opponents = f.opponents()
        if opponents and all(guard in t.safeties for _, t in opponents):
            return Reason("coach.mille.discard_guarded", {"card": card, "safety": guard})
    if card in REMEDIES and card != ROLL:
        hazard = REMEDY_FOR[card]
        if SAFETY_FOR[hazard] in f.me.safeties:
            return Reason("coach.mille.discard_own_safety", {"card": card, "safety": SAFETY_FOR[hazard]})
    if card == ROLL and RIGHT_OF_WAY in f.me.safeties:
        return Reason("coach.mille.discard_own_safety", {"card": card, "safety": RIGHT_OF_WAY})
    return None


def discard_spare(f: Facts) -> Reason | None:
    """A discard of a remedy held twice, or of one whose hazard is all seen."""
    card = _discarded(f)
    if card is None or card not in REMEDIES:
        return None
    if f.hand[card] >= 2:
        return Reason("coach.mille.discard_double", {"card": card, "count": f.hand[card]})
    hazard = REMEDY_FOR[card]
    if card != ROLL and f.unseen[hazard] == 0 and _hazard_of(f.me) != hazard:
        return Reason("coach.mille.discard_hazards_seen", {"card": card, "hazard": hazard, "total": f.deck[hazard]})
    return None


def discard_distance_covered(f: Facts) -> Reason | None:
    """A distance discarded while the other distance cards in hand cover the trip's rest."""
    card = _discarded(f)
    if card is None or card not in DISTANCE_KM:
        return None
    rest = list(f.view.hand)
    rest.remove(card)
    held = sum(DISTANCE_KM.get(c, 0) for c in rest)
    if held < f.left or f.left <= 0:
        return None
    return Reason("coach.mille.discard_distance_covered", {"card": card, "km": held, "left": f.left})


def discard_least(f: Facts) -> Reason | None:
    card = _discarded(f)
    return Reason("coach.mille.discard_least", {"card": card}) if card is not None else None


# -- why not the next best -----------------------------------------------------------------------
def keeps_remedy(f: Facts) -> Reason | None:
    """The next best throws away a remedy whose hazard is still unseen: the best keeps it."""
    n = f.next
    if n is None or n.verb != "discard" or n.card not in REMEDIES or f.best.card == n.card or f.hand[n.card] > 1:
        return None
    hazard = REMEDY_FOR[n.card]
    if f.unseen[hazard] == 0:
        return None
    return Reason(
        "coach.mille.keep_remedy",
        {"remedy": n.card, "hazard": hazard, "count": f.unseen[hazard], "total": f.deck[hazard]},
    )


def coup_fourre_risk(f: Facts) -> Reason | None:
    """The next best attacks with a hazard whose safety is still unseen (the attacked side
    may hold it: a coup fourré), and the best does not take that risk."""
    n = f.next
    if n is None or n.verb != "attack" or n.card is None or n.side is None:
        return None
    safety = SAFETY_FOR[n.card]
    if not f.unseen[safety] or (
        f.best.verb == "attack" and f.best.card is not None and f.unseen[SAFETY_FOR[f.best.card]]
    ):
        return None
    side = f.view.sides[n.side]
    if not any(f.view.hand_sizes[p] for p in side):
        return None
    return Reason("coach.mille.coup_fourre_risk", {"hazard": n.card, "safety": safety})


# -- the trip's extension ----------------------------------------------------------------------
def extension(f: Facts) -> Reason | None:
    v = f.view
    if v.phase != EXTEND_PHASE or f.best.verb not in ("extend", "decline"):
        return None
    more = v.edition.extension.to_km - v.target
    held = sum(DISTANCE_KM.get(c, 0) for c in v.hand)
    if f.best.verb == "extend":
        return Reason("coach.mille.extend", {"km": held, "more": more, "count": v.draw_count})
    rival = max((t.km for _, t in f.opponents()), default=0)
    return Reason("coach.mille.decline", {"more": more, "count": v.draw_count, "km": rival})


#: the reasons, most telling first
RULES: tuple[Rule, ...] = (
    completes_trip,
    extension,
    safety_repairs,
    repairs,
    attack_near_end,
    attack_remedies_scarce,
    discard_dead,
    discard_spare,
    discard_distance_covered,
    safety_late,
    keeps_remedy,
    coup_fourre_risk,
    keep_safety,
)
#: said only when none of :data:`RULES` has anything to say
FALLBACKS: tuple[Rule, ...] = (safety_now, attack_stops, distance_left, discard_least)


def win_chance(judgement: Judgement, m: Margin) -> Reason | None:
    """The evaluation's own words: the chance to win the match after the move."""
    win = judgement.candidates[0].win
    if win is None:
        return None
    params: dict[str, object] = {"pct": round(100 * win)}
    if m.next is not None and m.next.win is not None and round(100 * m.next.win) != params["pct"]:
        params["next_pct"] = round(100 * m.next.win)
        return Reason("coach.mille.win_chance_vs", params)
    return Reason("coach.mille.win_chance", params)


def reasons(view: MilleView, legal: Sequence[Action], judgement: Judgement, m: Margin) -> tuple[Reason, ...]:
    """One to three reasons for the preferred move, most telling first."""
    facts = Facts(view, judgement.best, m.next.action if m.next is not None else None)
    found = [r for rule in RULES if (r := rule(facts)) is not None]
    if not found:
        found = [r for rule in FALLBACKS if (r := rule(facts)) is not None][:1]
    return pick(found, win_chance(judgement, m))
