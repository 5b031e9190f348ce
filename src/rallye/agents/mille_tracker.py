"""Following the other player's hand through a hand of 2-player Mille Bornes (a particle filter).

The deal sampler (:mod:`rallye.agents.mille_sampler`) draws the opponent's hand from what
the view shows *now*, plus a few hints from recent moves. A player who remembers the whole
hand can do better: every move the opponent made was chosen with the hand it held then, and
if the opponent plays like the heuristic, a hand with which the heuristic would have moved
otherwise is not the hand it held. :class:`HandTracker` keeps that memory as a set of
*particles*, each a possible opponent hand (the cards it holds while the viewer is to act),
and updates them at each of the viewer's decisions with what happened since the last one:

1. **The viewer's own move.** An attack that met no coup fourré proves the opponent held
   no matching safety then: particles holding it are dropped.
2. **The opponent's draw.** The card it drew came from the draw pile as the particle has
   it (the unseen cards less the particle's hand, less the card the viewer has just drawn,
   which lay below it); it is drawn at random from there (the card the opponent then
   played, if the particle did not hold it).
3. **The opponent's move.** The table the opponent saw is rebuilt
   (:func:`~rallye.agents.mille_sampler.last_turn_replay`) and the classic heuristic is asked
   what it would have played with the particle's hand and the drawn card. A particle whose
   heuristic move differs is dropped, the others keep their hand less the card played
   (when no particle explains the move, each gets a few more draws, a little biased).
4. **Resampling** the survivors back to the set's size, and dropping any particle the view
   now contradicts (a card the viewer has just seen leaves no room for it).

This is exact Bayesian filtering for an opponent that *is* the classic heuristic (the
``medium`` level and the opponents' model inside the searches), up to the sampling of the
draws. Whenever the hand's history is not the plain one it can follow (the first decision
of a hand, a coup fourré, an extension, an extra turn of the opponent's, a view of another
game or seat, an empty draw pile) the particles start afresh from the deal sampler, with
its inferences; and if no particle explains a move (the opponent does not play like the
heuristic) they start afresh the same way (:attr:`HandTracker.resets` counts both).
Only the viewer's own views are read: nothing here looks at a state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rallye.agents.mille_sampler import (
    Deal,
    Exclusion,
    TurnReplay,
    last_turn_replay,
    sample_deal,
    state_from_view,
    unseen_cards,
)
from rallye.mille.cards import CARD_INDEX, SAFETY_FOR
from rallye.mille.state import PLAY_PHASE, MilleState
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

    @property
    def active(self) -> bool:
        """The particles describe the last view observed."""
        return bool(self.particles)

    def observe(self, view: MilleView, excl: Sequence[Exclusion] = ()) -> None:
        """Bring the particles up to ``view`` (the viewer's next decision); ``excl`` are the
        sampler's exclusions for this view, used when the particles start afresh."""
        prev, prev_unseen = self._view, self._unseen
        self._view = view
        if view.n_players != 2 or view.phase != PLAY_PHASE or view.draw_count == 0:
            self.particles = []  # nothing to follow: the searches use the plain sampler
            return
        pool = unseen_cards(view)
        self._unseen = Counter(pool)
        if prev is None or not self._follow(prev, prev_unseen, view):
            self._start(view, excl, pool)

    def sample(self, view: MilleView) -> MilleState:
        """A full state: the opponent holds one of the particles, the rest of the unseen
        cards are the draw pile in random order."""
        if view is not self._view or not self.particles:
            raise ValueError("sample() follows observe() of the same view")
        rng = self.rng
        hand = self.particles[rng.randrange(len(self.particles))]
        pile = list((self._unseen - Counter(hand)).elements())
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
        if (
            not self.particles
            or view.seat != prev.seat
            or view.hand_no != prev.hand_no
            or view.edition is not prev.edition
            or prev.draw_count - view.draw_count != 2
        ):
            return False
        new = len(view.events) - 2
        if new < 0 or view.events[:new] != prev.events[len(prev.events) - new :]:
            return False  # not exactly one move each since
        mine, theirs = view.events[-2], view.events[-1]
        me, opp = view.seat, 1 - view.seat
        if mine.seat != me or mine.kind not in _PLAIN or theirs.seat != opp or theirs.kind not in _PLAIN:
            return False
        replay = last_turn_replay(view, 1.0)
        if replay is None or replay.seat != opp:
            return False
        played = mine.card
        if played is None:
            return False
        kept = Counter(prev.hand)
        kept[played] -= 1
        drawn = Counter(view.hand) - kept  # the card the viewer drew just now
        if sum(drawn.values()) != 1 or any(n < 0 for n in kept.values()):
            return False
        my_draw = next(iter(drawn))
        particles = self.particles
        if mine.kind == "attack":  # no coup fourré followed: the safety was not in that hand
            safety = SAFETY_FOR[played]
            particles = [p for p in particles if safety not in p]
        survivors = self._advance(particles, unseen_prev, my_draw, replay, 1)
        if not survivors:  # a move few hands explain: a few more draws each, a little biased
            survivors = self._advance(particles, unseen_prev, my_draw, replay, 1 + RETRIES)
        unseen_now = self._unseen
        survivors = [h for h in survivors if not Counter(h) - unseen_now]
        if not survivors:
            return False
        self.updates += 1
        rng = self.rng
        self.particles = [survivors[rng.randrange(len(survivors))] for _ in range(self.size)]
        return True

    def _advance(
        self,
        particles: Sequence[tuple[str, ...]],
        unseen_prev: Counter[str],
        my_draw: str,
        replay: TurnReplay,
        tries: int,
    ) -> list[tuple[str, ...]]:
        """Each particle after the opponent's draw and move (step 2 and 3 of the module
        doc), or none where ``tries`` draws do not explain the move."""
        action = replay.action
        card = action.card
        assert card is not None  # a plain move names its card
        rng = self.rng
        out: list[tuple[str, ...]] = []
        explains: dict[tuple[str, ...], bool] = {}  # per hand after the move: resampled particles repeat

        def explained(hand_now: tuple[str, ...]) -> bool:
            hit = explains.get(hand_now)
            if hit is None:
                hit = explains[hand_now] = replay.heuristic_move(hand_now) == action
            return hit

        for hand in particles:
            pile = unseen_prev - Counter(hand)
            if pile[my_draw] <= 0:
                continue  # the viewer's card could not have lain below the opponent's draw
            pile[my_draw] -= 1
            held = card in hand
            if not held:  # it drew the card it played
                if pile[card] > 0 and explained(hand):
                    out.append(hand)
                continue
            choices = list(pile.elements())
            if not choices:
                continue
            for _ in range(tries):
                now = list(hand)
                now.append(choices[rng.randrange(len(choices))])
                now.remove(card)
                hand_now = _sorted(now)
                if explained(hand_now):
                    out.append(hand_now)
                    break
        return out
