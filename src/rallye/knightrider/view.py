"""What one player may see: :func:`view_for` and the :class:`View` value.

A view holds everything public — the map, the cars, the detours, the villain, the cards
played, the escape cards already turned, the last events — plus the viewer's own hand
and only the *sizes* of the other hands. It never holds the escape deck order, the
:class:`~rallye.core.rng.Rng`, the face-down tiles' identities or anyone else's hand.

:func:`render_grid` draws a view as text rows (one character per cell) for terminals and
logs; a richer UI can draw from the same fields: each tile's ``openings`` mask decides
its road cells (the middle plus the middle cell of every open side).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from rallye.core.errors import RecordError
from rallye.core.values import IdentityCache, frozen_builder
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS, MAX_COST
from rallye.knightrider.state import ENTER_PHASE, OVER_PHASE, PHASES, TURN_PHASE, Phase, State
from rallye.knightrider.track import mask_table

XY = tuple[int, int]


@dataclass(frozen=True, slots=True)
class TileView:
    number: int
    x: int
    y: int
    rot: int
    openings: int  # side mask after rotation: bit 0 N, 1 E, 2 S, 3 W


@dataclass(frozen=True, slots=True)
class CarView:
    player: int
    field: XY | None  # cell coordinates; None while waiting beside the start tile
    heading: int
    side: int  # the start opening while waiting, else -1
    roof: bool
    mantle: bool
    reached: tuple[XY, ...]  # target tiles reached (tour variant), square coordinates


@dataclass(frozen=True, slots=True)
class DetourView:
    x: int
    y: int
    kind: str
    rot: int
    player: int


@dataclass(frozen=True, slots=True)
class EventView:
    kind: str
    player: int | None
    value: int | None
    text: str


@dataclass(frozen=True, slots=True)
class EscapeView:
    id: int
    dx: int
    dy: int


@dataclass(frozen=True, slots=True)
class View:
    me: int
    players: int
    phase: Phase
    current: int | None
    start_player: int
    turn: int
    tiles: tuple[TileView, ...]  # laid tiles in laying order
    centre: tuple[XY, ...]  # the four centre squares
    centre_face_down: bool  # centre tiles still lying there face down
    face_down: int  # tiles still face down (pile + centre)
    drawn: int  # the face-up tile being laid (0 none)
    unused: tuple[int, ...]
    villain: XY | None  # cell coordinates
    targets: tuple[XY, ...]  # tour targets, square coordinates
    start_tile: XY | None
    start_choices: tuple[XY, ...]
    cars: tuple[CarView, ...]
    detours: tuple[DetourView, ...]  # in play order (the last on a square is on top)
    roll: int
    pips: int
    used: int
    moved: bool
    move_done: bool
    kitt_played: bool
    detour_played: bool
    hand_kitt: tuple[int, ...]  # own counts, KITT_KINDS order (MANTLE TURBO1 TURBO2 JUMP)
    hand_detour: tuple[int, ...]  # own counts, DETOUR_KINDS order
    hand_sizes: tuple[tuple[int, int], ...]  # (K.I.T.T., detour) cards held, per player
    set_aside: tuple[int, int]
    played: tuple[tuple[int, str], ...]  # K.I.T.T. cards played (player, kind) in order
    escape_turned: tuple[EscapeView, ...]  # turned since the last shuffle, in order
    escape_left: int
    events: tuple[EventView, ...]  # what the last action caused
    winner: int | None
    over: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict (lists and plain values); :meth:`from_json` rebuilds the view."""
        return _to_json(self)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> View:
        """Rebuild a view from its JSON form; one of the wrong shape (a field missing, of
        the wrong type, or out of range) is a :class:`~rallye.core.errors.RecordError`
        naming the field."""
        _check_shape(View, data, "")
        n = data["players"]
        if not 2 <= n <= 5 or not 0 <= data["me"] < n or not (data["current"] is None or 0 <= data["current"] < n):
            raise RecordError(
                "view JSON: 'players' must be 2..5 and 'me', 'current' seats of the game", rule="view-json"
            )
        if len(data["hand_sizes"]) != n:
            raise RecordError("view JSON: 'hand_sizes' needs one entry per player", rule="view-json")
        # what a turn can hold: one die (a Turbo-Boost doubles it or makes it 6), a few cards
        for field, most in (("roll", 6), ("pips", MAX_COST), ("used", data["pips"]), ("escape_left", 11)):
            if not 0 <= data[field] <= most:
                raise RecordError(f"view JSON: field {field!r} must be from 0 to {most}", rule="view-json")
        held = [*data["hand_kitt"], *data["hand_detour"], *(c for pair in data["hand_sizes"] for c in pair)]
        if any(not 0 <= c <= _MAX_CARDS for c in held):
            raise RecordError(f"view JSON: a player holds from 0 to {_MAX_CARDS} cards of a kind", rule="view-json")

        problem = _impossible(data)
        if problem:
            raise RecordError(f"view JSON: {problem}", rule="view-json")

        def xy(v: Any) -> XY | None:
            return None if v is None else (int(v[0]), int(v[1]))

        def xys(v: Any) -> tuple[XY, ...]:
            return tuple((int(a), int(b)) for a, b in v)

        return cls(
            me=data["me"],
            players=data["players"],
            phase=data["phase"],
            current=data["current"],
            start_player=data["start_player"],
            turn=data["turn"],
            tiles=tuple(TileView(**t) for t in data["tiles"]),
            centre=xys(data["centre"]),
            centre_face_down=data["centre_face_down"],
            face_down=data["face_down"],
            drawn=data["drawn"],
            unused=tuple(data["unused"]),
            villain=xy(data["villain"]),
            targets=xys(data["targets"]),
            start_tile=xy(data["start_tile"]),
            start_choices=xys(data["start_choices"]),
            cars=tuple(
                CarView(
                    player=c["player"],
                    field=xy(c["field"]),
                    heading=c["heading"],
                    side=c["side"],
                    roof=c["roof"],
                    mantle=c["mantle"],
                    reached=xys(c["reached"]),
                )
                for c in data["cars"]
            ),
            detours=tuple(DetourView(**d) for d in data["detours"]),
            roll=data["roll"],
            pips=data["pips"],
            used=data["used"],
            moved=data["moved"],
            move_done=data["move_done"],
            kitt_played=data["kitt_played"],
            detour_played=data["detour_played"],
            hand_kitt=tuple(data["hand_kitt"]),
            hand_detour=tuple(data["hand_detour"]),
            hand_sizes=tuple((int(a), int(b)) for a, b in data["hand_sizes"]),
            set_aside=(int(data["set_aside"][0]), int(data["set_aside"][1])),
            played=tuple((int(p), str(k)) for p, k in data["played"]),
            escape_turned=tuple(EscapeView(**e) for e in data["escape_turned"]),
            escape_left=data["escape_left"],
            events=tuple(EventView(**e) for e in data["events"]),
            winner=data["winner"],
            over=data["over"],
        )


