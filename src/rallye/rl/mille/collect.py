"""Self-play collection workers on the vector environment, in this process or as Ray actors.

A :class:`Collector` holds a :class:`~rallye.rl.mille.vector.MilleVector` and plays ``steps``
learner decisions in each of its games with the policy it is given, returning the
trajectories as arrays. :func:`collectors` makes ``n`` of them, here (``backend="local"``) or
as Ray actors (``backend="ray"``, the ``dist`` extra: each actor a process, on any node of
the cluster), and :func:`collect_all` runs one round on all of them; the results are the
same either way (each collector's randomness is its own, seeded), so a cluster multiplies
the games a training run sees without changing what one collector plays.

A policy is a picklable callable ``policy(obs, mask) -> (logits, extras)`` over a batch of
observations (``(n, 270)`` float32) and legal masks (``(n, 70)`` bool): the collector
samples the action from the masked logits with its own generator and keeps ``extras``
(arrays of ``n`` rows: a value estimate, say) with the trajectory. :class:`MlpPolicy` is one
in NumPy (no deep-learning framework in the workers): the weights of a trained network.

>>> import numpy as np
>>> from rallye.rl.mille.collect import MlpPolicy, collect_all, collectors
>>> policy = MlpPolicy.random(hidden=(32,), seed=1)
>>> workers = collectors(2, num_envs=4, seed=7)
>>> out = collect_all(workers, policy, steps=3)
>>> out[0]["obs"].shape, out[0]["actions"].shape, sorted(out[0])[:4]
((3, 4, 270), (3, 4), ['actions', 'dones', 'last_mask', 'last_obs'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from rallye.mille.edition import Edition
from rallye.rl.mille.vector import MilleVector

Arrays = dict[str, npt.NDArray[Any]]
PolicyFn = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.NDArray[np.float64], Arrays]]
BACKENDS = ("local", "ray")


class MlpPolicy:
    """``obs -> ReLU(obs @ W1 + b1) -> ... -> (logits, value)`` in NumPy (float32)."""

    def __init__(
        self,
        body: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        pi: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
        value: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None,
    ) -> None:
        self.body = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in body]
        self.pi = (np.asarray(pi[0], np.float32), np.asarray(pi[1], np.float32))
        self.value = None if value is None else (np.asarray(value[0], np.float32), np.asarray(value[1], np.float32))
        width = 270
        for w, b in [*self.body, self.pi]:
            if w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(f"layer of shape {w.shape} (bias {b.shape}) does not follow a width of {width}")
            width = w.shape[1]
        if width != 70:
            raise ValueError(f"the policy head must give 70 logits, not {width}")

    @classmethod
    def random(cls, hidden: Sequence[int] = (64,), seed: int = 0) -> MlpPolicy:
        """Small random weights (a policy close to uniform over the legal actions)."""
        rng = np.random.default_rng(seed)

        def layer(a: int, b: int, scale: float) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
            return rng.normal(0, scale, (a, b)).astype(np.float32), np.zeros(b, np.float32)

        sizes = [270, *hidden]
        body = [layer(a, b, 0.1) for a, b in pairwise(sizes)]
        return cls(body, layer(sizes[-1], 70, 0.01), layer(sizes[-1], 1, 0.01))

    def __call__(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float64], Arrays]:
        h = obs
        for w, b in self.body:
            h = np.maximum(h @ w + b, 0.0)
        logits = (h @ self.pi[0] + self.pi[1]).astype(np.float64)
        extras: Arrays = {}
        if self.value is not None:
            extras["value"] = (h @ self.value[0] + self.value[1])[:, 0]
        return logits, extras


def sample_masked(
    logits: npt.NDArray[np.float64], mask: npt.NDArray[np.bool_], rng: np.random.Generator
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """An action from each row's softmax over its legal actions, and its log-probability."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    logp_all = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    u = rng.random((len(z), 1))
    actions = (np.exp(logp_all).cumsum(axis=1) < u).sum(axis=1)
    actions = np.minimum(actions, 69)
    # guard against rounding landing on an illegal code: take the last legal one at or before
    bad = ~mask[np.arange(len(z)), actions]
    if bad.any():
        actions[bad] = np.array([np.flatnonzero(m)[-1] for m in mask[bad]])
    return actions, logp_all[np.arange(len(z)), actions]


class Collector:
    """One worker: ``num_envs`` games of the vector environment, kept across rounds."""

    def __init__(
        self, edition: str | Edition = "wm2006", players: int = 2, num_envs: int = 64, seed: int = 0, **options: Any
    ) -> None:
        """``options``: MilleVector's ``seat``, ``episode`` and ``reward`` (default ``"score"``)."""
        options.setdefault("reward", "score")
        self.env = MilleVector(edition, players, num_envs, seed, **options)
        self.rng = np.random.default_rng([seed, 0x5E1F])
        self._last: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None = None
        self.opponent: PolicyFn | None = None

    def _opponents(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        assert self.opponent is not None
        logits, _ = self.opponent(obs, mask)
        return sample_masked(logits, mask, self.rng)[0]

    def collect(self, policy: PolicyFn, steps: int, opponent: PolicyFn | None = None) -> Arrays:
        """``steps`` learner decisions in every game with ``policy`` (the other seats:
        ``opponent``, or the compiled random policy if ``None``): arrays ``obs``
        ``(steps, games, 270)``, ``mask``, ``actions``, ``logp``, ``rewards``, ``dones``,
        each extra of the policy, and ``last_obs``/``last_mask`` (where the next round
        starts) and ``matches`` (episodes finished in the round)."""
        env = self.env
        self.opponent = opponent
        env.opponents = None if opponent is None else self._opponents
        if self._last is None:
            self._last = env.reset()
        obs, mask = self._last
        rows: dict[str, list[npt.NDArray[Any]]] = {}
        for _ in range(steps):
            logits, extras = policy(obs, mask)
            actions, logp = sample_masked(logits, mask, self.rng)
            record = {"obs": obs.copy(), "mask": mask.copy(), "actions": actions, "logp": logp, **extras}
            obs, mask, rewards, dones = env.step(actions)
            record["rewards"], record["dones"] = rewards.copy(), dones.copy()
            for key, value in record.items():
                rows.setdefault(key, []).append(np.asarray(value))
        self._last = (obs.copy(), mask.copy())
        out = {k: np.stack(v) for k, v in rows.items()}
        out["last_obs"], out["last_mask"] = self._last
        out["matches"] = np.asarray(int(out["dones"].sum()) if steps else 0)
        return out


def collectors(n: int, *, backend: str = "local", seed: int = 0, **kwargs: Any) -> list[Any]:
    """``n`` collectors seeded ``seed, seed + 1, ...``: objects here, or Ray actor handles
    (``backend="ray"``; Ray is started locally unless the caller started or joined one)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "local":
        return [Collector(seed=seed + i, **kwargs) for i in range(n)]
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - the test extras include ray
        raise ImportError("backend='ray' needs Ray: pip install 'rallye[dist]'") from exc
    if not ray.is_initialized():
        ray.init(include_dashboard=False)
    remote = ray.remote(Collector)
    return [remote.remote(seed=seed + i, **kwargs) for i in range(n)]


def collect_all(workers: Sequence[Any], policy: PolicyFn, steps: int, opponent: PolicyFn | None = None) -> list[Arrays]:
    """One round on every collector (in parallel on Ray): their results, in order."""
    if workers and not isinstance(workers[0], Collector):
        import ray

        return list(ray.get([w.collect.remote(policy, steps, opponent) for w in workers]))
    return [w.collect(policy, steps, opponent) for w in workers]
