"""How likely each player is to win a Knight Rider chase, from what everyone can see.

A conditional logit over the cars: each car gets a score ``w . f`` from public facts of
the position (:func:`car_features`), and its chance to win is its share of
``exp(score)`` over all cars, so the chances add up to 1 at any table size. The facts, for
each car, from the view of the player to act (never a hidden card: the position is built
with :func:`~rallye.knightrider.sampling.state_from_view`, and a car's Turbo-Boosts are
the ones the view tells, the basic deal less the cards played):

* ``pips``: the fewest pips to end a move on the villain's field by road (detours and
  roadblocks counted, other cars not), in tens, at most ``FAR / 10``;
* ``cut_off``: 1 when no road leads there any more;
* ``hit_next``: the chance that the car's next roll (with its Turbo-Boosts) ends its move
  on the villain's field, against where the escape cards not yet turned will have moved
  him by then (the look-ahead's catch chance for one turn:
  :func:`~rallye.agents.knightrider.search.hit_table`); 0 for a car on its roof;
* ``hit_soon``: the chance to be within reach of one die roll by road, the heuristic's
  rough :func:`~rallye.agents.knightrider.heuristic.hit_chance` of ``pips``;
* ``wait``: how many turns of others come before the car's next roll, over the players
  (the player to act: 1, its next roll is a round away);
* ``to_move``: 1 for the player to act while its move is still to come this turn;
* ``roof``: the car is on its roof (its next turn is lost);
* ``turbo1``, ``turbo2``: it holds Turbo-Boost I, II.

The score also bends with these facts (:func:`expand`, from the same row): how much of
``pips`` lies beyond 6, 12, 20, 30 and 45 pips (a hinge each: a pip near the villain is
worth more than one far away), and the square root and the square of ``hit_next`` (the
first chances to catch matter most).

Before every car stands at the start, every player has an even share. A position where
the player to act can end a move on the villain now is a sure win for that player (as
the search's :func:`~rallye.agents.knightrider.search.shares` says); a
finished game counts 1 for the winner. One set of weights serves every table size, with
a scale per size (how sharp the softmax is there), fitted on bot games by
``research/kr_win_model.py``, which also measures the calibration on games it did not fit
on (docs/analysis.md); they ship in ``data/kr_win.json``.

Last, two calibration curves per table size, both rising, both the isotonic fit of chances
the model gave to how often they won, on games its weights had not seen. The first
(:func:`calibrate`) reads every car's chance, and the results are divided by their sum so
they add up to 1 again. The second (:func:`calibrate_leader`) reads the leading car's chance
after the first, and the other cars share what is left in proportion to their chances. The
softmax alone ran too sure in the rare positions it gave more than half at tables of three
to five, where the others move between a car's turns; the first curve alone gave some of
that back in its division: at four players the curved chances of a position added up to
about 0.95 where the leader's was 0.6 to 0.8, and the division lifted the leader's three or
four points again. The second curve is fitted on what the first gives, so it sets the
leader's chance where the leaders' outcomes put it.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from rallye.agents.knightrider.heuristic import (
    cost_to,
    default_pieces,
    hit_chance,
    unturned_cards,
    villain_forecast,
)
from rallye.agents.knightrider.search import _expect, hit_table, shares
from rallye.knightrider import geometry as g
from rallye.knightrider.sampling import state_from_view
from rallye.knightrider.state import TURN_PHASE
from rallye.knightrider.track import roadblocks
from rallye.knightrider.view import View

#: the most pips counted: a car farther away, or cut off, counts this far
FAR = 80.0

#: the facts :func:`car_features` reads from the view, one row per car
BASE_FEATURES: tuple[str, ...] = (
    "pips",
    "cut_off",
    "hit_next",
    "hit_soon",
    "wait",
    "to_move",
    "roof",
    "turbo1",
    "turbo2",
)
#: ``pips`` (in tens) beyond which each hinge of :func:`expand` starts: 6, 12, 20, 30, 45 pips
KNOTS: tuple[float, ...] = (0.6, 1.2, 2.0, 3.0, 4.5)
#: every term of a car's score: the facts, then the bends :func:`expand` adds
FEATURES: tuple[str, ...] = (
    *BASE_FEATURES,
    *(f"pips_over_{round(k * 10)}" for k in KNOTS),
    "hit_next_sqrt",
    "hit_next_sq",
)


def expand(row: Sequence[float]) -> list[float]:
    """A car's facts (:data:`BASE_FEATURES`) with the score's bends (:data:`FEATURES`)."""
    pips, hit = row[0], row[2]
    return [*row, *(max(pips - k, 0.0) for k in KNOTS), math.sqrt(max(hit, 0.0)), hit * hit]


def car_features(view: View) -> tuple[list[list[float]], list[float] | None]:
    """Each car's features (see the module), in seat order, and the search's verdict when
    the position is already decided (the game over, or a win in one for the player to
    act): those chances, else ``None``. The view must be of the chase (villain placed)."""
    if view.villain is None:
        raise ValueError("a chase position needs the villain on the map")
    state = state_from_view(view)
    n = view.players
    if len(state.cars) < n:  # the cars are still being set at the start: nobody is ahead
        return [], [1.0 / n] * n
    quick = shares(state)
    if max(quick) == 1.0:
        return [], quick
    blocked = roadblocks(state.detours)
    villain = state.villain
    table = cost_to(state.links, blocked, villain)
    tiles = frozenset((t.x, t.y) for t in view.tiles)
    all_cards = tuple((c.dx, c.dy) for c in default_pieces().escape)
    at, _ = villain_forecast(g.cell_square(villain), tiles, unturned_cards(view), all_cards, n)
    acting = view.current if view.current is not None else view.me
    moving = view.phase == TURN_PHASE and not view.move_done
    rows: list[list[float]] = []
    for c in state.cars:
        if c.cell >= 0:
            way = table.get(c.cell * 4 + c.heading)
        else:  # waiting beside the start tile: entering costs one pip
            way = table.get(g.arm(*g.sq_xy(state.start_sq), c.side) * 4 + c.heading) if c.side >= 0 else None
            way = None if way is None else way + 1
        pips = FAR if way is None else min(float(way), FAR)
        wait = (c.player - acting) % n or n  # escape cards turned before its next roll
        hand = state.kitt_hands[c.player]
        t1, t2 = hand[1] > 0, hand[2] > 0
        hit = 0.0
        if c.cell >= 0 and not c.roof:
            dist = {g.middle(*sq): p for sq, p in at[wait - 1].items()}
            hit = _expect(hit_table(state.links, blocked, c.cell, c.heading, t1, t2), dist)
        rows.append(
            [
                pips / 10.0,
                float(way is None),
                hit,
                hit_chance(pips),
                wait / n,
                float(moving and c.player == acting),
                float(c.roof),
                float(t1),
                float(t2),
            ]
        )
    return rows, None


@cache
def shipped() -> dict[str, Any]:
    """The fitted model shipped with the package (the weights, and how they were measured
    at each table size)."""
    text = resources.files("rallye.analysis").joinpath("data", "kr_win.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    if list(data["features"]) != list(FEATURES):
        raise ValueError("data/kr_win.json was fitted on other features; refit it (research/kr_win_model.py)")
    return data


def chances_from(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """The cars' chances from their facts (rows of :data:`BASE_FEATURES`): the softmax of
    their scores (each row :func:`expand`-ed, weighed by ``weights``)."""
    scores = [sum(w * f for w, f in zip(weights, expand(row), strict=True)) for row in rows]
    hi = max(scores)
    ex = [math.exp(s - hi) for s in scores]
    total = sum(ex)
    return [e / total for e in ex]


def read_curve(curve: Mapping[str, Sequence[float]], x: float) -> float:
    """The calibration curve ``curve`` (``{"predicted": [...], "won": [...]}``, both rising)
    at ``x``: read between its points as straight lines, from (0, 0) before the first and
    to (1, 1) after the last."""
    xs, ys = [0.0, *curve["predicted"], 1.0], [0.0, *curve["won"], 1.0]
    i = bisect_right(xs, x, 1, len(xs) - 1)  # xs[i - 1] <= x < xs[i]
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 <= x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)


#: chances this close to the highest count as tied with it
TIE = 1e-12


def calibrate(chances: Sequence[float], curve: Mapping[str, Sequence[float]] | None) -> list[float]:
    """Every chance through a calibration curve (:func:`read_curve`), then divided by their
    sum: they add up to 1 again. No curve: unchanged."""
    if not curve:
        return list(chances)
    out = [read_curve(curve, c) for c in chances]
    total = sum(out)
    return [v / total for v in out] if total > 0 else list(chances)


def calibrate_leader(chances: Sequence[float], curve: Mapping[str, Sequence[float]] | None) -> list[float]:
    """``chances`` with the leading one read through a calibration curve (:func:`read_curve`),
    the others scaled to share what is left: they add up to 1 as before. Cars tied for the
    lead each get the curve's reading; the leader stays at least level with the next car
    and at most its even share among the tied. No curve, or every car tied: unchanged."""
    if not curve:
        return list(chances)
    top = max(chances)
    tied = [c >= top - TIE for c in chances]
    k = sum(tied)
    rest = sum(c for c, t in zip(chances, tied, strict=True) if not t)
    if rest <= 0:
        return list(chances)
    second = max(c for c, t in zip(chances, tied, strict=True) if not t)
    lead = min(max(read_curve(curve, top), second / (rest + k * second)), 1.0 / k)
    scale = (1.0 - k * lead) / rest
    return [lead if t else c * scale for c, t in zip(chances, tied, strict=True)]


def win_chances(view: View, model: dict[str, Any] | None = None) -> list[float]:
    """Each player's chance to win the chase from ``view`` (summing to 1); an even share
    while the town is still being built."""
    n = view.players
    if view.over:
        return [1.0 if view.winner == p else 0.0 for p in range(n)] if view.winner is not None else [0.0] * n
    if view.villain is None:
        return [1.0 / n] * n
    rows, decided = car_features(view)
    if decided is not None:
        return decided
    fitted = shipped() if model is None else model
    scale = float(fitted["scale"].get(str(n), 1.0))
    raw = chances_from(rows, [scale * w for w in fitted["weights"]])
    each = calibrate(raw, fitted.get("calibration", {}).get(str(n)))
    return calibrate_leader(each, fitted.get("leader_calibration", {}).get(str(n)))
