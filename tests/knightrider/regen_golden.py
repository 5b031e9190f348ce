"""Regenerate the golden legal-action order file: ``python tests/knightrider/regen_golden.py``.

The file pins ``legal_actions`` order (and, through the chosen actions, the engine's chance
use) for a few fixed seeds: for each position, the first actions in notation, how many
there are, and a SHA-256 of the whole list. Regenerate only after a deliberate change to
the rules, the order or the notation, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from rallye.core.rng import Rng  # noqa: E402
from rallye.knightrider import Options, apply, is_over, legal_actions, new_game  # noqa: E402

GOLDEN = HERE.parent / "data" / "knightrider" / "legal_order.json"
CASES = [
    {"players": 2, "seed": 1, "options": {}, "steps": 12},
    {"players": 3, "seed": 7, "options": {"quick_build": True}, "steps": 40},
    {"players": 5, "seed": 42, "options": {"quick_build": True, "shuffle_cards": True, "tour": 1}, "steps": 40},
]
SHOW = 12


def generate() -> dict[str, Any]:
    out = []
    for case in CASES:
        s = new_game(case["players"], case["seed"], Options(**case["options"]))
        r = Rng.from_seed("golden", case["seed"])
        positions = []
        for _ in range(case["steps"]):
            if is_over(s):
                break
            texts = [str(a) for a in legal_actions(s)]
            positions.append(
                {
                    "phase": s.phase,
                    "player": s.current,
                    "count": len(texts),
                    "first": texts[:SHOW],
                    "sha256": hashlib.sha256("\n".join(texts).encode()).hexdigest(),
                }
            )
            i, r = r.randbelow(len(texts))
            s = apply(s, legal_actions(s)[i])
        out.append({**case, "positions": positions})
    return {"format": "rallye-knightrider-golden/1", "cases": out}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(generate(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