_ROTATIONS = (0, 90, 180, 270)


def _impossible(d: dict[str, Any]) -> str | None:
    """What makes a well-typed view (checked by :func:`_check_shape`) impossible, naming
    the field: a value out of its range, a tile or a car listed twice, a winner while the
    game goes on, a detour off the track, and the like."""
    from rallye.knightrider.pieces import TILE_NUMBERS

    n = d["players"]
    seats = range(n)
    if d["phase"] not in PHASES:
        return f"field 'phase' must be one of {', '.join(PHASES)}"
    over = d["phase"] == OVER_PHASE
    if d["over"] != over:
        return "field 'over' must be true exactly when 'phase' is 'over'"
    if d["winner"] is not None and (not over or d["winner"] not in seats):
        return "field 'winner' names a seat only when the game is over"
    if (d["current"] is None) != over:
        return "field 'current' is null exactly when the game is over"
    if d["start_tile"] is None and d["phase"] in (ENTER_PHASE, TURN_PHASE):
        return f"field 'start_tile' is null, but in phase '{d['phase']}' the start tile lies on the table"
    if d["start_player"] not in seats:
        return f"field 'start_player' must be a seat 0..{n - 1}"
    if d["turn"] < 0 or d["face_down"] < 0:
        return "fields 'turn' and 'face_down' must not be negative"
    on_table = range(g.SQ_MIN, g.SQ_MAX + 1)
    named = [("start_tile", d["start_tile"])] + [
        (f"{k}[{i}]", sq) for k in ("centre", "targets", "start_choices") for i, sq in enumerate(d[k])
    ]
    named += [(f"tiles[{i}]", (t["x"], t["y"])) for i, t in enumerate(d["tiles"])]
    named += [(f"detours[{i}]", (t["x"], t["y"])) for i, t in enumerate(d["detours"])]
    for name, sq in named:
        if sq is not None and not (sq[0] in on_table and sq[1] in on_table):
            return f"field '{name}': square {sq[0]},{sq[1]} is off the table ({g.SQ_MIN}..{g.SQ_MAX})"
    fields = [("villain", d["villain"])] + [(f"cars[{i}].field", c["field"]) for i, c in enumerate(d["cars"])]
    for name, cell in fields:
        if cell is not None and not g.is_field_cell(cell[0], cell[1]):
            return f"field '{name}': {cell[0]},{cell[1]} is not a field of the table"
    if min(d["set_aside"]) < 0:
        return "field 'set_aside' must not be negative"
    squares: set[tuple[int, int]] = set()
    numbers: set[int] = set()
    for i, t in enumerate(d["tiles"]):
        if t["number"] not in TILE_NUMBERS:
            return f"field 'tiles[{i}].number' is {t['number']}, not a tile of the box (11..66)"
        if t["number"] in numbers:
            return f"field 'tiles[{i}]': tile {t['number']} is listed twice"
        if (t["x"], t["y"]) in squares:
            return f"field 'tiles[{i}]': square {t['x']},{t['y']} holds two tiles"
        if t["rot"] not in _ROTATIONS or not 0 <= t["openings"] <= 15:
            return f"field 'tiles[{i}]': 'rot' must be 0, 90, 180 or 270 and 'openings' a side mask 0..15"
        numbers.add(t["number"])
        squares.add((t["x"], t["y"]))
    if d["drawn"] and (d["drawn"] not in TILE_NUMBERS or d["drawn"] in numbers):
        return f"field 'drawn' is {d['drawn']}, not a tile still to lay"
    players = [c["player"] for c in d["cars"]]  # a car is set down as its seat enters the road
    if any(p not in seats for p in players) or len(set(players)) != len(players):
        return "field 'cars' must hold at most one car per seat"
    if len(players) != n and d["phase"] in (TURN_PHASE, OVER_PHASE):
        return f"field 'cars' must hold a car per seat in phase '{d['phase']}'"
    for i, c in enumerate(d["cars"]):
        if not 0 <= c["heading"] <= 3 or not -1 <= c["side"] <= 3:
            return f"field 'cars[{i}]': 'heading' must be 0..3 and 'side' -1..3"
    per_square: dict[tuple[int, int], int] = {}
    for i, det in enumerate(d["detours"]):
        if det["kind"] not in DETOUR_KINDS:
            return f"field 'detours[{i}].kind' must be one of {', '.join(DETOUR_KINDS)}"
        if det["rot"] not in _ROTATIONS or det["player"] not in seats:
            return f"field 'detours[{i}]': 'rot' must be 0, 90, 180 or 270 and 'player' a seat"
        sq = (det["x"], det["y"])
        if sq not in squares:
            return f"field 'detours[{i}]': square {sq[0]},{sq[1]} holds no tile"
        per_square[sq] = per_square.get(sq, 0) + 1
        if per_square[sq] > 3:
            return f"field 'detours[{i}]': more than 3 detour cards on square {sq[0]},{sq[1]}"
    for i, (player, kind) in enumerate(d["played"]):
        if player not in seats or kind not in KITT_KINDS:
            return f"field 'played[{i}]' must be a seat and one of {', '.join(KITT_KINDS)}"
    if len(d["hand_kitt"]) != len(KITT_KINDS) or len(d["hand_detour"]) != len(DETOUR_KINDS):
        return f"fields 'hand_kitt' and 'hand_detour' need {len(KITT_KINDS)} and {len(DETOUR_KINDS)} counts"
    if len(d["centre"]) not in (0, 4) or len(set(map(tuple, d["centre"]))) != len(d["centre"]):
        return "field 'centre' must list the four centre squares once each"
    return None


