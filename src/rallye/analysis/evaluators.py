"""The evaluators: one decision, from the acting player's view, judged by a search bot.

An evaluator answers for one live decision in one call, ``evaluate(view, legal,
include=(), key=0, history=()) -> Judgement``: the candidates the analysis bot compared,
best first, each with its value, and each side's estimated chance to win from there. It
sees the view, the legal actions and ``history``, the acting seat's views at its earlier
decisions (what that player saw before, in order), nothing else (the no-leak tests check
that a different game behind the same views changes nothing). ``key`` seeds the
decision's sampling, so an analysis is the same whatever order its decisions are judged
in, and a verdict depends on the views alone, not on what was asked before. :func:`evaluator_for`
builds the one of a game from a bot spec.

* Mille Bornes (:class:`MilleEvaluator`): the search of the ``hard`` or ``expert`` level
  (:class:`~rallye.agents.mille.search.PimcAgent`), every candidate (and the move played)
  played out on the same sampled deals until :class:`SequentialStop` settles it (clearly
  worse than the preferred move, or practically equal to it); a candidate's ``points`` is its mean paired gain in
  hand points (this side's less the best other side's) over the preferred move, its
  ``win`` the mean of the match-win model (:mod:`rallye.analysis.winmodel`) over the
  rollouts' ends. With the ``expert`` level, at two players, the opponent's hand is dealt
  from expert's hand tracker (:class:`~rallye.agents.mille.tracker.HandTracker`) brought
  up to the decision through the seat's earlier views of the hand (``history``): what
  that player saw, in order, and nothing else.
* Knight Rider (:class:`KnightRiderEvaluator`): the exact-dice look-ahead of the levels
  (:class:`~rallye.agents.knightrider.search.LookaheadAgent`); a candidate's ``win`` is
  its look-ahead value (the chance to catch the villain on the next turns, discounted for
  the rivals, plus the heuristic's small closeness term; within [0, 1], a move that
  catches the villain now counts 1), ``points`` none; decisions the look-ahead does not
  search (building the town, most cards) get the bot's choice and no values; the sides'
  chances are the win model's (:mod:`rallye.analysis.krwinmodel`, fitted on bot games)
  on the position the view shows. A candidate's ``win`` stays the look-ahead's catch
  chance, the number the search compares moves by, not the model's chance to win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rallye.agents.knightrider.levels import EXPERT_TOP_K, HARD_TOP_K
from rallye.agents.knightrider.search import LookaheadAgent
from rallye.agents.mille.heuristic import FITTED
from rallye.agents.mille.levels import EXPERT_HORIZON, EXPERT_TRACK
from rallye.agents.mille.search import Evaluation, PimcAgent, hand_outcome, paired
from rallye.agents.mille.tracker import HandTracker
from rallye.analysis.krwinmodel import win_chances as kr_win_chances
from rallye.analysis.winmodel import win_chances
from rallye.core.errors import ConfigError
from rallye.core.rng import derive_seed
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

#: the analysis bots (a spec is ``NAME``, ``NAME*K``: K times the budget, or ``NAME/K``: a K-th)
BOTS = ("hard", "expert")
#: the analysis's budget of engine steps a decision, in the level's
PLY_ROOM = 2
#: hand points given up (this side's less the best other side's) for each mark (:func:`rallye.analysis.analyse.mark`)
POINT_MARKS = (50.0, 150.0, 300.0)
#: match-win chance given up for each mark (Mille Bornes: the win model; Knight Rider: the
#: look-ahead's chance to catch the villain on the next turns)
WIN_MARKS = (0.03, 0.07, 0.15)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move the analysis bot compared: its value in hand points relative to the
    preferred move (``None`` where the game keeps no such score) and the acting side's
    chance to win after it (``None`` where not valued), each with its standard error."""

    action: Any
    points: float | None
    points_se: float | None
    win: float | None
    win_se: float | None


@dataclass(frozen=True, slots=True)
class Judgement:
    """The analysis bot's verdict on one decision: ``best`` (the move it prefers), the
    ``candidates`` best first, and each side's chance to win before the move (``wins``)."""

    best: Any
    candidates: tuple[Candidate, ...]
    wins: tuple[float, ...]
    #: how far the played move is from the best: points given up, win chance given up, and
    #: whether each is more than twice its standard error (None: not estimated)
    losses: dict[Any, tuple[float | None, float | None, bool]]

    def candidate(self, action: Any) -> Candidate | None:
        return next((c for c in self.candidates if c.action == action), None)


