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

:func:`state_from_view` then builds a full :class:`~rallye.mille.state.MilleState` in
which that seat's view equals the given view: same tableaus, discard pile, hand sizes,
events and scores; the sampled hands; ``deck``/``draw_pos`` such that the draw pile is the
sampled order. The match seed is hidden, so the sampled state carries seed 0 (searches
stop at the end of the hand, where the seed would matter).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rallye.mille.cards import (
    BATTLE_HAZARDS,
    CARD_INDEX,
    CARDS,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_FOR,
)
from rallye.mille.state import Event, MilleState
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
    if seat == view.current and view.phase == "play":
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
        top = tab.battle_top
        if top in BATTLE_HAZARDS:
            cures = [_REMEDY_OF[top], SAFETY_FOR[top]]  # STOP: ROLL and Right of Way
        else:  # stopped with no hazard on top: ROLL starts it, and Right of Way on an empty pile
            cures = [ROLL] + ([RIGHT_OF_WAY] if top is None else [])
        drawn = _drawn_since(view, p, later)
        out.extend(Exclusion(p, c, drawn, HABIT_WEIGHT) for c in cures if c not in tab.safeties)
    return tuple(out)


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
