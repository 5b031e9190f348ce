"""``rallye replay``: a good record is summarised, an altered one is refused with its line."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.tui.helpers import random_record, rewrite_line

from rallye import mille
from rallye.tui.replay import replay_command
from rallye.tui.words import common, summary_row


def console() -> Console:
    return Console(file=io.StringIO(), width=120, record=True, color_system=None)


def record(tmp_path: Path, edition: str = "wm2006", players: int = 2, seed: int = 4, moves: int | None = None) -> Path:
    settings = {"edition": edition, "players": players}
    return random_record(tmp_path / f"{edition}-{seed}.jsonl", "mille", settings, seed, moves)


def test_a_finished_record_is_summarised_with_every_score_sheet(tmp_path: Path) -> None:
    path = record(tmp_path)
    c = console()
    assert replay_command(path, c) == 0  # in the edition's language: German
    out = c.export_text()
    rec = mille.record.replay_file(path)
    de = common("de")
    assert "ein gültiges Spielprotokoll von Mille Bornes" in out
    assert summary_row(de, "edition", "1000 Kilometer (Winning Moves Deutschland, 2006) (wm2006)") in out
    assert summary_row(de, "status", "beendet") in out
    assert summary_row(de, "hands", f"{len(rec.final.sheets)}; Züge {len(rec.actions)}") in out
    for sh in rec.final.sheets:
        assert f"Wertungsblock — Etappe {sh.hand + 1}" in out
    assert "Die Krönung" in out and "Schneider" in out
    assert re.search(rf"gewinn\w* mit {max(rec.final.totals)} Punkten", out)


def test_a_finished_record_in_english(tmp_path: Path) -> None:
    path = record(tmp_path)
    c = console()
    assert replay_command(path, c, lang="en") == 0
    out = c.export_text()
    rec = mille.record.replay_file(path)
    assert "a valid Mille Bornes record" in out
    assert "edition   1000 Kilometer (Winning Moves Deutschland, 2006) (wm2006)" in out
    assert "status    finished" in out
    assert f"hands     {len(rec.final.sheets)}; moves {len(rec.actions)}" in out
    assert "Score sheet — Hand 1" in out
    assert f"with {max(rec.final.totals)} points" in out


def test_a_save_of_several_people_names_them_all(tmp_path: Path) -> None:
    from rallye.tui.mille.app import MilleSession

    session = MilleSession.new("meilen", 3, 8, (0, 2), ["random"])
    path = session.save(tmp_path / "hot.jsonl")
    c = console()
    assert replay_command(path, c, lang="en") == 0
    out = c.export_text()
    assert "side 1: P1 (human)" in out and "side 2: P2 (random)" in out and "side 3: P3 (human)" in out


def test_an_altered_action_is_rejected_with_its_line_number(tmp_path: Path) -> None:
    path = record(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, raw in enumerate(lines) if json.loads(raw)["type"] == "action" and i > 5)
    rewrite_line(path, n, player=1 - json.loads(lines[n])["player"])  # the other player acts out of turn
    c = console()
    assert replay_command(path, c) == 2
    out = c.export_text()
    assert f"line {n + 1}" in out and "rallye replay:" in out


def test_an_altered_score_is_rejected_with_its_line_number(tmp_path: Path) -> None:
    path = record(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, raw in enumerate(lines) if json.loads(raw)["type"] == "score")

    def change(obj: dict[str, Any]) -> None:
        obj["sheet"]["totals"][0] += 100

    rewrite_line(path, n, change)
    c = console()
    assert replay_command(path, c) == 2
    assert f"line {n + 1}: the score sheet of hand 1 is wrong" in c.export_text()


def test_a_truncated_line_and_an_unknown_game_are_rejected(tmp_path: Path) -> None:
    path = record(tmp_path, "meilen", 2, seed=1)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    c = console()
    assert replay_command(path, c) == 2
    assert "is not valid JSON" in c.export_text()
    other = tmp_path / "x.jsonl"
    other.write_text('{"type":"header","game":"chess"}\n', encoding="utf-8")
    c = console()
    assert replay_command(other, c) == 2
    assert "line 1: the header names no known game (field 'game' is \"chess\")" in c.export_text()


def test_knightrider_record_without_its_module_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "rallye.knightrider.record", None)
    path = tmp_path / "kr.jsonl"
    path.write_text('{"type":"header","game":"knightrider","format":1}\n', encoding="utf-8")
    c = console()
    assert replay_command(path, c, lang="en") == 2
    assert "Knight Rider records cannot be replayed" in c.export_text()
    c = console()
    assert replay_command(path, c) == 2  # German, as the box
    assert "kann Knight-Rider-Protokolle nicht nachspielen" in c.export_text()


def test_an_out_of_turn_action_names_the_rule_once(tmp_path: Path) -> None:
    path = record(tmp_path, "wm2006", 2, seed=6, moves=10)
    rewrite_line(path, 2, player=1)
    c = console()
    assert replay_command(path, c) == 2
    out = c.export_text()
    assert "line 3: illegal" in out and "it is P1's turn" in out
    assert out.count("[rule: turn-order]") == 1
