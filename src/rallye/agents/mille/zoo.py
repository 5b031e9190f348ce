"""The opponent zoo: six Mille Bornes playing styles, each a habit a person or a classic AI has.

These bots exist to test the levels against ways of playing the project did not tune for
(issue #63). They are written from the rules and the view alone, independently of the
project's heuristic (``rallye.agents.mille.heuristic``): no shared scoring, no shared weights.

========================  ===================================================================
``zoo-racer``             drives whenever it can (the biggest distance it may play), else
                          cures its own side, else plays a safety, else attacks; discards what
                          it can least use (hazards before remedies before distance)
``zoo-attacker``          attacks the opposing side closest to the target and holds its
                          hazards for that leader; cures and drives otherwise
``zoo-hoarder``           keeps its safeties for a coup fourré and lays one down only when it
                          must (it cures the own side, the hand holds nothing else, the draw
                          pile is empty) or when the matching hazards are all seen;
                          otherwise cures, attacks the leader, drives
``zoo-counter``           counts what is still unseen (``view.unseen_counts()``) and attacks
                          where the victim is least likely to hold the remedy or the safety,
                          in the spirit of BSD ``mille``'s computer player; it discards the
                          cards its counting shows dead
``zoo-cautious``          keeps remedies: cures first, lays safeties down at once for their
                          protection, discards distance first, never extends
``zoo-team``              plays for its side's shared tableau: cures it first, attacks the
                          opposing side that threatens it (nearest the target, the soonest to
                          play among equals) before driving, banks its safeties once the side
                          nears the finish
========================  ===================================================================

Common to all: they see only their :class:`~rallye.mille.view.MilleView` and choose among
``legal`` (never a state); they are deterministic for a seed (ties between equally good
actions are broken by the bot's own seeded random generator). Each style also decides the
extension (after reaching 700 alone) its own way (:meth:`ZooAgent.extend`).

Team games: partners share one tableau (rules: "Sides"), so "protecting the partner" is
protecting the side: the team player's habits are about the shared tableau and about which
opposing side to hold back; attacks go only to opposing sides (the engine's rule too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rallye.agents.base import register
from rallye.mille.actions import DECLINE, EXTEND, Action
from rallye.mille.cards import (
    D200,
    DISTANCE_KM,
    DISTANCES,
    END_OF_LIMIT,
    HAZARDS,
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

#: How many kilometres of the own hand a side needs to finish an extension to 1000 (300 km).
EXTENSION_KM = 300


@dataclass(frozen=True, slots=True)
class Table:
    """What every style reads off the view once per decision."""

    view: MilleView
    side: int
    tab: Tableau
    opponents: tuple[int, ...]
    unseen: dict[str, int]
    hidden: int  # cards in the other hands and the draw pile
    max_target: int  # the target, or the extension's if this side may still extend

    @classmethod
    def of(cls, view: MilleView) -> Table:
        unseen = view.unseen_counts()
        ex = view.edition.extension
        may_extend = (
            ex.allowed
            and view.extended_by is None
            and view.target == ex.from_km
            and (not ex.alone_only or len(view.sides[view.side]) == 1)
        )
        return cls(
            view=view,
            side=view.side,
            tab=view.tableaus[view.side],
            opponents=tuple(s for s in range(len(view.sides)) if s != view.side),
            unseen=unseen,
            hidden=sum(unseen.values()),
            max_target=ex.to_km if may_extend else view.target,
        )

    # -- the own side ------------------------------------------------------------------
    def clears(self, safety: str) -> bool:
        """Playing this safety takes a hazard off the own side."""
        t = self.tab
        if t.battle_top in SAFETY_AGAINST[safety]:
            return True
        return safety == RIGHT_OF_WAY and t.speed_top == SPEED_LIMIT

    def is_cure(self, action: Action) -> bool:
        """A play that cures the own side: a remedy (Roll included) or a safety that clears."""
        card = action.card
        if action.verb != "play" or card is None:
            return False
        return card in REMEDIES or (card in SAFETIES and self.clears(card))

    def safe_from(self, side: int, hazard: str) -> bool:
        return SAFETY_FOR[hazard] in self.view.tableaus[side].safeties

    def dead(self, card: str) -> bool:
        """A card this player can no longer use this hand, by the rules alone."""
        t = self.tab
        if card in DISTANCES:
            return t.km + DISTANCE_KM[card] > self.max_target or (card == D200 and t.d200 >= 2)
        if card in REMEDIES:
            return self.safe_from(self.side, REMEDY_FOR[card])
        if card in HAZARDS:
            return all(self.safe_from(s, card) for s in self.opponents)
        return False

    # -- the others ----------------------------------------------------------------------
    def km(self, side: int) -> int:
        return self.view.tableaus[side].km

    def leaders(self) -> frozenset[int]:
        """The opposing sides closest to the target (the most kilometres)."""
        best = max(self.km(s) for s in self.opponents)
        return frozenset(s for s in self.opponents if self.km(s) == best)

    def turns_until(self, side: int) -> int:
        """Seats between this player and the next player of ``side`` (1 = plays next)."""
        n = self.view.n_players
        return min((seat - self.view.seat) % n or n for seat in self.view.sides[side])

    def cards_held(self, side: int) -> int:
        return sum(self.view.hand_sizes[seat] for seat in self.view.sides[side])

    def chance_held(self, side: int, card: str) -> float:
        """The chance that ``side``'s hands hold at least one ``card``, if the unseen cards
        were spread at random (a hypergeometric count)."""
        copies, hidden, held = self.unseen[card], self.hidden, self.cards_held(side)
        if copies <= 0 or held <= 0 or hidden <= 0:
            return 0.0
        miss = 1.0
        for i in range(min(held, hidden)):
            miss *= max(hidden - copies - i, 0) / (hidden - i)
        return 1.0 - miss

    def hand_km(self) -> int:
        return sum(DISTANCE_KM.get(c, 0) for c in self.view.hand)


def severity(hazard: str) -> int:
    """How long a hazard usually holds a side: a battle hazard with a scarce remedy (6 in
    the deck) > Stop (14 Rolls) > Speed Limit (the side still drives 25 and 50)."""
    if hazard == SPEED_LIMIT:
        return 1
    if hazard == STOP:
        return 2
    return 3


class ZooAgent:
    """A style: ``rank(table, action)`` orders the legal actions (higher first), the
    seeded generator breaks ties, and ``extend`` decides the extension."""

    style = "zoo"

    def __init__(self, seed: int = 0) -> None:
        self.name = self.style
        self.rng = random.Random(seed)

    def choose(self, view: MilleView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        t = Table.of(view)
        if view.phase == EXTEND_PHASE:
            want = EXTEND if self.extend(t) else DECLINE
            return want if want in legal else legal[0]
        ranked = [(self.rank(t, a), i) for i, a in enumerate(legal)]
        best = max(r for r, _ in ranked)
        ties = [i for r, i in ranked if r == best]
        return legal[ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]]

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def extend(self, t: Table) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError


# -- what a style keeps ----------------------------------------------------------------
def keep_by_kind(t: Table, card: str, order: dict[str, float]) -> float:
    """What discarding ``card`` loses, for a style whose ``order`` ranks the kinds
    (``distance``, ``hazard``, ``remedy``; safeties above all): a dead card nothing, a
    second copy of a remedy half a rank less, a longer distance or a harder hazard a little
    more."""
    if t.dead(card):
        return 0.0
    if card in DISTANCES:
        return order["distance"] + DISTANCE_KM[card] / 1000
    if card in HAZARDS:
        return order["hazard"] + severity(card) / 100
    if card in REMEDIES:
        return order["remedy"] - (0.5 if t.view.hand.count(card) > 1 else 0.0)
    return 10.0


#: The racer would rather drive than attack: hazards go first, then remedies, then distance.
RACER_KEEPS = {"hazard": 1.0, "remedy": 2.0, "distance": 3.0}
#: The attacker holds its hazards: distance goes first, then remedies.
ATTACKER_KEEPS = {"distance": 1.0, "remedy": 2.0, "hazard": 3.0}
#: A plain order (the hoarder's, the team player's): hazards, distance, remedies.
PLAIN_KEEPS = {"hazard": 1.0, "distance": 2.0, "remedy": 3.0}


# -- the racer -------------------------------------------------------------------------
class Racer(ZooAgent):
    """Drives whenever possible (the biggest legal distance), else cures, else lays a
    safety, else attacks the side with the most kilometres; discards what it can least use.
    Extends always: more road is more points."""

    style = "zoo-racer"

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if a.verb == "play" and card in DISTANCES:
            return (5, DISTANCE_KM[card])
        if t.is_cure(a):
            return (4, card != END_OF_LIMIT)  # the battle pile before the speed pile
        if a.verb == "play":
            return (3, 0)
        if a.verb == "attack":
            return (2, t.km(a.side or 0), severity(card))
        return (1, -keep_by_kind(t, card, RACER_KEEPS))

    def extend(self, t: Table) -> bool:
        return True


# -- the leader-attacker ---------------------------------------------------------------
class LeaderAttacker(ZooAgent):
    """Attacks whoever is closest to the target (the opposing side with the most
    kilometres) with its hardest hazard, and holds hazards for that leader: it attacks
    another side only with a hazard the leader is safe from. Otherwise cures and drives.
    Extends only when every opponent is far behind (under 400 km)."""

    style = "zoo-attacker"

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if a.verb == "attack":
            side = a.side or 0
            if side in t.leaders():
                return (6, severity(card))
            if all(t.safe_from(lead, card) for lead in t.leaders()):
                return (2, t.km(side), severity(card))
            return (-1, 0)  # held for the leader
        if t.is_cure(a):
            return (5, card != END_OF_LIMIT)
        if a.verb == "play" and card in DISTANCES:
            return (4, DISTANCE_KM[card])
        if a.verb == "play":
            return (3, 0)
        return (1, -keep_by_kind(t, card, ATTACKER_KEEPS))

    def extend(self, t: Table) -> bool:
        return all(t.km(s) < 400 for s in t.opponents)


# -- the safety hoarder ----------------------------------------------------------------
def hazards_gone(t: Table, safety: str) -> bool:
    """Every hazard this safety answers has been seen: no coup fourré can come any more."""
    return all(t.unseen[h] == 0 for h in SAFETY_AGAINST[safety])


class SafetyHoarder(ZooAgent):
    """Keeps safeties for coups fourrés. Lays one down only when it must: it takes a hazard
    off the own side and no remedy in hand does; the hand holds nothing but safeties; the
    draw pile is empty (the hand may end any turn, and a safety in hand then scores
    nothing); or when the matching hazards are all seen, so no coup fourré can come.
    Otherwise cures, attacks the leader, drives the biggest distance, discards plainly.
    Extends when its safeties (laid or held) cover at least two of the four hazard kinds."""

    style = "zoo-hoarder"

    def may_lay(self, t: Table, safety: str) -> bool:
        if hazards_gone(t, safety) or t.view.draw_count == 0:
            return True
        if t.clears(safety):  # unless a remedy in hand does it
            on_me = (t.tab.battle_top, t.tab.speed_top if safety == RIGHT_OF_WAY else None)
            return any(h in SAFETY_AGAINST[safety] and REMEDY_OF[h] not in t.view.hand for h in on_me)
        return all(c in SAFETIES for c in t.view.hand)

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if a.verb == "play" and card in SAFETIES:
            return (5.5, t.clears(card)) if self.may_lay(t, card) else (-1, 0)
        if t.is_cure(a):
            return (6, card != END_OF_LIMIT)
        if a.verb == "play":
            return (4, DISTANCE_KM[card])
        if a.verb == "attack":
            return (4.5, t.km(a.side or 0), severity(card))
        if card in SAFETIES:
            return (-2, 0)
        return (1, -keep_by_kind(t, card, PLAIN_KEEPS))

    def extend(self, t: Table) -> bool:
        covered = {s for s in t.tab.safeties + t.view.hand if s in SAFETIES}
        return len(covered) >= 2


# -- the card counter ------------------------------------------------------------------
class CardCounter(ZooAgent):
    """Counts the unseen cards. An attack is worth its hazard's severity times the chance
    it sticks: the victim's hands hold neither the safety (a coup fourré) nor the remedy,
    by the unseen copies. An attack that cannot be answered (every remedy and the safety
    seen) goes before anything but a cure, one that sticks with an even chance or better
    before driving, a likelier answered one only before a discard. Safeties are laid when
    their hazards are all seen or the draw pile is nearly gone. Discards what its count
    shows dead: remedies whose hazards are all seen and none on its side, hazards nobody
    can take. Extends when few hazards it is not safe from are left unseen."""

    style = "zoo-counter"

    def sticks(self, t: Table, side: int, hazard: str) -> float:
        cf = t.chance_held(side, SAFETY_FOR[hazard])
        cure = t.chance_held(side, REMEDY_OF[hazard])
        return (1.0 - cf) * (1.0 - cure)

    def counted_dead(self, t: Table, card: str) -> bool:
        if t.dead(card):
            return True
        if card in REMEDIES and card != ROLL:
            hazard = REMEDY_FOR[card]
            on_me = t.tab.battle_top == hazard or t.tab.speed_top == hazard
            return not on_me and t.unseen[hazard] == 0
        return False

    def keep(self, t: Table, card: str) -> float:
        if self.counted_dead(t, card):
            return 0.0
        if card in REMEDIES:  # worth as much as the copies of its hazard still to come
            return 1.0 + t.unseen[REMEDY_FOR[card]] / (1 + t.view.hand.count(card))
        if card in HAZARDS:  # worth the chance it still finds a victim
            return 1.0 + max((self.sticks(t, s, card) for s in t.opponents if not t.safe_from(s, card)), default=0)
        if card in DISTANCES:
            return 2.0 + DISTANCE_KM[card] / 100
        return 10.0

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if t.is_cure(a):
            return (6, card != END_OF_LIMIT)
        if a.verb == "attack":
            side = a.side or 0
            p = self.sticks(t, side, card)
            value = p * severity(card) + t.km(side) / 1000
            return (5.5 if p == 1.0 else 5.1 if p >= 0.5 else 2, value)
        if a.verb == "play" and card in SAFETIES:
            end_near = t.view.draw_count <= t.view.n_players
            return (5.2, 0) if hazards_gone(t, card) or end_near else (0.5, 0)
        if a.verb == "play":
            return (5, DISTANCE_KM[card])
        return (1 if card not in SAFETIES else 0, -self.keep(t, card))

    def extend(self, t: Table) -> bool:
        mine = set(t.tab.safeties) | {c for c in t.view.hand if c in SAFETIES}
        threats = sum(t.unseen[h] for h in HAZARDS if SAFETY_FOR[h] not in mine)
        return threats <= 4 and t.view.draw_count >= 8


# -- the cautious player ---------------------------------------------------------------
def cautious_keep(t: Table, card: str) -> float:
    """Distance goes first (dead, then short), then hazards, then remedies; safeties never."""
    if card in DISTANCES:
        return 0.0 if t.dead(card) else DISTANCE_KM[card] / 1000
    if card in HAZARDS:
        return 1.0 if t.dead(card) else 2.0
    if card in REMEDIES:
        return 3.0 if t.dead(card) else 4.0 + (t.view.hand.count(card) == 1)
    return 10.0


class Cautious(ZooAgent):
    """Keeps remedies: cures first, lays safeties down at once for their protection (no
    gamble on a coup fourré), drives, attacks the leader; when it must discard, distance
    goes first and a remedy only when no distance card is left. Never extends."""

    style = "zoo-cautious"

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if t.is_cure(a):
            return (6, card != END_OF_LIMIT)
        if a.verb == "play" and card in SAFETIES:
            return (5.5, 0)
        if a.verb == "play":
            return (5, DISTANCE_KM[card])
        if a.verb == "attack":
            return (3, t.km(a.side or 0), severity(card))
        return (1, -cautious_keep(t, card))

    def extend(self, t: Table) -> bool:
        return False


# -- the team player -------------------------------------------------------------------
#: Kilometres from the target within which a side threatens to finish, and within which
#: the team player banks its safeties.
THREAT_KM = 300


class TeamPlayer(ZooAgent):
    """Plays for the side's shared tableau. Cures it first (remedy, Roll, or a safety that
    clears it); holds back the opposing side that threatens the team: one at least as far
    as its own side or within 300 km of the target is attacked before driving, the one
    nearest the target first and, among equals, the one whose player moves soonest (it
    would drive next); banks safeties (before driving) once its side is within 300 km of
    the target (a hazard then costs the whole team the hand), holds them for a coup
    fourré before. Discards keep what the side can still use. Alone (2-3 players, meilen)
    it plays its own side the same way; it extends only with 300 km in hand and every
    opponent under 400 km."""

    style = "zoo-team"

    def threat(self, t: Table, side: int) -> bool:
        return t.km(side) >= t.tab.km or t.view.target - t.km(side) <= THREAT_KM

    def rank(self, t: Table, a: Action) -> tuple[float, ...]:
        card = a.card or ""
        if t.is_cure(a):
            return (7, card != END_OF_LIMIT)
        if a.verb == "attack":
            side = a.side or 0
            order = (t.km(side), -t.turns_until(side), severity(card))
            return (6, *order) if self.threat(t, side) else (4, *order)
        if a.verb == "play" and card in SAFETIES:
            near = t.view.target - t.tab.km <= THREAT_KM
            return (5.5, 0) if near or hazards_gone(t, card) or t.view.draw_count == 0 else (0.5, 0)
        if a.verb == "play":
            return (5, DISTANCE_KM[card])
        return (1 if card not in SAFETIES else 0, -keep_by_kind(t, card, PLAIN_KEEPS))

    def extend(self, t: Table) -> bool:
        return t.hand_km() >= EXTENSION_KM and all(t.km(s) < 400 for s in t.opponents)


STYLES: dict[str, type[ZooAgent]] = {
    cls.style: cls for cls in (Racer, LeaderAttacker, SafetyHoarder, CardCounter, Cautious, TeamPlayer)
}

for _name, _cls in STYLES.items():
    register("mille", _name, _cls)
