"""Information-set Monte Carlo tree search for Mille Bornes (``ismcts``).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree over the *bot's*
information set, keyed by action sequences. Each iteration

1. samples a determinization from the bot's view (:mod:`rallye.agents.mille.sampler`:
   the others' hands and the draw-pile order, consistent with everything public);
2. descends the tree with UCB1 over the actions legal *in that determinization*
   (availability counts), with a progressive bias towards the heuristic's ranking at
   the root;
3. expands one action, then plays a fast rule-based rollout for a bounded number of plies,
   never past the end of the hand;
4. scores the end with a static evaluation per side (this hand's points if it ended, else
   an estimate from the tableaus; in a match, finishing the match counts most) and backs
   the value up, each node taking the value of the side that chose it.

The engine (``rallye.mille.apply`` / ``legal_actions``) is the only rules model used. The
bot is deterministic for a seed when it is budgeted by iterations; ``time_limit`` adds an
optional wall-clock cap (then it is not).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence

from rallye.agents.base import register
from rallye.agents.mille.distilled import Weights, pick, pick_read, shipped_weights, top_moves
from rallye.agents.mille.heuristic import CLASSIC, FITTED, Reading, Style, best_action, best_scored, rank_actions
from rallye.agents.mille.leaf import DECISION_WEIGHTS, banked, decision_estimate, learned_estimate
from rallye.agents.mille.leaf import WEIGHTS as LEAF_WEIGHTS
from rallye.agents.mille.sampler import (
    Exclusion,
    TurnReplay,
    discard_inferences,
    exclusions,
    last_turn_replay,
    play_inferences,
    sample_state,
    unseen_cards,
)
from rallye.agents.mille.tracker import HandTracker
from rallye.agents.tree import Deadline, Node, iterate
from rallye.mille.actions import Action
from rallye.mille.cards import (
    BATTLE_HAZARDS,
    CARDS,
    D200,
    DISTANCE_KM,
    END_OF_LIMIT,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_AGAINST,
    SAFETY_FOR,
    SPEED_LIMIT,
)
from rallye.mille.engine import apply, legal_actions
from rallye.mille.playout import Playout
from rallye.mille.state import MilleState, Tableau
from rallye.mille.view import MilleView, view_for

try:  # read by mypyc alone (scripts/compile); a pure-Python install need not have it
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - the core install

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


RolloutPolicy = Callable[[MilleState, Sequence[Action], random.Random], Action]


# -- the rollout policy ----------------------------------------------------------------
def _static_value(card: str, tab: Tableau, remaining: int) -> float:
    if card in SAFETIES:
        return 1000.0
    km = DISTANCE_KM.get(card)
    if km is not None:
        if km > remaining or (card == D200 and tab.d200 >= 2):
            return 0.0
        return 30.0 + km / 2
    if card in BATTLE_HAZARDS:
        return 60.0
    if card == SPEED_LIMIT:
        return 35.0
    if card == ROLL:
        return 0.0 if RIGHT_OF_WAY in tab.safeties else 90.0
    if card == END_OF_LIMIT:
        return 0.0 if RIGHT_OF_WAY in tab.safeties or remaining <= 50 else 25.0
    return 0.0 if SAFETY_FOR[REMEDY_FOR[card]] in tab.safeties else 55.0


def fast_policy(state: MilleState, legal: Sequence[Action], rng: random.Random) -> Action:
    """A cheap rule-based policy on a (determinized) state, the heuristic's habits in brief:
    finish, cure, roll, attack the leader, drive far, hold safeties, discard the deadest."""
    if state.phase == "extend":
        return legal[-1]  # decline: bank the trip
    seat = state.current
    side = state.side_of[seat]
    tabs = state.tableaus
    tab = tabs[side]
    target = state.target
    remaining = target - tab.km
    late = state.draw_pos >= len(state.deck) - 2 * state.n_players
    best = legal[0]
    best_score = -1e9
    for a in legal:
        verb, card = a.verb, a.card
        if verb == "play":
            km = DISTANCE_KM.get(card)  # type: ignore[arg-type]
            if km is not None:
                s = 3000.0 if km == remaining else 300.0 + km - (100.0 if card == D200 and tab.d200 == 0 else 0.0)
                if remaining - km == 25:
                    s -= 60.0
            elif card in SAFETIES:
                against = SAFETY_AGAINST[card]
                if tab.battle_top in against or (card == RIGHT_OF_WAY and tab.limited):
                    s = 1200.0
                elif state.edition.extra_turn_after_safety:
                    s = 940.0
                else:
                    s = 460.0 if late or remaining <= 100 else 40.0
            elif card == ROLL:
                s = 950.0
            elif card == END_OF_LIMIT:
                s = 1000.0 if remaining > 50 else 290.0
            else:
                s = 1000.0
        elif verb == "attack":
            t = tabs[a.side]  # type: ignore[index]
            s = 700.0 + 300.0 * t.km / target
            if card == SPEED_LIMIT:
                s -= 250.0 if target - t.km > 50 else 700.0
        else:
            s = 100.0 - _static_value(card, tab, remaining)  # type: ignore[arg-type]
        s += rng.random() * 30.0
        if s > best_score:
            best, best_score = a, s
    return best


# -- evaluation ------------------------------------------------------------------------
def _estimate(state: MilleState, side: int) -> float:
    """Expected points of ``side`` in the running hand, roughly."""
    tab = state.tableaus[side]
    sc = state.edition.scoring
    est = banked(state, side)
    est += 0.6 * (sc.trip + sc.safe_trip * (tab.d200 == 0) * 0.5) * (tab.km / state.target) ** 2
    if tab.rolling:
        est += 60.0
    elif tab.battle_top in BATTLE_HAZARDS:
        est -= 60.0
    if tab.limited:
        est -= 25.0
    held = sum(1 for p in state.sides[side] for c in state.hands[p] if c in SAFETIES)
    est += (sc.safety + 0.3 * sc.coup_fourre_bonus) * held * 0.7
    return est


def evaluate(state: MilleState, root_sheets: int) -> list[float]:
    """One value in [-1, 1] per side: how good the position is for that side."""
    n = len(state.sides)
    if len(state.sheets) > root_sheets:
        pts: list[float] = list(state.sheets[root_sheets].hand_totals)
        totals: list[float] = list(state.sheets[root_sheets].totals)
        if state.winners and len(state.sheets) == root_sheets + 1:
            return [1.0 if s in state.winners else -1.0 for s in range(n)]
    else:
        pts = [_estimate(state, s) for s in range(n)]
        totals = [t + p for t, p in zip(state.totals, pts, strict=True)]
    out = []
    mt = state.edition.match_target
    for s in range(n):
        other = max(pts[o] for o in range(n) if o != s)
        v = math.tanh((pts[s] - other) / 700.0)
        if mt is not None:
            best_other = max(totals[o] for o in range(n) if o != s)
            if totals[s] >= mt and totals[s] > best_other:
                v = 0.5 + 0.5 * v
            elif best_other >= mt and best_other > totals[s]:
                v = -0.5 + 0.5 * v
        out.append(v)
    return out


# -- the tree search (the tree: rallye.agents.tree) -----------------------------------------
class IsmctsAgent:
    """Information-set MCTS; ``iterations`` per decision (deterministic for a seed), and
    optionally a ``time_limit`` in seconds that stops earlier."""

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 200,
        time_limit: float | None = None,
        rollout_plies: int = 12,
        exploration: float = 0.7,
        prior_weight: float = 1.0,
        root_top_k: int | None = 3,
        rollout: RolloutPolicy = fast_policy,
        name: str = "ismcts",
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.name = name
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout_plies = rollout_plies
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.root_top_k = root_top_k
        self.rollout = rollout
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def choose(self, view: MilleView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        ranked = rank_actions(view, legal)
        if len(legal) == 1:
            return legal[0]
        if self.root_top_k is not None:
            # only the heuristic's best few are searched: the search refines, it does not
            # wander among moves the heuristic finds poor
            ranked = ranked[: self.root_top_k]
            if len(ranked) == 1:
                return ranked[0][1]
        prior = {a: 1.0 / (1 + i) for i, (_, a) in enumerate(ranked)}
        excl = exclusions(view)
        pool = unseen_cards(view)
        root: Node[Action] = Node()
        deadline = Deadline(self.time_limit)
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007 (the count is kept)
            self._iterate(view, root, prior, excl, pool)
            if deadline.passed():
                break
        self.last_iterations = done
        best = max(
            (a for a in legal if a in root.children and a in prior),
            key=lambda a: (root.children[a].n, root.children[a].w / max(1, root.children[a].n), prior[a]),
            default=ranked[0][1],
        )
        return best

    def _iterate(
        self,
        view: MilleView,
        root: Node[Action],
        prior: dict[Action, float],
        excl: Sequence[Exclusion],
        pool: Sequence[str],
    ) -> None:
        """One determinization, down the tree from ``root`` (the heuristic's candidates,
        ``prior`` their bias) and a rollout, to the end of the hand at the most."""
        rng = self.rng
        state = sample_state(view, rng, excl, pool)
        hand_no = state.hand_no
        root_sheets = len(state.sheets)
        policy = self.rollout
        prior_weight = self.prior_weight

        def going(s: MilleState) -> bool:
            return s.phase != "over" and s.hand_no == hand_no

        def offered(s: MilleState, at_root: bool) -> Sequence[Action]:
            legal = legal_actions(s)
            return tuple(a for a in legal if a in prior) if at_root else legal

        def expand(s: MilleState, legal: Sequence[Action], untried: list[Action], at_root: bool) -> Action:
            if at_root:
                return max(untried, key=lambda x: prior.get(x, 0.0))
            pick = policy(s, legal, rng)
            return pick if pick in untried else untried[rng.randrange(len(untried))]

        iterate(
            state,
            root,
            [],
            going=going,
            offered=offered,
            actor=lambda s: s.side_of[s.current],
            expand=expand,
            apply=apply,
            rollout=lambda s: policy(s, legal_actions(s), rng),
            values=lambda s: evaluate(s, root_sheets),
            exploration=self.exploration,
            root_bias=lambda a, child: prior_weight * prior.get(a, 0.0) / (1 + child.n) ** 0.5,
            plies=self.rollout_plies,
        )


def heuristic_rollout(state: MilleState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The full heuristic as a rollout policy, on the acting player's view of the
    determinization (slower than :func:`fast_policy`, closer to real play)."""

    ranked = rank_actions(view_for(state, state.current), legal)
    if len(ranked) > 1 and rng.random() < 0.1:
        return ranked[1][1]
    return ranked[0][1]


