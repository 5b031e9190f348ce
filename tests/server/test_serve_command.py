"""``rallye serve``'s options: bad values are refused before anything starts."""

from __future__ import annotations

from typing import Any

import pytest

from rallye.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--port", "0"], "--port"),
        (["--bot-delay", "-1"], "--bot-delay"),
        (["--lease", "0"], "--lease"),
        (["--request-rate", "-5"], "--request-rate"),
        (["--hint-rate", "-1"], "--hint-rate"),
        (["--analysis-workers", "-1"], "--analysis-workers"),
        (["--analysis-queue", "-1"], "--analysis-queue"),
        (["--analysis-bot", "grandmaster"], "unknown analysis bot"),
    ],
)
def test_bad_options_are_refused(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-browser", *argv]) == 2
    assert words in capsys.readouterr().err


def test_a_database_that_is_not_a_url_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-browser", "--database", "games.db"]) == 2
    assert "sqlite:///" in capsys.readouterr().err


def test_a_bad_forwarded_allow_ips_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-browser", "--forwarded-allow-ips", "10.0.0.1,proxy.example"]) == 2
    err = capsys.readouterr().err
    assert "--forwarded-allow-ips" in err and "proxy.example" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--outbox-messages", "0"], "--outbox-messages: must be from 16 to 100,000, got 0"),
        (["--outbox-messages=-5"], "--outbox-messages: must be from 16 to 100,000, got -5"),
        (["--outbox-messages", "many"], "--outbox-messages: not a whole number: 'many'"),
        (["--outbox-bytes", "0"], "--outbox-bytes: must be from 64K to 1G, got 0"),
        (["--outbox-bytes=-1M"], "--outbox-bytes: not a size: '-1M'"),
        (["--outbox-bytes", "4G"], "--outbox-bytes: must be from 64K to 1G, got 4G"),
        (["--outbox-bytes", "12Q"], "--outbox-bytes: not a size: '12Q' (bytes, or a number with K, M or G)"),
        (["--outbox-bytes", "K"], "--outbox-bytes: not a size: 'K'"),
    ],
)
def test_bad_outbox_limits_are_refused(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--no-browser", *argv])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_the_outbox_limits_reach_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """``--outbox-messages`` and ``--outbox-bytes`` (with its units) are the server's bounds on
    what a connection may have waiting (tests/server/test_slow_reader.py: what they do)."""
    import uvicorn

    from rallye.server import app as app_module
    from rallye.server import cli as cli_module

    made: list[Any] = []
    real = app_module.create_app

    def create_app(database: str, **options: Any) -> Any:
        app = real(database, **options)
        made.append(app.state.server)
        return app

    monkeypatch.setattr(app_module, "create_app", create_app)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)  # nothing is served
    monkeypatch.setattr(cli_module, "_tune_collector", lambda: None)
    database = f"sqlite:///{tmp_path / 'rallye.db'}"
    for argv, limits in (
        ([], (128, 512 * 1024)),
        (["--outbox-messages", "64", "--outbox-bytes", "2M"], (64, 2 << 20)),
        (["--outbox-bytes", "100000"], (128, 100_000)),
        (["--outbox-bytes", "768kb"], (128, 768 << 10)),
    ):
        assert main(["serve", "--no-browser", "--database", database, *argv]) == 0
        server = made.pop()
        server.store.close()
        assert (server.outbox_messages, server.outbox_bytes) == limits
        box = app_module.Outbox(server.outbox_messages, server.outbox_bytes)
        assert (box.most, box.size) == limits
