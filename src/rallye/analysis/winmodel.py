"""How likely each side is to win a Mille Bornes match, from what everyone can see.

A logistic model over public facts only (the totals, the points on the tableaus, how far
the hand and the match have gone), so it reads a player's view and a state alike and
never looks at a hidden card. For side ``s`` against the strongest other side ``o``, with
``proj`` a side's total plus the points its tableau promises in the running hand
(:func:`projected`), the features (:func:`features`) are:

* ``lead``: ``(proj_s - proj_o) / 1000``;
* ``lead_late``, ``lead_late2``: the lead times how near the match is to its end
  (``max(proj) / target``, clipped to [0, 1.5]) and its square: late leads count more;
* ``reached``: 1 if ``s`` alone has reached the target on paper, -1 if ``o`` alone has;
* ``lead_hand``: the lead times the running hand's progress (the share of the deck
  drawn): a hand's points on the table are surer late in the hand.

``P(s beats o) = sigmoid(w . f)`` with no intercept, so two sides' chances add up to 1; with
more sides each side's chance against its strongest rival is normalised to a sum of 1. A
match already decided counts 1 for its winners. The weights are fitted on bot games by
``research/mille_win_model.py``, which also measures the calibration on games it did not
fit on (docs/analysis.md); they ship in ``data/mille_win.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from rallye.agents.mille.leaf import tableau_estimate
from rallye.mille.state import OVER_PHASE, MilleState
from rallye.mille.view import MilleView

FEATURES: tuple[str, ...] = ("lead", "lead_late", "lead_late2", "reached", "lead_hand")
#: a match with no target of its own (one hand) is read against this many points
DEFAULT_TARGET = 5000

Position = MilleState | MilleView


def _target(pos: Position) -> int:
    return pos.edition.match_target or DEFAULT_TARGET


def hand_progress(pos: Position) -> float:
    """The share of the running hand's deck already drawn (0 at the deal, 1 when empty)."""
    if isinstance(pos, MilleView):
        size, left = pos.deck_size, pos.draw_count
    else:
        size, left = len(pos.deck), len(pos.deck) - pos.draw_pos
    return 1.0 - left / size if size else 1.0


def projected(pos: Position, side: int) -> float:
    """``side``'s total plus what its tableau promises in the running hand: the points it
    has banked (distance, safeties, coups fourrés), a share of the trip bonus growing with
    the distance driven, and allowances for rolling, stopped and limited. Public facts only."""
    total = float(pos.totals[side])
    if pos.phase == OVER_PHASE:
        return total
    return total + tableau_estimate(pos.tableaus[side], pos.edition.scoring, pos.target)


def features(pos: Position, side: int, proj: Sequence[float] | None = None) -> list[float]:
    """The model's features for ``side`` against its strongest rival (see the module)."""
    n = len(pos.sides)
    p = list(proj) if proj is not None else [projected(pos, s) for s in range(n)]
    rival = max((o for o in range(n) if o != side), key=lambda o: p[o])
    target = _target(pos)
    lead = (p[side] - p[rival]) / 1000.0
    late = min(1.5, max(0.0, max(p[side], p[rival]) / target))
    reached = float(p[side] >= target and p[side] > p[rival]) - float(p[rival] >= target and p[rival] > p[side])
    return [lead, lead * late, lead * late * late, reached, lead * hand_progress(pos)]


@cache
def shipped() -> dict[str, Any]:
    """The fitted model shipped with the package (weights and how they were measured)."""
    text = resources.files("rallye.analysis").joinpath("data", "mille_win.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    if list(data["features"]) != list(FEATURES):
        raise ValueError("data/mille_win.json was fitted on other features; refit it (research/mille_win_model.py)")
    return data


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def win_chances(pos: Position, weights: Sequence[float] | None = None) -> list[float]:
    """Each side's chance to win the match from ``pos`` (a state or a view), summing to 1."""
    n = len(pos.sides)
    if pos.winners:
        return [1.0 / len(pos.winners) if s in pos.winners else 0.0 for s in range(n)]
    w = list(shipped()["weights"]) if weights is None else list(weights)
    proj = [projected(pos, s) for s in range(n)]
    raw = [_sigmoid(sum(wi * fi for wi, fi in zip(w, features(pos, s, proj), strict=True))) for s in range(n)]
    if n == 2:
        return [raw[0], 1.0 - raw[0]]
    total = sum(raw)
    return [r / total for r in raw]
