"""Deal sampling for search: hidden cards drawn consistently with one player's view.

What a view hides is the others' hands and the order of the draw pile. The *unseen*
multiset (the edition's deck for this player count, minus the own hand, the discard pile
and every tableau) is exactly the cards of the others' hands plus the draw pile; their
sizes are public. A sample splits the unseen cards uniformly at random into hands of the
known sizes and a draw pile in random order, subject to what play has revealed for
certain:

**Coup-fourré inference.** Coups fourrés are automatic [rules: core, Coup fourré,
Resolution (declaring)], so when a side is attacked with hazard ``H`` and no coup fourré
follows, *no* player of that side held the safety for ``H`` at that moment. Since then
such a player may have drawn it. The sampler counts, from the hand's public events, how
many cards each such player drew after the attack (one per turn begun, one more for each
coup fourré's replacement card): with no draw since, the safety is certainly not in that
hand (a hard constraint); with ``d`` draws since, the safety can only be one of those
``d`` cards, so a placement in that hand is accepted with probability
``min(1, d / hand size)`` (rejection sampling; this keeps every consistent placement
possible while weighting it down). Events older than the view's event window are not
used (only what is certain).

**What a discard reveals** (:func:`discard_inferences`, used by the search bots, not by
:func:`exclusions`). A player whose side could not move and who *discarded* on their turn
held nothing that would have cured it: playing ``ROLL``, the remedy or the matching safety
is always worth more than throwing a card away. This is a habit, not a rule (a player may
discard for reasons of their own), so it only weights a placement down: a deal that gives
such a player the cure they did not play is accepted with probability
:data:`HABIT_WEIGHT` (plus the chance that they drew it since). Only the player's last
turn is read, and only when nothing has touched their side's battle pile since.

**What the last turn reveals** (:func:`last_turn_replay`, read by the hand tracker,
:mod:`rallye.agents.mille.tracker`). The move just made by the player before the viewer is
replayed: from the view, the public table as that player saw it is rebuilt (their move
taken back: the card leaves the pile it went to, the viewer's last draw goes back on the
pile), and for a hand (their hand now plus the card they played) the heuristic of
:mod:`rallye.agents.mille.heuristic` is asked what it would have done: a player who just
discarded while the viewer was rolling probably held no hazard to attack with, one who
played 25 km probably had no larger distance that fitted. Only a plain last move is read
(a play other than a safety, an attack without coup fourré, a discard), and only while
the draw pile is not empty (then the viewer's draw is certain).

(Other readings were tried as sampler options and retired, no gain shown: every turn of
the others read again, the last turn as a weight on the deals, fewer hazards in the others'
hands; docs/bots.md, "Mille Bornes bots".)

:func:`state_from_view` then builds a full :class:`~rallye.mille.state.MilleState` in
which that seat's view equals the given view: same tableaus, discard pile, hand sizes,
events and scores; the sampled hands; ``deck``/``draw_pos`` such that the draw pile is the
sampled order. The match seed is hidden, so the sampled state carries seed 0 (searches
stop at the end of the hand, where the seed would matter).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rallye.agents.mille.heuristic import (
    CLASSIC,
    CURE_SAFETY,
    Reading,
    best_scored,
)
from rallye.core.values import pickled_by_fields
from rallye.mille.actions import Action
from rallye.mille.cards import (
    BATTLE_HAZARDS,
    CARD_INDEX,
    CARDS,
    D200,
    DISTANCE_KM,
    END_OF_LIMIT,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from rallye.mille.engine import legal_from_view
from rallye.mille.state import PLAY_PHASE, Event, MilleState, Tableau
from rallye.mille.view import MilleView

_TURN_KINDS = frozenset({"play", "attack", "discard", "extend", "decline"})
MAX_REJECTIONS = 200
#: The acceptance weight of a deal that breaks a habit (see "What a discard reveals").
HABIT_WEIGHT = 0.1
_REMEDY_OF = {h: r for r, h in REMEDY_FOR.items() if h in BATTLE_HAZARDS}
#: Cards that change a battle pile when played (a remedy onto its hazard, ROLL, a safety).
_BATTLE_PLAYS = frozenset(_REMEDY_OF.values()) | {ROLL} | SAFETIES


@dataclass(frozen=True, slots=True)
class Exclusion:
    """``card`` was not in ``seat``'s hand at some moment (the safety when ``seat``'s side
    was attacked without a coup fourré; or, with a ``weight``, probably not: a cure not
    played); ``seat`` has drawn ``drawn`` cards since.

    A deal placing ``card`` in that hand is accepted with probability
    ``min(1, weight + drawn / hand size)``: never when both are 0 (a certainty)."""

    seat: int
    card: str
    drawn: int
    weight: float = 0.0

    @property
    def hard(self) -> bool:
        """The card is certainly not in that hand."""
        return self.drawn == 0 and self.weight == 0.0


@dataclass(frozen=True, slots=True)
class Deal:
    """One sample of the hidden cards: every seat's hand (the viewer's own included) and
    the draw pile, top first."""

    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]


def unseen_cards(view: MilleView) -> list[str]:
    """The unseen multiset as a list in ``CARDS`` order; a view whose visible cards are not
    part of its deck raises ``ValueError``."""
    counts = view.unseen_counts()
    bad = [c for c, n in counts.items() if n < 0]
    if bad:
        raise ValueError(f"the view shows more {', '.join(bad)} cards than the {view.edition.key} deck holds")
    out: list[str] = []
    for c in CARDS:
        out.extend([c] * counts[c])
    hidden = sum(n for p, n in enumerate(view.hand_sizes) if p != view.seat) + view.draw_count
    if len(out) != hidden:
        raise ValueError(
            f"the view is inconsistent: {len(out)} unseen cards but {hidden} in others' hands and the draw pile"
        )
    return out


def exclusions(view: MilleView) -> tuple[Exclusion, ...]:
    """What the hand's public events prove about safeties *not* held (see module doc)."""
    events = view.events
    found: dict[tuple[int, str], int] = {}
    for i, e in enumerate(events):
        if e.kind != "attack" or e.card is None or e.side is None or not 0 <= e.side < len(view.sides):
            continue
        nxt = events[i + 1] if i + 1 < len(events) else None
        if nxt is not None and nxt.kind == "coup_fourre":
            continue
        safety = SAFETY_FOR[e.card]
        later = events[i + 1 :]
        for p in view.sides[e.side]:
            if p == view.seat:
                continue
            drawn = _drawn_since(view, p, later)
            key = (p, safety)
            found[key] = min(drawn, found.get(key, drawn))
    return tuple(Exclusion(p, c, d) for (p, c), d in sorted(found.items()))


