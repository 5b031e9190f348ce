"""Decisions per second through each research adapter, next to the engine's own rate.

Every loop plays uniformly random legal moves in 2-player ``wm2006`` hands (one hand per
episode) and counts engine decisions (one ``mille.apply`` each):

* engine      ``legal_actions`` + ``apply`` on engine states (no encoding at all);
* pettingzoo  ``raw_env``: ``last()`` (observation + mask) and ``step`` per decision; and the
              ``env()`` with PettingZoo's wrappers;
* gymnasium   ``MilleEnv`` (one learner vs the ``random`` bot): the learner's decisions get
              an observation + mask, the bot's decisions a view;
* openspiel   ``legal_actions`` + ``apply_action`` per decision, then the same with the
              observation tensor of the player to act; the 102 chance nodes that deal each
              hand are timed as well (they are not decisions).

Knight Rider rows (``--game knightrider`` or ``all``) play 2-player quick-build games with a
turn limit of 60, random legal moves, the same loops: engine, ``knightrider_v0.raw_env``,
``KnightRiderEnv`` vs the ``random`` bot, and ``python_rallye_knightrider`` (its chance
nodes — seed, dice, escape cards — are sampled and timed apart; each re-runs ``apply``);
its observation row uses ``make_observation(game).set_from`` (a NumPy buffer), because
``state.observation_tensor()`` copies the 67,005 floats into a Python list (~3 ms).

The figure compared is CPU time per decision (``time.process_time``, steadier than the
wall clock on a shared machine). Target: every adapter within 2x the engine's time.

    python benchmarks/env_speed.py [--seconds 3] [--game mille|knightrider|all]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rallye import mille


def engine_loop(budget: float) -> tuple[int, float]:
    rng = random.Random(0)
    n, seed = 0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        s = mille.new_match("wm2006", 2, seed=seed)
        seed += 1
        hand = s.hand_no
        while not mille.is_over(s) and s.hand_no == hand:
            legal = mille.legal_actions(s)
            s = mille.apply(s, legal[rng.randrange(len(legal))])
            n += 1
    return n, time.process_time() - t0


def pettingzoo_loop(budget: float, wrapped: bool) -> tuple[int, float]:
    from rallye.rl import mille_v0

    env = mille_v0.env() if wrapped else mille_v0.raw_env()
    rng = np.random.default_rng(0)
    n, seed = 0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    return n, time.process_time() - t0


class _Counting:
    """Wraps an adapter's ``apply`` to count engine decisions."""

    def __init__(self, adapter: Any) -> None:
        self.n = 0
        self._apply: Callable[[Any, Any], Any] = adapter.apply
        adapter.apply = self

    def __call__(self, state: Any, action: Any) -> Any:
        self.n += 1
        return self._apply(state, action)


def gymnasium_loop(budget: float) -> tuple[int, float]:
    from rallye.rl.gym_env import MilleEnv

    env = MilleEnv(opponents="random")
    counter = _Counting(env.adapter)
    rng = np.random.default_rng(0)
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        obs, _ = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            done = term or trunc
    return counter.n, time.process_time() - t0


def openspiel_loop(budget: float, observe: bool) -> tuple[int, float, float, int]:
    import pyspiel

    import rallye.rl.mille_spiel as ms

    game = pyspiel.load_game(ms.SHORT_NAME)
    rng = random.Random(0)
    n, deal_time, hands = 0, 0.0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        hands += 1
        d0 = time.process_time()
        s = game.new_initial_state()
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        deal_time += time.process_time() - d0
        while not s.is_terminal():
            if observe:
                s.observation_tensor(s.current_player())
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            n += 1
    total = time.process_time() - t0
    return n, total - deal_time, deal_time, hands


# ----------------------------------------------------------------------------- Knight Rider

KR_LIMIT = 60


def kr_engine_loop(budget: float) -> tuple[int, float, float, int]:
    from rallye import knightrider as kr

    opts = kr.Options(quick_build=True, turn_limit=KR_LIMIT)
    rng = random.Random(0)
    n, seed, setup, games = 0, 0, 0.0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        s0 = time.process_time()
        s = kr.new_game(2, seed, opts)
        setup += time.process_time() - s0
        seed += 1
        games += 1
        while not kr.is_over(s):
            legal = kr.legal_actions(s)
            s = kr.apply(s, legal[rng.randrange(len(legal))])
            n += 1
    total = time.process_time() - t0
    return n, total - setup, setup, games


