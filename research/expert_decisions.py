"""Record ``expert``'s own estimates of its candidate moves: data to fit or distil a policy from.

Plays ``--matches`` 2-player 5000-point matches of ``expert`` (its whole count budget, as
tournaments play it) against ``medium``, deal seeds ``--first-seed`` on, the expert in seat
``seed % 2``, on ``--workers`` processes, and writes one JSON line per expert decision
that the search decided (more than one candidate) to ``--out``::

    {"deal": 7, "seat": 1, "hand": 0, "view": {...}, "candidates": ["discard D25", ...],
     "gains": {"discard D75": [12.5, 4.1], ...}, "chosen": "discard D75", "deals": 160,
     "plies": 8400}

``view`` is the expert's view (``MilleView.to_json()``, documented in ``docs/view-json.md``;
``MilleView.from_json`` reads it back); ``candidates`` the moves the search compared in
notation, its default (the ``fitted`` heuristic's best) first; ``gains`` each alternative's
mean paired gain over the default in points and its standard error, as the search measured
them on its sampled deals (``PimcAgent.last_gains``); ``chosen`` the move played. Lines are
written as each match ends, so a run stopped early keeps its finished matches; the order
of matches follows their seeds.

Earlier sessions chose the ``tuned`` and ``fitted`` weights of the heuristic on such
records (in a prototype); with this script they can be made again, and a policy distilled
from them (the best published Mille Bornes bot wins 75.8 % with a distilled network) is the
next step towards the 70 % goal (docs/bots.md, "Mille Bornes bots").

    python research/expert_decisions.py --matches 100 --out /tmp/expert.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.search import PimcAgent


def play(job: tuple[int, str]) -> list[dict[str, Any]]:
    """One match of ``expert`` against ``medium``; the records of the expert's searched decisions."""
    seed, expert = job
    seat = seed % 2
    s = mille.new_match("wm2006", 2, seed=seed)
    bot = make_agent("mille", expert, 1000 + seed, exact=True)
    if not isinstance(bot, PimcAgent):
        raise ValueError(f"{expert!r} is not a search bot: it has no estimates to record")
    bots = {seat: bot, 1 - seat: make_agent("mille", "medium", 2000 + seed)}
    out: list[dict[str, Any]] = []
    while not mille.is_over(s):
        v = mille.view_for(s, s.current)
        a = bots[s.current].choose(v, mille.legal_from_view(v))
        if s.current == seat and bot.last_candidates:
            out.append(
                {
                    "deal": seed,
                    "seat": seat,
                    "hand": v.hand_no,
                    "view": v.to_json(),
                    "candidates": [str(c) for c in bot.last_candidates],
                    "gains": {str(c): [g, se] for c, (g, se) in bot.last_gains.items()},
                    "chosen": str(a),
                    "deals": bot.last_deals,
                    "plies": bot.last_plies,
                }
            )
        s = mille.apply(s, a)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bot", default="expert", help="the search level (or registered search bot) recorded")
    ap.add_argument("--out", type=Path, required=True, help="the JSON-lines file written")
    args = ap.parse_args(argv)
    if args.matches < 1 or args.workers < 1:
        ap.error("--matches and --workers must be at least 1")
    try:
        searches = isinstance(make_agent("mille", args.bot, 0), PimcAgent)
    except ValueError as e:
        ap.error(f"--bot: {e}")
    if not searches:
        ap.error(f"--bot: {args.bot!r} is not a search bot: it has no estimates to record")
    jobs = [(seed, args.bot) for seed in range(args.first_seed, args.first_seed + args.matches)]
    records = 0
    with contextlib.ExitStack() as stack:
        try:  # opened before the first match: a bad path fails at once, not after an hour of play
            f = stack.enter_context(args.out.open("w"))
        except OSError as e:
            ap.error(f"--out: cannot write {args.out}: {e.strerror}")
        if args.workers == 1:  # in this process
            results: Iterator[list[dict[str, Any]]] = map(play, jobs)
        else:
            results = stack.enter_context(multiprocessing.Pool(args.workers)).imap(play, jobs)
        for rows in results:
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()
            records += len(rows)
    print(f"{records} decisions of {args.bot} from {args.matches} matches written to {args.out}")


if __name__ == "__main__":
    main()
