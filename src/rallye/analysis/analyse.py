"""A whole game analysed: every decision judged, marked, summed up per player, and the
graph of each side's chance to win (the JSON contract: docs/analysis.md).

:func:`analyse` replays a record through the game's face, and for each move that was a
real choice (more than one legal action) asks the game's evaluator
(:mod:`rallye.analysis.evaluators`) about the acting player's view at that moment, with
the move played among the candidates, and (Mille Bornes) that seat's views at its earlier
decisions, which the player saw too (expert's hand tracker follows the opponent's hand
through them). Only ``view_for(state, seat)`` of the acting seat, now and before, reaches
the evaluator; the optional hindsight line (Mille Bornes only) is the one part that sees
the whole state, and is labelled so.

Marks (:func:`mark`): a move is marked when what it gives up against the preferred move
is more than twice its standard error and reaches a threshold, on the points of the hand
or on the chance to win the match, whichever is the graver (:data:`POINT_MARKS`,
:data:`WIN_MARKS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any

from rallye.agents.mille.search import PimcAgent
from rallye.analysis.evaluators import POINT_MARKS, WIN_MARKS, Evaluator, Judgement, MilleEvaluator, evaluator_for
from rallye.core.errors import RecordError
from rallye.core.game import Game
from rallye.core.jsonio import shown_field
from rallye.core.record import Lines, numbered
from rallye.games import GAMES
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

FORMAT = 1
MARKS = ("inaccuracy", "mistake", "blunder")

Progress = Callable[[int, int], None]


def mark(loss_points: float | None, loss_win: float | None, sure: bool) -> str | None:
    """The mark of a move that gives up ``loss_points`` and ``loss_win`` (either ``None``:
    not estimated); ``sure``: the loss is more than twice its standard error."""
    if not sure:
        return None
    level = -1
    for loss, steps in ((loss_points, POINT_MARKS), (loss_win, WIN_MARKS)):
        if loss is not None:
            level = max(level, sum(1 for s in steps if loss >= s) - 1)
    return MARKS[level] if level >= 0 else None


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


@dataclass(frozen=True, slots=True)
class Decision:
    move: int  # 1-based index into the record's moves
    seat: int
    side: int
    hand: int
    played: str
    best: str
    candidates: tuple[dict[str, Any], ...]
    loss_points: float | None
    loss_win: float | None
    mark: str | None
    win_before: tuple[float, ...]
    hindsight: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "seat": self.seat,
            "side": self.side,
            "hand": self.hand,
            "played": self.played,
            "best": self.best,
            "candidates": list(self.candidates),
            "loss_points": _r(self.loss_points, 1),
            "loss_win": _r(self.loss_win),
            "mark": self.mark,
            "win_before": [_r(w) for w in self.win_before],
            "hindsight": self.hindsight,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    game: str
    bot: str
    seed: int
    sides: tuple[tuple[int, ...], ...]
    moves: int
    decisions: tuple[Decision, ...]
    graph: tuple[tuple[float, ...], ...]
    players: tuple[dict[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The analysis as the contract's JSON (docs/analysis.md)."""
        return {
            "format": FORMAT,
            "game": self.game,
            "bot": self.bot,
            "seed": self.seed,
            "sides": [list(s) for s in self.sides],
            "moves": self.moves,
            "decisions": [d.to_json() for d in self.decisions],
            "graph": [[_r(w) for w in point] for point in self.graph],
            "players": list(self.players),
        }


def _side_of(sides: Sequence[Sequence[int]], seat: int) -> int:
    return next(i for i, s in enumerate(sides) if seat in s)


def _hand(view: Any) -> int:
    return int(view.hand_no) if isinstance(view, MilleView) else int(view.turn)


class _Hindsight(PimcAgent):
    """The search dealt the true hidden cards (and the true order of the draw pile): the
    decision judged with everything known. Only the hindsight line uses it."""

    true_state: MilleState | None = None

    def _sample(self, view: MilleView, excl: Any, pool: Any) -> MilleState:
        assert self.true_state is not None
        return self.true_state


def _hindsight(
    game: Game[Any, Any, Any], evaluator: MilleEvaluator, state: MilleState, view: MilleView, played: Any
) -> dict[str, Any]:
    """The decision judged with every card known (every deal is the true one; ``view``:
    the acting seat's in ``state``)."""
    base = evaluator.agent
    agent = _Hindsight(
        0,
        top_k=base.top_k,
        extra_discards=base.extra_discards,
        style=base.style,
        deals=2,  # every deal is the same one
        plies=base.plies,
        horizon=base.horizon,
        endgame=base.endgame,
        match_weight=0.0,  # the points of the hand alone
    )
    agent.true_state = state
    ev = agent.evaluate(view, game.legal_actions(state), (played,), prune=False)
    best = max(ev.candidates, key=lambda a: (ev.values[a][0] if ev.values[a] else 0.0, a == ev.candidates[0]))
    loss = (ev.values[best][0] - ev.values[played][0]) if ev.values[played] else 0.0
    return {"label": "hindsight", "best": game.format_action(best), "loss_points": _r(max(0.0, loss), 1)}


