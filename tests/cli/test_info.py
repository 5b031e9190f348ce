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
        ("meilen", ["Schnecke 25", "Schwalbe 200", "Unkaputtbar", "Gewinner (1000 km oder am nächsten)"]),
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
    assert "101 Karten mit 2 Spielern" in out
    main(["rules", "mille", "--edition", "fxschmid", "--players", "2", "--lang", "en"])
    assert "101 cards with 2 players" in capsys.readouterr().out
    main(["rules", "mille", "--edition", "meilen"])
    assert "104 Karten" in capsys.readouterr().out


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


# -- how to play (issue 55, item 2) -------------------------------------------------------------
@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table cells unwrapped, so that a row reads as one line."""
    monkeypatch.setenv("COLUMNS", "200")


def rules_out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``rallye rules mille ...``'s text, its lines joined (rich wraps paragraphs to the terminal)."""
    assert main(["rules", "mille", *args]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("edition", "phrases"),
    [
        (
            "wm2006",
            [
                "Spielregeln",
                "zieht eine Karte und tut dann genau eines",  # the turn
                "wer Grüne Welle oben auf dem Fahrtstapel hat",  # driving, in the box's card names
                "Unter Geschwindigkeitsbegrenzung sind nur 25 km und 50 km erlaubt",
                "Blechschaden │ Werkstatt │ Fahrer-Training",  # hazard, remedy, safety
                "Blitzaktion: Legt ein Gegner",  # the coup fourré in the box's word
                "Legst du in diesem Zug noch eine solche Karte aus",  # one more turn in the coup-fourré turn
                "darf auf 1000 km verlängern (Verlängerung)",
                "Schafft es niemand, bekommt niemand die Prämien",
                "Die Krönung │ 300, wenn erst nach dem Ende des Stapels erreicht",  # scoring, in its words
                "Schneider │ 500 je gegnerische Seite ohne Kilometer, für die Seite, die das Ziel erreicht",
                "bis eine Seite 5000 Punkte hat",
            ],
        ),
        (
            "hu",
            [
                "Játékszabály",
                "A körödben húzol egy lapot",
                "ha a menetoszlopod tetején Zöldhullám van",
                "Ütközés │ Szerviz │ Autósiskola",
                "Villámválasz: ha egy ellenfél akadályt rak rád",
                "A meghosszabbított menet akkor is véget ér, ha elfogy a húzópakli",
                "Villámválasz │ darabonként +200 (az aduval együtt 300)",
                "Végsebesség │ 300, ha a húzópakli kifogyása után ért célba",
                "Durr-defekt │ 500 minden ellenfélért",
            ],
        ),
        (
            "fxschmid",
            [
                "Zu 4: 2 Teams zu je 2; zu 6: 2 Teams zu je 3; sonst spielt jeder allein.",
                "Mit 2/3 Spielern werden diese Karten aussortiert: Stop – Rotes Licht, Leerer Tank (Benzinpanne), "
                "Reifenpanne, Motorpanne, Geschwindigkeitsbegrenzung",
                "Motorpanne │ Selbsthilfe │ Werkstatt",
                "Wer eine davon auslegt, zieht und spielt gleich noch einmal",  # the extra turn after any safety
                "Schafft es der Ansager nicht, bekommt jeder Gegner, der Kilometer ausgelegt hat, die 200",
                "Nicht platziert │ 500 je gegnerische Seite ohne Kilometer, für jede Seite, die Kilometer",
            ],
        ),
        (
            "meilen",
            [
                "2, 3, 4, 5, 6 Spieler; alle spielen allein. Die Strecke ist 1000 km lang",
                "höchstens zwei Schwalbe 200 je Runde",
                "Sie endet auch nach dem Zug, der die letzte Karte vom Stapel zieht",
                "Hat niemand 1000 km erreicht, bekommen die Seiten, die am nächsten dran sind, die 400 Punkte",
                "Kilometerkarten, die noch auf der Hand sind, werden von der eigenen Seite abgezogen",
                "Ein Spiel ist eine einzige Runde und wird nach Strecke entschieden",
                "Ohne Schwalbe │ 200, wenn ohne Schwalbe 200 erreicht",
            ],
        ),
    ],
)
def test_rules_mille_tells_how_the_edition_is_played_in_its_language(
    edition: str, phrases: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = rules_out(capsys, "--edition", edition)
    for phrase in phrases:
        assert phrase in out


def test_rules_mille_leaves_out_what_the_edition_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    meilen = rules_out(capsys, "--edition", "meilen")
    assert "Verlängerung" not in meilen and "Schneider" not in meilen and "Alle 4" not in meilen
    assert "Ist der Stapel leer, wird aus der Hand weitergespielt" not in meilen
    wm2006 = rules_out(capsys, "--edition", "wm2006")
    assert "Kilometer auf der Hand" not in wm2006 and "Wer eine davon auslegt" not in wm2006
    fxschmid = rules_out(capsys, "--edition", "fxschmid")
    assert "Legst du in diesem Zug noch eine solche Karte aus" not in fxschmid  # every safety gives a turn there


def test_rules_mille_for_one_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    two = rules_out(capsys, "--edition", "wm2006", "--players", "2", "--lang", "en")
    assert "2 players; everyone plays alone. The trip is 700 km." in two
    assert "With 2 players these cards leave the deck: Stop, Out of Gas, Flat Tire, Accident." in two
    assert "may extend the hand to 1000 km (Extension)" in two
    four = rules_out(capsys, "--edition", "wm2006", "--players", "4", "--lang", "en")
    assert "4 players. With 4: 2 teams of 2. The trip is 1000 km." in four
    assert "leave the deck" not in four and "may extend" not in four  # teams never extend


def test_rules_mille_refuses_a_player_count_the_edition_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mille", "--edition", "wm2006", "--players", "5"]) == 2
    err = capsys.readouterr().err
    assert "wm2006 is played by 2, 3, 4, 6 players, not 5" in err and "[rule: players]" in err


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rules_mille_in_english_and_french_for_every_edition(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    heading = {"en": "How to play", "fr": "Règles du jeu"}[lang]
    turn = {"en": "Your turn: draw a card", "fr": "À ton tour : pioche une carte"}[lang]
    for key in EDITION_KEYS:
        ed = get_edition(key)
        out = rules_out(capsys, "--edition", key, "--lang", lang)
        assert heading in out and turn in out
        assert ed.card_name("ROLL", lang) in out and ed.word("coup_fourre", lang) in out
        assert "{" not in out


def test_rules_explain_in_the_language_asked_else_the_editions() -> None:
    from rallye.tui.mille.info import rules_language

    assert [rules_language(get_edition(k), None) for k in EDITION_KEYS] == ["de", "hu", "de", "de"]
    assert rules_language(get_edition("wm2006"), "hu") == "hu"
    assert rules_language(get_edition("hu"), "de") == "de"


def test_rules_mille_in_a_language_the_box_has_no_names_in(capsys: pytest.CaptureFixture[str]) -> None:
    """The rules in the language asked for, the cards under the box's own names."""
    out = rules_out(capsys, "--edition", "wm2006", "--lang", "hu")
    assert "Játékszabály" in out and "ha a menetoszlopod tetején Grüne Welle van" in out
    assert "Die Krönung │ 300, ha a húzópakli kifogyása után ért célba" in out


def test_every_rules_sentence_exists_in_every_language_with_the_same_fields() -> None:
    """A sentence missing in one language, or one that drops or invents a field, fails here."""
    import string

    from rallye.tui.mille.info import HOW_TO_PLAY

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    english = HOW_TO_PLAY["en"]
    assert set(HOW_TO_PLAY) == {"en", "de", "hu", "fr"}
    for lang, sentences in HOW_TO_PLAY.items():
        assert set(sentences) == set(english), f"{lang}: {sorted(set(sentences) ^ set(english))}"
        for key, text in sentences.items():
            assert text.strip(), f"{lang}.{key} is empty"
            assert fields(text) == fields(english[key]), f"{lang}.{key}"


@pytest.mark.parametrize("args", [["mille", "--edition", k] for k in EDITION_KEYS] + [["knightrider"]])
def test_rules_print_no_internal_file_names(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    import re

    for lang in ("de", "en"):
        assert main(["rules", *args, "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert not re.search(r"\d{3}_[0-9a-f]{16}|\.txt\b|\.json\b|seed", out), out[:200]


def test_rules_mille_for_a_house_file_named_in_one_language(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """A house file may name its cards and score lines in its own language only: asked for
    another, the rules are explained in it (or in English) with the box's own names."""
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "src/rallye/mille/editions/wm2006.json").read_text(encoding="utf-8"))
    data["key"] = "house"
    data["names"] = {"de": data["names"]["de"]}
    data["score_words"] = {"de": data["score_words"]["de"]}
    path = Path(str(tmp_path)) / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = rules_out(capsys, "--edition", str(path), "--lang", "fr")
    assert "Règles du jeu" in out and "si Grüne Welle est en haut de ta pile" in out
    assert "Blitzaktion :" in out and "ROLL │ parade │ 14 │ Grüne Welle" in out