def _drawn_since(view: MilleView, seat: int, later: Sequence[Event]) -> int:
    """Cards ``seat`` has drawn during the events ``later`` (one per turn begun, one for
    each coup fourré's replacement), and for the turn now begun if it is theirs."""
    drawn = sum(1 for x in later if x.seat == seat and (x.kind in _TURN_KINDS or x.kind == "coup_fourre"))
    if seat == view.current and view.phase == PLAY_PHASE:
        drawn += 1  # the engine drew for the player to act
    return drawn


def discard_inferences(view: MilleView) -> tuple[Exclusion, ...]:
    """What the other players' last discards suggest they did not hold (see the module
    doc, "What a discard reveals"): soft exclusions with weight :data:`HABIT_WEIGHT`."""
    events = view.events
    out: list[Exclusion] = []
    for p in range(view.n_players):
        if p == view.seat:
            continue
        turns = [i for i, e in enumerate(events) if e.seat == p and e.kind in _TURN_KINDS]
        last = turns[-1] if turns else None
        if last is None or events[last].kind != "discard":
            continue
        side = next(i for i, seats in enumerate(view.sides) if p in seats)
        mates = view.sides[side]
        later = events[last + 1 :]
        if any(
            (e.kind in ("attack", "coup_fourre") and e.side == side)
            or (e.kind == "play" and e.seat in mates and e.card in _BATTLE_PLAYS)
            for e in later
        ):
            continue  # the battle pile changed since: what it was then is not on the table
        tab = view.tableaus[side]
        if tab.rolling:
            continue
        drawn = _drawn_since(view, p, later)
        out.extend(Exclusion(p, c, drawn, HABIT_WEIGHT) for c, _ in _cures(tab))
    return tuple(out)


def _cures(tab: Tableau) -> list[tuple[str, float]]:
    """The cards that would start a side that cannot move (none it holds as a safety), each
    with what the classic heuristic scores playing it."""
    top = tab.battle_top
    if top in BATTLE_HAZARDS:  # the remedy; the safety clears the hazard (STOP: ROLL, Right of Way)
        cures = [(_REMEDY_OF[top], CLASSIC.roll if top == STOP else CLASSIC.remedy), (SAFETY_FOR[top], CURE_SAFETY)]
    else:  # stopped with no hazard on top: ROLL starts it, and Right of Way on an empty pile
        cures = [(ROLL, CLASSIC.roll)] + ([(RIGHT_OF_WAY, CLASSIC.safety_tempo)] if top is None else [])
    return [(c, v) for c, v in cures if c not in tab.safeties]


