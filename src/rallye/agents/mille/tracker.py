"""Following the other player's hand through a hand of 2-player Mille Bornes (a particle filter).

The deal sampler (:mod:`rallye.agents.mille.sampler`) draws the opponent's hand from what
the view shows *now*, plus a few hints from recent moves. A player who remembers the whole
hand can do better: every move the opponent made was chosen with the hand it held then, and
if the opponent plays like the heuristic, a hand with which the heuristic would have moved
otherwise is not the hand it held. :class:`HandTracker` keeps that memory as a set of
*particles*, each a possible opponent hand (the cards it holds while the viewer is to act),
and updates them at each of the viewer's decisions with what happened since the last one:

1. **The viewer's own move.** An attack that met no coup fourré proves the opponent held
   no matching safety then: particles holding it are dropped. One that met a coup fourré
   proves it did: only particles holding it stay, less the safety laid.
2. **The opponent's draws.** The cards it drew came from the draw pile as the particle has
   it (the unseen cards less the particle's hand, less the cards the viewer has drawn
   since, which lay below them): a coup fourré's replacement card and its turn's draw.
   A particle that held the card the opponent then moved with draws at random (odds 1);
   one that did not must have drawn it, and carries the odds of that draw (its copies
   among the cards it could draw): the update is exact, not a rejection of the unlucky.
3. **The opponent's move.** The table the opponent saw is rebuilt
   (:func:`~rallye.agents.mille.sampler.last_turn_replay`) and the classic heuristic is asked
   what it would have played with the particle's hand and the drawn card. A particle whose
   heuristic move differs is dropped, the others keep their hand less the card played
   (when no particle explains the move, each gets a few more draws, a little biased).
   A safety laid, an attack the viewer met with a coup fourré, and the move that took the
   opponent to the extension it then declared, are not read (the table before them is not
   rebuilt; the last was chosen for the shorter trip): only that the card was in the hand.
4. **Resampling** the survivors back to the set's size by their odds, and dropping any
   particle the view now contradicts (a card the viewer has just seen leaves no room for it).

This is exact Bayesian filtering for an opponent that *is* the classic heuristic (the
``medium`` level and the opponents' model inside the searches), up to the sampling of the
draws and the moves it does not read. The viewer's own extension decision changes nothing
the particles describe (nobody has drawn since its move), so its searches are dealt from
them too. Whenever the hand's history is not one it can follow (the first decision of a
hand, an extra turn, a view of another game or seat, an empty draw pile) the particles start
afresh from the deal sampler, with its inferences; and if no particle explains a move (the
opponent does not play like the heuristic) they start afresh the same way
(:attr:`HandTracker.resets` counts both). Against the classic heuristic
(``research/tracker_knowledge.py``: ``fitted``'s decisions in 2-player wm2006 hands, 1,000
particles), this starts afresh at 29 of 562 decisions of 20 hands (20 of them the hands'
first) and 60 of 1,202 in 40 fresh hands, where following only a plain move each and
rejecting the unlucky draws started afresh at 64 and 135; the particles share 3.22 and 3.30
of the opponent's cards with its true hand on average, against 2.94 and 3.14 before and the
sampler's 2.09 and 2.12. Only the viewer's own views are read: nothing here looks at a state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rallye.agents.mille.sampler import (
    Deal,
    Exclusion,
    TurnReplay,
    last_turn_replay,
    sample_deal,
    state_from_view,
    unseen_cards,
)
from rallye.core.values import pickled_by_fields
from rallye.mille.cards import CARD_INDEX, SAFETIES, SAFETY_FOR
from rallye.mille.state import EXTEND_PHASE, PLAY_PHASE, MilleState
from rallye.mille.view import MilleView

_PLAIN = frozenset({"play", "attack", "discard"})
#: Fresh draws tried for each particle when no particle's first draw explains the opponent's
#: move (one draw each keeps the update exact: a particle survives with the chance that the
#: heuristic makes that move with it).
RETRIES = 3


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


class HandTracker:
    """Particles of the opponent's hand, kept from one of the viewer's decisions to the next
    (see the module doc). ``observe(view, excl)`` at every decision of the viewer, in
    order; then ``sample(view)`` draws a full state from the particles."""

    def __init__(self, particles: int = 300, seed: int = 0) -> None:
        if particles < 1:
            raise ValueError("a tracker needs at least 1 particle")
        self.size = particles
        self.rng = random.Random(seed)
        self.particles: list[tuple[str, ...]] = []
        self.resets = 0  # times the particles started afresh (first decisions of hands included)
        self.updates = 0  # opponent moves followed
        self._view: MilleView | None = None
        self._unseen: Counter[str] = Counter()  # the last view's unseen cards
        self._piles: dict[tuple[str, ...], tuple[str, ...]] = {}  # per particle: the rest of them, in order
        self._extending: MilleView | None = None  # the viewer's extension decision right after the last view

    @property
    def active(self) -> bool:
        """The particles describe the last view observed."""
        return bool(self.particles)

    def observe(self, view: MilleView, excl: Sequence[Exclusion] = ()) -> None:
        """Bring the particles up to ``view`` (the viewer's next decision); ``excl`` are the
        sampler's exclusions for this view, used when the particles start afresh."""
        prev, prev_unseen = self._view, self._unseen
        if view.phase == EXTEND_PHASE and self.particles and prev is not None and _extends_from(prev, view):
            self._extending = view  # the viewer's extension decision: nobody has drawn or moved since
            return
        self._view = view
        self._extending = None
        if view.n_players != 2 or view.phase != PLAY_PHASE or view.draw_count == 0:
            self.particles = []  # nothing to follow: the searches use the plain sampler
            return
        pool = unseen_cards(view)
        self._unseen = Counter(pool)
        self._piles.clear()
        if prev is None or not self._follow(prev, prev_unseen, view):
            self._start(view, excl, pool)

    def sample(self, view: MilleView) -> MilleState:
        """A full state: the opponent holds one of the particles, the rest of the unseen
        cards are the draw pile in random order."""
        if (view is not self._view and view is not self._extending) or not self.particles:
            raise ValueError("sample() follows observe() of the same view")
        rng = self.rng
        hand = self.particles[rng.randrange(len(self.particles))]
        rest = self._piles.get(hand)
        if rest is None:
            rest = self._piles[hand] = tuple((self._unseen - Counter(hand)).elements())
        pile = list(rest)
        rng.shuffle(pile)
        opp = 1 - view.seat
        hands: list[tuple[str, ...]] = [(), ()]
        hands[view.seat], hands[opp] = tuple(view.hand), hand
        return state_from_view(view, Deal(tuple(hands), tuple(pile)))

    # -- updates ---------------------------------------------------------------------------
    def _start(self, view: MilleView, excl: Sequence[Exclusion], pool: Sequence[str]) -> None:
        self.resets += 1
        opp = 1 - view.seat
        self.particles = [sample_deal(view, self.rng, excl, pool).hands[opp] for _ in range(self.size)]

    def _follow(self, prev: MilleView, unseen_prev: Counter[str], view: MilleView) -> bool:
        """Update the particles from ``prev`` (whose unseen cards are ``unseen_prev``) to
        ``view``; False when that history cannot be followed (the caller starts afresh)."""
        drawn = prev.draw_count - view.draw_count
        events = view.events
        me, opp = view.seat, 1 - view.seat
        # a coup fourré since: the side attacked laid the safety and drew one to replace it,
        # then took its turn (one more card drawn)
        fourre = events[-2] if drawn == 3 and len(events) >= 3 and events[-2].kind == "coup_fourre" else None
        my_fourre = events[-1] if drawn == 3 and events and events[-1].kind == "coup_fourre" else None
        # an extension since: the viewer's (after its move) or the opponent's (after its own)
        my_extension = drawn == 2 and len(events) >= 3 and events[-2].kind == "extend" and events[-2].seat == me
        extension = drawn == 2 and len(events) >= 3 and events[-1].kind == "extend" and events[-1].seat == opp
        k = 3 if fourre or my_fourre or my_extension or extension else 2
        if (
            not self.particles
            or view.seat != prev.seat
            or view.hand_no != prev.hand_no
            or view.edition is not prev.edition
            or drawn != (3 if fourre or my_fourre else 2)
        ):
            return False
        new = len(events) - k
        if new < 0 or events[:new] != prev.events[len(prev.events) - new :]:
            return False  # not exactly one move each since
        mine, theirs = events[-k], events[-2] if my_fourre or extension else events[-1]
        if mine.seat != me or mine.kind not in _PLAIN or theirs.seat != opp or theirs.kind not in _PLAIN:
            return False
        played = mine.card
        if played is None or theirs.card is None:
            return False
        if fourre and (mine.kind != "attack" or fourre.seat != opp or fourre.card != SAFETY_FOR[played]):
            return False
        if my_fourre and (theirs.kind != "attack" or my_fourre.seat != me or my_fourre.card != SAFETY_FOR[theirs.card]):
            return False
        # a safety laid, an attack the viewer met with a coup fourré and the move before the
        # opponent's extension are followed without being read (the table before them is
        # not rebuilt: the last one was made for the shorter trip)
        read = not my_fourre and not extension and not (theirs.kind == "play" and theirs.card in SAFETIES)
        replay = last_turn_replay(view) if read else None
        if read and (replay is None or replay.seat != opp):
            return False
        kept = Counter(prev.hand)
        kept[played] -= 1
        if my_fourre:
            kept[SAFETY_FOR[theirs.card]] -= 1  # the safety the viewer laid
        my_draws = Counter(view.hand) - kept  # the cards the viewer drew since (below the opponent's)
        if sum(my_draws.values()) != (2 if my_fourre else 1) or any(n < 0 for n in kept.values()):
            return False
        particles = self.particles
        if mine.kind == "attack":
            safety = SAFETY_FOR[played]
            if fourre:  # the opponent held the safety, and laid it
                particles = [_without(p, safety) for p in particles if safety in p]
            else:  # no coup fourré followed: the safety was not in that hand
                particles = [p for p in particles if safety not in p]
        move = Step(theirs.card, replay, 1 if fourre else 0)
        hands, odds = self._advance(particles, unseen_prev, my_draws, move, 1)
        if not hands and replay is not None:  # a move few hands explain: more draws each, a little biased
            hands, odds = self._advance(particles, unseen_prev, my_draws, move, 1 + RETRIES)
        unseen_now = self._unseen
        fits: dict[tuple[str, ...], bool] = {}  # per distinct hand: no card beyond the unseen ones
        for h in hands:
            if h not in fits:
                fits[h] = not Counter(h) - unseen_now
        keep = [i for i, h in enumerate(hands) if fits[h]]
        if not keep:
            return False
        self.updates += 1
        self.particles = self.rng.choices([hands[i] for i in keep], [odds[i] for i in keep], k=self.size)
        return True

    def _advance(
        self,
        particles: Sequence[tuple[str, ...]],
        unseen_prev: Counter[str],
        my_draws: Counter[str],
        move: Step,
        tries: int,
    ) -> tuple[list[tuple[str, ...]], list[float]]:
        """Each particle after the opponent's draws and move (steps 2 and 3 of the module
        doc) with its odds: a particle that held the card moved keeps a random draw (odds 1);
        one that did not must have drawn it (odds: its copies among the cards it could
        draw). With a replay, only the hands with which the heuristic makes the move stay;
        ``tries`` draws are tried for a particle that held the card."""
        card = move.card
        rng = self.rng
        hands: list[tuple[str, ...]] = []
        odds: list[float] = []
        explains: dict[tuple[str, ...], bool] = {}  # per hand after the move: resampled particles repeat

        def explained(hand_now: tuple[str, ...]) -> bool:
            if move.replay is None:
                return True
            hit = explains.get(hand_now)
            if hit is None:
                hit = explains[hand_now] = move.replay.heuristic_move(hand_now) == move.replay.action
            return hit

        piles: dict[tuple[str, ...], Counter[str] | None] = {}  # per distinct hand (only copied below)
        for hand in particles:
            if hand in piles:
                pile = piles[hand]
            else:
                pile = unseen_prev - Counter(hand)
                if my_draws - pile:
                    pile = None  # the viewer's cards could not have lain below the opponent's draws
                else:
                    pile -= my_draws
                piles[hand] = pile
            if pile is None:
                continue
            for _ in range(tries):
                now = list(hand)
                left = pile.copy()
                for _ in range(move.before):  # a coup fourré's replacement card
                    c = _draw(left, rng)
                    if c is None:
                        break
                    now.append(c)
                else:
                    n = sum(left.values())
                    if card in now:  # it held the card: the turn's draw is any card
                        c = _draw(left, rng)
                        if c is None:
                            break
                        now.append(c)
                        now.remove(card)
                        weight = 1.0
                    elif left[card] > 0:  # it drew the card and moved with it
                        weight = left[card] / n
                    else:
                        break
                    hand_now = _sorted(now)
                    if explained(hand_now):
                        hands.append(hand_now)
                        odds.append(weight)
                        break
        return hands, odds


@dataclass(frozen=True, slots=True)
class Step:
    """The opponent's move as the tracker follows it: the ``card`` it moved with, the
    ``replay`` that reads it (``None``: a move it does not read, step 3 of the module doc)
    and the cards it drew ``before`` its turn's draw (a coup fourré's replacement)."""

    card: str
    replay: TurnReplay | None
    before: int = 0


def _extends_from(prev: MilleView, view: MilleView) -> bool:
    """``view`` is the viewer's extension decision right after its move from ``prev`` (the
    same hand, nothing drawn since): the opponent's hand has not changed."""
    return (
        view.seat == prev.seat
        and view.hand_no == prev.hand_no
        and view.draw_count == prev.draw_count
        and len(view.hand) == len(prev.hand) - 1
    )


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def _draw(pile: Counter[str], rng: random.Random) -> str | None:
    """A card drawn at random from ``pile`` (taken out of it), ``None`` if it is empty."""
    n = sum(pile.values())
    if n <= 0:
        return None
    i = rng.randrange(n)
    for c, m in pile.items():
        if i < m:
            pile[c] -= 1
            return c
        i -= m
    raise AssertionError("unreachable")


#: pickling of the frozen values once compiled (scripts/compile)
pickled_by_fields(Step)
