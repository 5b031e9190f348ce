"""The coach (issue #61, item 3): a hint for a live decision, from the player's view only.

:class:`Coach` holds one evaluator (:func:`~rallye.analysis.evaluators.evaluator_for`) and
answers :meth:`Coach.hint` from the view and the legal actions: the move the analysis bot
prefers, the next best, how much better the first is (hand points and chance to win the
match, "about equal" when within the standard error), and one to three :class:`Reason`\\ s,
sentences built from what the view shows and what the evaluation found
(:mod:`rallye.analysis.coach_mille`, :mod:`rallye.analysis.coach_kr`). A reason is a
catalog key under ``coach.`` and JSON-able params, so the terminal and the browser
translate the same thing (``coach.mille.*`` in the ``mille`` domain, ``coach.kr.*`` in
``kr``; docs/analysis.md lists them). A hint is deterministic for (view, legal, history,
seed) and never reads anything outside the seat's views, now and before (``history``:
:func:`~rallye.analysis.analyse.decision_views`; the no-leak tests change the hidden cards).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rallye.analysis.evaluators import Candidate, Evaluator, Judgement, evaluator_for
from rallye.core.errors import ConfigError
from rallye.i18n import LANGUAGES, translator
from rallye.knightrider.view import View
from rallye.mille.view import MilleView

#: the params of a reason that hold a Mille Bornes card id (the text names the card)
CARD_PARAMS = frozenset({"card", "hazard", "remedy", "safety"})
#: the params of a reason that hold a Knight Rider card kind (``TURBO1``, ``RIGHT``, ...)
KR_CARD_PARAMS = frozenset({"kitt", "detour"})
#: Knight Rider's values are exact: two moves within this chance are about equal
KR_EQUAL = 0.001

Names = Callable[[str], str]
#: the params of a reason that number a side (Mille Bornes) or a player (Knight Rider) from 1;
#: the text says ``{who}``, filled with the name the screen shows for them (:data:`Who`)
WHO_PARAMS = ("side", "player")
#: a reason naming someone, said where there are no names to fill in: the message that says
#: "side 2" / "P2" (with its own case endings)
NAMELESS = {
    "coach.mille.attack_near_end_who": "coach.mille.attack_near_end_side",
    "coach.mille.attack_limit_who": "coach.mille.attack_limit",
    "coach.mille.attack_stops_who": "coach.mille.attack_stops",
    "coach.kr.block_who": "coach.kr.block",
    "coach.kr.block_cut_who": "coach.kr.block_cut",
    "coach.kr.mantle_who": "coach.kr.mantle",
    "coach.kr.rival_close_who": "coach.kr.rival_close",
}
#: a screen's name for a side or a player: ("side" or "player", its index from 0) -> the name.
#: The catalogs put ``{who}`` where a name reads right in every language as it is (in
#: Hungarian never before a case ending: "{who}: ...", "{who} útja").
Who = Callable[[str, int], str]


def domain_of(key: str) -> str:
    """The catalog domain of a reason key: ``coach.mille.*`` -> ``mille``, ``coach.kr.*`` -> ``kr``."""
    parts = key.split(".")
    if len(parts) < 3 or parts[0] != "coach" or parts[1] not in ("mille", "kr"):
        raise ValueError(f"not a coach reason key: {key!r}")
    return parts[1]


@dataclass(frozen=True)
class Reason:
    """A sentence in the player's language, built from the evaluation: ``key`` is the
    catalog message, ``params`` its JSON-able values (numbers, strings, card ids: the
    params named in :data:`CARD_PARAMS` hold a Mille Bornes card id, those in
    :data:`KR_CARD_PARAMS` a Knight Rider card kind)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str, names: Names | None = None, who: Who | None = None) -> str:
        """The sentence in ``lang``; Mille Bornes cards named by ``names`` (a card id ->
        the box's name; default: the id), Knight Rider cards by the ``kr`` catalog, a side
        or a player by ``who`` (without it, the sentence says "side 2", "P2": :data:`NAMELESS`)."""
        if lang not in LANGUAGES:
            raise ValueError(f"no catalogs in language {lang!r} (have {', '.join(LANGUAGES)})")
        domain = domain_of(self.key)
        t = translator(lang, domain)
        params = dict(self.params)
        for k, v in params.items():
            if k in CARD_PARAMS and isinstance(v, str):
                params[k] = names(v) if names is not None else v
            elif k in KR_CARD_PARAMS and isinstance(v, str) and t.has(f"card.{v}"):
                params[k] = t(f"card.{v}")
        key = self.key
        if who is None:
            key = NAMELESS.get(key, key)
        else:
            for k in WHO_PARAMS:
                number = params.get(k)
                if isinstance(number, int) and not isinstance(number, bool):
                    params["who"] = who(k, number - 1)
        count = params.pop("count", None)
        if isinstance(count, int) and isinstance(t.messages.get(key), dict):
            return t.n(key, count, **params)
        if count is not None:
            params["count"] = count
        return t(key, **params)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True)
