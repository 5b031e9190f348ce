"""The analysis's sequential stopping rule (``SequentialStop``): a candidate clearly worse
than the leader, or practically equal to it, is played on no further deal; the move played
stays until its mark is settled; stopping only cuts the deals short, never changes them."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rallye.agents.mille.search import Evaluation, PimcAgent, hand_outcome
from rallye.analysis.evaluators import POINT_MARKS, WIN_MARKS, MilleEvaluator, SequentialStop
from rallye.analysis.winmodel import win_chances
from rallye.core.rng import derive_seed
from rallye.games import game_for
from rallye.mille.actions import Action
from rallye.mille.cards import CARDS
from rallye.mille.state import MilleState

from .test_analysis import MILLE_DECISIONS

#: named moves for the made-up evaluations (the rule only compares their values)
NAMES = ("base", "bad", "close", "same", "good", "played")
MOVES = {name: Action("discard", card) for name, card in zip(NAMES, CARDS[: len(NAMES)], strict=True)}


class _Settle:
    """The rule on a made-up evaluation of named moves (the first the move to beat), each
    with values ``mean + noise`` a deal (the same large noise on a deal for all, as the
    deals of a paired comparison, and a move's own), its win chance following its points."""

    def __init__(self, per_move: dict[str, tuple[float, float]], deals: int, asked: Sequence[str] = ()) -> None:
        rng = random.Random(1)
        shared = [rng.gauss(0.0, 300.0) for _ in range(deals)]
        values: dict[Action, list[float]] = {}
        measures: dict[Action, list[Sequence[float]]] = {}
        for name, (mean, spread) in per_move.items():
            own = [mean + s + rng.gauss(0.0, spread) for s in shared]
            values[MOVES[name]] = own
            measures[MOVES[name]] = [(v, 0.5 + v / 10000.0, 0.5 - v / 10000.0) for v in own]
        self.ev = Evaluation(tuple(MOVES[n] for n in per_move), values, measures, deals, 0)
        self.stop = _stop(tuple(MOVES[n] for n in asked))

    def __call__(self, *alive: str) -> tuple[str, ...]:
        names = {a: n for n, a in MOVES.items()}
        return tuple(names[a] for a in self.stop(self.ev, tuple(MOVES[n] for n in alive)))


def _stop(asked: Sequence[Action] = (), side: int = 0) -> SequentialStop:
    return SequentialStop(side, frozenset(asked), PimcAgent(z=1.0, min_gain=0.0).verdict, (POINT_MARKS, WIN_MARKS))


def test_a_clearly_worse_candidate_is_dropped_and_a_close_one_played_on() -> None:
    settle = _Settle({"base": (0.0, 40.0), "bad": (-400.0, 40.0), "close": (-5.0, 150.0)}, 32)
    assert settle("bad", "close") == ("close",)
    # between two looks (every 16 deals from 32 on) nothing is dropped
    assert _Settle({"base": (0.0, 40.0), "bad": (-400.0, 40.0)}, 33)("bad") == ("bad",)
    assert _Settle({"base": (0.0, 40.0), "bad": (-400.0, 40.0)}, 31)("bad") == ("bad",)
    assert _Settle({"base": (0.0, 40.0), "bad": (-400.0, 40.0)}, 48)("bad") == ()


def test_the_decision_stops_when_all_but_the_leader_are_settled() -> None:
    # "same" gives up nothing on any deal: practically equal; "bad" is clearly worse
    assert _Settle({"base": (0.0, 0.0), "same": (0.0, 0.0), "bad": (-400.0, 40.0)}, 48)("same", "bad") == ()
    # an alternative clearly better than the move to beat leads: played on while one is close
    settle = _Settle({"base": (0.0, 40.0), "good": (300.0, 40.0), "close": (290.0, 150.0)}, 32)
    assert settle("good", "close") == ("good", "close")
    assert _Settle({"base": (0.0, 40.0), "good": (300.0, 40.0)}, 32)("good") == ()


def test_the_move_played_stays_until_its_mark_is_settled() -> None:
    # clearly worse, but its loss (about 150 points) is at the mistake threshold: unsettled
    at_threshold = {"base": (0.0, 40.0), "played": (-POINT_MARKS[1], 60.0)}
    assert _Settle(at_threshold, 32, asked=("played",))("played") == ("played",)
    assert _Settle(at_threshold, 32)("played") == ()  # not asked about: dropped as clearly worse
    # a loss far past the last threshold on both scales: its mark is settled
    assert _Settle({"base": (0.0, 40.0), "played": (-3000.0, 40.0)}, 32, asked=("played",))("played") == ()


def test_stopping_cuts_the_deals_short_and_changes_none() -> None:
    game = game_for("mille")
    cut_short = 0
    for state, seat, action, move in MILLE_DECISIONS[:6]:
        view = game.view_for(state, seat)
        legal = game.legal_actions(state)
        evaluator = MilleEvaluator("expert", 3)
        agent = evaluator.agent
        j = evaluator.evaluate(view, legal, (action,), key=move)  # the analysis: it stops early
        spent = agent.last_plies
        side, root = view.side, len(view.sheets)

        def measure(end: MilleState, side: int = side, root: int = root) -> list[float]:
            return [hand_outcome(end, side, root, 0.0), *win_chances(end)]

        runs = []
        for settle in (_stop((action,), side), None):
            agent.rng = random.Random(derive_seed(3, "mille-analysis", move))
            agent.tracker, _ = evaluator._tracker(view, ())  # expert's tracker, as the evaluator starts it
            runs.append(agent.evaluate(view, legal, (action,), prune=False, measure=measure, settle=settle))
        stopped, full = runs
        assert stopped.plies == spent and j.best in stopped.candidates
        # (the full search may run out of engine steps before its count of deals: the one
        # that stops early can then play more deals of the moves still in question)
        assert stopped.plies <= full.plies
        cut_short += stopped.plies < full.plies
        for a in full.candidates:  # the same deals in the same order
            n = min(len(stopped.values[a]), len(full.values[a]))
            assert n >= 32 and stopped.values[a][:n] == full.values[a][:n]
            assert stopped.measures[a][:n] == full.measures[a][:n]
    assert cut_short > 0