register("mille", "ismcts", lambda seed: IsmctsAgent(seed))


# -- determinized search with heuristic rollouts (PIMC) ----------------------------------
def pile_counts(deck: Sequence[str], start: int) -> list[dict[str, int]]:
    """For every draw position ``p >= start`` of ``deck``, the card counts of the draw pile
    ``deck[p:]`` (every card key present), at index ``p - start``: a rollout reads the
    unseen counts of the player to act from these instead of recounting the pile."""
    counts = dict.fromkeys(CARDS, 0)
    out = [counts]
    for c in reversed(deck[start:]):
        counts = dict(counts)
        counts[c] += 1
        out.append(counts)
    out.reverse()
    return out


def _fast_reading(
    state: MilleState | Playout,
    view: MilleView,
    piles: Sequence[dict[str, int]] | None = None,
    start: int = 0,
    style: Style = CLASSIC,
) -> Reading:
    """``Reading.of(view)`` for the player to act in ``state``, with the unseen counts taken
    from the (determinized) state's hidden cards instead of recounting the deck: the cards
    this seat has not seen are exactly the draw pile and the other hands. ``piles`` (from
    :func:`pile_counts` of ``state.deck`` at ``start``) saves counting the draw pile."""
    seat = state.current
    if piles is not None:
        unseen = dict(piles[state.draw_pos - start])
    else:
        unseen = dict.fromkeys(CARDS, 0)
        for c in state.deck[state.draw_pos :]:
            unseen[c] += 1
    for p, h in enumerate(state.hands):
        if p != seat:
            for c in h:
                unseen[c] += 1
    return Reading.with_unseen(view, unseen, style)


