"""The terminal's leftovers (issue 65, item 8): each test names the item it checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from tests.tui.helpers import feed
from tests.tui.mille.test_play import console

from rallye.cli import main
from rallye.mille.record import replay_file
from rallye.tui import play
from rallye.tui.knightrider.app import KRSession
from rallye.tui.knightrider.app import run_session as kr_run
from rallye.tui.mille.app import MilleSession, run_session


def then_ctrl_c(lines: Iterable[str]) -> Callable[[str], str]:
    """An input function answering with ``lines``, then the player presses Ctrl-C."""
    it = iter(lines)

    def read(prompt: str) -> str:
        for line in it:
            return line
        raise KeyboardInterrupt

    return read


# -- bot names, the Hungarian title, "interrupted", argparse's messages: the screen's language
@pytest.mark.parametrize(
    ("lang", "shown", "english"),
    [
        ("de", "S2 (Heuristik)", "(heuristic)"),
        ("hu", "J2 (heurisztikus)", "(heuristic)"),
        ("fr", "J2 (hasard)", "(random)"),
    ],
)
def test_bot_names_are_in_the_screens_language(lang: str, shown: str, english: str) -> None:
    bot = "random" if lang == "fr" else "heuristic"
    c = console()
    run_session(MilleSession.new("wm2006", 2, 1, 0, [bot]), feed(["quit", "n"]), c, lang=lang)
    out = c.export_text()
    assert shown in out and english not in out


def test_knight_rider_bot_names_are_in_the_screens_language() -> None:
    c = console()
    kr_run(KRSession.new(2, 1, 0, ["random"]), feed(["quit", "n"]), c, lang="de")
    out = c.export_text()
    assert "S2 (Zufall)" in out and "(random)" not in out


def test_the_hungarian_title_is_hungarian_on_a_hungarian_screen() -> None:
    c = console()
    run_session(MilleSession.new("hu", 2, 1, 0, ["random"]), feed(["quit", "n"]), c)
    out = c.export_text()
    assert "1000 Kilométer (magyar kiadás)" in out and "Hungarian edition" not in out
    c = console()
    run_session(MilleSession.new("hu", 2, 1, 0, ["random"]), feed(["quit", "n"]), c, lang="de")
    assert "1000 Kilométer (ungarische Ausgabe)" in c.export_text()


@pytest.mark.parametrize(("argv", "said"), [(["--lang", "hu"], "megszakítva"), ([], "abgebrochen")])
def test_interrupted_is_said_in_the_screens_language(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(args: object) -> int:  # Ctrl-C before the game's own loop runs
        raise KeyboardInterrupt

    monkeypatch.setattr(play, "run_play", interrupt)
    assert main(["play", "mille", *argv]) == 130
    err = capsys.readouterr().err
    assert f"rallye: {said}" in err and "interrupted" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["play", "mille", "--players", "99"],
            "rallye play: Fehler: --players: muss zwischen 1 und 64 liegen, nicht 99",
        ),
        (["play", "mille", "--lang", "hu", "--seed", "x"], "--seed: a seed legfeljebb 39 jegyű egész szám"),
        (["play", "mille", "--edition", "hu", "--delay", "nan"], "hiba: --delay: 0 és 60 közötti másodpercszám kell"),
        (["play", "mille", "--lang", "fr", "--bots"], "rallye play : erreur : --bots : attend une valeur"),
        (["play", "knightrider", "--tour", "9"], "--tour: muss zwischen 0 und 5 liegen, nicht 9"),
        (
            ["play", "mille", "--lang", "en", "--players", "0"],
            "rallye play: error: --players: must be from 1 to 64, got 0",
        ),
        (["play", "--lang", "de"], "rallye play: Fehler: es fehlt: game"),
        (
            ["play", "mille", "--lang=de", "--lang", "xx"],
            "--lang: 'xx' ist keine der Möglichkeiten: 'de', 'hu', 'en', 'fr'",
        ),
    ],
)
def test_argument_errors_are_in_the_screens_language(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    if "--lang" not in argv or "en" not in argv:
        assert "must be" not in err and "argument " not in err and "required" not in err


# -- Ctrl-C saves with --save, else says how to keep a game --------------------------------
def test_ctrl_c_with_save_saves_the_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    session = MilleSession.new("wm2006", 2, 5, 0, ["random"])
    c = console()
    assert run_session(session, then_ctrl_c(["1", "1"]), c, lang="de", save_path=path) == 130
    out = c.export_text()
    assert f"gespeichert in {path}" in out and "abgebrochen" in out
    replay = replay_file(path)  # the save replays and is the game so far
    assert len(replay.actions) == sum(1 for line in session.lines if line["type"] == "action") > 0
    assert not replay.finished


def test_ctrl_c_without_save_says_how_to_keep_a_game_next_time() -> None:
    c = console()
    assert run_session(MilleSession.new("wm2006", 2, 5, 0, ["random"]), then_ctrl_c([]), c, lang="en") == 130
    out = c.export_text()
    assert "The game was not saved" in out and "--save FILE" in out and "rallye play mille --resume" in out


def test_ctrl_c_in_knight_rider_with_save_saves_the_game(tmp_path: Path) -> None:
    path = tmp_path / "k.jsonl"
    c = console()
    assert kr_run(KRSession.new(2, 3, 0, ["random"]), then_ctrl_c(["1"]), c, lang="fr", save_path=path) == 130
    assert path.exists() and "interrompu" in c.export_text()
    c = console()
    assert kr_run(KRSession.new(2, 3, 0, ["random"]), then_ctrl_c([]), c, lang="fr") == 130
    assert "rallye play knightrider --resume FICHIER" in c.export_text()


# -- the "play this deal again" hint carries every option the deal needs --------------------
def printed_command(out: str) -> list[str]:
    """The command of the hint at the end of a game, as words."""
    import re
    import shlex

    found = re.findall(r"(rallye play \S+ .*--seed \S+)", out)
    assert len(found) == 1, out[-2000:]
    return shlex.split(found[0])


@pytest.mark.parametrize(
    ("game", "argv"),
    [
        ("mille", ["--edition", "meilen", "--players", "3", "--seat", "2", "--bots", "easy,random"]),
        ("mille", ["--edition", "hu", "--players", "4", "--humans", "1,3", "--bots", "random"]),
        ("knightrider", ["--players", "3", "--quick-build", "--tour", "1", "--shuffle-cards", "--bots", "random"]),
        ("knightrider", ["--players", "2", "--quick-build", "--rolled-start", "--deal-spares", "--seat", "2"]),
    ],
)
def test_the_play_again_hint_reproduces_the_same_deal(
    game: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rallye play`` with the printed command (no seed given the first time) deals the very
    same game: played with the same moves, the two records are the same."""
    from rallye.cli import build_parser
    from rallye.core.record import read_jsonl
    from rallye.tui.knightrider import app as knightrider_app
    from rallye.tui.mille import app as mille_app

    module = mille_app if game == "mille" else knightrider_app
    real_run = module.run_session

    def play_out_then_show(session: Any, input_fn: Any, shown: Any, **kw: Any) -> int:
        while not session.over:  # the people take their first legal move (no screens: fast)
            session.play(session.legal()[0]) if session.human_to_act else session.bot_move()
        return real_run(session, input_fn, shown, **kw)  # the end: the sheet and the hint

    monkeypatch.setattr(module, "run_session", play_out_then_show)
    run = play.play_mille if game == "mille" else knightrider_app.play_knightrider
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    args = build_parser().parse_args(["play", game, *argv, "--lang", "en", "--save", str(first)])
    c = console()
    assert run(args, c, feed([])) == 0
    command = printed_command(c.export_text())
    assert command[:3] == ["rallye", "play", game]
    for option in (o for o in argv if o.startswith("--") and o != "--bots"):
        assert option in command, (option, command)
    args = build_parser().parse_args([*command[1:], "--lang", "en", "--save", str(again)])
    assert run(args, console(), feed([])) == 0
    assert read_jsonl(again) == read_jsonl(first)  # the same deal, seats and bots: the same game


