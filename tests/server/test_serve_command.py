"""``rallye serve``'s options: bad values are refused before anything starts."""

from __future__ import annotations

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
