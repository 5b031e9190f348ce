"""Bots' decisions as learning data: ``(observation, action mask, action)`` arrays on the
environments' encoding, for behaviour cloning (a network trained to pick the move a bot
picks) and for warming up a value head on the match results.

    from rallye.rl.imitation import record_mille
    data = record_mille(["fitted", "medium"], matches=100, seed=0, record=[0])
    data["obs"].shape, data["mask"].shape, data["action"].shape  # (N, 270), (N, 70), (N,)

The matches are played on the pure engine, as ``rallye/Mille-v0`` plays its bots: each
seat's bot (``make_agent(..., exact=True)``, seeded from ``seed``) chooses from its view
and the legal actions; the recorded seats' decisions are written with the observation
that seat would see in the environment (``MilleAdapter.observe``), the legal-action mask
and the code of the chosen action (``mille.encode_action``), the same 70 codes as the
environments' actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rallye.agents.base import make_agent
from rallye.rl.mille.adapter import MilleAdapter


def record_mille(
    bots: Sequence[str],
    matches: int,
    seed: int = 0,
    *,
    edition: str = "wm2006",
    record: Sequence[int] | None = None,
    swap: bool = False,
) -> dict[str, np.ndarray]:
    """Play ``matches`` whole matches with ``bots[p]`` in seat ``p`` and return the recorded
    seats' decisions (``record``: the seats, default all).

    ``swap``: the bots change seats every other match (match ``i`` odd: ``bots`` reversed,
    and the recorded seats follow their bots), so a bot's decisions come from both seats.

    Returns arrays with one row per decision: ``obs`` (float32, the 270-float observation),
    ``mask`` (bool, the legal actions), ``action`` (int64, the action code played),
    ``seat`` (int8), ``match`` (int32, the match's index), ``won`` (float32: +1 if the
    deciding seat's side won that match, -1 if not) and ``hand_points`` (float32: the side's
    points minus the others' mean points in the hand of the decision, / 1000).
    """
    n = len(bots)
    if n < 2:
        raise ValueError("name a bot for every seat (two or more)")
    seats = list(range(n)) if record is None else [int(p) for p in record]
    if any(not 0 <= p < n for p in seats):
        raise ValueError(f"recorded seats must be in 0..{n - 1}, not {list(record or ())}")
    adapter = MilleAdapter(edition, n, episode="match", reward="score")
    rng = np.random.default_rng(seed)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    seat_of: list[int] = []
    match_of: list[int] = []
    won: list[float] = []
    hand_points: list[float] = []
    for i in range(matches):
        order = list(bots)[::-1] if swap and i % 2 else list(bots)
        rec = {(n - 1 - p) if swap and i % 2 else p for p in seats}
        game_seed = int(rng.integers(2**63))
        agents = [make_agent("mille", name, int(rng.integers(2**31)), exact=True) for name in order]
        state = adapter.new_state(game_seed)
        start = len(actions)
        hand_start = start
        while True:
            p = adapter.current_player(state)
            if p is None or adapter.episode_over(state, state):
                break
            legal = adapter.legal_actions(state)
            action = agents[p].choose(adapter.view(state, p), legal)
            if p in rec:
                obs.append(adapter.observe(state, p).copy())
                masks.append(adapter.mask(state).astype(bool))
                actions.append(adapter.encode(state, action))
                seat_of.append(p)
                match_of.append(i)
            after = adapter.apply(state, action)
            if len(after.sheets) != len(state.sheets):  # a hand was scored
                spread = adapter.rewards(state, state, after) or [0.0] * n
                hand_points.extend(spread[seat_of[k]] for k in range(hand_start, len(actions)))
                hand_start = len(actions)
            state = after
        hand_points.extend(0.0 for _ in range(hand_start, len(actions)))
        winners = set(adapter.face.outcome(state).winners)
        won.extend(1.0 if state.side_of[seat_of[k]] in winners else -1.0 for k in range(start, len(actions)))
    return {
        "obs": np.asarray(obs, dtype=np.float32).reshape(len(actions), adapter.obs_size),
        "mask": np.asarray(masks, dtype=bool).reshape(len(actions), adapter.num_actions),
        "action": np.asarray(actions, dtype=np.int64),
        "seat": np.asarray(seat_of, dtype=np.int8),
        "match": np.asarray(match_of, dtype=np.int32),
        "won": np.asarray(won, dtype=np.float32),
        "hand_points": np.asarray(hand_points, dtype=np.float32),
    }
