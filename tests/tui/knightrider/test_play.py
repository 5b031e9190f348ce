"""Knight Rider in the terminal: the session loop driven by injected input and a recording console.

Rule-checking tests are named after the rule-model clause (docs/rules/knight-rider.md)
whose refusal or effect they show on screen.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from tests.tui.helpers import feed, recording_console
from tests.tui.hotseat import ClearingConsole

from rallye.agents import base as agents_base
from rallye.core.record import read_jsonl
from rallye.knightrider import Move, Options, Place, legal_actions
from rallye.knightrider import record as kr_record
from rallye.tui.knightrider import app as knightrider_app
from rallye.tui.knightrider.app import KRSession, play_knightrider, resolve_bots, run_session

SRC = Path(__file__).resolve().parents[3] / "src"
QUICK = Options(quick_build=True)


def console() -> Console:
    return recording_console(140)


def always(answer: str, limit: int = 5_000) -> Callable[[str], str]:
    return feed((answer for _ in range(limit)), limit)


def play_args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(
        game="knightrider", edition=None, players=None, seat=None, seed=None, bots="random", lang="en",
        save=None, resume=None, delay=0.0, quick_build=False, rolled_start=False, tour=None, humans=None,
        deal_spares=False, shuffle_cards=False,
    )  # fmt: skip
    base.update(kw)
    return argparse.Namespace(**base)


def to_the_chase(session: KRSession) -> None:
    """Play the human's start choices (first offered) and the bots until the human's first turn."""
    for _ in range(5):
        v = session.view()
        if v.phase == "turn" and session.human_to_act:
            break
        run_session(session, feed(["1"]), console(), lang="en")  # one choice, then EOF: unsaved, leaves
    v = session.view()
    assert v.phase == "turn" and session.human_to_act and not v.moved


def test_whole_game_choosing_the_first_offered_action_runs_to_the_end() -> None:
    session = KRSession.new(3, 1, 0, ["random", "random"], QUICK)
    c = console()
    assert run_session(session, always("1"), c, lang="en") == 0
    assert session.over
    out = c.export_text()
    assert "The game is over" in out
    assert "Moves (nearest to the villain first)" in out
    assert "escape card" in out and "the villain moves to tile" in out  # the villain's escapes announced
    assert "VV" in out or "caught the villain" in out
    # the record the session kept replays to the same final state
    final = kr_record.replay(session.lines)
    assert final == session.state
    assert session.lines[-1]["type"] == "result"


def test_table_rolls_are_announced_from_the_events() -> None:
    """Ramming / oil slick: the ram and oil table rolls are shown with the table named."""
    session = KRSession.new(2, 1, 0, ["random"], QUICK)  # a short game with both rolls (rules 2)
    c = console()
    run_session(session, always("1"), c, lang="en")
    out = c.export_text()
    ram = [line for line in out.splitlines() if "[ram table] " in line]
    oil = [line for line in out.splitlines() if "[oil table] " in line]
    assert ram and oil
    assert all(" rolls " in line for line in ram + oil)
    # each announced roll is the engine's event, shown once per event
    rolls = [e for line in session.lines[1:] for e in line.get("events", []) if " rams " in e or " oil: " in e]
    assert len(rolls) == len(ram) + len(oil)


def test_moving_exactly_the_rolled_pips_refused_choices_name_the_rule() -> None:
    """Moving: the car moves exactly the rolled pips; 'end' before moving is refused, named."""
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    before = session.state
    v = session.view()
    left = v.pips - v.used
    c = console()
    run_session(
        session, feed(["end", f"move to 0,0N ={left - 1}", "kitt TURBO2", "99", "fly", "quit", ""]), c, lang="en"
    )
    out = c.export_text()
    assert "refused: 'end': the car must move first: no pip may be wasted" in out
    assert "refused: 'move to 0,0N" in out and "no legal way with these pips ends there" in out
    assert "Turbo Boost II only turns a rolled 1 into a 6" in out or "that card is not in your hand" in out
    assert "there is no choice 99" in out
    assert "not understood: 'fly': that is not an action (see 'help')" in out
    assert "[rule:" not in out  # the engine's own line is not shown (issue 65, item 8)
    assert session.state == before  # nothing was played


def test_moves_are_offered_nearest_to_the_villain_first_and_all_lists_the_rest() -> None:
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    c = console()
    run_session(session, feed(["all", "quit", ""]), c, lang="en")
    out = c.export_text()
    moves = [a for a in session.legal() if isinstance(a, Move)]
    loop = knightrider_app._Loop(session, feed([]), console(), "de", None, 0.0, lambda s: None)
    loop.build_menu()
    dists = [i.distance for i in loop.infos if i.distance is not None]
    assert dists == sorted(dists)
    assert len(loop.infos) == len(moves)
    if len(moves) > knightrider_app.MOVES_SHOWN:
        assert f"and {len(moves) - knightrider_app.MOVES_SHOWN} more moves" in out
    # every listed move appears after 'all', with its pips
    for info in loop.infos:
        assert f"{info.move.x},{info.move.y}" in out


def test_detour_cards_are_listed_per_square_and_laid_by_d_number() -> None:
    """Detour cards go on any tile; the laid card is announced by its German name."""
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    v = session.view()
    assert v.villain is not None
    vx, vy = v.villain[0] // 3, v.villain[1] // 3
    c = console()
    run_session(session, feed([f"detours {vx},{vy}", "d1", "d99", "quit", ""]), c)
    out = c.export_text()
    assert f"Umleitungen auf Quadrat {vx},{vy}" in out
    assert "legt Umleitung:" in out
    assert "es gibt keine Umleitungs-Wahl d99" in out
    assert len(session.view().detours) == 1
    assert session.view().detour_played


def test_building_the_track_the_person_picks_by_number_letter_or_notation() -> None:
    """Phase 1: the person lays the drawn tile at a legal position and rotation."""
    session = KRSession.new(2, 3, 0, ["random"])
    assert session.human_to_act and session.view().phase == "build"
    first = session.legal()[0]
    assert isinstance(first, Place)
    c = console()
    run_session(session, feed(["place at 5,5 rot 0", "1", "quit", ""]), c, lang="en")
    out = c.export_text()
    assert "Where to lay it" in out and f"{first.x},{first.y}" in out
    assert "Tile " in out and "to lay" in out and "rot 0" in out
    assert "refused: 'place at 5,5 rot 0': the tile does not fit there" in out
    laid = session.view().tiles
    assert (laid[0].x, laid[0].y, laid[0].rot) == (first.x, first.y, first.rot)
    # by map letter: a square with one rotation is laid by its letter alone
    loop = knightrider_app._Loop(session, feed([]), console(), "de", None, 0.0, lambda s: None)
    loop.build_menu()
    places = [p for p in loop.menu if isinstance(p, Place)]
    per_square = Counter((p.x, p.y) for p in places)
    place = next(p for p in places if per_square[(p.x, p.y)] == 1)
    step = loop.command(loop.letters[(place.x, place.y)])
    assert step is not None and step.action == place


def test_quick_build_lays_every_tile_and_the_map_shows_cars_and_villain() -> None:
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    c = console()
    run_session(session, feed(["1", "quit", ""]), c, lang="en")
    out = c.export_text()
    assert "VV" in out or "1" in out
    v = session.view()
    assert len(v.tiles) + len(v.unused) == 36
    on_road = [car for car in v.cars if car.field is not None]
    assert on_road  # the human has moved
    assert any(f"{car.player + 1}{'↑→↓←'[car.heading]}" in out for car in on_road)


def test_resume_through_the_command_continues_and_saves_back(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    first = console()
    args = play_args(seed=3, save=str(path), quick_build=True, players=3)
    assert play_knightrider(args, first, feed(["1", "1", "quit", ""])) == 0
    n0 = sum(1 for _, line in read_jsonl(path) if line["type"] == "action")
    c = console()
    rc = play_knightrider(play_args(resume=str(path), bots=None), c, feed(["1", "quit", "y"]))
    assert rc == 0
    out = c.export_text()
    assert f"resumed {path}: {n0} moves replayed and verified" in out
    lines = read_jsonl(path)
    assert sum(1 for _, line in lines if line["type"] == "action") > n0
    kr_record.replay(lines)  # still a valid record


def test_resume_rejects_settings_the_save_holds_and_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    play_knightrider(play_args(seed=3, save=str(path), quick_build=True), console(), feed(["1", "quit", ""]))
    c = console()
    assert play_knightrider(play_args(resume=str(path), players=4, tour=2), c, feed([])) == 2
    assert "--players, --tour cannot be given with --resume" in c.export_text()
    text = path.read_text(encoding="utf-8").splitlines()
    text[1] = text[1].replace('"enter', '"enter X')
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    c = console()
    assert play_knightrider(play_args(resume=str(path)), c, feed([])) == 2
    assert "line 2" in c.export_text()


def test_eof_saves_to_the_save_file_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "auto.jsonl"
    c = console()
    assert play_knightrider(play_args(seed=8, save=str(path), quick_build=True), c, feed(["1", "1"])) == 0
    assert f"saved to {path}" in c.export_text()
    state = kr_record.load(path)
    assert state.phase != "over"


def test_bad_settings_get_clear_errors() -> None:
    cases = [
        (play_args(seed=1, players=6), "Knight Rider is for 2 to 5 players, not 6"),
        (play_args(seed=1, seat=4), "with 3 players the seats are 1..3"),
        (play_args(seed=1, bots="nosuchbot"), 'there is no bot "nosuchbot"; the bots are easy'),
        (play_args(seed=1, edition="wm2006"), "--edition is for Mille Bornes"),
        (play_args(seed=1, tour=9), "option 'tour' must be 0..5"),
    ]
    for args, message in cases:
        c = console()
        assert play_knightrider(args, c, feed([])) == 2, message
        assert message in c.export_text()


def test_missing_heuristic_bot_falls_back_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents_base, "agent_names", lambda game: ("random",))
    notes: list[str] = []
    assert resolve_bots(None, 2, notes.append) == ["random", "random"]
    assert notes == ["the Knight Rider heuristic bot is not available yet; using 'random' instead"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (None, ("Molekül-Mantel", "Deine Karten:", "Übeltäter auf Quadrat", "Varianten: Schnellaufbau", "Tschüss.")),
        ("de", ("Molekül-Mantel", "Deine Karten:", "Übeltäter auf Quadrat", "Flucht-Karte", "Tschüss.")),
        ("hu", ("Molekulapáncél", "A kártyáid:", "a gonosztevő helye:", "Menekülőkártya", "Viszlát.")),
        ("en", ("Molecular Bonded Shell", "Your cards:", "villain on square", "variants: quick build", "Bye.")),
        ("fr", ("Bouclier moléculaire", "Vos cartes :", "malfaiteur sur", "Carte de fuite", "Au revoir.")),
    ],
)
def test_every_word_and_card_name_in_the_chosen_language_german_by_default(
    lang: str | None, words: tuple[str, ...]
) -> None:
    c = console()
    play_knightrider(play_args(seed=1, lang=lang, quick_build=True), c, feed(["help", "quit", ""]))
    out = c.export_text()
    for word in words:
        assert word in out, (lang, word)
    others = {"de": "Deine Karten:", "hu": "A kártyáid:", "en": "Your cards:", "fr": "Vos cartes :"}
    assert not [w for lg, w in others.items() if lg != (lang or "de") and w in out]


def test_legal_actions_the_session_offers_are_the_engines() -> None:
    session = KRSession.new(2, 9, 0, ["random"], QUICK)
    assert session.legal() == legal_actions(session.state)


def test_python_m_rallye_play_knightrider_in_a_subprocess_quits_cleanly() -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.run(
        [sys.executable, "-m", "rallye", "play", "knightrider", "--players", "3", "--seed", "7",
         "--quick-build", "--bots", "random", "--lang", "en"],
        input="1\nend\nquit\n\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Where does your car wait?" in proc.stdout
    assert "Moves (nearest to the villain first)" in proc.stdout
    assert "refused: 'end'" in proc.stdout
    assert "Bye." in proc.stdout
    assert proc.stderr == ""


def test_knightrider_variant_flags_are_refused_for_mille(capsys: pytest.CaptureFixture[str]) -> None:
    from rallye.tui import play

    assert play.run_play(play_args(game="mille", quick_build=True, tour=2)) == 2
    assert "--quick-build, --tour are Knight Rider options, not for mille" in capsys.readouterr().err


def test_own_piece_files_are_used_and_a_broken_one_is_refused_naming_the_piece(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 3, item 1: a user can point the game at their own files; a bad piece is named."""
    import json as _json

    from rallye.cli import main
    from rallye.knightrider import Options, new_game

    shipped = Path(__file__).parents[3] / "src/rallye/knightrider/data/tiles.json"
    data = _json.loads(shipped.read_text(encoding="utf-8"))
    own = tmp_path / "tiles.json"
    own.write_text(_json.dumps(data), encoding="utf-8")
    assert new_game(2, seed=1, options=Options(quick_build=True, tiles_path=str(own))).phase != "build"
    data["tiles"][0]["number"] = 77
    bad = tmp_path / "bad.json"
    bad.write_text(_json.dumps(data), encoding="utf-8")
    assert main(["play", "knightrider", "--quick-build", "--seed", "1", "--tiles", str(bad)]) == 2
    out = capsys.readouterr()
    assert "tile 77" in out.out + out.err


