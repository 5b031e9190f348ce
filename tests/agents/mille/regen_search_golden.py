"""Regenerate ``tests/data/mille_search_decisions.json``: the Mille Bornes search's decisions
pinned, so that a change meant to make it faster (the engine's fast path for rollouts, say)
can be shown to leave every decision as it was.

Along one fixed-seed hand of each game below, seat 0 is the determinized search with
``expert``'s settings at ``hard``'s budget (the others the heuristic); for each of its
decisions the file keeps the move, the deals and engine steps spent, and every candidate's
paired gain and standard error (rounded to 6 decimals). The file was written by the engine
before its rollouts took the fast path (:mod:`rallye.mille.playout`).

Run from the repository root only after an intended change of the search's play, and
review the diff::

    PYTHONPATH=src python tests/agents/mille/regen_search_golden.py           # rewrite the file
    PYTHONPATH=src python tests/agents/mille/regen_search_golden.py --check   # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rallye import mille
from rallye.agents.mille.heuristic import FITTED, HeuristicAgent
from rallye.agents.mille.search import PimcAgent

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "mille_search_decisions.json"

#: (edition, players, seed) of each pinned hand
GAMES: tuple[tuple[str, int, int], ...] = (
    ("wm2006", 2, 1),
    ("wm2006", 2, 2),
    ("hu", 3, 3),
    ("fxschmid", 4, 4),
    ("meilen", 2, 5),
)


def searcher(seed: int) -> PimcAgent:
    """``expert``'s settings (fitted style, top 4 and 3 more discards, 12 steps, to the end
    from 20 cards, 1 standard error) at ``hard``'s budget, without a CPU ceiling."""
    return PimcAgent(
        seed,
        deals=24,
        plies=1200,
        top_k=4,
        extra_discards=3,
        horizon=12,
        endgame=20,
        z=1.0,
        min_gain=0.0,
        style=FITTED,
    )


def game_record(edition: str, players: int, seed: int) -> dict[str, Any]:
    state = mille.new_match(edition, players, seed=seed)
    bots: list[Any] = [searcher(seed)] + [HeuristicAgent(seed + p) for p in range(1, players)]
    steps: list[dict[str, Any]] = []
    while state.phase != "over" and not state.sheets:
        view = mille.view_for(state, state.current)
        action = bots[state.current].choose(view, mille.legal_from_view(view))
        if state.current == 0:
            bot = bots[0]
            steps.append(
                {
                    "move": str(action),
                    "deals": bot.last_deals,
                    "plies": bot.last_plies,
                    "gains": {str(a): [round(g, 6), round(se, 6)] for a, (g, se) in sorted(
                        bot.last_gains.items(), key=lambda kv: str(kv[0]))},
                }
            )  # fmt: skip
        state = mille.apply(state, action)
    return {"edition": edition, "players": players, "seed": seed, "steps": steps}


def generate() -> dict[str, Any]:
    return {"games": [game_record(*g) for g in GAMES]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the file is stale; write nothing")
    args = ap.parse_args(argv)
    data = generate()
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.check:
        stale = not GOLDEN.exists() or GOLDEN.read_text(encoding="utf-8") != text
        print(f"{GOLDEN.name}: {'stale' if stale else 'up to date'}")
        return 1 if stale else 0
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN} ({sum(len(g['steps']) for g in data['games'])} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
