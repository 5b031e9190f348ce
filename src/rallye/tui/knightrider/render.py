"""Rich rendering of what one Knight Rider player may see.

Everything here takes a :class:`~rallye.knightrider.view.View` (or the public piece data:
the tile shapes printed in the box), never a state: the terminal cannot show what a
player may not see [DESIGN habit 8]. Passing anything else is a ``TypeError``.

The map draws every cell of the 3×3 tiles two characters wide: built-up cells ``▒▒``,
road cells on a grey ground, the centre ``░░`` (the escape pile, its card count in the
middle), cars as seat number + heading arrow (``2→``; ``2x`` on its roof; ``12`` two
cars side by side), the villain ``VV`` on red, detour cards as a letter and the roads
they keep (``R┘`` a right curve joining west and north; ``XX`` a roadblock), and the
person's move choices as ``#1`` … ``#9`` (never a bare digit, which would read as a car).
Both coordinate systems of the notation are on the axes: squares (tiles: ``place at``,
``detour … at``) in bold, fields (the road cells cars stand on: ``move to``) in grey, and
every coordinate elsewhere on screen says which it is ("square 3,-1", "field 10,-2").
Seats are ``P1`` … everywhere (the map's car ``2`` is P2's; the rulebook's car numbers,
the start player's car being "1", are not shown). Every word comes from the ``kr``
catalog in the screen's language (German by default).

>>> import io
>>> from rallye.knightrider import Options, new_game, view_for
>>> from rich.console import Console
>>> v = view_for(new_game(3, seed=7, options=Options(quick_build=True)), 0)
>>> c = Console(file=io.StringIO(), width=120, record=True, color_system=None)
>>> c.print(map_panel(v, Labels.for_view(v)))
>>> "VV" in c.export_text()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rallye.i18n import LANGUAGES as UI_LANGUAGES
from rallye.i18n import Translator, translator
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import (
    DETOUR_KINDS,
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
    detour_sides,
)
from rallye.knightrider.pieces import Pieces, rotate_mask
from rallye.knightrider.state import BUILD_PHASE, TURN_PHASE
from rallye.knightrider.track import compute_links, road_distances
from rallye.knightrider.view import CarView, EventView, View
from rallye.tui.words import bot_name, common, compose, summary_row

XY = tuple[int, int]

ARROWS = "↑→↓←"
SIDE_WORDS = ("north", "east", "south", "west")
#: A colour per seat (the villain's car is the red one).
SEAT_STYLES = ("bold cyan", "bold yellow", "bold green", "bold magenta", "bold blue")
_SEAT_BG = ("on dark_cyan", "on yellow4", "on dark_green", "on dark_magenta", "on blue")
DETOUR_LETTER = {"STRAIGHT": "S", "DEADEND": "D", "ROADBLOCK": "X", "RIGHT": "R", "LEFT": "L"}
#: Box-drawing glyph for the sides a detour (or a tile) keeps connected (bit 0 N … 3 W).
_SIDES_GLYPH = {
    0b0101: "│",
    0b1010: "─",
    0b0011: "└",
    0b0110: "┌",
    0b1100: "┐",
    0b1001: "┘",
    0b0001: "╵",
    0b0010: "╶",
    0b0100: "╷",
    0b1000: "╴",
    0b0111: "├",
    0b1110: "┬",
    0b1101: "┤",
    0b1011: "┴",
}

_ROAD = "on grey35"
_ROAD_DOTS = "grey58 on grey35"
_ROAD_CELL = "··"
_BUILT = "green4"
_CENTRE = "blue"
_EMPTY_CANDIDATE = "on grey15"
#: The start tile's and the target tiles' built-up cells: their own glyphs (a colour alone is
#: lost on a screen without colours, and in the legend's one line).
_START_CELL, _START = "▓▓", "dark_orange"
_TARGET_CELL, _TARGET = "▚▚", "magenta"


def require_view(view: object) -> View:
    if not isinstance(view, View):
        raise TypeError(f"the terminal renders a player's view (view_for(state, seat)), not {type(view).__name__}")
    return view


def pick_language(lang: str | None) -> tuple[str, str | None]:
    """The language of the words (German by default: the ``kr`` catalog has every one,
    card names too, in German, Hungarian, English and French) and a note when ``lang`` is
    none of them.

    >>> pick_language(None)
    ('de', None)
    >>> pick_language("fr"), pick_language("hu")
    (('fr', None), ('hu', None))
    >>> pick_language("it")[0]
    'en'
    """
    if lang is None:
        return "de", None
    if lang in UI_LANGUAGES:
        return lang, None
    return "en", f"Knight Rider has no texts in {lang!r} (it has {', '.join(UI_LANGUAGES)}); showing 'en'"


@dataclass(frozen=True)
class Labels:
    """How seats are called on screen, the language of every word (card names too: the
    ``kr`` catalog has them in all four languages), the box's tile shapes."""

    lang: str = "de"
    seat_tags: tuple[str, ...] = ()
    me: int | None = None
    pieces: Pieces | None = field(default=None, compare=False)
    t: Translator = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "t", translator(self.lang if self.lang in UI_LANGUAGES else "en", "kr"))

    @classmethod
    def for_view(
        cls,
        view: View,
        tags: Mapping[int, str] | None = None,
        lang: str | None = None,
        pieces: Pieces | None = None,
    ) -> Labels:
        v = require_view(view)
        tags = tags or {}
        ui = lang if lang in UI_LANGUAGES else "de"
        return cls(ui, tuple(tags.get(s, "") for s in range(v.players)), v.me, pieces)

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return "—"
        tag = self.seat_tags[seat] if seat < len(self.seat_tags) else ""
        if tag in ("you", "human"):
            tag = self.t(f"tag.{tag}")
        elif tag:
            tag = bot_name(self.lang, tag)
        name = self.t("seat", n=seat + 1)
        return f"{name} ({tag})" if tag else name

    def seat_text(self, seat: int | None) -> Text:
        if seat is None:
            return Text("—")
        return Text(self.seat(seat), style=SEAT_STYLES[seat % len(SEAT_STYLES)])

    def card(self, kind: str) -> str:
        return self.t(f"card.{kind}")

    def at_square(self, x: int, y: int) -> str:
        """A square (where a tile lies; ``place at``, ``detour … at``): ``square 3,-1``."""
        return self.t("square", xy=f"{x},{y}")

    def at_field(self, x: int, y: int) -> str:
        """A field (a road cell a car stands on; ``move to``): ``field 10,-2``."""
        return self.t("field", xy=f"{x},{y}")

    def direction(self, d: int) -> str:
        return self.t(f"dir.{g.DIRS[d]}")