def kr_pettingzoo_loop(budget: float) -> tuple[int, float, float, int]:
    from rallye.rl import knightrider_v0

    env = knightrider_v0.raw_env(turn_limit=KR_LIMIT)
    rng = np.random.default_rng(0)
    n, seed, setup, games = 0, 0, 0.0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        s0 = time.process_time()
        env.reset(seed=seed)
        setup += time.process_time() - s0
        seed += 1
        games += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    total = time.process_time() - t0
    return n, total - setup, setup, games


def kr_gymnasium_loop(budget: float) -> tuple[int, float]:
    from rallye.rl.gym_env import KnightRiderEnv

    env = KnightRiderEnv(opponents="random", turn_limit=KR_LIMIT)
    counter = _Counting(env.adapter)
    rng = np.random.default_rng(0)
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        obs, _ = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            done = term or trunc
    return counter.n, time.process_time() - t0


def kr_openspiel_loop(budget: float, observe: bool) -> tuple[int, float, float, int]:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import rallye.rl.kr_spiel as ks

    game = pyspiel.load_game(f"{ks.SHORT_NAME}(turn_limit={KR_LIMIT})")
    observer = make_observation(game)  # a NumPy buffer; state.observation_tensor() builds a 67k-float list
    rng = random.Random(0)
    n, chance_time, chance_nodes = 0, 0.0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < budget:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                c0 = time.process_time()
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                chance_time += time.process_time() - c0
                chance_nodes += 1
                continue
            if observe:
                observer.set_from(s, s.current_player())
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            n += 1
    total = time.process_time() - t0
    return n, total - chance_time, chance_time, chance_nodes


def knightrider_rows(b: float) -> list[tuple[str, int, float, str]]:
    rows: list[tuple[str, int, float, str]] = []
    n, t, setup, games = kr_engine_loop(b)
    rows.append(("KR engine (legal_actions + apply)", n, t, f"(+ new_game: {1000 * setup / games:.1f} ms/game)"))
    n, t, setup, games = kr_pettingzoo_loop(b)
    rows.append(("KR pettingzoo raw_env (last + step)", n, t, f"(+ reset: {1000 * setup / games:.1f} ms/game)"))
    n, t = kr_gymnasium_loop(b)
    rows.append(("KR gymnasium KnightRiderEnv vs random", n, t, "(reset included)"))
    n, t, ct, cn = kr_openspiel_loop(b, observe=False)
    rows.append(("KR openspiel (legal_actions + apply_action)", n, t, f"(+ chance: {1e6 * ct / cn:.0f} us/node)"))
    n, t, _, _ = kr_openspiel_loop(b, observe=True)
    rows.append(("KR openspiel + observer.set_from", n, t, ""))
    return rows


def _print(rows: list[tuple[str, int, float, str]]) -> None:
    base = rows[0][2] / rows[0][1]
    print(f"{'loop':44s} {'decisions/s':>12s} {'us/decision':>12s} {'x engine':>9s}")
    for name, n, t, note in rows:
        per = t / n
        print(f"{name:44s} {n / t:12.0f} {per * 1e6:12.1f} {per / base:9.2f}  {note}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="environment adapter speed vs the engine")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per loop")
    ap.add_argument("--game", choices=("mille", "knightrider", "all"), default="all")
    args = ap.parse_args(argv)
    b = args.seconds
    if args.game in ("mille", "all"):
        _print(mille_rows(b))
    if args.game in ("knightrider", "all"):
        if args.game == "all":
            print()
        _print(knightrider_rows(b))


def mille_rows(b: float) -> list[tuple[str, int, float, str]]:
    rows: list[tuple[str, int, float, str]] = []
    n, t = engine_loop(b)
    rows.append(("engine (legal_actions + apply)", n, t, ""))
    n, t = pettingzoo_loop(b, wrapped=False)
    rows.append(("pettingzoo raw_env (last + step)", n, t, ""))
    n, t = pettingzoo_loop(b, wrapped=True)
    rows.append(("pettingzoo env() with wrappers", n, t, ""))
    n, t = gymnasium_loop(b)
    rows.append(("gymnasium MilleEnv vs random", n, t, ""))
    n, t, deal, hands = openspiel_loop(b, observe=False)
    rows.append(("openspiel (legal_actions + apply_action)", n, t, f"(+ dealing: {1000 * deal / hands:.1f} ms/hand)"))
    n, t, _, _ = openspiel_loop(b, observe=True)
    rows.append(("openspiel + observation_tensor", n, t, ""))
    return rows


if __name__ == "__main__":
    main()