def _check_shape(kind: Any, value: Any, path: str) -> None:
    """Check JSON ``value`` against the type ``kind`` of a view field (ints, bools,
    strings, ``None`` options, tuples as lists, the view's dataclasses as objects)."""

    def bad(what: str) -> RecordError:
        return RecordError(f"view JSON: field '{path or 'view'}' must be {what}", rule="view-json")

    if kind is Any:
        return
    if isinstance(kind, type) and hasattr(kind, "__dataclass_fields__"):
        if not isinstance(value, dict):
            raise bad("an object")
        hints = _hints(kind)
        for f in fields(kind):
            if f.name not in value:
                where = f"{path}.{f.name}" if path else f.name
                raise RecordError(f"view JSON: missing field '{where}'", rule="view-json")
            _check_shape(hints[f.name], value[f.name], f"{path}.{f.name}" if path else f.name)
        return
    origin, args = get_origin(kind), get_args(kind)
    if origin is Literal:  # (the phase) a value of the literals' type; which value, _impossible checks
        kind = type(args[0])
    if origin is UnionType or origin is Union:
        if value is None and type(None) in args:
            return
        _check_shape(next(a for a in args if a is not type(None)), value, path)
        return
    if origin is tuple:
        if not isinstance(value, list):
            raise bad("a list")
        if len(args) == 2 and args[1] is Ellipsis:
            for i, x in enumerate(value):
                _check_shape(args[0], x, f"{path}[{i}]")
        elif len(value) != len(args):
            raise bad(f"a list of {len(args)}")
        else:
            for i, (a, x) in enumerate(zip(args, value, strict=True)):
                _check_shape(a, x, f"{path}[{i}]")
        return
    if kind is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
    elif kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad("an integer")
        if not -_MAX_INT <= value <= _MAX_INT:  # no coordinate, count or turn of a game comes near
            raise bad(f"from {-_MAX_INT:,} to {_MAX_INT:,}")
    elif kind is str and not isinstance(value, str):
        raise bad("a string")


