"""Shared helpers: play games with bots, collecting views along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rallye import mille
from rallye.agents.mille.sampler import Deal, state_from_view, unseen_cards
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "wm2006": (2, 3, 4, 6),
    "hu": (2, 3, 4, 6),
    "fxschmid": (2, 3, 4, 6),
    "meilen": (2, 3, 5),
}


def random_states(edition: str, players: int, seed: int, steps: int) -> Iterator[MilleState]:
    """States along a random game (hands follow one another), ``steps`` decisions long."""
    rng = random.Random(seed)
    s = mille.new_match(edition, players, seed=seed)
    for _ in range(steps):
        if mille.is_over(s):
            s = mille.new_match(edition, players, seed=rng.randrange(10**6))
        yield s
        legal = mille.legal_actions(s)
        # extend more often than not, to visit extended hands
        s = mille.apply(s, legal[0] if s.phase == "extend" and rng.random() < 0.7 else rng.choice(legal))


def views_of(edition: str, players: int, seed: int, steps: int) -> Iterator[MilleView]:
    for s in random_states(edition, players, seed, steps):
        yield mille.view_for(s, s.current)


def swap_hidden(view: mille.MilleView, seed: int) -> tuple[MilleState, MilleState]:
    """Two states with the same view for ``view.seat`` but different hidden cards."""
    rng = random.Random(seed)
    pool = unseen_cards(view)
    states = []
    for _ in range(2):
        rng.shuffle(pool)
        hands, pos = [], 0
        for p, n in enumerate(view.hand_sizes):
            if p == view.seat:
                hands.append(view.hand)
            else:
                hands.append(tuple(sorted(pool[pos : pos + n], key=_key)))
                pos += n
        states.append(state_from_view(view, Deal(tuple(hands), tuple(pool[pos:]))))
    return states[0], states[1]


def _key(card: str) -> int:
    from rallye.mille.cards import CARD_INDEX

    return CARD_INDEX[card]


def hidden_twins() -> list[tuple[MilleState, ...]]:
    """Pairs of states with the same view for the player to act but other hidden cards
    (the others' hands and the draw pile), along a random 3-player wm2006 game."""
    out: list[tuple[MilleState, ...]] = []
    for i, v in enumerate(views_of("wm2006", 3, seed=21, steps=240)):
        if i % 6 or v.draw_count < 3:
            continue
        a_state, b_state = swap_hidden(v, seed=i)
        assert a_state.hands != b_state.hands or a_state.draw_pile != b_state.draw_pile
        assert mille.view_for(a_state, v.seat) == mille.view_for(b_state, v.seat) == v
        out.append((a_state, b_state))
    assert len(out) >= 10
    return out
