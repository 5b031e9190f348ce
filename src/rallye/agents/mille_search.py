"""Information-set Monte Carlo tree search for Mille Bornes (``ismcts``).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree over the *bot's*
information set, keyed by action sequences. Each iteration

1. samples a determinization from the bot's view (:mod:`rallye.agents.mille_sampler`:
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

import math
import random
import time
from collections.abc import Callable, Sequence

from rallye.agents.base import register
from rallye.agents.mille_heuristic import rank_actions
from rallye.agents.mille_sampler import Exclusion, exclusions, sample_state, unseen_cards
from rallye.mille.actions import Action
from rallye.mille.cards import (
    BATTLE_HAZARDS,
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
from rallye.mille.state import MilleState, Tableau
from rallye.mille.view import MilleView

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
    est: float = tab.km + sc.safety * len(tab.safeties) + sc.coup_fourre_bonus * len(tab.coups)
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


# -- the tree --------------------------------------------------------------------------
class _Node:
    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


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
        root = _Node()
        start = time.perf_counter()
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007 (the count is kept)
            self._iterate(view, root, prior, excl, pool)
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
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
        root: _Node,
        prior: dict[Action, float],
        excl: Sequence[Exclusion],
        pool: Sequence[str],
    ) -> None:
        rng = self.rng
        state = sample_state(view, rng, excl, pool)
        hand_no = state.hand_no
        root_sheets = len(state.sheets)
        node = root
        path: list[tuple[_Node, int]] = []
        c = self.exploration
        at_root = True
        while True:
            if state.phase == "over" or state.hand_no != hand_no:
                break
            legal = legal_actions(state)
            if at_root:
                legal = tuple(a for a in legal if a in prior)
            side = state.side_of[state.current]
            untried = [a for a in legal if a not in node.children]
            if untried:
                if at_root:
                    a = max(untried, key=lambda x: prior.get(x, 0.0))
                else:
                    pick = self.rollout(state, legal, rng)
                    a = pick if pick in untried else untried[rng.randrange(len(untried))]
                child = _Node()
                node.children[a] = child
                for b in legal:
                    if b in node.children:
                        node.children[b].avail += 1
                path.append((child, side))
                state = apply(state, a)
                break
            best_a = legal[0]
            best_u = -1e9
            for b in legal:
                ch = node.children[b]
                ch.avail += 1
                u = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if at_root:
                    u += self.prior_weight * prior.get(b, 0.0) / (1 + ch.n) ** 0.5
                if u > best_u:
                    best_a, best_u = b, u
            node = node.children[best_a]
            path.append((node, side))
            state = apply(state, best_a)
            at_root = False
        plies = 0
        while plies < self.rollout_plies and state.phase != "over" and state.hand_no == hand_no:
            state = apply(state, self.rollout(state, legal_actions(state), rng))
            plies += 1
        values = evaluate(state, root_sheets)
        for nd, side in path:
            nd.n += 1
            nd.w += values[side]


def heuristic_rollout(state: MilleState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The full heuristic as a rollout policy, on the acting player's view of the
    determinization (slower than :func:`fast_policy`, closer to real play)."""
    from rallye.mille.view import view_for

    ranked = rank_actions(view_for(state, state.current), legal)
    if len(ranked) > 1 and rng.random() < 0.1:
        return ranked[1][1]
    return ranked[0][1]


register("mille", "ismcts", lambda seed: IsmctsAgent(seed))
