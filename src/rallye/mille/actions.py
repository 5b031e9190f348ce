"""Mille Bornes actions: small hashable values with a text notation and integer codes.

Notation (case-insensitive on input; ``str(action)`` gives the canonical form)::

    play CARD          put CARD on your own side: distance, remedy or safety   play D100
    attack SIDE CARD   put hazard CARD on opposing side SIDE (1-based)          attack 2 STOP
    discard CARD       discard CARD face up                                     discard ROLL
    extend             (after reaching 700 alone) extend the hand to 1000       extend
    decline            (after reaching 700 alone) end the hand at 700           decline

``SIDE`` may also be written ``S2``. ``CARD`` is a canonical card id (``D25`` … ``D200``,
``ROLL``, ``STOP``, ``SPEED_LIMIT``, …).

Integer codes (fixed, :data:`NUM_ACTIONS` = 70)::

    0..18    play CARDS[i]
    19..37   discard CARDS[i - 19]
    38..67   attack: 38 + 6 * hazard + side, hazard in (STOP, SPEED_LIMIT, OUT_OF_GAS,
             FLAT_TIRE, ACCIDENT), side 0..5 (absolute, 0-based)
    68       extend
    69       decline

>>> a = parse_action("attack 2 STOP")
>>> str(a), a.code, decode_action(a.code) == a
('attack 2 STOP', 39, True)
>>> eval(repr(a)) == a
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rallye.core.errors import InvalidNotation
from rallye.mille.cards import (
    ACCIDENT,
    CARD_INDEX,
    CARDS,
    FLAT_TIRE,
    OUT_OF_GAS,
    SPEED_LIMIT,
    STOP,
)

ATTACK_HAZARDS: tuple[str, ...] = (STOP, SPEED_LIMIT, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
MAX_SIDES = 6
_PLAY0, _DISCARD0, _ATTACK0 = 0, len(CARDS), 2 * len(CARDS)
_EXTEND = _ATTACK0 + len(ATTACK_HAZARDS) * MAX_SIDES
_DECLINE = _EXTEND + 1
NUM_ACTIONS = _DECLINE + 1
VERBS = ("play", "attack", "discard", "extend", "decline")


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``side`` is the 0-based target side of an attack."""

    verb: str
    card: str | None = None
    side: int | None = None

    def __str__(self) -> str:
        if self.verb == "attack":
            return f"attack {(self.side or 0) + 1} {self.card}"
        if self.card is None:
            return self.verb
        return f"{self.verb} {self.card}"

    @property
    def code(self) -> int:
        return _CODE_OF[self]


def _all_actions() -> tuple[Action, ...]:
    out: list[Action] = [Action("play", c) for c in CARDS]
    out += [Action("discard", c) for c in CARDS]
    out += [Action("attack", h, s) for h in ATTACK_HAZARDS for s in range(MAX_SIDES)]
    out += [Action("extend"), Action("decline")]
    return tuple(out)


#: Every action, indexed by its code (the same objects ``legal_actions`` returns).
ALL_ACTIONS: tuple[Action, ...] = _all_actions()
_CODE_OF: dict[Action, int] = {a: i for i, a in enumerate(ALL_ACTIONS)}
PLAY: dict[str, Action] = {c: ALL_ACTIONS[_PLAY0 + i] for i, c in enumerate(CARDS)}
DISCARD: dict[str, Action] = {c: ALL_ACTIONS[_DISCARD0 + i] for i, c in enumerate(CARDS)}
ATTACK: dict[tuple[str, int], Action] = {
    (h, s): ALL_ACTIONS[_ATTACK0 + hi * MAX_SIDES + s] for hi, h in enumerate(ATTACK_HAZARDS) for s in range(MAX_SIDES)
}
EXTEND: Action = ALL_ACTIONS[_EXTEND]
DECLINE: Action = ALL_ACTIONS[_DECLINE]
assert len(ALL_ACTIONS) == NUM_ACTIONS  # a module invariant, not a game rule


def encode_action(action: Action) -> int:
    try:
        return _CODE_OF[action]
    except KeyError:
        raise InvalidNotation(f"{action!r} has no action code", rule="notation") from None


def decode_action(code: int) -> Action:
    if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < NUM_ACTIONS:
        raise InvalidNotation(f"action code {code!r} is not in 0..{NUM_ACTIONS - 1}", rule="notation")
    return ALL_ACTIONS[code]


_CARD_ALIASES = {c.lower(): c for c in CARDS} | {
    "25": "D25", "50": "D50", "75": "D75", "100": "D100", "200": "D200",
}  # fmt: skip


def _card(word: str, text: str) -> str:
    card = _CARD_ALIASES.get(word.lower())
    if card is None:
        raise InvalidNotation(f"'{text}': unknown card {word!r}; cards are {', '.join(CARDS)}", rule="notation")
    return card


def parse_action(text: str) -> Action:
    """Parse action notation; raise :class:`InvalidNotation` naming what is wrong."""
    if not isinstance(text, str):
        raise InvalidNotation(f"an action must be text, got {type(text).__name__}", rule="notation")
    words = text.split()
    if not words:
        raise InvalidNotation("empty action; try 'play D100', 'attack 2 STOP', 'discard ROLL'", rule="notation")
    verb = words[0].lower()
    if verb in ("extend", "decline"):
        if len(words) != 1:
            raise InvalidNotation(f"'{text}': '{verb}' takes nothing after it", rule="notation")
        return EXTEND if verb == "extend" else DECLINE
    if verb in ("play", "discard"):
        if len(words) != 2:
            raise InvalidNotation(f"'{text}': write '{verb} CARD', e.g. '{verb} D100'", rule="notation")
        card = _card(words[1], text)
        return PLAY[card] if verb == "play" else DISCARD[card]
    if verb == "attack":
        if len(words) != 3:
            raise InvalidNotation(f"'{text}': write 'attack SIDE CARD', e.g. 'attack 2 STOP'", rule="notation")
        side_word = words[1].upper().removeprefix("S").removeprefix("P").lstrip("0")
        if side_word not in _SIDE_WORDS:  # not int(): '²' is a digit, and 5,000 digits raise
            raise InvalidNotation(f"'{text}': side {words[1]!r} is not a side number 1..{MAX_SIDES}", rule="notation")
        card = _card(words[2], text)
        if card not in ATTACK_HAZARDS:
            raise InvalidNotation(f"'{text}': {card} is not a hazard; only hazards attack", rule="notation")
        return ATTACK[(card, _SIDE_WORDS.index(side_word))]
    raise InvalidNotation(f"'{text}': unknown verb {words[0]!r}; verbs are {', '.join(VERBS)}", rule="notation")


_SIDE_WORDS = tuple(str(n) for n in range(1, MAX_SIDES + 1))


def card_sort_key(card: str) -> int:
    return CARD_INDEX[card]
