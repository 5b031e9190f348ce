"""A rule-of-thumb Knight Rider bot: chases the villain where it is about to be.

It sees only its :class:`~rallye.knightrider.view.View` and the legal actions; for
look-ahead inside its own turn (a Turbo-Boost, the rest of a move after a ram stop) it
uses :func:`~rallye.knightrider.sampling.state_from_view`, a state built from the view
alone. Its habits:

- **Distance is pips.** The cost to reach a field counts one pip per field plus the
  turns (90° = 1, 180° = 2), around roadblocks: a reverse Dijkstra from the goal over
  (field, heading), cached per map and goal (:func:`cost_to`).
- **Chase where the villain will be.** The escape cards not yet turned are public, so
  the villain's next positions are known as a distribution; before this car moves again
  the villain moves once per player (:func:`villain_forecast`). A position is worth the
  expected cost to the villain then, plus the chance that a die roll hits it exactly,
  plus the chance that the villain lands on the car (the rammed player wins on a 6).
- **Win at once** when a move ends on the villain (with Turbo-Boost or Blockier-Sprung if
  that is what it takes).
- **Turbo-Boost II** on a rolled 1 (it only works then); **Turbo-Boost I** when it wins
  or gains a lot; **Blockier-Sprung** when it wins or saves several pips.
- **Mind the other cars:** no ending on the field directly behind a car (oil), no
  needless passing (a ram stop risks the ram failing and the car skidding), unless that
  is the way to win.
- **Roadblocks in front of the rival** nearest to the villain: a detour on its shortest
  way that costs it several pips and this car little, and never one that cuts this car
  off from a tile it can drive to (:func:`cuts_itself_off`: a detour stays to the end,
  and cars shut out of the villain's part of the town made games that never end).
  **Molekül-Mantel** when a rival
  can reach this car's field next round.
- **Build a track for chasing:** tiles that join many roads, near the centre, without
  road ends into the centre or squares no tile can fill.
- **On its roof** it recovers (the only action).

Every legal action gets a score; the best is played, ties to the earlier action in the
engine's fixed order, so the bot is deterministic for a seed (``epsilon`` adds seeded
random play).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from rallye.agents.base import register
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import (
    Action,
    End,
    Enter,
    Move,
    Place,
    PlayDetour,
    PlayKitt,
    StartAt,
    detour_sides,
)
from rallye.knightrider.engine import apply, legal_actions
from rallye.knightrider.pieces import Pieces
from rallye.knightrider.sampling import state_from_view
from rallye.knightrider.state import BUILD_PHASE, ENTER_PHASE, START_PHASE, Options, State, evolve
from rallye.knightrider.track import mask_table, relink_tile, roadblocks
from rallye.knightrider.view import View

# Scale of the scores: pips of distance. Only the order matters.
WIN = 1000.0
UNREACHABLE = 40.0  # cost charged for a goal no road leads to
HIT = 6.0  # worth of a sure exact hit next turn
VILLAIN_WIN = 30.0  # worth of winning, for the villain-ram 6
OIL = 2.5  # expected loss of ending on a car's oil
RAM_RISK = 1.0  # a ram stop that does not win
JUMP_KEEP = 2.5  # holding Blockier-Sprung for later
TURBO_KEEP = 4.0  # holding Turbo-Boost I for later
TURBO2_KEEP = 0.5
DETOUR_MIN = 3.0  # a detour must cost the rival at least this much more than us
MANTLE_REACH = 7  # a rival this many pips from our field may ram us
_TC = g.TURN_COST
_DELTA = g.DELTA


# -- distances -------------------------------------------------------------------------
#: the steps of a state on a map: (links, roadblocked fields, state) -> (the next state, the
#: step's cost in whole pips, at least 1) for each step
Steps = Callable[[bytes, frozenset[int], int], list[tuple[int, int]]]


def fewest_pips(links: bytes, blocked: frozenset[int], starts: Iterable[int], steps: Steps) -> dict[int, int]:
    """Fewest pips from any of ``starts`` (0 each) to every state reachable from them by
    ``steps`` on the map (``links``, ``blocked``). States are ``cell * 4 + heading``; the
    search runs forward or backward as ``steps`` leads (:func:`cost_to` backward,
    :func:`~rallye.agents.knightrider.search.pips_from` forward). A Dijkstra with a bucket
    queue: one list per cost, the costs being small whole numbers."""
    dist: dict[int, int] = {}
    buckets: list[list[int]] = [[]]
    for st in starts:
        dist[st] = 0
        buckets[0].append(st)
    c = 0
    while c < len(buckets):
        for st in buckets[c]:
            if dist[st] != c:
                continue  # reached for less since it was queued here
            for key, cost in steps(links, blocked, st):
                nc = c + cost
                old = dist.get(key)
                if old is None or nc < old:
                    dist[key] = nc
                    while len(buckets) <= nc:
                        buckets.append([])
                    buckets[nc].append(key)
        c += 1
    return dist


def steps_into(links: bytes, blocked: frozenset[int], st: int) -> list[tuple[int, int]]:
    """The states whose step ends in ``st`` (the field entered, the heading it is entered
    with), with the step's cost: 1 plus the turn on the field left; a roadblocked field
    cannot be entered."""
    n, d = st >> 2, st & 3
    if n in blocked or not (links[n] >> ((d + 2) & 3)) & 1:
        return []
    f = n - _DELTA[d]
    if not (links[f] >> d) & 1:
        return []
    base = f * 4
    return [(base + h, 1 + _TC[h][d]) for h in range(4)]


@lru_cache(maxsize=8192)
def cost_to(links: bytes, blocked: frozenset[int], goal: int) -> dict[int, int]:
    """Pips needed to end a step on ``goal``, per ``cell * 4 + heading`` (absent: no way).

    A step costs 1 plus the turn on the field it leaves; roadblocked fields cannot be
    entered; other cars are ignored (they move). :func:`fewest_pips` backward from the goal.
    """
    return fewest_pips(links, blocked, range(goal * 4, goal * 4 + 4), steps_into)


def car_cost(table: dict[int, int], cell: int, heading: int, entry_arm: int = -1) -> float:
    """Cost from a car's position (``cell`` -1: waiting, entering at ``entry_arm``)."""
    if cell < 0:
        v = table.get(entry_arm * 4 + heading)
        return UNREACHABLE if v is None else v + 1.0
    v = table.get(cell * 4 + heading)
    return UNREACHABLE if v is None else float(v)


