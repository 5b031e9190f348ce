"""The terminal game: the session loop driven by injected input and a recording console."""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from tests.tui.helpers import feed, recording_console
from tests.tui.hotseat import ClearingConsole, hot_seat_input

from rallye.agents import base as agents_base
from rallye.core.record import read_jsonl
from rallye.i18n import translator
from rallye.mille.edition import LANGUAGES
from rallye.mille.record import replay_file
from rallye.tui.mille.app import MilleSession, run_session
from rallye.tui.play import play_mille, resolve_bots

SRC = Path(__file__).resolve().parents[3] / "src"


def console() -> Console:
    return recording_console(120)


#: the pause between hands, in every language (a move typed there is not taken for Enter)
NEXT_HAND = tuple(translator(lang, "mille")("next_hand_prompt") for lang in LANGUAGES)


def at_next_hand(prompt: str) -> bool:
    return prompt.startswith(NEXT_HAND)


def always(answer: str, limit: int = 20_000) -> Callable[[str], str]:
    """``answer`` to every prompt (Enter at the pause between hands); more than ``limit`` fails."""
    counted = feed(itertools.repeat(answer), limit)
    return lambda prompt: "" if at_next_hand(prompt) else counted(prompt)


def play_args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(
        game="mille", edition=None, players=None, seat=None, seed=None, bots="random",
        lang="en", save=None, resume=None, delay=0.0, humans=None,
    )  # fmt: skip
    base.update(kw)
    return argparse.Namespace(**base)


def test_full_two_player_match_choosing_1_shows_hand_and_wm2006_score_sheet() -> None:
    session = MilleSession.new("wm2006", 2, 11, 0, ["random"])
    c = console()
    # "1" for every move, Enter after each hand (a move typed there is not taken for Enter)
    assert run_session(session, lambda prompt: "" if at_next_hand(prompt) else "1", c) == 0
    assert session.over
    out = c.export_text()
    assert "Deine Hand (7 Karten)" in out  # the edition's language for every word
    # the edition's own score-sheet words (wm2006, German)
    for word in ("Wertungsblock", "Etappe", "Kilometer", "Die Krönung", "Schneider", "Gesamt", "Gewinn der Etappe"):
        assert word in out, word
    assert "Das Spiel ist zu Ende" in out
    assert "gewinnt mit" in out
    v = session.view()
    assert max(v.totals) >= 5000 and v.winners
    # every hand's score sheet was shown as it ended
    for sh in v.sheets:
        assert f"Wertungsblock — Etappe {sh.hand + 1}" in out


def test_core_rolling_refused_move_names_the_rule_and_loses_nothing() -> None:
    # seed 1: P1 holds D100 at the start but nobody is rolling yet [core: Rolling]
    session = MilleSession.new("wm2006", 2, 1, 0, ["random"])
    before = session.state
    assert "D100" in session.view().hand
    c = console()
    run_session(session, feed(["play D100", "attack 1 ACCIDENT", "attack 9 STOP", "quit", ""]), c, lang="en")
    out = c.export_text()
    assert "refused: 'play D100': distance needs a rolling side (a Roll card on top of the battle pile)" in out
    assert "refused: 'attack 1 ACCIDENT': hazards go onto an opposing side, not your own" in out
    assert "not understood: 'attack 9 STOP': that is not a move (see 'help')" in out
    assert "[rule:" not in out  # the engine's own line is not shown (issue 65, item 8)
    assert session.state == before  # nothing was played
    assert not any(line["type"] == "action" for line in session.lines)


def test_number_out_of_range_and_unknown_words_are_explained() -> None:
    session = MilleSession.new("wm2006", 2, 1, 0, ["random"])
    c = console()
    run_session(session, feed(["99", "fly away", "help", "sheet", "hand", "quit", "n"]), c, lang="en")
    out = c.export_text()
    n = len(session.legal())
    assert f"there is no move 99; the moves are numbered 1..{n}" in out
    assert "not understood: 'fly away': that is not a move (see 'help')" in out
    assert "attack 2 STOP" in out  # the help text
    assert "No hand has been scored yet." in out
    assert "Bye." in out


