"""Card names in the four languages: German (the original box's) by default, Hungarian,
English and French, read from the ``kr`` message catalog (``card.<KIND>``), the one
place the terminal, the browser, the rules page and the coach take them from.

>>> card_name("TURBO1")
'Turbo-Boost I'
>>> card_name("ROADBLOCK", "en")
'Detour: roadblock'
>>> card_name("MANTLE", "fr"), card_name("JUMP", "hu")
('Bouclier moléculaire', 'Blokkugrás')
"""

from __future__ import annotations

from rallye.i18n import LANGUAGES as LANGUAGES
from rallye.i18n import translator

#: every kind with a name: the K.I.T.T. cards, the detours, and the three decks
KINDS: tuple[str, ...] = (
    "MANTLE",
    "TURBO1",
    "TURBO2",
    "JUMP",
    "STRAIGHT",
    "DEADEND",
    "ROADBLOCK",
    "RIGHT",
    "LEFT",
    "escape",
    "kitt",
    "detour",
)


def card_name(kind: str, lang: str = "de") -> str:
    """The display name of a card kind (``MANTLE`` ... ``LEFT``, or a deck: ``escape``,
    ``kitt``, ``detour``) in ``lang`` (``de``, ``hu``, ``en`` or ``fr``)."""
    if lang not in LANGUAGES or kind not in KINDS:
        raise ValueError(
            f"no name for card {kind!r} in language {lang!r}"
            f" (languages: {', '.join(LANGUAGES)}; cards: {', '.join(KINDS)})"
        )
    return translator(lang, "kr")(f"card.{kind}")


def card_names(lang: str = "de") -> dict[str, str]:
    """Every card kind's name in ``lang``."""
    return {k: card_name(k, lang) for k in KINDS}
