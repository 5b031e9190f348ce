"""Compiled pieces of the vector environment (:mod:`rallye.batch.vector`): the learner's
reward of a step, and the other seats played by the random policy until the learner is to
act again."""

from __future__ import annotations

import numpy as np
from numba import njit

from rallye.batch._kernels import (
    C_S,
    C_SIDEOF,
    CUR,
    N_LINES,
    NUM_ACTIONS,
    OVER_PHASE,
    PHASE,
    RES_WINNERS,
    SH_ROWS,
    Flags,
    Row,
    Rows,
    Seeds,
    legal_codes,
    next_match,
    rand_below,
    step_one,
)
from rallye.batch._kernels import Floats as Rewards
from rallye.batch._kernels import Mask as Dones


@njit(cache=True)
def learner_reward(g: Row, cfg: Row, seat: int, f: int, episode_hand: bool, reward_win: bool) -> tuple[float, bool]:
    """``(reward, episode over)`` for ``seat``'s side after a step that returned ``f``; the
    rewards of :class:`rallye.rl.games.MilleAdapter` (``score``: the side's hand points
    minus the others' mean, / 1000, at each hand; ``win``: at the episode's end, +1 / -1
    for the match, +1 / 0 (tied) / -1 for the hand)."""
    done = (f & 2) != 0 or (episode_hand and (f & 1) != 0)
    if not f & 1:
        return 0.0, done
    n_sides = cfg[C_S]
    my = cfg[C_SIDEOF + seat]
    pts = np.zeros(n_sides, dtype=np.int64)
    for s in range(n_sides):
        for line in range(N_LINES):
            pts[s] += g[SH_ROWS + s * N_LINES + line]
    if not reward_win:
        total = pts.sum()
        return (pts[my] - (total - pts[my]) / (n_sides - 1)) / 1000.0, done
    if not done:
        return 0.0, done
    if not episode_hand:
        return (1.0 if (g[RES_WINNERS] >> my) & 1 else -1.0), done
    top = pts.max()
    if pts[my] != top:
        return -1.0, done
    return (1.0 if (pts == top).sum() == 1 else 0.0), done


@njit(cache=True)
def env_rewards(
    st: Rows, cfg: Row, flags: Flags, seat: int, episode_hand: bool, reward_win: bool, rewards: Rewards, dones: Dones
) -> None:
    for b in range(st.shape[0]):
        if flags[b]:
            r, d = learner_reward(st[b], cfg, seat, flags[b], episode_hand, reward_win)
            rewards[b] += r
            if d:
                dones[b] = True


@njit(cache=True)
def env_random_others(
    st: Rows,
    cfg: Row,
    seeds: Seeds,
    seat: int,
    episode_hand: bool,
    reward_win: bool,
    rewards: Rewards,
    dones: Dones,
) -> int:
    """The other seats of every game not yet done play random legal moves until ``seat``
    is to act or the episode ends; returns the decisions taken."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    decisions = 0
    for b in range(st.shape[0]):
        g = st[b]
        if dones[b]:
            continue
        while g[PHASE] != OVER_PHASE and g[CUR] != seat:
            n = legal_codes(g, cfg, buf)
            f = step_one(g, cfg, seeds, b, buf[rand_below(seeds, b, n)], False)
            decisions += 1
            if f:
                r, d = learner_reward(g, cfg, seat, f, episode_hand, reward_win)
                rewards[b] += r
                if d:
                    dones[b] = True
                    break
    return decisions


@njit(cache=True)
def env_restart(st: Rows, cfg: Row, seeds: Seeds, which: Dones) -> None:
    for b in range(st.shape[0]):
        if which[b]:
            next_match(st[b], cfg, seeds, b)
