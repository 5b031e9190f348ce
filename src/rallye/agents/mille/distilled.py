"""A policy distilled from ``expert``'s own estimates: the ``fitted`` heuristic, corrected.

``expert`` (:class:`~rallye.agents.mille.search.PimcAgent`) compares the ``fitted``
heuristic's best few moves on sampled deals and measures, for each alternative, how many
points it gains over the heuristic's choice. ``research/expert_decisions.py`` records
those measurements; ``research/distil_policy.py`` fits a linear model to them: a move's
value is a sum of weights over its :func:`features` (what kind of move it is, crossed with
a coarse reading of the table: how much of the draw pile is left, whether the own side and
the leading opposing side are on the road, how far there is to go, how the match stands;
for distance cards whether they finish the trip or leave it reachable from the hand; for
discards the heuristic's own worth of the card), and the difference of two moves' values
predicts the difference the search would measure between them.

:class:`DistilledAgent` (the ``distilled`` bot) ranks the legal moves with the ``fitted``
heuristic, takes the same candidates as ``expert`` (its best 4 and its next 3 discards) and
plays the one the model values highest, unless no alternative beats the heuristic's move
by more than a margin. It reads only its view and costs a fraction of a millisecond a
move: what the search finds in a decision, learned once, without the search. The
extension decision stays the heuristic's.

The weights ship with the package (``data/distilled_wm2006.json``), fitted on 2-player
wm2006 decisions; the features are defined for every edition and player count, so the bot
plays them all (docs/bots.md gives its measured strength, edition by edition).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rallye.agents.base import register
from rallye.agents.mille.heuristic import (
    FITTED,
    Reading,
    Style,
    card_value,
    cf_risk,
    rank_actions,
    reachable,
    score_action,
)
from rallye.core.values import pickled_by_fields
from rallye.mille.actions import Action
from rallye.mille.cards import BATTLE_HAZARDS, DISTANCE_KM, HAZARDS, REMEDY_OF, SAFETIES, SAFETY_FOR
from rallye.mille.state import PLAY_PHASE
from rallye.mille.view import MilleView

#: The version of :func:`features`; a weights file names the version it was fitted on.
FEATURE_VERSION = 1
#: The weights shipped with the package (``rallye/agents/data``).
WEIGHTS_FILE = "distilled_wm2006.json"


def candidates(view: MilleView, legal: Sequence[Action], style: Style = FITTED) -> list[Action]:
    """``expert``'s candidates: the heuristic's best 4 moves in ``style`` and its next 3
    discards, the heuristic's choice first."""
    return top_moves([a for _, a in rank_actions(view, legal, style)])


def top_moves(ranked: Sequence[Action], top_k: int = 4, extra_discards: int = 3) -> list[Action]:
    """The first ``top_k`` of ``ranked`` (best first) and the next ``extra_discards``
    discards after them: the candidates a search compares."""
    return [*ranked[:top_k], *[a for a in ranked[top_k:] if a.verb == "discard"][:extra_discards]]


def context(r: Reading) -> tuple[str, ...]:
    """A coarse reading of the table from the view: the tokens the move kinds are crossed
    with (the draw pile first, the leading opposing side's state second)."""
    v, me = r.view, r.me
    dc = v.draw_count
    leader = max(r.opp_sides, key=lambda s: (v.tableaus[s].km, -s))
    out = [
        "draw>60" if dc > 60 else "draw>30" if dc > 30 else "draw>10" if dc > 10 else "draw<=10",
        "opp_rolling" if v.tableaus[leader].rolling else "opp_stopped",
    ]
    if me.rolling:
        out.append("rolling")
    elif me.battle_top in BATTLE_HAZARDS:
        out.append("stopped")
        if REMEDY_OF[me.battle_top] in v.hand or SAFETY_FOR[me.battle_top] in v.hand:
            out.append("curable")
    else:
        out.append("unstarted")
    if me.limited:
        out.append("limited")
    rem = r.remaining
    out.append("rem>=500" if rem >= 500 else "rem>=200" if rem >= 200 else "rem>=100" if rem >= 100 else "rem<100")
    lead = r.leader_km / v.target
    out.append("opp<.4" if lead < 0.4 else "opp<.8" if lead < 0.8 else "opp>=.8")
    if r.risky:
        out.append("risky")
    out.append(f"safeties{min(2, sum(c in SAFETIES for c in v.hand))}")
    hand_km = sum(DISTANCE_KM.get(c, 0) for c in v.hand)
    out.append("hand_km>=rem" if hand_km >= rem else "hand_km>=rem/2" if 2 * hand_km >= rem else "hand_km<rem/2")
    diff = v.totals[v.side] - max(v.totals[s] for s in r.opp_sides)
    out.append("ahead" if diff > 1000 else "behind" if diff < -1000 else "level")
    return tuple(out)


