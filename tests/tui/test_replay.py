"""``rallye replay`` of either game: the same tests, parametrized over Mille Bornes and
Knight Rider (each game's own are in tests/tui/mille/ and tests/tui/knightrider/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.tui.helpers import random_record, recording_console

from rallye.cli import main
from rallye.knightrider import Options
from rallye.tui.replay import replay_command

KR_SETTINGS = {"players": 3, "options": Options(quick_build=True, tour=1)}


@pytest.mark.parametrize(
    ("key", "settings", "seed", "moves"),
    [("mille", {"edition": "meilen", "players": 3}, 2, 20), ("knightrider", KR_SETTINGS, 6, 12)],
)
def test_a_save_file_is_in_progress_and_keeps_its_seed_secret(
    tmp_path: Path, key: str, settings: dict[str, Any], seed: int, moves: int
) -> None:
    path = random_record(tmp_path / "save.jsonl", key, settings, seed, moves)
    c = recording_console(140)
    assert replay_command(path, c, lang="en") == 0
    out = c.export_text()
    assert "in progress (a save file)" in out
    assert f"rallye play {key} --resume {path}" in out
    assert "seed (shown when the game is over)" in out and f"seed {seed}" not in out  # a game still on: a secret


@pytest.mark.parametrize(
    ("key", "settings", "title", "line", "old", "new", "said"),
    [
        (
            "mille",  # meilen is a German edition
            {"edition": "meilen", "players": 2},
            "Mille Bornes",
            1,
            '"dealer":1',
            '"dealer":0',
            "line 2: expected hand 0 dealt by seat 1",
        ),
        ("knightrider", KR_SETTINGS, "Knight Rider", 0, '"seed":3', '"seed":4', "line 2"),  # German, as the box
    ],
)
def test_the_cli_exit_codes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    key: str,
    settings: dict[str, Any],
    title: str,
    line: int,
    old: str,
    new: str,
    said: str,
) -> None:
    good = random_record(tmp_path / "good.jsonl", key, settings, 3)
    assert main(["replay", str(good), "--quiet", "--lang", "en"]) == 0
    assert f"valid {title} record" in capsys.readouterr().out
    assert main(["replay", str(good), "--quiet"]) == 0
    assert f"gültiges Spielprotokoll von {title}" in capsys.readouterr().out
    lines = good.read_text(encoding="utf-8").splitlines()
    assert old in lines[line]
    lines[line] = lines[line].replace(old, new)
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(good)]) == 2
    assert said in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
