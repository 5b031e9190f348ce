"""The conformance run behind ``test_invariants.py``: random hands with every invariant
checked after every step. A separate module (not a test file) so worker processes can
import it.

The invariants, from the rules (docs/rules/mille-bornes.md) and the engine's documented turn model (the engine
draws for a player when their turn begins):

* cards are conserved card for card: draw pile + discard pile + hands + every tableau's
  cards is exactly the edition's deck for this player count;
* no side's distance passes the current target, and no side has more than two ``D200``;
* while the draw pile lasts, the player to act holds 7 cards (6 after their turn, plus
  the draw) and everyone else 6 — this holds through coups fourrés (the defender lays the
  safety, draws its replacement, then draws for the turn: 6 - 1 + 1 + 1) and extra turns;
  in the extension decision the caller has just played, so everyone holds 6;
  once the pile is empty nobody draws: others hold at most 6, the player to act at most 7
  and at least 1 (a player with no cards is passed over);
* every hand ends within ``len(deck) + 2`` actions (each action but extend/decline takes a
  card out of a hand, and only the deck's cards ever enter a hand), and every match ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rallye.mille import apply, get_edition, legal_actions, new_match
from rallye.mille.cards import CARDS
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, PLAY_PHASE

MAX_HANDS_PER_MATCH = 200


@dataclass
class Stats:
    hands: int = 0
    matches: int = 0
    steps: int = 0
    completed: int = 0
    extended: int = 0
    coups: int = 0


def _weights(rnd: random.Random) -> dict[str, int]:
    # A random 61-bit weight per card id: equal (count, weight sum) means an equal multiset
    # except with probability about 2**-61 per check.
    return {c: rnd.getrandbits(61) for c in CARDS}


def play_hands(edition: str, players: int, hands: int, seed: int, bias: float = 0.8) -> Stats:
    """Play random matches until at least ``hands`` hands were played, checking every step.

    ``bias``: the chance that a step picks among the non-discard actions (when there are
    any); pure random play almost never completes a trip, biased play covers completions,
    extensions and their scoring too.
    """
    ed = get_edition(edition)
    rnd = random.Random(f"{edition}/{players}/{seed}")
    weights = _weights(rnd)
    w = weights.__getitem__
    deck = ed.deck_for(players)
    size = len(deck)
    expect = sum(map(w, deck))
    max_steps = size + 2
    stats = Stats()
    match_seed = seed * 100_000
    while stats.hands < hands:
        s = new_match(ed, players, match_seed)
        where = f"{edition} {players}p seed {match_seed}"
        match_seed += 1
        steps_in_hand = 0
        while s.phase != OVER_PHASE:
            la = legal_actions(s)
            if not la:
                raise AssertionError(f"{where}: no legal action in phase {s.phase} (hand {s.hand_no})")
            if rnd.random() < bias and la[-1].verb == "discard":
                k = next(i for i, a in enumerate(la) if a.verb == "discard")
                if k:
                    la = la[:k]
            action = la[rnd.randrange(len(la))]
            before_hand = s.hand_no
            s = apply(s, action)
            stats.steps += 1
            steps_in_hand += 1
            if s.hand_no != before_hand or s.phase == OVER_PHASE:
                steps_in_hand = 0
                if s.hand_no > MAX_HANDS_PER_MATCH:
                    raise AssertionError(f"{where}: the match did not end within {MAX_HANDS_PER_MATCH} hands")
            elif steps_in_hand > max_steps:
                raise AssertionError(f"{where}: hand {s.hand_no} did not end within {max_steps} actions")
            if action.verb == "attack" and s.events and s.events[-1].kind == "coup_fourre":
                stats.coups += 1
            # -- conservation, card for card
            cards = s.deck[s.draw_pos :] + s.discard
            for h in s.hands:
                cards += h
            for t in s.tableaus:
                cards += t.battle + t.speed + t.distance + t.safeties
                if t.km > s.target or t.d200 > 2:
                    raise AssertionError(f"{where} hand {s.hand_no}: side at {t.km} km / {t.d200} x D200, "
                                         f"target {s.target}, after '{action}'")  # fmt: skip
            if len(cards) != size or sum(map(w, cards)) != expect:
                raise AssertionError(
                    f"{where} hand {s.hand_no}: cards not conserved after '{action}': {sorted(cards)} != {sorted(deck)}"
                )
            if s.phase == OVER_PHASE:
                break
            # -- hand sizes (the engine draws for the player to act)
            cur = s.current
            sizes = [len(h) for h in s.hands]
            if s.draw_pos < size:
                want = 7 if s.phase == PLAY_PHASE else 6
                ok = sizes[cur] == want and all(n == 6 for i, n in enumerate(sizes) if i != cur)
            else:
                ok = all(n <= 6 for i, n in enumerate(sizes) if i != cur) and (
                    (s.phase == PLAY_PHASE and 1 <= sizes[cur] <= 7) or (s.phase == EXTEND_PHASE and sizes[cur] <= 6)
                )
            if not ok:
                raise AssertionError(
                    f"{where} hand {s.hand_no}: hand sizes {sizes}, P{cur + 1} to act in phase {s.phase}, "
                    f"draw pile {size - s.draw_pos}, after '{action}' (events {[str(e) for e in s.events[-3:]]})"
                )
        stats.matches += 1
        stats.hands += len(s.sheets)
        stats.completed += sum(sh.completed_by is not None for sh in s.sheets)
        stats.extended += sum(sh.extended_by is not None for sh in s.sheets)
    return stats
