"""Batched, compiled game engines: many games held in arrays and advanced together.

:class:`~rallye.batch.mille.MilleBatch` is Mille Bornes (every edition and player count)
compiled with numba, for research and search at millions of decisions a second; the
pure engine (:mod:`rallye.mille`) is its reference and the fallback, and needs neither.

It needs the optional extra: ``pip install 'rallye[fast]'`` (numba and numpy). Without
it, importing this package raises an :class:`ImportError` that says so.
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - the test extras include numba
    raise ImportError(
        f"rallye.batch (the batched, compiled engine) needs numba and numpy ({exc.name} is missing): "
        "pip install 'rallye[fast]'; the pure engine rallye.mille needs neither"
    ) from exc

from rallye.batch.mille import MilleBatch, batch_deck, batch_hand_seed

__all__ = ["MilleBatch", "batch_deck", "batch_hand_seed"]
