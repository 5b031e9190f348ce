"""Knight Rider encodings for learning: a view as float32 planes and scalars, a compact
action space with a legal-action mask, and a separate *oracle* encoding for critics.

**Observation encoding, version** :data:`OBS_VERSION` (``encode_view``). Computed from a
:class:`~rallye.knightrider.view.View` only (plus the game's public rules: the piece set and
the turn limit, from :class:`~rallye.knightrider.state.Options`), so it cannot depend on
anything the player has not seen: ``tests/rl/knightrider/test_encoding.py`` changes the escape
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
under Molekül-Mantel (the engine's rule: it arrives there while pips remain) — unless it
is a turn of 1 or 2 pips where the mover stands, beside that car (rules 2: a move may be a
turn alone; a way back to the mover's own field costs 4 pips at least, so no ram stop there
costs 2 or less); every other move ends normally, and all normal moves with the same jump
flag use the same number of pips — so (field, heading, jump) names a normal move and
(rammed seat, heading, jump, cost) a ram stop. (Rules 2 added moves that end with a turn,
which take the codes their field and heading name; no code changed meaning.) Codes are relative to
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

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any

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
from rallye.knightrider.engine import detour_placements, detour_plays, full_tiles, legal_actions
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
    return block_slice(OBS_FIELDS, name)


def block_slice(fields: tuple[tuple[str, int], ...], name: str) -> slice:
    """The slice of block ``name`` in a vector laid out as ``fields`` ((name, size), ...)."""
    start = 0
    for n, size in fields:
        if n == name:
            return slice(start, start + size)
        start += size
    raise KeyError(f"no observation block {name!r}; blocks are {', '.join(n for n, _ in fields)}")


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


_CELLS = GRID * GRID
_VILLAIN_AT = PLANE["villain"] * _CELLS
_ME_AT = tuple(PLANE["me_" + d] * _CELLS for d in "nesw")
_OTHER_AT = tuple(PLANE["other_" + d] * _CELLS for d in "nesw")
_ROOF_AT = PLANE["other_roof"] * _CELLS
_MANTLE_AT = PLANE["other_mantle"] * _CELLS
_OBSTACLE_AT = PLANE["obstacle"] * _CELLS
_SQ_PLANE_AT = tuple((PLANE[name]) * _CELLS for name in ("start_tile", "start_choice", "target", "flee"))
#: per square index (``g.sq_index``): the flat offsets of its 3 × 3 cells within a plane
_SQ_CELLS = np.array(
    [
        [(3 * (sy - g.SQ_MIN) + j) * GRID + 3 * (sx - g.SQ_MIN) + i for j in range(3) for i in range(3)]
        for sy in range(g.SQ_MIN, g.SQ_MIN + g.SQ_SPAN)
        for sx in range(g.SQ_MIN, g.SQ_MIN + g.SQ_SPAN)
    ],
    dtype=np.intp,
)


def _cell_at(xy: tuple[int, int]) -> int:
    """The flat offset of cell ``(cx, cy)`` within a plane."""
    return (xy[1] - g.CELL_MIN) * GRID + xy[0] - g.CELL_MIN


_LINK_AT = PLANE["link_n"] * _CELLS
_DETOUR_KIND_AT = {k: PLANE["detour_" + k.lower()] * _CELLS for k in DETOUR_KINDS}
_ON_TILE_AT = PLANE["detours_on_tile"] * _CELLS
_SQ_CELL_LISTS = tuple(tuple(int(i) for i in row) for row in _SQ_CELLS)


class _MapLayer:
    """What a view's map adds to the planes, looked up by the identity of its ``tiles``
    and ``detours`` tuples (``view_for`` shares them while the map and the detours stay the
    same): the tile layer (``_tile_layer``, flat) and the cells the detours change, as
    (flat indices, values). The same planes as ``_static_planes`` (the reference; a test
    checks it), without copying the whole stack for every new detour: a detour only
    changes its own tile's cells, so each detoured tile's cells are cached by (map, tile,
    top card, cards on it)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.layers: dict[int, tuple[Any, tuple[np.ndarray, np.ndarray], np.ndarray, dict[tuple[int, int], int]]] = {}
        self.edits: dict[tuple[int, int], tuple[Any, Any, tuple[np.ndarray, np.ndarray] | None]] = {}
        self.tile_edits: dict[tuple[Any, ...], tuple[list[int], list[float]]] = {}

    def tiles(
        self, tiles: tuple[TileView, ...]
    ) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray, dict[tuple[int, int], int]]:
        """((flat indices, values) of the tile layer's non-zero cells, the links table
        without detours, each tile's openings)."""
        hit = self.layers.get(id(tiles))
        if hit is not None and hit[0] is tiles:
            return hit[1], hit[2], hit[3]
        planes, links = _tile_layer(tuple(map(_TILE_KEY, tiles)))
        flat = planes.reshape(-1)
        index = np.flatnonzero(flat != 0.0)  # (over a float array nonzero takes a path ~10x slower)
        value = ((index, flat[index]), links, {(t.x, t.y): t.openings for t in tiles})
        if len(self.layers) >= self.size:
            self.layers.clear()
        self.layers[id(tiles)] = (tiles, *value)
        return value

    def detours(self, view: View) -> tuple[np.ndarray, np.ndarray] | None:
        tiles, detours = view.tiles, view.detours
        key = (id(tiles), id(detours))
        hit = self.edits.get(key)
        if hit is not None and hit[0] is tiles and hit[1] is detours:
            return hit[2]
        value = None
        if detours:
            _, links, opening = self.tiles(tiles)
            top: dict[tuple[int, int], tuple[str, int]] = {}
            count: dict[tuple[int, int], int] = {}
            for d in detours:
                top[(d.x, d.y)] = (d.kind, d.rot)
                count[(d.x, d.y)] = count.get((d.x, d.y), 0) + 1
            index: list[int] = []
            values: list[float] = []
            for (x, y), (kind, rot) in top.items():
                i, v = self._tile(links, opening.get((x, y), 0), x, y, kind, rot, count[(x, y)])
                index += i
                values += v
            value = (np.array(index, dtype=np.intp), np.array(values, dtype=np.float32))
        if len(self.edits) >= 64:
            self.edits.clear()
        self.edits[key] = (tiles, detours, value)
        return value

    def _tile(
        self, links: np.ndarray, mask: int, x: int, y: int, kind: str, rot: int, n: int
    ) -> tuple[list[int], list[float]]:
        """The cells of one detoured tile: as ``_static_planes`` sets them."""
        key = (id(links), mask, x, y, kind, rot, n)
        hit = self.tile_edits.get(key)
        if hit is not None:
            return hit
        eff = mask & detour_sides(kind, rot)
        mid = _cell_at((3 * x + 1, 3 * y + 1))
        index: list[int] = []
        values: list[float] = []
        cells = [(mid, eff)]
        for d in range(4):
            if (mask >> d) & 1 and not (eff >> d) & 1:
                lx, ly = g.LOCAL_POS[d + 1]
                at = _cell_at((3 * x + lx, 3 * y + ly))
                cells.append((at, int(links.reshape(-1)[at]) & ~(1 << g.opposite(d)) & 0xFF))
        for at, bits in cells:
            for d in range(4):
                index.append(_LINK_AT + d * _CELLS + at)
                values.append(float((bits >> d) & 1))
        index.append(_DETOUR_KIND_AT[kind] + mid)
        values.append(1.0)
        if kind == "ROADBLOCK":
            index.append(_OBSTACLE_AT + mid)
            values.append(1.0)
        on_tile = float(np.float32(n / 3.0))
        for at in _SQ_CELL_LISTS[g.sq_index(x, y)]:
            index.append(_ON_TILE_AT + at)
            values.append(on_tile)
        if len(self.tile_edits) >= 512:
            self.tile_edits.clear()
        value = self.tile_edits[key] = (index, values)
        # (the key holds id(links): links stays alive in _tile_layer's cache and in
        # self.layers; a map dropped from both may leave stale keys, which only cost memory
        # until the next clear and cannot match a new map's links object while the old
        # one lives)
        return value


