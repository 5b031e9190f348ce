"""What a page needs to draw one legal action (``info`` of a ``legal`` entry).

A pure function of the seat's view and the action: nothing here sees a state.
"""

from __future__ import annotations

from typing import Any


def action_info(game: str, view: object, action: Any) -> dict[str, Any]:
    """Mille Bornes: the card and where it goes (``side``: a side's index; ``null`` for a
    discard or a decision). Knight Rider: the action's kind."""
    if game == "mille":
        verb = getattr(action, "verb", "")
        side = {"attack": getattr(action, "side", None), "play": getattr(view, "side", None)}.get(verb)
        return {"verb": verb, "card": getattr(action, "card", None), "side": side}
    return {"kind": type(action).__name__.lower()}
