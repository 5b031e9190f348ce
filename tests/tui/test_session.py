"""The one terminal controller (rallye.tui.session.GameSession) for both games: the same
tests, parametrized over Mille Bornes and Knight Rider (issue #60)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.tui.helpers import feed, recording_console
from tests.tui.hotseat import ClearingConsole, assert_each_person_alone, hot_seat_input

from rallye.agents import base as agents_base
from rallye.core.errors import IllegalAction
from rallye.core.record import read_jsonl
from rallye.games import GAMES
from rallye.knightrider import Options, View
from rallye.mille.view import MilleView
from rallye.tui.knightrider import app as knightrider_app
from rallye.tui.knightrider import render as knightrider_render
from rallye.tui.mille import app as mille_app
from rallye.tui.mille import render as mille_render
from rallye.tui.session import GameSession

QUICK = Options(quick_build=True)
#: each game's loop module, its screen module, its view type and the view's seat field
APPS: dict[str, tuple[Any, Any, type, str]] = {
    "mille": (mille_app, mille_render, MilleView, "seat"),
    "knightrider": (knightrider_app, knightrider_render, View, "me"),
}


def new_session(game: str, edition: str, players: int, seed: int, humans: Any, bots: list[str]) -> Any:
    """A game's session as ``rallye play`` makes it (Knight Rider with the quick build)."""
    if game == "mille":
        return mille_app.MilleSession.new(edition, players, seed, humans, bots)
    return knightrider_app.KRSession.new(players, seed, humans, bots, QUICK)


def console(game: str) -> Console:
    return recording_console(120 if game == "mille" else 140)


def run(game: str, session: Any, lines: list[str], c: Console) -> int:
    code: int = APPS[game][0].run_session(session, feed(lines), c, lang="en")
    return code


@pytest.mark.parametrize(
    ("game", "edition", "moves"),
    [("mille", "hu", ["1", "2", "1", "1"]), ("knightrider", "", ["1", "1", "1", "1"])],
)
def test_save_then_resume_gives_the_same_state(tmp_path: Path, game: str, edition: str, moves: list[str]) -> None:
    path = tmp_path / "game.jsonl"
    session = new_session(game, edition, 3, 5, 1, ["random", "random"])
    c = console(game)
    run(game, session, [*moves, f"save {path}", "quit", "n"], c)
    assert f"saved to {path}" in c.export_text()
    header = read_jsonl(path)[0][1]
    assert header["tui"] == {"human_seat": 1, "bots": ["random", None, "random"]}
    assert header["game"] == game and header["players"] == 3 and header["seed"] == 5
    if game == "knightrider":
        assert header["options"]["quick_build"] is True
    resumed = type(session).resume(path)
    assert not resumed.over
    assert resumed.state == session.state
    assert resumed.human_seat == 1
    assert resumed.bot_names == session.bot_names == ("random", None, "random")
    assert resumed.view() == session.view()
    assert resumed.actions_played == session.actions_played >= 4


@pytest.mark.parametrize(
    ("game", "edition", "lines", "least"), [("mille", "wm2006", 40, 10), ("knightrider", "", 30, 5)]
)
def test_the_terminal_renders_only_the_humans_view(
    monkeypatch: pytest.MonkeyPatch, game: str, edition: str, lines: int, least: int
) -> None:
    app, render, view_type, seat_field = APPS[game]
    seen: list[object] = []
    real = render.render_screen

    def spy(view: object, *a: object, **k: object) -> object:
        seen.append(view)
        return real(view, *a, **k)

    monkeypatch.setattr(app, "render_screen", spy)
    session = new_session(game, edition, 4, 2, 2, ["random"] * 3)
    run(game, session, ["1"] * lines + ["quit", ""], console(game))
    assert len(seen) >= least
    assert all(type(v) is view_type and getattr(v, seat_field) == 2 for v in seen)


