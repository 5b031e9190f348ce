"""Shared helpers for the rl tests."""

from __future__ import annotations

import random

from rallye import mille
from rallye.mille.cards import CARD_INDEX
from rallye.mille.state import MilleState


def play_random(state: MilleState, steps: int, seed: int = 0) -> MilleState:
    """``steps`` uniform random decisions (fewer if the match ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if mille.is_over(state):
            break
        legal = mille.legal_actions(state)
        state = mille.apply(state, legal[rng.randrange(len(legal))])
    return state


def reshuffle_hidden(state: MilleState, observer: int, seed: int) -> MilleState:
    """The same state with every card ``observer`` cannot see (the other hands and the
    draw pile) dealt anew, each hand keeping its size."""
    rng = random.Random(seed)
    n = state.n_players
    hidden = list(state.draw_pile)
    for p in range(n):
        if p != observer:
            hidden += state.hands[p]
    rng.shuffle(hidden)
    hands = list(state.hands)
    pos = 0
    for p in range(n):
        if p != observer:
            k = len(hands[p])
            hands[p] = tuple(sorted(hidden[pos : pos + k], key=CARD_INDEX.__getitem__))
            pos += k
    return state._replace(hands=tuple(hands), deck=state.deck[: state.draw_pos] + tuple(hidden[pos:]))
