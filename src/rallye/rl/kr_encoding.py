"""Knight Rider encodings for learning: a view as float32 planes and scalars, a compact
action space with a legal-action mask, and a separate *oracle* encoding for critics.

**Observation encoding, version** :data:`OBS_VERSION` (``encode_view``). Computed from a
:class:`~rallye.knightrider.view.View` only (plus the game's public rules: the piece set and
the turn limit, from :class:`~rallye.knightrider.state.Options`), so it cannot depend on
anything the player has not seen: ``tests/rl/test_kr_encoding.py`` changes the escape
deck order, the other hands and the Rng and checks the vector is unchanged. One fixed
length, :data:`OBS_SIZE`, for every player count and variant.

The vector is the :data:`PLANES` (``N_PLANES`` × 48 × 48, C order: plane, row, column)
followed by the scalar blocks of :data:`SCALAR_FIELDS`. The plane grid is the whole table:
16 × 16 squares × 3 × 3 cells; cell ``(cx, cy)`` (``rallye.knightrider`` field
coordinates) is row ``cy + 24``, column ``cx + 24``; north is row 0. ``planes(vector)``
gives the ``(N_PLANES, 48, 48)`` view and ``field_slice(name)`` a block's slice.

=================  ==========================================================================
plane              value at a cell
=================  ==========================================================================
built_up           1 on a laid tile's built-up (non-road) cells
road               1 on a laid tile's road cells (the fields)
link_n..link_w     1 if a road leads on from this field to the N / E / S / W (after the top
                   detour cards; across tile edges only where both tiles open)
centre             1 on the 2×2 centre squares (face-down tiles, later the escape pile)
villain            1 on the villain's field
me_n..me_w         1 on my car's field, by its heading (nothing while it waits to enter)
other_n..other_w   number of other cars on the field, by heading (0..2)
other_roof         number of other cars on the field that are on their roof
other_mantle       number of other cars on the field under Molekül-Mantel
obstacle           1 where a field is an obstacle to me: two other cars, or a roadblock
detour_<kind>      1 on a middle field whose top detour card is STRAIGHT / DEADEND /
                   ROADBLOCK / RIGHT / LEFT (its turn shows in the link planes)
detours_on_tile    detour cards on the tile / 3, on all 9 cells of the square
start_tile         1 on the 9 cells of the start tile (once known)
start_choice       1 on the 9 cells of each start tile the start player may pick
target             1 on the 9 cells of each tour target I have not reached yet
flee               probability that the next escape card moves the villain to this tile
                   (from the cards not turned since the last shuffle; a card pointing off
                   the map counts for the villain's own tile, where it stays), on all 9 cells
=================  ==========================================================================

Scalar blocks (seats are *relative to the observer*: slot 0 is me, then the seats after
mine in turn order; slots past the player count are zero):

=============  ====  =========================================================================
block          size  meaning
=============  ====  =========================================================================
players        4     one-hot player count 2..5
phase          5     one-hot build, start, enter, turn, over
to_act         5     one-hot relative seat of the player to act (zeros when over)
start_player   5     one-hot relative seat of the start player
winner         5     one-hot relative seat of the winner (zeros: none yet / turn limit)
turn           3     chase turns begun / 100 (capped at 10); turns left / turn limit (1 if no
                     limit); a turn limit is set
roll           7     one-hot roll 0 (none) .. 6
pips           7     pips / 12; used / 12; left / 12; moved; move done; K.I.T.T. card played;
                     detour card played (this turn)
hand_kitt      4     my K.I.T.T. cards / 5 (MANTLE TURBO1 TURBO2 JUMP)
hand_detour    5     my detour cards / 5 (STRAIGHT DEADEND ROADBLOCK RIGHT LEFT)
hand_sizes     10    per relative seat: K.I.T.T. cards held / 25, detour cards held / 25
played         20    per relative seat: K.I.T.T. cards played of each kind / 5
set_aside      2     spare K.I.T.T. / detour cards put aside / 25
cars           50    per relative seat (10): car present; waiting to enter; on the map; on its
                     roof; under Molekül-Mantel; target tiles reached / 5; waiting side
                     one-hot N E S W
escape         12    per escape card (piece-file order): turned since the last shuffle; cards
                     left / 11
build          44    face-down tiles / 36; centre still face down; drawn tile one-hot (36,
                     tile numbers 11..66 in order); drawn tile's openings N E S W unturned;
                     tiles laid / 36; tiles unused / 36
tour           1     tour targets / 5
=============  ====  =========================================================================

Every value lies in ``[0, 10]`` (the Box bounds the environments declare).

**Action space** (compact; the engine's 139,529 codes would make a 136 KB mask and a
139,529-way policy head). :data:`NUM_ACTIONS` = 15,753 codes that map one-to-one onto the
legal engine actions of every state (``legal_table`` checks it and raises if two legal
actions ever shared a code):

===============  ======  =====================================================================
block            size    code
===============  ======  =====================================================================
end, recover     2       0, 1
kitt             3       2 + MANTLE/TURBO1/TURBO2
enter            4       5 + side N E S W
place            1024    9 + 4·sq + quarter turns (``sq`` = (y + 8)·16 + (x + 8))
start            256     START0 + sq
detour           3840    DETOUR0 + 15·sq + slot; slot = (kind, rotation) in
                         :data:`DETOUR_SLOTS` (only the distinct rotations of each card)
move             10240   MOVE0 + (4·field + heading)·2 + jump: a move that ends its segment
                         normally (field = the engine's field code 0..1279); its cost is
                         implied: the most pips any way can use (with or without the jump)
ram              384     RAM0 + ((4·(k − 1) + heading)·2 + jump)·12 + (cost − 1): a move that
                         stops on the field of the car ``k`` seats after the mover (k = 1..4)
                         to ram it, using ``cost`` pips (1..12)
===============  ======  =====================================================================

Codes 0 … DETOUR0 − 1 are the engine's own codes. A move is a ram stop exactly when it
ends, with pips left over, on a field holding one other car that is neither on its roof nor
under Molekül-Mantel (the engine's rule); every other move ends normally, and all normal
moves with the same jump flag use the same number of pips — so (field, heading, jump)
names a normal move and (rammed seat, heading, jump, cost) a ram stop. Codes are relative to
the acting seat (the ``k`` of a ram), so they are computed from the acting player's view.

**Oracle encoding** (``encode_oracle``; not an observation: it reads the full state and
exists to train critics): ``encode_view`` of that player, then every seat's hand (relative
seats, 5 × 9 counts / 5), the escape cards still to come in pile order (11 rows, one-hot
card, zero rows past the pile's end), and which tiles lie face down in the pile and in the
centre (2 × 36, tile numbers in order). The Rng is not encoded. Size :data:`ORACLE_SIZE`.

>>> from rallye import knightrider as kr
>>> s = kr.new_game(2, seed=5, options=kr.Options(quick_build=True))
>>> x = encode_view(kr.view_for(s, s.current), s.options)
>>> x.shape == (OBS_SIZE,), x.dtype.name
(True, 'float32')
>>> table = legal_table(kr.view_for(s, s.current), kr.legal_actions(s))
>>> sorted(map(str, table.values())) == sorted(map(str, kr.legal_actions(s)))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import attrgetter

import numpy as np

from rallye.core.errors import IllegalAction
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import (
    DETOUR_KINDS,
    DETOUR_ROTATIONS,
    KITT_KINDS,
    PLAYABLE_KITT,
    Action,
    End,
    Enter,
    Move,
    Place,
    PlayDetour,
    PlayKitt,
    Recover,
    StartAt,
    detour_sides,
)
from rallye.knightrider.pieces import TILE_NUMBERS
from rallye.knightrider.state import Options, State
from rallye.knightrider.view import TileView, View, view_for

OBS_VERSION = 1
GRID = g.CELL_SPAN  # 48 cells a side
MAX_SEATS = 5
PHASES = ("build", "start", "enter", "turn", "over")
PLANES: tuple[str, ...] = (
    "built_up", "road", "link_n", "link_e", "link_s", "link_w", "centre", "villain",
    "me_n", "me_e", "me_s", "me_w", "other_n", "other_e", "other_s", "other_w",
    "other_roof", "other_mantle", "obstacle",
    "detour_straight", "detour_deadend", "detour_roadblock", "detour_right", "detour_left",
    "detours_on_tile", "start_tile", "start_choice", "target", "flee",
)  # fmt: skip
N_PLANES = len(PLANES)
PLANE = {name: i for i, name in enumerate(PLANES)}
PLANES_SIZE = N_PLANES * GRID * GRID
CAR_SIZE = 10
SCALAR_FIELDS: tuple[tuple[str, int], ...] = (
    ("players", 4),
    ("phase", len(PHASES)),
    ("to_act", MAX_SEATS),
    ("start_player", MAX_SEATS),
    ("winner", MAX_SEATS),
    ("turn", 3),
    ("roll", 7),
    ("pips", 7),
    ("hand_kitt", len(KITT_KINDS)),
    ("hand_detour", len(DETOUR_KINDS)),
    ("hand_sizes", 2 * MAX_SEATS),
    ("played", len(KITT_KINDS) * MAX_SEATS),
    ("set_aside", 2),
    ("cars", CAR_SIZE * MAX_SEATS),
    ("escape", 12),
    ("build", 4 + len(TILE_NUMBERS) + 4),
    ("tour", 1),
)
OBS_FIELDS: tuple[tuple[str, int], ...] = (("planes", PLANES_SIZE), *SCALAR_FIELDS)
SCALARS_SIZE = sum(n for _, n in SCALAR_FIELDS)
OBS_SIZE = PLANES_SIZE + SCALARS_SIZE
OBS_LOW, OBS_HIGH = 0.0, 10.0
ORACLE_SIZE = OBS_SIZE + MAX_SEATS * (len(KITT_KINDS) + len(DETOUR_KINDS)) + 11 * 11 + 2 * len(TILE_NUMBERS)

_TILE_KEY = attrgetter("x", "y", "openings")
_SQ_PLANES = slice(PLANE["start_tile"], PLANE["flee"] + 1)
_TILE_AT = {n: i for i, n in enumerate(TILE_NUMBERS)}


def field_slice(name: str) -> slice:
    """The slice of block ``name`` (see :data:`OBS_FIELDS`) in an observation vector."""
    start = 0
    for n, size in OBS_FIELDS:
        if n == name:
            return slice(start, start + size)
        start += size
    raise KeyError(f"no observation block {name!r}; blocks are {', '.join(n for n, _ in OBS_FIELDS)}")


def planes(vector: np.ndarray) -> np.ndarray:
    """The ``(N_PLANES, 48, 48)`` plane view of an observation vector (no copy)."""
    if vector.shape[-1] not in (OBS_SIZE, ORACLE_SIZE):
        raise ValueError(f"an observation has {OBS_SIZE} values, not {vector.shape[-1]}")
    return vector[..., :PLANES_SIZE].reshape(*vector.shape[:-1], N_PLANES, GRID, GRID)


def describe(vector: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation vector into its named blocks (planes as a named dict too)."""
    if vector.shape[-1] != OBS_SIZE:
        raise ValueError(f"an observation has {OBS_SIZE} values, not {vector.shape[-1]}")
    out = {name: vector[..., field_slice(name)] for name, _ in SCALAR_FIELDS}
    p = planes(vector)
    for i, name in enumerate(PLANES):
        out[name] = p[..., i, :, :]
    return out


