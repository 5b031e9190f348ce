"""The batched engine's observations: the per-step encoding (``rallye.rl.mille.encoding``,
version 1) of each seat's view, bit for bit, depending on nothing that view does not hold.
(The vector environments on them: ``tests/rl/mille/test_vector.py``.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from rallye.batch import MilleBatch
from rallye.batch import _kernels as k
from rallye.batch.verify import pure_apply, pure_match
from rallye.mille import decode_action, editions, legal_actions, view_for
from rallye.rl.mille.encoding import encode_view, field_slice

CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_observation_is_the_view_encoding_of_every_seat(edition: str, players: int) -> None:
    rnd = random.Random(f"obs/{edition}/{players}")
    games = MilleBatch(edition, players, size=4, seed=11)
    states = [pure_match(edition, players, games.match_seed(b)) for b in range(4)]
    for step in range(160):
        for seat in range(players):
            obs = games.observe(seat)
            for b, s in enumerate(states):
                want = encode_view(view_for(s, seat))
                assert np.array_equal(obs[b], want), (edition, players, step, b, seat, np.flatnonzero(obs[b] != want))
        codes = [rnd.choice([a.code for a in legal_actions(s)]) for s in states]
        flags = games.step(codes)
        for b in range(4):
            states[b] = pure_apply(states[b], decode_action(codes[b]))
            if flags[b] & 2:
                states[b] = pure_match(edition, players, games.match_seed(b))


def test_observation_holds_nothing_the_seat_has_not_seen() -> None:
    """Swapping hidden cards (another hand's against the draw pile, the draw pile's order)
    leaves a seat's observation as it was; its own hand does not."""
    games = MilleBatch("wm2006", 4, size=1, seed=3)
    games.play_random(9)
    row = games.rows[0]
    before = games.observe(0).copy()
    hand1 = k.HAND + 1 * k.NC
    pos = int(row[k.DRAWPOS])
    top = int(row[k.DECK + pos])
    theirs = next(c for c in range(k.NC) if row[hand1 + c] > 0 and c != top)
    row[hand1 + theirs] -= 1
    row[hand1 + top] += 1
    row[k.DECK + pos] = theirs
    rest = row[k.DECK + pos + 1 : k.DECK + row[k.DECKLEN]]
    rest[:] = rest[::-1].copy()
    assert np.array_equal(games.observe(0), before)
    assert not np.array_equal(games.observe(1), before)
    mine = k.HAND + 0 * k.NC
    c = next(c for c in range(k.NC) if row[mine + c] > 0 and c != theirs)
    row[mine + c] -= 1
    row[mine + theirs] += 1
    assert not np.array_equal(games.observe(0)[field_slice("hand")], before[field_slice("hand")])
