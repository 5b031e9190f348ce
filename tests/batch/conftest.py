from __future__ import annotations

import pytest


@pytest.fixture
def batch_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure engine deals every hand from the batched engine's shuffle."""
    from rallye.batch import batch_deck
    from rallye.mille import engine

    monkeypatch.setattr(
        engine, "shuffled_deck", lambda ed, players, seed, hand_no: batch_deck(ed, players, seed, hand_no)
    )
