"""The ``learned`` level: a neural network trained on a bot's decisions, played with NumPy alone.

One network serves every table size: it reads a view as the 270 floats of
:mod:`rallye.agents.mille.encoding` (version 1, the research environments' observation: my
hand, what I have not seen, the discard pile, every side's tableau relative to mine, absent
seats zero and flagged, the rules' flags, team game or not), two hidden layers with ReLU, and
gives a score to each of the engine's 70 action codes; the bot plays the legal move scored
highest (no sampling: the same view gives the same move). The extension decision and the
coups fourrés are moves like any other.

It was trained (``research/train_learned.py``; docs/bots.md gives the command, the figures and
what they were measured against) on wm2006 at 2, 3, 4 (two teams of two) and 6 players (three
teams of two), cloned from the ``distilled`` bot's decisions against itself, ``medium`` and
the six zoo styles at every size; population self-play PPO on the batched engine from that
clone did not improve on it within the CPU it had, so the clone ships. The encoding is
defined for every edition and player count, so the bot plays them all (legal by
construction: it picks among the legal moves it is given), but its training saw wm2006 only.

The weights ship with the package (``data/learned_wm2006.npz``: float16 arrays ``w0 b0 w1 b1
pi_w pi_b``, each ``w`` as ``(inputs, outputs)``, and ``meta``, the training's settings as
JSON bytes). NumPy is imported when the bot is made, not when the bots are registered:
importing ``rallye`` or listing the bots needs no NumPy; making this bot without it raises
:class:`LearnedUnavailable` (``pip install 'rallye[learned]'``). No training library is ever
imported to play.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

from rallye.agents.base import register
from rallye.mille.actions import NUM_ACTIONS, Action
from rallye.mille.view import MilleView

if TYPE_CHECKING:
    import numpy as np

#: The weights shipped with the package (``rallye/agents/data``).
WEIGHTS_FILE = "learned_wm2006.npz"
#: The observation encoding's version the network reads (:mod:`rallye.agents.mille.encoding`).
OBS_VERSION = 1
OBS_SIZE = 270


class LearnedUnavailable(ValueError):
    """The ``learned`` bot cannot be made here (NumPy is missing)."""


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as exc:
        raise LearnedUnavailable("the 'learned' bot needs NumPy: pip install 'rallye[learned]' (or numpy)") from exc
    return numpy


@dataclass(frozen=True)
class Network:
    """The layers ``(w, b)`` (float32, ``w`` as ``(inputs, outputs)``), the last one the
    policy head (70 outputs), and the training's metadata."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    meta: Mapping[str, Any]

    @classmethod
    def from_npz(cls, data: bytes, source: str = "weights") -> Network:
        """Read a weights file (the bytes of an ``.npz``); anything else, or a wrong shape,
        raises ``ValueError`` naming what is wrong."""
        np = _numpy()
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{source}: not a weights file (an .npz of arrays): {exc}") from None
        try:
            meta = json.loads(bytes(arrays.pop("meta", np.zeros(0, np.uint8)).astype(np.uint8)).decode() or "{}")
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{source}: 'meta' is not JSON bytes: {exc}") from None
        if not isinstance(meta, dict):
            raise ValueError(f"{source}: 'meta' must be a JSON object")
        names = []
        i = 0
        while f"w{i}" in arrays:
            names.append((f"w{i}", f"b{i}"))
            i += 1
        names.append(("pi_w", "pi_b"))
        missing = [n for pair in names for n in pair if n not in arrays]
        if missing or not i:
            raise ValueError(f"{source}: missing arrays {', '.join(missing) or 'w0, b0'}")
        extra = sorted(set(arrays) - {n for pair in names for n in pair})
        if extra:
            raise ValueError(f"{source}: unexpected arrays {', '.join(extra)}")
        layers = []
        width = OBS_SIZE
        for wn, bn in names:
            w, b = arrays[wn], arrays[bn]
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(
                    f"{source}: {wn} {tuple(w.shape)} and {bn} {tuple(b.shape)} do not follow a width of {width}"
                )
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError(f"{source}: {wn} or {bn} holds a value that is not a finite number")
            layers.append((w.astype(np.float32), b.astype(np.float32)))
            width = w.shape[1]
        if width != NUM_ACTIONS:
            raise ValueError(f"{source}: the policy head gives {width} scores, not one per action code ({NUM_ACTIONS})")
        return cls(tuple(layers), meta)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The 70 action codes' scores for one observation (or a batch of them)."""
        h = x
        for w, b in self.layers[:-1]:
            h = (h @ w + b).clip(0.0, None)  # ReLU
        w, b = self.layers[-1]
        return cast("np.ndarray", h @ w + b)


@cache
def shipped_network() -> Network:
    """The network that ships with the package (:data:`WEIGHTS_FILE`)."""
    data = resources.files("rallye.agents").joinpath("data", WEIGHTS_FILE).read_bytes()
    return Network.from_npz(data, WEIGHTS_FILE)


class LearnedAgent:
    """Plays the legal move the network scores highest (module docstring). ``network``: a
    :class:`Network` (default: the shipped one)."""

    def __init__(self, seed: int = 0, *, network: Network | None = None, name: str = "learned") -> None:
        _numpy()
        from rallye.agents.mille.encoding import CODE_BY_ID, ViewEncoder

        self.name = name
        self.network = network if network is not None else shipped_network()
        self._encoder = ViewEncoder()
        self._code = CODE_BY_ID
        #: the last decision's scores of the legal moves
        self.last_scores: dict[Action, float] = {}

    def choose(self, view: MilleView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_scores = {}
        if len(legal) == 1:
            return legal[0]
        scores = self.network.scores(self._encoder.encode(view))
        values = [float(scores[self._code.get(id(a), a.code)]) for a in legal]
        self.last_scores = dict(zip(legal, values, strict=True))
        return legal[max(range(len(legal)), key=values.__getitem__)]


register("mille", "learned", lambda seed: LearnedAgent(seed))
