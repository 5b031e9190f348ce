"""What a legal action means, for a page to draw: :func:`action_info`.

The server's ``state`` message lists each legal action as ``{"code", "action", "info"}``.
``info`` is plain JSON computed here from the acting seat's own view and the action, so it
holds nothing that view does not: a page draws it (where a card can go, the path a car
would drive, what would happen there) and never has to know a rule.

Mille Bornes::

    {"verb": "play"|"attack"|"discard"|"extend"|"decline",
     "card": card id or null, "side": side (0-based) or null}

``side`` is the side the card lands on: the player's own side for ``play``, the attacked
side for ``attack``, null for ``discard`` (the discard pile), ``extend`` and ``decline``.

Knight Rider (``kind`` first, then the fields of that kind)::

    place   {"tile", "x", "y", "rot", "openings"}      square, degrees, side mask after turning
    start   {"x", "y"}
    enter   {"side", "field"}                           the opening's field [x, y]
    move    {"from", "to", "heading", "cost", "left", "jump", "path", "effects"}
    kitt    {"card"}
    detour  {"card", "x", "y", "rot", "sides"}          side mask the card keeps connected
    end     {}
    recover {}

A move's ``path`` is ``[[x, y, heading, jumped], ...]`` (cell coordinates, the field the
car enters at each step; ``from`` is the field it leaves, null for a car still waiting
beside the start tile); ``left`` the pips that remain after it. ``effects`` lists what
stopping there causes, each ``{"kind": ..., "player": seat or null}``:

* ``ram`` – the move stops beside that player's car with pips left: a ram attempt (they
  roll on the ram table, then the move goes on);
* ``oil`` – the move ends right behind that player's car: the mover rolls on the oil table;
* ``jump`` – the move plays Blockier-Sprung over an obstacle;
* ``target`` – the move stops on a tour target not yet reached;
* ``win`` – the move ends on the villain's field with every target reached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rallye.knightrider import actions as kr
from rallye.knightrider import geometry as g
from rallye.knightrider.game import GAME as KNIGHTRIDER
from rallye.knightrider.pieces import load_pieces
from rallye.knightrider.track import compute_links, mask_table
from rallye.knightrider.view import DetourView, TileView, View
from rallye.mille import actions as mille
from rallye.mille.game import GAME as MILLE
from rallye.mille.view import MilleView


def action_info(game: str, view: object, action: object) -> dict[str, Any]:
    """The JSON-safe meaning of ``action`` for the seat whose ``view`` this is.

    ``view`` is the game's view value or its JSON form; ``action`` an action value or its
    notation.

    >>> from rallye.mille import new_match, view_for, legal_actions
    >>> s = new_match("wm2006", 2, seed=1)
    >>> action_info("mille", view_for(s, 0), "attack 2 STOP")
    {'verb': 'attack', 'card': 'STOP', 'side': 1}
    """
    if game == "mille":
        return mille_info(_mille_view(view), _mille_action(action))
    if game == "knightrider":
        return kr_info(_kr_view(view), _kr_action(action))
    raise ValueError(f"unknown game {game!r}")


# ----------------------------------------------------------------------------- Mille


def _mille_view(view: object) -> MilleView:
    if isinstance(view, MilleView):
        return view
    return MilleView.from_json(view)


def _mille_action(action: object) -> mille.Action:
    if isinstance(action, mille.Action):
        return action
    if isinstance(action, str):
        return MILLE.parse_action(action)
    raise TypeError(f"not a Mille Bornes action: {action!r}")


def mille_info(view: MilleView, action: mille.Action) -> dict[str, Any]:
    if action.verb == "play":
        side: int | None = view.side
    elif action.verb == "attack":
        side = action.side
    else:
        side = None
    return {"verb": action.verb, "card": action.card, "side": side}


# ----------------------------------------------------------------------------- Knight Rider


def _kr_view(view: object) -> View:
    if isinstance(view, View):
        return view
    if isinstance(view, dict):
        return View.from_json(view)
    raise TypeError(f"not a Knight Rider view: {view!r}")


_KR_ACTIONS = (kr.Place, kr.StartAt, kr.Enter, kr.Move, kr.PlayKitt, kr.PlayDetour, kr.End, kr.Recover)


def _kr_action(action: object) -> kr.Action:
    if isinstance(action, str):
        return KNIGHTRIDER.parse_action(action)
    if isinstance(action, _KR_ACTIONS):
        return action
    raise TypeError(f"not a Knight Rider action: {action!r}")


@lru_cache(maxsize=8)
def _links(tiles: tuple[TileView, ...], detours: tuple[DetourView, ...]) -> bytes:
    """The map's per-cell connection masks (tiles under their topmost detours)."""
    pieces = load_pieces()
    board = [0] * g.N_SQUARES
    for t in tiles:
        board[g.sq_index(t.x, t.y)] = t.number * 4 + t.rot // 90 + 1
    cards = tuple((g.sq_index(d.x, d.y), d.kind, d.rot, d.player) for d in detours)
    return compute_links(tuple(board), mask_table(pieces), cards)