_HINTS: dict[type, dict[str, Any]] = {}
_MAX_INT = 10**7
_MAX_CARDS = 20


def _hints(kind: type) -> dict[str, Any]:
    if kind not in _HINTS:
        _HINTS[kind] = get_type_hints(kind)
    return _HINTS[kind]


def _to_json(v: Any) -> Any:
    if hasattr(v, "__dataclass_fields__"):
        return {f.name: _to_json(getattr(v, f.name)) for f in fields(v)}
    if isinstance(v, tuple):
        return [_to_json(x) for x in v]
    return v


_TILE_CACHE: dict[tuple[int, tuple[tuple[int, int, int, int], ...]], tuple[object, tuple[TileView, ...]]] = {}
_LAID_SEEN: dict[int, tuple[object, object, tuple[TileView, ...]]] = {}


def _tile_views(pieces: Any, laid: tuple[tuple[int, int, int, int], ...]) -> tuple[TileView, ...]:
    """The tile views of a map; the map only changes while building, so they are cached
    by value and, in front of that, by the identity of ``laid`` (hashing the map on every
    call cost more than the rest of a view). The entries keep ``pieces`` and ``laid``
    alive, so their ids cannot be reused while cached."""
    seen = _LAID_SEEN.get(id(laid))
    if seen is not None and seen[0] is laid and seen[1] is pieces:
        return seen[2]
    key = (id(pieces), laid)
    hit = _TILE_CACHE.get(key)
    if hit is not None:
        tiles = hit[1]
    else:
        masks = mask_table(pieces)
        tiles = tuple(TileView(n, x, y, rot, masks[n][rot // 90]) for n, x, y, rot in laid)
        if len(_TILE_CACHE) >= 256:
            _TILE_CACHE.clear()
        _TILE_CACHE[key] = (pieces, tiles)
    if len(_LAID_SEEN) >= 256:
        _LAID_SEEN.clear()
    _LAID_SEEN[id(laid)] = (laid, pieces, tiles)
    return tiles


_new_view = frozen_builder(View)
_new_car = frozen_builder(CarView)
_new_detour = frozen_builder(DetourView)
_new_event = frozen_builder(EventView)
_new_escape = frozen_builder(EscapeView)


def _one_car(c: Any) -> CarView:
    view: CarView = _new_car(
        c.player,
        g.cell_xy(c.cell) if c.cell >= 0 else None,
        c.heading,
        c.side,
        c.roof,
        c.mantle,
        tuple(map(g.sq_xy, c.reached)) if c.reached else (),
    )
    return view


_car_view = IdentityCache(_one_car, 256)
_card_counts = IdentityCache(lambda hands: tuple(map(sum, hands)), 64)
_cars_view = IdentityCache(lambda cars: tuple(map(_car_view, cars)), 64)
_detours_view = IdentityCache(
    lambda detours: tuple(_new_detour(*g.sq_xy(sq), kind, rot, p) for sq, kind, rot, p in detours), 64
)
_events_view = IdentityCache(lambda events: tuple(_new_event(e.kind, e.player, e.value, e.text) for e in events), 64)
_TURNED: dict[tuple[int, int], tuple[tuple[int, ...], Any, tuple[EscapeView, ...]]] = {}


def _turned_view(pieces: Any, deck: tuple[int, ...], pos: int) -> tuple[EscapeView, ...]:
    """The escape cards turned: ``deck[:pos]`` as views (cached by the deck's identity)."""
    hit = _TURNED.get((id(deck), pos))
    if hit is not None and hit[0] is deck and hit[1] is pieces:
        return hit[2]
    cards = pieces.escape
    turned = tuple(_new_escape(cards[i].id, cards[i].dx, cards[i].dy) for i in deck[:pos])
    if len(_TURNED) >= 64:
        _TURNED.clear()
    _TURNED[(id(deck), pos)] = (deck, pieces, turned)
    return turned


def view_for(state: State, player: int) -> View:
    """Player ``player``'s view of ``state`` (0-based seat)."""
    if not 0 <= player < state.players:
        raise ValueError(f"no player {player} in a {state.players}-player game")
    pieces = state.pieces
    phase = state.phase
    escape_deck = state.escape_deck
    escape_pos = state.escape_pos
    kitt_hands = state.kitt_hands
    detour_hands = state.detour_hands
    view: View = _new_view(
        player,
        state.players,
        phase,
        None if phase == OVER_PHASE else state.current,
        state.start_player,
        state.turn,
        _tile_views(pieces, state.laid),
        g.CENTRE,
        bool(state.centre),
        len(state.pile) + len(state.centre),
        state.drawn,
        state.unused,
        g.cell_xy(state.villain) if state.villain >= 0 else None,
        tuple(map(g.sq_xy, state.targets)) if state.targets else (),
        g.sq_xy(state.start_sq) if state.start_sq >= 0 else None,
        tuple(map(g.sq_xy, state.start_choices)) if state.start_choices else (),
        _cars_view(state.cars),
        _detours_view(state.detours),
        state.roll,
        state.pips,
        state.used,
        state.moved,
        state.move_done,
        state.kitt_played,
        state.detour_played,
        kitt_hands[player],
        detour_hands[player],
        tuple(zip(_card_counts(kitt_hands), _card_counts(detour_hands), strict=False)),
        state.set_aside,
        state.played,
        _turned_view(pieces, escape_deck, escape_pos) if escape_pos else (),
        len(escape_deck) - escape_pos,
        _events_view(state.events),
        state.winner,
        phase == OVER_PHASE,
    )
    return view


_DETOUR_CHAR = {"STRAIGHT": "S", "DEADEND": "D", "ROADBLOCK": "X", "RIGHT": "R", "LEFT": "L"}


def render_grid(view: View, *, margin: int = 0) -> list[str]:
    """The map as text rows, one character per cell, north up.

    ``#`` built-up, ``.`` road, ``~`` the centre (face-down tiles or the escape pile),
    blank: no tile; ``1``–``5`` a car (by seat + 1; ``&`` two cars), ``V`` the villain
    (``!`` villain and a car), ``X`` a roadblock, ``S D R L`` the top detour card
    (straight, dead end, right, left curve) on a middle field without a car.
    """
    squares = [(t.x, t.y) for t in view.tiles] + list(view.centre)
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    w, h = 3 * (x1 - x0 + 1), 3 * (y1 - y0 + 1)
    grid = [[" "] * w for _ in range(h)]

    def put(cx: int, cy: int, ch: str) -> None:
        gx, gy = cx - 3 * x0, cy - 3 * y0
        if 0 <= gx < w and 0 <= gy < h:
            grid[gy][gx] = ch

    for x, y in view.centre:
        for i in range(3):
            for j in range(3):
                put(3 * x + i, 3 * y + j, "~")
    for t in view.tiles:
        for i in range(3):
            for j in range(3):
                put(3 * t.x + i, 3 * t.y + j, "#")
        put(3 * t.x + 1, 3 * t.y + 1, ".")
        for d in range(4):
            if (t.openings >> d) & 1:
                lx, ly = g.LOCAL_POS[d + 1]
                put(3 * t.x + lx, 3 * t.y + ly, ".")
    for det in view.detours:
        put(3 * det.x + 1, 3 * det.y + 1, _DETOUR_CHAR[det.kind])
    count: dict[XY, list[int]] = {}
    for c in view.cars:
        if c.field is not None:
            count.setdefault(c.field, []).append(c.player)
    for (cx, cy), ps in count.items():
        put(cx, cy, str(ps[0] + 1) if len(ps) == 1 else "&")
    if view.villain is not None:
        put(view.villain[0], view.villain[1], "!" if view.villain in count else "V")
    return ["".join(r) for r in grid]


def hand_names(view: View, lang: str = "de") -> list[str]:
    """The viewer's hand as card names (German by default)."""
    from rallye.knightrider.names import card_name

    out: list[str] = []
    for k, n in zip(KITT_KINDS, view.hand_kitt, strict=False):
        out += [card_name(k, lang)] * n
    for k, n in zip(DETOUR_KINDS, view.hand_detour, strict=False):
        out += [card_name(k, lang)] * n
    return out