# ----------------------------------------------------------------------------- the map


def _rc(cx: int, cy: int) -> tuple[int, int]:
    return cy - g.CELL_MIN, cx - g.CELL_MIN


def view_links(tiles: Iterable[TileView], detours: Iterable[tuple[int, int, str, int]]) -> np.ndarray:
    """Per-cell road links (bits 0–3 N E S W, bit 4 "is a field") from public data only:
    the laid tiles' openings and the detour cards ``(x, y, kind, rot)`` in play order.
    The same table as the engine's ``State.links`` (a test checks it)."""
    return _links(tuple((t.x, t.y, t.openings) for t in tiles), tuple(detours))


def _links(tiles: tuple[tuple[int, int, int], ...], detours: tuple[tuple[int, int, str, int], ...]) -> np.ndarray:
    links = np.zeros((GRID, GRID), dtype=np.uint8)
    open_at = {(x, y): op for x, y, op in tiles}
    top: dict[tuple[int, int], tuple[str, int]] = {}
    for x, y, kind, rot in detours:
        top[(x, y)] = (kind, rot)
    for tx, ty, mask in tiles:
        eff = mask
        if (tx, ty) in top:
            kind, rot = top[(tx, ty)]
            eff = mask & detour_sides(kind, rot)
        links[_rc(3 * tx + 1, 3 * ty + 1)] = eff | 0x10
        for d in range(4):
            if not (mask >> d) & 1:
                continue
            lx, ly = g.LOCAL_POS[d + 1]
            lk = (1 << g.opposite(d)) if (eff >> d) & 1 else 0
            dx, dy = g.DXY[d]
            if (open_at.get((tx + dx, ty + dy), 0) >> g.opposite(d)) & 1:
                lk |= 1 << d
            links[_rc(3 * tx + lx, 3 * ty + ly)] = lk | 0x10
    return links