def _kind(a: Action) -> str:
    return f"{a.verb}:{a.card}" if a.card is not None else a.verb


def _group(a: Action) -> str:
    c = a.card
    if c is None:
        return a.verb
    g = "dist" if c in DISTANCE_KM else "safety" if c in SAFETIES else "hazard" if c in HAZARDS else "remedy"
    return f"{a.verb}:{g}"


def features(r: Reading, a: Action, ctx: Sequence[str], base_score: float) -> dict[str, float]:
    """The features of move ``a`` (named, version :data:`FEATURE_VERSION`) on reading ``r``
    with context ``ctx`` (:func:`context`); ``base_score`` is the heuristic's score of its own
    choice, so the heuristic's opinion of ``a`` enters as a gap to it."""
    k, g = _kind(a), _group(a)
    draw, opp = ctx[0], ctx[1]
    rem = next(c for c in ctx if c.startswith("rem"))
    f: dict[str, float] = {k: 1.0}
    for c in ctx:
        f[f"{k}|{c}"] = 1.0
        f[f"{g}|{c}"] = 1.0
    f[f"{g}|{draw}|{opp}"] = 1.0
    f[f"{g}|{draw}|{rem}"] = 1.0
    f[f"{k}|{draw}|{opp}"] = 1.0
    if a.verb == "play" and a.card in DISTANCE_KM:
        after = r.remaining - DISTANCE_KM[a.card]
        rest = list(r.view.hand)
        rest.remove(a.card)
        rest_km = [DISTANCE_KM[c] for c in rest if c in DISTANCE_KM]
        tag = "fin" if after == 0 else "reach" if reachable(tuple(rest_km), after) else "noreach"
        f[f"dist:{tag}"] = 1.0
        f[f"dist:{tag}|{draw}"] = 1.0
        f[f"dist:{tag}|{draw}|{opp}"] = 1.0
        f[f"dist:{tag}|{opp}"] = 1.0
    f[f"score|{a.verb}"] = max(-10.0, (score_action(r, a) - base_score) / 100.0)
    if a.verb == "discard" and a.card is not None:
        worth = card_value(r, a.card, r.view.hand)
        f[f"worth|{g}"] = min(worth, 300.0) / 100.0
        f[f"copies|{k}"] = r.view.hand.count(a.card) - 1.0
        f[f"dead|{g}"] = float(worth <= 0.0)
    if a.verb == "attack" and a.card is not None and a.side is not None:
        f["coup_fourre_risk"] = cf_risk(r, a.side, a.card)
    return f


