"""The message catalogs: every message in every language of every domain, the same
placeholders everywhere, the plural rules of the four languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rallye import i18n
from rallye.i18n import LANGUAGES, CatalogError, check_catalogs, domains, plural_category, translator

CATALOGS = Path(i18n.__file__).parent / "catalogs"


def test_every_message_has_a_translation_with_the_same_placeholders_in_every_domain() -> None:
    found = sorted(p.name for p in CATALOGS.iterdir() if p.is_dir())
    assert set(domains()) == set(found) >= {"common", "mille", "kr"}  # a new domain is checked too
    assert check_catalogs() == []


def test_the_check_finds_a_missing_message_and_different_placeholders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "catalogs" / "web"
    root.mkdir(parents=True)
    for lang in LANGUAGES:
        msgs: dict[str, object] = {"hello": "hi {name}", "cards": {"one": "{count} card", "other": "{count} cards"}}
        if lang == "hu":
            del msgs["hello"]
        if lang == "fr":
            msgs["hello"] = "salut {nom}"
            msgs["cards"] = {"other": "{count} cartes"}
        (root / f"{lang}.json").write_text(json.dumps(msgs), encoding="utf-8")
    monkeypatch.setattr(i18n, "_root", lambda: tmp_path / "catalogs")
    i18n.catalog.cache_clear()
    try:
        problems = check_catalogs()
    finally:
        i18n.catalog.cache_clear()
    assert "web/hu: message 'hello' has no translation" in problems
    assert any("'hello' has different placeholders" in p and "fr: {nom}" in p for p in problems)
    assert any(p.startswith("web/fr: plural message 'cards' needs the forms one, other") for p in problems)


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("de", {0: "other", 1: "one", 2: "other", 8: "other"}),
        ("en", {0: "other", 1: "one", 2: "other", 21: "other"}),
        ("hu", {0: "other", 1: "one", 2: "other", 8: "other"}),
        ("fr", {0: "one", 1: "one", 2: "other", 8: "other"}),
    ],
)
def test_plural_rules_of_the_four_languages(lang: str, forms: dict[int, str]) -> None:
    assert {n: plural_category(lang, n) for n in forms} == forms


def test_plural_words_are_right() -> None:
    assert translator("de", "mille").n("hand.title", 8) == "Deine Hand (8 Karten)"
    assert translator("de", "mille").n("hand.title", 1) == "Deine Hand (1 Karte)"
    assert translator("fr", "mille").n("hand.title", 0) == "Votre main (0 carte)"
    assert translator("hu", "mille").n("hand.title", 8) == "A kezed (8 kártya)"  # hu: singular after a number


def test_unknown_messages_and_languages_are_clear_errors() -> None:
    with pytest.raises(CatalogError, match="'nope' is not in the common/de catalog"):
        translator("de", "common")("nope")
    with pytest.raises(CatalogError, match="no catalogs in language 'xx'"):
        translator("xx", "common")
    with pytest.raises(CatalogError, match="has plural forms"):
        translator("en", "common")("n_players")


ENGINES = {"mille": "rallye.mille.engine", "kr": "rallye.knightrider.engine"}


@pytest.mark.parametrize("domain", sorted(ENGINES))
def test_every_rule_an_engine_names_in_a_refusal_is_explained_in_its_catalog(domain: str) -> None:
    """The terminal says a refusal's rule in the player's language (the engine's exact words
    follow): every rule code in the engine's source has a ``rule.<code>`` message."""
    import importlib
    import inspect
    import re

    source = inspect.getsource(importlib.import_module(ENGINES[domain]))
    codes = set(re.findall(r'rule="([a-z0-9-]+)"', source))
    codes |= set(re.findall(r'return "([a-z0-9-]+)", ', source))  # mille: explain()'s (rule, reason)
    codes |= set(re.findall(r'_illegal\([^()]*(?:\([^()]*\)[^()]*)*"([a-z0-9-]+)",?\s*\)', source, re.S))
    codes -= {"deck", "action-code", "rng", "players", "options"}  # not refusals of a player's move
    assert len(codes) >= 15
    t = translator("de", domain)
    assert sorted(c for c in codes if not t.has(f"rule.{c}")) == []


