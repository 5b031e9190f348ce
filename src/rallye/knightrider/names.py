"""Card names: German (the original's) by default, and English.

>>> card_name("TURBO1")
'Turbo-Boost I'
>>> card_name("ROADBLOCK", "en")
'Detour: roadblock'
"""

from __future__ import annotations

NAMES: dict[str, dict[str, str]] = {
    "de": {
        "MANTLE": "Molekül-Mantel",
        "TURBO1": "Turbo-Boost I",
        "TURBO2": "Turbo-Boost II",
        "JUMP": "Blockier-Sprung",
        "STRAIGHT": "Umleitung: Gerade",
        "DEADEND": "Umleitung: Sackgasse",
        "ROADBLOCK": "Umleitung: Straßensperre",
        "RIGHT": "Umleitung: Rechtskurve",
        "LEFT": "Umleitung: Linkskurve",
        "escape": "Flucht-Karte",
        "kitt": "K.I.T.T.-Karte",
        "detour": "Umleitungs-Karte",
    },
    "en": {
        "MANTLE": "Molecular Bonded Shell",
        "TURBO1": "Turbo Boost I",
        "TURBO2": "Turbo Boost II",
        "JUMP": "Block Jump",
        "STRAIGHT": "Detour: straight",
        "DEADEND": "Detour: dead end",
        "ROADBLOCK": "Detour: roadblock",
        "RIGHT": "Detour: right curve",
        "LEFT": "Detour: left curve",
        "escape": "Escape card",
        "kitt": "K.I.T.T. card",
        "detour": "Detour card",
    },
}
LANGUAGES = tuple(NAMES)


def card_name(kind: str, lang: str = "de") -> str:
    """The display name of a card kind (``MANTLE`` ... ``LEFT``) in ``de`` or ``en``."""
    try:
        return NAMES[lang][kind]
    except KeyError:
        raise ValueError(f"no name for card {kind!r} in language {lang!r} (have {', '.join(LANGUAGES)})") from None
