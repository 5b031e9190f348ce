"""A finished game's replay over HTTP (docs/server.md, "Replays"): refused while the game
runs, every frame through the game's face, built once however many ask, record files sent
by a page checked by the face's replay, and ``rallye replay FILE --web``'s app."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.helpers import create

from rallye.cli import main
from rallye.core.record import parse_jsonl
from rallye.games import game_for
from rallye.server.app import create_app
from rallye.server.games import JSON
from rallye.server.replay import CHUNK, MAX_UPLOAD, local_app

BOTS = {"kind": "bot", "level": "easy"}
GAMES = {
    "mille": {"game": "mille", "edition": "hu", "players": 2},
    "knightrider": {"game": "knightrider", "players": 2, "options": {"quick_build": True, "turn_limit": 40}},
}


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


def finished(client: TestClient, game: str) -> str:
    """A table of bots played to its end; its code."""
    code: str = create(client, seats=[BOTS, BOTS], **GAMES[game])["code"]
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{code}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return code


def all_frames(client: TestClient, base: str, summary: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """Every frame of a replay, and the move that led to each (None before the first)."""
    frames: list[dict[str, Any]] = []
    moves: list[Any] = []
    for start in range(0, summary["frames"], summary["chunk"]):
        answer = client.get(f"{base}/frames?from={start}")
        assert answer.status_code == 200, answer.text
        frames += answer.json()["frames"]
        moves += answer.json()["moves"]
    return frames, moves


@pytest.mark.parametrize("game", list(GAMES))
def test_a_finished_game_replays_frame_by_frame_to_the_records_end(client: TestClient, game: str) -> None:
    code = finished(client, game)
    summary = client.get(f"/api/tables/{code}/replay").json()
    record = client.get(f"/api/tables/{code}/record").text
    face = game_for(game)
    replayed = face.replay(parse_jsonl(record))
    assert summary["game"] == game and summary["over"] and summary["chunk"] == CHUNK
    assert summary["frames"] == len(replayed.moves) + 1
    assert summary["stages"][0] == 0 and summary["stages"] == sorted(set(summary["stages"]))
    assert summary["table"]["code"] == code
    frames, moves = all_frames(client, f"/api/tables/{code}/replay", summary)
    assert len(frames) == len(moves) == summary["frames"] and moves[0] is None
    assert [(m["n"], m["seat"], m["action"]) for m in moves[1:]] == [
        (n, s, face.format_action(a)) for n, (s, a) in enumerate(replayed.moves, 1)
    ]
    # the last frame is the record's end; the first its start, every hand open
    assert frames[-1] == json.loads(json.dumps(JSON[game].full_json(replayed.final)))
    assert frames[0] == json.loads(json.dumps(JSON[game].full_json(replayed.initial)))
    assert len(frames[0]["hands"]) == 2
    if game == "mille":
        assert all(len(h) > 0 for h in frames[1]["hands"])  # no hand hidden
        assert len(frames[-1]["sheets"]) == len(summary["stages"])  # a sheet a hand
    # many viewers, one replay built
    server = client.app.state.server  # type: ignore[attr-defined]
    for _ in range(3):
        client.get(f"/api/tables/{code}/replay")
        client.get(f"/api/tables/{code}/replay/frames?from=0")
    assert server.replays.built == 1
    assert client.get(f"/api/tables/{code}/replay/frames?from=7").json()["error"]["code"] == "bad-field"
    assert client.get(f"/api/tables/{code}/replay/frames?from=x").json()["error"]["code"] == "bad-field"
    assert summary["analysis"] == f"/api/tables/{code}/analysis"  # made when asked for: tests/server/test_analysis.py


def test_an_unfinished_table_is_not_replayed(client: TestClient) -> None:
    made = create(client, game="mille", edition="hu", players=2, seats=[{"kind": "person"}, BOTS], sit=0, name="A")
    for path in ("replay", "replay/frames?from=0"):
        answer = client.get(f"/api/tables/{made['code']}/{path}")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "not-over"
    assert client.get("/api/tables/nosuchcode/replay").status_code == 404
    assert client.app.state.server.replays.built == 0  # type: ignore[attr-defined]


def test_a_record_file_is_checked_by_the_replay(client: TestClient) -> None:
    code = finished(client, "mille")
    record = client.get(f"/api/tables/{code}/record").text
    sent = client.post("/api/replays", json={"record": record})
    assert sent.status_code == 201, sent.text
    data = sent.json()
    assert data["frames"] == client.get(f"/api/tables/{code}/replay").json()["frames"]
    assert client.get(f"/api/replays/{data['id']}").json() == {k: v for k, v in data.items()}
    assert client.get(f"/api/replays/{data['id']}/frames?from=0").json()["frames"][0]["hands"]
    assert client.get("/api/replays/unknown/frames?from=0").json()["error"]["code"] == "replay-gone"
    # a move changed: refused, naming the line, no traceback
    lines = [json.loads(line) for line in record.splitlines()]
    at = [i for i, line in enumerate(lines) if line["type"] == "action"][5]
    lines[at]["action"] = "discard NOSUCHCARD"
    text = "\n".join(json.dumps(line) for line in lines)
    broken = client.post("/api/replays", json={"record": text})
    assert broken.status_code == 422
    error = broken.json()["error"]
    assert error["code"] == "bad-record" and f"line {at + 1}" in error["message"] and "Traceback" not in broken.text
    for body, status, code_ in [
        ({"record": "not json\n"}, 422, "bad-record"),
        ({"record": ""}, 400, "bad-field"),
        ({"record": '{"type": "header", "game": "chess"}\n'}, 422, "bad-record"),
        ({"record": "x" * (MAX_UPLOAD + 1)}, 413, "too-large"),
        ({"record": '"' * (MAX_UPLOAD + 1)}, 413, "too-large"),
    ]:
        answer = client.post("/api/replays", json=body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code_), answer.text
    assert client.post("/api/replays", content=record, headers={"content-type": "text/plain"}).status_code == 415


def test_rallye_replay_web_serves_the_file(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = finished(client, "knightrider")
    path = tmp_path / "game.jsonl"
    path.write_text(client.get(f"/api/tables/{code}/record").text, encoding="utf-8")
    app, page = local_app(str(path), f"sqlite:///{tmp_path / 'local.db'}")
    with TestClient(app) as local:
        assert local.get(page).status_code == 200
        key = page.split("file=")[1]
        summary = local.get(f"/api/replays/{key}").json()
        assert summary["game"] == "knightrider" and summary["frames"] > 1
        assert len(local.get(f"/api/replays/{key}/frames?from=0").json()["frames"][0]["hands"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "game": "mille"}\n', encoding="utf-8")
    assert main(["replay", str(bad), "--web"]) == 2
    err = capsys.readouterr().err
    assert "rallye replay:" in err and "Traceback" not in err


def test_a_replay_asked_for_at_once_by_many_is_built_once() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from rallye.server.replay import Replay, Replays

    face = game_for("mille")
    lines = face.record_start(face.new(face.settings({"edition": "hu", "players": 2}), 7))
    calls = []

    async def run() -> list[Replay | None]:
        replays = Replays(keep=2)

        async def build() -> Replay:
            calls.append(1)
            await asyncio.sleep(0.05)  # the others ask meanwhile
            return Replay.build(lines, "x")

        got = await asyncio.gather(*(replays.get("t:a", build) for _ in range(20)))
        assert replays.built == 1

        # a failed build is not kept: the next one tries again
        async def fail() -> Replay:
            raise ValueError("broken")

        with pytest.raises(ValueError):
            await replays.get("t:b", fail)
        assert not replays.known("t:b")
        return got

    # on a thread of its own: a worker that ran the browser tests has Playwright's loop running
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(lambda: asyncio.run(run())).result()
    assert len(calls) == 1 and all(r is got[0] for r in got)


def test_an_unfinished_record_file_replays_up_to_where_it_stops(client: TestClient) -> None:
    """A save file of a game in progress (rallye play --save): its owner holds every card
    already; the page shows it as far as it goes."""
    face = game_for("mille")
    state = face.new(face.settings({"edition": "hu", "players": 2}), 11)
    lines = face.record_start(state, {"tui": {"humans": [0]}})
    for _ in range(12):
        state = face.record_move(lines, state, face.current_player(state), face.legal_actions(state)[0])
    data = client.post("/api/replays", json={"record": "".join(json.dumps(x) + "\n" for x in lines)}).json()
    assert data["over"] is False and data["result"] is None and data["frames"] == 13
    frames = client.get(f"/api/replays/{data['id']}/frames?from=0").json()["frames"]
    assert frames[-1] == json.loads(json.dumps(JSON["mille"].full_json(state)))


def test_a_long_game_keeps_few_states_and_the_same_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """However long a game, a replay keeps at most CHECKPOINTS states (a stretch is rebuilt
    from the one before it) and the last stretches asked for: the frames are the same."""
    import random

    from rallye.server import replay as module

    face = game_for("mille")
    state = face.new(face.settings({"edition": "hu", "players": 2}), 3)
    lines = face.record_start(state)
    rng = random.Random(3)
    while not face.is_over(state) and len(lines) < 700:
        state = face.record_move(lines, state, face.current_player(state), rng.choice(face.legal_actions(state)))
    full = module.Replay.build(lines, "x")
    monkeypatch.setattr(module, "CHECKPOINTS", 2)
    few = module.Replay.build(lines, "x")
    assert len(few.checkpoints) <= 3 < len(full.checkpoints) and few.every > CHUNK
    for start in range(0, len(full.actions) + 1, CHUNK):
        assert few.frames(start) == full.frames(start)
    assert len(few.chunks) == module.KEEP_CHUNKS
    assert few.frames(len(full.actions) // CHUNK * CHUNK)["frames"][-1] == JSON["mille"].full_json(state)