def _square_rows(x: int, y: int) -> tuple[slice, slice]:
    r, c = _rc(3 * x, 3 * y)
    return slice(r, r + 3), slice(c, c + 3)


_SHIFTS = np.arange(4, dtype=np.uint8)[:, None, None]


@lru_cache(maxsize=64)
def _tile_layer(tiles: tuple[tuple[int, int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    """The planes of the tiles alone (built_up, road, links without detours, centre) and
    the links table without detours; both read-only."""
    p = np.zeros((N_PLANES, GRID, GRID), dtype=np.float32)
    links = _links(tiles, ())
    road = (links & 0x10) > 0
    for x, y, _ in tiles:
        p[PLANE["built_up"]][_square_rows(x, y)] = 1.0
    p[PLANE["built_up"]][road] = 0.0
    p[PLANE["road"]][road] = 1.0
    p[PLANE["link_n"] : PLANE["link_w"] + 1] = (links[None] >> _SHIFTS) & 1
    for x, y in g.CENTRE:
        p[PLANE["centre"]][_square_rows(x, y)] = 1.0
    p.flags.writeable = False
    links.flags.writeable = False
    return p, links


@lru_cache(maxsize=256)
def _static_planes(
    tiles: tuple[tuple[int, int, int], ...], detours: tuple[tuple[int, int, str, int], ...]
) -> np.ndarray:
    """The planes that depend on the map alone (tiles ``(x, y, openings)`` and detours);
    every other plane is zero here. Read-only."""
    base, base_links = _tile_layer(tiles)
    if not detours:
        return base
    p = base.copy()
    links = base_links.copy()
    opening = {(x, y): op for x, y, op in tiles}
    top: dict[tuple[int, int], tuple[str, int]] = {}
    count: dict[tuple[int, int], int] = {}
    for x, y, kind, rot in detours:
        top[(x, y)] = (kind, rot)
        count[(x, y)] = count.get((x, y), 0) + 1
    for (x, y), (kind, rot) in top.items():
        # a detour changes its tile's middle field and the arms' way in (see view_links)
        mask = opening.get((x, y), 0)
        eff = mask & detour_sides(kind, rot)
        mid = _rc(3 * x + 1, 3 * y + 1)
        links[mid] = eff | 0x10
        for d in range(4):
            if (mask >> d) & 1 and not (eff >> d) & 1:
                lx, ly = g.LOCAL_POS[d + 1]
                links[_rc(3 * x + lx, 3 * y + ly)] &= ~(1 << g.opposite(d)) & 0xFF
        p[PLANE["detour_" + kind.lower()]][mid] = 1.0
        if kind == "ROADBLOCK":
            p[PLANE["obstacle"]][mid] = 1.0
    p[PLANE["link_n"] : PLANE["link_w"] + 1] = (links[None] >> _SHIFTS) & 1
    for (x, y), n in count.items():
        p[PLANE["detours_on_tile"]][_square_rows(x, y)] = n / 3.0
    p.flags.writeable = False
    return p


# ----------------------------------------------------------------------------- the view


def _one_hot(n: int, k: int | None) -> list[float]:
    out = [0.0] * n
    if k is not None and 0 <= k < n:
        out[k] = 1.0
    return out


def encode_view(view: View, options: Options | None = None) -> np.ndarray:
    """The observation vector (float32, :data:`OBS_SIZE`) of a player's view.

    ``options`` (default: the basic game) gives the public rules the view does not repeat:
    the piece set (escape cards not yet turned, the drawn tile's openings) and the turn
    limit.
    """
    out = np.empty(OBS_SIZE, dtype=np.float32)
    return encode_view_into(view, out, options)


def encode_view_into(view: View, out: np.ndarray, options: Options | None = None) -> np.ndarray:
    """``encode_view`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
    opts = options if options is not None else Options()
    pieces = opts.pieces()
    n = view.players
    me = view.me

    def rel(seat: int | None) -> int | None:
        return None if seat is None else (seat - me) % n

    detours = tuple((d.x, d.y, d.kind, d.rot) for d in view.detours)
    static = _static_planes(tuple(map(_TILE_KEY, view.tiles)), detours)
    p = out[:PLANES_SIZE].reshape(N_PLANES, GRID, GRID)
    p[:] = static
    if view.villain is not None:
        p[PLANE["villain"]][_rc(*view.villain)] = 1.0
    others: dict[tuple[int, int], int] = {}
    for c in view.cars:
        if c.field is None:
            continue
        rc = _rc(*c.field)
        if c.player == me:
            p[PLANE["me_" + "nesw"[c.heading]]][rc] = 1.0
            continue
        p[PLANE["other_" + "nesw"[c.heading]]][rc] += 1.0
        if c.roof:
            p[PLANE["other_roof"]][rc] += 1.0
        if c.mantle:
            p[PLANE["other_mantle"]][rc] += 1.0
        others[rc] = others.get(rc, 0) + 1
    for rc, k in others.items():
        if k >= 2:
            p[PLANE["obstacle"]][rc] = 1.0
    # square-level planes (start_tile, start_choice, target, flee): 16 × 16, then × 3 × 3
    sq = np.zeros((4, g.SQ_SPAN, g.SQ_SPAN), dtype=np.float32)
    used = False
    if view.start_tile is not None:
        sq[0, view.start_tile[1] - g.SQ_MIN, view.start_tile[0] - g.SQ_MIN] = 1.0
        used = True
    for x, y in view.start_choices:
        sq[1, y - g.SQ_MIN, x - g.SQ_MIN] = 1.0
        used = True
    mine = next((c for c in view.cars if c.player == me), None)
    reached = set(mine.reached) if mine is not None else set()
    for x, y in view.targets:
        if (x, y) not in reached:
            sq[2, y - g.SQ_MIN, x - g.SQ_MIN] = 1.0
            used = True
    if view.villain is not None and not view.over:
        turned = {e.id for e in view.escape_turned}
        left = [c for c in pieces.escape if c.id not in turned]
        if left:
            laid = {(t.x, t.y) for t in view.tiles}
            vx, vy = view.villain[0] // 3, view.villain[1] // 3
            share = 1.0 / len(left)
            flee: dict[tuple[int, int], float] = {}
            for card in left:
                tx, ty = vx + card.dx, vy + card.dy
                if (tx, ty) not in laid:
                    tx, ty = vx, vy
                flee[(tx, ty)] = flee.get((tx, ty), 0.0) + share
            for (x, y), v in flee.items():
                sq[3, y - g.SQ_MIN, x - g.SQ_MIN] = v
            used = True
    if used:  # each square value on its 3 × 3 cells, by broadcasting
        p[_SQ_PLANES].reshape(4, g.SQ_SPAN, 3, g.SQ_SPAN, 3)[:] = sq[:, :, None, :, None]

    # ---- scalars
    s: list[float] = []
    s += _one_hot(4, n - 2)
    s += _one_hot(len(PHASES), PHASES.index(view.phase))
    s += _one_hot(MAX_SEATS, rel(view.current))
    s += _one_hot(MAX_SEATS, rel(view.start_player))
    s += _one_hot(MAX_SEATS, rel(view.winner))
    limit = opts.turn_limit
    s += [
        min(view.turn / 100.0, 10.0),
        1.0 if limit is None else max(limit - view.turn, 0) / limit,
        float(limit is not None),
    ]
    s += _one_hot(7, view.roll)
    s += [
        view.pips / 12.0,
        view.used / 12.0,
        (view.pips - view.used) / 12.0,
        float(view.moved),
        float(view.move_done),
        float(view.kitt_played),
        float(view.detour_played),
    ]
    s += [k / 5.0 for k in view.hand_kitt]
    s += [k / 5.0 for k in view.hand_detour]
    sizes = [0.0] * (2 * MAX_SEATS)
    played = [0.0] * (len(KITT_KINDS) * MAX_SEATS)
    for seat, (a, b) in enumerate(view.hand_sizes):
        k = (seat - me) % n
        sizes[2 * k], sizes[2 * k + 1] = a / 25.0, b / 25.0
    for seat, kind in view.played:
        played[len(KITT_KINDS) * ((seat - me) % n) + KITT_KINDS.index(kind)] += 0.2
    s += sizes
    s += played
    s += [view.set_aside[0] / 25.0, view.set_aside[1] / 25.0]
    cars = [0.0] * (CAR_SIZE * MAX_SEATS)
    for c in view.cars:
        b = CAR_SIZE * ((c.player - me) % n)
        cars[b] = 1.0
        cars[b + 1] = float(c.field is None)
        cars[b + 2] = float(c.field is not None)
        cars[b + 3] = float(c.roof)
        cars[b + 4] = float(c.mantle)
        cars[b + 5] = len(c.reached) / 5.0
        if c.field is None and 0 <= c.side < 4:
            cars[b + 6 + c.side] = 1.0
    s += cars
    turned_ids = {e.id for e in view.escape_turned}
    s += [float(c.id in turned_ids) for c in pieces.escape]
    s += [0.0] * (11 - len(pieces.escape))
    s.append(view.escape_left / 11.0)
    s += [view.face_down / 36.0, float(view.centre_face_down)]
    s += _one_hot(len(TILE_NUMBERS), _TILE_AT.get(view.drawn))
    if view.drawn:
        op = pieces.tile(view.drawn).openings
        s += [float((op >> d) & 1) for d in range(4)]
    else:
        s += [0.0] * 4
    s += [len(view.tiles) / 36.0, len(view.unused) / 36.0]
    s.append(len(view.targets) / 5.0)
    out[PLANES_SIZE:] = s
    return out


# ----------------------------------------------------------------------------- actions

DETOUR_SLOTS: tuple[tuple[str, int], ...] = tuple((k, r) for k in DETOUR_KINDS for r in DETOUR_ROTATIONS[k])
_DETOUR_SLOT = {ks: i for i, ks in enumerate(DETOUR_SLOTS)}
END_CODE, RECOVER_CODE, KITT0, ENTER0, PLACE0 = 0, 1, 2, 5, 9
START0 = PLACE0 + 4 * g.N_SQUARES
DETOUR0 = START0 + g.N_SQUARES
MOVE0 = DETOUR0 + len(DETOUR_SLOTS) * g.N_SQUARES
RAM_COSTS = 12
RAM0 = MOVE0 + g.N_FIELDS * 4 * 2
NUM_ACTIONS = RAM0 + (MAX_SEATS - 1) * 4 * 2 * RAM_COSTS


def _rammable(view: View) -> dict[tuple[int, int], int]:
    """Fields (cell x, y) the acting car would ram: one other car there, not on its roof
    and not under Molekül-Mantel → that car's seat."""
    count: dict[tuple[int, int], int] = {}
    seat: dict[tuple[int, int], int] = {}
    for c in view.cars:
        if c.field is None or c.player == view.me:
            continue
        count[c.field] = count.get(c.field, 0) + 1
        if not c.roof and not c.mantle:
            seat[c.field] = c.player
    return {f: p for f, p in seat.items() if count[f] == 1}


class ActionContext:
    """What action codes depend on, taken from the acting player's view once."""

    __slots__ = ("left", "me", "players", "rammable")

    def __init__(self, view: View) -> None:
        self.me = view.me
        self.players = view.players
        self.left = view.pips - view.used
        self.rammable = _rammable(view)


_MOVE_BASE: dict[tuple[int, int], int] = {}  # field (cell x, y) -> MOVE0 + 8 * field code


def _move_base(x: int, y: int) -> int:
    base = _MOVE_BASE.get((x, y))
    if base is None:
        base = _MOVE_BASE[(x, y)] = MOVE0 + 8 * g.field_code(g.cell(x, y))
    return base


def action_code(action: Action, ctx: ActionContext | View) -> int:
    """The compact code of a legal action, seen by the player to act (``ctx`` from their view)."""
    if isinstance(ctx, View):
        ctx = ActionContext(ctx)
    if type(action) is Move:
        return _move_code(action, ctx)
    return _other_code(action, ctx)


def _move_code(action: Move, ctx: ActionContext) -> int:
    xy = (action.x, action.y)
    seat = ctx.rammable.get(xy)
    j = 1 if action.jump else 0
    if seat is not None and action.cost < ctx.left:
        k = (seat - ctx.me) % ctx.players
        if not 1 <= action.cost <= RAM_COSTS:
            raise ValueError(f"{action}: a ram stop costs 1..{RAM_COSTS} pips")
        return RAM0 + ((4 * (k - 1) + action.heading) * 2 + j) * RAM_COSTS + action.cost - 1
    base = _MOVE_BASE.get(xy)
    if base is None:
        base = _move_base(action.x, action.y)
    return base + 2 * action.heading + j


def _other_code(action: Action, ctx: ActionContext) -> int:
    if isinstance(action, Move):
        return _move_code(action, ctx)
    if isinstance(action, End):
        return END_CODE
    if isinstance(action, Recover):
        return RECOVER_CODE
    if isinstance(action, PlayKitt):
        return KITT0 + PLAYABLE_KITT.index(action.kind)
    if isinstance(action, Enter):
        return ENTER0 + action.side
    if isinstance(action, Place):
        return PLACE0 + 4 * g.sq_index(action.x, action.y) + action.rot // 90
    if isinstance(action, StartAt):
        return START0 + g.sq_index(action.x, action.y)
    if isinstance(action, PlayDetour):
        return DETOUR0 + len(DETOUR_SLOTS) * g.sq_index(action.x, action.y) + _DETOUR_SLOT[(action.kind, action.rot)]
    raise TypeError(f"not a Knight Rider action: {action!r}")


def legal_table(view: View | ActionContext, legal: Sequence[Action]) -> dict[int, Action]:
    """Compact code → legal engine action, for the player to act (``view`` is theirs).

    Raises ``RuntimeError`` if two legal actions share a code (the encoding's promise that
    the map is one-to-one would be broken).
    """
    ctx = view if isinstance(view, ActionContext) else ActionContext(view)
    table: dict[int, Action] = {}
    for a in legal:
        code = _move_code(a, ctx) if type(a) is Move else _other_code(a, ctx)
        if code in table:
            raise RuntimeError(f"action code {code} names both '{table[code]}' and '{a}'")
        table[code] = a
    return table


def mask_from_table(table: dict[int, Action]) -> np.ndarray:
    """The ``int8`` mask (:data:`NUM_ACTIONS`) with 1 at each code of the table."""
    m = bytearray(NUM_ACTIONS)
    for code in table:
        m[code] = 1
    return np.frombuffer(m, dtype=np.int8)  # writable: it owns the bytearray


def action_mask(view: View, legal: Sequence[Action]) -> np.ndarray:
    """The legal-action mask of the acting player's view and the engine's legal actions."""
    return mask_from_table(legal_table(view, legal))


def decode(code: int, table: dict[int, Action]) -> Action:
    """The legal action with this code (``table`` from :func:`legal_table`)."""
    try:
        return table[int(code)]
    except KeyError:
        raise IllegalAction(
            f"action code {code} ({describe_code(int(code))}) is not legal now", rule="action-code"
        ) from None


def describe_code(code: int) -> str:
    """A code in words (no state needed: move costs and rammed fields stay symbolic)."""
    if not 0 <= code < NUM_ACTIONS:
        return f"outside 0..{NUM_ACTIONS - 1}"
    if code == END_CODE:
        return "end"
    if code == RECOVER_CODE:
        return "recover"
    if code < ENTER0:
        return f"kitt {PLAYABLE_KITT[code - KITT0]}"
    if code < PLACE0:
        return f"enter {g.DIRS[code - ENTER0]}"
    if code < START0:
        sq, q = divmod(code - PLACE0, 4)
        x, y = g.sq_xy(sq)
        return f"place at {x},{y} rot {90 * q}"
    if code < DETOUR0:
        x, y = g.sq_xy(code - START0)
        return f"start at {x},{y}"
    if code < MOVE0:
        sq, slot = divmod(code - DETOUR0, len(DETOUR_SLOTS))
        x, y = g.sq_xy(sq)
        kind, rot = DETOUR_SLOTS[slot]
        return f"detour {kind} at {x},{y} rot {rot}"
    if code < RAM0:
        rest, j = divmod(code - MOVE0, 2)
        fc, h = divmod(rest, 4)
        cx, cy = g.cell_xy(g.field_from_code(fc))
        return f"move to {cx},{cy}{g.DIRS[h]} (all pips){' jump' if j else ''}"
    rest, c = divmod(code - RAM0, RAM_COSTS)
    rest, j = divmod(rest, 2)
    k, h = divmod(rest, 4)
    return f"ram the car {k + 1} seat(s) on, facing {g.DIRS[h]}, ={c + 1}{' jump' if j else ''}"


# ----------------------------------------------------------------------------- oracle


def encode_oracle(state: State, player: int) -> np.ndarray:
    """The *oracle* vector (float32, :data:`ORACLE_SIZE`): the full state seen from ``player``.

    Reads every hand, the escape pile's order and the face-down tiles: for training
    critics only, never as an observation for a policy that plays.
    """
    out = np.zeros(ORACLE_SIZE, dtype=np.float32)
    encode_view_into(view_for(state, player), out[:OBS_SIZE], state.options)
    n = state.players
    hands: list[float] = []
    for k in range(MAX_SEATS):
        if k < n:
            q = (player + k) % n
            hands += [c / 5.0 for c in state.kitt_hands[q]] + [c / 5.0 for c in state.detour_hands[q]]
        else:
            hands += [0.0] * (len(KITT_KINDS) + len(DETOUR_KINDS))
    at = OBS_SIZE
    out[at : at + len(hands)] = hands
    at += len(hands)
    order = np.zeros((11, 11), dtype=np.float32)
    for row, idx in enumerate(state.escape_deck[state.escape_pos :]):
        if row < 11 and idx < 11:
            order[row, idx] = 1.0
    out[at : at + 121] = order.ravel()
    at += 121
    for group in (state.pile, state.centre):
        for t in group:
            out[at + _TILE_AT[t]] = 1.0
        at += len(TILE_NUMBERS)
    return out
