"""The server analyses finished games (docs/analysis.md, "On the server"): made once however
many ask at the same time, in a worker process, stored with the table and served from the
database after a restart, keyed by the analysis bot; refused for an unfinished table (its
cards are hidden) and for an unknown one; record files sent by a page and ``rallye replay
FILE --web`` analysed too. A cheap analysis bot (``hard/8``) keeps these tests quick."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from tests.server.helpers import Player, close_all, create

from rallye.analysis import analyse
from rallye.core.record import parse_jsonl
from rallye.server.analysis import analyser
from rallye.server.app import create_app
from rallye.server.replay import local_app
from rallye.server.store import AnalysisKey, Store, analyses, analysis_claims

BOT = "hard/8"
BOTS = {"kind": "bot", "level": "easy"}
MILLE = {"game": "mille", "edition": "hu", "players": 2}
KR = {"game": "knightrider", "players": 2, "options": {"quick_build": True, "turn_limit": 40}}


def app(url: str, **options: Any) -> Any:
    return create_app(url, bot_delay=0, analysis_bot=options.pop("analysis_bot", BOT), **options)


def finished(client: TestClient, settings: dict[str, Any]) -> str:
    """A table of bots played to its end; its code."""
    code: str = create(client, seats=[BOTS, BOTS], **settings)["code"]
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{code}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return code


def made(client: TestClient, path: str, seconds: float = 120) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The analysis at ``path`` once made (asked for again while the server makes it), and
    the progress answers seen meanwhile."""
    seen = []
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get(path)
        if answer.status_code == 200:
            return answer.json(), seen
        assert answer.status_code == 202, answer.text
        seen.append(answer.json())
        assert time.monotonic() < deadline, f"no analysis within {seconds} s: {seen[-1]}"
        time.sleep(0.1)


def stored_rows(url: str, table: Any = analyses) -> list[Any]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return list(conn.execute(select(table)).all())
    finally:
        store.close()


