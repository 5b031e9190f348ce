"""Decision quality of Mille Bornes bots: points gained per decision over the heuristic.

Game results are noisy (a 2-player hand swings by many hundreds of points), so comparing
two search settings by playing takes thousands of hands. This benchmark measures the
decisions themselves:

1. **Positions.** ``--hands`` 2-player wm2006 hands of ``expert`` against ``medium`` are
   played; every ``--every``-th decision of the expert seat with a choice is kept (the
   true state and that seat's view).
2. **Oracle values.** For each position, each of the heuristic's ``--candidates`` best
   moves (``0``: every legal move) is played and followed by the heuristic for every seat
   *to the end of the hand*, ``--rollouts`` times, each time on the TRUE hidden hands with
   the draw pile reshuffled (the same shuffles for every candidate). The mean point margin
   is the candidate's value: what the move is worth, given the hands really held, if
   everybody then plays the heuristic. ``--own STYLE`` plays the deciding side's later
   turns with that style's weights instead of the classic ones (the opponent stays
   classic, as ``medium`` and the search's opponent model are).
3. **Scoring.** Each bot (given only the view) chooses; its gain is the oracle value of
   its choice minus that of the heuristic's choice. Printed per bot: mean gain per
   decision with a 95 % interval, how many decisions differ from the heuristic's, and
   seconds per decision (mean, p95, max, wall clock).

A bot's gain here is a one-step improvement over the heuristic (later moves are the
heuristic's), so it ranks search settings cheaply; game results (``ladder.py``) remain the
proof. "oracle best" is the mean gain of the best candidate by the oracle values: an upper
bound for a bot choosing among those candidates, biased upwards by the oracle's own noise.

    PYTHONPATH=src python research/mille_decisions.py --hands 12 --rollouts 160 \\
        --bots medium,hard,expert --cache /tmp/positions.pkl

Bots are registered names or ``pimc/key=value/...`` (see ``ladder.py``); levels play their
whole count budgets (no CPU ceiling), so the figures reproduce on any machine. Every bot after
the first is also compared with the first *paired*, position by position ("vs first": the
mean difference of the two gains with its 95 % interval), which separates far smaller
differences than the two intervals do. With ``--cache`` the positions and oracle values are
built once and reused (the file is rebuilt when the settings that made it differ).

A diagnostic, not a bot: ``truehands:SPEC`` is the search ``SPEC`` (a level or a ``pimc``
spec) given the *true* hidden hands of each position (only the draw pile's order is
reshuffled, deal by deal). It cheats; its gain over ``SPEC`` is the most that better
reading of the hidden cards (the sampler's inferences) could add to that search, a bound no
inference reaches in full: it sees the same true hands the oracle values the moves on.
``truehands-but-GROUP:SPEC`` (GROUP one of ``safeties``, ``remedies``, ``hazards``,
``distance``) is the same cheat with the cards of that group hidden again: deal by deal,
each hidden copy of the group (in the others' hands or the draw pile) trades places with a
card at a random hidden place, so where those cards lie is a guess while the rest stays
true. What ``truehands`` gains over ``truehands-but-GROUP`` is what knowing where that
group's cards are is worth: it says which inference would pay.

``--pairs STYLE`` also prints, by kind of move, how much the oracle prefers each other
candidate to ``STYLE``'s heuristic move (mean, standard error, z): where the oracle and the
heuristic disagree systematically. Read it with care for discards: the oracle values a
move by the heuristic's play afterwards (the classic one's, or ``--own``'s for the deciding
side), and which card is worth keeping depends on how the rest of the hand is played
(docs/bots.md, "Mille Bornes bots").

Which continuation to trust: the bots' own later turns are not the classic heuristic's,
and a verdict valued by classic play afterwards can mislead. Measured on the 1,358
positions of ``--hands 96 --first-seed 50000``, paired against ``expert``, next to what
the same change did in matches against ``medium`` (points of win rate, ``ladder.py``):
with ``--own fitted --candidates 0`` the cheat ``truehands:expert`` +7.2 (matches +8.0),
expert in the classic style -2.5 (matches -3.3, unpaired), in the tuned style -1.0 (-0.8),
``leaf=decisions`` +1.4 (-1.0), ``leaf=1`` +1.8 (+0.2) (two leaves since retired); by the classic continuation +6.2,
+2.5 (the wrong sign), -0.1, +3.6 and +1.2. Neither sees what the ``distilled`` default
costs (+0.2 and +0.1; matches -6.8). Those oracle values came from this option's prototype
(equal to the option's at the same seeds), on other shuffles: docs/bots.md, "Mille Bornes bots".

A bot that follows the hand (``pimc/.../track=N``, :mod:`rallye.agents.mille.tracker`) is
first shown the views its seat had at its earlier decisions of that hand, as in a game:
the positions' games are played once more for them (the same games, as every bot in them
is deterministic; checked against the cached positions).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import pickle
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, Self

from ladder import CHEAT, build

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.heuristic import CLASSIC, STYLES, Style, rank_actions
from rallye.agents.mille.sampler import Exclusion
from rallye.agents.mille.search import PimcAgent, hand_outcome, heuristic_policy, pile_counts
from rallye.core.values import attributes
from rallye.mille.actions import Action
from rallye.mille.cards import DISTANCE_KM, HAZARDS, REMEDIES, SAFETIES
from rallye.mille.engine import apply
from rallye.mille.playout import Playout
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

Position = tuple[MilleState, MilleView, tuple[Action, ...]]


def positions(hands: int, every: int, first_seed: int) -> list[Position]:
    return [p for p, _ in positions_with_history(hands, every, first_seed)]


def positions_with_history(hands: int, every: int, first_seed: int) -> list[tuple[Position, tuple[MilleView, ...]]]:
    """The positions, each with the views the expert seat had at its earlier decisions of
    that hand (what a bot that remembers the hand, ``pimc/.../track=N``, is shown first)."""
    out: list[tuple[Position, tuple[MilleView, ...]]] = []
    k = 0
    for seed in range(first_seed, first_seed + hands):
        seat = seed % 2
        s = mille.new_match("wm2006", 2, seed=seed)
        bots = {seat: make_agent("mille", "expert", seed, exact=True), 1 - seat: make_agent("mille", "medium", seed)}
        earlier: list[MilleView] = []
        while not mille.is_over(s) and not s.sheets:
            v = mille.view_for(s, s.current)
            legal = mille.legal_from_view(v)
            if s.current == seat:
                if len(legal) > 1:
                    if k % every == 0:
                        out.append(((s, v, legal), tuple(earlier)))
                    k += 1
                earlier.append(v)
            s = mille.apply(s, bots[s.current].choose(v, legal))
    return out


def _to_end(
    s: MilleState, side: int, own: Style = CLASSIC, piles: Sequence[dict[str, int]] | None = None, start: int = 0
) -> float:
    """The hand played out: ``side``'s seats by the heuristic in ``own``'s weights, every
    other seat by the classic heuristic (the opponent model, and the bots' opponent); on
    the engine's fast path, as the search's rollouts are."""
    p = Playout(s)
    steps = 0
    while p.phase != "over" and not p.sheets and steps < 400:
        style = own if p.side_of[p.current] == side else CLASSIC
        p.apply(heuristic_policy(p, p.legal_actions(), piles, start, style))
        steps += 1
    return hand_outcome(p.state(), side, 0, 1500.0)


def oracle(job: tuple[Position, int, int, int, str]) -> dict[Action, float]:
    """Each candidate's mean margin over ``rollouts`` reshuffles of the true draw pile: the
    classic heuristic's best ``n_cands`` moves (0: every legal move), continued with the
    deciding side's turns in the style named last (``--own``)."""
    (state, view, legal), rollouts, n_cands, seed, own_name = job
    own = STYLES[own_name]
    ranked = [a for _, a in rank_actions(view, legal)]
    cands = ranked[:n_cands] if n_cands > 0 else ranked
    rng = random.Random(seed)
    pile = list(state.deck[state.draw_pos :])
    sums = dict.fromkeys(cands, 0.0)
    for _ in range(rollouts):
        rng.shuffle(pile)
        root = state._replace(deck=state.deck[: state.draw_pos] + tuple(pile))
        piles = pile_counts(root.deck, root.draw_pos)
        for a in cands:
            sums[a] += _to_end(apply(root, a), view.side, own, piles, root.draw_pos)
    return {a: v / rollouts for a, v in sums.items()}


#: One scored position: the true state, the deciding seat's view, its legal actions and
#: the oracle value of each candidate.
Scored = tuple[MilleState, MilleView, tuple[Action, ...], dict[Action, float]]


def load_or_build(args: argparse.Namespace) -> list[Scored]:
    key: tuple[Any, ...] = ("states", args.hands, args.every, args.first_seed, args.rollouts, args.candidates)
    if args.own != "classic":  # (caches built before --own keep their key)
        key += (args.own,)
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            cached = pickle.load(f)
        if cached["key"] == key:
            return cached["data"]  # type: ignore[no-any-return]
    t = time.time()
    pos = positions(args.hands, args.every, args.first_seed)
    jobs = [(p, args.rollouts, args.candidates, i, args.own) for i, p in enumerate(pos)]
    with multiprocessing.Pool(args.workers) as pool:
        values = pool.map(oracle, jobs, chunksize=1)
    data = [(s, v, legal, o) for (s, v, legal), o in zip(pos, values, strict=True)]
    print(f"{len(data)} positions from {args.hands} hands, oracle built in {time.time() - t:.0f} s", flush=True)
    if args.cache:
        with open(args.cache, "wb") as f:
            pickle.dump({"key": key, "data": data}, f)
    return data


class TrueHands(PimcAgent):
    """The diagnostic ``truehands:SPEC``: the search of ``SPEC`` sampling only the draw
    pile's order, the hidden hands being the true ones of ``state`` (set per position)."""

    state: MilleState

    @classmethod
    def of(cls, inner: PimcAgent) -> Self:
        bot = cls.__new__(cls)
        for name, value in attributes(inner).items():  # also of a compiled search (scripts/compile)
            setattr(bot, name, value)
        return bot

    def _sample(self, view: MilleView, excl: Sequence[Exclusion], pool: Sequence[str]) -> MilleState:
        s = self.state
        pile = list(s.deck[s.draw_pos :])
        self.rng.shuffle(pile)
        return s._replace(deck=s.deck[: s.draw_pos] + tuple(pile), seed=0)


#: The card groups ``truehands-but-GROUP`` can hide again.
GROUPS: dict[str, frozenset[str]] = {
    "safeties": frozenset(SAFETIES),
    "remedies": frozenset(REMEDIES),
    "hazards": frozenset(HAZARDS),
    "distance": frozenset(DISTANCE_KM),
}


class TrueButGroup(TrueHands):
    """``truehands-but-GROUP:SPEC``: the true hidden cards, less where ``hidden``'s lie."""

    hidden: frozenset[str]

    def _sample(self, view: MilleView, excl: Sequence[Exclusion], pool: Sequence[str]) -> MilleState:
        s = self.state
        me = view.seat
        # every hidden place: the others' hands, then the draw pile
        places = [(p, i) for p in range(s.n_players) if p != me for i in range(len(s.hands[p]))]
        places += [(-1, i) for i in range(len(s.deck) - s.draw_pos)]
        hands = [list(h) for h in s.hands]
        pile = list(s.deck[s.draw_pos :])

        def get(place: tuple[int, int]) -> str:
            p, i = place
            return pile[i] if p < 0 else hands[p][i]

        def put(place: tuple[int, int], card: str) -> None:
            p, i = place
            if p < 0:
                pile[i] = card
            else:
                hands[p][i] = card

        rng = self.rng
        for place in [q for q in places if get(q) in self.hidden]:
            other = places[rng.randrange(len(places))]
            a, b = get(place), get(other)
            put(place, b)
            put(other, a)
        rng.shuffle(pile)
        return s._replace(hands=tuple(tuple(h) for h in hands), deck=s.deck[: s.draw_pos] + tuple(pile), seed=0)


def _cheat(spec: str) -> tuple[str, frozenset[str] | None, str]:
    """(``truehands``, ``truehands-but-GROUP`` or ``""``; the group's cards; the inner spec)."""
    head, sep, inner = spec.partition(":")
    if not sep or not head.startswith(CHEAT):
        return "", None, spec
    if head == CHEAT:
        return head, None, inner
    group = head.removeprefix(f"{CHEAT}-but-")
    if group not in GROUPS:
        raise ValueError(f"no card group {group!r} in {spec!r}; groups are {', '.join(GROUPS)}")
    return head, GROUPS[group], inner


def cheat_of(spec: str, seed: int, exact: bool = True) -> TrueHands:
    """The diagnostic ``truehands:SPEC`` or ``truehands-but-GROUP:SPEC`` around the search
    ``SPEC`` built with ``seed``; its ``state`` is to be set to the true one before each
    decision."""
    cheat, hidden, inner = _cheat(spec)
    if not cheat:
        raise ValueError(f"{spec!r} is not a truehands diagnostic")
    bot = build(inner, seed, exact)
    if not isinstance(bot, PimcAgent):
        raise ValueError(f"{cheat}: needs a search bot (pimc), not {spec!r}")
    if hidden is None:
        return TrueHands.of(bot)
    hiding = TrueButGroup.of(bot)
    hiding.hidden = hidden
    return hiding


def gains_of(
    spec: str, data: Sequence[Scored], history: Sequence[tuple[MilleView, ...]] | None = None
) -> tuple[list[float | None], list[float], int]:
    """Per position the bot's gain over the heuristic's move (``None`` for a move outside the
    oracle's candidates), the seconds per decision, and how many decisions differ from the
    heuristic's. A bot that follows the hand (``track``) is first shown ``history``'s
    views of that position (its seat's earlier decisions in the hand, not timed)."""
    cheat = _cheat(spec)[0]
    gains: list[float | None] = []
    times: list[float] = []
    changed = 0
    for i, (state, view, legal, values) in enumerate(data):
        heuristic = rank_actions(view, legal)[0][1]
        bot: Any = build(spec, i, exact=True)
        if cheat:
            bot.state = state
        tracker = getattr(bot, "tracker", None)
        if tracker is not None:
            if history is None:
                raise ValueError(f"{spec!r} follows the hand: the positions' histories are needed")
            for earlier in history[i]:
                tracker.observe(earlier, bot._exclusions(earlier))
        t = time.perf_counter()
        a = bot.choose(view, legal)
        times.append(time.perf_counter() - t)
        changed += a != heuristic
        # a move outside the oracle's candidates is not scored (counted apart)
        gains.append(values[a] - values[heuristic] if a in values else None)
    return gains, times, changed


def interval(xs: Sequence[float]) -> str:
    if not xs:
        return "   n/a (no position scored)"
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{m:+6.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def score(
    spec: str,
    data: Sequence[Scored],
    first: list[float | None] | None = None,
    history: Sequence[tuple[MilleView, ...]] | None = None,
) -> tuple[str, list[float | None]]:
    """The line printed for one bot (with the paired difference to ``first``'s gains when
    given), and its gains."""
    gains, times, changed = gains_of(spec, data, history)
    scored = [g for g in gains if g is not None]
    outside = len(gains) - len(scored)
    times.sort()
    line = (
        f"{spec:>14}  gain/decision {interval(scored)}  changed {changed}/{len(data)}"
        + (f" ({outside} outside the candidates)" if outside else "")
        + f"  s/decision mean {statistics.fmean(times):.3f} p95 {times[int(0.95 * (len(times) - 1))]:.3f}"
        f" max {times[-1]:.3f}"
    )
    if first is not None:
        diffs = [g - f for g, f in zip(gains, first, strict=True) if g is not None and f is not None]
        line += f"  vs first {interval(diffs)}"
    return line, gains


def move_kind(a: Action) -> str:
    """A move by verb and card (``discard D50``), its target side dropped."""
    return f"{a.verb} {a.card}" if a.card is not None else a.verb


def pair_differences(data: Sequence[Scored], style: Style) -> dict[tuple[str, str], list[float]]:
    """For each position, the oracle value of every other candidate minus that of
    ``style``'s heuristic move, grouped by (that move's kind, the candidate's kind)."""
    out: dict[tuple[str, str], list[float]] = {}
    for _, view, legal, values in data:
        default = rank_actions(view, legal, style)[0][1]
        if default not in values:
            continue
        for a, v in values.items():
            if a != default:
                out.setdefault((move_kind(default), move_kind(a)), []).append(v - values[default])
    return out


def print_pairs(data: Sequence[Scored], style_name: str, min_n: int = 15, rows: int = 12) -> None:
    """``--pairs``: where the oracle most clearly prefers another move to the style's, by
    kind of move (groups of at least ``min_n`` positions, by z, both ends)."""
    table = []
    for key, xs in pair_differences(data, STYLES[style_name]).items():
        if len(xs) >= min_n:
            m = statistics.fmean(xs)
            se = statistics.stdev(xs) / math.sqrt(len(xs))
            table.append((m / se if se else 0.0, key, len(xs), m, se))
    table.sort(reverse=True)
    print(f"oracle value of another candidate minus {style_name}'s move, by kind (n >= {min_n}):")
    shown = table if len(table) <= 2 * rows else table[:rows] + table[-rows:]
    for z, (mine, other), n, m, se in shown:
        print(f"  {mine:>22} -> {other:<22} n {n:4d}  {m:+7.1f} +- {se:5.1f}  z {z:+5.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=12, help="hands played to collect positions")
    ap.add_argument("--every", type=int, default=2, help="keep every n-th decision of the expert seat")
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, default=160, help="oracle rollouts per candidate")
    ap.add_argument(
        "--candidates", type=int, default=6, help="the heuristic's best n moves get oracle values (0: every legal move)"
    )
    ap.add_argument(
        "--own",
        choices=sorted(STYLES),
        default="classic",
        help="the style that plays the deciding side's later turns in the oracle's rollouts (the others: classic)",
    )
    ap.add_argument("--bots", default="medium,hard,expert")
    ap.add_argument("--cache", help="file keeping positions and oracle values between runs")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--pairs",
        choices=sorted(STYLES),
        help="also print, by kind of move, the oracle's mean preference for each other candidate over STYLE's move",
    )
    args = ap.parse_args()
    if args.candidates < 0:
        ap.error("--candidates is a number of moves, 0 for every legal move")
    data = load_or_build(args)
    if args.pairs:
        print_pairs(data, args.pairs)
    best = statistics.fmean(max(o.values()) - o[rank_actions(v, legal)[0][1]] for _, v, legal, o in data)
    print(f"{len(data)} positions; oracle best {best:+.2f} a decision (upper bound, biased up)")
    specs = args.bots.split(",")
    history = None
    if any("track=" in spec for spec in specs):  # the same games again, for the views before each position
        played = positions_with_history(args.hands, args.every, args.first_seed)
        if [p[0] for p, _ in played] != [d[0] for d in data]:
            raise SystemExit("the positions' games did not replay the same (another expert than the cache's?)")
        history = [h for _, h in played]
    first: list[float | None] | None = None
    for spec in specs:
        line, gains = score(spec, data, first, history)
        first = gains if first is None else first
        print(line, flush=True)


if __name__ == "__main__":
    main()
