"""Shared helpers: play games with bots, collecting views along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rallye import mille
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
