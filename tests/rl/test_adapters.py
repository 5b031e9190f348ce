"""The per-game adapters' shortcuts agree with their plain methods."""

from __future__ import annotations

import random

import pytest

from rallye.rl.knightrider.adapter import KnightRiderAdapter
from rallye.rl.mille.adapter import MilleAdapter


@pytest.mark.parametrize(
    "adapter",
    [
        MilleAdapter(),
        MilleAdapter("hu", 3, episode="match", reward="win"),
        MilleAdapter("fxschmid", 4, reward="win"),
        KnightRiderAdapter(2, turn_limit=30),
        KnightRiderAdapter(3, turn_limit=20),
    ],
    ids=repr,
)
def test_transition_is_rewards_and_the_seat_to_act(adapter):
    rng = random.Random(3)
    for seed in range(4):
        first = state = adapter.new_state(seed)
        while not adapter.episode_over(first, state):
            legal = adapter.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            code = adapter.encode(state, action)
            assert adapter.decode(state, code) == action
            after = adapter.apply(state, action)
            over = adapter.episode_over(first, after)
            expected = (adapter.rewards(first, state, after), -1 if over else adapter.current_player(after))
            assert adapter.transition(first, state, after) == expected
            state = after


def test_mille_decode_names_a_bad_code():
    from rallye.core.errors import GameError

    ad = MilleAdapter()
    s = ad.new_state(0)
    for bad in (-1, ad.num_actions):
        with pytest.raises(GameError):
            ad.decode(s, bad)
