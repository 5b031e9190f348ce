"""Trained networks (``train_mille_ppo.py --save`` / ``--save-clone`` files) and bots against
``medium`` on the same deals, match by match, for 2-player wm2006 matches.

Match ``i`` is dealt from seed ``--seed + i`` in ``rallye/Mille-v0`` with the policy in seat
``i % 2`` (the loop of ``train_mille_ppo.eval_medium``: a network plays its greedy move); a
bot is named ``bot:NAME`` and chooses from its view as the environment's own bots do
(seeded ``--seed + i``). It prints each policy's wins with a 95 % Wilson interval and, for
each pair, the matches one won and the other lost, with a two-sided sign test on them: the
paired comparison that tells two policies apart on the same deals.

    python examples/compare_mille_policies.py --matches 2000 --seed 80000000 --hidden 512 \\
        clone512.pt ppoC.pt bot:fitted
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test of ``a`` against ``b`` discordant matches."""
    n, k = a + b, max(a, b)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(comb(n, i) for i in range(k, n + 1)) / 2**n)


def play(policy: str, matches: int, seed: int, hidden: int) -> np.ndarray:
    """Whether the policy won each match against ``medium``."""
    import gymnasium as gym
    import torch
    from train_mille_ppo import Net, act

    import rallye.rl  # noqa: F401  (registers rallye/Mille-v0)
    from rallye.agents.base import make_agent

    torch.set_num_threads(1)
    net = None
    if not policy.startswith("bot:"):
        net = Net(hidden)
        net.load_state_dict(torch.load(policy))
        net.eval()
    won = np.zeros(matches, dtype=bool)
    for i in range(matches):
        env = gym.make("rallye/Mille-v0", edition="wm2006", players=2, episode="match", reward="win",
                       opponents="medium", seat=i % 2, illegal="raise")  # fmt: skip
        obs, _ = env.reset(seed=seed + i)
        inner = env.unwrapped
        bot = None if net is not None else make_agent("mille", policy[4:], seed + i, exact=True)
        done, total = False, 0.0
        while not done:
            if net is not None:
                code = int(act(net, obs["observation"][None], obs["action_mask"][None].astype(bool), greedy=True)[0])
            else:
                assert bot is not None
                state = inner.state_value  # type: ignore[attr-defined]
                ad = inner.adapter  # type: ignore[attr-defined]
                code = ad.encode(state, bot.choose(ad.view(state, inner.seat), ad.legal_actions(state)))  # type: ignore[attr-defined]
            obs, r, terminated, truncated, _ = env.step(code)
            total += float(r)
            done = terminated or truncated
        won[i] = total > 0
    return won


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("policies", nargs="+", help="weight files or bot:NAME")
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--seed", type=int, default=80_000_000, help="deal seed of the first match")
    p.add_argument("--hidden", type=int, default=512, help="the networks' width (train_mille_ppo --hidden)")
    args = p.parse_args(argv)
    from rallye.sim.stats import wilson

    results = {}
    for policy in args.policies:
        t0 = time.monotonic()
        results[policy] = won = play(policy, args.matches, args.seed, args.hidden)
        w = int(won.sum())
        lo, hi = wilson(w, args.matches)
        print(f"{policy} vs medium: {w}/{args.matches} = {w / args.matches:.1%} [{lo:.1%}, {hi:.1%}], "
              f"{time.monotonic() - t0:.0f} s", flush=True)  # fmt: skip
    names = list(results)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            only_a = int((results[a] & ~results[b]).sum())
            only_b = int((results[b] & ~results[a]).sum())
            print(f"{a} won {only_a} matches that {b} lost, {b} won {only_b} that {a} lost: "
                  f"sign test p = {sign_test(only_a, only_b):.2g}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