class Evaluator(Protocol):  # pragma: no cover - a protocol
    game: str
    spec: str

    def evaluate(
        self, view: Any, legal: Sequence[Any], include: Sequence[Any] = (), key: int = 0, history: Sequence[Any] = ()
    ) -> Judgement: ...

    def wins(self, view: Any) -> tuple[float, ...]:
        """Each side's chance to win from the position the view shows (no search)."""


def parse_spec(spec: str) -> tuple[str, float]:
    """``"expert"``, ``"expert*2"`` (twice the budget) or ``"hard/8"`` (an eighth of it:
    cheap and rough, for tests) -> (level, budget factor), or a ConfigError."""
    if not isinstance(spec, str):
        raise ConfigError(f"an analysis bot is named by text such as 'expert', not {spec!r}")
    op = "/" if "/" in spec else "*"
    name, _, times = spec.partition(op)
    if name not in BOTS:
        raise ConfigError(
            f"unknown analysis bot {spec!r}; use one of {', '.join(BOTS)}"
            " (or NAME*K: K times its budget, NAME/K: a K-th of it)"
        )
    if not times:
        return name, 1
    if not times.isdigit() or not 1 <= int(times) <= 64:
        raise ConfigError(f"the budget factor of {spec!r} must be a whole number from 1 to 64")
    return name, int(times) if op == "*" else 1 / int(times)


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _band(loss: float, steps: Sequence[float]) -> int:
    return sum(1 for s in steps if loss >= s)


@dataclass(frozen=True, slots=True)
class SequentialStop:
    """The analysis's sequential stopping rule for one Mille Bornes decision (the
    ``settle`` of :meth:`PimcAgent.evaluate <rallye.agents.mille.search.PimcAgent.evaluate>`).

    From ``first`` deals on, every ``batch`` deals: the leader is the move the bot's verdict
    takes on the deals so far; every other candidate is *settled* when its mean paired
    difference to the leader is beyond ``k`` standard errors below 0 (clearly worse: it
    cannot become the verdict), or within ``margin_points`` points and ``margin_win`` of
    the win chance, ``k`` standard errors included (practically equal: no mark and no loss
    worth a deal). A move asked about (``asked``: the move played) that is clearly worse is
    settled only once its mark is too: the loss, ``mark_k`` standard errors either way,
    within one band of :data:`POINT_MARKS` and of :data:`WIN_MARKS` (``bands``). A settled alternative is played
    on no further deal (its values keep the deals it saw; the move to beat, the reference of
    every comparison, is always played); the decision stops when every candidate but the
    leader is settled, or at the level's count of deals."""

    side: int
    asked: frozenset[Any]
    verdict: Callable[[Evaluation], Any]
    bands: tuple[Sequence[float], Sequence[float]]
    first: int = 32
    batch: int = 16
    k: float = 2.0
    mark_k: float = 2.0
    margin_points: float = 15.0
    margin_win: float = 0.007

    def __call__(self, ev: Evaluation, alive: Sequence[Any]) -> Sequence[Any]:
        if ev.deals < self.first or (ev.deals - self.first) % self.batch:
            return alive
        leader = self.verdict(ev)
        k, side = self.k, self.side
        lead_margin = [m[0] for m in ev.measures[leader]]
        lead_win = [m[1 + side] for m in ev.measures[leader]]
        kept = []
        for a in (ev.candidates[0], *alive):
            if a == leader:
                continue
            gain, se = paired(ev.values[a], ev.values[leader])
            pts, pts_se = paired([m[0] for m in ev.measures[a]], lead_margin)
            win, win_se = paired([m[1 + side] for m in ev.measures[a]], lead_win)
            equal = max(abs(gain) + k * se, abs(pts) + k * pts_se) < self.margin_points
            equal = equal and abs(win) + k * win_se < self.margin_win
            settled = equal or gain + k * se < 0
            if settled and not equal and a in self.asked:
                settled = all(
                    _band(loss - self.mark_k * loss_se, steps) == _band(loss + self.mark_k * loss_se, steps)
                    for loss, loss_se, steps in ((-pts, pts_se, self.bands[0]), (-win, win_se, self.bands[1]))
                )
            if not settled:
                kept.append(a)
        if not kept:
            return ()
        return tuple(a for a in alive if a in kept or a == leader)


