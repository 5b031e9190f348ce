"""`rallye editions` and `rallye rules`: every edition in its own words (issue 2, item 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rallye.cli import main
from rallye.mille.edition import EDITION_KEYS, get_edition


def test_editions_lists_every_edition_with_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["editions", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["key"] for r in rows] == list(EDITION_KEYS)
    assert "hungarian" in next(r for r in rows if r["key"] == "hu")["aliases"]


@pytest.mark.parametrize(
    ("edition", "names"),
    [
        ("hu", ["Zöldhullám", "Defekt biztos autógumi", "Villámválasz", "Végsebesség", "Durr-defekt"]),
        ("wm2006", ["Grüne Welle", "Blechschaden", "Die Krönung", "Schneider", "Verlängerung"]),
        ("fxschmid", ["Rallyeservice", "Selbsthilfe", "Sonderwertung", "Nicht platziert", "Fahrerführung"]),
        ("meilen", ["Schnecke 25", "Schwalbe 200", "Unkaputtbar", "Meilen auf der Hand"]),
    ],
)
def test_rules_prints_the_edition_cards_and_score_words_in_its_language(
    edition: str, names: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "mille", "--edition", edition]) == 0
    out = capsys.readouterr().out
    for name in names:
        assert name in out


def test_rules_counts_follow_the_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    main(["rules", "mille", "--edition", "fxschmid", "--players", "2"])
    out = capsys.readouterr().out
    assert "101 cards with 2 players" in out
    main(["rules", "mille", "--edition", "meilen"])
    assert "104 cards" in capsys.readouterr().out


def test_rules_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    main(["rules", "mille", "--edition", "hu", "--lang", "fr"])
    out = capsys.readouterr().out
    assert "Feu vert" in out and "Zöldhullám" not in out


def test_unknown_edition_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mille", "--edition", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown edition 'nope'" in err and "wm2006" in err


def test_house_rule_file_by_path(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "src/rallye/mille/editions/wm2006.json").read_text(encoding="utf-8"))
    data["key"] = "house"
    data["scoring"]["trip"] = 500
    path = Path(str(tmp_path)) / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert get_edition(str(path)).scoring.trip == 500
    assert main(["rules", "mille", "--edition", str(path)]) == 0
    assert "500" in capsys.readouterr().out


def test_console_script_entry_point_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rallye", "editions", "--json"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out)[0]["key"] == "wm2006"
