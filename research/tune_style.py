"""Climb the Mille Bornes heuristic's weights (``Style``) against the classic heuristic.

A coordinate search over the fields of :class:`rallye.agents.mille.heuristic.Style`, scored
in duplicate single hands of 2-player wm2006 against the classic heuristic (``medium``):
every deal seed is played twice with the seats swapped, and a style's score on a deal is
its mean point margin over the two hands. A step (one weight moved up or down by its step
size) is taken when it beats the incumbent *on the same deals* by more than ``--z``
standard errors of the paired difference; a taken step is repeated while it keeps
winning. Later rounds halve the steps. Every trial is printed, and the end prints the
style as Python and as JSON.

    PYTHONPATH=src python research/tune_style.py --start fitted --deals 3000 --rounds 2
    PYTHONPATH=src python research/tune_style.py --start climbed --only km_surplus,d200_keep
    PYTHONPATH=src python research/tune_style.py --check '{"hazard_keep": 45}' --deals 2000

``--check JSON`` plays one style (the start style with these fields changed) against the
start style on the deals and prints the paired margin and hands won; nothing is climbed.
Climbing on one set of deals overfits it a little: check the result on fresh seeds, in
matches, with ``research/ladder.py`` (the style goes in ``STYLES`` under a name). Not a
test: a climb plays some hundred thousand hands (about 10 s per 6,000 on two cores).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from typing import Any

from rallye import mille
from rallye.agents.mille.heuristic import CLASSIC, STYLES, Style, best_action

#: The weights climbed and their first step sizes (bools are flipped, ints step by whole units).
STEPS: dict[str, float] = {
    "km_base": 10.0,
    "end_of_limit": 15.0,
    "roll": 100.0,
    "risky_when_close": 1,
    "remedy": 100.0,
    "safety_tempo": 100.0,
    "risky_draw_per_player": 1,
    "risky_remaining": 50,
    "cf_weight": 150.0,
    "leader_bonus": 30.0,
    "limit_penalty": 60.0,
    "spare_200": 40.0,
    "roll_copy": 10.0,
    "limit_keep": 15.0,
    "hazard_keep": 15.0,
    "roll_keep": 20.0,
    "remedy_keep": 15.0,
    "remedy_unseen": 3.0,
    "remedy_copy": 10.0,
    "attack_progress": 100.0,
    "scarce_remedy": 8.0,
    "limit_rolling": 40.0,
    "safety_idle": 30.0,
    "safety_risky": 100.0,
    "km_surplus": 20.0,
    "d200_keep": 20.0,
    "hazard_copy": 10.0,
}

Job = tuple[Style, Style, int]  # the style tried, its opponent's, the deal seed


def play_deal(job: Job) -> float:
    """The tried style's mean margin over one deal's two hands (seats swapped)."""
    style, other, deal = job
    total = 0.0
    for seat in (0, 1):
        s = mille.new_match("wm2006", 2, seed=deal)
        styles = {seat: style, 1 - seat: other}
        while not s.sheets:
            v = mille.view_for(s, s.current)
            s = mille.apply(s, best_action(v, mille.legal_from_view(v), styles[s.current]))
        pts = s.sheets[0].hand_totals
        total += pts[seat] - pts[1 - seat]
    return total / 2


def margins(pool: multiprocessing.pool.Pool, style: Style, deals: Sequence[int], other: Style = CLASSIC) -> list[float]:
    return pool.map(play_deal, [(style, other, d) for d in deals], chunksize=50)


def paired(xs: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean paired difference and its standard error."""
    d = [x - b for x, b in zip(xs, base, strict=True)]
    return statistics.fmean(d), statistics.stdev(d) / math.sqrt(len(d))


def moved(style: Style, name: str, step: float) -> Style:
    """``style`` with weight ``name`` moved by ``step`` (a bool flipped; a count by whole
    units, never below 0)."""
    value = getattr(style, name)
    new: Any
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = max(0, value + int(step))
    else:
        new = round(value + step, 3)
    return dataclasses.replace(style, **{name: new})


