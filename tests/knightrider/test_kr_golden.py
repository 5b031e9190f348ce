"""The legal-action order is pinned by a golden file (regenerate with regen_golden.py)."""

from __future__ import annotations

import json

from regen_golden import GOLDEN, generate


def test_legal_action_order_matches_golden_file() -> None:
    stored = json.loads(GOLDEN.read_text("utf-8"))
    fresh = generate()
    for want, got in zip(stored["cases"], fresh["cases"], strict=False):
        for i, (w, g) in enumerate(zip(want["positions"], got["positions"], strict=False)):
            assert w == g, f"case seed {want['seed']} position {i}: legal actions changed"
        assert len(want["positions"]) == len(got["positions"])
    assert stored == fresh