class MilleEvaluator:
    """Mille Bornes decisions judged by the search of a level (see the module)."""

    game = "mille"
    #: hand trackers kept, each with the views it has followed (the coach's seats, a
    #: hand analysed from start to end: the next decision finds its seat's)
    KEEP = 16

    def __init__(self, spec: str = "expert", seed: int = 0) -> None:
        level, times = parse_spec(spec)
        self.spec, self.seed = spec, seed
        budget: dict[str, Any] = (
            {"deals": 160, "plies": 8400, "horizon": EXPERT_HORIZON, "endgame": 20, "z": 1.0, "min_gain": 0.0}
            if level == "expert"
            else {"deals": 24, "plies": 1200, "horizon": 12, "distilled": True}
        )
        # at least 2 deals: a paired comparison needs two to have a standard error
        budget["deals"] = max(2, round(budget["deals"] * times))
        # every candidate is played on every deal (the level's search drops the trailing ones
        # after a third of them): room for its whole count of deals
        budget["plies"] = max(1, round(budget["plies"] * times * PLY_ROOM))
        self.agent = PimcAgent(seed, top_k=4, extra_discards=3, style=FITTED, name=spec, **budget)
        #: expert's tracker, with as many particles (0: none, the ``hard`` level)
        self.track = EXPERT_TRACK if level == "expert" else 0
        self._trackers: list[tuple[tuple[MilleView, ...], HandTracker]] = []

    def wins(self, view: MilleView) -> tuple[float, ...]:
        return tuple(win_chances(view))

    def evaluate(
        self,
        view: MilleView,
        legal: Sequence[Any],
        include: Sequence[Any] = (),
        key: int = 0,
        history: Sequence[MilleView] = (),
    ) -> Judgement:
        agent = self.agent
        agent.rng = random.Random(derive_seed(self.seed, "mille-analysis", key))
        tracker, seen = self._tracker(view, history)
        agent.tracker = tracker
        side = view.side
        root_sheets = len(view.sheets)

        def measure(end: MilleState) -> list[float]:
            return [hand_outcome(end, side, root_sheets, 0.0), *win_chances(end)]

        stop = SequentialStop(side, frozenset(include), agent.verdict, (POINT_MARKS, WIN_MARKS))
        ev = agent.evaluate(view, legal, include, prune=False, measure=measure, settle=stop)
        if tracker is not None:  # the search observed ``view``: kept for the seat's next decision
            self._trackers.append(((*seen, view), tracker))
            del self._trackers[: -self.KEEP]
        if ev.deals == 0:  # one candidate: nothing to compare
            only = ev.candidates[0]
            wins = self.wins(view)
            return Judgement(only, (Candidate(only, 0.0, 0.0, wins[side], None),), wins, {only: (0.0, 0.0, False)})
        # the bot's own verdict on these deals (an alternative settled early is not taken)
        return self._judge(ev, agent.verdict(ev), side)

    def _tracker(
        self, view: MilleView, history: Sequence[MilleView]
    ) -> tuple[HandTracker | None, tuple[MilleView, ...]]:
        """Expert's hand tracker brought up to the seat's decision before ``view``: fed the
        seat's earlier views of this hand (``history``'s last ones, the same hand's) in order,
        as expert feeds its own at each of its decisions (forced ones too). ``None`` when the
        level has none (``hard``) or there is no one hand to follow (not two players).

        Each view is followed with a random stream of its own (from the evaluator's seed, the
        seat, the hand and the view's place in it), so the particles are a function of the
        views alone, whatever was asked before; a tracker kept from an earlier call whose views
        begin this history is carried on rather than fed again from the hand's start. Returns
        it with the views it was fed."""
        if not self.track or view.n_players != 2:
            return None, ()
        if any(not isinstance(v, MilleView) or v.seat != view.seat for v in history):
            raise ValueError("a decision's history holds the views of its own seat's earlier decisions")
        start = len(history)
        while start > 0 and history[start - 1].hand_no == view.hand_no:
            start -= 1
        seen = tuple(history[start:])
        found = max(
            (i for i, (fed, _) in enumerate(self._trackers) if len(fed) <= len(seen) and seen[: len(fed)] == fed),
            key=lambda i: len(self._trackers[i][0]),
            default=None,
        )
        fed: tuple[MilleView, ...] = ()
        if found is None:
            tracker = HandTracker(self.track, 0)
        else:
            fed, tracker = self._trackers.pop(found)
        agent = self.agent
        agent.tracker = tracker
        for i in range(len(fed), len(seen)):
            tracker.rng = self._stream(view, i)
            agent.observe(seen[i])
        tracker.rng = self._stream(view, len(seen))  # the search observes ``view`` with it
        return tracker, seen

    def _stream(self, view: MilleView, i: int) -> random.Random:
        return random.Random(derive_seed(self.seed, "mille-tracker", view.seat, view.hand_no, i))

    @staticmethod
    def _judge(ev: Evaluation, best: Any, side: int) -> Judgement:
        margin = {a: [m[0] for m in ev.measures[a]] for a in ev.candidates}
        win = {a: [m[1 + side] for m in ev.measures[a]] for a in ev.candidates}
        cands = []
        losses: dict[Any, tuple[float | None, float | None, bool]] = {}
        for a in ev.candidates:
            pts, pts_se = paired(margin[a], margin[best]) if a != best else (0.0, 0.0)
            w, w_se = _mean_se(win[a])
            cands.append(Candidate(a, pts, _finite(pts_se), w, _finite(w_se)))
            dw, dw_se = paired(win[best], win[a]) if a != best else (0.0, 0.0)
            sure = a != best and (-pts > 2 * pts_se or dw > 2 * dw_se)
            losses[a] = (max(0.0, -pts), max(0.0, dw), sure)
        cands.sort(key=lambda c: (c.action != best, -(c.win or 0.0), -(c.points or 0.0)))
        n_sides = len(ev.measures[best][0]) - 1
        wins = tuple(sum(m[1 + s] for m in ev.measures[best]) / len(ev.measures[best]) for s in range(n_sides))
        return Judgement(best, tuple(cands), wins, losses)


