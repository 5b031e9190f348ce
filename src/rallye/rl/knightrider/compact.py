"""The compact Knight Rider observation (encoding version 2): the same view on a 16 × 16
grid of squares instead of a 48 × 48 grid of cells.

**Observation encoding, version** :data:`OBS_VERSION` (``encode_view``). Version 1
(:mod:`rallye.rl.knightrider.encoding`) gives every one of the table's 48 × 48 cells 29 planes;
but the pieces move on *fields* only (the middle and the four arms of a square: five of
its nine cells), and the square-level planes repeat one value on all nine cells. Version
2 keeps each field-level plane once per field position and each square-level plane once
per square, and drops ``built_up`` (on a laid tile, every cell that is not road). It is a
fixed selection of version 1's values (:data:`FROM_V1`; ``from_v1`` applies it, and the
tests check ``encode_view`` against it bit for bit), so it holds the same information,
depends on the player's view only (tested as version 1 is), and is 24,765 floats (99 KB)
against 67,005 (268 KB). Building one costs a little less (in one comparison over 2,592
random-game views, a median 53 against 62 us when each vector is dropped at once) and far
less where the vectors are kept, as in a replay buffer (58-74 against 183-200 us, the
least and the median of 12 rounds; most likely the memory a new 268 KB vector first
touches), and a buffer holds 2.7 times as many.

The vector is the :data:`CHANNELS` planes (``N_CHANNELS`` × 16 × 16, C order: channel,
row, column; square ``(x, y)`` is row ``y + 8``, column ``x + 8``; north is row 0),
followed by version 1's scalar blocks (:data:`SCALAR_FIELDS`, unchanged). ``planes(vector)``
gives the ``(N_CHANNELS, 16, 16)`` view and ``field_slice(name)`` a block's slice.

=======================  ===================================================================
channels                 value at a square
=======================  ===================================================================
``<plane>_<position>``   version 1's field-level ``<plane>`` at that field of the square:
                         ``position`` ``mid`` (middle), ``n``, ``e``, ``s``, ``w`` (the arm
                         on that side); planes: road, link_n..link_w, villain, me_n..me_w,
                         other_n..other_w, other_roof, other_mantle, obstacle (85 channels)
centre, detour_<kind>,   version 1's square-level planes, once per square (11 channels)
detours_on_tile,
start_tile,
start_choice, target,
flee
=======================  ===================================================================

The environments take ``obs_version=2`` (``knightrider_v0.env``, ``KnightRiderEnv``,
:class:`~rallye.rl.knightrider.adapter.KnightRiderAdapter`); version 1 stays their default.

>>> from rallye import knightrider as kr
>>> from rallye.rl.knightrider import encoding as kr_encoding
>>> s = kr.new_game(2, seed=5, options=kr.Options(quick_build=True))
>>> v = kr.view_for(s, s.current)
>>> x = encode_view(v, s.options)
>>> x.shape == (OBS_SIZE,), x.dtype.name
(True, 'float32')
>>> bool((x == from_v1(kr_encoding.encode_view(v, s.options))).all())
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rallye.knightrider import geometry as g
from rallye.knightrider.state import Options
from rallye.knightrider.view import View
from rallye.rl.knightrider import encoding as v1
from rallye.rl.knightrider.encoding import SCALAR_FIELDS, SCALARS_SIZE

OBS_VERSION = 2
GRID = g.SQ_SPAN  # 16 squares a side
SQUARES = GRID * GRID
POSITIONS = ("mid", "n", "e", "s", "w")  # geometry.LOCAL_POS order
FIELD_PLANES: tuple[str, ...] = (
    "road", "link_n", "link_e", "link_s", "link_w", "villain", "me_n", "me_e", "me_s", "me_w",
    "other_n", "other_e", "other_s", "other_w", "other_roof", "other_mantle", "obstacle",
)  # fmt: skip
SQUARE_PLANES: tuple[str, ...] = (
    "centre", "detour_straight", "detour_deadend", "detour_roadblock", "detour_right", "detour_left",
    "detours_on_tile", "start_tile", "start_choice", "target", "flee",
)  # fmt: skip
CHANNELS: tuple[str, ...] = (
    *(f"{plane}_{pos}" for plane in FIELD_PLANES for pos in POSITIONS),
    *SQUARE_PLANES,
)
N_CHANNELS = len(CHANNELS)
PLANES_SIZE = N_CHANNELS * SQUARES
OBS_FIELDS: tuple[tuple[str, int], ...] = (("planes", PLANES_SIZE), *SCALAR_FIELDS)
OBS_SIZE = PLANES_SIZE + SCALARS_SIZE
OBS_LOW, OBS_HIGH = v1.OBS_LOW, v1.OBS_HIGH


def _selection() -> tuple[np.ndarray, list[int]]:
    """(version 1 plane offset of each version 2 plane value, and per version 1 plane
    offset the version 2 offset or -1)."""
    channel = {name: i for i, name in enumerate(CHANNELS)}
    from_v1 = np.zeros(PLANES_SIZE, dtype=np.intp)
    to_v2 = [-1] * v1.PLANES_SIZE
    for sy in range(GRID):
        for sx in range(GRID):
            square = sy * GRID + sx
            for k, (lx, ly) in enumerate(g.LOCAL_POS):
                cell = (3 * sy + ly) * v1.GRID + 3 * sx + lx
                planes = [(p, f"{p}_{POSITIONS[k]}") for p in FIELD_PLANES]
                if k == 0:
                    planes += [(p, p) for p in SQUARE_PLANES]
                for plane, name in planes:
                    src = v1.PLANE[plane] * v1.GRID * v1.GRID + cell
                    dst = channel[name] * SQUARES + square
                    from_v1[dst] = src
                    to_v2[src] = dst
    return from_v1, to_v2


#: Version 1 offset (within the planes) of each version 2 plane value: the selection.
FROM_V1, _TO_V2 = _selection()
FROM_V1.flags.writeable = False
_TO_V2_ARRAY = np.asarray(_TO_V2, dtype=np.intp)


def from_v1(vector: np.ndarray) -> np.ndarray:
    """The version 2 observation of a version 1 observation (the same view): the
    selection :data:`FROM_V1` of its planes, then its scalars."""
    if vector.shape[-1] != v1.OBS_SIZE:
        raise ValueError(f"a version 1 observation has {v1.OBS_SIZE} values, not {vector.shape[-1]}")
    return np.concatenate([vector[..., FROM_V1], vector[..., v1.PLANES_SIZE :]], axis=-1)


def field_slice(name: str) -> slice:
    """The slice of block ``name`` (see :data:`OBS_FIELDS`) in an observation vector."""
    return v1.block_slice(OBS_FIELDS, name)


def planes(vector: np.ndarray) -> np.ndarray:
    """The ``(N_CHANNELS, 16, 16)`` plane view of an observation vector (no copy)."""
    if vector.shape[-1] != OBS_SIZE:
        raise ValueError(f"a version 2 observation has {OBS_SIZE} values, not {vector.shape[-1]}")
    return vector[..., :PLANES_SIZE].reshape(*vector.shape[:-1], N_CHANNELS, GRID, GRID)


def describe(vector: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation vector into its named blocks (channels by name too)."""
    out = {name: vector[..., field_slice(name)] for name, _ in SCALAR_FIELDS}
    p = planes(vector)
    for i, name in enumerate(CHANNELS):
        out[name] = p[..., i, :, :]
    return out


