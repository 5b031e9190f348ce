"""Track geometry over a state: tile masks, placement rules, road links, skids, moves.

Everything here is a pure function of plain values; the heavy parts (tile masks per
rotation, the per-cell link table) are precomputed once per piece set / per map.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from rallye.knightrider import geometry as g
from rallye.knightrider.actions import detour_sides
from rallye.knightrider.pieces import Pieces

_CENTRE_SQ = frozenset(g.sq_index(x, y) for x, y in g.CENTRE)
#: Squares touching the centre (edge-adjacent), as square codes.
_TOUCH_CENTRE = frozenset(
    g.sq_index(x + dx, y + dy) for x, y in g.CENTRE for dx, dy in g.DXY if (x + dx, y + dy) not in g.CENTRE
)


def is_centre(sq: int) -> bool:
    return sq in _CENTRE_SQ


@lru_cache(maxsize=64)
def mask_table(pieces: Pieces) -> dict[int, tuple[int, int, int, int]]:
    """Tile number → opening mask for quarter turns 0..3."""
    return {t.number: (t.mask(0), t.mask(90), t.mask(180), t.mask(270)) for t in pieces.tiles}


@lru_cache(maxsize=64)
def orientation_table(pieces: Pieces) -> dict[int, tuple[int, ...]]:
    """Tile number → its distinct quarter turns."""
    return {t.number: tuple(r // 90 for r in t.orientations()) for t in pieces.tiles}


def square_mask(board: tuple[int, ...], masks: Mapping[int, tuple[int, ...]], sq: int) -> int:
    """Opening mask of the tile on a square, or -1 if the square is empty."""
    v = board[sq]
    if not v:
        return -1
    return masks[(v - 1) >> 2][(v - 1) & 3]


def _make_neighbours() -> tuple[tuple[tuple[int, int], ...], ...]:
    out = []
    for sq in range(g.N_SQUARES):
        x, y = g.sq_xy(sq)
        out.append(
            tuple((d, g.sq_index(x + dx, y + dy)) for d, (dx, dy) in enumerate(g.DXY) if g.in_table(x + dx, y + dy))
        )
    return tuple(out)


#: Square code → ((side, neighbour square code), ...) inside the table.
NEIGHBOURS = _make_neighbours()


def _neighbours(sq: int) -> tuple[tuple[int, int], ...]:
    return NEIGHBOURS[sq]


def placement_problem(
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    number: int,
    sq: int,
    quarter: int,
    *,
    first: bool,
    centre_down: bool,
) -> str | None:
    """Why tile ``number`` may not go on ``sq`` turned ``quarter``; ``None`` if it may."""
    if sq in _CENTRE_SQ:
        return "the four centre squares stay empty"
    if board[sq]:
        return "the square is already taken"
    if first and sq not in _TOUCH_CENTRE:
        return "each player's first tile must touch the centre"
    mask = masks[number][quarter]
    anchored = centre_down and sq in _TOUCH_CENTRE
    for d, nb in _neighbours(sq):
        v = board[nb]
        if not v:
            continue
        anchored = True
        nmask = masks[(v - 1) >> 2][(v - 1) & 3]
        mine = (mask >> d) & 1
        theirs = (nmask >> g.opposite(d)) & 1
        if mine != theirs:
            what = "road meets built-up" if mine else "built-up meets a road"
            return f"{what} on the {g.DIRS[d]} side"
    if not anchored:
        return "a tile must touch a face-up tile" + (" or the centre" if centre_down else "")
    return None


def legal_squares(
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    orients: Mapping[int, tuple[int, ...]],
    number: int,
    *,
    first: bool,
    centre_down: bool,
    occupied: Iterable[int] | None = None,
    stop_at_first: bool = False,
) -> list[tuple[int, int]]:
    """All (square code, quarter turns) where the tile may go, in square-code then rotation order.

    Same rules as :func:`placement_problem`, computed per square as "sides that must be
    road" / "sides that must be built-up" and matched against each rotation's mask.
    """
    cand: set[int] = set()
    if centre_down or first:
        cand.update(_TOUCH_CENTRE)
    if not first:
        occ = occupied if occupied is not None else [sq for sq, v in enumerate(board) if v]
        for sq in occ:
            for _, nb in NEIGHBOURS[sq]:
                cand.add(nb)
    tile_masks = masks[number]
    out: list[tuple[int, int]] = []
    for sq in sorted(cand):
        if board[sq] or sq in _CENTRE_SQ or (first and sq not in _TOUCH_CENTRE):
            continue
        need = 0
        forbid = 0
        anchored = centre_down and sq in _TOUCH_CENTRE
        for d, nb in NEIGHBOURS[sq]:
            v = board[nb]
            if v:
                anchored = True
                if (masks[(v - 1) >> 2][(v - 1) & 3] >> ((d + 2) & 3)) & 1:
                    need |= 1 << d
                else:
                    forbid |= 1 << d
        if not anchored:
            continue
        for q in orients[number]:
            m = tile_masks[q]
            if m & need == need and not m & forbid:
                out.append((sq, q))
                if stop_at_first:
                    return out
    return out


def build_preferences(
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    number: int,
    places: Iterable[tuple[int, int]],
    occupied: Iterable[int],
) -> list[tuple[int, int, int, int]]:
    """How a person building one track rates laying tile ``number`` at each of ``places``
    (legal (square code, quarter turns) placements; ``occupied``: the laid squares); higher
    is better, in this order:

    1. the road-connected pieces it joins (linking two pieces beats continuing one);
    2. the roads it joins (its road sides against a laid tile: a legal placement meets a
       road there, see :func:`placement_problem`);
    3. its open roads that lead into an empty square another piece's road also leads
       into (so a later tile can link the two);
    4. its open roads at all: into an empty square of the table, not the centre (room to
       grow).
    """
    pieces = tile_pieces(board, masks, occupied)
    tile_masks = masks[number]
    out = []
    for sq, q in places:
        mask = tile_masks[q]
        joined: set[int] = set()
        roads = meets = free = 0
        for d, nb in NEIGHBOURS[sq]:
            if (mask >> d) & 1 and board[nb]:
                roads += 1
                joined.add(pieces[nb])
        for d, nb in NEIGHBOURS[sq]:
            if not (mask >> d) & 1 or board[nb] or nb in _CENTRE_SQ:
                continue
            free += 1
            for e, nn in NEIGHBOURS[nb]:
                v = board[nn]
                if v and pieces[nn] not in joined and (masks[(v - 1) >> 2][(v - 1) & 3] >> ((e + 2) & 3)) & 1:
                    meets += 1
                    break
        out.append((len(joined), roads, meets, free))
    return out


def tile_pieces(
    board: tuple[int, ...], masks: Mapping[int, tuple[int, ...]], occupied: Iterable[int] | None = None
) -> dict[int, int]:
    """Laid square code -> the smallest square code of its road-connected piece (tiles
    whose roads meet, side by side, are one piece); ``occupied``: the laid squares, if known."""
    parent = {sq: sq for sq in occupied} if occupied is not None else {sq: sq for sq, v in enumerate(board) if v}

    def root(sq: int) -> int:
        while parent[sq] != sq:
            parent[sq] = parent[parent[sq]]
            sq = parent[sq]
        return sq

    for sq in parent:
        mask = square_mask(board, masks, sq)
        for d, nb in NEIGHBOURS[sq]:
            if nb in parent and (mask >> d) & 1:
                a, b = root(sq), root(nb)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {sq: root(sq) for sq in parent}


def road_pieces(links: bytes, middles: Mapping[int, int]) -> list[frozenset[int]]:
    """The road-connected pieces of a town: sets of square codes whose middle fields
    (``middles``: square code -> middle cell) reach each other by road, in the order of
    their smallest square code."""
    cell_sq = {c: sq for sq, c in middles.items()}
    seen: set[int] = set()
    out: list[frozenset[int]] = []
    for sq in sorted(middles):
        if sq in seen:
            continue
        piece = frozenset(cell_sq[c] for c in road_distances(links, middles[sq]) if c in cell_sq)
        seen |= piece
        out.append(piece)
    return out


def top_detours(detours: Iterable[tuple[int, str, int, int]]) -> dict[int, tuple[str, int]]:
    """Square code → (kind, rot) of the topmost detour card on it."""
    top: dict[int, tuple[str, int]] = {}
    for sq, kind, rot, _ in detours:
        top[sq] = (kind, rot)
    return top


def compute_links(
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    detours: Iterable[tuple[int, str, int, int]] = (),
) -> bytes:
    """Per-cell connection masks for the laid tiles under the topmost detour cards.

    Bits 0–3: a road leads on N/E/S/W; bit 4 (``0x10``): the cell is a field at all.
    """
    links = bytearray(g.N_CELLS)
    top = top_detours(detours)
    for sq, v in enumerate(board):
        if v:
            _link_tile(links, board, masks, top, sq)
    return bytes(links)


def relink_tile(
    links: bytes,
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    detours: Iterable[tuple[int, str, int, int]],
    sq: int,
) -> bytes:
    """``links`` after the detours on square ``sq`` changed (only its own cells change)."""
    out = bytearray(links)
    _link_tile(out, board, masks, top_detours(detours), sq)
    return bytes(out)


def _link_tile(
    links: bytearray,
    board: tuple[int, ...],
    masks: Mapping[int, tuple[int, ...]],
    top: Mapping[int, tuple[str, int]],
    sq: int,
) -> None:
    v = board[sq]
    mask = masks[(v - 1) >> 2][(v - 1) & 3]
    x, y = g.sq_xy(sq)
    eff = mask
    if sq in top:
        kind, rot = top[sq]
        eff = mask & detour_sides(kind, rot)
    links[g.middle(x, y)] = eff | 0x10
    for d in range(4):
        if not (mask >> d) & 1:
            continue
        a = g.arm(x, y, d)
        lk = (1 << g.opposite(d)) if (eff >> d) & 1 else 0
        nx, ny = x + g.DXY[d][0], y + g.DXY[d][1]
        if g.in_table(nx, ny):
            nmask = square_mask(board, masks, g.sq_index(nx, ny))
            if nmask >= 0 and (nmask >> g.opposite(d)) & 1:
                lk |= 1 << d
        links[a] = lk | 0x10


@lru_cache(maxsize=256)
def roadblocks(detours: tuple[tuple[int, str, int, int], ...]) -> frozenset[int]:
    """Middle cells whose topmost detour is a roadblock (obstacles)."""
    out = set()
    for sq, (kind, _) in top_detours(detours).items():
        if kind == "ROADBLOCK":
            x, y = g.sq_xy(sq)
            out.add(g.middle(x, y))
    return frozenset(out)


def road_distances(links: bytes, start: int) -> dict[int, int]:
    """Shortest way in fields from ``start`` to every reachable cell (turns not counted)."""
    dist = {start: 0}
    q = deque([start])
    while q:
        f = q.popleft()
        lk = links[f]
        for d in range(4):
            if (lk >> d) & 1:
                n = f + g.DELTA[d]
                if n not in dist:
                    dist[n] = dist[f] + 1
                    q.append(n)
    return dist


def skid(
    links: bytes,
    blocked: frozenset[int],
    occupied: Mapping[int, int],
    cell: int,
    heading: int,
    fields: int,
) -> tuple[int, int, int]:
    """Skid a car ``fields`` back along the road; returns (cell, heading, fields skidded).

    "Back" is against the heading; the skid follows the road (straight on when it can,
    else the one other way), and stops early at an obstacle (two cars or a roadblock),
    a junction without a straight way, or a dead end. The car keeps facing along the road.
    """
    b = g.opposite(heading)
    f = cell
    done = 0
    for _ in range(fields):
        lk = links[f] & 0xF
        if (lk >> b) & 1:
            d = b
        else:
            ways = [e for e in range(4) if (lk >> e) & 1 and e != g.opposite(b)]
            if len(ways) != 1:
                break
            d = ways[0]
        nxt = f + g.DELTA[d]
        if occupied.get(nxt, 0) >= 2 or nxt in blocked:
            break
        f, b = nxt, d
        done += 1
    return f, (g.opposite(b) if done else heading), done


@dataclass(frozen=True, slots=True)
class MoveOption:
    """One way to move: destination, heading, pips, jump, whether it stops for a ram."""

    cell: int
    heading: int
    cost: int
    jump: bool
    ram: bool
    # (cell, heading after, jumped over) per step; a move that ends with a turn on its last
    # field has one more step on that field, with the new heading
    path: tuple[tuple[int, int, bool], ...]


#: Link mask (0..15) -> the directions it opens, N E S W order.
_DIRS: tuple[tuple[int, ...], ...] = tuple(tuple(d for d in range(4) if (m >> d) & 1) for m in range(16))

# A search state is ``cell * 8 + heading * 2 + jumped`` (jumped: Blockier-Sprung used).


def _successors(
    links: bytes,
    blocked: frozenset[int],
    others: Mapping[int, int],
    st: int,
    dirs: tuple[int, ...],
    allow_jump: bool,
) -> list[tuple[int, int, int, int]]:
    """The steps from state ``st`` in ``dirs``: (pips, state after, jumped field or -1, the
    jump's direction). A step costs 1 plus the turn on the field it leaves (90° 1, 180° 2).
    A field with two other cars or a roadblock is an obstacle: only a jump passes it, and
    the jumped field costs no pip, but a turn on it costs its pips as anywhere."""
    f = st >> 3
    h = (st >> 1) & 3
    j = st & 1
    delta = g.DELTA
    turn = g.TURN_COST
    tc_row = turn[h]
    out: list[tuple[int, int, int, int]] = []
    for d in dirs:
        nxt = f + delta[d]
        tc = tc_row[d]
        if others.get(nxt, 0) >= 2 or nxt in blocked:
            if not allow_jump or j:
                continue
            lg = links[nxt]
            back = (d + 2) & 3
            on_jumped = turn[d]
            for e in range(4):
                if e == back or not (lg >> e) & 1:
                    continue
                k = nxt + delta[e]
                if others.get(k, 0) >= 2 or k in blocked:
                    continue
                out.append((tc + 1 + on_jumped[e], k * 8 + e * 2 + 1, nxt, d))
            continue
        out.append((1 + tc, nxt * 8 + d * 2 + j, -1, 0))
    return out


def _turn_ends(links: bytes, st: int) -> list[tuple[int, int]]:
    """The turns a move may end with on the field of state ``st``: (pips, state after), one
    per road leaving the field in another direction than the heading (90° 1, 180° 2)."""
    f = st >> 3
    h = (st >> 1) & 3
    base = st - h * 2
    row = g.TURN_COST[h]
    return [(row[e], base + e * 2) for e in _DIRS[links[f] & 0xF] if e != h]


def _reach_through(
    links: bytes,
    blocked: frozenset[int],
    others: Mapping[int, int],
    st0: int,
    c0: int,
    pips: int,
    allow_jump: bool,
) -> tuple[int, int]:
    """The pips the ways on from a ram stop (state ``st0`` reached with ``c0`` pips) can use
    in all: bit ``c`` of the first mask for ways without the jump, of the second with it.
    The stop itself counts (a way may end there), further cars are passed, and a way may
    end with a turn on its last field."""
    masks = [0, 0]
    layers: list[set[int]] = [set() for _ in range(pips + 1)]
    layers[c0].add(st0)
    for c in range(c0, pips + 1):
        for st in layers[c]:
            masks[st & 1] |= 1 << c
            if c == pips:
                continue
            for t, ns in _turn_ends(links, st):
                if c + t <= pips:
                    masks[ns & 1] |= 1 << (c + t)
            for cost, ns, _, _ in _successors(links, blocked, others, st, _DIRS[links[st >> 3] & 0xF], allow_jump):
                if c + cost <= pips:
                    layers[c + cost].add(ns)
    return masks[0], masks[1]


def _path(layers: list[dict[int, tuple[int, int, int, int]]], c: int, st: int) -> tuple[tuple[int, int, bool], ...]:
    steps: list[tuple[int, int, bool]] = []
    while c > 0:
        pc, ps, jumped, jd = layers[c][st]
        steps.append((st >> 3, (st >> 1) & 3, False))
        if jumped >= 0:
            steps.append((jumped, jd, True))
        c, st = pc, ps
    steps.reverse()
    return tuple(steps)


def search_moves(
    links: bytes,
    blocked: frozenset[int],
    others: Mapping[int, int],
    rammable: frozenset[int],
    start: int,
    heading: int,
    pips: int,
    *,
    entry: bool,
    allow_jump: bool,
) -> list[MoveOption]:
    """Every legal move segment of a car (see the rules in ``engine``).

    States are (cell, heading, jumped) at an exact cost; each is first reached along the
    canonical path (breadth-first by cost, directions N E S W). A step costs 1 pip plus
    the turn on the field it leaves (90° = 1, 180° = 2). A move may also end with a turn
    on its last field (the start field included, unless the car waits to enter), towards
    a road leaving it; the heading is part of where a move ends. A field with two other
    cars or a roadblock is an obstacle (only a jump passes it: the jumped field costs no
    pip, a turn on it does). Arriving on a field with one rammable car while pips remain
    ends the segment (a ram stop).

    A move uses the most pips any way can (all of them if possible), separately for ways
    with and without the jump; a way on through a ram stop counts (no dodging a ram), and
    a ram stop is offered when a way on through it uses that many.
    """
    layers: list[dict[int, tuple[int, int, int, int]]] = [{} for _ in range(pips + 1)]
    ends: list[dict[int, tuple[int, int]]] = [{} for _ in range(pips + 1)]
    layers[0][start * 8 + heading * 2] = (-1, -1, -1, 0)
    ramstops: set[tuple[int, int]] = set()
    for c in range(pips):
        for st in list(layers[c]):
            if (c, st) in ramstops:
                continue
            if entry and c == 0:
                dirs: tuple[int, ...] = (heading,)
            else:
                dirs = _DIRS[links[st >> 3] & 0xF]
                for t, ns in _turn_ends(links, st):
                    nc = c + t
                    if nc <= pips and ns not in ends[nc]:
                        ends[nc][ns] = (c, st)
            for cost, ns, jumped, jd in _successors(links, blocked, others, st, dirs, allow_jump):
                nc = c + cost
                if nc > pips:
                    continue
                tgt = layers[nc]
                if ns not in tgt:
                    tgt[ns] = (c, st, jumped, jd)
                    if nc < pips and (ns >> 3) in rammable:
                        ramstops.add((nc, ns))
    best = [0, 0]
    for c in range(1, pips + 1):
        for st in layers[c]:
            if (c, st) not in ramstops:
                best[st & 1] = c
        for st in ends[c]:
            best[st & 1] = c
    through: dict[tuple[int, int], tuple[int, int]] = {}
    for c, st in ramstops:
        masks = _reach_through(links, blocked, others, st, c, pips, allow_jump)
        through[(c, st)] = masks
        for jf in (0, 1):
            if masks[jf]:
                best[jf] = max(best[jf], masks[jf].bit_length() - 1)
    out: list[MoveOption] = []
    for c in range(1, pips + 1):
        for st in layers[c]:
            ram = (c, st) in ramstops
            if ram:
                m0, m1 = through[(c, st)]
                if not ((m0 >> best[0]) & 1 or (m1 >> best[1]) & 1):
                    continue
            elif c != best[st & 1]:
                continue
            out.append(MoveOption(st >> 3, (st >> 1) & 3, c, bool(st & 1), ram, _path(layers, c, st)))
        for st, (pc, pst) in ends[c].items():
            if c != best[st & 1] or st in layers[c]:
                continue
            path = _path(layers, pc, pst) + ((st >> 3, (st >> 1) & 3, False),)
            out.append(MoveOption(st >> 3, (st >> 1) & 3, c, bool(st & 1), False, path))
    return out