_map = _MapLayer()
_FLEE: dict[tuple[int, int], tuple[Any, Any, list[tuple[int, int, float]]]] = {}
_FLEE_TO: dict[tuple[int, int, int, int], tuple[Any, Any, list[tuple[int, float]]]] = {}


def _flee(view: View, escape: tuple[Any, ...]) -> list[tuple[int, float]]:
    """(square index, probability) of each tile the villain may flee to next (see the
    ``flee`` plane). The cards not turned since the last shuffle, as (dx, dy, share), are
    cached by the turned cards and the piece set; the squares they point to (a card
    pointing off the map counts for the villain's own tile) are cached by those cards, the
    map and the villain's tile, which stay the same for the decisions of one turn."""
    villain, turned_views = view.villain, view.escape_turned
    assert villain is not None  # the caller checks
    key = (id(turned_views), id(escape))
    hit = _FLEE.get(key)
    if hit is not None and hit[0] is turned_views and hit[1] is escape:
        moves = hit[2]
    else:
        turned = {e.id for e in turned_views}
        left = [c for c in escape if c.id not in turned]
        moves = [(c.dx, c.dy, 1.0 / len(left)) for c in left]
        if len(_FLEE) >= 256:
            _FLEE.clear()
        _FLEE[key] = (turned_views, escape, moves)
    if not moves:
        return []
    laid = _map.tiles(view.tiles)[2]  # (its keys: the squares with a tile)
    vx, vy = villain[0] // 3, villain[1] // 3
    where = (id(moves), id(laid), vx, vy)  # (the same for the decisions of one turn)
    done = _FLEE_TO.get(where)
    if done is not None and done[0] is moves and done[1] is laid:
        return done[2]
    flee: dict[tuple[int, int], float] = {}
    for dx, dy, share in moves:
        tx, ty = vx + dx, vy + dy
        if (tx, ty) not in laid:
            tx, ty = vx, vy
        flee[(tx, ty)] = flee.get((tx, ty), 0.0) + share
    out = [(g.sq_index(x, y), v) for (x, y), v in flee.items()]
    if len(_FLEE_TO) >= 256:
        _FLEE_TO.clear()
    _FLEE_TO[where] = (moves, laid, out)
    return out


