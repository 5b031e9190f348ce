"""Self-play PPO for 2-player Mille Bornes (wm2006) on the batched engine, PyTorch on CPU,
optionally warm-started by cloning a heuristic bot.

**Cloning** (``--clone fitted``): ``--clone-matches`` matches of the bot are played on the
pure engine (:func:`rallye.rl.imitation.record_mille`: half against ``medium``, seats swapped
every other match, its decisions only; half against itself, both seats), each decision kept
as (observation, legal mask, action code) on the learner's encoding; the network is fitted to
the bot's moves by masked cross-entropy (and its value head to the match results), for
``--clone-epochs`` passes, 1 match in 20 held out to report the accuracy. ``--clone-eval N``
plays the clone against ``medium`` before PPO; ``--save-clone`` keeps it; ``--load`` starts
from saved weights instead.

**PPO**: the learner plays seat 0 of ``--envs`` matches in each of ``--workers`` self-play
collectors (:mod:`rallye.rl.mille.collect`, on the vector environment
:class:`rallye.rl.mille.vector.MilleVector`: observations from the learner's view, legal-action
masks, matches to 5000, auto-reset). Seat 1: each iteration, with probability
``--pool-anchor`` the frozen start (the clone, or the ``--load`` weights), otherwise one of
the last ``--pool`` snapshots of the learner, taken every ``--refresh`` iterations (``--pool
1 --pool-anchor 0``, the default: plain self-play against the latest copy). The collectors
run the network's weights in NumPy, here or as Ray actors (``--backend ray``: on a cluster,
more workers see more games a minute). Reward (``--reward``): ``score`` (default), each
hand the score difference / 1000; ``win``, +1 or -1 when the match ends; a match is the
episode. PPO with clipped ratios, generalised advantage estimates, masked logits (illegal
actions get no probability), one network with a policy and a value head; ``--value-warmup
K``: the first K iterations train the value head only; ``--kl B``: B times KL(start ||
learner) added to the loss, to hold the learner near the clone.

Every ``--eval-every`` iterations it prints the greedy policy's match win rate against
``random`` (on the batch, ``--eval-random`` matches), against its start (on the batch,
``--eval-start`` matches, half in each seat) and against ``medium`` (the heuristic, on the
pure engine's Gymnasium environment, ``--eval-medium`` matches, half in each seat), each
with a 95 % Wilson interval; ``--final-medium N`` plays N more against ``medium`` at the end.

Needs the ``fast`` and ``rl`` extras and PyTorch; a CPU build of PyTorch is enough
(``pip install torch --index-url https://download.pytorch.org/whl/cpu``; on this project's
machines ``pip install torch==2.13.0`` takes the CPU wheel on disk).

What it reached (docs/performance.md, "Self-play PPO on the vector environment", 2026-12-04,
one core): plain self-play PPO, 43 % against ``medium`` after 15 minutes; the clone of
``fitted`` (8,000 matches recorded and 6 epochs, 5.4 minutes) 58.3 % of 2,000 fresh matches
[56.1, 60.4], as strong as ``fitted``; 20 minutes of PPO from it (67,583 self-play matches,
score reward, the pool with the clone) **62.2 % [60.1, 64.3]** on the same deals, and 55.3 %
of 4,000 matches against the clone (on other fresh deals 62.8 %, and 63.8 % [61.7, 65.9] after 17
more minutes of PPO). In two steps, as run (the first clones, the second
fine-tunes):

    python examples/train_mille_ppo.py --clone fitted --clone-matches 8000 --clone-epochs 6 \
        --hidden 512 --minutes 0 --clone-eval 400 --save-clone clone512.pt --seed 3
    python examples/train_mille_ppo.py --load clone512.pt --hidden 512 --minutes 20 --envs 128 \
        --steps 64 --reward score --gamma 0.999 --lr 2e-4 --entropy 0.003 --kl 0 --pool 5 \
        --pool-anchor 0.5 --value-warmup 10 --eval-every 25 --eval-random 64 --eval-start 1000 \
        --eval-medium 100 --final-medium 1000 --final-seed 50000000 --seed 6 --save ppoC.pt

Or in one command (the same recipe, not the measured run):

    python examples/train_mille_ppo.py --clone fitted --clone-matches 8000 --clone-epochs 6 \
        --hidden 512 --clone-eval 400 --minutes 20 --envs 128 --reward score --gamma 0.999 --lr 2e-4 \
        --entropy 0.003 --pool 5 --pool-anchor 0.5 --value-warmup 10 --eval-start 1000 \
        --eval-medium 100 --final-medium 1000
    python examples/train_mille_ppo.py --minutes 30
    python examples/train_mille_ppo.py --minutes 1 --envs 64 --eval-every 5 --eval-medium 20
"""