@pytest.mark.parametrize(("game", "edition"), [("mille", "meilen"), ("knightrider", "")])
def test_bots_are_asked_with_their_own_views_and_the_legal_actions(
    monkeypatch: pytest.MonkeyPatch, game: str, edition: str
) -> None:
    _, _, view_type, seat_field = APPS[game]
    asked: list[tuple[int, int | None]] = []

    class Spy:
        name = "spy"

        def __init__(self, seed: int) -> None:
            self.rng = agents_base.RandomAgent(seed)

        def choose(self, view: object, legal: object) -> object:
            assert type(view) is view_type
            assert isinstance(legal, tuple) and legal
            asked.append((getattr(view, seat_field), view.current))
            return self.rng.choose(view, legal)

    monkeypatch.setitem(agents_base._REGISTRY, (game, "spy"), Spy)
    session = new_session(game, edition, 3, 4, 0, ["spy", "spy"])
    run(game, session, ["1"] * 15 + ["quit", ""], console(game))
    assert asked and all(me == current and me != 0 for me, current in asked)


SETTINGS: dict[str, dict[str, Any]] = {
    "mille": {"edition": "wm2006", "players": 3},
    "knightrider": {"players": 3, "options": {"quick_build": True, "turn_limit": 60}},
}


@pytest.mark.parametrize("key", list(GAMES))
def test_a_session_on_the_face_alone_plays_records_and_resumes_a_whole_game(key: str, tmp_path: Path) -> None:
    """GameSession knows no game: the face is enough for a person (the first legal action
    each turn) and two bots to play a game to its end, whose record replays to the same game."""
    game = GAMES[key]
    session: GameSession[Any, Any, Any] = GameSession.start(game, SETTINGS[key], 9, 1, ["random", "random"])
    seen = 0
    while not session.over:
        if session.human_to_act:
            assert session.legal() == tuple(game.legal_from_view(session.view()))  # the view alone knows them
            played = session.play(session.legal()[0])
            assert played.seat == 1
            seen += 1
            if seen == 3:  # a save half-way resumes to the same game
                resumed = GameSession.load(game, session.save(tmp_path / "half.jsonl"))
                assert resumed.state == session.state and resumed.lines == session.lines
                assert resumed.human_seats == (1,) and resumed.bot_names == ("random", None, "random")
        else:
            assert session.legal() == ()
            with pytest.raises(IllegalAction):  # out of turn: refused, nothing changes
                session.play(game.legal_actions(session.state)[0])
            played = session.bot_move()
            assert played.seat != 1
    assert seen >= 3 and session.legal() == ()
    replayed = game.replay(session.lines, "test")
    assert replayed.final == session.state
    assert len(replayed.moves) == session.actions_played
    with pytest.raises(RuntimeError, match="over"):
        session.bot_move()


@pytest.mark.parametrize(("game", "edition", "seed"), [("mille", "meilen", 21), ("knightrider", "", 5)])
def test_several_people_at_one_keyboard_see_only_their_own_screens(
    monkeypatch: pytest.MonkeyPatch, game: str, edition: str, seed: int
) -> None:
    app, render, _, seat_field = APPS[game]
    log: list[object] = []
    real = render.render_screen

    def spy(view: object, *a: object, **k: object) -> object:
        log.append(("screen", getattr(view, seat_field)))
        return real(view, *a, **k)

    monkeypatch.setattr(app, "render_screen", spy)
    session = new_session(game, edition, 3, seed, (0, 2), ["random"])
    assert session.bot_names == (None, "random", None)
    c = ClearingConsole(log)
    assert app.run_session(session, hot_seat_input(log), c, lang="en") == 0
    assert session.over
    screens = [e for e in log if isinstance(e, tuple) and e[0] == "screen"]
    assert {s for _, s in screens} == {0, 2}  # both people played, the bot's seat never shown
    # between two clears of the screen only one person's cards were ever shown, and every
    # change of person went through the pass screen, which names the next one
    assert_each_person_alone(log)
    out = c.export_text()
    assert "Pass the keyboard to P1 (human)" in out and "Pass the keyboard to P3 (human)" in out
    assert "People at this keyboard: P1 (human), P3 (human)" in out
