"""The observation encoding (version 1 of :mod:`rallye.rl.mille_encoding`), compiled, from a
batched game's row for one seat.

It reads only what that seat's view holds: its own hand, every hand's size, the tableaus,
the discard pile, the draw pile's size, whose turn, phase, target, extension, hand number and
totals; never another hand's cards nor the draw pile's order. Every value is computed as
``encode_view`` computes it (in double precision, then rounded to float32), so the two are
equal to the bit (``tests/batch/test_mille_vector.py`` checks it seat by seat).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rallye.batch._kernels import (
    BATTLE_HAZARD,
    C_P,
    C_S,
    C_SIDEOF,
    CF,
    CUR,
    DECKLEN,
    DISC,
    DISCLEN,
    DRAWPOS,
    EXTBY,
    EXTEND_PHASE,
    HAND,
    HANDNO,
    HSIZE,
    MAXP,
    MAXS,
    NC,
    OVER_PHASE,
    PHASE,
    PLAY_PHASE,
    RIGHT_OF_WAY,
    ROLL,
    S_BAT,
    S_BATLEN,
    S_COUPMASK,
    S_D200,
    S_DIST,
    S_DISTLEN,
    S_KM,
    S_SAF,
    S_SAFLEN,
    S_SAFMASK,
    S_SPD,
    S_SPDLEN,
    SPEED_LIMIT,
    TARGET,
    TOTALS,
    Floats,
    Obs,
    Row,
    Rows,
    side_base,
)

OBS_SIZE = 270
SIDE_BLOCK = 31
SIDES_AT = 84
# the encoding's constants of an edition with a player count (see ``encoding_table``)
E_INVERSE = 0  # 19: 1 / copies in the deck (0 if none)
E_COPIES = NC  # 19
E_FLAGS = 2 * NC  # 4: extension allowed, empty draw ends the hand, extra turn after a safety, team game
E_MATCH = E_FLAGS + 4  # match target / 10000
N_ENC = E_MATCH + 1
# battle top -> its lane in a side block (8 + index in (None, ROLL, STOP, OUT_OF_GAS,
# FLAT_TIRE, ACCIDENT, GASOLINE, SPARE_TIRE, REPAIRS)); index card + 1
BATTLE_LANE = np.full(NC + 1, -1, dtype=np.int32)
for _i, _c in enumerate((-1, ROLL, 6, 9, 11, 13, 10, 12, 14)):
    BATTLE_LANE[_c + 1] = 8 + _i


@njit(cache=True)
def encode_one(g: Row, cfg: Row, enc: Floats, seat: int, out: Obs) -> None:
    """``encode_view(view_for(state, seat))`` of the game in row ``g``, into ``out``."""
    n = cfg[C_P]
    n_sides = cfg[C_S]
    my = cfg[C_SIDEOF + seat]
    for i in range(OBS_SIZE):
        out[i] = 0.0
    left = np.empty(NC, dtype=np.int64)
    for c in range(NC):
        left[c] = np.int64(enc[E_COPIES + c])
    disc = np.zeros(NC, dtype=np.int64)
    for i in range(g[DISCLEN]):
        disc[g[DISC + i]] += 1
    # sides, my side first
    for k in range(n_sides):
        s = (my + k) % n_sides
        base = side_base(s)
        o = SIDES_AT + k * SIDE_BLOCK
        out[o] = 1.0
        out[o + 1] = g[base + S_KM] / 1000.0
        lanes = np.zeros(5, dtype=np.float64)
        for i in range(g[base + S_DISTLEN]):
            c = g[base + S_DIST + i]
            lanes[c] += 0.1
            left[c] -= 1
        for c in range(5):
            out[o + 2 + c] = lanes[c]
        out[o + 7] = g[base + S_D200] / 2.0
        nb = g[base + S_BATLEN]
        for i in range(nb):
            left[g[base + S_BAT + i]] -= 1
        top = g[base + S_BAT + nb - 1] if nb > 0 else -1
        out[o + BATTLE_LANE[top + 1]] = 1.0
        ns = g[base + S_SPDLEN]
        for i in range(ns):
            left[g[base + S_SPD + i]] -= 1
        speed_top = g[base + S_SPD + ns - 1] if ns > 0 else -1
        out[o + 17 + (0 if speed_top < 0 else (1 if speed_top == SPEED_LIMIT else 2))] = 1.0
        row = (g[base + S_SAFMASK] & 1) != 0
        rolling = (not BATTLE_HAZARD[top + 1]) if row else top == ROLL
        out[o + 20] = 1.0 if rolling else 0.0
        out[o + 21] = 1.0 if speed_top == SPEED_LIMIT and not row else 0.0
        coups = g[base + S_COUPMASK]
        for i in range(g[base + S_SAFLEN]):
            c = g[base + S_SAF + i]
            left[c] -= 1
            out[o + 22 + c - RIGHT_OF_WAY] = 1.0
            if (coups >> i) & 1:
                out[o + 26 + c - RIGHT_OF_WAY] = 1.0
        total = g[TOTALS + s] / 1000.0
        out[o + 30] = -20.0 if total < -20.0 else (20.0 if total > 20.0 else total)
    h = HAND + seat * NC
    for c in range(NC):
        held = g[h + c]
        out[c] = held
        out[NC + c] = (left[c] - disc[c] - held) * enc[E_INVERSE + c]
        out[2 * NC + c] = disc[c] * enc[E_INVERSE + c]
    deck_size = g[DECKLEN]
    draw_count = deck_size - g[DRAWPOS]
    phase = g[PHASE]
    ext = g[EXTBY]
    mine = g[CUR] == seat and phase != OVER_PHASE
    o = 3 * NC
    out[o] = draw_count / (deck_size if deck_size else 1)
    out[o + 1] = 1.0 if draw_count == 0 else 0.0
    out[o + 2] = g[TARGET] / 1000.0
    out[o + 3] = 1.0 if phase == PLAY_PHASE else 0.0
    out[o + 4] = 1.0 if phase == EXTEND_PHASE else 0.0
    out[o + 5] = 1.0 if mine else 0.0
    out[o + 6] = 1.0 if g[CF] != 0 and mine else 0.0
    out[o + 7] = 1.0 if ext >= 0 and ext == my else 0.0
    out[o + 8] = 1.0 if ext >= 0 and ext != my else 0.0
    o += 9
    out[o + my] = 1.0
    o += MAXS
    for k in range(n):
        out[o + k] = g[HSIZE + (seat + k) % n] / 7.0
    o += MAXP
    for i in range(4):
        out[o + i] = enc[E_FLAGS + i]
    o += 4
    out[o] = min(g[HANDNO] / 10.0, 1.0)
    out[o + 1] = enc[E_MATCH]


@njit(cache=True)
def batch_encode(st: Rows, cfg: Row, enc: Floats, seats: Row, out: Obs) -> None:
    """Row ``b`` of ``out``: the observation of seat ``seats[b]`` in game ``b`` (zeros for -1)."""
    for b in range(st.shape[0]):
        if seats[b] < 0:
            for i in range(OBS_SIZE):
                out[b, i] = 0.0
        else:
            encode_one(st[b], cfg, enc, seats[b], out[b])