from __future__ import annotations

import argparse
import copy
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from rallye.rl.mille.collect import MlpPolicy, collect_all, collectors
from rallye.rl.mille.vector import MilleVector
from rallye.sim.stats import wilson

OBS, ACTIONS = 270, 70


class Net(nn.Module):
    """Observation -> (masked action logits, value)."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, ACTIONS)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def act(net: Net, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> np.ndarray:
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(obs), torch.from_numpy(mask))
        if greedy:
            return logits.argmax(-1).numpy()
        return torch.distributions.Categorical(logits=logits).sample().numpy()


def eval_random(net: Net, matches: int, seed: int) -> tuple[int, int]:
    """Greedy policy against the batch's random policy: ``(matches won, matches)``, the
    learner in seat 0 of half of them and seat 1 of the others."""
    return eval_against(net, None, matches, seed)


def eval_against(net: Net, other: Net | None, matches: int, seed: int) -> tuple[int, int]:
    """Greedy policy against another network's greedy policy (the start: the clone; ``None``:
    the batch's random policy) on the batch: ``(matches won, matches)``, half in each seat."""
    wins = n = 0
    for seat in (0, 1):
        size = max(1, matches // 2)
        env = MilleVector("wm2006", 2, size, seed + seat, seat=seat, episode="match", reward="win")
        if other is not None:
            env.opponents = lambda o, m: act(other, o, m, greedy=True)
        obs, mask = env.reset()
        finished = np.zeros(size, dtype=bool)
        while not finished.all():
            obs, mask, rewards, dones = env.step(act(net, obs, mask, greedy=True))
            new = dones & ~finished
            wins += int((rewards[new] > 0).sum())
            n += int(new.sum())
            finished |= dones
    return wins, n


def eval_medium(net: Net, matches: int, seed: int) -> tuple[int, int]:
    """Greedy policy against ``medium`` on the pure engine: ``(matches won, matches)``."""
    import gymnasium as gym

    import rallye.rl  # noqa: F401  (registers rallye/Mille-v0)

    wins = n = 0
    for i in range(matches):
        env = gym.make(
            "rallye/Mille-v0",
            edition="wm2006",
            players=2,
            episode="match",
            reward="win",
            opponents="medium",
            seat=i % 2,
            illegal="raise",
        )
        obs, _ = env.reset(seed=seed + i)
        done = False
        total = 0.0
        while not done:
            a = act(net, obs["observation"][None], obs["action_mask"][None].astype(bool), greedy=True)[0]
            obs, r, terminated, truncated, _ = env.step(int(a))
            total += float(r)
            done = terminated or truncated
        wins += total > 0
        n += 1
    return wins, n


def clone_data(bot: str, matches: int, seed: int, log: bool = True) -> dict[str, np.ndarray]:
    """``bot``'s decisions on the learner's encoding (:func:`rallye.rl.imitation.record_mille`):
    half of the matches against ``medium`` (its seat only, the seats swapped every other
    match), half against itself (both seats)."""
    from rallye.rl.imitation import record_mille

    t0 = time.monotonic()
    half = max(1, matches // 2)
    parts = [
        record_mille([bot, "medium"], half, seed, record=[0], swap=True),
        record_mille([bot, bot], max(1, matches - half), seed + 1),
    ]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    if log:
        print(f"clone data: {len(data['action'])} decisions of {bot} in {matches} matches, "
              f"{time.monotonic() - t0:.1f} s", flush=True)  # fmt: skip
    return data


def behaviour_clone(net: Net, data: dict[str, np.ndarray], args: argparse.Namespace, log: bool = True) -> float:
    """Masked cross-entropy on the bot's moves (and the value head on the match results),
    ``--clone-epochs`` passes; returns the greedy accuracy on the held-out 5 % (whole matches)."""
    held = (data["match"] % 20) == min(19, int(data["match"].max()))  # 1 match in 20 (the last if fewer)
    tensors = {k: torch.from_numpy(data[k]) for k in ("obs", "mask", "action", "won")}
    train_idx = torch.from_numpy(np.flatnonzero(~held))
    test_idx = torch.from_numpy(np.flatnonzero(held))
    opt = torch.optim.Adam(net.parameters(), lr=args.clone_lr)
    steps = args.clone_epochs * ((len(train_idx) + args.clone_batch - 1) // args.clone_batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.clone_lr, total_steps=max(1, steps))
    t0 = time.monotonic()
    acc = 0.0
    for epoch in range(args.clone_epochs):
        perm = train_idx[torch.randperm(len(train_idx))]
        total = 0.0
        for i in range(0, len(perm), args.clone_batch):
            idx = perm[i : i + args.clone_batch]
            logits, v = net(tensors["obs"][idx], tensors["mask"][idx])
            ce = nn.functional.cross_entropy(logits, tensors["action"][idx])
            vf = ((v - tensors["won"][idx]) ** 2).mean()
            loss = ce + 0.5 * vf
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(ce.detach()) * len(idx)
        with torch.no_grad():
            right = 0
            for i in range(0, len(test_idx), 8192):
                idx = test_idx[i : i + 8192]
                logits, _ = net(tensors["obs"][idx], tensors["mask"][idx])
                right += int((logits.argmax(-1) == tensors["action"][idx]).sum())
            acc = right / max(1, len(test_idx))
        if log:
            print(f"clone epoch {epoch + 1}: cross-entropy {total / len(train_idx):.4f}, "
                  f"held-out accuracy {acc:.2%}, {time.monotonic() - t0:.0f} s", flush=True)  # fmt: skip
    return acc


def numpy_policy(net: Net) -> MlpPolicy:
    """The network's weights as a NumPy policy for the collectors (no torch in the workers)."""

    def layer(lin: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
        return lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy()

    body = [layer(m) for m in net.body if isinstance(m, nn.Linear)]
    return MlpPolicy(body, layer(net.pi), layer(net.v))


def collect(workers: list[Any], net: Net, opponent: Net, steps: int) -> tuple[dict[str, torch.Tensor], int]:
    """One round of ``steps`` learner decisions in every match of every collector: the
    trajectories side by side (time, matches) as tensors, and the matches finished."""
    outs = collect_all(workers, numpy_policy(net), steps, opponent=numpy_policy(opponent))
    names = {"obs": "obs", "mask": "mask", "act": "actions", "logp": "logp", "val": "value", "rew": "rewards"}
    b = {k: torch.from_numpy(np.concatenate([o[v] for o in outs], axis=1)) for k, v in names.items()}
    b["logp"], b["val"], b["rew"] = b["logp"].float(), b["val"].float(), b["rew"].float()
    b["done"] = torch.from_numpy(np.concatenate([o["dones"] for o in outs], axis=1).astype(np.float32))
    last_obs = np.concatenate([o["last_obs"] for o in outs])
    last_mask = np.concatenate([o["last_mask"] for o in outs])
    with torch.no_grad():
        _, b["last"] = net(torch.from_numpy(last_obs), torch.from_numpy(last_mask))
    return b, sum(int(o["matches"]) for o in outs)


def ppo_update(
    net: Net,
    opt: torch.optim.Optimizer,
    b: dict[str, torch.Tensor],
    args: argparse.Namespace,
    anchor: Net | None = None,
    value_only: bool = False,
) -> float:
    """One PPO update on a round's batch. ``anchor``: a frozen policy (the clone) the learner
    is held near, ``args.kl`` times KL(anchor || learner) added to the loss; ``value_only``:
    the value head's loss alone (a warm-up that leaves the policy as it is)."""
    T = b["rew"].shape[0]
    adv = torch.zeros_like(b["rew"])
    gae = torch.zeros_like(b["last"])
    nxt = b["last"]
    for t in reversed(range(T)):
        live = 1.0 - b["done"][t]
        delta = b["rew"][t] + args.gamma * nxt * live - b["val"][t]
        gae = delta + args.gamma * args.lam * live * gae
        adv[t] = gae
        nxt = b["val"][t]
    ret = adv + b["val"]
    flat = {k: v.reshape(T * v.shape[1], *v.shape[2:]) for k, v in b.items() if k != "last"}
    flat["adv"], flat["ret"] = adv.reshape(-1), ret.reshape(-1)
    n = flat["adv"].shape[0]
    losses = []
    for _ in range(args.epochs):
        perm = torch.randperm(n)
        for i in range(0, n, args.minibatch):
            idx = perm[i : i + args.minibatch]
            logits, v = net(flat["obs"][idx], flat["mask"][idx])
            vf = ((v - flat["ret"][idx]) ** 2).mean()
            if value_only:
                loss = 0.5 * vf
            else:
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(flat["act"][idx])
                a = flat["adv"][idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = torch.exp(logp - flat["logp"][idx])
                pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                loss = pg + 0.5 * vf - args.entropy * dist.entropy().mean()
                if anchor is not None and args.kl > 0:
                    with torch.no_grad():
                        ref, _ = anchor(flat["obs"][idx], flat["mask"][idx])
                        ref_logp = torch.log_softmax(ref, -1)
                    mine = torch.log_softmax(logits, -1)
                    kl = (ref_logp.exp() * (ref_logp - mine)).masked_fill(~flat["mask"][idx], 0.0).sum(-1).mean()
                    loss = loss + args.kl * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            losses.append(float(loss.detach()))
    return float(np.mean(losses))


def train(args: argparse.Namespace, log: bool = True) -> tuple[Net, list[dict[str, Any]]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    net = Net(args.hidden)
    history: list[dict[str, Any]] = []
    start = time.monotonic()
    if args.load:
        net.load_state_dict(torch.load(args.load))
    if args.clone:
        data = clone_data(args.clone, args.clone_matches, 5_000_000 + args.seed, log)
        acc = behaviour_clone(net, data, args, log)
        del data
        row0: dict[str, Any] = {"iteration": 0, "minutes": (time.monotonic() - start) / 60, "matches": 0,
                                "decisions": 0, "loss": float("nan"), "accuracy": acc}  # fmt: skip
        if args.clone_eval:
            w, n = eval_medium(net, args.clone_eval, 9_000_000)
            row0["medium"] = (w, n, *wilson(w, n))
            if log:
                print(f"clone ({args.clone}, {acc:.2%} held-out accuracy) vs medium {w}/{n} = {w / n:.1%} "
                      f"[{row0['medium'][2]:.1%}, {row0['medium'][3]:.1%}], "
                      f"{row0['minutes']:.1f} min", flush=True)  # fmt: skip
        history.append(row0)
        if args.save_clone:
            torch.save(net.state_dict(), args.save_clone)
    anchor = copy.deepcopy(net) if (args.clone or args.load) else None
    # Opponents: the frozen start (the clone) with probability --pool-anchor, else one of the
    # last --pool snapshots of the learner (--pool 1: the latest copy, plain self-play).
    pool = [copy.deepcopy(net)]
    rng = np.random.default_rng(args.seed)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    workers = collectors(
        args.workers, backend=args.backend, num_envs=args.envs, seed=args.seed, seat=0, episode="match",
        reward=args.reward,
    )  # fmt: skip
    state: dict[str, Any] = {"matches": 0}
    ppo_start = time.monotonic()
    it = 0
    while time.monotonic() - ppo_start < 60 * args.minutes and (args.iterations is None or it < args.iterations):
        it += 1
        if anchor is not None and rng.random() < args.pool_anchor:
            opponent = anchor
        else:
            opponent = pool[int(rng.integers(len(pool)))]
        batch, matches = collect(workers, net, opponent, args.steps)
        state["matches"] += matches
        loss = ppo_update(net, opt, batch, args, anchor=anchor, value_only=it <= args.value_warmup)
        if it % args.refresh == 0:
            pool.append(copy.deepcopy(net))
            del pool[: -args.pool]
        if it % args.eval_every == 0:
            row: dict[str, Any] = {
                "iteration": it,
                "minutes": (time.monotonic() - start) / 60,
                "ppo_minutes": (time.monotonic() - ppo_start) / 60,
                "matches": state["matches"],
                "decisions": it * args.steps * args.envs * args.workers,
                "loss": loss,
            }
            evals: list[tuple[str, Any, int]] = [("random", eval_random, args.eval_random)]
            if anchor is not None and args.eval_start:
                evals.append(("start", lambda nt, k, sd: eval_against(nt, anchor, k, sd), args.eval_start))
            evals.append(("medium", eval_medium, args.eval_medium))
            for name, fn, k in evals:
                if k:
                    w, n = fn(net, k, 10_000 * it)
                    lo, hi = wilson(w, n)
                    row[name] = (w, n, lo, hi)
            history.append(row)
            if log:
                parts = [
                    f"it {it}",
                    f"{row['minutes']:.1f} min",
                    f"{row['matches']} self-play matches",
                    f"loss {loss:.3f}",
                ]
                for name in ("random", "start", "medium"):
                    if name in row:
                        w, n, lo, hi = row[name]
                        parts.append(f"vs {name} {w}/{n} = {w / n:.1%} [{lo:.1%}, {hi:.1%}]")
                print(", ".join(parts), flush=True)
    return net, history


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--iterations", type=int, default=None, help="stop after this many (default: the clock)")
    p.add_argument("--envs", type=int, default=256, help="matches a collector")
    p.add_argument("--workers", type=int, default=1, help="collectors (default 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="collectors here or as Ray actors")
    p.add_argument("--steps", type=int, default=64, help="learner decisions a match per iteration")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatch", type=int, default=4096)
    p.add_argument("--refresh", type=int, default=5, help="iterations between copies of the policy to the opponent")
    p.add_argument("--eval-every", type=int, default=20)
    p.add_argument("--eval-random", type=int, default=256, help="matches against random per evaluation")
    p.add_argument(
        "--eval-start",
        type=int,
        default=0,
        help="matches against the start (the clone or --load) per evaluation, on the batch",
    )
    p.add_argument("--eval-medium", type=int, default=40, help="matches against medium per evaluation")
    p.add_argument("--final-medium", type=int, default=0, help="matches against medium at the end")
    p.add_argument(
        "--reward",
        choices=("score", "win"),
        default="score",
        help="score: each hand's score difference / 1000; win: +1/-1 at the end of the match",
    )
    p.add_argument("--pool", type=int, default=1, help="snapshots of the learner kept as opponents (1: the latest)")
    p.add_argument(
        "--pool-anchor",
        type=float,
        default=0.0,
        help="share of iterations whose opponent is the frozen start (the clone or --load)",
    )
    p.add_argument("--kl", type=float, default=0.0, help="weight of KL(start || learner) in the loss")
    p.add_argument("--value-warmup", type=int, default=0, help="first iterations train the value head only")
    p.add_argument("--load", default=None, help="start from these weights (a --save or --save-clone file)")
    p.add_argument("--clone", default=None, help="first clone this bot's moves (e.g. fitted), then PPO")
    p.add_argument("--clone-matches", type=int, default=2000, help="matches of the bot recorded for cloning")
    p.add_argument("--clone-epochs", type=int, default=4)
    p.add_argument("--clone-lr", type=float, default=2e-3)
    p.add_argument("--clone-batch", type=int, default=512)
    p.add_argument("--clone-eval", type=int, default=0, help="matches of the clone against medium before PPO")
    p.add_argument("--save-clone", default=None, help="write the clone's weights here")
    p.add_argument("--final-seed", type=int, default=7_000_000, help="first deal seed of the final matches")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", default=None, help="write the network's weights here at the end")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    net, history = train(args)
    if args.final_medium:
        w, n = eval_medium(net, args.final_medium, args.final_seed)
        lo, hi = wilson(w, n)
        done = history[-1] if history else {"matches": 0, "minutes": 0.0}
        print(
            f"final: after {done['matches']} self-play matches in {done['minutes']:.1f} min, "
            f"vs medium {w}/{n} = {w / n:.1%} [{lo:.1%}, {hi:.1%}]",
            flush=True,
        )
    if args.save:
        torch.save(net.state_dict(), args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