def analyse(
    lines: Lines,
    *,
    bot: str = "expert",
    seed: int = 0,
    hindsight: bool = False,
    progress: Progress | None = None,
    source: str = "<record>",
) -> Analysis:
    """Analyse a game record (its JSON lines, bare or numbered): see the module.
    ``progress(done, total)`` is called after each move; a broken record raises the
    replay's :class:`~rallye.core.errors.RecordError`, an unknown bot a ConfigError."""
    pairs = numbered(lines)
    if not pairs:
        raise RecordError(f"{source}: the record is empty (no header line)", rule="record-format")
    number, head = pairs[0]
    key = head.get("game")
    if key not in GAMES:
        raise RecordError(
            f"{source}: line {number}: the header names no known game (field 'game' is "
            f"{shown_field(head, 'game')}); expected {' or '.join(map(repr, GAMES))}",
            rule="record-format",
        )
    game = GAMES[key]
    evaluator = evaluator_for(game.key, bot, seed)
    rep = game.replay(pairs, source)
    sides = game.outcome(rep.initial).sides
    n_sides = len(sides)
    state = rep.initial
    decisions: list[Decision] = []
    graph: list[tuple[float, ...]] = []
    total = len(rep.moves)
    seen: dict[int, list[Any]] = {}  # Mille Bornes: each seat's views at its decisions so far
    for i, (seat, action) in enumerate(rep.moves):
        # the acting seat's view, taken once: judged, kept for the seat's next decisions (the
        # very object, which the evaluator's kept trackers then find by identity), and the
        # graph's point when the move was forced
        view = game.view_for(state, seat)
        mine = seen.setdefault(seat, [])
        judged = judge_view(game, evaluator, view, seat, _side_of(sides, seat), action, i + 1, mine)
        if isinstance(evaluator, MilleEvaluator):
            mine.append(view)
        if judged is None:
            graph.append(evaluator.wins(view))
        else:
            decision, wins = judged
            if hindsight and isinstance(evaluator, MilleEvaluator) and isinstance(state, MilleState):
                decision = _with_hindsight(decision, _hindsight(game, evaluator, state, view, action))
            decisions.append(decision)
            graph.append(wins)
        state = game.apply(state, action, seat)
        if progress is not None:
            progress(i + 1, total)
    out = game.outcome(state)
    if out.winners:
        graph.append(tuple(1.0 / len(out.winners) if s in out.winners else 0.0 for s in range(n_sides)))
    else:
        to_act = game.current_player(state)
        graph.append(evaluator.wins(game.view_for(state, to_act if to_act is not None else 0)))
    # the graph's points are "after each move": the chance before move i+1 is the one after move i
    return Analysis(
        game=game.key,
        bot=bot,
        seed=seed,
        sides=sides,
        moves=total,
        decisions=tuple(decisions),
        graph=tuple(graph),
        players=_players(decisions, sum(len(s) for s in sides)),
    )


def decision_views(game: Game[Any, Any, Any], lines: Lines, seat: int) -> tuple[Any, ...]:
    """``seat``'s views at its decisions so far, forced ones too, in order, in the game whose
    record ``lines`` hold (a game in play: the coach's ``history``, :meth:`Coach.hint
    <rallye.analysis.coach.Coach.hint>`). Mille Bornes: those of the running hand, all that
    expert's hand tracker follows; Knight Rider: none (its look-ahead remembers nothing).
    Only ``view_for(state, seat)`` is taken of each state: what that player saw. It reads
    the whole record (a fresh :class:`DecisionViews`); a game in play keeps one, which
    reads the moves since its last call."""
    return DecisionViews(game).of(lines, seat)