# -- km, not miles; 1000 Meilen's sheet agrees with itself ------------------------------------
@pytest.mark.parametrize("edition", ["wm2006", "hu", "fxschmid", "meilen"])
def test_lang_en_does_not_mix_miles_and_km(edition: str) -> None:
    """Every box counts kilometres (the 1000 Meilen rulebook too: "1 km = 1 Punkt"): the
    English cards say km like the rest of the screen."""
    from rallye.mille.cards import DISTANCE_KM

    c = console()
    run_session(MilleSession.new(edition, 2, 1, 0, ["random"]), always_first(), c, lang="en")
    out = c.export_text()
    assert " km" in out and "mile" not in out.lower().replace("mille", "")
    ed = MilleSession.new(edition, 2, 1, 0, ["random"]).view().edition
    assert all(ed.card_name(card, "en") == f"{km} km" for card, km in DISTANCE_KM.items())


def always_first() -> Callable[[str], str]:
    """The first legal move at every prompt, Enter at every pause, for a whole match."""
    return lambda prompt: "1" if prompt.strip() == "your move>" else ""


def test_1000_meilen_sheet_label_agrees_with_its_footer() -> None:
    """meilen's trip line is the winner's 400: when nobody made 1000 exactly it goes to the
    closest side, and the footer names that side instead of saying nobody got there."""
    from rallye.mille.edition import SCORE_LINES
    from rallye.mille.state import ScoreSheet
    from rallye.tui.mille.render import Labels, sheet_table

    view = MilleSession.new("meilen", 2, 1, 0, ["random"]).view()
    first = [0] * len(SCORE_LINES)
    first[SCORE_LINES.index("distance")] = 950
    first[SCORE_LINES.index("trip")] = 400  # the closest side's 400 (scoring.py, meilen)
    rows = (tuple(first), (0,) * len(SCORE_LINES))
    sheet = ScoreSheet(hand=0, dealer=0, rows=rows, totals=(1350, 0), completed_by=None, extended_by=None)
    for lang, label, footer in [
        ("de", "Gewinner (1000 km oder am nächsten)", "kein Team hat die Strecke geschafft; am nächsten dran: Team 1"),
        ("en", "Winner (1000 km or closest)", "no side completed the trip; closest to it: Side 1"),
    ]:
        c = console()
        c.print(sheet_table(sheet, Labels.for_view(view, {0: "you", 1: "random"}, lang)))
        out = c.export_text()
        assert label in out and footer in out and "Meilen" not in out
    c = console()
    nobody = ScoreSheet(
        hand=0, dealer=0, rows=((0,) * len(SCORE_LINES),) * 2, totals=(0, 0), completed_by=None, extended_by=None
    )
    c.print(sheet_table(nobody, Labels.for_view(view, {}, "en")))
    assert "no side completed the trip" in c.export_text() and "closest" not in c.export_text()


