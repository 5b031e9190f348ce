"""``rallye rules knightrider``: components from the data files, the turn, the ram and oil tables,
in each of the four languages."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rallye.cli import main
from rallye.i18n import LANGUAGES, translator
from rallye.knightrider import OIL_TABLE, RAM_TABLE, load_pieces
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.tui.knightrider.info import oil_rows, print_rules, ram_rows


def rules(lang: str | None) -> str:
    c = Console(file=io.StringIO(), width=160, record=True, color_system=None)
    print_rules(c, lang)
    return c.export_text()


def test_ram_table_rows_in_german_by_default_with_german_card_names() -> None:
    out = rules(None)
    assert "Rammtabelle" in out and "Öltabelle" in out
    for roll, text in ram_rows("de"):
        assert any(line.split("│")[1:3] == [f" {' ' * 3}{roll} ", f" {text}"] or (f"{roll} │ {text}" in line)
                   for line in out.splitlines()), (roll, text)  # fmt: skip
    for _, text in oil_rows("de"):
        assert text in out
    for name in ("Molekül-Mantel", "Turbo-Boost I", "Turbo-Boost II", "Blockier-Sprung",
                 "Umleitung: Straßensperre", "Umleitung: Rechtskurve", "Flucht-Karten"):  # fmt: skip
        assert name in out, name
    assert "Würfeln" in out  # the turn order


def test_english_rules_use_the_engines_tables() -> None:
    out = rules("en")
    for roll in RAM_TABLE:
        assert f"{roll} │ {RAM_TABLE[roll]}" in out
    for roll in OIL_TABLE:
        assert f"{roll} │ {OIL_TABLE[roll]}" in out
    assert "Molecular Bonded Shell" in out and "Molekül-Mantel" not in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_translates_every_engine_row(lang: str) -> None:
    assert [r for r, _ in ram_rows(lang)] == sorted(RAM_TABLE) == list(range(1, 7))
    assert [r for r, _ in oil_rows(lang)] == sorted(OIL_TABLE) == list(range(1, 7))
    assert all(text for _, text in ram_rows(lang) + oil_rows(lang))
    if lang != "en":  # translated, not the engine's English
        assert [text for _, text in ram_rows(lang)] != [RAM_TABLE[r] for r in sorted(RAM_TABLE)]


#: A heading and the turn limit sentence of each language, as a player reads them.
HEADINGS = {
    "de": ("Spielmaterial", "Rammtabelle", f"Nach {DEFAULT_TURN_LIMIT} Zügen ohne Fang"),
    "hu": ("Tartozékok", "Ütközéstábla", f"Ha {DEFAULT_TURN_LIMIT} üldözési kör alatt senki sem kapja el"),
    "en": ("Components", "Ram table", f"After {DEFAULT_TURN_LIMIT} chase turns without a capture"),
    "fr": ("Matériel", "Table de percussion", f"Après {DEFAULT_TURN_LIMIT} tours de poursuite sans capture"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_prints_its_own_words_without_a_note(lang: str) -> None:
    out = rules(lang)
    flat = " ".join(out.split())  # the sentences wrap
    assert "Knight Rider has no" not in out
    for words in HEADINGS[lang]:
        assert words in flat, (lang, words)
    t = translator(lang, "kr")
    for k in KITT_KINDS + DETOUR_KINDS:
        assert t(f"card.{k}") in out, (lang, k)
    for _, text in ram_rows(lang) + oil_rows(lang):
        assert text in out, (lang, text)
    for other in set(LANGUAGES) - {lang}:
        assert HEADINGS[other][1] not in out, (lang, other)


def test_a_language_without_texts_gets_english_and_says_so() -> None:
    out = rules("it")
    assert "Knight Rider has no texts in 'it'" in out and "showing 'en'" in out
    assert "Ram table" in out and "Molecular Bonded Shell" in out


def test_components_are_counted_from_the_data_files() -> None:
    out = rules("de")
    pieces = load_pieces()
    shapes = {s: sum(1 for t in pieces.tiles if t.shape == s) for s in ("t_junction", "curve", "straight", "dead_end")}
    for label, key in (("T-Kreuzung", "t_junction"), ("Kurve", "curve"), ("Sackgasse", "dead_end")):
        line = next(line for line in out.splitlines() if label in line)
        assert f"│ {shapes[key]:>6} │" in line
    line = next(line for line in out.splitlines() if "Flucht-Karten" in line and "│" in line)
    assert f"{len(pieces.escape)} │" in line
    for card in pieces.escape:
        assert f"#{card.id} " in out


def test_rallye_rules_knightrider_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "knightrider", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Ram table" in out and RAM_TABLE[3] in out
    for lang, word in (("fr", "Bouclier moléculaire"), ("hu", "Molekulapáncél")):
        assert main(["rules", "knightrider", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert word in out and "Knight Rider has no" not in out and "Molecular" not in out