_AT = {}  # (offsets within the scalar part, which follows the planes)
_offset = 0
for _name, _size in SCALAR_FIELDS:
    _AT[_name] = _offset
    _offset += _size
_PLAYERS_AT, _PHASE_AT, _TO_ACT_AT, _START_AT, _WINNER_AT = (
    _AT[k] for k in ("players", "phase", "to_act", "start_player", "winner")
)
_TURN_AT, _ROLL_AT, _PIPS_AT, _KITT_AT, _DETOUR_AT = (
    _AT[k] for k in ("turn", "roll", "pips", "hand_kitt", "hand_detour")
)
_SIZES_AT, _PLAYED_AT, _ASIDE_AT, _CARS_AT, _ESCAPE_AT = (
    _AT[k] for k in ("hand_sizes", "played", "set_aside", "cars", "escape")
)
_BUILD_AT, _TOUR_AT = _AT["build"], _AT["tour"]
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_KITT_INDEX = {k: i for i, k in enumerate(KITT_KINDS)}


def encode_view(view: View, options: Options | None = None) -> np.ndarray:
    """The observation vector (float32, :data:`OBS_SIZE`) of a player's view.

    ``options`` (default: the basic game) gives the public rules the view does not repeat:
    the piece set (escape cards not yet turned, the drawn tile's openings) and the turn
    limit.
    """
    return _encode(view, np.zeros(OBS_SIZE, dtype=np.float32), options)


