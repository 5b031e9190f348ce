"""How well the hand tracker knows the opponent's hand, against the deal sampler.

Plays 2-player wm2006 hands of ``fitted`` (seat 0, the expert's own side) against the
classic heuristic (seat 1, ``medium``: the opponent the tracker models), feeds
:class:`~rallye.agents.mille.tracker.HandTracker` seat 0's views at each of its decisions
in the play phase, and at each decision where the particles are active counts how many
cards a particle shares with the opponent's true hand (20 particles drawn at random),
against 20 deals of the sampler the searches use otherwise
(:func:`~rallye.agents.mille.sampler.sample_deal` with the exclusions and last-discard
inferences). Prints the means, and how often the particles started afresh (the hands'
first decisions included)::

    PYTHONPATH=src python research/tracker_knowledge.py --hands 20 --first-seed 1

The true hand is read from the state only to score the two guesses; neither sees it.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from rallye import mille
from rallye.agents.mille.heuristic import CLASSIC, FITTED
from rallye.agents.mille.sampler import discard_inferences, exclusions, sample_deal, unseen_cards
from rallye.agents.mille.search import heuristic_policy
from rallye.agents.mille.tracker import HandTracker
from rallye.mille.playout import Playout

DRAWS = 20  # particles and sampled deals scored a decision


def measure(hands: int, first_seed: int, particles: int) -> dict[str, float]:
    """Decisions followed, starts afresh, and the mean cards shared with the true hand by
    the tracker's particles and by the sampler's deals."""
    decisions = resets = 0
    tracked = sampled = 0.0
    for seed in range(first_seed, first_seed + hands):
        p = Playout(mille.new_match("wm2006", 2, seed=seed))
        tracker = HandTracker(particles, seed)
        rng = random.Random(seed)
        sheets = len(p.sheets)
        while not p.over and len(p.sheets) == sheets:
            if p.current == 0 and p.phase == "play":
                v = p.view(0)
                excl = exclusions(v) + discard_inferences(v)
                before = tracker.resets
                tracker.observe(v, excl)
                if tracker.active:
                    decisions += 1
                    resets += tracker.resets - before
                    true = Counter(p.hands[1])
                    parts = tracker.particles
                    tracked += sum(sum((Counter(rng.choice(parts)) & true).values()) for _ in range(DRAWS)) / DRAWS
                    pool = unseen_cards(v)
                    deals = (sample_deal(v, rng, excl, pool).hands[1] for _ in range(DRAWS))
                    sampled += sum(sum((Counter(h) & true).values()) for h in deals) / DRAWS
            style = FITTED if p.current == 0 else CLASSIC
            p.apply(heuristic_policy(p, p.legal_actions(), None, 0, style))
    n = max(1, decisions)
    return {"decisions": decisions, "resets": resets, "tracker": tracked / n, "sampler": sampled / n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20, help="hands to play (one a seed)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--particles", type=int, default=1000)
    args = ap.parse_args(argv)
    if args.hands < 1 or args.particles < 1:
        ap.error("--hands and --particles must be at least 1")
    m = measure(args.hands, args.first_seed, args.particles)
    print(
        f"{args.hands} hands from seed {args.first_seed}, {args.particles} particles: "
        f"{m['decisions']:.0f} decisions followed, {m['resets']:.0f} starts afresh (first decisions included)"
    )
    shared = f"tracker {m['tracker']:.2f}, sampler {m['sampler']:.2f}"
    print(f"cards shared with the opponent's true hand, a decision: {shared}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
