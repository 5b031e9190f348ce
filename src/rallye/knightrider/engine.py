"""The Knight Rider rules engine: pure functions over immutable :class:`State` values.

``new_game`` → ``legal_actions`` / ``apply`` / ``view_for`` / ``current_player`` /
``is_over`` / ``winner`` (and ``winners``, as in Mille Bornes). All chance (tile draws,
dice, shuffles) comes from the :class:`~rallye.core.rng.Rng` carried in the state, and
every chance outcome is reported as an :class:`~rallye.knightrider.state.Event` in
``state.events``.

Order of ``legal_actions`` (pinned by a golden test):

* building: ``place`` by square code (row-major from the north-west: y, then x), then
  rotation ascending;
* start tile tie: ``start at`` by square code;
* entering: ``enter`` by side N, E, S, W;
* a turn on the roof: ``recover`` only;
* a turn: moves without jump, then moves with jump, each by (field code, heading, cost);
  then ``kitt MANTLE``, ``TURBO1``, ``TURBO2``; then ``detour`` by (square code, kind in
  STRAIGHT DEADEND ROADBLOCK RIGHT LEFT order, rotation); then ``end``.

The rules it plays are ``docs/rules/knight-rider.md``: where the rulebook is silent it
follows that page's Resolutions (its scenario tests are named after them), and the page's
*rules versions* says what each version up to :data:`RULES` changed. A game keeps the
set-up of the version it is played under (``State.rules``,
:data:`~rallye.knightrider.state.SETUP_BY_ROAD`), so that old records replay
(``rallye.knightrider.record``).

How the actions carry the rules out: a move is offered in segments, each ending where the
pips are used or at a ram stop (Resolution *ram stop*), as a path with its cost; the path
listed is the canonical one, and a move sent with another path is refused. Blockier-Sprung
is played as part of a move (``move ... jump``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rallye.core.errors import ConfigError, GameOver, IllegalAction, NotYourTurn
from rallye.core.rng import Rng
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import (
    DETOUR_KINDS,
    DETOUR_ROTATIONS,
    KITT_KINDS,
    Action,
    End,
    Enter,
    Move,
    Place,
    PlayDetour,
    PlayKitt,
    Recover,
    StartAt,
    decode_code,
    detour_sides,
    encode_action,
)
from rallye.knightrider.pieces import Pieces
from rallye.knightrider.state import (
    BUILD_PHASE,
    ENTER_PHASE,
    OVER_PHASE,
    SETUP_BY_ROAD,
    START_PHASE,
    TURN_PHASE,
    Car,
    Event,
    Options,
    State,
    check_rules,
    evolve,
)
from rallye.knightrider.state import RULES as RULES  # re-exported: the version this engine plays
from rallye.knightrider.track import (
    MoveOption,
    build_preferences,
    compute_links,
    legal_squares,
    mask_table,
    orientation_table,
    placement_problem,
    relink_tile,
    road_distances,
    road_pieces,
    roadblocks,
    search_moves,
    skid,
    square_mask,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 5
MAX_DETOURS_PER_TILE = 3

RAM_TABLE = {
    1: "off the road: on its roof",
    2: "skids 2 fields back and faces against its direction",
    3: "skids 2 fields back",
    4: "skids 1 field back",
    5: "spun round: faces against its direction",
    6: "the ram fails",
}
OIL_TABLE = {
    1: "off the road: on its roof",
    2: "skids 2 fields back",
    3: "skids 1 field back",
    4: "faces against its direction",
    5: "nothing happens",
    6: "nothing happens",
}


def P(p: int) -> str:
    return f"P{p + 1}"


def _xy(c: int) -> str:
    x, y = g.cell_xy(c)
    return f"{x},{y}"


def _sqs(sq: int) -> str:
    x, y = g.sq_xy(sq)
    return f"{x},{y}"


class _Ev:
    """Collects the events (and the Rng) while one action is applied."""

    __slots__ = ("events", "rng")

    def __init__(self, rng: Rng) -> None:
        self.events: list[Event] = []
        self.rng = rng

    def add(self, kind: str, player: int | None, value: int | None, text: str) -> None:
        self.events.append(Event(kind, player, value, text))

    def die(self) -> int:
        v, self.rng = self.rng.die(6)
        return v

    def below(self, n: int) -> int:
        v, self.rng = self.rng.randbelow(n)
        return v


# ============================================================================ new game


def new_game(players: int, seed: int, options: Options | None = None, *, rules: int = RULES) -> State:
    """A new game: the centre is laid, the start player rolled, the first tile drawn.

    ``rules`` is the rules version to play under (default: today's, :data:`RULES`); an
    older one replays an old record with the set-up it was played with (see
    :data:`~rallye.knightrider.state.SETUP_BY_ROAD`).

    >>> s = new_game(3, seed=1, options=Options(quick_build=True))
    >>> s.phase in ("enter", "start")
    True
    """
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(
            f"Knight Rider is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}", rule="players"
        )
    check_rules(rules)
    opts = options if options is not None else Options()
    pieces = opts.pieces()
    ev = _Ev(Rng.from_seed("knightrider", seed))
    numbers = [t.number for t in pieces.tiles]
    shuffled, ev.rng = ev.rng.shuffle(numbers)
    centre = tuple(sorted(shuffled[:4]))
    pile = tuple(sorted(shuffled[4:]))
    ev.add("centre", None, None, "four face-down tiles form the centre")
    start = ev.below(players)
    ev.add("start_player", start, start + 1, f"{P(start)} is the start player (car 1)")
    kitt, detour, aside = _deal(players, start, opts, ev)
    order, ev.rng = ev.rng.shuffle(range(len(pieces.escape)))
    state = State(
        players=players,
        seed=seed,
        options=opts,
        rng=ev.rng,
        phase=BUILD_PHASE,
        current=start,
        start_player=start,
        board=(0,) * g.N_SQUARES,
        laid=(),
        pile=pile,
        centre=centre,
        drawn=0,
        first_laid=(False,) * players,
        unused=(),
        links=bytes(g.N_CELLS),
        villain=-1,
        targets=(),
        start_sq=-1,
        start_choices=(),
        cars=(),
        detours=(),
        kitt_hands=kitt,
        detour_hands=detour,
        set_aside=aside,
        played=(),
        escape_deck=order,
        escape_pos=0,
        turn=0,
        roll=0,
        pips=0,
        used=0,
        moved=False,
        move_done=False,
        kitt_played=False,
        detour_played=False,
        winner=None,
        events=(),
        rules=rules,
    )
    state = _draw(state, ev)
    if opts.quick_build:
        while state.phase == BUILD_PHASE:
            sq, q = _quick_placement(state, ev)
            x, y = g.sq_xy(sq)
            state = _apply_place(state, Place(x, y, 90 * q, state.drawn), ev)
    return evolve(state, rng=ev.rng, events=tuple(ev.events))


def _quick_placement(state: State, ev: _Ev) -> tuple[int, int]:
    """Where the quick build lays the drawn tile: (square code, quarter turns), by the
    Resolution *quick build* of ``docs/rules/knight-rider.md``.

    Rules 3 on (:data:`SETUP_BY_ROAD`): the best legal placements by
    :func:`~rallye.knightrider.track.build_preferences`, the seed's chance picking among
    those equally good in the order of :func:`_placements`; rules 1 and 2: among all.
    """
    places = _placements(state)
    if state.rules >= SETUP_BY_ROAD:
        occupied = [g.sq_index(x, y) for _, x, y, _ in state.laid]
        keys = build_preferences(state.board, mask_table(state.pieces), state.drawn, places, occupied)
        best = max(keys)
        places = [p for p, k in zip(places, keys, strict=True) if k == best]
    return places[ev.below(len(places))]


def _deal(
    players: int, start: int, opts: Options, ev: _Ev
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, int]]:
    sets = MAX_PLAYERS if opts.deal_spares else players
    hands: list[tuple[tuple[int, ...], ...]] = []
    aside = (len(KITT_KINDS) * (MAX_PLAYERS - sets), len(DETOUR_KINDS) * (MAX_PLAYERS - sets))
    for kinds in (KITT_KINDS, DETOUR_KINDS):
        counts = [[0] * len(kinds) for _ in range(players)]
        if opts.shuffle_cards:
            pool, ev.rng = ev.rng.shuffle([k for _ in range(sets) for k in range(len(kinds))])
            for i, k in enumerate(pool):
                counts[(start + i) % players][k] += 1
        else:
            for p in range(players):
                for k in range(len(kinds)):
                    counts[p][k] = 1
            spare = [k for _ in range(sets - players) for k in range(len(kinds))]
            for i, k in enumerate(spare):
                counts[(start + i) % players][k] += 1
        hands.append(tuple(tuple(c) for c in counts))
    return hands[0], hands[1], aside


# ============================================================================ building


def _placements(state: State, number: int | None = None, *, any_one: bool = False) -> list[tuple[int, int]]:
    pieces = state.pieces
    return legal_squares(
        state.board,
        mask_table(pieces),
        orientation_table(pieces),
        number if number is not None else state.drawn,
        first=not state.first_laid[state.current],
        centre_down=bool(state.centre),
        occupied=[g.sq_index(x, y) for _, x, y, _ in state.laid],
        stop_at_first=any_one,
    )


def _draw(state: State, ev: _Ev) -> State:
    """The current player draws face-down tiles until one fits; stages end when none does."""
    p = state.current
    pool = list(state.pile)
    centre = state.centre
    while True:
        untried = list(pool)
        while untried:
            t = untried.pop(ev.below(len(untried)))
            probe = evolve(state, centre=centre)
            if _placements(probe, t, any_one=True):
                pool.remove(t)
                ev.add("draw", p, t, f"{P(p)} draws tile {t}")
                return evolve(state, pile=tuple(sorted(pool)), centre=centre, drawn=t)
            ev.add("return", p, t, f"tile {t} fits nowhere and goes back face down")
        if centre:
            pool = sorted(pool + list(centre))
            centre = ()
            ev.add("build_end", None, None, "the centre tiles are taken up and laid elsewhere; the centre stays empty")
            continue
        ev.add("build_end", None, len(pool), f"building ends; {len(pool)} tile(s) unused")
        return _start_chase(evolve(state, pile=(), centre=(), drawn=0, unused=tuple(sorted(pool))), ev)


def _apply_place(state: State, action: Place, ev: _Ev) -> State:
    sq = g.sq_index(action.x, action.y)
    q = action.rot // 90
    p = state.current
    board = list(state.board)
    board[sq] = state.drawn * 4 + q + 1
    first = list(state.first_laid)
    first[p] = True
    state = evolve(
        state,
        board=tuple(board),
        laid=state.laid + ((state.drawn, action.x, action.y, action.rot),),
        first_laid=tuple(first),
        drawn=0,
        current=(p + 1) % state.players,
    )
    return _draw(state, ev)


def _roll_tile(state: State, ev: _Ev, who: int, what: str, ok: set[int]) -> int:
    """Roll tens and ones until the number names a tile in ``ok`` (square codes by number)."""
    by_number = {n: g.sq_index(x, y) for n, x, y, _ in state.laid}
    while True:
        tens, ones = ev.die(), ev.die()
        n = 10 * tens + ones
        sq = by_number.get(n)
        good = sq is not None and sq in ok
        ev.add(
            f"{what}_roll", who, n, f"{P(who)} rolls {tens} and {ones}: tile {n}" + ("" if good else " — rolled again")
        )
        if good:
            assert sq is not None
            return sq


def _start_chase(state: State, ev: _Ev) -> State:
    masks = mask_table(state.pieces)
    links = compute_links(state.board, masks)
    tiles = {g.sq_index(x, y) for _, x, y, _ in state.laid}
    mids = {sq: g.middle(*g.sq_xy(sq)) for sq in tiles}
    pieces = road_pieces(links, mids)
    piece_of = {sq: piece for piece in pieces for sq in piece}
    by_road = state.rules >= SETUP_BY_ROAD
    if by_road:  # the villain stands on the town's largest road-connected piece (any of them, on a tie)
        largest = max(len(piece) for piece in pieces)
        eligible = {sq for piece in pieces if len(piece) == largest for sq in piece}
    else:  # rules 1-2: on any piece of two tiles or more
        eligible = {sq for sq in tiles if len(piece_of[sq]) > 1}
    sp = state.start_player
    villain_sq = _roll_tile(state, ev, sp, "villain", eligible or tiles)
    vx, vy = g.sq_xy(villain_sq)
    ev.add("villain", None, None, f"the villain's red car stands on tile {_tile_no(state, villain_sq)} at {vx},{vy}")
    targets: list[int] = []
    for _ in range(min(state.options.tour, len(tiles) - 2)):
        t = _roll_tile(state, ev, sp, "target", tiles - {villain_sq} - set(targets))
        targets.append(t)
        ev.add("target", None, _tile_no(state, t), f"target tile {_tile_no(state, t)} at {_sqs(t)}")
    state = evolve(state, links=links, villain=mids[villain_sq], targets=tuple(targets))
    reachable = piece_of[villain_sq] - {villain_sq} if by_road else tiles - {villain_sq}
    if state.options.rolled_start and reachable:
        start_sq = _roll_tile(state, ev, sp, "start", set(reachable))
        return _set_start(state, start_sq, ev)
    dist = road_distances(links, mids[villain_sq])
    far = {sq: dist[mids[sq]] for sq in tiles if sq != villain_sq and mids[sq] in dist}
    if not far:
        return _set_start(state, villain_sq, ev)
    best = max(far.values())
    choices = tuple(sorted(sq for sq, d in far.items() if d == best))
    if len(choices) == 1:
        return _set_start(state, choices[0], ev)
    ev.add("start_tile", sp, None, f"{len(choices)} tiles are equally far ({best} fields); {P(sp)} picks the start")
    return evolve(state, phase=START_PHASE, current=sp, start_choices=choices)


def _tile_no(state: State, sq: int) -> int:
    return (state.board[sq] - 1) >> 2


def _set_start(state: State, sq: int, ev: _Ev) -> State:
    ev.add("start_tile", None, _tile_no(state, sq), f"the cars start beside tile {_tile_no(state, sq)} at {_sqs(sq)}")
    return evolve(state, phase=ENTER_PHASE, current=state.start_player, start_sq=sq, start_choices=())


def _start_openings(state: State) -> list[int]:
    mask = square_mask(state.board, mask_table(state.pieces), state.start_sq)
    return [d for d in range(4) if (mask >> d) & 1]


# ============================================================================ the chase


def _occupancy(cars: tuple[Car, ...], exclude: int = -1) -> dict[int, int]:
    occ: dict[int, int] = {}
    for c in cars:
        if c.cell >= 0 and c.player != exclude:
            occ[c.cell] = occ.get(c.cell, 0) + 1
    return occ


def _blocked(state: State) -> frozenset[int]:
    memo = _memo(state)
    rb = memo.get("blocked")
    if not isinstance(rb, frozenset):
        rb = roadblocks(state.detours)
        memo["blocked"] = rb
    return rb


def _memo(state: State) -> dict[str, object]:
    m = state._memo
    if m is None:
        m = {}
        object.__setattr__(state, "_memo", m)
    return m


def _move_options(state: State) -> list[MoveOption]:
    memo = _memo(state)
    opts = memo.get("moves")
    if opts is None:
        p = state.current
        car = state.cars[p]
        others = _occupancy(state.cars, p)
        rammable = frozenset(
            c.cell for c in state.cars if c.player != p and c.cell >= 0 and not c.roof and not c.mantle
        )
        rammable = frozenset(c for c in rammable if others.get(c, 0) == 1)
        entry = car.cell < 0
        start = g.arm(*g.sq_xy(state.start_sq), car.side) - g.DELTA[car.heading] if entry else car.cell
        allow_jump = (not state.kitt_played) and state.kitt_hands[p][3] > 0
        opts = search_moves(
            state.links,
            _blocked(state),
            others,
            rammable,
            start,
            car.heading,
            state.pips - state.used,
            entry=entry,
            allow_jump=allow_jump,
        )
        memo["moves"] = opts
    return opts  # type: ignore[return-value]


def _move_table(state: State) -> dict[Move, MoveOption]:
    """Legal move actions (canonical paths) → their options, in the documented order."""
    memo = _memo(state)
    table = memo.get("move_table")
    if table is None:
        opts = sorted(_move_options(state), key=lambda o: (o.jump, g.field_code(o.cell), o.heading, o.cost))
        table = {_to_move(o): o for o in opts}
        memo["move_table"] = table
    return table  # type: ignore[return-value]


def _to_move(o: MoveOption) -> Move:
    path = tuple((*g.cell_xy(c), h, j) for c, h, j in o.path)
    x, y = g.cell_xy(o.cell)
    return Move(x, y, o.heading, o.cost, o.jump, path)


def _begin_turn(state: State, player: int, ev: _Ev) -> State:
    turn = state.turn + 1
    limit = state.options.turn_limit
    if limit is not None and turn > limit:
        ev.add("limit", None, limit, f"the turn limit ({limit}) is reached: no winner")
        return evolve(state, phase=OVER_PHASE, winner=None)
    cars = list(state.cars)
    car = cars[player]
    if car.mantle:
        car = replace(car, mantle=False)
        ev.add("mantle_end", player, None, f"{P(player)}'s Molekül-Mantel ends")
    cars[player] = car
    state = evolve(
        state,
        phase=TURN_PHASE,
        current=player,
        cars=tuple(cars),
        turn=turn,
        roll=0,
        pips=0,
        used=0,
        moved=False,
        move_done=False,
        kitt_played=False,
        detour_played=False,
    )
    ev.add("turn", player, turn, f"turn {turn}: {P(player)}")
    if car.roof:
        return state
    r = ev.die()
    ev.add("roll", player, r, f"{P(player)} rolls {r}")
    return evolve(state, roll=r, pips=r)


def _next_turn(state: State, ev: _Ev) -> State:
    return _begin_turn(state, (state.current + 1) % state.players, ev)


def _set_car(state: State, car: Car) -> State:
    cars = list(state.cars)
    cars[car.player] = car
    return evolve(state, cars=tuple(cars))


def _skid_car(state: State, player: int, n: int, ev: _Ev) -> State:
    car = state.cars[player]
    cell, heading, done = skid(state.links, _blocked(state), _occupancy(state.cars, player), car.cell, car.heading, n)
    ev.add("skid", player, done, f"{P(player)} skids {done} field(s) back to {_xy(cell)}")
    return _set_car(state, replace(car, cell=cell, heading=heading))


def _reverse(state: State, player: int, ev: _Ev) -> State:
    car = state.cars[player]
    ev.add("spin", player, None, f"{P(player)} now faces {g.DIRS[g.opposite(car.heading)]}")
    return _set_car(state, replace(car, heading=g.opposite(car.heading)))


def _roof(state: State, player: int, ev: _Ev) -> State:
    ev.add("roof", player, None, f"{P(player)} goes off the road onto its roof")
    return _set_car(state, replace(state.cars[player], roof=True))


def _ram(state: State, rammed: int, ev: _Ev, *, by_villain: bool) -> tuple[State, bool]:
    """The rammed player rolls on the ram table. Returns (state, the mover skids)."""
    r = ev.die()
    who = "the villain" if by_villain else P(state.current)
    ev.add("ram", rammed, r, f"{who} rams {P(rammed)}: {P(rammed)} rolls {r}: {RAM_TABLE[r]}")
    if r == 1:
        return _roof(state, rammed, ev), False
    if r == 2:
        return _reverse(_skid_car(state, rammed, 2, ev), rammed, ev), False
    if r == 3:
        return _skid_car(state, rammed, 2, ev), False
    if r == 4:
        return _skid_car(state, rammed, 1, ev), False
    if r == 5:
        return _reverse(state, rammed, ev), False
    if by_villain:
        ev.add("win", rammed, None, f"{P(rammed)} rolls a 6 against the villain's ram and wins")
        return evolve(state, phase=OVER_PHASE, winner=rammed), False
    r2 = ev.die()
    mover_skids = r2 >= 5
    ev.add(
        "ram_fail",
        rammed,
        r2,
        f"{P(rammed)} rolls again: {r2}: "
        + (f"{P(state.current)} skids and stops" if mover_skids else "nothing happens"),
    )
    return state, mover_skids


def _finish_move(state: State, ev: _Ev) -> State:
    """End of the move: win check, then oil."""
    state = evolve(state, move_done=True)
    if not state.moved:
        return state
    p = state.current
    car = state.cars[p]
    if car.cell == state.villain and len(car.reached) == len(state.targets):
        ev.add("win", p, None, f"{P(p)} reaches the villain and wins")
        return evolve(state, phase=OVER_PHASE, winner=p)
    for other in state.cars:
        if other.player == p or other.cell < 0 or other.cell == car.cell:
            continue
        back = g.opposite(other.heading)
        if (state.links[other.cell] >> back) & 1 and other.cell + g.DELTA[back] == car.cell:
            r = ev.die()
            ev.add("oil", p, r, f"{P(p)} ends behind {P(other.player)} on its oil: rolls {r}: {OIL_TABLE[r]}")
            if r == 1:
                state = _roof(state, p, ev)
            elif r == 2:
                state = _skid_car(state, p, 2, ev)
            elif r == 3:
                state = _skid_car(state, p, 1, ev)
            elif r == 4:
                state = _reverse(state, p, ev)
            break
    return state


def _reach_target(state: State, ev: _Ev) -> State:
    car = state.cars[state.current]
    if not state.targets or car.cell < 0:
        return state
    sq = g.sq_index(*g.cell_square(car.cell))
    if sq in state.targets and sq not in car.reached:
        ev.add("reached", car.player, _tile_no(state, sq), f"{P(car.player)} reaches target tile {_tile_no(state, sq)}")
        state = _set_car(state, replace(car, reached=car.reached + (sq,)))
    return state


def _apply_move(state: State, action: Move, opt: MoveOption, ev: _Ev) -> State:
    p = state.current
    car = state.cars[p]
    state = _set_car(state, replace(car, cell=opt.cell, heading=opt.heading, side=-1))
    state = evolve(state, used=state.used + opt.cost, moved=True)
    if opt.jump:
        hands = list(state.kitt_hands)
        h = list(hands[p])
        h[3] -= 1
        hands[p] = tuple(h)
        state = evolve(state, kitt_hands=tuple(hands), kitt_played=True, played=state.played + ((p, "JUMP"),))
    state = _reach_target(state, ev)
    if not opt.ram:
        return _finish_move(state, ev)
    rammed = next(c.player for c in state.cars if c.player != p and c.cell == opt.cell)
    state, stopped = _ram(state, rammed, ev, by_villain=False)
    if state.phase == OVER_PHASE:
        return state
    if stopped:
        state = _reverse(evolve(state, used=state.pips), p, ev)
        return _finish_move(state, ev)
    if not _move_options(state):
        return _finish_move(state, ev)
    return state


def _apply_end(state: State, ev: _Ev) -> State:
    if not state.move_done:
        state = _finish_move(state, ev)
        if state.phase == OVER_PHASE:
            return state
    pieces = state.pieces
    card = pieces.escape[state.escape_deck[state.escape_pos]]
    pos = state.escape_pos + 1
    vx, vy = g.cell_square(state.villain)
    tx, ty = vx + card.dx, vy + card.dy
    ev.add("escape", state.current, card.id, f"escape card {card.id}: the villain flees {card.dx:+d},{card.dy:+d}")
    state = evolve(state, escape_pos=pos)
    if g.in_table(tx, ty) and state.board[g.sq_index(tx, ty)]:
        state = evolve(state, villain=g.middle(tx, ty))
        ev.add(
            "villain_move",
            None,
            _tile_no(state, g.sq_index(tx, ty)),
            f"the villain moves to tile {_tile_no(state, g.sq_index(tx, ty))} at {tx},{ty}",
        )
        n = state.players
        for i in range(n):
            who = (state.current + i) % n
            c = state.cars[who]
            if c.cell == state.villain and not c.roof and not c.mantle:
                state, _ = _ram(state, who, ev, by_villain=True)
                if state.phase == OVER_PHASE:
                    return state
    else:
        ev.add("villain_stays", None, None, f"no tile at {tx},{ty}: the villain stays")
    if pos >= len(state.escape_deck):
        order, ev.rng = ev.rng.shuffle(range(len(pieces.escape)))
        state = evolve(state, escape_deck=order, escape_pos=0)
        ev.add("reshuffle", None, None, "all escape cards are turned: they are shuffled")
    return _next_turn(state, ev)


def _apply_kitt(state: State, action: PlayKitt, ev: _Ev) -> State:
    p = state.current
    k = KITT_KINDS.index(action.kind)
    hands = list(state.kitt_hands)
    h = list(hands[p])
    h[k] -= 1
    hands[p] = tuple(h)
    state = evolve(state, kitt_hands=tuple(hands), kitt_played=True, played=state.played + ((p, action.kind),))
    if action.kind == "MANTLE":
        ev.add("mantle", p, None, f"{P(p)} plays Molekül-Mantel: protected until its next turn")
        return _set_car(state, replace(state.cars[p], mantle=True))
    pips = state.roll * 2 if action.kind == "TURBO1" else 6
    ev.add(
        "turbo",
        p,
        pips,
        f"{P(p)} plays {'Turbo-Boost I' if action.kind == 'TURBO1' else 'Turbo-Boost II'}: {pips} pips",
    )
    return evolve(state, pips=pips)


def _apply_detour(state: State, action: PlayDetour, ev: _Ev) -> State:
    p = state.current
    sq = g.sq_index(action.x, action.y)
    k = DETOUR_KINDS.index(action.kind)
    hands = list(state.detour_hands)
    h = list(hands[p])
    h[k] -= 1
    hands[p] = tuple(h)
    detours = state.detours + ((sq, action.kind, action.rot, p),)
    links = relink_tile(state.links, state.board, mask_table(state.pieces), detours, sq)
    ev.add("detour", p, None, f"{P(p)} lays a detour {action.kind} on tile {_tile_no(state, sq)}")
    return evolve(state, detour_hands=tuple(hands), detours=detours, links=links, detour_played=True)


# ============================================================================ API


def current_player(state: State) -> int | None:
    """The player to act, or ``None`` once the game is over."""
    return None if state.phase == OVER_PHASE else state.current


def is_over(state: State) -> bool:
    return state.phase == OVER_PHASE


def winner(state: State) -> int | None:
    """The winner, or ``None`` (game running, or ended by the turn limit)."""
    return state.winner


def winners(state: State) -> tuple[int, ...]:
    """The winning side(s) once the game is over, else ``()``, as
    :func:`rallye.mille.winners` says it: here every player is a side of their own and at
    most one wins, so ``(winner,)``, or ``()`` while the game runs or when the turn limit
    ended it."""
    return () if state.winner is None else (state.winner,)


def _detour_actions(state: State) -> tuple[PlayDetour, ...]:
    hand = state.detour_hands[state.current]
    if state.detour_played or not any(hand):
        return ()
    return _detour_list(state.pieces, state.board, state.detours, hand)


def _detour_list(
    pieces: Pieces, board: tuple[int, ...], detours: tuple[tuple[int, str, int, int], ...], hand: tuple[int, ...]
) -> tuple[PlayDetour, ...]:
    held = sum(1 << k for k, n in enumerate(hand) if n)
    full = full_tiles(detours)
    if not full:
        return _detours_for_hand(pieces, board, held)
    return _detours_not_on(pieces, board, held, frozenset(map(g.sq_xy, full)))


def full_tiles(detours: tuple[tuple[int, str, int, int], ...]) -> tuple[int, ...]:
    """The square codes of the tiles that carry ``MAX_DETOURS_PER_TILE`` detour cards
    already (no further detour card may be played there), in order of first play."""
    if len(detours) < MAX_DETOURS_PER_TILE:
        return ()
    counts: dict[int, int] = {}
    for sq, *_ in detours:
        counts[sq] = counts.get(sq, 0) + 1
    return tuple(sq for sq, n in counts.items() if n >= MAX_DETOURS_PER_TILE)


# (The same tuple for the same map, hand and full tiles: adapters key their codes of these
# actions by its identity, see detour_plays.)
@lru_cache(maxsize=512)
def _detours_for_hand(pieces: Pieces, board: tuple[int, ...], held: int) -> tuple[PlayDetour, ...]:
    return tuple(a for _, k, a in _all_detours(pieces, board) if (held >> k) & 1)


@lru_cache(maxsize=512)
def _detours_not_on(
    pieces: Pieces, board: tuple[int, ...], held: int, full: frozenset[tuple[int, int]]
) -> tuple[PlayDetour, ...]:
    return tuple(a for a in _detours_for_hand(pieces, board, held) if (a.x, a.y) not in full)


def detour_placements(pieces: Pieces, board: tuple[int, ...]) -> tuple[tuple[int, int, PlayDetour], ...]:
    """Every detour play a map allows whatever the hands and however full its tiles:
    ``(square code, index of the kind in DETOUR_KINDS, action)``, in the order
    ``legal_actions`` lists them; the same tuple, and the same action objects, for the same
    map. A player's legal detour plays are those of the kinds they hold, less the tiles
    that carry ``MAX_DETOURS_PER_TILE`` cards already."""
    return _all_detours(pieces, board)


def detour_plays(state: State) -> tuple[PlayDetour, ...]:
    """The detour cards the player to act may play: the run of ``legal_actions(state)``
    they form, as one tuple that states with the same map, detour hand and full tiles
    share (the same object; an adapter may key what it derives from them by identity)."""
    if state.phase != TURN_PHASE or state.cars[state.current].roof:
        return ()
    return _detour_actions(state)


@lru_cache(maxsize=64)
def _all_detour_set(pieces: Pieces, board: tuple[int, ...]) -> frozenset[PlayDetour]:
    return frozenset(a for _, _, a in _all_detours(pieces, board))


@lru_cache(maxsize=64)
def _all_detours(pieces: Pieces, board: tuple[int, ...]) -> tuple[tuple[int, int, PlayDetour], ...]:
    """Every detour placement the map allows (ignoring hands and full tiles), in order."""
    masks = mask_table(pieces)
    out: list[tuple[int, int, PlayDetour]] = []
    for sq, v in enumerate(board):
        if not v:
            continue
        mask = masks[(v - 1) >> 2][(v - 1) & 3]
        x, y = g.sq_xy(sq)
        for k, kind in enumerate(DETOUR_KINDS):
            for rot in DETOUR_ROTATIONS[kind]:
                if kind == "ROADBLOCK" or detour_sides(kind, rot) & mask:
                    out.append((sq, k, PlayDetour(kind, x, y, rot)))
    return tuple(out)


def _must_move(state: State) -> bool:
    return not state.move_done and any(not o.jump for o in _move_options(state))


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the player to act may take, in the documented fixed order."""
    memo = _memo(state)
    cached = memo.get("legal")
    if cached is not None:
        return cached  # type: ignore[return-value]
    out: list[Action] = []
    if state.phase == BUILD_PHASE:
        out = [Place(*g.sq_xy(sq), 90 * q, state.drawn) for sq, q in _placements(state)]
    elif state.phase == START_PHASE:
        out = [StartAt(*g.sq_xy(sq)) for sq in state.start_choices]
    elif state.phase == ENTER_PHASE:
        out = [Enter(d) for d in _start_openings(state)]
    elif state.phase == TURN_PHASE:
        p = state.current
        if state.cars[p].roof:
            out = [Recover()]
        else:
            if not state.move_done:
                out.extend(_move_table(state))
            hand = state.kitt_hands[p]
            if not state.kitt_played:
                if hand[0]:
                    out.append(PlayKitt("MANTLE"))
                if not state.moved and hand[1]:
                    out.append(PlayKitt("TURBO1"))
                if not state.moved and hand[2] and state.roll == 1 and state.pips == 1:
                    out.append(PlayKitt("TURBO2"))
            out.extend(_detour_actions(state))
            if not _must_move(state):
                out.append(End())
    result = tuple(out)
    memo["legal"] = result
    return result


def _illegal(state: State, action: Action, reason: str, rule: str) -> IllegalAction:
    return IllegalAction(f"illegal '{action}' by {P(state.current)}: {reason}", rule=rule)


def _explain(state: State, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal now, as the error to raise (naming the rule it breaks), or
    ``None`` when it is legal: ``action in legal_actions(state)``, and a move's path, if
    given, the canonical one listed, and a placed tile's number, if given, the drawn one.

    In the chase it checks a move, a card or ``end`` against the conditions
    ``legal_actions`` lists them by, without listing every detour (``apply`` asks this of
    every action)."""
    if state.phase == TURN_PHASE:
        p = state.current
        if not state.cars[p].roof:
            if isinstance(action, Move):
                return _move_problem(state, action)
            if isinstance(action, PlayDetour):
                return _detour_problem(state, action)
            if isinstance(action, End):
                if _must_move(state):
                    left = state.pips - state.used
                    return _illegal(state, action, f"the car must move first ({left} pips to use)", "move-all-pips")
                return None
            if isinstance(action, PlayKitt):
                return _kitt_problem(state, action)
            if isinstance(action, Recover):
                return _illegal(state, action, "the car is not on its roof", "roof")
        elif isinstance(action, Recover):
            return None
    return _set_up_problem(state, action)


def _move_problem(state: State, action: Move) -> IllegalAction | None:
    if state.move_done:
        return _illegal(state, action, "the car has finished its move this turn", "one-move")
    table = _move_table(state)
    if action in table:  # (a move the table lists can jump: the card is there to play)
        if not action.path:
            return None
        listed = next(m for m in table if m == action)
        if action.path == listed.path:
            return None
        same = next(m for m in map(_to_move, _move_options(state)) if m == action)
        return _illegal(state, action, f"the engine drives canonical paths; this one is '{same}'", "canonical-path")
    if action.jump and (state.kitt_played or not state.kitt_hands[state.current][3]):
        return _illegal(
            state,
            action,
            "a jump needs Blockier-Sprung in hand and no other K.I.T.T. card this turn",
            "blockier-sprung",
        )
    left = state.pips - state.used
    ways = sorted({(o.cost, o.jump) for o in _move_options(state)})
    return _illegal(
        state,
        action,
        f"no legal way with {action.cost} pips ends at {action.x},{action.y} facing {g.DIRS[action.heading]}"
        f" ({left} pips left; legal costs {[c for c, _ in ways]})",
        "movement",
    )


def _detour_problem(state: State, action: PlayDetour) -> IllegalAction | None:
    if state.detour_played:
        return _illegal(state, action, "one detour card per turn", "detour-one-per-turn")
    if not state.detour_hands[state.current][DETOUR_KINDS.index(action.kind)]:
        return _illegal(state, action, "the card is not in the hand", "card-in-hand")
    sq = g.sq_index(action.x, action.y) if g.in_table(action.x, action.y) else -1
    if sq < 0 or not state.board[sq]:
        return _illegal(state, action, "a detour lies on a tile of the track", "detour-on-tile")
    if sum(1 for d in state.detours if d[0] == sq) >= MAX_DETOURS_PER_TILE:
        return _illegal(state, action, "at most 3 detour cards on one tile", "detour-max-3")
    if action not in _all_detour_set(state.pieces, state.board):
        return _illegal(
            state, action, "a detour must keep one of the tile's roads (it only closes)", "detour-only-closes"
        )
    return None


def _kitt_problem(state: State, action: PlayKitt) -> IllegalAction | None:
    k = KITT_KINDS.index(action.kind)
    if state.kitt_played:
        return _illegal(state, action, "one K.I.T.T. card per turn", "kitt-one-per-turn")
    if not state.kitt_hands[state.current][k]:
        return _illegal(state, action, "the card is not in the hand", "card-in-hand")
    if action.kind == "MANTLE":
        return None
    if state.moved:
        return _illegal(state, action, "a Turbo-Boost is played before the car moves", "turbo-before-move")
    if action.kind == "TURBO1" or (action.kind == "TURBO2" and state.roll == 1 and state.pips == 1):
        return None
    return _illegal(state, action, "Turbo-Boost II only turns a rolled 1 into a 6", "turbo2-needs-1")


#: What a player must do in each phase before the chase.
_SET_UP_ACTION = {
    BUILD_PHASE: (Place, "lay the drawn tile ('place')"),
    START_PHASE: (StartAt, "pick the start tile ('start at')"),
    ENTER_PHASE: (Enter, "choose an opening ('enter')"),
}


def _set_up_problem(state: State, action: Action) -> IllegalAction | None:
    """:func:`_explain` for the phases before the chase, for their actions in the chase and
    for a car on its roof; these lists are short, so legal is what ``legal_actions`` lists."""
    ph = state.phase
    expected = _SET_UP_ACTION.get(ph)
    if expected is not None and not isinstance(action, expected[0]):
        return _illegal(state, action, f"now the player must {expected[1]}", "phase")
    if isinstance(action, Place):
        if ph != BUILD_PHASE:
            return _illegal(state, action, "tiles are laid only while building the track", "phase")
        if action.number and action.number != state.drawn:
            return _illegal(state, action, f"the drawn tile is {state.drawn}", "draw")
        if action in legal_actions(state):
            return None
        if not g.in_table(action.x, action.y):
            return _illegal(state, action, "the square is off the table", "table")
        why = placement_problem(
            state.board,
            mask_table(state.pieces),
            state.drawn,
            g.sq_index(action.x, action.y),
            action.rot // 90,
            first=not state.first_laid[state.current],
            centre_down=bool(state.centre),
        )
        return _illegal(state, action, why or "that rotation duplicates a listed one", "laying")
    if isinstance(action, StartAt):
        if ph == START_PHASE and action in legal_actions(state):
            return None
        return _illegal(
            state,
            action,
            "the start tile must be one of the farthest: " + ", ".join(_sqs(s) for s in state.start_choices),
            "start-tile",
        )
    if isinstance(action, Enter):
        if ph == ENTER_PHASE and action in legal_actions(state):
            return None
        return _illegal(
            state,
            action,
            "the start tile's openings are " + " ".join(g.DIRS[d] for d in _start_openings(state)),
            "start-opening",
        )
    if ph != TURN_PHASE:
        return _illegal(state, action, "not during the chase", "phase")
    if state.cars[state.current].roof:
        return _illegal(state, action, "a car on its roof only turns back onto its wheels this turn", "roof")
    return _illegal(state, action, "not an action of this game", "unknown")


def apply(state: State, action: Action, *, player: int | None = None) -> State:
    """The state after ``action`` by the player to act (``player``, if given, is checked).

    Pure: ``state`` is unchanged. Illegal input raises :class:`IllegalAction` (or
    :class:`NotYourTurn`, :class:`GameOver`) naming the rule broken.
    """
    if state.phase == OVER_PHASE:
        raise GameOver(f"illegal '{action}': the game is over", rule="game-over")
    if player is not None and player != state.current:
        raise NotYourTurn(f"illegal '{action}' by {P(player)}: it is {P(state.current)}'s turn", rule="turn-order")
    why = _explain(state, action)
    if why is not None:
        raise why
    ev = _Ev(state.rng)
    if isinstance(action, Move):
        new = _apply_move(state, action, _move_table(state)[action], ev)
    elif isinstance(action, Place):
        new = _apply_place(state, action, ev)
    elif isinstance(action, StartAt):
        new = _set_start(state, g.sq_index(action.x, action.y), ev)
    elif isinstance(action, Enter):
        p = state.current
        car = Car(p, -1, g.opposite(action.side), action.side)
        new = evolve(state, cars=state.cars + (car,))
        ev.add("enter", p, None, f"{P(p)} waits at the {g.DIRS[action.side]} opening")
        if len(new.cars) < state.players:
            new = evolve(new, current=(p + 1) % state.players)
        else:  # all wait: from now on cars[p] is player p's car
            cars = tuple(sorted(new.cars, key=lambda c: c.player))
            new = _begin_turn(evolve(new, cars=cars, current=state.start_player), state.start_player, ev)
    elif isinstance(action, PlayKitt):
        new = _apply_kitt(state, action, ev)
    elif isinstance(action, PlayDetour):
        new = _apply_detour(state, action, ev)
    elif isinstance(action, Recover):
        p = state.current
        ev.add("recover", p, None, f"{P(p)} turns its car back onto its wheels")
        new = _next_turn(_set_car(state, replace(state.cars[p], roof=False)), ev)
    else:
        new = _apply_end(state, ev)
    return evolve(new, rng=ev.rng, events=tuple(ev.events))


def decode_action(code: int, state: State | None = None) -> Action:
    """The action with this code: the listed legal action if ``state`` is given, else the code form."""
    base = decode_code(code)
    if state is None:
        return base
    for a in legal_actions(state):
        if a == base:
            return a
    raise IllegalAction(f"illegal '{base}' (code {code}) by {P(state.current)}: not legal now", rule="action-code")


__all__ = [
    "apply",
    "current_player",
    "decode_action",
    "detour_placements",
    "detour_plays",
    "encode_action",
    "full_tiles",
    "is_over",
    "legal_actions",
    "new_game",
    "winner",
    "winners",
]
