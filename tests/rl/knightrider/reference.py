"""The Knight Rider observation encoder as first written (``rallye.rl.knightrider.encoding`` before
its speed-ups), kept verbatim as the reference the fast encoder is checked against bit for
bit: whole plane stacks per map and detours (``_static_planes``), a 16 × 16 grid broadcast
for the square planes, the scalars as one list."""

# ruff: noqa
from __future__ import annotations

import numpy as np

from rallye.knightrider import geometry as g
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.knightrider.pieces import TILE_NUMBERS
from rallye.knightrider.state import Options
from rallye.rl.knightrider.encoding import (
    CAR_SIZE,
    GRID,
    MAX_SEATS,
    N_PLANES,
    OBS_SIZE,
    PHASES,
    PLANE,
    PLANES_SIZE,
    _SQ_PLANES,
    _TILE_AT,
    _TILE_KEY,
    _rc,
    _static_planes,
)


def _one_hot(n: int, k: int | None) -> list[float]:
    out = [0.0] * n
    if k is not None and 0 <= k < n:
        out[k] = 1.0
    return out


def encode_view(view, options=None):
    """The observation vector (float32, :data:`OBS_SIZE`) of a player's view.

    ``options`` (default: the basic game) gives the public rules the view does not repeat:
    the piece set (escape cards not yet turned, the drawn tile's openings) and the turn
    limit.
    """
    out = np.empty(OBS_SIZE, dtype=np.float32)
    return encode_view_into(view, out, options)


def encode_view_into(view, out, options=None):
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
