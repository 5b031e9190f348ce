"""Monte Carlo tree search for Knight Rider (``mcts``): the dice and the escape cards sampled.

Information-set MCTS (Cowling, Powley & Whitehouse 2012) over the bot's own view, for
the movement part of a turn. Each iteration

1. **determinizes**: :func:`~rallye.knightrider.sampling.sample_state` draws what the
   view hides — the order of the unturned escape cards, the other hands where they are
   unknown, and a fresh Rng, which fixes every later die roll (moves, rams, oil) and
   shuffle. So each iteration plays one possible future of the dice and the villain;
2. plays one **root candidate**: the heuristic's best few movement choices (moves,
   Turbo-Boosts, Blockier-Sprung). The root is searched by *sequential halving*: in each
   round every surviving candidate is played out on the same determinizations (common
   random numbers: the same dice and escape cards for all of them), then the worse half
   is dropped, ranked by mean value plus a small bias towards the heuristic's order;
3. **descends** the candidate's tree (nodes keyed by the actions, every player's
   decisions) with UCB1 over the fast policy's best few actions legal *in that
   determinization* (availability counts), adding one node;
4. **rolls out** with a fast rule-based policy (heuristic-lite: win if a move ends on
   the villain, Turbo-Boost II on a 1, else the move that leaves the fewest pips to the
   villain; no detours) until this bot's next turn begins, or the game ends;
5. **scores** the end: 1 for a win and 0 for a loss; a sure win for the player to act if
   one of their moves now ends on the villain; else each player's share of a softmax
   over their car's worth (pips to the villain, less the chance a roll hits it; a car on
   its roof pays a turn), backed up with each node taking the value of the player who
   chose it.

Tile laying, the start, the cards after the move (detours, Molekül-Mantel) and a win in
one are left to the heuristic, whose choices there do not depend on dice. The bot is
deterministic for a seed: it is budgeted by iterations (or simulated turns); the
optional ``time_limit`` is off by default (with it, play is no longer reproducible).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from rallye.agents.base import register
from rallye.agents.kr_heuristic import (
    HIT,
    UNREACHABLE,
    WIN,
    Reading,
    best_action,
    car_cost,
    cost_to,
    hit_chance,
    rank_turn,
)
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import Action, End, Move, PlayDetour, PlayKitt, Recover
from rallye.knightrider.engine import apply, legal_actions
from rallye.knightrider.sampling import sample_state
from rallye.knightrider.state import State
from rallye.knightrider.track import roadblocks
from rallye.knightrider.view import View

ROOF_COST = 6.0
SHARE_TEMPERATURE = 4.0


# -- the fast policy ----------------------------------------------------------------------
def _villain_table(state: State) -> dict[int, int]:
    return cost_to(state.links, roadblocks(state.detours), state.villain)


def _rammable(state: State) -> frozenset[int]:
    p = state.current
    occ: dict[int, int] = {}
    for c in state.cars:
        if c.player != p and c.cell >= 0:
            occ[c.cell] = occ.get(c.cell, 0) + 1
    return frozenset(
        c.cell for c in state.cars if c.player != p and c.cell >= 0 and occ[c.cell] == 1 and not c.roof and not c.mantle
    )


def fast_rank(state: State, legal: Sequence[Action], rng: random.Random | None = None) -> list[Action]:
    """The fast policy's preference among the movement actions, best first (cards other
    than Turbo-Boosts and detours are left out; ``end`` when moving is optional)."""
    if len(legal) == 1:
        return [legal[0]]
    table = _villain_table(state)
    left = state.pips - state.used
    ram = _rammable(state)
    scored: list[tuple[float, int, Action]] = []
    hand = state.kitt_hands[state.current]
    # the engine lists moves, then K.I.T.T. cards, then detours, then ``end``
    head = []
    for a in legal:
        if isinstance(a, PlayDetour):
            break
        head.append(a)
    if isinstance(legal[-1], End) and (not head or head[-1] is not legal[-1]):
        head.append(legal[-1])
    for i, a in enumerate(head):
        if isinstance(a, Move):
            cell = g.cell(a.x, a.y)
            if cell == state.villain and not (cell in ram and a.cost < left):
                s = -1000.0
            else:
                v = table.get(cell * 4 + a.heading)
                s = UNREACHABLE if v is None else float(v)
                if a.jump:
                    s += 2.5
                if cell in ram and a.cost < left:
                    s += 1.0
            scored.append((s + (rng.random() * 0.5 if rng is not None else 0.0), i, a))
        elif isinstance(a, PlayKitt) and a.kind == "TURBO2":
            scored.append((-500.0, i, a))
        elif isinstance(a, PlayKitt) and a.kind == "TURBO1" and hand[1]:
            me = state.cars[state.current]
            here = table.get(me.cell * 4 + me.heading) if me.cell >= 0 else None
            if here is not None and state.roll < here <= 2 * state.roll:
                scored.append((here - 2.0 * state.roll - 0.5, i, a))
        elif isinstance(a, End | Recover):
            scored.append((UNREACHABLE + 1.0, i, a))
    if not scored:
        return [legal[-1]]
    scored.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in scored]


def fast_policy(state: State, legal: Sequence[Action], rng: random.Random) -> Action:
    """Heuristic-lite on a (determinized) state, using only what the acting player knows:
    win if a move ends on the villain, Turbo-Boost II on a 1, else the move that leaves
    the fewest pips to the villain; no detours."""
    return fast_rank(state, legal, rng)[0]


def shares(state: State) -> list[float]:
    """Each player's value of a position: 1/0 when the game is over; a sure win for the
    player to act if a move of theirs ends on the villain now; else a softmax over each
    car's worth, the pips it needs to the villain less the chance a roll hits it."""
    n = state.players
    if state.phase == "over":
        return [1.0 if state.winner == p else 0.0 for p in range(n)]
    if state.phase == "turn" and not state.move_done:
        ram = _rammable(state)
        left = state.pips - state.used
        for a in legal_actions(state):
            if not isinstance(a, Move):
                break
            cell = g.cell(a.x, a.y)
            if cell == state.villain and not (cell in ram and a.cost < left):
                return [1.0 if state.current == p else 0.0 for p in range(n)]
    table = _villain_table(state)
    worth = [-UNREACHABLE] * n
    for c in state.cars:
        arm = g.arm(*g.sq_xy(state.start_sq), c.side) if c.cell < 0 and c.side >= 0 else -1
        cost = car_cost(table, c.cell, c.heading, arm)
        if c.roof:
            cost += ROOF_COST
        worth[c.player] = -cost + HIT * hit_chance(cost)
    hi = max(worth)
    ws = [math.exp((w - hi) / SHARE_TEMPERATURE) for w in worth]
    total = sum(ws)
    return [w / total for w in ws]