@dataclass(frozen=True, slots=True)
class TurnReplay:
    """The last move of ``seat`` (``action``) and the table as that player saw it then
    (``view``, with an empty hand: the hand is what a deal supplies; its events and
    ``cf_turn`` are not rebuilt). See the module doc, "What the last turn reveals"."""

    seat: int
    action: Action
    view: MilleView
    unseen: dict[str, int]  # cards that player had not seen then, their own hand still counted

    def hand_then(self, hand_now: Sequence[str]) -> tuple[str, ...]:
        """That player's hand when they moved, if they hold ``hand_now`` now (sorted as the
        engine keeps hands)."""
        return _sorted((*hand_now, self.action.card))  # type: ignore[arg-type]

    def heuristic_move(self, hand_now: Sequence[str]) -> Action:
        """What the heuristic would have played then with ``hand_now`` (``best_action`` on
        the rebuilt view, computed without recounting the deck)."""
        hand = self.hand_then(hand_now)
        v = replace(self.view, hand=hand)
        legal = legal_from_view(v)
        unseen = dict(self.unseen)
        for c in hand:
            unseen[c] -= 1
        return best_scored(Reading.with_unseen(v, unseen), legal)


def last_turn_replay(view: MilleView) -> TurnReplay | None:
    """The replay of the move just made before the viewer's turn, or ``None`` when it
    cannot be rebuilt for certain (see the module doc)."""
    if view.phase != PLAY_PHASE or view.current != view.seat or view.draw_count == 0 or not view.events:
        return None
    e = view.events[-1]
    p, card = e.seat, e.card
    if p == view.seat or card is None or e.kind not in ("play", "attack", "discard") or card in SAFETIES:
        return None
    side_of = {q: i for i, seats in enumerate(view.sides) for q in seats}
    tabs = list(view.tableaus)
    discard = view.discard
    if e.kind == "discard":
        if not discard or discard[-1] != card:
            return None
        discard = discard[:-1]
        action = Action("discard", card)
    else:
        side = side_of[p] if e.kind == "play" else e.side
        if side is None or not 0 <= side < len(tabs):
            return None
        back = _take_back(tabs[side], card)
        if back is None:
            return None
        tabs[side] = back
        action = Action(e.kind, card, e.side if e.kind == "attack" else None)
    sizes = list(view.hand_sizes)
    sizes[p] += 1
    sizes[view.seat] -= 1  # the viewer's draw goes back on the pile
    then = replace(
        view,
        seat=p,
        side=side_of[p],
        hand=(),
        hand_sizes=tuple(sizes),
        tableaus=tuple(tabs),
        discard=discard,
        draw_count=view.draw_count + 1,
        current=p,
        cf_turn=False,  # not rebuilt, nor are the events: the heuristic reads neither
        events=view.events[:-1],
    )
    return TurnReplay(p, action, then, then.unseen_counts())


def _take_back(tab: Tableau, card: str) -> Tableau | None:
    """``tab`` before ``card`` (not a safety) was put on it, or ``None`` if it is not on top
    of the pile it goes to."""
    km = DISTANCE_KM.get(card)
    if km is not None:
        if not tab.distance or tab.distance[-1] != card:
            return None
        return tab._replace(distance=tab.distance[:-1], km=tab.km - km, d200=tab.d200 - (card == D200))
    if card in (SPEED_LIMIT, END_OF_LIMIT):
        if not tab.speed or tab.speed[-1] != card:
            return None
        return tab._replace(speed=tab.speed[:-1])
    if not tab.battle or tab.battle[-1] != card:
        return None
    return tab._replace(battle=tab.battle[:-1])


def _acceptance(deal_hands: Sequence[Sequence[str]], excl: Sequence[Exclusion], sizes: Sequence[int]) -> float:
    prob = 1.0
    for x in excl:
        if x.card in deal_hands[x.seat]:
            if x.hard:
                return 0.0
            prob *= min(1.0, x.weight + x.drawn / max(1, sizes[x.seat]))
    return prob