# -- road distances from the view ----------------------------------------------------------
def road_distance_map(view: View) -> dict[XY, int]:
    """Fields (cell coordinates) → shortest way in fields to the villain, by the roads
    the view shows (tiles' openings under the topmost detour cards); turns not counted."""
    v = require_view(view)
    if v.villain is None:
        return {}
    board = [0] * g.N_SQUARES
    masks: dict[int, tuple[int, ...]] = {}
    for t in v.tiles:
        board[g.sq_index(t.x, t.y)] = t.number * 4 + 1
        masks[t.number] = (t.openings,) * 4
    detours = tuple((g.sq_index(d.x, d.y), d.kind, d.rot, d.player) for d in v.detours)
    links = compute_links(tuple(board), masks, detours)
    dist = road_distances(links, g.cell(*v.villain))
    return {g.cell_xy(c): d for c, d in dist.items()}


# -- the map ------------------------------------------------------------------------------
def _tile_cells(openings: int) -> list[XY]:
    cells = [(1, 1)]
    for d in range(4):
        if (openings >> d) & 1:
            cells.append(g.LOCAL_POS[d + 1])
    return cells


def _car_cell(cars: Sequence[CarView], villain: bool) -> Text:
    if len(cars) >= 2:
        label = "".join(str(c.player + 1) for c in cars[:2])
        return Text(label, style="bold white on red" if villain else "bold white on grey15")
    c = cars[0]
    mark = "x" if c.roof else ARROWS[c.heading]
    style = "bold white on red" if villain else f"{SEAT_STYLES[c.player % 5]} {_ROAD}"
    if c.mantle:
        style += " underline"
    if c.roof:
        style += " reverse"
    return Text(f"{c.player + 1}{mark}", style=style)


def detour_glyph(kind: str, rot: int) -> str:
    """Two characters for a detour card: its letter and the roads it keeps (``R┘``)."""
    if kind == "ROADBLOCK":
        return "XX"
    return DETOUR_LETTER[kind] + _SIDES_GLYPH[detour_sides(kind, rot)]


def move_mark(n: int) -> str:
    """How move ``n`` is marked on the map: ``#3`` (a car is a seat number and an arrow,
    ``3→``, so the two cannot be mistaken); moves past the ninth are not marked."""
    return f"#{n}" if 1 <= n <= 9 else ""


