"""``rallye replay`` speaks the player's language: the edition's by default (German for
Knight Rider), else ``--lang``; no English word is left in a German or Hungarian summary."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from tests.tui.knightrider.test_replay import record as kr_record_of  # the sibling tests' record builders
from tests.tui.mille.test_replay import record as mille_record_of

from rallye.cli import main
from rallye.i18n import translator
from rallye.mille.edition import get_edition
from rallye.tui.replay import replay_command

#: What the English summaries say (the seed keeps its name in brackets, as ``--seed`` is
#: named: "Startwert (Seed)", "kezdőérték (seed)").
ENGLISH = (
    "valid",
    "record",
    "edition",
    "players",
    "side",
    "hands",
    "moves",
    "status",
    "finished",
    "in progress",
    "save file",
    "continue with",
    "shown when",
    "to play",
    "totals",
    "options",
    "actions",
    "chase turns",
    "basic game",
    "wins",
    "win",
    "points",
)


def english_words(text: str) -> list[str]:
    found = [w for w in ENGLISH if re.search(rf"\b{w}\b", text, re.IGNORECASE)]
    return found + re.findall(r"\bP\d\b", text)  # English seat names


def console() -> Console:
    return Console(file=io.StringIO(), width=140, record=True, color_system=None)


def mille_record(tmp_path: Path, edition: str, moves: int | None) -> Path:
    return mille_record_of(tmp_path, edition, seed=5, moves=moves)


def kr_record(tmp_path: Path, moves: int | None) -> Path:
    return kr_record_of(tmp_path, seed=4, moves=moves)


def replayed(path: Path, lang: str | None, quiet: bool = False) -> str:
    c = console()
    assert replay_command(path, c, lang=lang, quiet=quiet) == 0
    return c.export_text()


@pytest.mark.parametrize("moves", [None, 25])
@pytest.mark.parametrize(
    ("edition", "lang", "word"),
    [
        ("wm2006", None, "Spielprotokoll"),  # the edition's language: German
        ("fxschmid", None, "Spielprotokoll"),
        ("hu", None, "játéknapló"),  # the Hungarian edition: Hungarian
        ("wm2006", "hu", "játéknapló"),
        ("hu", "de", "Spielprotokoll"),
    ],
)
def test_a_mille_summary_has_no_english_word(
    tmp_path: Path, edition: str, lang: str | None, word: str, moves: int | None
) -> None:
    ed = get_edition(edition)
    path = mille_record(tmp_path, edition, moves)
    out = replayed(path, lang).replace(str(path), "").replace(ed.title, "")  # the box's own title
    assert word in out
    if lang is not None and lang not in ed.languages():
        # the edition has no card names in it: a note says so, and the score sheets' rows
        # name the scored lines in English (the words of the box); all the rest is translated
        assert (
            translator(lang, "mille")(
                "note.no_card_names", edition=edition, lang=lang, have=", ".join(ed.languages()), fallback="en"
            )
            in out
        )
        out = "\n".join(line for line in out.splitlines() if not set(line) & set("│┃"))
    assert english_words(out) == []
    quiet = replayed(path, lang, quiet=True).replace(str(path), "")
    assert word in quiet and english_words(quiet) == []


@pytest.mark.parametrize("moves", [None, 12])
@pytest.mark.parametrize(("lang", "word"), [(None, "Spielprotokoll"), ("de", "Spielprotokoll"), ("hu", "játéknapló")])
def test_a_knightrider_summary_has_no_english_word(
    tmp_path: Path, lang: str | None, word: str, moves: int | None
) -> None:
    path = kr_record(tmp_path, moves)
    out = replayed(path, lang)
    assert word in out
    assert english_words(out.replace(str(path), "")) == []
    quiet = replayed(path, lang, quiet=True)
    assert word in quiet and english_words(quiet.replace(str(path), "")) == []


def test_the_english_words_are_found_in_an_english_summary(tmp_path: Path) -> None:
    out = replayed(mille_record(tmp_path, "wm2006", 25), "en")
    assert {"valid", "record", "edition", "players", "hands", "moves", "status", "in progress"} <= set(
        english_words(out)
    )
    out = replayed(kr_record(tmp_path, None), "en")
    assert {"options", "actions", "chase turns", "finished"} <= set(english_words(out))


def test_french_summaries(tmp_path: Path) -> None:
    out = replayed(mille_record(tmp_path, "wm2006", 25), "fr")
    assert "un enregistrement de partie Mille Bornes valide" in out and "en cours (une sauvegarde)" in out
    out = replayed(kr_record(tmp_path, None), "fr")
    assert "variantes   construction rapide, circuit : 1 tuile cible" in out


def test_the_cli_takes_lang_and_refuses_an_unknown_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = mille_record(tmp_path, "wm2006", 25)
    assert main(["replay", str(path), "--lang", "hu"]) == 0
    assert "érvényes Mille Bornes-játéknapló" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--lang", "it"])