class KnightRiderEvaluator:
    """Knight Rider decisions judged by the look-ahead of a level (see the module)."""

    game = "knightrider"

    def __init__(self, spec: str = "expert", seed: int = 0) -> None:
        level, times = parse_spec(spec)
        self.spec, self.seed = spec, seed
        top_k = max(1, round((EXPERT_TOP_K if level == "expert" else HARD_TOP_K) * times))
        self.agent = LookaheadAgent(
            seed, rounds=2, correlated=level == "expert", top_k=top_k, threat_detours=level == "expert", name=spec
        )

    def wins(self, view: Any) -> tuple[float, ...]:
        """Each player's chance to win: the fitted model (:mod:`rallye.analysis.krwinmodel`;
        an even share while the town is built)."""
        return tuple(kr_win_chances(view))

    def evaluate(
        self, view: Any, legal: Sequence[Any], include: Sequence[Any] = (), key: int = 0, history: Sequence[Any] = ()
    ) -> Judgement:
        """``key`` and ``history`` are not read: the look-ahead is exact and remembers nothing."""
        best, values = self.agent.evaluate(view, legal, include)
        wins = self.wins(view)
        # a chance: a move that wins now (the look-ahead's LOOKAHEAD_WIN) counts 1, and the
        # heuristic's small closeness term is kept within [0, 1]
        valued = {a: (None if v is None else min(1.0, max(0.0, v))) for a, v in values}
        top = valued.get(best)
        cands = []
        losses: dict[Any, tuple[float | None, float | None, bool]] = {}
        for a in dict.fromkeys([best, *(a for a, _ in values), *(a for a in include if a in legal)]):
            v = valued.get(a)
            cands.append(Candidate(a, None, None, v, 0.0 if v is not None else None))
            loss = max(0.0, top - v) if top is not None and v is not None else None
            losses[a] = (None, 0.0 if a == best else loss, a != best and loss is not None and loss > 0)
        cands.sort(key=lambda c: (c.action != best, -(c.win if c.win is not None else -math.inf)))
        return Judgement(best, tuple(cands), wins, losses)


class Analyst:
    """The analysis bot as a player: it plays the move the evaluator prefers (for the
    strength check, ``research/ladder.py``'s ``analysis:SPEC``), judging each decision as
    the analysis would from the record: from its view and its earlier views of the hand
    (every decision of its seat, forced ones too)."""

    def __init__(self, game: str, spec: str = "expert", seed: int = 0) -> None:
        self.evaluator = evaluator_for(game, spec, seed)
        self.name = f"analysis:{spec}"
        self.decisions = 0
        self.history: list[Any] = []  # its views so far (Mille Bornes: of the running hand)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        self.decisions += 1
        if isinstance(view, MilleView) and self.history and self.history[-1].hand_no != view.hand_no:
            self.history.clear()  # a new hand: the earlier ones tell the tracker nothing
        history = tuple(self.history)
        if isinstance(view, MilleView):
            self.history.append(view)
        if len(legal) == 1:
            return legal[0]
        return self.evaluator.evaluate(view, legal, key=self.decisions, history=history).best


def evaluator_for(game: str, spec: str = "expert", seed: int = 0) -> MilleEvaluator | KnightRiderEvaluator:
    """The evaluator of ``game`` ("mille" or "knightrider") with the analysis bot ``spec``."""
    if game == "mille":
        return MilleEvaluator(spec, seed)
    if game == "knightrider":
        return KnightRiderEvaluator(spec, seed)
    raise ConfigError(f"no analysis for the game {game!r}")