def as_weights(style: Style, given: Any) -> dict[str, Any]:
    """``--check``'s JSON object as weights of ``style``: a whole number given for a weight
    that is a float (``{"hazard_keep": 45}``) becomes one, as the compiled build's ``Style``
    (``scripts/compile``) would store it, so both builds step it and print it alike."""
    if not isinstance(given, dict):
        raise ValueError('a JSON object of weights, such as {"hazard_keep": 45}')
    return {
        k: float(v) if isinstance(getattr(style, k, None), float) and type(v) is int else v for k, v in given.items()
    }


def changed(style: Style, base: Style = CLASSIC) -> dict[str, float]:
    return {
        f.name: getattr(style, f.name)
        for f in dataclasses.fields(style)
        if f.init and getattr(style, f.name) != getattr(base, f.name)
    }


def climb(
    pool: multiprocessing.pool.Pool,
    start: Style,
    deals: Sequence[int],
    rounds: int,
    z: float,
    only: Sequence[str] | None = None,
) -> Style:
    """The coordinate search (module docstring) over ``only`` the named weights (default: all
    of :data:`STEPS`)."""
    steps = {name: STEPS[name] for name in only} if only else STEPS
    best = start
    best_m = margins(pool, best, deals)
    print(f"start: margin a hand {statistics.fmean(best_m):+.1f} against classic  {changed(best)}", flush=True)
    for rnd in range(rounds):
        scale = 0.5**rnd
        for name, step in steps.items():
            is_bool = isinstance(getattr(best, name), bool)
            if is_bool and rnd:
                continue
            directions = (1.0,) if is_bool else (1.0, -1.0)
            for sign in directions:
                size = step if isinstance(getattr(best, name), int) else step * scale
                taken = False
                while True:
                    cand = moved(best, name, sign * size)
                    if cand == best:
                        break
                    m = margins(pool, cand, deals)
                    gain, se = paired(m, best_m)
                    ok = gain > z * se
                    print(
                        f"round {rnd + 1} {name}={getattr(cand, name)!r}: {gain:+.2f} +- {se:.2f} a hand "
                        f"(vs {statistics.fmean(m):+.1f} against classic) {'TAKEN' if ok else ''}",
                        flush=True,
                    )
                    if not ok:
                        break
                    best, best_m, taken = cand, m, True
                    if is_bool:
                        break
                if taken:
                    break  # no need to try the other direction
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", default="fitted", choices=sorted(STYLES), help="the style to start from")
    ap.add_argument("--deals", type=int, default=3000, help="deal seeds (each played twice)")
    ap.add_argument("--first-seed", type=int, default=5_000_000)
    ap.add_argument("--rounds", type=int, default=2, help="passes over the weights (steps halve each round)")
    ap.add_argument("--z", type=float, default=2.0, help="standard errors a step must win by")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", help="comma-separated weights to climb (default: every weight in STEPS)")
    ap.add_argument("--check", help="JSON of fields: play that style against the start style, no climb")
    args = ap.parse_args()
    if args.deals < 2:
        ap.error("--deals: at least 2 (the paired standard error needs two deals)")
    only = args.only.split(",") if args.only else None
    if only and not set(only) <= set(STEPS):
        ap.error(f"--only: unknown weights {sorted(set(only) - set(STEPS))}; weights are {', '.join(STEPS)}")
    start = STYLES[args.start]
    deals = range(args.first_seed, args.first_seed + args.deals)
    t = time.time()
    with multiprocessing.Pool(args.workers) as pool:
        if args.check:
            try:
                cand = dataclasses.replace(start, **as_weights(start, json.loads(args.check)))
            except (ValueError, TypeError) as e:
                ap.error(f"--check: {e}")
            m, base = margins(pool, cand, deals), margins(pool, start, deals)
            gain, se = paired(m, base)
            won = statistics.fmean(margins(pool, cand, deals, other=start))
            print(
                f"{changed(cand, start)} against {args.start}, {args.deals} deals: paired margin against classic "
                f"{gain:+.2f} +- {se:.2f} a hand; head to head {won:+.1f} a hand"
            )
            return
        best = climb(pool, start, deals, args.rounds, args.z, only)
    print(f"done in {time.time() - t:.0f} s")
    print(f"Style({', '.join(f'{k}={v!r}' for k, v in changed(best).items())})")
    print(json.dumps(changed(best)))


if __name__ == "__main__":
    main()