SECRET = 734519  # a seed whose digits appear nowhere else on these screens


def test_seed_is_secret_until_the_game_ends_then_printed_to_play_again(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    c = console()
    play_knightrider(play_args(seed=SECRET, save=str(path), quick_build=True), c, feed(["1", "1", "quit", ""]))
    assert str(SECRET) not in c.export_text()  # not at the start, not when quitting or saving
    c = console()
    assert play_knightrider(play_args(resume=str(path), bots=None), c, always("1")) == 0
    out = c.export_text()
    end = out.index("The game is over\n") if "The game is over\n" in out else out.index("─ The game is over")
    assert "resumed" in out[:end] and str(SECRET) not in out[:end]  # nor in the resume message
    assert (
        f"play this deal again with: rallye play knightrider --players 3 --quick-build --bots random --seed {SECRET}"
        in out[end:]
    )


def test_humans_option_for_knight_rider_saves_both_people(tmp_path: Path) -> None:
    path = tmp_path / "hot.jsonl"
    c = ClearingConsole([])
    args = play_args(seed=4, players=3, humans="1,3", save=str(path), quick_build=True)
    assert play_knightrider(args, c, feed(["", "1", "quit", ""])) == 0
    header = read_jsonl(path)[0][1]
    assert header["tui"] == {"human_seat": 0, "bots": [None, "random", None], "human_seats": [0, 2]}
    assert KRSession.resume(path).human_seats == (0, 2)
    c = console()
    assert play_knightrider(play_args(seed=4, humans="2,9", quick_build=True), c, feed([])) == 2
    assert "--humans: seat 9 does not exist; seats are 1..3" in c.export_text()


def test_variants_are_named_in_words_with_plurals() -> None:
    c = console()
    play_knightrider(play_args(seed=1, tour=2, quick_build=True, lang="de"), c, feed(["quit", ""]))
    assert "Varianten: Schnellaufbau, Rundfahrt: 2 Ziel-Tableaus" in c.export_text()
    c = console()
    play_knightrider(play_args(seed=1, tour=1, quick_build=True, lang="fr"), c, feed(["quit", ""]))
    assert "variantes : construction rapide, circuit : 1 tuile cible" in c.export_text()


def test_a_refusal_names_the_rule_in_the_players_language() -> None:
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    c = console()
    run_session(session, feed(["end", "quit", ""]), c, lang="hu")
    out = c.export_text()
    assert "elutasítva: 'end': előbb az autónak haladnia kell: egy pont sem veszhet el" in out
    assert "[rule:" not in out and "illegal" not in out and "P1" not in out  # issue 65, item 8


def test_an_action_is_said_once_not_again_as_its_own_event() -> None:
    session = KRSession.new(3, 7, 0, ["random", "random"], QUICK)
    c = console()
    run_session(session, feed(["1", "quit", ""]), c, lang="en")
    out = c.export_text()
    log = [line for line in out.splitlines() if line.startswith(("  P", "    · P"))]  # actions and events
    seats = [line.split(" waits")[0].strip(" ·") for line in log if " waits at the " in line]
    assert len(seats) == 3 and len(set(seats)) == 3  # each car's waiting place said once
