"""Regenerate the Mille Bornes golden files under ``tests/data/`` (DESIGN habit 10).

``mille_legal_order.json`` pins the order of ``legal_actions`` (the engine docstring's
"legal_actions order"): along fixed-seed games of each edition, every decision's legal
actions in notation, and the one chosen, one line per decision
(``h<hand> P<player>: <legal actions>; ... -> <chosen>``). The choices come from ``rallye.core.Rng`` (not
``random``), so the file depends only on the engine.

Run from the repository root after an intended change of the order, and review the diff::

    PYTHONPATH=src python tests/mille/regen_golden.py           # rewrite the file
    PYTHONPATH=src python tests/mille/regen_golden.py --check   # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rallye.core.rng import Rng
from rallye.mille import apply, legal_actions, new_match

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "mille_legal_order.json"

#: (edition, players, seed) of each pinned game, and how many decisions each keeps.
GAMES: tuple[tuple[str, int, int], ...] = (
    ("wm2006", 2, 1),
    ("wm2006", 6, 2),
    ("hu", 3, 3),
    ("hu", 4, 4),
    ("fxschmid", 2, 5),
    ("fxschmid", 6, 6),
    ("meilen", 2, 7),
    ("meilen", 5, 8),
)
STEPS = 100


def _choose(rng: Rng, n_plays: int, n: int) -> tuple[int, Rng]:
    """Mostly (3 in 4) a play or attack when there is one, else any action."""
    coin, rng = rng.randbelow(4)
    if n_plays and coin:
        return rng.randbelow(n_plays)
    return rng.randbelow(n)


def step_line(hand: int, player: int, legal: list[str], chosen: str) -> str:
    """One decision as one line: ``h0 P1: play D25; discard D25 -> play D25``."""
    return f"h{hand} P{player + 1}: {'; '.join(legal)} -> {chosen}"


def game_record(edition: str, players: int, seed: int, steps: int = STEPS) -> dict[str, Any]:
    state = new_match(edition, players, seed)
    rng = Rng.from_seed("golden", edition, players, seed)
    out: list[str] = []
    while state.phase != "over" and len(out) < steps:
        legal = legal_actions(state)
        n_plays = sum(1 for a in legal if a.verb != "discard")
        k, rng = _choose(rng, n_plays, len(legal))
        out.append(step_line(state.hand_no, state.current, [str(a) for a in legal], str(legal[k])))
        state = apply(state, legal[k])
    return {"edition": edition, "players": players, "seed": seed, "steps": out}


def generate() -> dict[str, Any]:
    return {
        "about": "legal_actions order along fixed-seed games; regenerate with tests/mille/regen_golden.py",
        "games": [game_record(*g) for g in GAMES],
    }


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the golden file is current")
    args = parser.parse_args(argv)
    text = dump(generate())
    if args.check:
        current = GOLDEN.exists() and GOLDEN.read_text(encoding="utf-8") == text
        print(f"{GOLDEN}: {'current' if current else 'STALE'}")
        return 0 if current else 1
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
