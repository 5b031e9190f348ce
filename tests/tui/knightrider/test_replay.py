"""``rallye replay`` for Knight Rider records: a good record is summarised, an altered one refused."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from rich.console import Console
from tests.tui.helpers import random_record, rewrite_line

from rallye.knightrider import Options
from rallye.tui.knightrider.app import KRSession, run_session
from rallye.tui.replay import replay_command


def console() -> Console:
    return Console(file=io.StringIO(), width=140, record=True, color_system=None)


def record(tmp_path: Path, seed: int = 4, moves: int | None = None, players: int = 3) -> Path:
    settings = {"players": players, "options": Options(quick_build=True, tour=1)}
    return random_record(tmp_path / f"kr-{seed}.jsonl", "knightrider", settings, seed, moves)


def test_a_finished_record_is_summarised(tmp_path: Path) -> None:
    path = record(tmp_path)
    c = console()
    assert replay_command(path, c, lang="en") == 0
    out = c.export_text()
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    result = lines[-1]
    assert result["type"] == "result"
    assert "a valid Knight Rider record" in out
    assert "players   3; seed 4" in out
    assert "options   quick build, tour: 1 target tile" in out
    assert f"actions   {sum(1 for x in lines if x['type'] == 'action')}; chase turns {result['turns']}" in out
    if result["winner"] is None:
        assert "no winner" in out
    else:
        assert f"finished: P{result['winner'] + 1} wins" in out


def test_a_terminal_save_is_in_progress_and_names_the_seats(tmp_path: Path) -> None:
    path = tmp_path / "save.jsonl"
    session = KRSession.new(3, 5, 1, ["random", "random"], Options(quick_build=True))
    answers = iter(["1", "1", f"save {path}", "quit", "n"])
    run_session(session, lambda prompt: next(answers), console())
    c = console()
    assert replay_command(path, c, lang="en") == 0
    out = c.export_text()
    assert "in progress (a save file)" in out
    assert "P1 (random)" in out and "P2 (human)" in out
    assert f"rallye play knightrider --resume {path}" in out


def test_an_altered_record_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = record(tmp_path, seed=6)
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(i for i, x in enumerate(lines) if '"type":"action"' in x and " rolls " in x)
    events = [re.sub(r" rolls (\d)", lambda m: f" rolls {7 - int(m[1])}", e) for e in json.loads(lines[k])["events"]]
    rewrite_line(path, k, events=events)
    c = console()
    assert replay_command(path, c) == 2
    out = c.export_text()
    assert f"line {k + 1}: the recorded chance outcomes/events differ" in out
    assert "[rule: record-events]" in out


def test_an_altered_action_is_refused_with_the_engines_rule(tmp_path: Path) -> None:
    path = record(tmp_path, seed=6, moves=12)
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(i for i, x in enumerate(lines) if '"action":"end"' in x)
    rewrite_line(path, k, action="kitt TURBO2")
    c = console()
    assert replay_command(path, c) == 2
    out = c.export_text()
    assert f"line {k + 1}: action 'kitt TURBO2' by P" in out and "does not replay" in out
