"""The terminal's leftovers (issue 65, item 8), the commands' side: each test names its item."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rallye.cli import main
from rallye.core.errors import GameError
from rallye.mille.edition import get_edition


def test_editions_shows_no_command_as_an_alias(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]
    assert [r[0] for r in rows][-1] == "knightrider"
    for key, *_, aliases in rows:
        for alias in filter(None, (a.strip() for a in aliases.split(","))):
            if alias == "–":
                continue
            assert " " not in alias, (key, alias)
            if key != "knightrider":
                assert get_edition(alias).key == key
    assert next(r for r in rows if r[0] == "knightrider")[-1] == "–"
    assert "rallye rules knightrider" in out  # still said, as a caption, not as an alias
    with pytest.raises(GameError):
        get_edition("rallye rules knightrider")


@pytest.mark.parametrize("game", ["mille", "knightrider"])
@pytest.mark.parametrize("seat", ["99", "0", "-2"])
def test_seat_99_states_the_real_range(game: str, seat: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--seat 99`` is not argparse's "from 0 to 64": the seats a game of this many players has."""
    assert main(["play", game, "--seat", seat, "--players", "3", "--lang", "en", "--delay", "0"]) == 2
    out = capsys.readouterr()
    said = out.out + out.err
    assert f"--seat {seat}: no such seat; with 3 players the seats are 1..3" in said
    assert "64" not in said


BROKEN_HEADERS = [
    {"type": "header"},
    {"type": "header", "game": None},
    {"type": "header", "game": "mille", "edition": None, "players": None, "seed": None},
    {"type": "header", "game": "knightrider", "players": 3, "seed": None, "options": None},
    {"type": "header", "game": "mille", "format": 1, "edition": "wm2006", "players": 2, "seed": 1,
     "tui": {"human_seats": [None, [1, 2]]}},
    {"type": "header", "game": "knightrider", "version": [1, 2], "players": 3, "seed": 1},
    {"type": "header", "game": "knightrider", "version": 1, "players": 3, "seed": 1, "options": {"tour": None}},
]  # fmt: skip


@pytest.mark.parametrize("header", BROKEN_HEADERS, ids=range(len(BROKEN_HEADERS)))
@pytest.mark.parametrize("command", [["replay"], ["play", "mille", "--resume"], ["play", "knightrider", "--resume"]])
def test_no_python_none_or_tuple_reprs_in_messages(
    header: dict[str, object], command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken record is refused naming the field as JSON writes it (null, [1, 2]), never as
    Python's None or a tuple."""
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main([*command, str(path), "--lang", "en"]) == 2
    out = capsys.readouterr()
    said = out.out + out.err
    assert "broken.jsonl" in said and "Traceback" not in said
    assert "None" not in said and not re.search(r"\(\d+, \d+\)|\[None|\(None", said), said


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["mille", "--edition", "nope"], "--edition nope: diese Ausgabe gibt es nicht; die Ausgaben sind wm2006, hu"),
        (["mille", "--bots", "nope"], '--bots: einen Bot "nope" gibt es nicht; die Bots sind climbed'),
        (["mille", "--players", "5"], "--players 5: wm2006 wird von 2, 3, 4, 6 Spielern gespielt"),
        (["knightrider", "--bots", "random,nope", "--lang", "hu"], '--bots: "nope" nevű bot nincs'),
        (
            ["mille", "--edition", "meilen", "--players", "7", "--lang", "fr"],
            "--players 7 : meilen se joue à 2, 3, 4, 5, 6",
        ),
    ],
)
def test_the_options_a_newcomer_gets_wrong_are_told_in_the_screens_language(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["play", *argv, "--delay", "0"]) == 2
    out = capsys.readouterr()
    assert said in out.out + out.err
    assert "unknown" not in out.out + out.err and "[rule:" not in out.out + out.err