def hit_chance(c: float) -> float:
    """Roughly: the chance that one die roll can end a move exactly ``c`` pips away."""
    if c <= 0:
        return 0.2
    if c > 6:
        return 0.0
    return (7.0 - c) / 6.0


# -- the villain's future ---------------------------------------------------------------
@lru_cache(maxsize=8)
def default_pieces() -> Pieces:
    return Options().pieces()


def unturned_cards(view: View) -> tuple[tuple[int, int], ...]:
    """(dx, dy) of the escape cards not yet turned (the shipped deck assumed)."""
    pieces = default_pieces()
    turned = {e.id for e in view.escape_turned}
    cards = tuple((c.dx, c.dy) for c in pieces.escape if c.id not in turned)
    return cards or tuple((c.dx, c.dy) for c in pieces.escape)


Forecast = tuple[dict[tuple[int, int], float], ...]


def villain_forecast(
    villain_sq: tuple[int, int],
    tiles: frozenset[tuple[int, int]],
    unturned: Sequence[tuple[int, int]],
    all_cards: Sequence[tuple[int, int]],
    steps: int,
) -> tuple[Forecast, Forecast]:
    """Where the villain stands after 1..steps escape cards, and where it *lands* (moves
    onto) at each step, as square → probability maps.

    The first ``len(unturned)`` cards come from the unturned ones, the rest from a
    reshuffled deck; each step draws uniformly (with replacement, an approximation).
    """
    pos: dict[tuple[int, int], float] = {villain_sq: 1.0}
    at: list[dict[tuple[int, int], float]] = []
    lands: list[dict[tuple[int, int], float]] = []
    for i in range(steps):
        cards = unturned if i < len(unturned) else all_cards
        w = 1.0 / len(cards)
        nxt: dict[tuple[int, int], float] = {}
        land: dict[tuple[int, int], float] = {}
        for (x, y), p in pos.items():
            for dx, dy in cards:
                t = (x + dx, y + dy)
                if t in tiles:
                    nxt[t] = nxt.get(t, 0.0) + p * w
                    land[t] = land.get(t, 0.0) + p * w
                else:
                    nxt[(x, y)] = nxt.get((x, y), 0.0) + p * w
        pos = nxt
        at.append(nxt)
        lands.append(land)
    return tuple(at), tuple(lands)


