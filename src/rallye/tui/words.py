"""Translated words on a rich screen: catalog messages with styled parts put in.

>>> from rich.text import Text
>>> t = compose("{who} plays {card}", who="P2", card=Text("Stop", style="red"))
>>> t.plain, [str(s.style) for s in t.spans]
('P2 plays Stop', ['red'])
"""

from __future__ import annotations

import string

from rich.text import Text

from rallye.i18n import LANGUAGES, Translator, translator


def compose(template: str, style: str = "", **params: object) -> Text:
    """``template`` (a translated message) with its ``{name}`` placeholders filled in; a
    :class:`~rich.text.Text` parameter keeps its own styles, the rest take ``style``."""
    out = Text(style=style)
    for literal, field, spec, conv in string.Formatter().parse(template):
        if literal:
            out.append(literal)
        if field is None:
            continue
        value = params[field]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            if conv == "r":
                value = repr(value)
            out.append(format(value, spec or ""))
    return out


def ui_language(lang: str | None, default: str) -> str:
    """The language of the screen's words: ``--lang`` if given, else the game's own."""
    if lang is None:
        return default
    if lang not in LANGUAGES:
        raise ValueError(f"no screen texts in language {lang!r} (have {', '.join(LANGUAGES)})")
    return lang


#: The row labels of ``rallye replay``'s summaries (``replay.label.<name>`` in the common
#: catalog), padded to one width in each language.
SUMMARY_ROWS = ("edition", "players", "hands", "status", "options", "actions")


def summary_row(tc: Translator, label: str, value: str) -> str:
    """A row of a record's summary: its translated label (none for ``""``), padded like the
    others, then ``value``.

    >>> summary_row(common("en"), "hands", "3; moves 80")
    'hands     3; moves 80'
    """
    width = max(len(tc(f"replay.label.{name}")) for name in SUMMARY_ROWS) + 3
    shown = tc(f"replay.label.{label}") if label else ""
    return f"{shown:<{width}}{value}"


def bot_name(lang: str, name: str) -> str:
    """A bot's name on screen, in the screen's language (``heuristic`` is ``Heuristik`` in
    German); a name the catalog does not know (a bot of a plug-in) as it is.

    >>> bot_name("de", "heuristic"), bot_name("hu", "random"), bot_name("de", "mine")
    ('Heuristik', 'véletlen', 'mine')
    """
    tc = common(lang if lang in LANGUAGES else "en")
    return tc(f"bot.{name}") if tc.has(f"bot.{name}") else name


def common(lang: str) -> Translator:
    """What both terminal games say (saving, quitting, seeds, passing the keyboard)."""
    return translator(lang, "common")


__all__ = ["bot_name", "common", "compose", "summary_row", "ui_language"]