_CONVERTED: dict[int, tuple[Any, np.ndarray, np.ndarray]] = {}


def _converted(index: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Version 1 (flat indices, values) of map cells as version 2's (the cells version 2
    drops left out), cached by the identity of the index array (version 1 caches those)."""
    hit = _CONVERTED.get(id(index))
    if hit is not None and hit[0] is index:
        return hit[1], hit[2]
    to = _TO_V2_ARRAY[index]
    keep = to >= 0
    value = (to[keep], values[keep])
    if len(_CONVERTED) >= 256:
        _CONVERTED.clear()
    _CONVERTED[id(index)] = (index, *value)
    return value


_MIDDLE = [cells[4] for cells in v1._SQ_CELL_LISTS]  # (each square's middle cell: its (1, 1))


def encode_view(view: View, options: Options | None = None) -> np.ndarray:
    """The version 2 observation vector (float32, :data:`OBS_SIZE`) of a player's view;
    ``options`` as for version 1's ``encode_view``. Equal to ``from_v1`` of version 1's
    vector, written directly: the map's cells (version 1's cached cells, selected once
    per map), the pieces and the square-level planes at their version 2 offsets, then the
    scalars with version 1's own writer."""
    return _encode(view, np.zeros(OBS_SIZE, dtype=np.float32), options)


def encode_view_into(view: View, out: np.ndarray, options: Options | None = None) -> np.ndarray:
    """``encode_view`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
    return v1.encode_into(_encode, OBS_SIZE, view, out, options)


def _encode(view: View, out: np.ndarray, options: Options | None) -> np.ndarray:
    """``encode_view`` into ``out``, a zeroed, writable, C-contiguous float32 vector."""
    opts = options if options is not None else v1._BASIC
    index, values = _converted(*v1._map.tiles(view.tiles)[0])
    out[index] = values
    edits = v1._map.detours(view)
    if edits is not None:
        index, values = _converted(*edits)
        out[index] = values
    mv: Any = out.data
    to = _TO_V2
    v1._write_pieces(view, mv, to)
    for base, sq, v in v1._squares(view, opts.pieces()):
        mv[to[base + _MIDDLE[sq]]] = v
    v1._write_scalars(view, out[PLANES_SIZE:].data, opts)
    return out