# -- one decision's reading -------------------------------------------------------------
def _ram_cells(view: View) -> tuple[dict[int, int], frozenset[int]]:
    """Other cars per field, and the fields with one rammable other car."""
    occ: dict[int, int] = {}
    soft: dict[int, bool] = {}
    for c in view.cars:
        if c.player == view.me or c.field is None:
            continue
        cell = g.cell(*c.field)
        occ[cell] = occ.get(cell, 0) + 1
        soft[cell] = not c.roof and not c.mantle
    return occ, frozenset(cell for cell, k in occ.items() if k == 1 and soft[cell])


@dataclass
class Reading:
    """What the bot reads from a view once per decision."""

    view: View
    links: bytes
    blocked: frozenset[int]
    tiles: frozenset[tuple[int, int]]
    villain: int  # cell
    goals: tuple[tuple[int, float], ...]  # (goal cell, weight) where the villain will be
    lands: dict[int, float]  # middle cell -> chance the villain lands there before our next turn
    rammable: frozenset[int]
    others: tuple[tuple[int, int, int], ...]  # (cell, heading, player) of other cars on the map
    entry_arm: int
    base: State  # built from the view alone (state_from_view), for look-ahead in this turn

    @classmethod
    def of(cls, view: View) -> Reading:
        base = state_from_view(view)
        links = base.links
        blocked = roadblocks(base.detours)
        tiles = frozenset((t.x, t.y) for t in view.tiles)
        if view.villain is None:
            raise ValueError("a chase reading needs the villain on the map (the view is from the building phase)")
        vsq = (view.villain[0] // 3, view.villain[1] // 3)
        pieces = default_pieces()
        all_cards = tuple((c.dx, c.dy) for c in pieces.escape)
        at, lands = villain_forecast(vsq, tiles, unturned_cards(view), all_cards, view.players)
        final = at[-1]
        goals = [(g.middle(*sq), p) for sq, p in final.items() if p >= 0.01]
        total = sum(p for _, p in goals)
        goals = [(c, p / total) for c, p in goals]
        land_total: dict[int, float] = {}
        for step in lands:
            for sq, p in step.items():
                cell = g.middle(*sq)
                land_total[cell] = land_total.get(cell, 0.0) + p
        _, rammable = _ram_cells(view)
        others = tuple(
            (g.cell(*c.field), c.heading, c.player) for c in view.cars if c.player != view.me and c.field is not None
        )
        arm = -1
        if view.start_tile is not None:
            me = next((c for c in view.cars if c.player == view.me), None)
            if me is not None and me.field is None:
                arm = g.arm(*view.start_tile, me.side)
        return cls(
            view=view,
            links=links,
            blocked=blocked,
            tiles=tiles,
            villain=g.cell(*view.villain),
            goals=tuple(sorted(goals)),
            lands=land_total,
            rammable=rammable,
            others=others,
            entry_arm=arm,
            base=base,
        )

    def expected_cost(
        self, cell: int, heading: int, links: bytes | None = None, blocked: frozenset[int] | None = None
    ) -> float:
        lk = self.links if links is None else links
        bl = self.blocked if blocked is None else blocked
        return sum(w * car_cost(cost_to(lk, bl, goal), cell, heading, self.entry_arm) for goal, w in self.goals)

    def value(self, cell: int, heading: int) -> float:
        """Worth of ending the turn on ``cell`` facing ``heading`` (higher is better)."""
        v = 0.0
        for goal, w in self.goals:
            c = car_cost(cost_to(self.links, self.blocked, goal), cell, heading, self.entry_arm)
            v += w * (-c + HIT * hit_chance(c))
        v += VILLAIN_WIN / 6.0 * self.lands.get(cell, 0.0)
        return v

    def on_oil(self, cell: int) -> bool:
        """Ending on ``cell`` is ending directly behind another car."""
        for oc, oh, _ in self.others:
            if oc == cell:
                continue
            back = (oh + 2) & 3
            if (self.links[oc] >> back) & 1 and oc + _DELTA[back] == cell:
                return True
        return False

    def wins(self, m: Move, pips_left: int) -> bool:
        cell = g.cell(m.x, m.y)
        return cell == self.villain and not self.ram_stop(cell, m.cost, pips_left)

    def ram_stop(self, cell: int, cost: int, pips_left: int) -> bool:
        """A move to ``cell`` for ``cost`` pips stops there to ram (the engine's rule: it
        arrives on a field with one rammable car while pips remain). A move of at most 2
        pips that ends on this car's own field is a turn where it stands (a way back to its
        field costs 4 at least), which passes nobody."""
        if cell not in self.rammable or cost >= pips_left:
            return False
        return cost > 2 or cell != self.base.cars[self.view.me].cell


# -- moves and K.I.T.T. cards ------------------------------------------------------------
def _moves_of(state: State) -> list[Move]:
    return [a for a in legal_actions(state) if isinstance(a, Move)]


def after_ram_stop(state: State, m: Move, cell: int) -> State:
    """The state in the middle of move ``m`` that stops at ``cell`` to ram: the moving car
    stands there (no side yet), the pips spent, the move under way."""
    me = state.cars[state.current]
    return evolve(
        state,
        cars=tuple(
            replace(c, cell=cell, heading=m.heading, side=-1) if c.player == me.player else c for c in state.cars
        ),
        used=state.used + m.cost,
        moved=True,
        kitt_played=state.kitt_played or m.jump,
    )


def move_value(r: Reading, m: Move, state: State, *, depth: int = 1) -> float:
    """Worth of making move ``m`` from ``state`` (a state built from the view)."""
    left = state.pips - state.used
    cell = g.cell(m.x, m.y)
    if cell == r.villain and not r.ram_stop(cell, m.cost, left):
        return WIN
    keep = JUMP_KEEP if m.jump else 0.0
    if r.ram_stop(cell, m.cost, left):
        # the move goes on after the ram: value the best continuation
        after = after_ram_stop(state, m, cell)
        cont = _moves_of(after) if depth > 0 else []
        if not cont and cell == r.villain:
            return WIN - 1.0 - keep  # nowhere to go on: the move ends here, on the villain
        if not cont:
            best = r.value(cell, m.heading) - (OIL if r.on_oil(cell) else 0.0)
        else:
            best = max(move_value(r, c, after, depth=depth - 1) for c in cont)
        if best >= WIN:
            return WIN - 1.0 - keep
        skid = r.value(cell, (m.heading + 2) & 3)
        return (17.0 * best + skid) / 18.0 - RAM_RISK - keep
    v = r.value(cell, m.heading) - keep
    if r.on_oil(cell):
        v -= OIL
    return v


def best_move(r: Reading, state: State) -> tuple[float, Move | None]:
    moves = _moves_of(state)
    if not moves:
        return -1e9, None
    scored = [(move_value(r, m, state), i, m) for i, m in enumerate(moves)]
    v, _, m = max(scored, key=lambda t: (t[0], -t[1]))
    return v, m


def rank_turn(view: View, legal: Sequence[Action], r: Reading | None = None) -> list[tuple[float, Action]]:
    """The movement decisions scored (moves, Turbo-Boosts, and ``end`` when moving is
    optional), best first; other actions get no score here."""
    r = r or Reading.of(view)
    state = r.base
    out: list[tuple[float, int, Action]] = []
    for i, a in enumerate(legal):
        if isinstance(a, Move):
            out.append((move_value(r, a, state), i, a))
        elif isinstance(a, PlayKitt) and a.kind in ("TURBO1", "TURBO2"):
            v, m = best_move(r, apply(state, a))
            if m is None:
                continue  # no move even with the boost
            if v < WIN - 1.0:
                v -= TURBO_KEEP if a.kind == "TURBO1" else TURBO2_KEEP
            else:
                v = WIN - (2.0 if a.kind == "TURBO2" else 3.0)  # a win: no card if a move wins too
            out.append((v, i, a))
        elif isinstance(a, End) and any(isinstance(b, Move) for b in legal):
            me = state.cars[view.me]
            stay = r.value(me.cell, me.heading) if me.cell >= 0 else -UNREACHABLE
            out.append((stay, i, a))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(v, a) for v, _, a in out]


