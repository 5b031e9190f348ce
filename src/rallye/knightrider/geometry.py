"""Board geometry: squares, cells, fields, directions — all plain integers.

* A **square** holds one tile; squares are ``(x, y)`` with x growing east and y growing
  south. The table is bounded: ``-8 <= x, y <= 7`` (16 × 16 squares, far more than 36
  tiles need). The 2×2 centre is the squares ``(-1,-1) (0,-1) (-1,0) (0,0)``.
* A **cell** is one of the 3×3 cells of a square; its global coordinates are
  ``(3x + col, 3y + row)``. Road cells are the **fields** cars stand on.
* Internally a cell is one integer ``(cy + 24) * 48 + (cx + 24)``; a step in direction
  ``d`` adds ``DELTA[d]``.
* Directions / headings / sides: ``0`` N, ``1`` E, ``2`` S, ``3`` W.
"""

from __future__ import annotations

SQ_MIN = -8
SQ_SPAN = 16
SQ_MAX = SQ_MIN + SQ_SPAN - 1
N_SQUARES = SQ_SPAN * SQ_SPAN
CELL_SPAN = 3 * SQ_SPAN
CELL_MIN = 3 * SQ_MIN
N_CELLS = CELL_SPAN * CELL_SPAN

N, E, S, W = 0, 1, 2, 3
DIRS = "NESW"
DELTA = (-CELL_SPAN, 1, CELL_SPAN, -1)
DXY = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: Extra pips for turning from heading ``h`` to direction ``d``: TURN_COST[h][d].
TURN_COST = tuple(tuple((0, 1, 2, 1)[(d - h) % 4] for d in range(4)) for h in range(4))

CENTRE = ((-1, -1), (0, -1), (-1, 0), (0, 0))

#: Local (col, row) of a square's five possible fields, by position code:
#: 0 middle, 1 north arm, 2 east arm, 3 south arm, 4 west arm.
LOCAL_POS = ((1, 1), (1, 0), (2, 1), (1, 2), (0, 1))
_POS_OF_LOCAL = {xy: i for i, xy in enumerate(LOCAL_POS)}


def opposite(d: int) -> int:
    return (d + 2) % 4


def in_table(x: int, y: int) -> bool:
    return SQ_MIN <= x <= SQ_MAX and SQ_MIN <= y <= SQ_MAX


def sq_index(x: int, y: int) -> int:
    """Square code 0..255 (row-major from the north-west corner)."""
    return (y - SQ_MIN) * SQ_SPAN + (x - SQ_MIN)


def sq_xy(i: int) -> tuple[int, int]:
    return i % SQ_SPAN + SQ_MIN, i // SQ_SPAN + SQ_MIN


def cell(cx: int, cy: int) -> int:
    return (cy - CELL_MIN) * CELL_SPAN + (cx - CELL_MIN)


def cell_xy(c: int) -> tuple[int, int]:
    return c % CELL_SPAN + CELL_MIN, c // CELL_SPAN + CELL_MIN


def cell_square(c: int) -> tuple[int, int]:
    cx, cy = cell_xy(c)
    return cx // 3, cy // 3


def middle(x: int, y: int) -> int:
    """The middle cell (villain's field) of square ``(x, y)``."""
    return cell(3 * x + 1, 3 * y + 1)


def arm(x: int, y: int, side: int) -> int:
    """The arm cell of square ``(x, y)`` on ``side``."""
    lx, ly = LOCAL_POS[side + 1]
    return cell(3 * x + lx, 3 * y + ly)


def field_code(c: int) -> int:
    """Field code 0..1279 = square code × 5 + position (see ``LOCAL_POS``)."""
    cx, cy = cell_xy(c)
    sx, sy = cx // 3, cy // 3
    pos = _POS_OF_LOCAL.get((cx - 3 * sx, cy - 3 * sy))
    if pos is None or not in_table(sx, sy):
        raise ValueError(f"cell {cx},{cy} can never be a field")
    return sq_index(sx, sy) * 5 + pos


def field_from_code(code: int) -> int:
    sx, sy = sq_xy(code // 5)
    lx, ly = LOCAL_POS[code % 5]
    return cell(3 * sx + lx, 3 * sy + ly)


def is_field_cell(cx: int, cy: int) -> bool:
    sx, sy = cx // 3, cy // 3
    return in_table(sx, sy) and (cx - 3 * sx, cy - 3 * sy) in _POS_OF_LOCAL


N_FIELDS = N_SQUARES * 5