class Hint:
    """The coach's answer for one decision (see the module)."""

    best: Any  # the preferred action (a legal one)
    best_text: str  # it in the game's notation
    next_text: str | None  # the next best, None when there is only one sensible move
    margin_points: float | None  # how much better than the next best (Mille hand points)
    margin_win: float | None  # ... in chance to win the match (0..1)
    reasons: tuple[Reason, ...]  # one to three, most telling first
    #: the margin is within its standard error: the two moves are about equal
    equal: bool = False
    #: the acting side's chance to win the match after the preferred move (None: not valued)
    win: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best_text,
            "next": self.next_text,
            "margin": {"points": _r(self.margin_points, 1), "win": _r(self.margin_win, 4), "equal": self.equal},
            "win": _r(self.win, 4),
            "reasons": [r.to_json() for r in self.reasons],
        }


def _r(x: float | None, digits: int) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


@dataclass(frozen=True)
class Margin:
    """How much better the preferred move is than the next best."""

    next: Candidate | None
    points: float | None
    win: float | None
    equal: bool


def margin(game: str, judgement: Judgement) -> Margin:
    """The next best candidate and what the preferred one gains over it: Mille Bornes
    hand points (the paired difference) and match-win chance; "equal" when both are within
    their standard error (Knight Rider's exact values: within :data:`KR_EQUAL`)."""
    cands = judgement.candidates
    best = cands[0]
    nxt = next((c for c in cands[1:] if c.win is not None or c.points is not None), None)
    if nxt is None:
        return Margin(None, None, None, False)
    points = -nxt.points if nxt.points is not None else None
    win = best.win - nxt.win if best.win is not None and nxt.win is not None else None
    if game == "knightrider":
        return Margin(nxt, None, win, win is not None and win <= KR_EQUAL)
    pts_se = nxt.points_se if nxt.points_se is not None else math.inf
    win_se = math.hypot(best.win_se or 0.0, nxt.win_se or 0.0) if best.win_se is not None else math.inf
    equal = (points is None or points <= pts_se) and (win is None or win <= win_se)
    return Margin(nxt, points, win, equal)


class Coach:
    """The analysis bot as a coach: one evaluator, reused for many hints."""

    def __init__(self, game: str, spec: str = "expert", seed: int = 0) -> None:
        if game not in ("mille", "knightrider"):
            raise ConfigError(f"no coach for the game {game!r}")
        self.game = game
        self.spec = spec
        self.seed = seed
        self.evaluator: Evaluator = evaluator_for(game, spec, seed)

    def hint(self, view: Any, legal: Sequence[Any], history: Sequence[Any] = ()) -> Hint:
        """The hint for the decision ``view`` shows among ``legal``, from the view and
        ``history``, the seat's views at its earlier decisions of the game (forced ones too,
        in order: :func:`~rallye.analysis.analyse.decision_views`), which Mille Bornes' hand
        tracker follows; the evaluator keeps a tracker per seat, so the next hint of the same
        seat feeds it only the views since."""
        legal = tuple(legal)
        if not legal:
            raise ValueError("no legal action: there is nothing to hint")
        wanted = MilleView if self.game == "mille" else View
        if not isinstance(view, wanted):
            raise ValueError(f"the {self.game} coach reads a {wanted.__name__}, not a {type(view).__name__}")
        if len(legal) == 1:
            only = legal[0]
            key = "coach.mille.only_move" if self.game == "mille" else "coach.kr.only_move"
            return Hint(only, str(only), None, None, None, (Reason(key),))
        judgement = self.evaluator.evaluate(view, legal, history=history)
        m = margin(self.game, judgement)
        best = judgement.best
        reasons = self._reasons(view, legal, judgement, m)
        win = judgement.candidates[0].win
        return Hint(
            best,
            str(best),
            str(m.next.action) if m.next is not None else None,
            m.points,
            m.win,
            reasons,
            m.equal,
            win,
        )

    def _reasons(self, view: Any, legal: Sequence[Any], judgement: Judgement, m: Margin) -> tuple[Reason, ...]:
        if self.game == "mille":
            from rallye.analysis.coach_mille import reasons
        else:
            from rallye.analysis.coach_kr import reasons  # type: ignore[assignment]
        return reasons(view, legal, judgement, m)


#: the most reasons a hint gives
MAX_REASONS = 3


def pick(found: Sequence[Reason | None], closing: Reason | None) -> tuple[Reason, ...]:
    """The first reasons found (most telling first), at most :data:`MAX_REASONS` with the
    evaluation's ``closing`` one last (always there when there is room, or when nothing
    else was found)."""
    out = [r for r in found if r is not None][: MAX_REASONS - (closing is not None)]
    if closing is not None:
        out.append(closing)
    return tuple(out)