# -- cards after the move -----------------------------------------------------------------
def _rival_path(r: Reading, cell: int, heading: int, goal: int, steps: int = 9) -> list[tuple[int, int, int]]:
    """The squares a car's shortest way to ``goal`` passes through the middle of:
    (square code, side it enters by, side it leaves by)."""
    table = cost_to(r.links, r.blocked, goal)
    out: list[tuple[int, int, int]] = []
    f, h = cell, heading
    for _ in range(steps):
        if f == goal:
            break
        lk = r.links[f]
        best: tuple[int, int] | None = None
        for d in range(4):
            if not (lk >> d) & 1:
                continue
            n = f + _DELTA[d]
            c = table.get(n * 4 + d)
            if c is None or n in r.blocked:
                continue
            c += 1 + _TC[h][d]
            if best is None or c < best[0]:
                best = (c, d)
        if best is None:
            break
        d = best[1]
        cx, cy = g.cell_xy(f)
        if f == g.middle(cx // 3, cy // 3):
            out.append((g.sq_index(cx // 3, cy // 3), (h + 2) & 3, d))
        f, h = f + _DELTA[d], d
    return out


def choose_detour(r: Reading, legal: Sequence[Action]) -> tuple[float, PlayDetour | None]:
    """The detour that costs the most dangerous rival the most (and us little)."""
    detours = [a for a in legal if isinstance(a, PlayDetour)]
    if not detours or not r.others:
        return 0.0, None
    view = r.view
    me = next(c for c in r.base.cars if c.player == view.me)
    my_cost = car_cost(cost_to(r.links, r.blocked, r.villain), me.cell, me.heading, r.entry_arm)
    rivals = []
    for oc, oh, p in r.others:
        car = view.cars[[c.player for c in view.cars].index(p)]
        if car.roof:
            continue
        rivals.append((car_cost(cost_to(r.links, r.blocked, r.villain), oc, oh), oc, oh, p))
    if not rivals:
        return 0.0, None
    rival_cost, rc, rh, _ = min(rivals)
    if rival_cost > 14 or rival_cost > my_cost + 6:
        return 0.0, None  # nobody close enough to be worth a card
    path = _rival_path(r, rc, rh, r.villain)
    on_path = {sq: (a, b) for sq, a, b in path}
    if not on_path:
        return 0.0, None
    state = r.base
    masks = mask_table(state.pieces)
    best: tuple[float, int, PlayDetour | None] = (0.0, 0, None)
    for i, a in enumerate(detours):
        sq = g.sq_index(a.x, a.y)
        if sq not in on_path:
            continue
        ent, out = on_path[sq]
        if a.kind != "ROADBLOCK":
            sides = detour_sides(a.kind, a.rot)
            if (sides >> ent) & 1 and (sides >> out) & 1:
                continue  # does not cut the rival's way
        dets = state.detours + ((sq, a.kind, a.rot, view.me),)
        links = relink_tile(r.links, state.board, masks, dets, sq)
        blocked = roadblocks(dets)
        table = cost_to(links, blocked, r.villain)
        rival_after = car_cost(table, rc, rh)
        me_after = car_cost(table, me.cell, me.heading, r.entry_arm)
        gain = (rival_after - rival_cost) - 1.5 * (me_after - my_cost)
        if a.kind == "ROADBLOCK":
            gain -= 1.0  # Blockier-Sprung passes it
        better = gain > best[0] or (gain == best[0] and best[2] is not None and i < best[1])
        if better and not cuts_itself_off(r, a):
            best = (gain, i, a)
    if best[2] is None or best[0] < DETOUR_MIN:
        return 0.0, None
    return best[0], best[2]


@lru_cache(maxsize=1 << 12)
def reachable_fields(links: bytes, blocked: frozenset[int], cell: int) -> frozenset[int]:
    """The fields a car on ``cell`` can ever drive to by road (any heading: a car may turn
    on any field; roadblocked fields cannot be entered; other cars are left out)."""
    seen = {cell}
    todo = [cell]
    while todo:
        f = todo.pop()
        for d in range(4):
            if (links[f] >> d) & 1:
                n = f + _DELTA[d]
                if n not in seen and n not in blocked:
                    seen.add(n)
                    todo.append(n)
    return frozenset(seen)


def cuts_itself_off(r: Reading, a: PlayDetour) -> bool:
    """Laying ``a`` would cut this player's car off from a tile's middle field it can
    drive to now: the detour stays to the end of the game, so a car shut into a part of
    the town where the villain never lands never catches him (a game that never ends)."""
    state = r.base
    me = state.cars[r.view.me]
    cell = me.cell if me.cell >= 0 else r.entry_arm
    if cell < 0:
        return False
    middles = [g.middle(t.x, t.y) for t in r.view.tiles]
    before = reachable_fields(r.links, r.blocked, cell)
    sq = g.sq_index(a.x, a.y)
    dets = (*state.detours, (sq, a.kind, a.rot, r.view.me))
    links = relink_tile(r.links, state.board, mask_table(state.pieces), dets, sq)
    after = reachable_fields(links, roadblocks(dets), cell)
    return any(m in before and m not in after for m in middles)


def want_mantle(r: Reading) -> bool:
    view = r.view
    me = next(c for c in r.base.cars if c.player == view.me)
    if me.cell < 0:
        return False
    table = cost_to(r.links, r.blocked, me.cell)
    for oc, oh, p in r.others:
        car = next(c for c in view.cars if c.player == p)
        if car.roof or oc == me.cell:
            continue
        c = table.get(oc * 4 + oh)
        if c is not None and c <= MANTLE_REACH:
            return True
    return False


# -- building -------------------------------------------------------------------------------
def place_score(view: View, a: Place) -> float:
    """A tile placement: join roads, stay compact, no road ends into the centre or into a
    square no tile can fill."""
    occupied: dict[tuple[int, int], int] = {(t.x, t.y): t.openings for t in view.tiles}
    centre = set(view.centre)
    pieces = default_pieces()
    mask = pieces.mask(view.drawn, a.rot) if view.drawn else 0
    score = 0.0
    for d, (dx, dy) in enumerate(g.DXY):
        nb = (a.x + dx, a.y + dy)
        road = (mask >> d) & 1
        if nb in occupied:
            score += 3.0 if road else 0.5
            continue
        if not road:
            continue
        if nb in centre or not g.in_table(*nb):
            score -= 3.0 if not view.centre_face_down or not g.in_table(*nb) else 1.0
            continue
        # roads that would lead into the empty square nb
        need = 1 << ((d + 2) % 4)
        for e, (ex, ey) in enumerate(g.DXY):
            nn = (nb[0] + ex, nb[1] + ey)
            if nn in occupied and (occupied[nn] >> ((e + 2) % 4)) & 1:
                need |= 1 << e
        if need == 0xF:
            score -= 4.0  # four roads into one square: no tile has a crossing
        else:
            score += 0.8  # room to grow
    score += 1.0 * bin(mask).count("1")
    score -= 0.35 * (abs(a.x + 0.5) + abs(a.y + 0.5))
    return score


def start_score(view: View, a: StartAt) -> float:
    tile = next((t for t in view.tiles if (t.x, t.y) == (a.x, a.y)), None)
    return 0.0 if tile is None else float(bin(tile.openings).count("1"))


# -- the agent -------------------------------------------------------------------------------
def best_action(view: View, legal: Sequence[Action]) -> Action:
    """The heuristic's choice (deterministic)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    if view.phase == BUILD_PHASE:
        return max(legal, key=lambda a: (place_score(view, a) if isinstance(a, Place) else -1e9, -legal.index(a)))
    if view.phase == START_PHASE:
        return max(legal, key=lambda a: (start_score(view, a) if isinstance(a, StartAt) else -1e9, -legal.index(a)))
    if view.phase == ENTER_PHASE:
        r = Reading.of(view)
        if view.start_tile is None:
            raise ValueError("an 'enter' decision needs the start tile in the view")
        sx, sy = view.start_tile

        def enter_value(a: Action) -> float:
            if not isinstance(a, Enter):
                return -1e9
            r.entry_arm = g.arm(sx, sy, a.side)
            return r.value(-1, (a.side + 2) & 3)

        return max(legal, key=lambda a: (enter_value(a), -legal.index(a)))
    r = Reading.of(view)
    ranked = rank_turn(view, legal, r)
    if ranked:
        return ranked[0][1]
    # the move is done (or impossible): cards, then end
    if not view.kitt_played and view.hand_kitt[0] and PlayKitt("MANTLE") in legal and want_mantle(r):
        return PlayKitt("MANTLE")
    _, det = choose_detour(r, legal)
    if det is not None:
        return det
    end = next((a for a in legal if isinstance(a, End)), None)
    return end if end is not None else legal[0]


def _kind(a: Action) -> str:
    return type(a).__name__


class HeuristicAgent:
    """The rule-of-thumb bot; ``epsilon`` is the chance of a random action (a random
    kind of action first, so the many detour placements do not crowd out the moves; a
    random detour is never one that cuts its own car off, :func:`cuts_itself_off`)."""

    def __init__(self, seed: int = 0, name: str = "heuristic", epsilon: float = 0.0) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in 0..1, got {epsilon!r}")
        self.name = name
        self.epsilon = epsilon
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if self.epsilon and self.rng.random() < self.epsilon:
            kinds = sorted({_kind(a) for a in legal})
            k = kinds[self.rng.randrange(len(kinds))]
            group = [a for a in legal if _kind(a) == k]
            if k != "PlayDetour":
                return group[self.rng.randrange(len(group))]
            # a random detour, but never one that shuts its own car in
            r = Reading.of(view)
            self.rng.shuffle(group)
            keep = (a for a in group if isinstance(a, PlayDetour) and not cuts_itself_off(r, a))
            return next(keep, best_action(view, legal))
        return best_action(view, legal)


register("knightrider", "heuristic", lambda seed: HeuristicAgent(seed))
