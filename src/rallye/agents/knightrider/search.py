"""Search bots for Knight Rider: the exact-dice look-ahead (``lookahead``; the ``hard`` and
``expert`` levels) and Monte Carlo tree search (``mcts``).

**Look-ahead** (:class:`LookaheadAgent`). Catching the villain takes an exact roll: the
car must *end* its move on the villain's field, and in games of heuristic bots only
about one turn in thirty starts with any roll that could do it (measured under rules 1,
before a move could end with a turn). So a position is worth
its chance to hit, now and in the next rounds, and that chance is computed, not guessed:

- :func:`reach_layers` lists every (field, heading) a car can end on with exactly ``c``
  pips (1..12: a die, or a die doubled by Turbo-Boost I), by the engine's movement rules
  (turns cost pips, a move may end with a turn, roadblocks stop, no reversing, the most
  pips any way can use); other
  cars are left out (they move). A test checks it against the engine's move search.
- The villain's next positions are public as a distribution: the escape cards not yet
  turned are known, only their order is not
  (:func:`~rallye.agents.knightrider.heuristic.villain_forecast`).
- Ending this turn on (field, heading), holding the Turbo-Boosts it then holds, is worth
  an expectimax over the next round's chance events: the villain's square when this
  car's next turn begins (``players`` escape cards later) and the die roll 1..6 (and
  what the Turbo-Boosts held can make of it). A roll that can end on the villain counts
  1; else the best field that roll reaches counts ``gamma`` times its chance to hit on
  the turn after. With ``correlated`` look-ahead (``expert``) that turn after is judged
  from the square the villain stood on at the next turn (the car will have seen it);
  without (``hard``) from the villain's public two-round forecast. ``gamma`` is the
  chance that no rival wins in between (0.9 per rival). Ending on a rival's oil slick is
  the expected value over the oil table, a ram stop that over the ram table (with the
  best way on after it); the chance that the villain lands on the car (a 6 wins) is added.
- With ``rounds`` 3 to 5 a miss on the turn after next is worth in turn the best chance
  on the turn after that, and so on, all against the public forecast (measured: no
  stronger than two rounds).
- Fields no roll reaches within two rounds are told apart by the heuristic's worth
  (pips to where the villain will be), at ``closeness`` (hit chance per pip).

The candidates are the heuristic's best ``top_k`` movement choices (moves, Turbo-Boosts;
a win in one is played at once); tile laying, the start and the cards after the move
(detours, Molekül-Mantel) are left to the heuristic, except with ``threat_detours``
(:func:`threat_detour`): after the move the bot lays the detour that cuts the rivals'
chance to hit on their next turn (each against the villain's forecast for that turn,
with the Turbo-Boosts the view says they hold) the most, less what it costs its own next
turn and ``DETOUR_PIP`` per pip its own way to the villain grows; never one that cuts
it off from any tile, and none that gains less than ``DETOUR_GAIN``. It is exact arithmetic over public
facts and the own hand: the bot sees only its view, draws no random numbers and reads no
clock; its work per decision is bounded by ``top_k`` and counted (``last_evaluations``:
end positions valued).

**MCTS** (:class:`MctsAgent`, the ``mcts`` bot): information-set MCTS (Cowling, Powley &
Whitehouse 2012) over the bot's own view, for the movement part of a turn. Measured in
4-player games it is no stronger than the heuristic (the rollouts are too few and too
noisy for a game this luck-heavy); the levels use the look-ahead. Each iteration

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
from collections.abc import Sequence
from functools import lru_cache

from rallye.agents.base import register
from rallye.agents.knightrider.heuristic import (
    HIT,
    UNREACHABLE,
    WIN,
    Reading,
    after_ram_stop,
    best_action,
    car_cost,
    cost_to,
    default_pieces,
    fewest_pips,
    hit_chance,
    move_value,
    rank_turn,
    unturned_cards,
    villain_forecast,
)
from rallye.agents.tree import Deadline, Node, iterate
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import Action, End, Move, PlayDetour, PlayKitt, Recover
from rallye.knightrider.engine import apply, legal_actions
from rallye.knightrider.sampling import sample_state
from rallye.knightrider.state import OVER_PHASE, TURN_PHASE, State
from rallye.knightrider.track import mask_table, relink_tile, roadblocks, skid
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
    if state.phase == OVER_PHASE:
        return [1.0 if state.winner == p else 0.0 for p in range(n)]
    if state.phase == TURN_PHASE and not state.move_done:
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


# -- the tree search (the tree: rallye.agents.tree) ------------------------------------------
def _plain_choice(view: View, legal: Sequence[Action]) -> Action | tuple[Reading, list[tuple[float, Action]]]:
    """The action when no search is needed (one choice, not a driving turn, nothing the
    heuristic ranks, or a sure win); else the reading and the heuristic's ranking."""
    if len(legal) == 1:
        return legal[0]
    if view.phase != TURN_PHASE or not any(isinstance(a, Move | PlayKitt) and not _is_mantle(a) for a in legal):
        return best_action(view, legal)
    r = Reading.of(view)
    ranked = rank_turn(view, legal, r)
    if not ranked:
        return best_action(view, legal)
    if ranked[0][0] >= WIN or len(ranked) == 1:
        return ranked[0][1]
    return r, ranked


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
        plain = _plain_choice(view, legal)
        if isinstance(plain, Action):
            return plain
        _, ranked = plain
        cands = ranked[: self.root_top_k]
        top = cands[0][0]
        prior = {a: math.exp(max(-20.0, (v - top) / 2.0)) for v, a in cands}
        # Sequential halving at the root: every surviving candidate is played out on the
        # same determinizations (common random numbers), the worse half dropped per round.
        total = self.budget(view.players)
        alive = [a for _, a in cands]
        nodes: dict[Action, Node[Action]] = {a: Node() for a in alive}
        rounds = max(1, math.ceil(math.log2(len(alive))))
        deadline = Deadline(self.time_limit)
        done = 0
        out_of_time = False
        for rnd in range(rounds):
            per = max(1, (total - done) // ((rounds - rnd) * len(alive)))
            for _ in range(per):
                seed = self.rng.getrandbits(64)
                for a in alive:
                    self._iterate(view, a, nodes[a], random.Random(seed))
                    done += 1
                if deadline.passed():
                    out_of_time = True
                    break
            alive.sort(key=lambda a: -(nodes[a].w / max(1, nodes[a].n) + self.prior_weight * prior[a]))
            alive = alive[: max(1, math.ceil(len(alive) / 2))] if rnd < rounds - 1 else alive[:1]
            if out_of_time:
                break
        self.last_iterations = done
        return alive[0]

    def _iterate(self, view: View, first: Action, node: Node[Action], rng: random.Random) -> None:
        """One determinization: ``first`` at the root, then down the tree and a rollout."""
        state = sample_state(view, rng)
        stop_turn = view.turn + view.players  # stop when this bot's next turn has begun
        node_top_k = self.node_top_k

        def going(s: State) -> bool:
            return s.phase != OVER_PHASE and s.turn < stop_turn

        iterate(
            apply(state, first),
            node,
            [(node, view.me)],
            going=going,
            offered=lambda s, at_root: fast_rank(s, legal_actions(s))[:node_top_k],
            actor=lambda s: s.current,
            expand=lambda s, legal, untried, at_root: untried[0],
            apply=apply,
            rollout=lambda s: fast_policy(s, legal_actions(s), rng),
            values=shares,
            exploration=self.exploration,
        )


# -- the exact-dice look-ahead --------------------------------------------------------------
MAX_PIPS = 12  # a die doubled by Turbo-Boost I
LOOKAHEAD_WIN = 10.0  # worth of a move that wins now (above any probability)
JUMP_KEEP_P = 0.02  # holding Blockier-Sprung, in hit chance
MAX_ROUNDS = 5


def _is_middle(c: int) -> bool:
    x, y = g.cell_xy(c)
    return x % 3 == 1 and y % 3 == 1


_MIDDLE = bytes(1 if _is_middle(c) else 0 for c in range(g.N_CELLS))


@lru_cache(maxsize=1 << 16)
def reach_layers(links: bytes, blocked: frozenset[int], cell: int, heading: int) -> tuple[tuple[int, ...], ...]:
    """The states ``field * 4 + heading`` a car on ``cell`` facing ``heading`` can end a
    move in at an exact cost of ``c`` pips, for ``c`` = 0..12 (index ``c``).

    A step costs 1 pip plus the turn on the field it leaves (90° 1, 180° 2); a move may
    also end with a turn on its last field (the car's own field included) towards a road
    leaving it (the engine's rules 2: turning is spending); roadblocked fields cannot be
    entered; other cars are ignored.
    """
    arrive: list[set[int]] = [set() for _ in range(MAX_PIPS + 1)]
    out: list[set[int]] = [set() for _ in range(MAX_PIPS + 1)]
    arrive[0].add(cell * 4 + heading)
    for c in range(MAX_PIPS + 1):
        layer = out[c]
        for st in arrive[c]:
            layer.add(st)
            if c == MAX_PIPS:
                continue
            for nxt, cost in _steps(links, blocked, st):
                if c + cost <= MAX_PIPS:
                    arrive[c + cost].add(nxt)
            for nxt, cost in _turns(links, st):
                if c + cost <= MAX_PIPS:
                    out[c + cost].add(nxt)
    return tuple(tuple(sorted(layer)) for layer in out)


def _turns(links: bytes, st: int) -> list[tuple[int, int]]:
    """The turns a move may end with on the field of state ``st``: (the state after, its
    cost: 90° 1, 180° 2), towards each road leaving the field in a new direction."""
    f = st >> 2
    h = st & 3
    tc = g.TURN_COST[h]
    lk = links[f]
    return [(f * 4 + d, tc[d]) for d in range(4) if d != h and (lk >> d) & 1]


def _steps(links: bytes, blocked: frozenset[int], st: int) -> list[tuple[int, int]]:
    """The steps from state ``st`` (``field * 4 + heading``): (the state after, its cost
    in pips: 1 plus the turn on the field left, 90° 1, 180° 2); roadblocked fields cannot
    be entered."""
    f = st >> 2
    tc = g.TURN_COST[st & 3]
    lk = links[f]
    delta = g.DELTA
    out = []
    for d in range(4):
        if (lk >> d) & 1:
            n = f + delta[d]
            if n not in blocked:
                out.append((n * 4 + d, 1 + tc[d]))
    return out


def used_pips(layers: tuple[tuple[int, ...], ...], pips: int) -> int:
    """The pips a move with ``pips`` uses: all of them, or the most any way can (0: none)."""
    while pips > 0 and not layers[pips]:
        pips -= 1
    return pips


@lru_cache(maxsize=1 << 16)
def _hit_masks(links: bytes, blocked: frozenset[int], cell: int, heading: int) -> dict[int, int]:
    """Middle fields a move can end on → bit ``p`` set for each pip count ``p`` (1..12)."""
    layers = reach_layers(links, blocked, cell, heading)
    masks: dict[int, int] = {}
    for p in range(1, MAX_PIPS + 1):
        c = used_pips(layers, p)
        if c == 0:
            continue
        for st in layers[c]:
            f = st >> 2
            if _MIDDLE[f]:
                masks[f] = masks.get(f, 0) | (1 << p)
    return masks


@lru_cache(maxsize=1 << 14)
def _mask_chance(mask: int, turbo1: bool, turbo2: bool) -> float:
    k = 0
    for d in range(1, 7):
        if (mask >> d) & 1 or (turbo1 and (mask >> (2 * d)) & 1) or (turbo2 and d == 1 and (mask >> 6) & 1):
            k += 1
    return k / 6.0


@lru_cache(maxsize=1 << 16)
def hit_table(
    links: bytes, blocked: frozenset[int], cell: int, heading: int, turbo1: bool, turbo2: bool
) -> dict[int, float]:
    """Middle field → the chance that one die roll (helped by the Turbo-Boosts held) lets
    a car on (``cell``, ``heading``) end its move there (other cars ignored)."""
    out: dict[int, float] = {}
    for f, m in _hit_masks(links, blocked, cell, heading).items():
        p = _mask_chance(m, turbo1, turbo2)
        if p:
            out[f] = p
    return out


def _roll_options(
    layers: tuple[tuple[int, ...], ...], d: int, turbo1: bool, turbo2: bool
) -> list[tuple[int, bool, bool]]:
    """The ways a roll of ``d`` can be moved: (pips used, Turbo-Boost I still held,
    Turbo-Boost II still held): plain, doubled by Turbo-Boost I, or a 1 made 6 by
    Turbo-Boost II."""
    options = [(used_pips(layers, d), turbo1, turbo2)]
    if turbo1:
        options.append((used_pips(layers, 2 * d), False, turbo2))
    if turbo2 and d == 1:
        options.append((used_pips(layers, 6), turbo1, False))
    return options


def _hit_fields(layers: tuple[tuple[int, ...], ...], options: list[tuple[int, bool, bool]]) -> set[int]:
    """The middle fields any of ``options`` can end on."""
    return {st >> 2 for c, _, _ in options for st in layers[c] if _MIDDLE[st >> 2]}


def _expect(table: dict[int, float], dist: dict[int, float]) -> float:
    if len(table) < len(dist):
        return sum(p * dist.get(f, 0.0) for f, p in table.items())
    return sum(p * table.get(f, 0.0) for f, p in dist.items())


class Lookahead:
    """Values end positions for one decision (see the module notes); caches per decision."""

    def __init__(self, r: Reading, *, correlated: bool, gamma: float, closeness: float, rounds: int = 2) -> None:
        if not 1 <= rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be 1..{MAX_ROUNDS}, got {rounds!r}")
        view = r.view
        if view.villain is None:
            raise ValueError("the look-ahead needs the villain on the map")
        self.r = r
        self.links, self.blocked = r.links, r.blocked
        self.correlated = correlated
        self.gamma = gamma if rounds >= 2 else 0.0
        self.rounds = rounds
        self.closeness = closeness
        self.players = n = view.players
        self.all_cards = tuple((c.dx, c.dy) for c in default_pieces().escape)
        vsq = (view.villain[0] // 3, view.villain[1] // 3)
        at, _ = villain_forecast(vsq, r.tiles, unturned_cards(view), self.all_cards, max(2, rounds) * n)
        self.dists = [{g.middle(*sq): p for sq, p in at[k * n - 1].items()} for k in range(1, max(2, rounds) + 1)]
        self.next_round = self.dists[0]
        self._from: dict[int, dict[int, float]] = {}
        self._later: dict[tuple[int, int, int], float] = {}
        self._deep_cache: dict[tuple[int, int, int], float] = {}
        self.evaluations = 0

    def _deep(self, st: int, level: int, turbo1: bool, turbo2: bool) -> float:
        """Chance to hit from state ``st`` on turn ``level`` (1: the turn after next) or on
        the turns after it up to ``rounds``, against the public forecast (uncorrelated)."""
        key = (st, level, turbo1 * 2 + turbo2)
        v = self._deep_cache.get(key)
        if v is not None:
            return v
        dist = self.dists[level]
        if level >= self.rounds - 1:
            v = _expect(hit_table(self.links, self.blocked, st >> 2, st & 3, turbo1, turbo2), dist)
        else:
            layers = reach_layers(self.links, self.blocked, st >> 2, st & 3)
            total = 0.0
            for d in range(1, 7):
                options = _roll_options(layers, d, turbo1, turbo2)
                ph = sum(dist.get(f, 0.0) for f in _hit_fields(layers, options))
                best = max(
                    (self._deep(s2, level + 1, a1, a2) for c, a1, a2 in options for s2 in layers[c]), default=0.0
                )
                total += ph + (1.0 - ph) * self.gamma * best
            v = total / 6.0
        self._deep_cache[key] = v
        return v

    def _forecast_from(self, villain: int) -> dict[int, float]:
        d = self._from.get(villain)
        if d is None:
            at, _ = villain_forecast(g.cell_square(villain), self.r.tiles, self.all_cards, self.all_cards, self.players)
            d = {g.middle(*sq): p for sq, p in at[-1].items()}
            self._from[villain] = d
        return d

    def _later_hit(self, st: int, villain: int, turbo1: bool, turbo2: bool) -> float:
        """Chance to hit on the turn after next from state ``st`` (villain -1: the public
        forecast, and with ``rounds`` 3 the turn after that too; else the forecast from
        that villain field)."""
        if villain < 0:
            return self._deep(st, 1, turbo1, turbo2)
        key = (st, villain, turbo1 * 2 + turbo2)
        v = self._later.get(key)
        if v is None:
            dist = self._forecast_from(villain)
            v = _expect(hit_table(self.links, self.blocked, st >> 2, st & 3, turbo1, turbo2), dist)
            self._later[key] = v
        return v

    def hit_value(self, cell: int, heading: int, turbo1: bool, turbo2: bool) -> float:
        """The expectimax over the next round (see the module notes), in hit chance."""
        self.evaluations += 1
        layers = reach_layers(self.links, self.blocked, cell, heading)
        gamma = self.gamma
        total = 0.0
        for d in range(1, 7):
            options = _roll_options(layers, d, turbo1, turbo2)
            hits = _hit_fields(layers, options)
            if self.rounds == 1:
                total += sum(self.next_round.get(f, 0.0) for f in hits)
                continue
            if not self.correlated:
                ph = sum(self.next_round.get(f, 0.0) for f in hits)
                best = max((self._later_hit(st, -1, a1, a2) for c, a1, a2 in options for st in layers[c]), default=0.0)
                total += ph + (1.0 - ph) * gamma * best
                continue
            for q, pq in self.next_round.items():
                if q in hits:
                    total += pq
                    continue
                best = max((self._later_hit(st, q, a1, a2) for c, a1, a2 in options for st in layers[c]), default=0.0)
                total += pq * gamma * best
        return total / 6.0 + self.r.lands.get(cell, 0.0) / 6.0

    def end_value(self, cell: int, heading: int, turbo1: bool, turbo2: bool) -> float:
        """Worth of ending the move on (``cell``, ``heading``): the look-ahead, the oil
        table if it is a rival's oil slick, and the heuristic's closeness."""
        v = self.hit_value(cell, heading, turbo1, turbo2)
        r = self.r
        if r.on_oil(cell):
            occupied: dict[int, int] = {}
            for oc, _, _ in r.others:
                occupied[oc] = occupied.get(oc, 0) + 1
            c1, h1, _ = skid(self.links, self.blocked, occupied, cell, heading, 1)
            c2, h2, _ = skid(self.links, self.blocked, occupied, cell, heading, 2)
            roof = self.gamma * self._later_hit(cell * 4 + heading, -1, turbo1, turbo2)  # the next turn is lost
            v = (
                roof  # 1: on the roof
                + self.hit_value(c2, h2, turbo1, turbo2)  # 2: two back
                + self.hit_value(c1, h1, turbo1, turbo2)  # 3: one back
                + self.hit_value(cell, (heading + 2) & 3, turbo1, turbo2)  # 4: turned round
                + 2.0 * v  # 5, 6: nothing
            ) / 6.0
        return v + self.closeness * r.value(cell, heading)

    def move_value(self, m: Move, state: State, turbo1: bool, turbo2: bool, *, depth: int = 1) -> float:
        """Worth of move ``m`` from ``state`` (built from the view)."""
        r = self.r
        left = state.pips - state.used
        cell = g.cell(m.x, m.y)
        if cell == r.villain and not r.ram_stop(cell, m.cost, left):
            return LOOKAHEAD_WIN
        keep = JUMP_KEEP_P if m.jump else 0.0
        if not r.ram_stop(cell, m.cost, left):
            return self.end_value(cell, m.heading, turbo1, turbo2) - keep
        # a ram stop: 17 times in 18 the move goes on with the pips left; else this car
        # skids (it stays here, turned round)
        after = after_ram_stop(state, m, cell)
        cont = [a for a in legal_actions(after) if isinstance(a, Move)] if depth > 0 else []
        if cont:
            best = max(self.move_value(c, after, turbo1, turbo2, depth=depth - 1) for c in cont)
        elif cell == r.villain:
            best = LOOKAHEAD_WIN
        else:
            best = self.end_value(cell, m.heading, turbo1, turbo2)
        skidded = self.end_value(cell, (m.heading + 2) & 3, turbo1, turbo2)
        return (17.0 * best + skidded) / 18.0 - keep


class LookaheadAgent:
    """The exact-dice look-ahead over the heuristic's ``top_k`` movement choices."""

    def __init__(
        self,
        seed: int = 0,
        *,
        rounds: int = 2,
        correlated: bool = False,
        top_k: int = 6,
        gamma_per_rival: float = 0.9,
        closeness: float = 0.005,
        threat_detours: bool = False,
        name: str = "lookahead",
    ) -> None:
        if top_k < 1:
            raise ValueError("top_k must be at least 1")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be 1..{MAX_ROUNDS}, got {rounds!r}")
        if not 0.0 < gamma_per_rival <= 1.0:
            raise ValueError(f"gamma_per_rival must be in (0, 1], got {gamma_per_rival!r}")
        if closeness < 0.0:
            raise ValueError(f"closeness must be >= 0, got {closeness!r}")
        self.name = name
        self.seed = seed  # the bot draws no random numbers: every seed plays the same
        self.rounds = rounds
        self.correlated = correlated
        self.top_k = top_k
        self.gamma_per_rival = gamma_per_rival
        self.closeness = closeness
        self.threat_detours = threat_detours
        self.last_evaluations = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self.evaluate(view, legal)[0]

    def evaluate(
        self, view: View, legal: Sequence[Action], include: Sequence[Action] = ()
    ) -> tuple[Action, list[tuple[Action, float | None]]]:
        """The action this bot plays and the look-ahead's value of each candidate it
        compared (the heuristic's best ``top_k`` movement choices, then the actions of
        ``include`` not among them: ``None`` for one the look-ahead does not value, such
        as a card other than a Turbo-Boost); no candidates when the decision needed no
        search. :meth:`choose` is its first part. Sees the view only."""
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_evaluations = 0
        plain = _plain_choice(view, legal)
        if isinstance(plain, Action):
            if self.threat_detours and isinstance(plain, PlayDetour | End) and view.phase == TURN_PHASE:
                end = next((a for a in legal if isinstance(a, End)), None)
                if end is not None and not any(isinstance(a, Move) for a in legal):
                    det = threat_detour(Reading.of(view), legal)
                    return (det if det is not None else end), []
            return plain, []
        r, ranked = plain
        look = Lookahead(
            r,
            correlated=self.correlated,
            gamma=self.gamma_per_rival ** (view.players - 1),
            closeness=self.closeness,
            rounds=self.rounds,
        )
        # the Turbo-Boosts held for the next rounds (``kitt_played`` only limits this turn)
        t1, t2 = view.hand_kitt[1] > 0, view.hand_kitt[2] > 0
        best: tuple[float, Action] | None = None
        top = [a for _, a in ranked[: self.top_k]]
        values: list[tuple[Action, float | None]] = []
        for a in top + [a for a in dict.fromkeys(include) if a in legal and a not in top]:
            v: float | None
            if isinstance(a, Move):
                v = look.move_value(a, r.base, t1, t2)
            elif isinstance(a, PlayKitt):
                boosted = apply(r.base, a)
                moves = [
                    (move_value(r, m, boosted), i, m)
                    for i, m in enumerate(legal_actions(boosted))
                    if isinstance(m, Move)
                ]
                if not moves:
                    v = None
                else:
                    moves.sort(key=lambda t: (-t[0], t[1]))
                    u1, u2 = t1 and a.kind != "TURBO1", t2 and a.kind != "TURBO2"
                    v = max(look.move_value(m, boosted, u1, u2) for _, _, m in moves[: self.top_k])
            elif isinstance(a, End):
                me = r.base.cars[view.me]
                v = look.end_value(me.cell, me.heading, t1, t2) if me.cell >= 0 else -1.0
            else:
                v = None
            values.append((a, v))
            if v is not None and a in top and (best is None or v > best[0]):
                best = (v, a)
        self.last_evaluations = look.evaluations
        return (best[1] if best is not None else ranked[0][1]), values


# -- detours by the threat: the rivals' chance to hit on their next turn ----------------------
DETOUR_GAIN = 0.03  # a detour must cut the rivals' hit chance by this much more than ours
DETOUR_PIP = 0.01  # our own way made longer, per pip (to where the villain will be), in hit chance


@lru_cache(maxsize=1 << 12)
def pips_from(links: bytes, blocked: frozenset[int], cell: int, heading: int) -> dict[int, int]:
    """Fewest pips from (``cell``, ``heading``) to end a step on each field (forward, by the
    same step costs as :func:`~rallye.agents.knightrider.heuristic.cost_to`: the same
    :func:`~rallye.agents.knightrider.heuristic.fewest_pips`)."""
    best: dict[int, int] = {}
    for st, c in fewest_pips(links, blocked, (cell * 4 + heading,), _steps).items():
        f = st >> 2
        if c < best.get(f, c + 1):
            best[f] = c
    best[cell] = 0
    return best


def _threats(
    links: bytes,
    blocked: frozenset[int],
    cars: Sequence[tuple[int, int, bool, bool, dict[int, float]]],
) -> list[float]:
    """Each car's chance to hit on its next turn: (cell, heading, holds Turbo-Boost I,
    holds Turbo-Boost II, where the villain stands then)."""
    return [_expect(hit_table(links, blocked, c, h, t1, t2), dist) for c, h, t1, t2, dist in cars]


def threat_detour(r: Reading, legal: Sequence[Action]) -> PlayDetour | None:
    """The detour that cuts the rivals' chance to hit on their next turn the most, less
    what it cuts of ours (at least :data:`DETOUR_GAIN`); ``None``: keep the cards.

    The villain's square at each rival's turn is the public forecast (one escape card
    per turn from the end of this one); the rivals' Turbo-Boosts are the ones the view
    tells (``state_from_view``: the basic deal minus the cards played).
    """
    detours = [a for a in legal if isinstance(a, PlayDetour)]
    view = r.view
    if not detours or view.villain is None:
        return None
    n = view.players
    state = r.base
    vsq = (view.villain[0] // 3, view.villain[1] // 3)
    all_cards = tuple((c.dx, c.dy) for c in default_pieces().escape)
    at, _ = villain_forecast(vsq, r.tiles, unturned_cards(view), all_cards, n)
    dists = [{g.middle(*sq): p for sq, p in step.items()} for step in at]
    rivals: list[tuple[int, int, bool, bool, dict[int, float]]] = []
    for k in range(1, n):
        car = state.cars[(view.me + k) % n]
        if car.cell < 0 or car.roof:
            continue
        hand = state.kitt_hands[car.player]
        rivals.append((car.cell, car.heading, hand[1] > 0, hand[2] > 0, dists[k - 1]))
    me = state.cars[view.me]
    if not rivals or me.cell < 0:
        return None
    mine = (me.cell, me.heading, view.hand_kitt[1] > 0, view.hand_kitt[2] > 0, dists[n - 1])
    before = _threats(r.links, r.blocked, rivals)
    if max(before) < DETOUR_GAIN:
        return None
    my_before = _threats(r.links, r.blocked, [mine])[0]

    middles = [g.middle(t.x, t.y) for t in view.tiles]

    def my_way(links: bytes, blocked: frozenset[int]) -> tuple[float, frozenset[int]]:
        """Expected pips to where the villain will be, and the middle fields in reach."""
        table = pips_from(links, blocked, me.cell, me.heading)
        way = sum(w * min(float(table.get(goal, UNREACHABLE)), UNREACHABLE) for goal, w in r.goals)
        return way, frozenset(m for m in middles if m in table)

    way_before, reach_before = my_way(r.links, r.blocked)
    # only squares a threatening rival's move can cross
    near: set[tuple[int, int]] = set()
    for (c, h, t1, _, _), t in zip(rivals, before, strict=True):
        if t < DETOUR_GAIN:
            continue
        layers = reach_layers(r.links, r.blocked, c, h)
        for layer in layers[: (MAX_PIPS if t1 else 6) + 1]:
            near.update(g.cell_square(st >> 2) for st in layer)
    masks = mask_table(state.pieces)
    seen: dict[tuple[int, bytes, bool], float] = {}
    best: tuple[float, PlayDetour] | None = None
    for a in detours:
        if (a.x, a.y) not in near:
            continue
        sq = g.sq_index(a.x, a.y)
        dets = (*state.detours, (sq, a.kind, a.rot, view.me))
        links = relink_tile(r.links, state.board, masks, dets, sq)
        mid = g.middle(a.x, a.y)
        tile = bytes(links[mid + dy * g.CELL_SPAN + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        key = (sq, tile, a.kind == "ROADBLOCK")
        gain = seen.get(key)
        if gain is None:
            blocked = roadblocks(dets)
            after = _threats(links, blocked, rivals)
            my_after = _threats(links, blocked, [mine])[0]
            way, reach = my_way(links, blocked)
            if not reach >= reach_before:
                gain = -1.0  # never cut this car off from a tile
            else:
                gain = sum(before) - sum(after) - (my_before - my_after) - DETOUR_PIP * (way - way_before)
            seen[key] = gain
        if gain >= DETOUR_GAIN and (best is None or gain > best[0]):
            best = (gain, a)
    return None if best is None else best[1]


def _is_mantle(a: Action) -> bool:
    return isinstance(a, PlayKitt) and a.kind == "MANTLE"


register("knightrider", "mcts", lambda seed: MctsAgent(seed))
register("knightrider", "lookahead", lambda seed: LookaheadAgent(seed))