class DecisionViews:
    """:func:`decision_views` of a game in play, kept from one call to the next: each asked
    seat's views at its decisions of the running hand, followed along the record as it
    grows, so a call costs the views of the moves since the last one (the terminal's and the
    server's coach: a hint each time a person asks, in a game of hundreds of moves).

    ``of(lines, seat)`` gives what ``decision_views(game, lines, seat)`` gives. The record
    followed is trusted only while it is the same list with the same lines (the very objects)
    at the start: another list (a reload, a resumed game) or a line taken back or replaced
    (a move undone) starts again from the record, as does the first call for a seat. The
    state it follows, secrets and all, stays inside; only ``view_for(state, seat)`` of the
    asked seat's own moves is given out. Mille Bornes only (Knight Rider: ``()``, as
    :func:`decision_views`)."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self._lines: Lines | None = None  # the record followed (the list object)
        self._seen: list[Any] = []  # its lines read so far (the objects)
        self._state: Any = None  # the state after them
        self._views: dict[int, list[Any]] = {}  # per seat asked: its views of the running hand
        self.rebuilt = 0  # how often the record was read from its start (a test counts them)

    def of(self, lines: Lines, seat: int) -> tuple[Any, ...]:
        """``seat``'s views at its decisions of the running hand, forced ones too, in order,
        in the game whose record ``lines`` hold (bare, as the game writes them, or numbered,
        as :func:`~rallye.core.record.read_jsonl` reads them)."""
        if self.game.key != "mille":
            return ()
        kept = lines is self._lines and len(lines) >= len(self._seen) and all(map(is_, self._seen, lines))
        if not kept or seat not in self._views:
            self._rebuild(lines, {*self._views, seat})
        else:
            self._follow(lines)
        hand = self._state.hand_no
        return tuple(v for v in self._views[seat] if v.hand_no == hand)

    def _rebuild(self, lines: Lines, seats: set[int]) -> None:
        """Read the record from its start (verified, as a replay), following ``seats``."""
        rep = self.game.replay(lines)
        self.rebuilt += 1
        self._lines, self._seen, self._state = lines, [], rep.initial
        self._views = {s: [] for s in seats}
        for mover, action in rep.moves:
            self._step(mover, action)
        self._seen = list(lines)

    def _follow(self, lines: Lines) -> None:
        """The moves of the lines added since the last call (a live record holds the engine's
        own moves: the deals, score and end lines follow from them)."""
        game = self.game
        for item in lines[len(self._seen) :]:
            line = item[1] if isinstance(item, tuple) else item
            if line.get("type") == "action":
                self._step(int(line["player"]), game.parse_action(line["action"]))
            self._seen.append(item)

    def _step(self, mover: int, action: Any) -> None:
        views = self._views.get(mover)
        if views is not None:
            view = self.game.view_for(self._state, mover)
            if views and views[-1].hand_no != view.hand_no:
                views.clear()  # a new hand: the earlier ones are no longer given out
            views.append(view)
        self._state = self.game.apply(self._state, action, mover)


def judge(
    game: Game[Any, Any, Any],
    evaluator: Evaluator,
    state: Any,
    seat: int,
    action: Any,
    move: int,
    history: Sequence[Any] = (),
) -> tuple[Decision, tuple[float, ...]] | None:
    """Move number ``move`` (1-based), ``action`` by ``seat`` in ``state``, judged from the
    seat's view (``None`` when it was no choice): the decision and each side's chance to win
    before it. Nothing of ``state`` but ``view_for(state, seat)`` (and the seat's side,
    public) reaches the evaluator, with ``history``: the seat's views at its earlier
    decisions, forced ones too, in order (:func:`judge_view`)."""
    side = _side_of(game.outcome(state).sides, seat)
    return judge_view(game, evaluator, game.view_for(state, seat), seat, side, action, move, history)


def judge_view(
    game: Game[Any, Any, Any],
    evaluator: Evaluator,
    view: Any,
    seat: int,
    side: int,
    action: Any,
    move: int,
    history: Sequence[Any] = (),
) -> tuple[Decision, tuple[float, ...]] | None:
    """:func:`judge` from ``seat``'s ``view`` (``side``: the seat's side): the view and
    ``history`` are what the evaluator sees, and all it sees."""
    legal = game.legal_from_view(view)
    if len(legal) <= 1:
        return None
    judged = evaluator.evaluate(view, legal, (action,), key=move - 1, history=history)
    return _decision(game, judged, move, seat, side, _hand(view), action), judged.wins


def _with_hindsight(d: Decision, h: dict[str, Any]) -> Decision:
    return Decision(
        d.move,
        d.seat,
        d.side,
        d.hand,
        d.played,
        d.best,
        d.candidates,
        d.loss_points,
        d.loss_win,
        d.mark,
        d.win_before,
        h,
    )


def _decision(
    game: Game[Any, Any, Any], j: Judgement, move: int, seat: int, side: int, hand: int, played: Any
) -> Decision:
    loss_points, loss_win, sure = j.losses.get(played, (None, None, False))
    cands = tuple(
        {
            "action": game.format_action(c.action),
            "points": _r(c.points, 1),
            "points_se": _r(c.points_se, 1),
            "win": _r(c.win),
            "win_se": _r(c.win_se),
        }
        for c in j.candidates
    )
    return Decision(
        move=move,
        seat=seat,
        side=side,
        hand=hand,
        played=game.format_action(played),
        best=game.format_action(j.best),
        candidates=cands,
        loss_points=loss_points,
        loss_win=loss_win,
        mark=mark(loss_points, loss_win, sure),
        win_before=j.wins,
        hindsight=None,
    )


def _players(decisions: Sequence[Decision], players: int) -> tuple[dict[str, Any], ...]:
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        judged = [d for d in mine if d.loss_win is not None or d.loss_points is not None]
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "judged": len(judged),
                "agreement": _r(sum(d.played == d.best for d in judged) / len(judged)) if judged else None,
                "loss_points": _r(sum(d.loss_points or 0.0 for d in mine), 1)
                if any(d.loss_points is not None for d in mine)
                else None,
                "loss_win": _r(sum(d.loss_win or 0.0 for d in mine)),
                "marks": {m: sum(d.mark == m for d in mine) for m in MARKS},
            }
        )
    return tuple(out)