@dataclass(frozen=True)
class Weights:
    """A fitted model: a weight per feature name, and the margin by which an alternative's
    value must beat the heuristic's choice to be played instead."""

    weights: Mapping[str, float]
    margin: float
    meta: Mapping[str, Any]
    #: the editions (keys) the correction is for; on any other the heuristic's move stands
    #: (``None``: every edition)
    editions: tuple[str, ...] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "weights") -> Weights:
        """Read a weights file's JSON; a wrong version or shape raises ``ValueError``
        naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{source}: expected a JSON object")
        version = data.get("feature_version")
        if version != FEATURE_VERSION:
            raise ValueError(f"{source}: feature_version {version!r}, this rallye reads {FEATURE_VERSION}")
        weights, margin = data.get("weights"), data.get("margin")
        if not isinstance(weights, Mapping) or not all(
            isinstance(k, str) and isinstance(w, int | float) and not isinstance(w, bool) for k, w in weights.items()
        ):
            raise ValueError(f"{source}: 'weights' must map feature names to numbers")
        if not isinstance(margin, int | float) or isinstance(margin, bool) or margin < 0:
            raise ValueError(f"{source}: 'margin' must be a number of points, at least 0")
        editions = data.get("editions")
        if editions is not None and not (
            isinstance(editions, list) and editions and all(isinstance(e, str) for e in editions)
        ):
            raise ValueError(f"{source}: 'editions' must be a list of edition keys (or absent: every edition)")
        meta = {k: v for k, v in data.items() if k not in ("weights", "margin", "editions")}
        return cls(
            {k: float(w) for k, w in weights.items()},
            float(margin),
            meta,
            tuple(editions) if editions is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        out = {**self.meta, "feature_version": FEATURE_VERSION, "margin": self.margin}
        if self.editions is not None:
            out["editions"] = list(self.editions)
        return {**out, "weights": dict(self.weights)}

    def applies(self, view: MilleView) -> bool:
        """Whether the correction is for this view's edition."""
        return self.editions is None or view.edition.key in self.editions

    def value(self, feats: Mapping[str, float]) -> float:
        w = self.weights
        return sum(w.get(name, 0.0) * x for name, x in feats.items())

    def choice(self, values: Sequence[float]) -> int:
        """Which of the candidates valued ``values`` (the heuristic's choice first) to play:
        the highest valued alternative if it beats the first by more than the margin, else 0."""
        best, best_gain = 0, self.margin
        for j in range(1, len(values)):
            if values[j] - values[0] > best_gain:
                best, best_gain = j, values[j] - values[0]
        return best


@cache
def shipped_weights() -> Weights:
    """The weights that ship with the package (:data:`WEIGHTS_FILE`)."""
    text = resources.files("rallye.agents").joinpath("data", WEIGHTS_FILE).read_text(encoding="utf-8")
    return Weights.from_json(json.loads(text), WEIGHTS_FILE)


class DistilledAgent:
    """The ``fitted`` heuristic corrected by a model of ``expert``'s estimates (module
    docstring). ``weights``: a :class:`Weights` (default: the shipped ones)."""

    def __init__(self, seed: int = 0, *, weights: Weights | None = None, name: str = "distilled") -> None:
        self.name = name
        self.weights = weights if weights is not None else shipped_weights()
        self.style = FITTED
        self.last_values: dict[Action, float] = {}  # the last decision's candidates, relative to the default

    def choose(self, view: MilleView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        cands = candidates(view, legal, self.style)
        best, self.last_values = pick(view, cands, self.weights, self.style)
        return best


def pick(
    view: MilleView, cands: Sequence[Action], weights: Weights, style: Style = FITTED
) -> tuple[Action, dict[Action, float]]:
    """The move the model plays among ``cands`` (the heuristic's choice first): the
    alternative valued highest above the heuristic's choice, if by more than the margin;
    and every candidate's value relative to that choice (empty outside the play phase,
    where the heuristic's choice stands)."""
    if view.phase != PLAY_PHASE or len(cands) < 2 or not weights.applies(view):
        return cands[0], {}
    r = Reading.of(view, style)
    return _best(r, cands, score_action(r, cands[0]), weights)


def _best(r: Reading, cands: Sequence[Action], base: float, weights: Weights) -> tuple[Action, dict[Action, float]]:
    ctx = context(r)
    values = [weights.value(features(r, a, ctx, base)) for a in cands]
    rel = {a: x - values[0] for a, x in zip(cands, values, strict=True)}
    return cands[weights.choice(values)], rel


register("mille", "distilled", lambda seed: DistilledAgent(seed))


#: pickling of the frozen values once compiled (scripts/compile)
pickled_by_fields(Weights)