def _with_path(view: View, move: kr.Move) -> kr.Move:
    """``move`` with its canonical path (a code-form move carries none)."""
    if move.path:
        return move
    for a in KNIGHTRIDER.legal_from_view(view):
        if a == move and isinstance(a, kr.Move):
            return a
    raise ValueError(f"{move} is not a legal move for P{view.me + 1}")


def _move_info(view: View, move: kr.Move) -> dict[str, Any]:
    move = _with_path(view, move)
    me = view.cars[view.me]
    dest = (move.x, move.y)
    left = view.pips - view.used - move.cost
    others = [c for c in view.cars if c.player != view.me and c.field is not None]
    effects: list[dict[str, Any]] = []
    if move.jump:
        effects.append({"kind": "jump", "player": None})
    here = [c for c in others if c.field == dest]
    rammed = here[0] if len(here) == 1 and left > 0 and not here[0].roof and not here[0].mantle else None
    if rammed is not None:
        effects.append({"kind": "ram", "player": rammed.player})
    sq = (move.x // 3, move.y // 3)
    reached = set(me.reached)
    if sq in view.targets and sq not in reached:
        effects.append({"kind": "target", "player": None})
        reached.add(sq)
    if rammed is None:
        if dest == view.villain and reached >= set(view.targets):
            effects.append({"kind": "win", "player": None})
        else:
            for c in others:
                if c.field == dest or c.field is None:
                    continue
                back = g.opposite(c.heading)
                dx, dy = g.DXY[back]
                if (c.field[0] + dx, c.field[1] + dy) != dest:
                    continue
                if (_links(view.tiles, view.detours)[g.cell(*c.field)] >> back) & 1:
                    effects.append({"kind": "oil", "player": c.player})
                    break
    return {
        "kind": "move",
        "from": list(me.field) if me.field is not None else None,
        "to": list(dest),
        "heading": move.heading,
        "cost": move.cost,
        "left": left,
        "jump": move.jump,
        "path": [[x, y, h, j] for x, y, h, j in move.path],
        "effects": effects,
    }


def kr_info(view: View, action: kr.Action) -> dict[str, Any]:
    if isinstance(action, kr.Move):
        return _move_info(view, action)
    if isinstance(action, kr.Place):
        tile = action.number or view.drawn
        openings = load_pieces().mask(tile, action.rot) if tile else None
        return {"kind": "place", "tile": tile, "x": action.x, "y": action.y, "rot": action.rot, "openings": openings}
    if isinstance(action, kr.StartAt):
        return {"kind": "start", "x": action.x, "y": action.y}
    if isinstance(action, kr.Enter):
        field = None
        if view.start_tile is not None:
            lx, ly = g.LOCAL_POS[action.side + 1]
            field = [3 * view.start_tile[0] + lx, 3 * view.start_tile[1] + ly]
        return {"kind": "enter", "side": action.side, "field": field}
    if isinstance(action, kr.PlayKitt):
        return {"kind": "kitt", "card": action.kind}
    if isinstance(action, kr.PlayDetour):
        return {
            "kind": "detour",
            "card": action.kind,
            "x": action.x,
            "y": action.y,
            "rot": action.rot,
            "sides": kr.detour_sides(action.kind, action.rot),
        }
    if isinstance(action, kr.End):
        return {"kind": "end"}
    return {"kind": "recover"}