def _acting_view(state: MilleState | Playout) -> MilleView:
    """The view of the seat to act (a playout builds it from its own fields)."""
    if isinstance(state, Playout):
        return state.view(state.current)
    return view_for(state, state.current)


def heuristic_policy(
    state: MilleState | Playout,
    legal: Sequence[Action],
    piles: Sequence[dict[str, int]] | None = None,
    start: int = 0,
    style: Style = CLASSIC,
) -> Action:
    """Exactly the heuristic's choice (``best_action`` in ``style`` on the acting seat's
    view of ``state``), computed faster: the view's unseen counts come from the state (and
    from ``piles``, :func:`pile_counts` of ``state.deck`` at ``start``, when given)."""
    if len(legal) == 1:
        return legal[0]
    view = _acting_view(state)
    if state.phase == "extend":
        return best_action(view, legal, style)
    return best_scored(_fast_reading(state, view, piles, start, style), legal)


def distilled_policy(
    state: MilleState | Playout,
    legal: Sequence[Action],
    weights: Weights,
    piles: Sequence[dict[str, int]] | None = None,
    start: int = 0,
) -> Action:
    """Exactly the ``distilled`` bot's choice (:class:`~rallye.agents.mille.distilled.
    DistilledAgent` with ``weights``) on the acting seat's view of ``state``, computed
    faster, as :func:`heuristic_policy` computes the heuristic's."""
    if len(legal) == 1:
        return legal[0]
    view = _acting_view(state)
    if state.phase == "extend":
        return best_action(view, legal, FITTED)
    return pick_read(_fast_reading(state, view, piles, start, FITTED), legal, weights)


