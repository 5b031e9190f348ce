"""Train the ``learned`` Mille Bornes level: one network for every wm2006 table (2 and 3
players alone, 4 in two teams of two, 6 in three teams of two), cloned from a teacher bot and
then improved by population self-play PPO on the batched engine; writes the weights the
package ships (``src/rallye/agents/data/learned_wm2006.npz``, NumPy only at play time:
:mod:`rallye.agents.mille.learned`).

**Cloning** (``--teacher distilled``, the strongest bot that costs well under a millisecond a
move): at each size, ``--clone-matches`` matches on the pure engine
(:func:`rallye.rl.imitation.record_mille`), the teacher holding one side (both seats of it in
a team game: its partner is itself) and every other side one opponent from ``--clone-against``
(the teacher itself, ``medium``, and the six zoo styles by default, so the clone meets the
styles it will be measured against), the teacher's side at each place of the table in turn;
only the teacher's decisions are kept, each as (observation, legal mask, move), on the
encoding every size shares (:mod:`rallye.agents.mille.encoding`, 270 floats: its absent
seats are zero and flagged). The network is fitted to them by masked cross-entropy (and its
value head to the match results), ``--clone-epochs`` passes, 1 match in 20 held out.

**PPO** (``--minutes``): one collector per size on the vector environment
(:class:`rallye.rl.mille.vector.MilleVector`), the learner in seat 0 (its side is side 0),
every iteration ``--steps`` learner decisions in each of ``--envs`` matches of every size,
one PPO update on them all together (``examples/train_mille_ppo.py``'s update: clipped
ratios, generalised advantages, masked logits). Team games: the learner's partner plays the
learner's current policy (the reward is the side's: each hand the side's points minus the
other sides' mean, / 1000); every other side plays an opponent drawn each iteration: the
frozen clone with probability ``--pool-anchor``, else one of the last ``--pool`` snapshots of
the learner (taken every ``--refresh`` iterations). The zoo styles and the heuristic levels
play on the pure engine only, so they enter through the clone's data, not this pool.

Every ``--eval-every`` iterations and at the end: the greedy learner against the greedy clone
on the batch at every size (``--eval-start`` matches a size, the learner's side at seat 0,
its share of the matches won; fair share one over the number of sides).

    nice -n 10 python research/train_learned.py --clone-matches 1100 --clone-epochs 6 \
        --minutes 0 --save-clone clone.pt --out src/rallye/agents/data/learned_wm2006.npz
    nice -n 10 python research/train_learned.py --load clone.pt --minutes 40 --eval-every 30 \
        --eval-start 200 --save ppo.pt --out learned_ppo.npz

The first is the clone the package ships (docs/bots.md, "The learned level": 60 iterations
of the second, on a busy machine, did not improve on it).

Needs the ``fast``, ``rl`` and ``train`` extras (PyTorch, a CPU build is enough).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import train_mille_ppo as ppo  # type: ignore[import-not-found]  # the PPO example: network, update, cloning

from rallye.agents.base import agent_names
from rallye.agents.mille.encoding import field_slice
from rallye.mille import get_edition
from rallye.rl.imitation import record_mille
from rallye.rl.mille.collect import Collector, MlpPolicy
from rallye.rl.mille.vector import MilleVector
from rallye.sim.stats import wilson

EDITION = "wm2006"
MY_SIDE = field_slice("my_side")


def sides_of(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side at a ``players`` table of the edition."""
    return dict(get_edition(EDITION).teams)[players]


