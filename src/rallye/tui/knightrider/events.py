"""Knight Rider's engine events in the screen's language.

The engine tells what happened in English words (:attr:`EventView.text`, also kept in game
records); the terminal says it again from the ``kr`` catalog. Each event kind has a
pattern of the engine's words; its parts (seats, tiles, rolls, squares, fields) fill
the translated message, seats named as everywhere on screen (``P2 (random)``), squares
and fields told apart. An event whose words match no pattern is shown as the engine
wrote it (a test plays games and requires every event to match).

>>> from rallye.knightrider.view import EventView
>>> from rallye.tui.knightrider.render import Labels
>>> ev = EventView("skid", 1, 2, "P2 skids 2 field(s) back to 10,4")
>>> event_words(ev, Labels("de", ("du", "random")))
'S2 (Zufall) schleudert 2 Felder zurück auf Feld 10,4'
>>> event_words(ev, Labels("en"))
'P2 skids 2 fields back to field 10,4'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rallye.knightrider import geometry as g
from rallye.knightrider.view import EventView

if TYPE_CHECKING:
    from rallye.tui.knightrider.render import Labels

_XY = r"-?\d+,-?\d+"
_WHO = r"P(?P<who>\d+)"
_TILE = r"tile (?P<tile>\d+)"
_ROLLS = _WHO + r" rolls (?P<tens>\d) and (?P<ones>\d): " + _TILE

#: (event kind, message id, the engine's words). Groups are named after the message's
#: placeholders; ``who``, ``by``, ``other``, ``mover`` are seats, ``square`` and ``field``
#: coordinates, ``dir`` a direction letter, ``kind`` a card kind, ``count`` picks the plural.
PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("centre", "ev.centre", r"four face-down tiles form the centre"),
    ("start_player", "ev.start_player", _WHO + r" is the start player \(car 1\)"),
    ("draw", "ev.draw", _WHO + r" draws tile (?P<tile>\d+)"),
    ("return", "ev.return", r"tile (?P<tile>\d+) fits nowhere and goes back face down"),
    ("build_end", "ev.build_end_centre", r"the centre tiles are taken up and laid elsewhere; the centre stays empty"),
    ("build_end", "ev.build_end", r"building ends; (?P<count>\d+) tile\(s\) unused"),
    ("*_roll", "ev.roll_tile_again", _ROLLS + " — rolled again"),
    ("*_roll", "ev.roll_tile", _ROLLS),
    ("villain", "ev.villain", rf"the villain's red car stands on tile (?P<tile>\d+) at (?P<square>{_XY})"),
    ("target", "ev.target", rf"target tile (?P<tile>\d+) at (?P<square>{_XY})"),
    (
        "start_tile",
        "ev.start_choice",
        r"(?P<count>\d+) tiles are equally far \((?P<fields>\d+) fields\); " + _WHO + " picks the start",
    ),
    ("start_tile", "ev.start_tile", rf"the cars start beside tile (?P<tile>\d+) at (?P<square>{_XY})"),
    ("limit", "ev.limit", r"the turn limit \((?P<limit>\d+)\) is reached: no winner"),
    ("mantle_end", "ev.mantle_end", r"P(?P<who>\d+)'s Molekül-Mantel ends"),
    ("turn", "ev.turn", r"turn (?P<turn>\d+): P(?P<who>\d+)"),
    ("roll", "ev.roll", _WHO + r" rolls (?P<roll>\d+)"),
    ("skid", "ev.skid", _WHO + rf" skids (?P<count>\d+) field\(s\) back to (?P<field>{_XY})"),
    ("spin", "ev.spin", _WHO + r" now faces (?P<dir>[NESW])"),
    ("roof", "ev.roof", _WHO + r" goes off the road onto its roof"),
    ("ram", "ev.ram_by_villain", r"the villain rams P(?P<who>\d+): P\d+ rolls (?P<ram>\d): .*"),
    ("ram", "ev.ram", r"P(?P<by>\d+) rams P(?P<who>\d+): P\d+ rolls (?P<ram>\d): .*"),
    ("win", "ev.win_ram", _WHO + r" rolls a 6 against the villain's ram and wins"),
    ("ram_fail", "ev.ram_fail_skid", _WHO + r" rolls again: (?P<roll>\d): P(?P<mover>\d+) skids and stops"),
    ("ram_fail", "ev.ram_fail", _WHO + r" rolls again: (?P<roll>\d): nothing happens"),
    ("win", "ev.win", _WHO + r" reaches the villain and wins"),
    ("oil", "ev.oil", _WHO + r" ends behind P(?P<other>\d+) on its oil: rolls (?P<oil>\d): .*"),
    ("reached", "ev.reached", _WHO + r" reaches target tile (?P<tile>\d+)"),
    ("escape", "ev.escape", r"escape card (?P<id>\d+): the villain flees (?P<dxy>[+-]\d+,[+-]\d+)"),
    ("villain_move", "ev.villain_move", rf"the villain moves to tile (?P<tile>\d+) at (?P<square>{_XY})"),
    ("villain_stays", "ev.villain_stays", rf"no tile at (?P<square>{_XY}): the villain stays"),
    ("reshuffle", "ev.reshuffle", r"all escape cards are turned: they are shuffled"),
    ("mantle", "ev.mantle", _WHO + r" plays Molekül-Mantel: protected until its next turn"),
    ("turbo", "ev.turbo", _WHO + r" plays Turbo-Boost (?P<turbo>II?): (?P<pips>\d+) pips"),
    ("detour", "ev.detour", _WHO + r" lays a detour (?P<kind>[A-Z]+) on tile (?P<tile>\d+)"),
    ("enter", "ev.enter", _WHO + r" waits at the (?P<dir>[NESW]) opening"),
    ("recover", "ev.recover", _WHO + r" turns its car back onto its wheels"),
)
_COMPILED = tuple((kind, msg, re.compile(pattern)) for kind, msg, pattern in PATTERNS)
_SEATS = ("who", "by", "other", "mover")


def match(event: EventView) -> tuple[str, dict[str, str]] | None:
    """The message id and the parts of an event's words (``None``: no pattern fits)."""
    for kind, msg, pattern in _COMPILED:
        if kind != event.kind and not (kind == "*_roll" and event.kind.endswith("_roll")):
            continue
        m = pattern.fullmatch(event.text)
        if m is not None:
            return msg, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def event_words(event: EventView, labels: Labels) -> str:
    """The event in the screen's language (the engine's words if no pattern fits)."""
    found = match(event)
    if found is None:
        return event.text
    msg, parts = found
    tr = labels.t
    params: dict[str, object] = {"mantle": labels.card("MANTLE")}
    for name, value in parts.items():
        if name in _SEATS:
            params[name] = labels.seat(int(value) - 1)
        elif name in ("square", "field"):
            x, y = value.split(",")
            place = labels.at_square if name == "square" else labels.at_field
            params[name] = place(int(x), int(y))
        elif name == "dir":
            params[name] = labels.direction(g.DIRS.index(value))
        elif name == "kind":
            params["card"] = labels.card(value)
        elif name == "turbo":
            params["card"] = labels.card("TURBO1" if value == "I" else "TURBO2")
        elif name in ("ram", "oil"):
            params["roll"] = value
            params["result"] = tr(f"{name}.{value}")
        else:
            params[name] = value
    if "count" in params:
        count = int(str(params.pop("count")))
        return tr.n(msg, count, **params)
    return tr(msg, **params)


__all__ = ["PATTERNS", "event_words", "match"]
