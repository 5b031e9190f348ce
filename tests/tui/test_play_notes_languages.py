"""What ``rallye play`` says before a game starts (a bot that is missing, a seat that does
not exist, options that clash with ``--resume``, a finished match) is said in the language
the game will be played in: ``--lang``, else the edition's (German by default, and for
Knight Rider); the option names stay as they are typed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.tui.helpers import feed
from tests.tui.knightrider.test_play import play_args as kr_args  # the sibling tests' argument builders
from tests.tui.mille.test_play import always, console
from tests.tui.mille.test_play import play_args as mille_args

from rallye.agents import base as agents_base
from rallye.tui import play
from rallye.tui.knightrider.app import KRSession, play_knightrider
from rallye.tui.knightrider.app import resolve_bots as kr_resolve_bots
from rallye.tui.loop import UsageError, parse_humans, told
from rallye.tui.mille.app import MilleSession
from rallye.tui.play import play_language, play_mille
from rallye.tui.play import resolve_bots as mille_resolve_bots

#: English words of these notes that no German or Hungarian one has.
ENGLISH = ("must be", "cannot be given", "is over", "see it with", "not available", "instead", "does not exist")


def english(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


def mille_out(**kw: object) -> str:
    c = console()
    assert play_mille(mille_args(**kw), c, feed([])) == 2
    return c.export_text()


def kr_out(**kw: object) -> str:
    c = console()
    assert play_knightrider(kr_args(**kw), c, feed([])) == 2
    return c.export_text()


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        (dict(lang=None), "bei 2 Spielern sind die Plätze 1..2"),  # wm2006 is German
        (dict(lang=None, edition="meilen"), "bei 2 Spielern sind die Plätze 1..2"),
        (dict(lang=None, edition="hu"), "2 játékosnál a helyek: 1..2"),  # the Hungarian edition
        (dict(lang="hu"), "2 játékosnál a helyek: 1..2"),
        (dict(lang="fr"), "à 2 joueurs les places sont 1..2"),
        (dict(lang="en"), "with 2 players the seats are 1..2"),
    ],
)
def test_a_seat_that_does_not_exist_in_the_games_language(kw: dict[str, object], words: str) -> None:
    out = mille_out(seed=1, seat=3, **kw)
    assert words in out
    if kw["lang"] != "en":
        assert english(out) == []
    if "edition" not in kw:  # Knight Rider: the same words for its 3 seats
        assert words.replace("2", "3") in kr_out(seed=1, seat=4, **kw)


def test_bad_humans_in_german_and_hungarian() -> None:
    assert "--humans: Platz 1 ist doppelt angegeben" in mille_out(seed=1, humans="1,1", lang=None)
    assert "--humans: 9. hely nincs; a helyek: 1..3" in kr_out(seed=1, humans="9", lang="hu")
    assert "entweder --seat (eine Person) oder --humans (mehrere)" in kr_out(seed=1, humans="1", seat=2, lang=None)
    assert "--humans: 'x' ist keine Platznummer" in mille_out(seed=1, humans="x", lang="de")
    with pytest.raises(UsageError) as info:
        parse_humans("1,1", 2)
    assert str(info.value) == "--humans: seat 1 is given twice"  # the exception's own words are English
    assert told(info.value, "fr") == "--humans : la place 1 est donnée deux fois"
    assert told(ValueError("an engine's words"), "de") == "an engine's words"


def test_options_that_clash_with_resume_in_the_saves_language(tmp_path: Path) -> None:
    de = MilleSession.new("wm2006", 2, 5, 0, ["random"]).save(tmp_path / "de.jsonl")
    hu = MilleSession.new("hu", 2, 5, 0, ["random"]).save(tmp_path / "hu.jsonl")
    out = mille_out(resume=str(de), players=3, bots=None, lang=None)
    assert "--players geht nicht zusammen mit --resume" in out and english(out) == []
    out = mille_out(resume=str(hu), players=3, seed=4, bots=None, lang=None)
    assert "--players, --seed nem adható meg a --resume mellett" in out and english(out) == []
    assert "--players cannot be given with --resume" in mille_out(resume=str(hu), players=3, bots=None, lang="en")
    kr = KRSession.new(3, 5, 0, ["random", "random"]).save(tmp_path / "kr.jsonl")
    out = kr_out(resume=str(kr), players=3, tour=1, lang=None)
    assert "--players, --tour geht nicht zusammen mit --resume" in out and english(out) == []
    assert play_language(mille_args(resume=str(hu), lang=None)) == "hu"
    assert play_language(mille_args(resume=str(tmp_path / "missing.jsonl"), lang=None)) == "de"


def test_a_finished_match_is_told_in_its_language(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    c = console()
    assert play_mille(mille_args(seed=3, save=str(path), lang="en"), c, always("1")) == 0
    out = mille_out(resume=str(path), bots=None, lang=None)
    assert f"die Partie in {path} ist zu Ende; ansehen mit: rallye replay {path}" in out
    assert english(out.replace(str(path), "")) == []
    out = mille_out(resume=str(path), bots=None, lang="hu")
    assert f"véget ért; megtekintés: rallye replay {path}" in out


def test_knightrider_refusals_in_german_by_default() -> None:
    out = kr_out(seed=1, players=6, lang=None)
    assert "Knight Rider ist für 2 bis 5 Spieler, nicht für 6" in out
    out = kr_out(seed=1, edition="wm2006", lang=None)
    assert "--edition ist für Mille Bornes; Knight Rider hat nur eine Ausgabe" in out
    assert "a Knight Rider 2–5 játékosnak való, nem 6 játékosnak" in kr_out(seed=1, players=6, lang="hu")


def test_a_missing_heuristic_bot_is_noted_in_the_games_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents_base, "agent_names", lambda game: ("random",))
    notes: list[str] = []
    assert mille_resolve_bots(None, 1, notes.append, "de") == ["random"]
    assert kr_resolve_bots(None, 1, notes.append, "hu") == ["random"]
    assert notes == [
        "der Bot 'heuristic' ist noch nicht verfügbar; stattdessen spielt 'random'",
        "a(z) 'heuristic' Knight Rider-bot még nem érhető el; helyette 'random' játszik",
    ]
    c = console()
    assert play_mille(mille_args(seed=1, bots=None, lang=None), c, feed(["quit", ""])) == 0
    assert "der Bot 'heuristic' ist noch nicht verfügbar" in c.export_text()
    c = console()
    assert play_knightrider(kr_args(seed=1, bots=None, lang="fr"), c, feed(["quit", ""])) == 0
    assert "le bot Knight Rider 'heuristic' n'est pas encore disponible" in c.export_text()


def test_the_command_lines_refusals_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play.run_play(kr_args(game="mille", quick_build=True, lang=None)) == 2
    assert "--quick-build ist eine Knight-Rider-Option, nicht für mille" in capsys.readouterr().err
    assert play.run_play(kr_args(game="mille", quick_build=True, tour=2, lang="hu")) == 2
    assert "--quick-build, --tour Knight Rider-beállítások" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "rallye.tui.knightrider.app", None)
    assert play.run_play(mille_args(game="knightrider", lang=None)) == 2
    assert "Knight Rider im Terminal gibt es in dieser Installation nicht" in capsys.readouterr().err