def encode_view_into(view: View, out: np.ndarray, options: Options | None = None) -> np.ndarray:
    """``encode_view`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
    return encode_into(_encode, OBS_SIZE, view, out, options)


Writer = Callable[[View, np.ndarray, "Options | None"], np.ndarray]


def encode_into(write: Writer, size: int, view: View, out: np.ndarray, options: Options | None) -> np.ndarray:
    """``write`` (an encoding's writer into a zeroed float32 vector of ``size``) into
    ``out``: in place when ``out`` is a writable, C-contiguous float32 vector, else through
    a new vector copied in; a wrong shape is a ``ValueError``."""
    if out.shape != (size,):
        raise ValueError(f"out must have shape ({size},), not {out.shape}")
    if out.dtype == np.float32 and out.flags.c_contiguous and out.flags.writeable:
        out.fill(0.0)
        return write(view, out, options)
    out[:] = write(view, np.zeros(size, dtype=np.float32), options)
    return out


def _encode(view: View, out: np.ndarray, options: Options | None) -> np.ndarray:
    """``encode_view`` into ``out``, a zeroed, writable, C-contiguous float32 vector of
    OBS_SIZE: only the values that are not zero are written: the map's cells (cached as
    flat indices and values; copying a dense 268 KB plane stack cost more than all the
    rest), then the pieces' and the square planes' cells through a memoryview (a NumPy
    item write costs several times more; the flee squares change with every move of the
    villain, so caching their cells as arrays missed often and cost more than it saved),
    then the scalars. The writers take the plane offsets of this encoding; the compact
    one (:mod:`rallye.rl.knightrider.compact`) passes its own."""
    opts = options if options is not None else _BASIC
    index, values = _map.tiles(view.tiles)[0]
    out[index] = values
    edits = _map.detours(view)
    if edits is not None:
        out[edits[0]] = edits[1]
    mv: Any = out.data  # a memoryview (float items: typeshed types memoryview items as int)
    _write_pieces(view, mv, None)
    for base, sq, v in _squares(view, opts.pieces()):  # (a square listed twice in a plane has one value)
        for at in _SQ_CELL_LISTS[sq]:
            mv[base + at] = v
    _write_scalars(view, out[PLANES_SIZE:].data, opts)
    return out


def _write_pieces(view: View, mv: Any, to: list[int] | None) -> None:
    """The villain and the cars into the planes (zero there but for the map's roadblocks):
    at these planes' flat offsets, or, with ``to``, at ``to[offset]``."""
    me = view.me
    villain = view.villain
    if villain is not None:
        at = _VILLAIN_AT + _cell_at(villain)
        mv[at if to is None else to[at]] = 1.0
    others: dict[int, int] = {}
    for c in view.cars:
        if c.field is None:
            continue
        at = _cell_at(c.field)
        if c.player == me:
            i = _ME_AT[c.heading] + at
            mv[i if to is None else to[i]] = 1.0
            continue
        i = _OTHER_AT[c.heading] + at
        mv[i if to is None else to[i]] += 1.0
        if c.roof:
            i = _ROOF_AT + at
            mv[i if to is None else to[i]] += 1.0
        if c.mantle:
            i = _MANTLE_AT + at
            mv[i if to is None else to[i]] += 1.0
        others[at] = others.get(at, 0) + 1
    for at, k in others.items():
        if k >= 2:
            i = _OBSTACLE_AT + at
            mv[i if to is None else to[i]] = 1.0


def _squares(view: View, pieces: Any) -> list[tuple[int, int, float]]:
    """The square-level planes (start_tile, start_choice, target, flee) as (plane offset,
    square index, value)."""
    squares: list[tuple[int, int, float]] = []
    if view.start_tile is not None:
        squares.append((_SQ_PLANE_AT[0], g.sq_index(*view.start_tile), 1.0))
    for x, y in view.start_choices:
        squares.append((_SQ_PLANE_AT[1], g.sq_index(x, y), 1.0))
    if view.targets:
        me = view.me
        mine = None
        for c in view.cars:
            if c.player == me:
                mine = c
        reached = set(mine.reached) if mine is not None else set()
        squares += [(_SQ_PLANE_AT[2], g.sq_index(x, y), 1.0) for x, y in view.targets if (x, y) not in reached]
    if view.villain is not None and not view.over:
        squares += [(_SQ_PLANE_AT[3], sq, v) for sq, v in _flee(view, pieces.escape)]
    return squares


def _write_scalars(view: View, mv: Any, opts: Options) -> None:
    """The scalar blocks into ``mv``, a memoryview of the zeroed scalar part: only the
    values that can be non-zero."""
    pieces = opts.pieces()
    n = view.players
    me = view.me
    if 0 <= n - 2 < 4:
        mv[_PLAYERS_AT + n - 2] = 1.0
    mv[_PHASE_AT + _PHASE_INDEX[view.phase]] = 1.0
    if view.current is not None:
        mv[_TO_ACT_AT + (view.current - me) % n] = 1.0
    mv[_START_AT + (view.start_player - me) % n] = 1.0
    if view.winner is not None:
        mv[_WINNER_AT + (view.winner - me) % n] = 1.0
    limit = opts.turn_limit
    turn = view.turn
    mv[_TURN_AT] = min(turn / 100.0, 10.0)
    mv[_TURN_AT + 1] = 1.0 if limit is None else max(limit - turn, 0) / limit
    mv[_TURN_AT + 2] = 0.0 if limit is None else 1.0
    if 0 <= view.roll < 7:
        mv[_ROLL_AT + view.roll] = 1.0
    pips, used = view.pips, view.used
    mv[_PIPS_AT] = pips / 12.0
    mv[_PIPS_AT + 1] = used / 12.0
    mv[_PIPS_AT + 2] = (pips - used) / 12.0
    mv[_PIPS_AT + 3] = 1.0 if view.moved else 0.0
    mv[_PIPS_AT + 4] = 1.0 if view.move_done else 0.0
    mv[_PIPS_AT + 5] = 1.0 if view.kitt_played else 0.0
    mv[_PIPS_AT + 6] = 1.0 if view.detour_played else 0.0
    at = _KITT_AT
    for k in view.hand_kitt:
        mv[at] = k / 5.0
        at += 1
    at = _DETOUR_AT
    for k in view.hand_detour:
        mv[at] = k / 5.0
        at += 1
    for seat, (a, b) in enumerate(view.hand_sizes):
        at = _SIZES_AT + 2 * ((seat - me) % n)
        mv[at] = a / 25.0
        mv[at + 1] = b / 25.0
    if view.played:
        played: dict[int, float] = {}  # summed in double precision, as documented
        for seat, kind in view.played:
            i = len(KITT_KINDS) * ((seat - me) % n) + _KITT_INDEX[kind]
            played[i] = played.get(i, 0.0) + 0.2
        for i, share in played.items():
            mv[_PLAYED_AT + i] = share
    mv[_ASIDE_AT] = view.set_aside[0] / 25.0
    mv[_ASIDE_AT + 1] = view.set_aside[1] / 25.0
    for c in view.cars:
        b = _CARS_AT + CAR_SIZE * ((c.player - me) % n)
        mv[b] = 1.0
        if c.field is None:
            mv[b + 1] = 1.0
            if 0 <= c.side < 4:
                mv[b + 6 + c.side] = 1.0
        else:
            mv[b + 2] = 1.0
        if c.roof:
            mv[b + 3] = 1.0
        if c.mantle:
            mv[b + 4] = 1.0
        if c.reached:
            mv[b + 5] = len(c.reached) / 5.0
    if view.escape_turned:
        for i in _turned_slots(view.escape_turned, pieces.escape):
            mv[_ESCAPE_AT + i] = 1.0
    mv[_ESCAPE_AT + 11] = view.escape_left / 11.0
    mv[_BUILD_AT] = view.face_down / 36.0
    if view.centre_face_down:
        mv[_BUILD_AT + 1] = 1.0
    drawn = _TILE_AT.get(view.drawn)
    if drawn is not None:
        mv[_BUILD_AT + 2 + drawn] = 1.0
    if view.drawn:
        op = pieces.tile(view.drawn).openings
        for d in range(4):
            if (op >> d) & 1:
                mv[_BUILD_AT + 2 + len(TILE_NUMBERS) + d] = 1.0
    mv[_BUILD_AT + 6 + len(TILE_NUMBERS)] = len(view.tiles) / 36.0
    mv[_BUILD_AT + 7 + len(TILE_NUMBERS)] = len(view.unused) / 36.0
    mv[_TOUR_AT] = len(view.targets) / 5.0


_BASIC = Options()
_TURNED_SLOTS: dict[tuple[int, int], tuple[Any, Any, list[int]]] = {}


def _turned_slots(turned_views: tuple[Any, ...], escape: tuple[Any, ...]) -> list[int]:
    """The piece-file positions of the escape cards turned, cached by the identity of the
    view's tuple (``view_for`` shares it until the next card is turned)."""
    key = (id(turned_views), id(escape))
    hit = _TURNED_SLOTS.get(key)
    if hit is not None and hit[0] is turned_views and hit[1] is escape:
        return hit[2]
    turned_ids = {e.id for e in turned_views}
    slots = [i for i, card in enumerate(escape) if card.id in turned_ids]
    if len(_TURNED_SLOTS) >= 256:
        _TURNED_SLOTS.clear()
    _TURNED_SLOTS[key] = (turned_views, escape, slots)
    return slots


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

    __slots__ = ("at", "left", "me", "players", "rammable")

    def __init__(self, view: View) -> None:
        self.me = view.me
        self.players = view.players
        self.left = view.pips - view.used
        self.rammable = _rammable(view)
        mine = next((c.field for c in view.cars if c.player == view.me), None)
        self.at = mine if mine is not None else (999, 999)

    @classmethod
    def of_state(cls, state: State) -> ActionContext:
        """The context of the player to act, read from the state's public parts (their seat,
        the pips left, where the other cars stand): the same values as from their view,
        without building the whole view (a test checks it). Not an observation: codes only."""
        ctx = cls.__new__(cls)
        me = ctx.me = state.current
        ctx.players = state.players
        ctx.left = state.pips - state.used
        car = state.cars[me] if me < len(state.cars) else None
        ctx.at = g.cell_xy(car.cell) if car is not None and car.cell >= 0 else (999, 999)
        count: dict[tuple[int, int], int] = {}
        seat: dict[tuple[int, int], int] = {}
        for c in state.cars:
            if c.cell < 0 or c.player == me:
                continue
            f = g.cell_xy(c.cell)
            count[f] = count.get(f, 0) + 1
            if not c.roof and not c.mantle:
                seat[f] = c.player
        ctx.rammable = {f: p for f, p in seat.items() if count[f] == 1}
        return ctx


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
    if seat is not None and action.cost < ctx.left and (action.cost > 2 or xy != ctx.at):
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


_DETOUR_CODES: dict[int, tuple[Action, int]] = {}
#: Bound of _DETOUR_CODES: a map has at most a few thousand detour plays (16 x 16 squares,
#: 15 slots); a larger cache would keep old maps' actions alive, which the garbage
#: collector then walks through again and again.
_DETOUR_CODES_SIZE = 4096


def legal_table(view: View | ActionContext, legal: Sequence[Action]) -> dict[int, Action]:
    """Compact code → legal engine action, for the player to act (``view`` is theirs).

    Raises ``RuntimeError`` if two legal actions share a code (the encoding's promise that
    the map is one-to-one would be broken).
    """
    ctx = view if isinstance(view, ActionContext) else ActionContext(view)
    table: dict[int, Action] = {}
    cached = _DETOUR_CODES
    for a in legal:
        if type(a) is Move:
            code = _move_code(a, ctx)
        elif type(a) is PlayDetour:
            # the engine shares its detour plays between the states of one map (the most
            # numerous actions): their codes are looked up by identity
            hit = cached.get(id(a))
            if hit is not None and hit[0] is a:
                code = hit[1]
            else:
                code = _other_code(a, ctx)
                if len(cached) >= _DETOUR_CODES_SIZE:
                    cached.clear()
                cached[id(a)] = (a, code)  # (the entry keeps the action: its id stays its own)
        else:
            code = _other_code(a, ctx)
        if code in table:
            raise RuntimeError(f"action code {code} names both '{table[code]}' and '{a}'")
        table[code] = a
    return table


_MAP_CODES: dict[tuple[int, int], tuple[Any, Any, tuple[dict[int, Action], ...], dict[int, tuple[int, ...]]]] = {}


def _map_codes(state: State) -> tuple[tuple[dict[int, Action], ...], dict[int, tuple[int, ...]]]:
    """The detour plays a map allows (``detour_placements``) as code → action, one dict per
    kind of card, and each square's codes; cached by the identity of the state's board
    (one tuple for the whole chase) and piece set."""
    board, pieces = state.board, state.pieces
    hit = _MAP_CODES.get((id(board), id(pieces)))
    if hit is not None and hit[0] is board and hit[1] is pieces:
        return hit[2], hit[3]
    per_kind: tuple[dict[int, Action], ...] = tuple({} for _ in DETOUR_KINDS)
    by_square: dict[int, list[int]] = {}
    n = len(DETOUR_SLOTS)
    for sq, k, a in detour_placements(pieces, board):
        code = DETOUR0 + n * g.sq_index(a.x, a.y) + _DETOUR_SLOT[(a.kind, a.rot)]
        per_kind[k][code] = a
        by_square.setdefault(sq, []).append(code)
    squares = {sq: tuple(codes) for sq, codes in by_square.items()}
    if len(_MAP_CODES) >= 64:
        _MAP_CODES.clear()
    _MAP_CODES[(id(board), id(pieces))] = (board, pieces, per_kind, squares)  # (the entry keeps both alive)
    return per_kind, squares


def state_table(state: State) -> dict[int, Action]:
    """``legal_table`` of the player to act in ``state``, the same mapping, faster: the
    detour plays (most of a chase turn's legal actions, some 250 while a player holds
    several kinds of card) are not coded one by one but merged from the map's codes of
    each kind held (``detour_placements``, coded once per map), less the tiles that are
    full; the context comes from the state's public parts (``ActionContext.of_state``).
    For adapters that hold the state; a test checks it equals ``legal_table`` of the acting
    player's view, and a count that disagrees with the legal actions falls back to it."""
    legal = legal_actions(state)
    block = detour_plays(state)
    ctx = ActionContext.of_state(state)
    n = len(block)
    if n < 2:
        return legal_table(ctx, legal)
    start = len(legal) - n - (1 if type(legal[-1]) is End else 0)
    if legal[start] is not block[0]:  # pragma: no cover - the engine lists its detours as one run
        return legal_table(ctx, legal)
    table = legal_table(ctx, legal[:start] + legal[start + n :])
    per_kind, squares = _map_codes(state)
    for k, held in enumerate(state.detour_hands[state.current]):
        if held:
            table.update(per_kind[k])
    for sq in full_tiles(state.detours):  # (the engine's rule: no detour play there)
        for code in squares.get(sq, ()):
            table.pop(code, None)
    if len(table) != len(legal):  # pragma: no cover - the engine's rule and this one disagree
        return legal_table(ctx, legal)
    return table


def mask_from_table(table: dict[int, Action]) -> np.ndarray:
    """The ``int8`` mask (:data:`NUM_ACTIONS`) with 1 at each code of the table."""
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if table:
        m[np.fromiter(table, dtype=np.intp, count=len(table))] = 1
    return m


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
