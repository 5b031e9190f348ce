"""The terminal's leftovers (issue 65, item 8), the commands' side: each test names its item."""

from __future__ import annotations

import pytest

from rallye.cli import main
from rallye.core.errors import GameError
from rallye.mille.edition import get_edition


def test_editions_shows_no_command_as_an_alias(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]
    assert [r[0] for r in rows][-1] == "knightrider"
    for key, *_, aliases in rows:
        for alias in filter(None, (a.strip() for a in aliases.split(","))):
            if alias == "–":
                continue
            assert " " not in alias, (key, alias)
            if key != "knightrider":
                assert get_edition(alias).key == key
    assert next(r for r in rows if r[0] == "knightrider")[-1] == "–"
    assert "rallye rules knightrider" in out  # still said, as a caption, not as an alias
    with pytest.raises(GameError):
        get_edition("rallye rules knightrider")


@pytest.mark.parametrize("game", ["mille", "knightrider"])
@pytest.mark.parametrize("seat", ["99", "0", "-2"])
def test_seat_99_states_the_real_range(game: str, seat: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--seat 99`` is not argparse's "from 0 to 64": the seats a game of this many players has."""
    assert main(["play", game, "--seat", seat, "--players", "3", "--lang", "en", "--delay", "0"]) == 2
    out = capsys.readouterr()
    said = out.out + out.err
    assert f"--seat {seat}: no such seat; with 3 players the seats are 1..3" in said
    assert "64" not in said