# -- the Knight Rider chase fits an 80x45 terminal -------------------------------------------
def terminal(width: int = 80, height: int = 45) -> Any:
    import io

    from rich.console import Console

    return Console(file=io.StringIO(), width=width, height=height, record=True, color_system=None, force_terminal=True)


@pytest.mark.parametrize(("players", "seed", "lang"), [(3, 7, "en"), (5, 2, "de"), (4, 11, "hu"), (2, 5, "fr")])
def test_the_knight_rider_chase_screen_fits_80x45_and_keeps_the_villain(players: int, seed: int, lang: str) -> None:
    from rallye.knightrider import Options
    from rallye.tui.knightrider.app import KRSession
    from rallye.tui.knightrider.render import Labels, map_legend

    session = KRSession.new(players, seed, 0, ["random"] * (players - 1), Options(quick_build=True, tour=1))
    screens = 0
    for _ in range(6):  # the chase's first turns of the person
        while not session.over and not (session.human_to_act and session.view().phase == "turn"):
            session.play(session.legal()[0]) if session.human_to_act else session.bot_move()
        if session.over:
            break
        c = terminal()
        kr_run(session, feed([]), c, lang=lang)  # one screen, then end of input
        lines = c.export_text().splitlines()
        start = max(i for i, line in enumerate(lines) if line.startswith("Knight Rider ·"))
        screen = lines[start:]
        end = next(i for i, line in enumerate(screen) if line.startswith("▶"))  # the turn line; the prompt follows
        assert end + 2 <= 45, "\n".join(screen)
        assert "VV" in "\n".join(screen[:end]) or any(c.field == session.view().villain for c in session.view().cars)
        legend = Labels.for_view(session.view(), lang=lang)
        one_line = map_legend(session.view(), legend)
        assert one_line.cell_len <= 80 and "\n" not in one_line.plain
        assert one_line.plain in screen  # printed as one line
        session.play(session.legal()[0])
        screens += 1
    assert screens >= 3


def test_the_legend_gives_each_kind_of_tile_its_own_symbol() -> None:
    from rallye.knightrider import Options
    from rallye.tui.knightrider.app import KRSession
    from rallye.tui.knightrider.render import Labels, map_legend

    session = KRSession.new(2, 3, 0, ["random"], Options(quick_build=True, tour=1))
    while session.view().phase != "turn":
        session.play(session.legal()[0]) if session.human_to_act else session.bot_move()
    legend = map_legend(session.view(), Labels.for_view(session.view(), lang="en")).plain
    symbols = [item.split(" ")[0] for item in legend.split("  ")]
    assert len(symbols) == len(set(symbols)) >= 6, legend  # ▒▒ built-up, ▓▓ start, ▚▚ targets: not one glyph
    assert {"▒▒", "▓▓", "▚▚", "VV"} <= set(symbols)
