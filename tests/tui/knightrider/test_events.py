"""Knight Rider's engine events said again in the screen's language (rallye.tui.knightrider.events)."""

from __future__ import annotations

import random

import pytest

from rallye.i18n import LANGUAGES, translator
from rallye.knightrider import OIL_TABLE, RAM_TABLE, Options, apply, legal_actions, new_game, view_for
from rallye.knightrider.names import KINDS, card_name, card_names
from rallye.knightrider.view import EventView
from rallye.tui.knightrider.events import match
from rallye.tui.knightrider.render import Labels, event_text


def played_events(games: int = 6, limit: int = 400) -> list[EventView]:
    """Every event of a few random games (variants on), as a player's view shows them."""
    out: list[EventView] = []
    variants = (
        Options(quick_build=True),
        Options(quick_build=True, tour=2),
        Options(quick_build=True, rolled_start=True),
        Options(),
    )
    for g in range(games):
        rng = random.Random(g)
        s = new_game(2 + g % 4, seed=100 + g, options=variants[g % len(variants)])
        out += view_for(s, 0).events
        for _ in range(limit):
            if s.phase == "over":
                break
            s = apply(s, rng.choice(legal_actions(s)))
            out += view_for(s, 0).events
    return out


EVENTS = played_events()


def test_every_event_the_engine_tells_has_a_translation() -> None:
    kinds = {e.kind for e in EVENTS}
    assert {"turn", "roll", "escape", "villain_move", "draw", "start_player"} <= kinds
    unmatched = sorted({(e.kind, e.text) for e in EVENTS if match(e) is None})
    assert unmatched == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_events_read_in_each_language_with_seats_squares_and_fields_named(lang: str) -> None:
    lab = Labels(lang, ("you", "random", "random", "random", "random"))
    t = translator(lang, "kr")
    for e in EVENTS:
        text = event_text(e, lab).plain
        assert text and "{" not in text, (e, text)
        if lang != "en":
            assert e.text not in text or e.kind in ("turn", "roll"), (e, text)  # not the engine's English
        if e.kind == "villain_move":
            assert t("square", xy="").strip() in text
        if e.kind == "skid":
            assert t("field", xy="").strip() in text
    skid = EventView("skid", 0, 1, "P1 skids 1 field(s) back to 10,4")
    assert event_text(skid, Labels("de")).plain == "S1 schleudert 1 Feld zurück auf Feld 10,4"
    assert event_text(skid, Labels("en")).plain == "P1 skids 1 field back to field 10,4"


def test_an_event_no_pattern_knows_is_shown_as_the_engine_wrote_it() -> None:
    odd = EventView("new_kind", 0, None, "P1 does something new")
    assert match(odd) is None
    assert event_text(odd, Labels("fr")).plain == "P1 does something new"


def test_catalog_tables_and_card_names_agree_with_the_engine_and_the_rules_page() -> None:
    # the rules page prints these same catalog rows (tests/tui/knightrider/test_info.py)
    en = translator("en", "kr")
    for roll in range(1, 7):
        assert en(f"ram.{roll}") == RAM_TABLE[roll]
        assert en(f"oil.{roll}") == OIL_TABLE[roll]
    # one source of truth: the engine's card names are the kr catalog's, in every language
    # (German, the box's, by default), and each language names every card differently
    for lang in LANGUAGES:
        t = translator(lang, "kr")
        assert card_names(lang) == {k: t(f"card.{k}") for k in KINDS}
        assert len(set(card_names(lang).values())) == len(KINDS), lang
    assert card_names() == card_names("de")
    assert {lang: card_name("TURBO1", lang) for lang in LANGUAGES} == {
        "de": "Turbo-Boost I",
        "hu": "Turbó I",
        "en": "Turbo Boost I",
        "fr": "Turbo I",
    }
