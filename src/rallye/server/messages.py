"""What a client may send on the websocket (``docs/protocol.md``), checked strictly before
anything acts on it: the message types, their fields and nothing else, each of its type and
range. ``docs/protocol.schema.json`` states the same; the tests hold the two together.

>>> parse('{"type": "act", "move_no": 3, "code": 12, "id": 7}')["code"]
12
>>> parse('{"type": "act", "move_no": 3, "action": 5}')
Traceback (most recent call last):
...
rallye.server.table.TableError: 'action' must be an action's notation (text); send its number as 'code'
>>> parse('{"type": "act", "move_no": NaN, "code": 1}')
Traceback (most recent call last):
...
rallye.server.table.TableError: numbers must be finite (NaN and Infinity are not JSON)
"""

from __future__ import annotations

import json
import math
from typing import Any

from rallye.server.table import TableError

#: bytes in one client message (a longer one is answered ``too-large``)
MAX_MESSAGE = 4096
#: bytes in one websocket frame; a longer frame closes the connection (code 1009)
MAX_FRAME = 65_536
#: the largest whole number a client sends or is echoed: JavaScript's safe integers
MAX_INT = 2**53 - 1
#: characters in a message ``id`` that is text
ID_LENGTH = 64
#: characters in an action's notation and in a seat token
TEXT_LENGTH = 200

#: each client message type and the fields it may carry
FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"type", "protocol", "token", "watch", "id"}),
    "act": frozenset({"type", "move_no", "action", "code", "id"}),
    "chat": frozenset({"type", "text", "id"}),
    "again": frozenset({"type", "id"}),
    "ping": frozenset({"type", "id"}),
    "hint": frozenset({"type", "move_no", "id"}),
}


def _constant(name: str) -> Any:
    raise TableError("bad-field", "numbers must be finite (NaN and Infinity are not JSON)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise TableError("bad-field", f"the number {text[:40]} is too large")
    return value


def whole(value: object, lo: int = 0, hi: int = MAX_INT) -> bool:
    """``value`` is a JSON whole number (not ``true``/``false``, not ``1.0``) in ``lo..hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def message_id(msg: dict[str, Any]) -> int | str | None:
    """The message's ``id`` when it is one an answer may carry back as ``ref``, else ``None``."""
    ref = msg.get("id")
    if whole(ref, -MAX_INT) or (isinstance(ref, str) and 0 < len(ref) <= ID_LENGTH):
        return ref
    return None


def parse(raw: str | None) -> dict[str, Any]:
    """A client message read and checked (:func:`read`, then :func:`check`)."""
    return check(read(raw))


def read(raw: str | None) -> dict[str, Any]:
    """A client message as a JSON object with a ``type``, or a :class:`TableError`
    (``bad-json``, ``too-large``, ``bad-field`` for a number that is not finite)."""
    if raw is None:
        raise TableError("bad-json", "messages are JSON text")
    if len(raw.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise TableError("too-large", f"a message is at most {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw, parse_constant=_constant, parse_float=_float)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise TableError("bad-json", "a message must be a JSON object") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise TableError("bad-json", "a message must be a JSON object with a 'type'")
    return msg


def check(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` if its type is known and its fields are that type's, each of its type and
    range; else a :class:`TableError` (``unknown-type``, ``bad-field``) naming what is wrong.
    The type's own rules (whose turn, a legal move, a chat line's length) are the table's."""
    kind = msg["type"]
    fields = FIELDS.get(kind)
    if fields is None:
        raise TableError("unknown-type", f"unknown message type {kind[:40]!r}")
    extra = sorted(set(msg) - fields)
    if extra:
        raise TableError("bad-field", f"a '{kind}' message has no field {extra[0][:40]!r}")
    if "id" in msg and message_id(msg) is None:
        raise TableError("bad-field", f"'id' is a whole number (at most 2^53 - 1) or 1 to {ID_LENGTH} characters")
    if kind == "act":
        _check_act(msg)
    elif kind == "hello":
        _check_hello(msg)
    elif kind == "hint" and not whole(msg.get("move_no")):
        raise TableError("bad-field", "'move_no' must be the move number of the state you ask a hint for")
    return msg


def _check_act(msg: dict[str, Any]) -> None:
    if not whole(msg.get("move_no")):
        raise TableError("bad-field", "'move_no' must be the move number of the state you answer")
    if ("action" in msg) == ("code" in msg):
        raise TableError("bad-field", "an 'act' has 'action' (the notation) or 'code' (its number): one of them")
    if "code" in msg and not whole(msg["code"]):
        raise TableError("bad-field", "'code' must be a legal action's number (a whole number)")
    if "action" in msg:
        action = msg["action"]
        if not isinstance(action, str):
            raise TableError("bad-field", "'action' must be an action's notation (text); send its number as 'code'")
        if not action.strip() or len(action) > TEXT_LENGTH:
            raise TableError("bad-field", f"'action' is an action's notation of 1 to {TEXT_LENGTH} characters")


def _check_hello(msg: dict[str, Any]) -> None:
    if "watch" in msg and msg["watch"] is not True:
        raise TableError("bad-field", "'watch' is true (to watch) or left out")
    if "watch" in msg and "token" in msg:
        raise TableError("bad-field", "a 'hello' has a 'token' (to sit) or 'watch' (to watch), not both")
    token = msg.get("token")
    if "token" in msg and not (isinstance(token, str) and 0 < len(token) <= TEXT_LENGTH):
        raise TableError("bad-field", f"'token' is the seat's token (text of 1 to {TEXT_LENGTH} characters)")