def clone_data(teacher: str, against: list[str], sizes: list[int], matches: int, seed: int) -> dict[str, np.ndarray]:
    """The teacher's decisions at every size (the module's "Cloning")."""
    parts = []
    offset = 0
    for n in sizes:
        sides = sides_of(n)
        t0 = time.monotonic()
        got = 0
        per = max(1, matches // (len(against) * len(sides)))
        for j, other in enumerate(against):
            for place, side in enumerate(sides):
                bots = [teacher if p in side else other for p in range(n)]
                rec = list(side) if other != teacher else None
                d = record_mille(bots, per, seed + 1000 * n + 10 * j + place, edition=EDITION, record=rec)
                d["match"] = d["match"] + offset
                offset += per
                got += len(d["action"])
                parts.append(d)
        print(f"clone data, {n} players: {got} decisions of {teacher} in {per * len(against) * len(sides)} "
              f"matches, {time.monotonic() - t0:.0f} s", flush=True)  # fmt: skip
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


class Table:
    """The other seats' policy: the learner's partner plays the learner (``mine``), every
    other side the opponent (``theirs``); both are NumPy policies (logits, extras)."""

    def __init__(self, mine: MlpPolicy, theirs: MlpPolicy) -> None:
        self.mine, self.theirs = mine, theirs

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        partner = obs[:, MY_SIDE][:, 0] > 0.5  # side 0 is the learner's
        logits = np.empty((len(obs), mask.shape[1]), dtype=np.float64)
        if partner.any():
            logits[partner] = self.mine(obs[partner], mask[partner])[0]
        if (~partner).any():
            logits[~partner] = self.theirs(obs[~partner], mask[~partner])[0]
        return logits, {}


def evaluate(net: ppo.Net, other: ppo.Net, sizes: list[int], matches: int, seed: int) -> dict[int, tuple[int, int]]:
    """Greedy ``net`` (side 0, its partner too) against greedy ``other`` on the batch: matches
    won of ``matches`` at each size."""
    me, them = ppo.numpy_policy(net), ppo.numpy_policy(other)
    table = Table(me, them)

    def greedy(pol: Any) -> Any:
        def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            logits, _ = pol(obs, mask)
            codes: np.ndarray = np.where(mask, logits, -np.inf).argmax(1)
            return codes

        return act

    out = {}
    for n in sizes:
        env = MilleVector(EDITION, n, matches, seed + n, seat=0, episode="match", reward="win")
        env.opponents = greedy(table)
        obs, mask = env.reset()
        finished = np.zeros(matches, dtype=bool)
        wins = 0
        act = greedy(me)
        while not finished.all():
            obs, mask, rewards, dones = env.step(act(obs, mask))
            new = dones & ~finished
            wins += int((rewards[new] > 0).sum())
            finished |= dones
        out[n] = (wins, matches)
    return out


def show(label: str, res: dict[int, tuple[int, int]]) -> None:
    parts = []
    for n, (w, k) in res.items():
        lo, hi = wilson(w, k)
        parts.append(f"{n}p {w}/{k} = {w / k:.1%} [{lo:.1%}, {hi:.1%}] (fair {1 / len(sides_of(n)):.0%})")
    print(f"{label}: " + ", ".join(parts), flush=True)


def collect(workers: list[Collector], net: ppo.Net, opponent: ppo.Net, steps: int) -> tuple[dict[str, Any], int]:
    """One round on every size's collector, the other seats per :class:`Table`."""
    mine = ppo.numpy_policy(net)
    table = Table(mine, ppo.numpy_policy(opponent))
    outs = [w.collect(mine, steps, table) for w in workers]
    names = {"obs": "obs", "mask": "mask", "act": "actions", "logp": "logp", "val": "value", "rew": "rewards"}
    b = {k: torch.from_numpy(np.concatenate([o[v] for o in outs], axis=1)) for k, v in names.items()}
    b["logp"], b["val"], b["rew"] = b["logp"].float(), b["val"].float(), b["rew"].float()
    b["done"] = torch.from_numpy(np.concatenate([o["dones"] for o in outs], axis=1).astype(np.float32))
    with torch.no_grad():
        _, b["last"] = net(
            torch.from_numpy(np.concatenate([o["last_obs"] for o in outs])),
            torch.from_numpy(np.concatenate([o["last_mask"] for o in outs])),
        )
    return b, sum(int(o["matches"]) for o in outs)


def export(net: ppo.Net, path: Path, meta: dict[str, Any]) -> None:
    """The weights as the package reads them (:mod:`rallye.agents.mille.learned`): float16
    arrays ``w0 b0 w1 b1 ... pi_w pi_b`` (``w`` as ``(inputs, outputs)``) and the metadata."""
    pol = ppo.numpy_policy(net)
    arrays: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(pol.body):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
    arrays["pi_w"], arrays["pi_b"] = pol.pi[0].astype(np.float16), pol.pi[1].astype(np.float16)
    import json

    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="2,3,4,6")
    p.add_argument("--teacher", default="distilled")
    p.add_argument("--clone-against", default=None, help="opponents (default: the teacher, medium, the zoo)")
    p.add_argument("--clone-matches", type=int, default=1000, help="recorded matches a size")
    p.add_argument("--clone-epochs", type=int, default=6)
    p.add_argument("--clone-lr", type=float, default=2e-3)
    p.add_argument("--clone-batch", type=int, default=512)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--minutes", type=float, default=30.0, help="PPO minutes (0: the clone alone)")
    p.add_argument("--envs", type=int, default=48, help="matches a size in PPO")
    p.add_argument("--steps", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--gamma", type=float, default=0.999)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.003)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatch", type=int, default=4096)
    p.add_argument("--kl", type=float, default=0.0)
    p.add_argument("--value-warmup", type=int, default=10)
    p.add_argument("--pool", type=int, default=5)
    p.add_argument("--pool-anchor", type=float, default=0.5)
    p.add_argument("--refresh", type=int, default=5)
    p.add_argument("--eval-every", type=int, default=40)
    p.add_argument("--eval-start", type=int, default=400, help="matches a size against the clone")
    p.add_argument("--load", type=Path, help="start from these torch weights instead of cloning")
    p.add_argument("--save-clone", type=Path)
    p.add_argument("--save", type=Path, help="the final torch weights")
    p.add_argument("--out", type=Path, help="write the shipped weights (.npz) here")
    p.add_argument("--seed", type=int, default=63)
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    net = ppo.Net(args.hidden)
    start = time.monotonic()
    meta: dict[str, Any] = {"edition": EDITION, "sizes": sizes, "teacher": args.teacher, "hidden": args.hidden}
    if args.load:
        net.load_state_dict(torch.load(args.load))
    else:
        against = args.clone_against.split(",") if args.clone_against else [
            args.teacher, "medium", *(n for n in agent_names("mille") if n.startswith("zoo-"))
        ]  # fmt: skip
        data = clone_data(args.teacher, against, sizes, args.clone_matches, 5_000_000 + args.seed)
        acc = ppo.behaviour_clone(net, data, args)
        meta.update(clone_decisions=len(data["action"]), clone_accuracy=round(acc, 4), clone_against=against)
        del data
        if args.save_clone:
            torch.save(net.state_dict(), args.save_clone)
    print(f"start ready, {(time.monotonic() - start) / 60:.1f} min", flush=True)
    anchor = copy.deepcopy(net)
    pool = [copy.deepcopy(net)]
    rng = np.random.default_rng(args.seed)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    workers = [Collector(EDITION, n, args.envs, args.seed + n, seat=0, episode="match", reward="score") for n in sizes]
    t0 = time.monotonic()
    it = matches = 0
    while time.monotonic() - t0 < 60 * args.minutes:
        it += 1
        opponent = anchor if rng.random() < args.pool_anchor else pool[int(rng.integers(len(pool)))]
        batch, done = collect(workers, net, opponent, args.steps)
        matches += done
        loss = ppo.ppo_update(net, opt, batch, args, anchor=anchor, value_only=it <= args.value_warmup)
        if it % args.refresh == 0:
            pool.append(copy.deepcopy(net))
            del pool[: -args.pool]
        if it % args.eval_every == 0:
            print(f"it {it}, {(time.monotonic() - t0) / 60:.1f} min, {matches} matches, loss {loss:.3f}", flush=True)
            show("  vs clone", evaluate(net, anchor, sizes, args.eval_start, 10_000 * it))
    meta.update(ppo_iterations=it, ppo_matches=matches, ppo_minutes=round((time.monotonic() - t0) / 60, 1))
    if it:
        show(f"final (it {it}, {matches} matches) vs clone", evaluate(net, anchor, sizes, args.eval_start, 99_000_000))
    if args.save:
        torch.save(net.state_dict(), args.save)
    if args.out:
        export(net, args.out, meta)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
