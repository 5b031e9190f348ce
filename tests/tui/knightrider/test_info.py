"""``rallye rules knightrider``: components from the data files, the turn, the ram and oil tables."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rallye.cli import main
from rallye.knightrider import OIL_TABLE, RAM_TABLE, load_pieces
from rallye.tui.knightrider.info import OIL_TABLE_DE, RAM_TABLE_DE, oil_rows, print_rules, ram_rows


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


def test_the_german_tables_translate_every_engine_row() -> None:
    assert set(RAM_TABLE_DE) == set(RAM_TABLE) == set(range(1, 7))
    assert set(OIL_TABLE_DE) == set(OIL_TABLE) == set(range(1, 7))


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
    assert main(["rules", "knightrider", "--lang", "fr"]) == 0
    assert "Knight Rider has no card names in 'fr'" in capsys.readouterr().out