def map_panel(
    view: View,
    labels: Labels,
    *,
    cell_marks: Mapping[XY, str] | None = None,
    square_marks: Mapping[XY, str] | None = None,
    title: str | None = None,
    rows: int | None = None,
) -> Panel:
    """The map, north up, labelled in both coordinate systems the notation uses: squares
    (tiles; ``place at``, ``detour … at``) along the top and down the left in bold, and
    fields (the road cells cars stand on; ``move to``) in grey: every field row on the
    left, each square's middle field column along the top.

    ``cell_marks`` puts a short label (a move's ``#n``) on fields; ``square_marks`` puts
    one on an empty square (a building candidate). With ``rows`` (the terminal's lines
    left for it) a map taller than that shows the square rows around the villain and the
    person's car (the villain's if both do not fit; the centre before the chase), and says
    how many it leaves out.
    """
    v = require_view(view)
    cell_marks = cell_marks or {}
    square_marks = square_marks or {}
    squares = [(t.x, t.y) for t in v.tiles] + list(v.centre) + list(square_marks)
    x0 = min(x for x, _ in squares)
    x1 = max(x for x, _ in squares)
    y0 = min(y for _, y in squares)
    y1 = max(y for _, y in squares)
    north = south = 0
    if rows is not None and 3 * (y1 - y0 + 1) > rows:
        fit = max(1, rows // 3)
        mine = next((c.field for c in v.cars if c.player == labels.me and c.field is not None), None)
        focus = [p[1] // 3 for p in (v.villain, mine) if p is not None] or [min((y for _, y in v.centre), default=0)]
        if max(focus) - min(focus) >= fit:  # both cannot be shown: the villain's row is
            focus = focus[:1]
        mid = (min(focus) + max(focus)) // 2
        top = min(max(y0, mid - (fit - 1) // 2), y1 - fit + 1)
        north, south = top - y0, y1 - (top + fit - 1)
        y0, y1 = top, top + fit - 1
    w, h = 3 * (x1 - x0 + 1), 3 * (y1 - y0 + 1)
    grid: list[list[Text]] = [[Text("  ") for _ in range(w)] for _ in range(h)]

    def put(cx: int, cy: int, t: Text) -> None:
        gx, gy = cx - 3 * x0, cy - 3 * y0
        if 0 <= gx < w and 0 <= gy < h:
            grid[gy][gx] = t

    centre_style = _CENTRE if v.centre_face_down or v.phase != BUILD_PHASE else f"dim {_CENTRE}"
    for x, y in v.centre:
        for i in range(3):
            for j in range(3):
                put(3 * x + i, 3 * y + j, Text("░░", style=centre_style))
    if v.phase != BUILD_PHASE and v.centre:
        cx = min(x for x, _ in v.centre)
        cy = min(y for _, y in v.centre)
        put(3 * cx + 2, 3 * cy + 2, Text(f"{v.escape_left:>2}", style="bold white on blue"))
        put(3 * cx + 3, 3 * cy + 2, Text(labels.t("map.escape_short")[:2], style="bold white on blue"))
    start = v.start_tile
    targets = set(v.targets)
    for t in v.tiles:
        glyph, built = "▒▒", _BUILT
        if (t.x, t.y) == start:
            glyph, built = _START_CELL, _START
        elif (t.x, t.y) in targets:
            glyph, built = _TARGET_CELL, _TARGET
        road = set(_tile_cells(t.openings))
        for i in range(3):
            for j in range(3):
                if (i, j) in road:
                    put(3 * t.x + i, 3 * t.y + j, Text(_ROAD_CELL, style=_ROAD_DOTS))
                else:
                    put(3 * t.x + i, 3 * t.y + j, Text(glyph, style=built))
    for (x, y), label in square_marks.items():
        for i in range(3):
            for j in range(3):
                put(3 * x + i, 3 * y + j, Text("  ", style=_EMPTY_CANDIDATE))
        put(3 * x + 1, 3 * y + 1, Text(f"{label:<2}"[:2], style="bold black on yellow"))
    for det in v.detours:  # the last on a square is on top
        style = "bold black on yellow" if det.kind == "ROADBLOCK" else f"bold yellow {_ROAD}"
        put(3 * det.x + 1, 3 * det.y + 1, Text(detour_glyph(det.kind, det.rot), style=style))
    for (cx, cy), label in cell_marks.items():
        put(cx, cy, Text(f"{label:>2}"[-2:], style="bold black on white"))
    by_field: dict[XY, list[CarView]] = {}
    for c in v.cars:
        if c.field is not None:
            by_field.setdefault(c.field, []).append(c)
    for (cx, cy), cs in by_field.items():
        put(cx, cy, _car_cell(cs, v.villain == (cx, cy)))
    if v.villain is not None and v.villain not in by_field:
        put(v.villain[0], v.villain[1], Text("VV", style="bold white on red"))

    margin = 8  # square y (bold) and field y (grey) before the map
    out = Text()
    out.append(f"{labels.t('map.axis_square'):>{margin - 1}.{margin - 1}} ", style="bold")
    for x in range(x0, x1 + 1):
        out.append(f"{x:^6}", style="bold")
    out.append("\n")
    out.append(f"{labels.t('map.axis_field'):>{margin - 1}.{margin - 1}} ", style="dim")
    for x in range(x0, x1 + 1):
        out.append(f"  {3 * x + 1:<4}", style="dim")
    out.append("\n")
    for row in range(h):
        y = y0 + row // 3
        out.append(f"{y:>3}" if row % 3 == 1 else "   ", style="bold")
        out.append(f"{3 * y0 + row:>4} ", style="dim")
        for cell in grid[row]:
            out.append_text(cell)
        out.append("\n")
    out.rstrip()
    cropped = labels.t("map.cropped", north=north, south=south) if north or south else None
    return Panel(
        out,
        title=title or labels.t("map.title"),
        title_align="left",
        subtitle=cropped,
        subtitle_align="left",
        expand=False,
    )


def map_legend(view: View, labels: Labels, width: int = 80) -> Text:
    """The map's symbols on one line of at most ``width`` cells: those on this map, each
    drawn as on the map (the start and target tiles with their own glyphs, not colours
    alone); what does not fit is left out, from the end of the list."""
    v = require_view(view)
    tr = labels.t
    items: list[Text] = [
        Text.assemble(("▒▒", _BUILT), " " + tr("legend.built")),
        Text.assemble((_ROAD_CELL, _ROAD_DOTS), " " + tr("legend.road")),
        Text.assemble(("VV", "bold white on red"), " " + tr("legend.villain")),
        Text(tr("legend.car", seat=labels.t("seat", n=2), card=labels.card("MANTLE"))),
    ]
    if v.start_tile is not None:
        items.append(Text.assemble((_START_CELL, _START), " " + tr("legend.start_tile")))
    if v.targets:
        items.append(Text.assemble((_TARGET_CELL, _TARGET), " " + tr("legend.targets")))
    if v.phase != BUILD_PHASE:
        items.append(Text.assemble(("░░", _CENTRE), " " + tr("legend.centre", short=tr("map.escape_short"))))
    if v.phase == TURN_PHASE:  # (the moves table says which number is where, too)
        items.append(Text.assemble(("#1", "bold black on white"), " " + tr("legend.move_mark")))
    if v.detours:
        key = ", ".join(f"{DETOUR_LETTER[k]}={labels.card(k).split(': ')[-1]}" for k in DETOUR_KINDS)
        items.append(Text(tr("legend.detours") + " " + key))
    t = Text(style="dim", no_wrap=True, overflow="ellipsis")
    for item in items:
        gap = 2 if t.cell_len else 0
        if t.cell_len + gap + item.cell_len > width:
            continue
        t.append(" " * gap)
        t.append_text(item)
    return t


# -- pieces ----------------------------------------------------------------------------------
def tile_picture(openings: int) -> list[Text]:
    """A tile as three rows of cells (two characters each)."""
    road = set(_tile_cells(openings))
    rows = []
    for j in range(3):
        r = Text()
        for i in range(3):
            r.append(_ROAD_CELL if (i, j) in road else "▒▒", style=_ROAD_DOTS if (i, j) in road else _BUILT)
        rows.append(r)
    return rows


def drawn_tile_panel(view: View, labels: Labels) -> Panel | None:
    """The face-up tile to lay, in each rotation (from the box's public tile shapes)."""
    v = require_view(view)
    if not v.drawn or labels.pieces is None:
        return None
    tile = labels.pieces.tile(v.drawn)
    body = Table.grid(padding=(0, 3))
    rots = tile.orientations()
    for _ in rots:
        body.add_column()
    pics = [tile_picture(rotate_mask(tile.openings, r // 90)) for r in rots]
    body.add_row(*(Text(f"rot {r}", style="bold") for r in rots))
    for j in range(3):
        body.add_row(*(p[j] for p in pics))
    title = labels.t("tile.to_lay", tile=v.drawn, shape=labels.t(f"shape.{tile.shape}"))
    return Panel(body, title=title, title_align="left", expand=False)


# -- one line per event / action ---------------------------------------------------------------
_EVENT_STYLE = {
    "ram": "bold magenta",
    "ram_fail": "magenta",
    "oil": "bold magenta",
    "skid": "magenta",
    "roof": "magenta",
    "spin": "magenta",
    "escape": "red",
    "villain_move": "bold red",
    "villain_stays": "red",
    "villain_roll": "red",
    "villain": "bold red",
    "win": "bold green",
    "limit": "bold",
    "reshuffle": "dim",
    "draw": "dim",
    "return": "dim",
    "turn": "bold",
    "roll": "bold",
    "turbo": "cyan",
    "mantle": "cyan",
    "mantle_end": "dim",
    "detour": "yellow",
}
_EVENT_TAG = {"ram": "tag.ram", "oil": "tag.oil", "ram_fail": "tag.ram_fail"}


def event_text(event: EventView, labels: Labels) -> Text:
    """An engine event in words of the screen's language, the rolled table named, seats
    tagged (``P2 (random)``), squares and fields told apart (see :mod:`rallye.tui.knightrider.events`)."""
    from rallye.tui.knightrider.events import event_words

    t = Text()
    tag = _EVENT_TAG.get(event.kind)
    if tag:
        t.append(labels.t(tag) + " ", style="bold magenta")
    t.append(event_words(event, labels), style=_EVENT_STYLE.get(event.kind, ""))
    return t


def _path_arrows(m: Move) -> str:
    out = []
    for _x, _y, h, jumped in m.path:
        out.append("*" if jumped else ARROWS[h])
    return "".join(out)


def action_text(action: Action, labels: Labels) -> str:
    """What an action does, in words and card names."""
    tr = labels.t
    if isinstance(action, Place):
        tile = str(action.number) if action.number else "?"
        return tr("act.place", tile=tile, square=labels.at_square(action.x, action.y), rot=action.rot)
    if isinstance(action, StartAt):
        return tr("act.start_at", square=labels.at_square(action.x, action.y))
    if isinstance(action, Enter):
        return tr("act.enter", side=labels.direction(action.side))
    if isinstance(action, Move):
        arrows = _path_arrows(action)
        text = tr.n(
            "act.move",
            action.cost,
            way=f" {arrows}" if arrows else "",
            field=labels.at_field(action.x, action.y),
            heading=labels.direction(action.heading),
        )
        return text + (" " + tr("act.with", card=labels.card("JUMP")) if action.jump else "")
    if isinstance(action, PlayKitt):
        return tr("act.kitt", card=labels.card(action.kind))
    if isinstance(action, PlayDetour):
        return tr(
            "act.detour",
            card=labels.card(action.kind),
            square=labels.at_square(action.x, action.y),
            glyph=detour_glyph(action.kind, action.rot),
            rot=action.rot,
        )
    if isinstance(action, End):
        return tr("act.end", card=labels.card("escape"))
    if isinstance(action, Recover):
        return tr("act.recover")
    return str(action)


# -- panels -------------------------------------------------------------------------------------
def status_line(view: View, labels: Labels) -> Text:
    v = require_view(view)
    tr = labels.t
    t = Text()
    t.append("Knight Rider", style="bold")
    phase = tr(f"phase.{v.phase}") if tr.has(f"phase.{v.phase}") else v.phase
    t.append(f" · {tr.n('n_players', v.players)} · {phase}")
    if v.phase == BUILD_PHASE:
        t.append(" · " + tr("status.face_down", n=v.face_down))
    else:
        t.append(" · " + tr("status.turn", n=v.turn))
        t.append(" · " + tr("status.escape_pile", card=labels.card("escape"), n=v.escape_left))
        if v.escape_turned:
            last = v.escape_turned[-1]
            t.append(" " + tr("status.last_escape", id=last.id, dxy=f"{last.dx:+d},{last.dy:+d}"), style="dim")
    if v.villain is not None:
        sx, sy = v.villain[0] // 3, v.villain[1] // 3
        t.append(" · ")
        t.append_text(compose(tr.raw("status.villain_on"), square=Text(labels.at_square(sx, sy), style="bold red")))
    return t


def players_table(view: View, labels: Labels) -> Table:
    v = require_view(view)
    tr = labels.t
    t = Table(title=tr("players.title"), title_justify="left", box=None, padding=(0, 1))
    for col in ("seat", "car", "state", "kitt", "detours"):
        t.add_column(tr(f"players.col.{col}"))
    if v.targets:
        t.add_column(tr("players.col.targets"))
    dist = road_distance_map(v) if v.villain is not None else {}
    cars = {c.player: c for c in v.cars}
    for p in range(v.players):
        seat = labels.seat_text(p)  # "S1 (you)": the name says whose row is yours
        if p == v.me:
            seat.stylize("bold")
        if p == v.current:
            seat = Text("▶ ").append_text(seat)
        c = cars.get(p)
        if c is None:
            where = Text(tr("players.not_on_road"), style="dim")
        elif c.field is None:
            where = Text(tr("players.waits", side=labels.direction(c.side)))  # short: the table stays low
        else:
            where = Text(f"{labels.at_field(c.field[0], c.field[1])} {ARROWS[c.heading]}")
            d = dist.get(c.field)
            if d is not None:
                where.append("  " + tr.n("players.from_villain", d), style="dim")
        state: list[str] = []
        if c is not None and c.roof:
            state.append(tr("players.roof"))
        if c is not None and c.mantle:
            state.append(labels.card("MANTLE"))
        k, d_ = v.hand_sizes[p]
        row: list[RenderableType] = [seat, where, Text(", ".join(state) or "–"), str(k), str(d_)]
        if v.targets:
            reached = len(c.reached) if c is not None else 0
            row.append(f"{reached}/{len(v.targets)}")
        t.add_row(*row)
    return t


def hand_text(view: View, labels: Labels, title: str | None = None) -> Text:
    """The viewer's own cards, with counts (``title``: whose they are, when not the
    person's at the keyboard)."""
    v = require_view(view)
    t = Text((title or labels.t("hand.title")) + " ", style="bold")
    parts: list[tuple[str, str]] = []
    for kinds, counts, style in ((KITT_KINDS, v.hand_kitt, "cyan"), (DETOUR_KINDS, v.hand_detour, "yellow")):
        for k, n in zip(kinds, counts, strict=False):
            if n:
                parts.append((f"{labels.card(k)}" + (f" ×{n}" if n > 1 else ""), style))
    if not parts:
        t.append(labels.t("hand.none"), style="dim")
    for i, (name, style) in enumerate(parts):
        if i:
            t.append(" · ")
        t.append(name, style=style)
    return t


def turn_text(view: View, labels: Labels) -> Text:
    v = require_view(view)
    tr = labels.t
    if v.over:
        if v.winner is None:
            return Text(tr("turn.over_no_winner"), style="bold")
        return Text(tr("turn.over_winner", who=labels.seat(v.winner)), style="bold green")
    mine = v.current == v.me and labels.me == v.me  # "your turn" only to the player watching
    who = tr("turn.yours") if mine else tr("turn.theirs", who=labels.seat(v.current))
    t = Text(f"▶ {who}", style="bold reverse" if mine else "bold")
    if v.phase == TURN_PHASE and v.current is not None:
        car = next((c for c in v.cars if c.player == v.current), None)
        if car is not None and car.roof:
            t.append("  — " + tr("turn.roof"), style="magenta")
        else:
            t.append("  " + tr("turn.roll", roll=v.roll), style="bold")
            if v.pips != v.roll:
                t.append(" → " + tr.n("turn.pips", v.pips))
            t.append(" · " + tr("turn.used", used=v.used, pips=v.pips))
            done = []
            if v.move_done:
                done.append(tr("turn.moved"))
            if v.kitt_played:
                done.append(tr("turn.kitt_played"))
            if v.detour_played:
                done.append(tr("turn.detour_played"))
            if done:
                t.append(" · " + ", ".join(done), style="dim")
    elif v.phase == BUILD_PHASE and v.drawn:
        t.append("  — " + tr("turn.lay_tile", tile=v.drawn))
    return t


# -- the menus ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveInfo:
    """What a person wants to know about a move before choosing it."""

    move: Move
    distance: int | None  # fields from the destination to the villain
    catches: bool
    rams: int | None  # the seat rammed at the destination (a ram stop)
    beside: int | None  # the seat the car stops beside (blocking)
    oil: int | None  # the seat whose oil the car ends on


def move_infos(view: View, moves: Sequence[Move]) -> list[MoveInfo]:
    """Each move with its distance to the villain and what happens at its end, in the
    order the terminal offers them: nearest to the villain first, then cheaper."""
    v = require_view(view)
    dist = road_distance_map(v)
    others = [c for c in v.cars if c.player != v.me and c.field is not None]
    left = v.pips - v.used
    target_done = True
    me = next((c for c in v.cars if c.player == v.me), None)
    if v.targets and me is not None:
        target_done = len(me.reached) >= len(v.targets)
    out = []
    for m in moves:
        dest = (m.x, m.y)
        there = [c for c in others if c.field == dest]
        rams = beside = oil = None
        if len(there) == 1 and m.cost < left and not there[0].roof and not there[0].mantle:
            rams = there[0].player
        elif there:
            beside = there[0].player
        for c in others:
            assert c.field is not None
            bx, by = g.DXY[(c.heading + 2) % 4]
            if (c.field[0] + bx, c.field[1] + by) == dest and c.field != dest:
                oil = c.player
        out.append(MoveInfo(m, dist.get(dest), dest == v.villain and target_done, rams, beside, oil))
    vx, vy = v.villain if v.villain is not None else (0, 0)

    def key(i: MoveInfo) -> tuple[bool, int, int, int]:
        crow = abs(i.move.x - vx) + abs(i.move.y - vy)  # when no road leads there
        return (not i.catches, i.distance if i.distance is not None else 10_000 + crow, crow, -i.move.cost)

    out.sort(key=key)
    return out


def moves_table(view: View, labels: Labels, entries: Sequence[tuple[int, MoveInfo]], hidden: int = 0) -> Table:
    """Numbered moves: their map mark, path (heading arrows), destination field, pips,
    distance, what happens."""
    require_view(view)
    tr = labels.t
    t = Table(title=tr("moves.title"), title_justify="left", box=None, padding=(0, 1))
    t.add_column("#", justify="right", style="bold")
    t.add_column(tr("moves.col.map"))
    t.add_column(tr("moves.col.path"))
    t.add_column(tr("moves.col.to"))
    t.add_column(tr("moves.col.pips"), justify="right")
    t.add_column(tr("moves.col.villain"), justify="right")
    t.add_column("")
    for n, info in entries:
        m = info.move
        notes = Text()
        if info.catches:
            notes.append(tr("moves.catches") + " ", style="bold green")
        if info.rams is not None:
            notes.append(tr("moves.rams", who=labels.seat(info.rams)) + " ", style="magenta")
        if info.beside is not None:
            notes.append(tr("moves.beside", who=labels.seat(info.beside)) + " ", style="dim")
        if info.oil is not None:
            notes.append(tr("moves.oil", who=labels.seat(info.oil)) + " ", style="magenta")
        if m.jump:
            notes.append(labels.card("JUMP"), style="cyan")
        dist = "—" if info.distance is None else str(info.distance)
        mark = Text(move_mark(n), style="bold black on white") if move_mark(n) else Text("")
        to = f"{labels.at_field(m.x, m.y)} {ARROWS[m.heading]}"
        t.add_row(str(n), mark, _path_arrows(m), to, str(m.cost), dist, notes)
    if hidden:
        t.caption = tr.n("moves.hidden", hidden)
        t.caption_justify = "left"
    return t


def actions_table(title: str, labels: Labels, entries: Sequence[tuple[str, Action]]) -> Table:
    """A numbered list of actions with their notation and meaning."""
    t = Table(title=title, title_justify="left", box=None, padding=(0, 1))
    t.add_column("#", justify="right", style="bold")
    t.add_column(labels.t("actions.col.notation"), style="bold")
    t.add_column("")
    for n, a in entries:
        t.add_row(n, str(a), action_text(a, labels))
    return t


def placements_table(
    view: View, labels: Labels, entries: Sequence[tuple[int, Place]], letters: Mapping[XY, str]
) -> Table:
    """Building: one row per square (its map letter), the numbered rotations on it."""
    require_view(view)
    tr = labels.t
    t = Table(title=tr("place.title"), title_justify="left", box=None)
    t.add_column(tr("place.col.map"), style="bold black on yellow")
    t.add_column(tr("place.col.square"))
    t.add_column(tr("place.col.choices"))
    rows: dict[XY, list[tuple[int, Place]]] = {}
    for n, p in entries:
        rows.setdefault((p.x, p.y), []).append((n, p))
    for sq, items in rows.items():
        choices = Text()
        for i, (n, p) in enumerate(items):
            if i:
                choices.append("  ")
            choices.append(f"{n}", style="bold")
            choices.append(f" rot {p.rot}")
        t.add_row(letters.get(sq, ""), f"{sq[0]},{sq[1]}", choices)
    return t


def square_letters(squares: Sequence[XY]) -> dict[XY, str]:
    """Map labels a, b, …, Z (not h or q: those are commands), then two letters, in order."""
    alphabet = "abcdefgijklmnoprstuvwxyzABCDEFGIJKLMNOPRSTUVWXYZ"  # no h, q: help, quit
    out: dict[XY, str] = {}
    for i, sq in enumerate(dict.fromkeys(squares)):
        if i < len(alphabet):
            out[sq] = alphabet[i]
        else:
            j = i - len(alphabet)
            out[sq] = alphabet[j // len(alphabet) % len(alphabet)] + alphabet[j % len(alphabet)]
    return out


def events_panel(events: Sequence[EventView], labels: Labels, title: str | None = None) -> Panel:
    lines = [event_text(e, labels) for e in events]
    body: RenderableType = Group(*lines) if lines else Text(labels.t("events.none"), style="dim")
    return Panel(body, title=title or labels.t("events.title"), title_align="left", expand=False)


def render_screen(
    view: View,
    labels: Labels,
    menu: Sequence[RenderableType] = (),
    *,
    cell_marks: Mapping[XY, str] | None = None,
    square_marks: Mapping[XY, str] | None = None,
    size: tuple[int, int] | None = None,
    hands: Sequence[RenderableType] | None = None,
) -> Group:
    """The whole screen for the player of ``view``: status, map, players, hand, the menu
    (with its numbers on the map: move destinations, building squares). With ``size``
    (the terminal's columns and lines) the screen and its prompt fit: a map too tall shows
    the square rows around the villain (:func:`map_panel`). ``hands`` replaces the
    viewer's hand (a replay shows every hand it may)."""
    v = require_view(view)
    the_map = map_panel(v, labels, cell_marks=cell_marks, square_marks=square_marks)
    legend = map_legend(v, labels, size[0] if size else 10_000)  # (no terminal: nothing to fit)
    parts: list[RenderableType] = [status_line(v, labels), the_map, legend]
    if v.phase == BUILD_PHASE:
        tile = drawn_tile_panel(v, labels)
        if tile is not None:
            parts.append(tile)
    else:
        parts.append(players_table(v, labels))
    parts.extend([hand_text(v, labels)] if hands is None else hands)
    parts.extend(menu)
    parts.append(turn_text(v, labels))
    if size is not None:  # the whole screen and the prompt in the terminal: the map gives way
        width, height = size
        over = _lines(Group(*parts), width) + 1 - height
        rows = _lines(the_map, width) - 4  # less its frame and the two axis lines
        while over > 0 and rows > 3:  # the map's rows go by whole squares: measure again
            rows = max(3, rows - over)
            parts[1] = map_panel(v, labels, cell_marks=cell_marks, square_marks=square_marks, rows=rows)
            over = _lines(Group(*parts), width) + 1 - height
    return Group(*parts)


def _lines(renderable: RenderableType, width: int) -> int:
    """How many terminal lines ``renderable`` takes at ``width`` columns."""
    import io

    from rich.console import Console

    c = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
    return len(c.render_lines(renderable, c.options, pad=False))


# -- records ---------------------------------------------------------------------------------------
def variant_words(t: Translator, key: str, value: object) -> str:
    """A variant in words (``tour`` 2: "tour: 2 target tiles"); an unknown one by its key."""
    if isinstance(value, int) and not isinstance(value, bool) and t.has(f"variant.{key}"):
        return t.n(f"variant.{key}", value)
    if t.has(f"variant.{key}"):
        return t(f"variant.{key}", value=value)
    return f"{key}={value}"


def record_summary(header: Mapping[str, Any], final: View, actions: int, labels: Labels) -> Group:
    """A record's summary: players (and who played them), seed, options, status, actions,
    in the language of ``labels``.

    ``final`` is any seat's view of the replayed game (only its public parts are shown).
    """
    v = require_view(final)
    t = labels.t
    tc = common(t.lang)
    opts = header.get("options") or {}
    on = [variant_words(t, k, val) for k, val in opts.items() if val not in (None, False, 0)]
    seed = header.get("seed") if v.over else tc("replay.seed_hidden")
    rows: list[RenderableType] = [
        Text(summary_row(tc, "players", tc("replay.players_seed", players=v.players, seed=seed)))
    ]
    for p in range(v.players):
        rows.append(Text(summary_row(tc, "", labels.seat(p))))
    rows.append(Text(summary_row(tc, "options", ", ".join(on) if on else t("replay.basic_game"))))
    rows.append(Text(summary_row(tc, "actions", t("replay.actions_turns", actions=actions, turns=v.turn))))
    if v.over:
        status = t("replay.no_winner") if v.winner is None else t("replay.winner", who=labels.seat(v.winner))
    else:
        phase = t(f"phase.{v.phase}") if t.has(f"phase.{v.phase}") else v.phase
        status = t("replay.in_progress", phase=phase, who=labels.seat(v.current))
    rows.append(Text(summary_row(tc, "status", status), style="bold"))
    return Group(*rows)