def test_every_message_id_the_terminal_names_literally_is_in_a_catalog() -> None:
    """A literal ``t("id")``, ``t.n("id", …)`` or ``t.raw("id")`` in the terminal's code names
    a message that exists (ids built at run time are checked by the screens' own tests)."""
    import re

    tui = Path(i18n.__file__).parent.parent / "tui"
    call = re.compile(
        r'(?:\b(?:t|tr|tc|resumed)|\bUsageError|\bcommon\((?:[^()]|\([^()]*\))*\))(?:\.n|\.raw)?\(\s*"([a-z][a-z0-9_.-]*)"'
    )
    used = {m for path in tui.rglob("*.py") for m in call.findall(path.read_text(encoding="utf-8"))}
    known = {k for d in domains() for k in i18n.catalog(d, "en")}
    assert len(used) > 100
    assert {"play.resume_clash", "play.kr_options", "play.seat_range", "replay.valid", "replay.winner"} <= used
    assert sorted(used - known) == []


def test_the_words_of_replay_and_of_play_before_a_game_are_translated() -> None:
    """``rallye replay``'s summaries and what ``rallye play`` says before a game: in every
    language, German and Hungarian each their own words (not the English ones)."""
    ids = [
        (d, k) for d in ("common", "mille", "kr") for k in i18n.catalog(d, "en") if k.startswith(("replay.", "play."))
    ]
    assert len(ids) > 35
    for domain, key in ids:
        english = i18n.catalog(domain, "en")[key]
        for lang in ("de", "hu"):
            assert i18n.catalog(domain, lang)[key] != english, (domain, key, lang)


def test_a_summary_word_missing_in_one_language_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    shutil.copytree(CATALOGS, tmp_path / "catalogs")
    hu = tmp_path / "catalogs" / "common" / "hu.json"
    msgs = json.loads(hu.read_text(encoding="utf-8"))
    del msgs["replay.valid"]
    hu.write_text(json.dumps(msgs, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(i18n, "_root", lambda: tmp_path / "catalogs")
    i18n.catalog.cache_clear()
    try:
        problems = check_catalogs()
    finally:
        i18n.catalog.cache_clear()
    assert problems == ["common/hu: message 'replay.valid' has no translation"]


#: the names the Knight Rider villain has had on some screen, none of them the box's
OTHER_VILLAIN_NAMES = ("gangster", "gengszter", "bandit", "fluchtauto", "verbrecher", "gazember", "bűnöző", "culprit")


def _texts(message: object) -> list[str]:
    return [str(v) for v in message.values()] if isinstance(message, dict) else [str(message)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_knight_rider_villain_has_one_name_on_every_screen(lang: str) -> None:
    """The box calls the red car's driver "der Übeltäter"; every screen (the terminal's and the
    rules page's ``kr`` catalog, the browser's ``web`` one, the coach's reasons in both) names
    him with the one word of its language, the terminal's legend: every message whose English
    says "villain" says that word, and no message says another."""
    word = i18n.catalog("kr", lang)["legend.villain"]
    assert word == {"de": "Übeltäter", "hu": "gonosztevő", "en": "villain", "fr": "malfaiteur"}[lang]
    stem = word[:-1] if lang == "hu" else word  # Hungarian suffixes: gonosztevőt, gonosztevőtől
    saying_it = 0
    for domain in ("kr", "web"):
        english, msgs = i18n.catalog(domain, "en"), i18n.catalog(domain, lang)
        for key, message in msgs.items():
            for text in _texts(message):
                assert not [w for w in OTHER_VILLAIN_NAMES if w in text.lower()], f"{domain}/{lang} {key}: {text}"
            if any("villain" in text for text in _texts(english[key])):
                saying_it += 1
                assert all(stem.lower() in text.lower() for text in _texts(message)), f"{domain}/{lang} {key}"
    assert saying_it >= 40  # the rules, the map's legend, the events, the coach, the browser's log