def test_resume_through_the_command_continues_and_saves_back(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    first = console()
    assert play_mille(play_args(seed=3, save=str(path)), first, feed(["1", "1", "quit", ""])) == 0
    saved = replay_file(path)
    c = console()
    rc = play_mille(play_args(resume=str(path), bots=None), c, feed(["1", "quit", "y"]))
    assert rc == 0
    out = c.export_text()
    assert f"resumed {path}: {len(saved.actions)} moves replayed and verified" in out
    again = replay_file(path)
    assert len(again.actions) > len(saved.actions)
    assert again.actions[: len(saved.actions)] == saved.actions


def test_resume_rejects_settings_the_save_holds(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    play_mille(play_args(seed=3, save=str(path)), console(), feed(["1", "quit", ""]))
    c = console()
    assert play_mille(play_args(resume=str(path), players=4), c, feed([])) == 2
    assert "--players cannot be given with --resume" in c.export_text()


def test_eof_saves_to_the_save_file_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "auto.jsonl"
    c = console()
    assert play_mille(play_args(seed=8, save=str(path)), c, feed(["1", "1"])) == 0
    assert f"saved to {path}" in c.export_text()
    rep = replay_file(path)
    assert not rep.finished and len(rep.actions) >= 2
    header = read_jsonl(path)[0][1]
    assert header["tui"] == {"human_seat": 0, "bots": [None, "random"]}


def test_eof_without_save_file_says_nothing_was_saved() -> None:
    c = console()
    assert play_mille(play_args(seed=8), c, feed([])) == 0
    assert "the game was not saved" in c.export_text()


def test_team_game_labels_sides_and_seat_two() -> None:
    session = MilleSession.new("wm2006", 4, 9, 1, ["random"] * 3)
    c = console()
    run_session(session, feed(["quit", ""]), c, lang="en")
    out = c.export_text()
    assert "side 1: P1 (random) + P3 (random)" in out
    assert "side 2: P2 (you) + P4 (random)   ← your side" in out
    assert "target 1000 km" in out


def test_language_choice_and_fallback() -> None:
    c = console()
    play_mille(play_args(seed=1, lang="en"), c, feed(["quit", ""]))
    out = c.export_text()
    assert "Your hand" in out and "(D100)" in out and "100 km (D100)" in out and "miles" not in out
    c = console()
    play_mille(play_args(seed=1, lang="hu"), c, feed(["quit", ""]))
    out = c.export_text()
    # the screen speaks Hungarian; the cards fall back to English, with a note saying so
    assert "A(z) wm2006 kiadásban nincsenek hu nyelvű kártyanevek" in out
    assert "A kezed (7 kártya)" in out and "100 km" in out and "Viszlát." in out
    c = console()
    play_mille(play_args(seed=1, edition="hu", lang=None), c, feed(["quit", ""]))
    out = c.export_text()
    assert "1000 Kilométer" in out and "Ütközés (ACCIDENT)" in out  # hu names by default
    assert "húzópakli" in out and "te következel" in out  # and hu words


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ("Deine Hand (7 Karten)", "Nachziehstapel", "Ziel 700 km", "du bist dran", "Letzte Züge")),
        ("hu", ("A kezed (7 kártya)", "húzópakli", "cél 700 km", "te következel", "Utolsó lépések")),
        ("en", ("Your hand (7 cards)", "draw pile", "target 700 km", "your turn", "Last moves")),
        ("fr", ("Votre main (7 cartes)", "pioche", "but 700 km", "à vous de jouer", "Derniers coups")),
    ],
)
def test_every_word_of_the_screen_in_the_chosen_language(lang: str, words: tuple[str, ...]) -> None:
    c = console()
    play_mille(play_args(seed=1, lang=lang), c, feed(["help", "quit", ""]))
    out = c.export_text()
    for word in words:
        assert word in out, (lang, word)
    others = {"de": "Deine Hand", "hu": "A kezed", "en": "Your hand", "fr": "Votre main"}
    assert not [w for lg, w in others.items() if lg != lang and w in out]


def test_bad_settings_get_clear_errors() -> None:
    c = console()
    assert play_mille(play_args(seed=1, players=5), c, feed([])) == 2
    assert "--players 5: wm2006 is played by 2, 3, 4, 6 players" in c.export_text()
    c = console()
    assert play_mille(play_args(seed=1, seat=3), c, feed([])) == 2
    assert "with 2 players the seats are 1..2" in c.export_text()
    c = console()
    assert play_mille(play_args(seed=1, bots="nosuchbot"), c, feed([])) == 2
    assert 'there is no bot "nosuchbot"' in c.export_text()
    c = console()
    assert play_mille(play_args(seed=1, edition="nope"), c, feed([])) == 2
    assert "--edition nope: there is no such edition" in c.export_text()


def test_missing_heuristic_bot_falls_back_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents_base, "agent_names", lambda game: ("random",))
    notes: list[str] = []
    assert resolve_bots(None, 3, notes.append) == ["random", "random", "random"]
    assert notes == ["the heuristic bot is not available yet; using 'random' instead"]


SECRET = 734519  # a seed whose digits appear nowhere else on these screens


