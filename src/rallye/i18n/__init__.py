"""Message catalogs: every word a player reads, in German, Hungarian, English and French.

The catalogs are JSON files ``catalogs/<domain>/<lang>.json`` in this package, one per
domain (``common`` for what both terminal games share, ``mille``, ``kr``; the browser
pages add their own the same way) and language. Each maps a message id to a string with
``{name}`` placeholders, or, for a message that depends on a count, to an object of CLDR
plural forms ``{"one": "...", "other": "..."}``.

>>> t = translator("de", "common")
>>> t("bye")
'Tschüss.'
>>> t.n("n_players", 1), t.n("n_players", 3)
('1 Spieler', '3 Spieler')
>>> translator("fr", "common").n("n_players", 0)
'0 joueur'
>>> plural_category("hu", 1), plural_category("hu", 2), plural_category("fr", 1), plural_category("en", 0)
('one', 'other', 'one', 'other')

:func:`check_catalogs` lists what is wrong with the catalogs (a message missing in a
language, placeholders that differ between languages, a plural without its forms); the
test suite requires it to be empty.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

#: The languages every catalog is written in.
LANGUAGES: tuple[str, ...] = ("de", "hu", "en", "fr")
#: The plural categories each language uses (CLDR cardinal rules for integers).
PLURAL_FORMS: dict[str, tuple[str, ...]] = {
    "de": ("one", "other"),
    "hu": ("one", "other"),
    "en": ("one", "other"),
    "fr": ("one", "other"),
}

Message = str | dict[str, str]


class CatalogError(LookupError):
    """A message that a catalog does not have, or a catalog file that is not one."""


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the integer ``n`` in ``lang``: German, English and
    Hungarian say "one" for 1 only, French for 0 and 1 ("0 joueur", "1 joueur")."""
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def _root() -> Any:
    return resources.files("rallye.i18n").joinpath("catalogs")


def domains() -> tuple[str, ...]:
    """The catalog domains found in the package (every directory under ``catalogs``)."""
    return tuple(sorted(p.name for p in _root().iterdir() if p.is_dir() and not p.name.startswith(("_", "."))))


@cache
def catalog(domain: str, lang: str) -> dict[str, Message]:
    """The messages of one domain in one language (read once)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalogs in language {lang!r} (have {', '.join(LANGUAGES)})")
    path = _root().joinpath(domain, f"{lang}.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"no catalog {domain}/{lang}.json") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CatalogError(f"catalog {domain}/{lang}.json is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise CatalogError(f"catalog {domain}/{lang}.json must be a JSON object of messages")
    out: dict[str, Message] = {}
    for key, value in data.items():
        if isinstance(value, str):
            out[key] = value
        elif isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            out[key] = {str(k): str(v) for k, v in value.items()}
        else:
            raise CatalogError(f"catalog {domain}/{lang}.json: message {key!r} is neither a string nor plural forms")
    return out


class Translator:
    """The messages of one domain in one language: ``t(msg_id, **params)`` and
    ``t.n(msg_id, count, **params)`` (``{count}`` is filled in unless given)."""

    __slots__ = ("domain", "lang", "messages")

    def __init__(self, lang: str, domain: str, messages: dict[str, Message]) -> None:
        self.lang = lang
        self.domain = domain
        self.messages = messages

    def _get(self, msg_id: str) -> Message:
        try:
            return self.messages[msg_id]
        except KeyError:
            raise CatalogError(f"message {msg_id!r} is not in the {self.domain}/{self.lang} catalog") from None

    def __call__(self, msg_id: str, **params: object) -> str:
        msg = self._get(msg_id)
        if isinstance(msg, dict):
            raise CatalogError(f"message {msg_id!r} has plural forms: use .n(msg_id, count)")
        return msg.format_map(params) if params else msg.format_map({})

    def n(self, msg_id: str, count: int, **params: object) -> str:
        msg = self._get(msg_id)
        if not isinstance(msg, dict):
            raise CatalogError(f"message {msg_id!r} has no plural forms: use t(msg_id)")
        form = msg.get(plural_category(self.lang, count)) or msg["other"]
        params.setdefault("count", count)
        return form.format_map(params)

    def raw(self, msg_id: str, count: int | None = None) -> str:
        """The message itself, placeholders unfilled (for screens that put styled parts
        in); with ``count``, the plural form for it."""
        msg = self._get(msg_id)
        if isinstance(msg, dict):
            if count is None:
                raise CatalogError(f"message {msg_id!r} has plural forms: give a count")
            return msg.get(plural_category(self.lang, count)) or msg["other"]
        return msg

    def has(self, msg_id: str) -> bool:
        return msg_id in self.messages


def translator(lang: str, domain: str) -> Translator:
    """The translator for ``domain`` in ``lang`` (one of :data:`LANGUAGES`)."""
    return Translator(lang, domain, catalog(domain, lang))


def placeholders(message: Message) -> frozenset[str]:
    """The ``{name}`` placeholders of a message (all its plural forms together)."""
    texts = message.values() if isinstance(message, dict) else (message,)
    names: set[str] = set()
    for text in texts:
        for _, field, _, _ in string.Formatter().parse(text):
            if field is not None:
                names.add(field.split(".")[0].split("[")[0])
    return frozenset(names)


def check_catalogs() -> list[str]:
    """Everything wrong with the catalogs, one line each (``[]`` when all is well)."""
    problems: list[str] = []
    for domain in domains():
        by_lang: dict[str, dict[str, Message]] = {}
        for lang in LANGUAGES:
            try:
                by_lang[lang] = catalog(domain, lang)
            except CatalogError as exc:
                problems.append(str(exc))
        ids = sorted({k for msgs in by_lang.values() for k in msgs})
        for msg_id in ids:
            seen: dict[str, frozenset[str]] = {}
            kinds: dict[str, bool] = {}
            for lang, msgs in by_lang.items():
                if msg_id not in msgs:
                    problems.append(f"{domain}/{lang}: message {msg_id!r} has no translation")
                    continue
                msg = msgs[msg_id]
                kinds[lang] = isinstance(msg, dict)
                try:
                    seen[lang] = placeholders(msg)
                except ValueError as exc:
                    problems.append(f"{domain}/{lang}: message {msg_id!r} is not a valid format string: {exc}")
                    continue
                if isinstance(msg, dict):
                    missing = [f for f in PLURAL_FORMS[lang] if f not in msg]
                    extra = [f for f in msg if f not in PLURAL_FORMS[lang]]
                    if missing or extra:
                        problems.append(
                            f"{domain}/{lang}: plural message {msg_id!r} needs the forms "
                            f"{', '.join(PLURAL_FORMS[lang])} (missing: {', '.join(missing) or '-'}; "
                            f"unknown: {', '.join(extra) or '-'})"
                        )
            if len(set(kinds.values())) > 1:
                problems.append(f"{domain}: message {msg_id!r} is a plural in some languages and not in others")
            if len(set(seen.values())) > 1:
                detail = "; ".join(f"{lang}: {{{', '.join(sorted(p))}}}" for lang, p in seen.items())
                problems.append(f"{domain}: message {msg_id!r} has different placeholders ({detail})")
    return problems


__all__ = [
    "LANGUAGES",
    "PLURAL_FORMS",
    "CatalogError",
    "Translator",
    "catalog",
    "check_catalogs",
    "domains",
    "placeholders",
    "plural_category",
    "translator",
]
