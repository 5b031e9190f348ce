"""Knight Rider actions: small hashable values, their text notation and integer codes.

Notation (``str(action)``; :func:`parse_action` reads it back)::

    place 23 at 1,-2 rot 90      lay the drawn tile 23 on square (1,-2) turned 90° clockwise
    place at 1,-2 rot 90         the same, tile number left out (code form)
    start at 3,2                 start player picks the start tile among equally far ones
    enter N                      wait at the start tile's north opening (N E S W)
    move 4,-4N 4,-5N 5,-5E =4    drive this path (field x,y and heading after each step),
                                 using 4 pips; a jumped field is marked ``*`` and the move
                                 then ends with `` jump`` (plays Blockier-Sprung)
    move 4,-5N 4,-5E =2          a last step on the field of the one before is a turn there,
                                 at the end of the move (``move 4,-5E =1``: a turn alone,
                                 where the car stands)
    move to 5,-5E =4             the same move by destination only (code form)
    kitt MANTLE | TURBO1 | TURBO2
    detour RIGHT at 1,-2 rot 90  lay a detour card on the middle field of square (1,-2)
    end                          turn the escape card (ends the turn)
    recover                      a car on its roof turns back onto its wheels (whole turn)

Fields are global cell coordinates: square (x, y) has cells (3x..3x+2, 3y..3y+2); its
middle is (3x+1, 3y+1). x grows east, y south.

A move's identity is ``(destination, heading, cost, jump)``: every path with these has the
same effect, so the engine lists one canonical path per identity. A ``Move`` compares and
hashes by identity only (``path`` is carried for display and checked by ``apply`` when
given). Likewise a ``Place`` compares by square and rotation (the tile is the drawn one).

Integer codes (``encode_action`` / ``decode_action``), a fixed space of
``ACTION_SPACE`` = 139,529 codes:

=============  =====================================================================
0              end
1              recover
2..4           kitt MANTLE, TURBO1, TURBO2
5..8           enter N, E, S, W
9 + 4·sq + r   place at square ``sq`` with rotation ``r`` (0..3 quarter turns)
PLACE_END + sq start at square ``sq``
DETOUR0 + (5·sq + kind)·4 + r   detour ``kind`` (STRAIGHT, DEADEND, ROADBLOCK, RIGHT,
               LEFT) at square ``sq`` rotation ``r``
MOVE0 + ((4·field + heading)·13 + cost)·2 + jump   move to ``field`` (0..1279, square
               code × 5 + position 0 middle/1 N/2 E/3 S/4 W arm) facing ``heading``
               using ``cost`` pips (0..12)
=============  =====================================================================

``sq`` = ``(y + 8)·16 + (x + 8)`` for squares ``-8 <= x, y <= 7``. Decoding without a
state gives the code form (no tile number, no path); with a state it gives the listed
legal action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rallye.core.errors import InvalidNotation
from rallye.knightrider import geometry as g

KITT_KINDS = ("MANTLE", "TURBO1", "TURBO2", "JUMP")
PLAYABLE_KITT = ("MANTLE", "TURBO1", "TURBO2")
DETOUR_KINDS = ("STRAIGHT", "DEADEND", "ROADBLOCK", "RIGHT", "LEFT")
#: Distinct rotations (degrees) of each detour card.
DETOUR_ROTATIONS = {
    "STRAIGHT": (0, 90),
    "DEADEND": (0, 90, 180, 270),
    "ROADBLOCK": (0,),
    "RIGHT": (0, 90, 180, 270),
    "LEFT": (0, 90, 180, 270),
}
MAX_COST = 12


def detour_sides(kind: str, rot: int) -> int:
    """The side mask a detour keeps connected to the middle field.

    STRAIGHT rot 0 is north–south; DEADEND rot r keeps the one side r points to;
    RIGHT/LEFT rot r is the curve met when driving in heading r (from the opposite side)
    and turning right/left. ROADBLOCK keeps all (its field is an obstacle instead).
    """
    h = rot // 90
    if kind == "STRAIGHT":
        return (1 << h) | (1 << ((h + 2) % 4))
    if kind == "DEADEND":
        return 1 << h
    if kind == "RIGHT":
        return (1 << ((h + 2) % 4)) | (1 << ((h + 1) % 4))
    if kind == "LEFT":
        return (1 << ((h + 2) % 4)) | (1 << ((h + 3) % 4))
    return 0xF


@dataclass(frozen=True, slots=True)
class Place:
    x: int
    y: int
    rot: int
    number: int = field(default=0, compare=False)

    def __str__(self) -> str:
        num = f" {self.number}" if self.number else ""
        return f"place{num} at {self.x},{self.y} rot {self.rot}"


@dataclass(frozen=True, slots=True)
class StartAt:
    x: int
    y: int

    def __str__(self) -> str:
        return f"start at {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class Enter:
    side: int

    def __str__(self) -> str:
        return f"enter {g.DIRS[self.side]}"


Step = tuple[int, int, int, bool]  # field x, field y, heading after the step, jumped over


@dataclass(frozen=True, slots=True)
class Move:
    x: int
    y: int
    heading: int
    cost: int
    jump: bool = False
    path: tuple[Step, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        tail = f" ={self.cost}" + (" jump" if self.jump else "")
        if not self.path:
            return f"move to {self.x},{self.y}{g.DIRS[self.heading]}{tail}"
        steps = " ".join(f"{x},{y}{g.DIRS[h]}{'*' if j else ''}" for x, y, h, j in self.path)
        return f"move {steps}{tail}"

    def key(self) -> Move:
        """The code form (no path)."""
        return Move(self.x, self.y, self.heading, self.cost, self.jump)


@dataclass(frozen=True, slots=True)
class PlayKitt:
    kind: str

    def __str__(self) -> str:
        return f"kitt {self.kind}"


@dataclass(frozen=True, slots=True)
class PlayDetour:
    kind: str
    x: int
    y: int
    rot: int

    def __str__(self) -> str:
        return f"detour {self.kind} at {self.x},{self.y} rot {self.rot}"


@dataclass(frozen=True, slots=True)
class End:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Recover:
    def __str__(self) -> str:
        return "recover"


Action = Place | StartAt | Enter | Move | PlayKitt | PlayDetour | End | Recover

# ----------------------------------------------------------------------------- parsing

_INT = r"(-?\d{1,6})"  # a square or field coordinate; a longer number is no square of any map
_XY = _INT + "," + _INT
_RE_PLACE = re.compile(r"place(?: (\d{1,6}))? at " + _XY + r" rot (-?\d{1,6})")
_RE_START = re.compile(r"start at " + _XY)
_RE_ENTER = re.compile(r"enter ([NESW])")
_RE_MOVE = re.compile(r"move (to )?(.+?) =(\d{1,6})( jump)?")
_RE_STEP = re.compile(_XY + r"([NESW])(\*?)")
_RE_KITT = re.compile(r"kitt (\w+)")
_RE_DETOUR = re.compile(r"detour (\w+) at " + _XY + r" rot (-?\d{1,6})")
_ROTATIONS = (0, 90, 180, 270)


def parse_action(text: str) -> Action:
    """Read an action from its notation.

    >>> parse_action("place 23 at 1,-2 rot 90")
    Place(x=1, y=-2, rot=90, number=23)
    >>> str(parse_action("move 4,-4N 4,-5N* 4,-6N =2 jump"))
    'move 4,-4N 4,-5N* 4,-6N =2 jump'
    """
    t = " ".join(text.strip().split())
    if t == "end":
        return End()
    if t == "recover":
        return Recover()
    m = _RE_PLACE.fullmatch(t)
    if m:
        if int(m[4]) not in _ROTATIONS:
            raise InvalidNotation(
                f"invalid action {text!r}: a tile is turned by 0, 90, 180 or 270 degrees, not {m[4]}", rule="notation"
            )
        return Place(int(m[2]), int(m[3]), int(m[4]), int(m[1]) if m[1] else 0)
    m = _RE_START.fullmatch(t)
    if m:
        return StartAt(int(m[1]), int(m[2]))
    m = _RE_ENTER.fullmatch(t)
    if m:
        return Enter(g.DIRS.index(m[1]))
    m = _RE_MOVE.fullmatch(t)
    if m:
        cost = int(m[3])
        jump = bool(m[4])
        if cost > MAX_COST:
            raise InvalidNotation(f"invalid move {text!r}: cost {cost} above {MAX_COST}", rule="notation")
        steps: list[Step] = []
        for part in m[2].split(" "):
            sm = _RE_STEP.fullmatch(part)
            if not sm:
                raise InvalidNotation(f"invalid move {text!r}: step {part!r} is not like 4,-5N", rule="notation")
            steps.append((int(sm[1]), int(sm[2]), g.DIRS.index(sm[3]), bool(sm[4])))
        if m[1]:
            if len(steps) != 1 or steps[0][3]:
                raise InvalidNotation(f"invalid move {text!r}: 'move to' takes one field", rule="notation")
            x, y, h, _ = steps[0]
            return Move(x, y, h, cost, jump)
        jumps = sum(1 for s in steps if s[3])
        if jumps != (1 if jump else 0):
            raise InvalidNotation(
                f"invalid move {text!r}: a jump move marks exactly one field with '*' and ends with 'jump'",
                rule="notation",
            )
        if steps[-1][3]:
            raise InvalidNotation(f"invalid move {text!r}: a move cannot end on the jumped field", rule="notation")
        x, y, h, _ = steps[-1]
        return Move(x, y, h, cost, jump, tuple(steps))
    m = _RE_KITT.fullmatch(t)
    if m:
        if m[1] not in PLAYABLE_KITT:
            hint = " (Blockier-Sprung is played as a 'move ... jump')" if m[1] == "JUMP" else ""
            raise InvalidNotation(
                f"invalid action {text!r}: K.I.T.T. card is one of {', '.join(PLAYABLE_KITT)}{hint}", rule="notation"
            )
        return PlayKitt(m[1])
    m = _RE_DETOUR.fullmatch(t)
    if m:
        kind, rot = m[1], int(m[4])
        if rot not in _ROTATIONS:
            raise InvalidNotation(
                f"invalid action {text!r}: a detour card is turned by 0, 90, 180 or 270 degrees, not {rot}",
                rule="notation",
            )
        if kind not in DETOUR_KINDS:
            raise InvalidNotation(
                f"invalid action {text!r}: detour is one of {', '.join(DETOUR_KINDS)}", rule="notation"
            )
        if rot not in DETOUR_ROTATIONS[kind]:
            raise InvalidNotation(f"invalid action {text!r}: {kind} turns to {DETOUR_ROTATIONS[kind]}", rule="notation")
        return PlayDetour(kind, int(m[2]), int(m[3]), rot)
    raise InvalidNotation(
        f"invalid action {text!r}: expected place/start/enter/move/kitt/detour/end/recover", rule="notation"
    )


# ----------------------------------------------------------------------------- codes

END_CODE = 0
RECOVER_CODE = 1
KITT0 = 2
ENTER0 = 5
PLACE0 = 9
START0 = PLACE0 + 4 * g.N_SQUARES
DETOUR0 = START0 + g.N_SQUARES
MOVE0 = DETOUR0 + g.N_SQUARES * 5 * 4
ACTION_SPACE = MOVE0 + g.N_FIELDS * 4 * (MAX_COST + 1) * 2


def _sq(x: int, y: int, what: object) -> int:
    if not (g.SQ_MIN <= x <= g.SQ_MAX and g.SQ_MIN <= y <= g.SQ_MAX):
        raise InvalidNotation(f"{what}: square {x},{y} is off the table (-8..7)", rule="action-code")
    return (y - g.SQ_MIN) * g.SQ_SPAN + (x - g.SQ_MIN)


def encode_action(action: Action) -> int:
    """The stable integer code of an action (see the module docstring)."""
    if isinstance(action, End):
        return END_CODE
    if isinstance(action, Recover):
        return RECOVER_CODE
    if isinstance(action, PlayKitt):
        return KITT0 + PLAYABLE_KITT.index(action.kind)
    if isinstance(action, Enter):
        return ENTER0 + action.side
    if isinstance(action, Place):
        return PLACE0 + 4 * _sq(action.x, action.y, action) + action.rot // 90
    if isinstance(action, StartAt):
        return START0 + _sq(action.x, action.y, action)
    if isinstance(action, PlayDetour):
        sq = _sq(action.x, action.y, action)
        return DETOUR0 + (5 * sq + DETOUR_KINDS.index(action.kind)) * 4 + action.rot // 90
    if isinstance(action, Move):
        if not g.is_field_cell(action.x, action.y):
            raise InvalidNotation(f"{action}: {action.x},{action.y} is never a field", rule="action-code")
        fc = g.field_code(g.cell(action.x, action.y))
        return MOVE0 + ((4 * fc + action.heading) * (MAX_COST + 1) + action.cost) * 2 + int(action.jump)
    raise InvalidNotation(f"not a Knight Rider action: {action!r}", rule="action-code")


def decode_code(code: int) -> Action:
    """The code form of an action code (no state needed; no tile number, no path)."""
    if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < ACTION_SPACE:
        raise InvalidNotation(f"action code {code!r} outside 0..{ACTION_SPACE - 1}", rule="action-code")
    if code == END_CODE:
        return End()
    if code == RECOVER_CODE:
        return Recover()
    if code < ENTER0:
        return PlayKitt(PLAYABLE_KITT[code - KITT0])
    if code < PLACE0:
        return Enter(code - ENTER0)
    if code < START0:
        sq, r = divmod(code - PLACE0, 4)
        x, y = g.sq_xy(sq)
        return Place(x, y, 90 * r)
    if code < DETOUR0:
        x, y = g.sq_xy(code - START0)
        return StartAt(x, y)
    if code < MOVE0:
        rest, r = divmod(code - DETOUR0, 4)
        sq, k = divmod(rest, 5)
        kind = DETOUR_KINDS[k]
        if 90 * r not in DETOUR_ROTATIONS[kind]:
            raise InvalidNotation(f"action code {code}: {kind} has no rotation {90 * r}", rule="action-code")
        x, y = g.sq_xy(sq)
        return PlayDetour(kind, x, y, 90 * r)
    rest, jump = divmod(code - MOVE0, 2)
    rest, cost = divmod(rest, MAX_COST + 1)
    fc, heading = divmod(rest, 4)
    cx, cy = g.cell_xy(g.field_from_code(fc))
    return Move(cx, cy, heading, cost, bool(jump))