def test_seed_is_secret_until_the_match_ends_then_printed_to_play_again(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    c = console()
    play_mille(play_args(seed=SECRET, save=str(path)), c, feed(["1", "1", "quit", ""]))
    assert str(SECRET) not in c.export_text()  # not at the start, not when quitting or saving
    c = console()
    assert play_mille(play_args(resume=str(path), bots=None), c, always("1")) == 0
    out = c.export_text()
    end = out.index("The match is over")
    assert "resumed" in out[:end] and str(SECRET) not in out[:end]  # nor in the resume message
    assert (
        f"play this deal again with: rallye play mille --edition wm2006 --players 2 --bots random --seed {SECRET}"
        in out[end:]
    )
    # the finished record is saved, and not offered to --resume (there is nothing left to play)
    assert f"saved to {path} (the game is over; see it with: rallye replay {path})" in out[end:]
    assert "--resume" not in out[end:]


def test_a_random_seed_is_printed_only_at_the_end() -> None:
    c = console()
    assert play_mille(play_args(players=3), c, always("1")) == 0
    out = c.export_text()
    found = re.findall(r"--seed (\d+)", out)
    assert len(found) == 1 and out.index("--seed") > out.index("The match is over")
    c = console()
    play_mille(play_args(), c, feed(["quit", ""]))
    assert "seed" not in c.export_text()


def test_knightrider_without_its_app_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rallye.tui import play

    monkeypatch.setitem(sys.modules, "rallye.tui.knightrider.app", None)
    assert play.run_play(play_args(game="knightrider")) == 2
    assert "Knight Rider terminal play is not available" in capsys.readouterr().err


def test_python_m_rallye_play_in_a_subprocess_quits_cleanly() -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rallye",
            "play",
            "mille",
            "--players",
            "2",
            "--seed",
            "1",
            "--bots",
            "random",
            "--lang",
            "en",
        ],
        input="1\n2\nplay D200\nquit\n\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Your hand" in proc.stdout
    assert "refused: 'play D200'" in proc.stdout
    assert "Bye." in proc.stdout
    assert proc.stderr == ""


def test_humans_option_saves_and_resumes_both_people(tmp_path: Path) -> None:
    path = tmp_path / "hot.jsonl"
    log: list[object] = []
    c = ClearingConsole(log)
    args = play_args(seed=4, players=3, humans="3,1", save=str(path))
    assert play_mille(args, c, hot_seat_input(log, limit=12)) == 0
    header = read_jsonl(path)[0][1]
    assert header["tui"] == {"human_seat": 0, "bots": [None, "random", None], "human_seats": [0, 2]}
    resumed = MilleSession.resume(path)
    assert resumed.human_seats == (0, 2) and resumed.bot_names == (None, "random", None)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (dict(humans="1,1"), "--humans: seat 1 is given twice"),
        (dict(humans="0"), "--humans: seat 0 does not exist; seats are 1..2"),
        (dict(humans="one"), "--humans: 'one' is not a seat number"),
        (dict(humans=","), "--humans: give at least one seat"),
        (dict(humans="1", seat=2), "give --seat (one person) or --humans (several), not both"),
    ],
)
def test_bad_humans_option_is_a_clear_error(kw: dict[str, object], message: str) -> None:
    c = console()
    assert play_mille(play_args(seed=1, **kw), c, feed([])) == 2
    assert message in c.export_text()


def test_a_refusal_names_the_rule_in_the_players_language_only() -> None:
    """Issue 65, item 8: no English engine line under it, no ``P1`` where the screen says ``S1``."""
    session = MilleSession.new("wm2006", 2, 1, 0, ["random"])  # seed 1: D100 in hand, nobody rolling
    c = console()
    run_session(session, feed(["play D100", "fly", "quit", ""]), c, lang="de")
    out = c.export_text()
    assert "abgelehnt: 'play D100': Kilometer nur, wenn dein Team fährt" in out
    assert "nicht verstanden: 'fly': das ist kein Zug (siehe 'help')" in out
    assert "illegal" not in out and "P1" not in out and "[rule:" not in out and "unknown verb" not in out


def test_a_save_naming_a_seat_that_does_not_exist_is_a_clear_error_unless_a_seat_is_given(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.jsonl"
    play_mille(play_args(seed=3, save=str(path)), console(), feed(["1", "quit", ""]))
    text = path.read_text(encoding="utf-8").replace('"human_seat":0', '"human_seat":7', 1)
    assert '"human_seat":7' in text
    path.write_text(text, encoding="utf-8")
    c = console()
    assert play_mille(play_args(resume=str(path), bots=None), c, feed([])) == 2
    assert "are not seats of a 2-player game; choose with --seat or --humans" in c.export_text()
    c = console()
    assert play_mille(play_args(resume=str(path), bots=None, seat=2), c, feed(["quit", "n"])) == 0
    assert "You play P2 (you)" in c.export_text()