def _split(view: MilleView, cards: list[str]) -> tuple[list[list[str]], list[str]]:
    hands: list[list[str]] = []
    pos = 0
    for p, n in enumerate(view.hand_sizes):
        if p == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(cards[pos : pos + n])
            pos += n
    return hands, cards[pos:]


def _repair(view: MilleView, cards: list[str], excl: Sequence[Exclusion], rng: random.Random) -> None:
    """Move each hard-excluded safety out of the hands it cannot be in (in place)."""
    slots: list[int] = []  # position in ``cards`` -> seat (or -1 for the draw pile)
    for p, n in enumerate(view.hand_sizes):
        if p != view.seat:
            slots.extend([p] * n)
    slots.extend([-1] * (len(cards) - len(slots)))
    hard: dict[str, set[int]] = {}
    for x in excl:
        if x.hard:
            hard.setdefault(x.card, set()).add(x.seat)
    for card, banned in hard.items():
        for i, c in enumerate(cards):
            if c == card and slots[i] in banned:
                ok = [j for j, s in enumerate(slots) if s not in banned and cards[j] not in hard]
                if ok:
                    j = ok[rng.randrange(len(ok))]
                    cards[i], cards[j] = cards[j], cards[i]


def sample_deal(
    view: MilleView,
    rng: random.Random,
    excl: Sequence[Exclusion] | None = None,
    pool: Sequence[str] | None = None,
) -> Deal:
    """One uniformly random placement of the unseen cards consistent with the view.

    ``excl`` and ``pool`` (:func:`exclusions`, :func:`unseen_cards`) may be passed in when
    sampling many times from one view."""
    if pool is None:
        pool = unseen_cards(view)
    if excl is None:
        excl = exclusions(view)
    relevant = [x for x in excl if x.card in pool and view.hand_sizes[x.seat] > 0]
    cards = list(pool)
    for _ in range(MAX_REJECTIONS):
        rng.shuffle(cards)
        if not relevant:
            break
        hands, _ = _split(view, cards)
        acc = _acceptance(hands, relevant, view.hand_sizes)
        if acc >= 1.0 or (acc > 0.0 and rng.random() < acc):
            break
    else:
        _repair(view, cards, relevant, rng)
    hands, pile = _split(view, cards)
    return Deal(tuple(_sorted(h) for h in hands), tuple(pile))


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


def state_from_view(view: MilleView, deal: Deal) -> MilleState:
    """A full state consistent with ``view`` whose hidden cards are ``deal``'s."""
    if len(deal.hands) != view.n_players or deal.hands[view.seat] != tuple(view.hand):
        raise ValueError("the deal does not keep the viewer's own hand")
    if len(deal.draw_pile) != view.draw_count:
        raise ValueError(f"the deal's draw pile has {len(deal.draw_pile)} cards, the view {view.draw_count}")
    seen: list[str] = [c for h in deal.hands for c in h] + list(view.discard)
    for t in view.tableaus:
        seen.extend(t.cards())
    deck = tuple(seen) + deal.draw_pile
    if len(deck) != view.deck_size:
        raise ValueError(f"the view is inconsistent: {len(deck)} cards in play, deck size {view.deck_size}")
    side_of = tuple(next(i for i, s in enumerate(view.sides) if p in s) for p in range(view.n_players))
    return MilleState(
        edition=view.edition,
        n_players=view.n_players,
        sides=view.sides,
        side_of=side_of,
        seed=0,
        hand_no=view.hand_no,
        dealer=view.dealer,
        deck=deck,
        draw_pos=len(seen),
        hands=deal.hands,
        discard=view.discard,
        tableaus=view.tableaus,
        target=view.target,
        current=view.current,
        phase=view.phase,
        cf_turn=view.cf_turn,
        # Only read where an empty pile ends the hand; a live hand there means the pile ran
        # out during this very turn.
        ran_out_this_turn=view.draw_count == 0,
        extended_by=view.extended_by,
        events=view.events,
        totals=view.totals,
        sheets=view.sheets,
        winners=view.winners,
    )


def sample_state(
    view: MilleView,
    rng: random.Random,
    excl: Sequence[Exclusion] | None = None,
    pool: Sequence[str] | None = None,
) -> MilleState:
    """A determinization: :func:`sample_deal` made into a full state."""
    return state_from_view(view, sample_deal(view, rng, excl, pool))


#: pickling of the frozen values once compiled (scripts/compile)
pickled_by_fields(Exclusion, Deal, TurnReplay)
