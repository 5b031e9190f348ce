"""Learn to play 2-player Mille Bornes hands against the ``random`` bot, with plain NumPy.

REINFORCE (policy gradient) with a linear softmax policy over the observation encoding
(``rallye.rl.mille.encoding``), illegal actions masked out, a running-mean baseline, on the
Gymnasium environment ``rallye/Mille-v0`` (one hand per episode, reward = hand score
difference / 1000). Then it plays greedy evaluation hands against ``random`` and prints the
win rate with a 95% Wilson interval (a tie counts as half a win).

    python examples/train_mille.py                 # ~2-4 minutes on one CPU core
    python examples/train_mille.py --iterations 50 --eval 200
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np

import rallye.rl  # registers rallye/Mille-v0
from rallye.rl.mille.encoding import OBS_SIZE

NUM_ACTIONS = 70
del rallye  # imported for its registration only


@dataclass
class LinearPolicy:
    """``logits = x @ w + b`` over the legal actions only."""

    w: np.ndarray = field(default_factory=lambda: np.zeros((OBS_SIZE, NUM_ACTIONS)))
    b: np.ndarray = field(default_factory=lambda: np.zeros(NUM_ACTIONS))

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = x @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()  # type: ignore[no-any-return]


def play_episode(
    env: gym.Env, policy: LinearPolicy, rng: np.random.Generator, greedy: bool = False, seed: int | None = None
):
    """One hand; returns (steps as (x, mask, action, probs), episode return)."""
    obs, _ = env.reset(seed=seed)
    steps = []
    total = 0.0
    done = False
    while not done:
        x = obs["observation"].astype(np.float64)
        mask = obs["action_mask"]
        p = policy.probs(x, mask)
        a = int(np.argmax(p)) if greedy else int(rng.choice(NUM_ACTIONS, p=p))
        steps.append((x, a, p))
        obs, r, terminated, truncated, _ = env.step(a)
        total += float(r)
        done = terminated or truncated
    return steps, total


def train(iterations: int = 60, batch: int = 16, lr: float = 0.05, seed: int = 0, log: bool = True):
    """REINFORCE; returns the policy and a list of (iteration, mean return, loss)."""
    env = gym.make("rallye/Mille-v0", players=2, opponents="random", illegal="raise")
    rng = np.random.default_rng(seed)
    policy = LinearPolicy()
    baseline = 0.0
    history = []
    episode_seed = seed * 1_000_003
    for it in range(iterations):
        gw = np.zeros_like(policy.w)
        gb = np.zeros_like(policy.b)
        returns = []
        loss = 0.0
        n_steps = 0
        for _ in range(batch):
            episode_seed += 1
            steps, ret = play_episode(env, policy, rng, seed=episode_seed)
            returns.append(ret)
            adv = ret - baseline
            for x, a, p in steps:
                # d log p(a) / d logits = onehot(a) - p   (p is 0 on masked actions)
                g = -p
                g[a] += 1.0
                gw += np.outer(x, g) * adv
                gb += g * adv
                loss -= math.log(max(p[a], 1e-12)) * adv
                n_steps += 1
        scale = lr / max(n_steps, 1)
        policy.w += scale * gw
        policy.b += scale * gb
        mean_ret = float(np.mean(returns))
        baseline = 0.9 * baseline + 0.1 * mean_ret if it else mean_ret
        history.append((it, mean_ret, loss / max(n_steps, 1)))
        if log and (it % 10 == 0 or it == iterations - 1):
            mean_loss = loss / max(n_steps, 1)
            print(f"iteration {it:4d}  mean hand score difference {mean_ret * 1000:8.1f}  loss {mean_loss:+.4f}")
    env.close()
    return policy, history


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(policy: LinearPolicy, hands: int = 400, seed: int = 10_000, greedy: bool = True) -> tuple[float, int]:
    """Play against ``random`` (half the hands in each seat); a win scores 1, a tie 1/2.
    Returns (wins, hands)."""
    rng = np.random.default_rng(seed)
    wins = 0.0
    seats = (0, 1)
    played = 0
    for seat in seats:
        env = gym.make("rallye/Mille-v0", players=2, seat=seat, opponents="random", illegal="raise")
        for k in range(hands // len(seats)):
            _, ret = play_episode(env, policy, rng, greedy=greedy, seed=seed + 7919 * k + seat)
            wins += 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0
            played += 1
        env.close()
    return wins, played


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--batch", type=int, default=16, help="hands per policy update")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--eval", type=int, default=400, help="evaluation hands (half in each seat)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.time()
    untrained_wins, n = evaluate(LinearPolicy(), args.eval, seed=args.seed + 20_000, greedy=False)
    policy, _ = train(args.iterations, args.batch, args.lr, args.seed)
    wins, n = evaluate(policy, args.eval, seed=args.seed + 10_000)
    lo, hi = wilson(wins, n)
    ulo, uhi = wilson(untrained_wins, n)
    print(f"untrained policy (uniform over legal actions) vs random: {untrained_wins / n:.1%} "
          f"(95% CI {ulo:.1%}-{uhi:.1%}) over {n} hands")  # fmt: skip
    print(f"trained policy vs random: win rate {wins / n:.1%} (95% CI {lo:.1%}-{hi:.1%}) over {n} hands, "
          f"{args.iterations * args.batch} training hands, {time.time() - t0:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