def hand_outcome(
    state: MilleState,
    side: int,
    root_sheets: int,
    match_weight: float,
    estimate: Callable[[MilleState, int], float] = _estimate,
) -> float:
    """The value for ``side`` of a state reached by a rollout: this hand's points minus the
    best opposing side's, plus ``match_weight`` if the hand won the match (minus if lost).
    A hand not yet over is valued by ``estimate`` (by default :func:`_estimate`: the points
    on the table and hand-set allowances; or the learned :mod:`rallye.agents.mille.leaf`)."""
    n = len(state.sides)
    if len(state.sheets) > root_sheets:
        pts: Sequence[float] = state.sheets[root_sheets].hand_totals
    else:
        pts = [estimate(state, s) for s in range(n)]
    value = pts[side] - max(pts[o] for o in range(n) if o != side)
    if state.winners and len(state.sheets) == root_sheets + 1:
        value += match_weight if side in state.winners else -match_weight
    return value


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, it may still be subclassed (the diagnostics do)
class PimcAgent:
    """Determinized (perfect-information Monte Carlo) search that corrects the heuristic.

    Per decision: the heuristic ranks the legal actions and its ``top_k`` best are the
    candidates (one candidate: no search). Then, deal after deal (a sample of the hidden
    cards consistent with the view, :mod:`rallye.agents.mille.sampler`), every surviving
    candidate is played on that *same* deal and followed by the heuristic for all seats
    (:func:`heuristic_policy`) for ``horizon`` engine steps (``None``: to the end of the
    hand), and scored by :func:`hand_outcome` (this hand's point difference, or the points
    on the table if the hand goes on, plus ``match_weight`` when the hand decides the
    match). Playing all candidates on the same deals (common random numbers) turns the
    comparison into a paired one, far less noisy than independent samples.

    A short horizon trades a little bias for much less noise: a whole hand's rollout
    differs from deal to deal by many hundreds of points, so a few dozen deals cannot
    tell moves apart; a dozen steps ahead, the points on the table are far steadier and
    each deal is cheap, so many more fit the budget. Measured on positions from real games
    (each candidate's true value from 160 rollouts to the end on the real hidden hands),
    a 12-step horizon gains about 10-13 points a decision over the heuristic where
    rollouts to the end gain about 1 (docs/bots.md, "Mille Bornes bots"). The extension
    decision is always rolled out to the end of the hand: what it risks is the trip.

    The heuristic's choice stands unless an alternative beats it, paired deal by deal, by
    a mean of more than ``min_gain`` points *and* ``z`` standard errors: the search
    corrects the heuristic where the evidence is clear (the extension decision, holding
    or banking a safety, which card to give up) instead of trading its judgement for
    sampling noise.

    Two refinements, off by default: ``extra_discards`` adds the heuristic's best few
    discards beyond the ``top_k`` to the candidates (which card to give up is where the
    heuristic's ranking is weakest: the best discard by the oracle of
    ``benchmarks/mille_decisions.py`` is often its 4th-6th choice); and ``endgame``: once
    the draw pile holds at most that many cards, rollouts run to the end of the hand
    whatever the ``horizon`` (the rest of the hand is short, and the bonuses that decide
    it -- delayed action, shutout, safe trip -- are invisible to the points on the table).

    A third, off by default and in no level: ``read_turns`` (a weight in (0, 1]) weighs the
    deals by the move just made before this turn, replayed with the heuristic
    (:func:`~rallye.agents.mille.sampler.last_turn_replay`): a deal in which the heuristic
    would have moved otherwise is kept with that probability. Measured on the 758
    positions of ``benchmarks/mille_decisions.py --hands 48 --first-seed 20000``, paired
    against ``expert``: weight 0.02 +0.48 +- 1.38 points a decision, 0.1 +0.30 +- 1.60,
    0.3 -1.04 +- 1.69 -- no gain shown, so ``expert`` does not use it. It costs a heuristic
    replay per sample drawn: with a small weight and a move few hands explain, up to about
    1/weight samples per deal (capped by the sampler's rejection limit), so a decision can
    take several times longer than without it.

    Another, off by default and in no level: ``read_plays`` (a weight in [0, 1)) draws the
    deals with :func:`~rallye.agents.mille.sampler.play_inferences` in place of the last
    discard's: the others' habits read over every turn in the event window (a stopped side
    that did not cure held no cure; a player who drove on or discarded while an attack was
    open held no such hazard). On the 784 positions of ``benchmarks/mille_decisions.py
    --hands 48 --first-seed 20000``, paired against ``expert``: weight 0.1 +0.73 [-0.46,
    +1.92] points a decision, 0.3 +0.40, 0.02 +0.36, 0 -0.83; on 641 fresh positions
    (``--first-seed 30000``) 0.1 +0.67 [-1.18, +2.52] -- no gain shown.

    And ``track`` (a number of particles, 0: off; 2 players): the deals give the opponent a
    hand from :class:`~rallye.agents.mille.tracker.HandTracker`, a particle filter that
    follows the opponent's hand through the whole hand, keeping only the hands with which
    the classic heuristic would have made each of its moves. It is fed every decision,
    forced ones too. On the same 784 positions (each bot first shown its seat's earlier
    views of the hand), paired against ``expert``: 300 particles +0.03 [-1.56, +1.62],
    1,000 +2.32 [+0.64, +3.99], 1,001 +0.21 [-1.58, +2.00], 2,000 +0.10 [-1.60, +1.80] -- no
    gain shown (the 1,000 a lucky draw: the same filter with other random draws gains none,
    and 1,000 on 641 fresh positions -0.37 [-1.92, +1.19]). In matches against the
    heuristic, once it followed laid safeties and coups fourrés, with a 16-step horizon and
    1,000 particles: +4.9 [+0.7, +9.1] points of win rate paired against the previous
    ``expert`` (12 steps, no filter) on 368 games (two versions of the filter; docs/bots.md, "Mille
    Bornes bots"), so ``expert`` uses it (1,000 particles, 16 steps:
    :mod:`rallye.agents.mille.levels`).

    A fourth, off by default and in no level: ``leaf=True`` values a rollout stopped before
    the end of the hand by the learned :func:`~rallye.agents.mille.leaf.learned_estimate`
    (fitted per edition for two sides; other player counts keep :func:`_estimate`). It
    predicts the rest of a hand twice as well (R^2 0.24 against 0.11, wm2006), yet the
    decisions do not improve: on the 762 positions of ``benchmarks/mille_decisions.py
    --hands 48 --first-seed 20000``, paired against the same search without it, -0.71
    [-2.05, +0.63] points a decision, and with the shorter horizons a better leaf could
    allow, worse (6 steps with 320 deals -2.38 [-4.37, -0.38], 8 with 240 -2.69); in
    matches against the heuristic, paired against ``expert`` on 600 games from deal seeds
    181000 and 191000, +0.2 [-2.8, +3.2] points of win rate.

    ``leaf="decisions"`` values those rollouts by
    :func:`~rallye.agents.mille.leaf.decision_estimate` instead, a leaf fitted to the
    differences between moves (the oracle gains of ``benchmarks/mille_decisions.py``
    positions, ``benchmarks/fit_decision_leaf.py``), with the cards each side holds among
    its features (wm2006, two sides; elsewhere :func:`_estimate`). On the three position
    sets it was fitted on, each judged with the weights fitted on the other two, paired
    against ``expert``: +3.46 [+2.05, +4.87] (1,358 positions), +1.34 [-0.38, +3.06] (970),
    +0.17 [-1.14, +1.49] (866) points a decision; in matches against the heuristic, paired
    against ``expert`` on 480 games from deal seeds 181000 and 191000, -1.0 [-4.4, +2.3]
    points of win rate (docs/bots.md, "Mille Bornes bots"), so no level uses it.

    And ``hazard_odds`` (a weight in (0, 1], 1: off; in no level): the deals are weighed by
    the sampler's "Hazards in hand" (a heuristic player attacks at once, so it holds about
    half the hazards uniform odds give it), each hazard in the others' hands multiplying a
    deal's weight by it (not with ``track``, whose filter deals the opponent's hand). On
    three sets of positions of ``benchmarks/mille_decisions.py``, paired against
    ``expert``, 0.5 gained +1.63 [+0.27, +2.98] (1,358 positions, ``--hands
    96 --first-seed 50000``), -0.28 [-2.13, +1.56] (970, ``--hands 64 --first-seed 60000``)
    and -1.51 [-3.40, +0.38] (866, ``--hands 64 --first-seed 70000``): no gain shown.

    And ``distilled`` (off by default): the move the search keeps unless an alternative
    beats it is the ``distilled`` bot's pick among the same candidates
    (:func:`~rallye.agents.mille.distilled.pick`: a linear model fitted to this search's
    own estimates over thousands of decisions) instead of the heuristic's; the rollouts
    are unchanged. Where the search cannot tell the moves apart on its deals, what it has
    learned across decisions decides. On the 1,358 positions of
    ``benchmarks/mille_decisions.py --hands 96 --first-seed 50000``, paired against
    ``expert``: +0.14 [-0.41, +0.69] points a decision, no gain at its budget; in matches
    against the heuristic (266 games from deal seed 181000) it won 6.8 +- 2.0 points of win
    rate fewer than ``expert`` on the same games. ``rollout_distilled``
    (off by default) also plays the searching side's rollout turns with that policy
    (:func:`distilled_policy`, about three times a heuristic turn's cost): at 96 deals and
    5,040 steps, to keep expert's time limit, it won 266 of 382 matches against the
    heuristic, 3.1 +- 1.6 points of win rate below ``expert`` on the same games, so no
    level uses it. ``distilled`` does lift the small budget of ``hard``, which uses it: 65.8 %
    of 600 matches against the heuristic, where the same budget from the classic
    heuristic's move won 56.5 % (docs/bots.md, "Mille Bornes bots").

    ``style`` (a :class:`~rallye.agents.mille.heuristic.Style`) is the heuristic's weights
    for the searching side: it ranks the candidates and plays that side's turns in the
    rollouts; the other sides are always played by the classic heuristic (the opponent
    model). ``expert`` uses ``FITTED``: 15,214 of 21,517 matches (70.7 %) against the heuristic;
    the previous expert (12 steps, no filter) with ``FITTED`` won 3,648 of 5,214 (70.0 %),
    with ``TUNED`` 486 of 700 (69.4 %), with the classic style 1,071 of 1,600 (66.9 %)
    (docs/bots.md, "Mille Bornes bots").

    The deals weigh down what the others' last discards suggest they do not hold
    (``read_discards``, :func:`~rallye.agents.mille.sampler.discard_inferences`): a player
    who discarded while their side could not move held no cure.

    Budget: at most ``deals`` deals and ``plies`` engine steps of rollouts per decision
    (both counts, so the bot is deterministic for a seed; the extension decision, rare and
    weighty, gets twice the deals). After a third of the deals, alternatives that trail the
    heuristic's choice are dropped; if none is left the search stops early.

    ``cpu_limit`` (seconds, off by default) is a ceiling on top of the counts: no new deal
    is started once the decision has used that much CPU time of its thread (after at least
    two deals; a deal in progress is finished, so a decision can pass the ceiling by one
    deal's rollouts, a few milliseconds). On a machine fast enough to spend the whole
    budget within it, it never acts and the bot plays exactly as without it; on a slower
    one the searches it cuts short depend on the machine (``last_capped`` says when it
    acted). The levels use it to keep their per-move limits on any machine.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        deals: int = 40,
        plies: int = 5000,
        top_k: int = 4,
        z: float = 2.0,
        min_gain: float = 10.0,
        match_weight: float = 1500.0,
        max_rollout: int = 400,
        horizon: int | None = None,
        read_discards: bool = True,
        extra_discards: int = 0,
        endgame: int | None = None,
        read_turns: float | None = None,
        read_plays: float | None = None,
        track: int = 0,
        style: Style = CLASSIC,
        leaf: bool | int | str = False,
        hazard_odds: float = 1.0,
        distilled: bool = False,
        rollout_distilled: bool = False,
        cpu_limit: float | None = None,
        name: str = "pimc",
    ) -> None:
        if cpu_limit is not None and not cpu_limit > 0:
            raise ValueError("cpu_limit is a number of seconds above 0 (or None: no cap)")
        if deals < 2 or plies < 1 or top_k < 1:
            raise ValueError("deals must be at least 2, plies and top_k at least 1")
        if horizon is not None and horizon < 1:
            raise ValueError("horizon must be at least 1 step (or None: to the end of the hand)")
        if extra_discards < 0:
            raise ValueError("extra_discards must not be negative")
        if read_turns is not None and not 0.0 < read_turns <= 1.0:
            raise ValueError("read_turns is a weight in (0, 1] (or None: off)")
        if read_plays is not None and not 0.0 <= read_plays < 1.0:
            raise ValueError("read_plays is a weight in [0, 1) (or None: off)")
        if track < 0:
            raise ValueError("track is a number of particles (0: off)")
        if not 0.0 < hazard_odds <= 1.0:
            raise ValueError("hazard_odds is a weight in (0, 1] (1: uniform)")
        if track and hazard_odds < 1.0:
            raise ValueError("hazard_odds does not apply with track: the tracker's particles deal the opponent's hand")
        self.name = name
        self.deals = deals
        self.plies = plies
        self.top_k = top_k
        self.z = z
        self.min_gain = min_gain
        self.match_weight = match_weight
        self.max_rollout = max_rollout
        self.horizon = horizon
        self.read_discards = read_discards
        self.extra_discards = extra_discards
        self.endgame = endgame
        self.read_turns = read_turns
        self.read_plays = read_plays
        self.tracker = HandTracker(track, seed) if track else None
        self.style = style
        self.leaf = _leaf_kind(leaf)
        self.hazard_odds = hazard_odds
        self.distilled = shipped_weights() if distilled else None
        self.rollout_weights = shipped_weights() if rollout_distilled else None
        self.cpu_limit = cpu_limit
        self.rng = random.Random(seed)
        self.last_capped = False  # the last decision stopped at cpu_limit
        self.last_deals = 0
        self.last_plies = 0
        self.last_gains: dict[Action, tuple[float, float]] = {}
        self.last_candidates: tuple[Action, ...] = ()  # the moves the last decision compared, its default first

    def choose(self, view: MilleView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_deals = self.last_plies = 0
        self.last_gains = {}
        self.last_candidates = ()
        self.last_capped = False
        started = cpu_clock()
        excl = None
        if self.tracker is not None:  # every decision, forced ones too: it follows the hand
            excl = self._exclusions(view)
            self.tracker.observe(view, excl)
        if len(legal) == 1:
            return legal[0]
        cands = top_moves([a for _, a in rank_actions(view, legal, self.style)], self.top_k, self.extra_discards)
        if len(cands) == 1:
            return cands[0]
        if self.distilled is not None:  # the distilled policy's pick is the move to beat
            first, _ = pick(view, cands, self.distilled)
            cands.remove(first)
            cands.insert(0, first)
        self.last_candidates = tuple(cands)
        # the extension decision: twice the deals (its rollouts are short: the rest of a hand)
        max_deals, max_plies = self.deals * (2 if view.phase == "extend" else 1), self.plies
        if excl is None:
            excl = self._exclusions(view)
        pool = unseen_cards(view)
        replay = last_turn_replay(view, self.read_turns) if self.read_turns is not None else None
        root_sheets = len(view.sheets)
        side = view.side
        style = self.style
        base = cands[0]
        limit = self.max_rollout
        endgame = self.endgame is not None and view.draw_count <= self.endgame
        if self.horizon is not None and view.phase != "extend" and not endgame:
            limit = min(limit, self.horizon)
        estimate = _estimate
        if self.leaf is not None:
            table, learned = (
                (DECISION_WEIGHTS, decision_estimate) if self.leaf == "decisions" else (LEAF_WEIGHTS, learned_estimate)
            )
            weights = table.get((view.edition.key, len(view.sides)))
            if weights is not None:
                estimate = functools.partial(learned, weights=weights)
        outcomes: dict[Action, list[float]] = {a: [] for a in cands}
        alive = list(cands[1:])
        cut = max(2, max_deals // 3)
        plies = 0
        d = 0
        cpu_limit = self.cpu_limit
        rollout_weights = self.rollout_weights
        while d < max_deals and plies < max_plies and alive:
            if cpu_limit is not None and d >= 2 and cpu_clock() - started >= cpu_limit:
                self.last_capped = True
                break
            d += 1
            root = self._sample(view, excl, pool, replay)
            start = root.draw_pos
            piles = pile_counts(root.deck, start)
            for a in (base, *alive):
                p = Playout(root)  # the engine's fast path, in place (the same rules)
                p.apply(a)
                steps = 0
                while p.phase != "over" and len(p.sheets) == root_sheets and steps < limit:
                    if p.side_of[p.current] != side:
                        p.apply(heuristic_policy(p, p.legal_actions(), piles, start, CLASSIC))
                    elif rollout_weights is None:
                        p.apply(heuristic_policy(p, p.legal_actions(), piles, start, style))
                    else:
                        p.apply(distilled_policy(p, p.legal_actions(), rollout_weights, piles, start))
                    steps += 1
                plies += steps + 1
                outcomes[a].append(hand_outcome(p.state(), side, root_sheets, self.match_weight, estimate))
            if d == cut:
                alive = [a for a in alive if self._gain(outcomes[a], outcomes[base])[0] > 0]
        self.last_deals, self.last_plies = d, plies
        best, best_gain = base, 0.0
        for a in cands[1:]:
            n = len(outcomes[a])
            if n < 2:
                continue
            gain, se = self._gain(outcomes[a], outcomes[base])
            self.last_gains[a] = (gain, se)
            if n == d and gain > self.min_gain and gain > self.z * se and gain > best_gain:
                best, best_gain = a, gain
        return best

    def _exclusions(self, view: MilleView) -> tuple[Exclusion, ...]:
        """What the sampler is told the others did not hold."""
        if self.read_plays is not None:  # every turn in the window (the last discard among them)
            return exclusions(view) + play_inferences(view, self.read_plays)
        return exclusions(view) + (discard_inferences(view) if self.read_discards else ())

    def _sample(
        self, view: MilleView, excl: Sequence[Exclusion], pool: Sequence[str], replay: TurnReplay | None
    ) -> MilleState:
        """One determinization of ``view`` (a diagnostic in ``benchmarks/mille_decisions.py``
        overrides it to hand the search the true hidden cards)."""
        if self.tracker is not None and self.tracker.active:
            return self.tracker.sample(view)
        return sample_state(view, self.rng, excl, pool, replay, self.hazard_odds)

    @staticmethod
    def _gain(xs: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
        """Mean paired difference of ``xs`` over ``base`` (on the deals ``xs`` saw) and its
        standard error."""
        diffs = [x - b for x, b in zip(xs, base, strict=False)]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return mean, math.inf
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


#: the learned leaves of :class:`PimcAgent` (``leaf=``): fitted to the rest of the hand, or to
#: the differences between moves
LEAVES = ("hand", "decisions")


def _leaf_kind(leaf: bool | int | str) -> str | None:
    """``PimcAgent``'s ``leaf`` setting as one of :data:`LEAVES` (``None``: the hand-set
    estimate); ``True`` (or 1, as a ``ladder.py`` spec gives it) is ``"hand"``."""
    if isinstance(leaf, str):
        if leaf in LEAVES:
            return leaf
    elif leaf in (0, 1):
        return "hand" if leaf else None
    raise ValueError(f"leaf is one of {', '.join(LEAVES)} (or True: hand, False: off), not {leaf!r}")


#: The clock of ``PimcAgent``'s ``cpu_limit``: CPU seconds of the calling thread (what the
#: decision itself costs, however busy the machine; tests put a scripted clock here).
cpu_clock: Callable[[], float] = time.thread_time


register("mille", "pimc", lambda seed: PimcAgent(seed))