def server_of(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(app(sqlite_url)) as c:
        yield c


def test_many_requests_one_analysis_stored_and_served_after_a_restart(database_url: str) -> None:
    with TestClient(app(database_url)) as client:
        code = finished(client, MILLE)
        summary = client.get(f"/api/tables/{code}/replay").json()
        path = f"/api/tables/{code}/analysis"
        assert summary["analysis"] == path
        # twelve people open the replay at the same moment
        with ThreadPoolExecutor(12) as pool:
            first = list(pool.map(lambda _: client.get(path), range(12)))
        assert {a.status_code for a in first} <= {200, 202}
        for a in first:
            if a.status_code == 202:
                progress = a.json()
                assert progress["status"] in ("queued", "running") and progress["bot"] == BOT
                assert 0 <= progress["done"] <= progress["total"] == summary["frames"] - 1
        analysis, seen = made(client, path)
        assert all(p["status"] in ("queued", "running") and p["done"] <= p["total"] for p in seen)
        with ThreadPoolExecutor(6) as pool:
            again = list(pool.map(lambda _: client.get(path), range(6)))
        assert all(a.status_code == 200 and a.json() == analysis for a in again)
        server = server_of(client)
        assert server.analyses.made == 1  # one analysis for eighteen requests and the polling
        metrics = client.get("/metrics").text
        assert "rallye_analyses_total 1" in metrics and "rallye_analysis_jobs 0" in metrics
        record = client.get(f"/api/tables/{code}/record").text
    # the real analysis of the game's record (the JSON `rallye analyse --json` prints)
    assert analysis == json.loads(json.dumps(analyse(parse_jsonl(record), bot=BOT, seed=0).to_json()))
    assert analysis["moves"] == summary["frames"] - 1 and len(analysis["graph"]) == summary["frames"]
    assert any(d["mark"] for d in analysis["decisions"])
    rows = stored_rows(database_url)
    assert [(r.subject, r.bot, r.seed, r.analyser) for r in rows] == [(f"t:{code}", BOT, 0, analyser())]
    assert rows[0].table_id is not None and json.loads(rows[0].body) == analysis

    # a new server on the same database serves the stored one: nothing analysed again
    with TestClient(app(database_url)) as client:
        answer = client.get(path)
        assert answer.status_code == 200 and answer.json() == analysis
        assert server_of(client).analyses.made == 0
    # another analyser (its bots or rules changed) is another analysis too
    with TestClient(app(database_url)) as client:
        server_of(client).analyses.analyser += "-changed"
        answer = client.get(path)
        assert answer.status_code == 202 and server_of(client).analyses.started == 1
    # another analysis bot is another analysis: the stored one is not served for it
    with TestClient(app(database_url, analysis_bot="hard/4")) as client:
        answer = client.get(path)
        assert answer.status_code == 202 and answer.json()["bot"] == "hard/4"
    # (the server stopped its worker on the way out: nothing of hard/4 is stored, and the
    # claims of the two analyses it stopped are let go: another process would make them now)
    assert len(stored_rows(database_url)) == 1
    assert stored_rows(database_url, analysis_claims) == []
    # a record file's analysis is kept too; pruning the finished games removes both
    store = Store(database_url)
    try:
        assert store.put_analysis("f:cafe", None, BOT, 0, "test", "{}", 0.1)
        assert not store.put_analysis("f:cafe", None, BOT, 0, "test", "{}", 0.1)  # made elsewhere meanwhile
        assert store.analysis("f:cafe", BOT, 0, "test") == "{}" and store.analysis("f:cafe", BOT, 1, "test") is None
        assert store.remove_finished(time.time() + 1) == 1
    finally:
        store.close()
    assert stored_rows(database_url) == []


def test_an_unfinished_table_is_never_analysed(sqlite_url: str) -> None:
    """While a game runs its cards are hidden: its analysis (which judges every move with
    the game's whole record, hidden hands and deck included) is refused at every move, and
    nothing is analysed or stored."""
    with TestClient(app(sqlite_url)) as client:
        try:
            made_ = create(client, **MILLE, seats=[{"kind": "person"}, BOTS], sit=0, name="A")
            me = Player(client, made_["code"], made_["token"])
            for _ in range(4):
                answer = client.get(f"/api/tables/{made_['code']}/analysis")
                assert answer.status_code == 409 and answer.json()["error"]["code"] == "not-over"
                st = me.my_turn()
                me.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
                me.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        finally:
            close_all()
        assert client.get("/api/tables/nosuchcode/analysis").json()["error"]["code"] == "not-found"
        assert client.get("/api/tables/nosuchcode/analysis").status_code == 404
        assert client.get("/api/replays/nosuchfile/analysis").json()["error"]["code"] == "replay-gone"
        assert server_of(client).analyses.made == 0 and not server_of(client).analyses.jobs
    assert stored_rows(sqlite_url) == []


def test_record_files_are_analysed_too(sqlite_client: TestClient, tmp_path: Path) -> None:
    client = sqlite_client
    code = finished(client, KR)
    record = client.get(f"/api/tables/{code}/record").text
    sent = client.post("/api/replays", json={"record": record}).json()
    assert sent["analysis"] == f"/api/replays/{sent['id']}/analysis"
    assert client.get(f"/api/replays/{sent['id']}").json()["analysis"] == sent["analysis"]
    from_file, _ = made(client, sent["analysis"])
    from_table, _ = made(client, f"/api/tables/{code}/analysis")
    assert from_file == from_table and from_file["game"] == "knightrider"  # the same game, the same analysis
    assert server_of(client).analyses.made == 2
    # rallye replay FILE --web: its own server analyses the file it serves
    path = tmp_path / "game.jsonl"
    path.write_text(record, encoding="utf-8")
    local, page = local_app(str(path), f"sqlite:///{tmp_path / 'local.db'}", analysis_bot=BOT)
    with TestClient(local) as served:
        summary = served.get(f"/api/replays/{page.split('file=')[1]}").json()
        assert made(served, summary["analysis"])[0] == from_table


def test_a_bounded_queue_and_analyses_switched_off(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    with TestClient(app(url, analysis_queue=0)) as client:
        code = finished(client, MILLE)
        assert client.get(f"/api/tables/{code}/analysis").status_code == 202
        # one worker, no room to wait: another game is refused while this one is made
        other = client.post("/api/replays", json={"record": client.get(f"/api/tables/{code}/record").text}).json()
        busy = client.get(other["analysis"])
        assert server_of(client).analyses.active() == 1
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "analysis-busy"
        made(client, f"/api/tables/{code}/analysis")
        assert made(client, other["analysis"])[0]["game"] == "mille"  # once there is room again
    with TestClient(app(f"sqlite:///{tmp_path / 'b.db'}", analysis_workers=0)) as client:
        code = finished(client, KR)
        assert client.get(f"/api/tables/{code}/replay").json()["analysis"] is None
        answer = client.get(f"/api/tables/{code}/analysis")
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "analysis-off"
        assert server_of(client).analyses.started == 0  # no worker was started


def test_a_worker_that_dies_is_a_clear_error_and_the_next_request_starts_again(sqlite_url: str) -> None:
    import os
    import signal

    with TestClient(app(sqlite_url, analysis_bot="expert")) as client:  # a slow one: time to kill it
        code = finished(client, MILLE)
        path = f"/api/tables/{code}/analysis"
        deadline = time.monotonic() + 300  # a worker at a low priority on a busy machine starts slowly
        while not (client.get(path).json().get("done") or 0) > 0:
            assert time.monotonic() < deadline, "the analysis did not start"
            time.sleep(0.1)
        (worker,) = server_of(client).analyses.busy
        os.kill(worker.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while (answer := client.get(path)).status_code == 202:
            assert time.monotonic() < deadline, "the dead worker was not noticed"
            time.sleep(0.05)
        assert answer.status_code == 500 and answer.json()["error"]["code"] == "analysis-failed"
        assert "Traceback" not in answer.text
        assert client.get(path).status_code == 500  # not made again at every request of a page
        server_of(client).analyses.retry = 0  # a minute later (RETRY): asked again, a new worker starts it
        again = client.get(path)
        assert again.status_code == 202 and server_of(client).analyses.started == 2


def test_a_claim_in_the_database_lets_one_process_make_an_analysis(database_url: str) -> None:
    """The claims (``analysis_claims``): one process holds an analysis at a time, renews it with
    its progress, and loses it only when its lease runs out; a failure is kept for the others
    to tell; storing the analysis ends the claim."""
    store = Store(database_url)
    store.upgrade()
    try:
        key = AnalysisKey("t:ABCD", BOT, 0, "test")
        soon = time.time() + 30
        assert store.claim_analysis(key, "first", soon, 40) is None  # no claim: ours
        held = store.claim_analysis(key, "second", soon, 40)
        assert held is not None and (held.owner, held.status, held.done, held.total) == ("first", "queued", 0, 40)
        assert store.claim_analysis(key, "first", soon, 40) is None  # ours already (a restarted process)
        assert store.claim_analysis(key._replace(bot="hard"), "second", soon, 40) is None  # another key
        assert store.hold_analysis(key, "first", soon, status="running", done=12, total=40)
        assert not store.hold_analysis(key, "second", soon, status="running", done=1, total=40)
        seen = store.analysis_claim(key)
        assert seen is not None and (seen.owner, seen.status, seen.done) == ("first", "running", 12)
        # the first process dies: its lease runs out, and the next one asked takes it over
        assert store.hold_analysis(key, "first", time.time() - 1, status="running", done=13, total=40)
        assert store.analysis_claim(key) is None
        assert store.claim_analysis(key, "second", soon, 40) is None
        assert not store.hold_analysis(key, "first", soon, status="running", done=14, total=40)
        # a game that cannot be analysed: its error is kept until the lease ends
        assert store.hold_analysis(key, "second", soon, status="failed", done=3, total=40, error="no such card")
        failed = store.claim_analysis(key, "third", soon, 40)
        assert failed is not None and (failed.status, failed.error) == ("failed", "no such card")
        store.release_analysis(key, "third")  # not its claim: nothing happens
        assert store.analysis_claim(key) is not None
        store.release_analysis(key, "second")
        assert store.analysis_claim(key) is None
        # storing the analysis ends the claim, whoever holds it
        assert store.claim_analysis(key, "third", soon, 40) is None
        assert store.put_analysis(*key[:1], None, *key[1:], "{}", 0.5)
        assert store.analysis_claim(key) is None and store.analysis(*key) == "{}"
        assert store.claim_analysis(key, "fourth", soon, 40) is None  # (asked after: it reads the stored one)
        assert not store.put_analysis(*key[:1], None, *key[1:], "{}", 0.5)
        assert store.analysis_claim(key) is None
    finally:
        store.close()


def test_two_servers_on_one_database_make_one_analysis(sqlite_url: str) -> None:
    """Two servers (in one test process) on one database, both asked for one game: the one
    that claims it makes it, the other answers 202 with the status it reads in the database
    and serves the stored analysis once made; so does a server that makes no analyses."""
    with (
        TestClient(app(sqlite_url, owner="first")) as first,
        TestClient(app(sqlite_url, owner="second")) as second,
        TestClient(app(sqlite_url, owner="third", analysis_workers=0)) as third,
    ):
        code = finished(first, MILLE)
        path = f"/api/tables/{code}/analysis"
        started = first.get(path)
        assert started.status_code == 202
        server_of(second).analyses.poll = 0  # read the claim at every request
        progress = second.get(path)
        if progress.status_code == 202:  # (a quick machine may have made it already)
            assert progress.json()["status"] in ("queued", "running") and progress.json()["bot"] == BOT
            assert progress.json()["total"] == started.json()["total"] > 0  # as the first wrote it
            assert server_of(second).analyses.active() == 0  # waiting for the first, not making it
            assert third.get(path).status_code == 202  # not 'analysis-off': it is being made
        one, _ = made(first, path)
        other, _ = made(second, path)
        assert one == other == third.get(path).json()
        assert (server_of(first).analyses.made, server_of(second).analyses.made) == (1, 0)
        assert server_of(second).analyses.started == 0  # not even a worker started
    assert len(stored_rows(sqlite_url)) == 1


def test_an_analysis_stored_just_before_this_process_claimed_it_is_served_not_made(sqlite_url: str) -> None:
    """The holder stores the analysis and ends its claim in one transaction; a process that
    read nothing stored, then found no claim, reads again once it holds the claim: it serves
    what was stored, starts no worker, and lets the claim go."""
    import asyncio

    from rallye.server.analysis import Analyses

    store = Store(sqlite_url)
    store.upgrade()
    try:
        store.put_analysis("f:beef", None, BOT, 0, analyser(), '{"made": "elsewhere"}', 1.0)
        reads: list[Any] = []
        real = store.analysis

        def late(*key: Any) -> str | None:  # the first read came just before the other stored it
            reads.append(key)
            return None if len(reads) == 1 else real(*key)

        store.analysis = late  # type: ignore[method-assign]

        async def scenario() -> tuple[int, Any]:
            analyses = Analyses(store, lambda fn, *a: asyncio.to_thread(fn, *a), bot=BOT, owner="me")
            answer = await analyses.ask("f:beef", None, lambda: [])
            assert analyses.started == 0 and analyses.made == 0
            return answer

        assert asyncio.run(scenario()) == (200, '{"made": "elsewhere"}') and len(reads) == 2
        assert store.analysis_claim(AnalysisKey("f:beef", BOT, 0, analyser())) is None
        assert stored_rows(sqlite_url, analysis_claims) == []
    finally:
        store.close()