# -- the tree --------------------------------------------------------------------------------
class _Node:
    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


class MctsAgent:
    """ISMCTS over sampled dice and escape cards; ``iterations`` per decision (or a
    ``turn_budget`` of simulated turns), optionally capped by ``time_limit`` seconds."""

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 60,
        turn_budget: int | None = None,
        time_limit: float | None = None,
        exploration: float = 0.35,
        prior_weight: float = 0.2,
        root_top_k: int = 3,
        node_top_k: int = 3,
        name: str = "mcts",
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if turn_budget is not None and turn_budget < 1:
            raise ValueError("turn_budget must be at least 1 (or None)")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("time_limit must be positive (or None)")
        self.name = name
        self.iterations = iterations
        self.turn_budget = turn_budget
        self.time_limit = time_limit
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.root_top_k = root_top_k
        self.node_top_k = node_top_k
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def budget(self, players: int) -> int:
        """Iterations per decision: ``iterations``, or with a ``turn_budget`` that many
        simulated turns shared out (a rollout plays ``players`` turns)."""
        if self.turn_budget is None:
            return self.iterations
        return max(4, self.turn_budget // players)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if view.phase != "turn" or not any(isinstance(a, Move | PlayKitt) and not _is_mantle(a) for a in legal):
            return best_action(view, legal)
        r = Reading.of(view)
        ranked = rank_turn(view, legal, r)
        if not ranked:
            return best_action(view, legal)
        if ranked[0][0] >= WIN or len(ranked) == 1:
            return ranked[0][1]
        cands = ranked[: self.root_top_k]
        top = cands[0][0]
        prior = {a: math.exp(max(-20.0, (v - top) / 2.0)) for v, a in cands}
        # Sequential halving at the root: every surviving candidate is played out on the
        # same determinizations (common random numbers), the worse half dropped per round.
        total = self.budget(view.players)
        alive = [a for _, a in cands]
        nodes = {a: _Node() for a in alive}
        rounds = max(1, math.ceil(math.log2(len(alive))))
        start = time.perf_counter()
        done = 0
        out_of_time = False
        for rnd in range(rounds):
            per = max(1, (total - done) // ((rounds - rnd) * len(alive)))
            for _ in range(per):
                seed = self.rng.getrandbits(64)
                for a in alive:
                    self._iterate(view, a, nodes[a], random.Random(seed))
                    done += 1
                if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                    out_of_time = True
                    break
            alive.sort(key=lambda a: -(nodes[a].w / max(1, nodes[a].n) + self.prior_weight * prior[a]))
            alive = alive[: max(1, math.ceil(len(alive) / 2))] if rnd < rounds - 1 else alive[:1]
            if out_of_time:
                break
        self.last_iterations = done
        return alive[0]

    def _iterate(self, view: View, first: Action, node: _Node, rng: random.Random) -> None:
        """One determinization: ``first`` at the root, then down the tree and a rollout."""
        state = sample_state(view, rng)
        me = view.me
        stop_turn = view.turn + view.players  # stop when this bot's next turn has begun
        path: list[tuple[_Node, int]] = [(node, me)]
        state = apply(state, first)
        c = self.exploration
        while state.phase != "over" and state.turn < stop_turn:
            legal = legal_actions(state)
            cands = fast_rank(state, legal)[: self.node_top_k]
            player = state.current
            untried = [a for a in cands if a not in node.children]
            if untried:
                a = untried[0]
                child = _Node()
                node.children[a] = child
                for b in cands:
                    if b in node.children:
                        node.children[b].avail += 1
                path.append((child, player))
                state = apply(state, a)
                break
            best_a = cands[0]
            best_u = -1e9
            for b in cands:
                ch = node.children[b]
                ch.avail += 1
                u = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if u > best_u:
                    best_a, best_u = b, u
            node = node.children[best_a]
            path.append((node, player))
            state = apply(state, best_a)
        while state.phase != "over" and state.turn < stop_turn:
            state = apply(state, fast_policy(state, legal_actions(state), rng))
        values = shares(state)
        for nd, player in path:
            nd.n += 1
            nd.w += values[player]


def _is_mantle(a: Action) -> bool:
    return isinstance(a, PlayKitt) and a.kind == "MANTLE"


register("knightrider", "mcts", lambda seed: MctsAgent(seed))
