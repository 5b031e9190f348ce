"""``rallye join URL`` (issue 52, item 9): a person at an online table from the terminal, on
the terminal game's own screen, through the protocol only; the seat is kept across runs and
the client comes back by itself when the server restarts."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from rich.console import Console
from tests.server.test_processes import Serve, _port

from rallye.core.errors import ConfigError
from rallye.tui import online as client


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def _args(url: str, **kw: object) -> argparse.Namespace:
    base = {"url": url, "name": None, "seat": None, "token": None, "lang": "en"}
    base.update(kw)
    return argparse.Namespace(**base)


class Keyboard:
    """Answers every prompt: Enter between hands, else the first move; EOF after ``n`` moves.
    Calls ``on`` (if given) before the move numbered ``at``."""

    def __init__(self, n: int, at: int = -1, on: object = None) -> None:
        self.n, self.at, self.on, self.moves = n, at, on, 0

    def __call__(self, prompt: str) -> str:
        if "name" in prompt.lower():
            return "Tess"
        if "hand" in prompt.lower() and "next" in prompt.lower():
            return ""
        if self.moves == self.at and callable(self.on):
            self.on()
        self.moves += 1
        if self.moves > self.n:
            raise EOFError
        return "1"


def test_parse_table_url() -> None:
    assert client.parse_table_url("http://10.0.0.5:8000/t/abcdefghjk") == ("http://10.0.0.5:8000", "abcdefghjk")
    for bad in ("abcdefghjk", "ftp://x/t/a", "http://host/lobby"):
        with pytest.raises(ConfigError):
            client.parse_table_url(bad)


def test_join_a_mille_table_and_play_through_a_server_restart(tmp_path: Path, data_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'rallye.db'}"
    port = _port()
    servers = [Serve(db, port)]
    try:
        made = servers[0].post(
            "/api/tables",
            {"game": "mille", "players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]},
        )
        url = f"http://127.0.0.1:{port}/t/{made['code']}"

        def restart() -> None:
            servers[0].kill()
            servers.append(Serve(db, port))

        out = io.StringIO()
        console = Console(file=out, width=120, color_system=None)
        assert client.join(_args(url), console, Keyboard(12, at=6, on=restart)) == 0
        screen = out.getvalue()
        assert "Tess" not in screen or "you" in screen
        table = servers[-1].get(f"/api/tables/{made['code']}")["table"]
        assert table["seats"][0]["name"] == "Tess" and table["move_no"] >= 20
        # the token was kept: a second run returns to the same seat without asking a name
        out2 = io.StringIO()
        assert client.join(_args(url), Console(file=out2, width=120), Keyboard(2)) == 0
        assert servers[-1].get(f"/api/tables/{made['code']}")["table"]["move_no"] > table["move_no"]
    finally:
        for s in servers:
            s.stop()


def test_join_a_knight_rider_table(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = _port()
    server = Serve(f"sqlite:///{tmp_path / 'rallye.db'}", port)
    try:
        made = server.post(
            "/api/tables",
            {"game": "knightrider", "players": 2, "seats": [{"kind": "bot", "level": "easy"}, {"kind": "person"}]},
        )  # fmt: skip  (the building phase: every answer is a move, and no early end)
        out = io.StringIO()
        args = _args(f"http://127.0.0.1:{port}/t/{made['code']}", name="Kit", lang="de")
        assert client.join(args, Console(file=out, width=140, color_system=None), Keyboard(8)) == 0
        assert server.get(f"/api/tables/{made['code']}")["table"]["move_no"] >= 8
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "another-device"))
        with pytest.raises(ConfigError, match="not free"):
            client.join(_args(args.url, seat=2, token=None), Console(file=io.StringIO()), Keyboard(1))
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["de", "hu", "fr"])
def test_a_server_refusal_with_no_rule_is_told_in_the_players_language(lang: str) -> None:
    """A move the server took back ('unavailable': the database could not save it) is told in
    the terminal's language, from the words the pages use for the same code."""
    from rich.console import Console

    from rallye.core.errors import IllegalAction
    from rallye.i18n import translator
    from rallye.tui.loop import SavingLoop

    out = io.StringIO()
    loop = SavingLoop(None, lambda _: "", Console(file=out, width=200), None, 0, lambda _: None, ui=lang)
    server_says = "the move could not be saved and was not played; send it again"
    loop.refuse(IllegalAction(server_says, rule="unavailable"), translator(lang, "mille"))
    told = out.getvalue()
    assert translator(lang, "web")("code.unavailable") in told
    assert server_says not in told  # the screen's language only (issue 65, item 8)
