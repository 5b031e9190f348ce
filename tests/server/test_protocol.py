"""The table protocol (docs/protocol.md): every message type, every error, over a real
websocket to the app (Starlette's test client) and a real database."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.helpers import Player, close_all, create, receive_text

from rallye.core.record import parse_jsonl
from rallye.mille.record import replay_lines
from rallye.server.app import create_app
from rallye.server.messages import MAX_MESSAGE


def test_info_lists_editions_levels_and_languages(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert info["protocol"] == 1
    keys = [e["key"] for e in info["editions"]]
    assert keys == ["wm2006", "hu", "fxschmid", "meilen"]
    wm = info["editions"][0]
    assert wm["names"]["de"]["ACCIDENT"] == "Blechschaden"
    assert wm["teams"]["4"] == [[0, 2], [1, 3]]
    assert info["levels"] == ["easy", "medium", "hard", "expert"]
    assert info["game_levels"] == {"mille": [*info["levels"], "learned"], "knightrider": info["levels"]}
    assert set(info["languages"]) == {"de", "hu", "en", "fr"}


def test_create_join_and_play_a_whole_hand_between_two_people(client: TestClient) -> None:
    made = create(client, game="mille", edition="wm2006", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    assert made["table"]["status"] == "waiting"
    assert made["token"] not in json.dumps(made["table"])
    joined = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()
    assert joined["table"]["status"] == "playing"
    again = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Eve"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat-taken"
    anna, bob = Player(client, code, made["token"]), Player(client, code, joined["token"])
    assert anna.welcome["seat"] == 0 and bob.welcome["seat"] == 1
    players = {0: anna, 1: bob}
    hand_no = anna.state["view"]["hand_no"]
    for _ in range(400):
        turn = anna.state["turn"]
        p = players[turn]
        st = p.my_turn()
        assert st["turn"] == turn and st["legal"]
        other = players[1 - turn]
        assert other.state["legal"] == []
        choice = st["legal"][-1]
        p.send(type="act", move_no=st["move_no"], action=choice["action"])
        for q in players.values():
            q.until("state", lambda m, n=st["move_no"]: m["move_no"] == n + 1)
        assert anna.state["log"][-1] == {"n": st["move_no"] + 1, "seat": turn, "action": choice["action"]}
        if anna.state["view"]["hand_no"] != hand_no:
            break
    else:
        raise AssertionError("the hand did not end")
    sheet = anna.state["view"]["sheets"][0]
    assert sheet == bob.state["view"]["sheets"][0]
    for p in players.values():
        p.close()


def test_the_errors_each_reach_only_their_client_and_change_nothing(client: TestClient) -> None:
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    bob_token = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    anna, bob = Player(client, code, made["token"]), Player(client, code, bob_token)
    first = anna.state["turn"]
    me, them = (anna, bob) if first == 0 else (bob, anna)
    n = me.state["move_no"]

    def error(p: Player, **msg: object) -> dict:
        p.send(**msg)
        return p.until("error")

    assert error(them, type="act", move_no=n, action="discard D25")["code"] == "not-your-turn"
    # a move number from the future is not "stale" (nothing newer is on its way)
    assert error(me, type="act", move_no=n + 5, action=me.state["legal"][0]["action"])["code"] == "future-move"
    bad = error(me, type="act", move_no=n, action="play D200", id=7)
    assert bad["code"] == "illegal" and bad["rule"] and bad["ref"] == 7
    assert error(me, type="act", move_no=n, action="fly to the moon")["code"] == "illegal"
    assert error(me, type="act", move_no=n, code=99_999)["code"] == "illegal"
    me.ws.send_text("{not json")
    assert me.until("error")["code"] == "bad-json"
    me.ws.send_text(json.dumps({"type": "chat", "text": "x" * (MAX_MESSAGE + 10)}))
    assert me.until("error")["code"] == "too-large"
    assert error(me, type="dance")["code"] == "unknown-type"
    me.ws.send_text("[" * 4000)
    assert me.until("error")["code"] == "bad-json"
    assert error(me, type="act", move_no="five", action="x")["code"] == "bad-field"
    assert error(me, type="again")["code"] == "bad-field"
    # nothing changed: the next state both see is still move n, and a legal move goes through
    me.send(type="ping", id=1)
    assert me.until("pong")["ref"] == 1
    assert client.get(f"/api/tables/{code}").json()["table"]["move_no"] == n
    me.send(type="act", move_no=n, code=me.state["legal"][0]["code"])
    them.until("state", lambda m: m["move_no"] == n + 1)
    if them.state["turn"] == them.welcome["seat"]:  # an answer to the state before: stale
        assert error(them, type="act", move_no=n, code=0, id="late")["code"] == "stale"
    anna.close()
    bob.close()


#: messages the server refuses as ``bad-field`` however the table stands (issue 65, item 3)
BAD_FIELDS = [
    {"type": "act", "move_no": 0, "action": 5},  # was played as code 5
    {"type": "act", "move_no": 0, "code": True},
    {"type": "act", "move_no": 0, "code": "5"},
    {"type": "act", "move_no": 0, "code": 1.0},
    {"type": "act", "move_no": 0, "code": -1},
    {"type": "act", "move_no": 0, "code": 2**60},
    {"type": "act", "move_no": 0, "code": 1, "action": "discard D25"},
    {"type": "act", "move_no": 0},
    {"type": "act", "move_no": 2**60, "code": 1},
    {"type": "act", "move_no": -1, "code": 1},
    {"type": "act", "move_no": 0, "action": ""},
    {"type": "act", "move_no": 0, "action": "x" * 201},
    {"type": "act", "move_no": 0, "code": 1, "seat": 1},  # no such field
    {"type": "ping", "id": 2**60},
    {"type": "ping", "id": {"a": 1}},
    {"type": "ping", "id": ""},
    {"type": "chat", "text": "hi", "to": 1},
    {"type": "hello", "protocol": 1, "watch": True},  # already said
]
#: the same, as text a JSON encoder would not write
BAD_NUMBERS = [
    '{"type": "act", "move_no": NaN, "code": 1}',
    '{"type": "act", "move_no": 0, "code": Infinity}',
    '{"type": "act", "move_no": 1e400, "code": 1}',
    '{"type": "ping", "id": -Infinity}',
]


def test_strict_fields_are_bad_field_carry_the_ref_and_change_nothing(client: TestClient) -> None:
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    bob_token = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    anna, bob = Player(client, code, made["token"]), Player(client, code, bob_token)
    me = anna if anna.state["turn"] == 0 else bob
    for n, bad in enumerate(BAD_FIELDS):
        ref = f"bad{n}"
        me.send(**{**bad, "id": ref} if "id" not in bad else bad)
        err = me.until("error")
        assert err["code"] == "bad-field", (bad, err)
        if "id" not in bad:
            assert err["ref"] == ref, (bad, err)
    for text in BAD_NUMBERS:
        me.ws.send_text(text)
        assert me.until("error")["code"] == "bad-field", text
    me.send(type="ping", id=2**53 - 1)  # the largest id a page can hold exactly
    assert me.until("pong")["ref"] == 2**53 - 1
    assert client.get(f"/api/tables/{code}").json()["table"]["move_no"] == 0
    anna.close()
    bob.close()


def test_hello_is_checked(client: TestClient) -> None:
    code = create(client, game="mille", players=2, sit=0, name="Anna")["code"]
    for hello, expected in (
        ({"type": "act", "move_no": 0, "code": 1}, "hello-first"),
        ({"type": "hello", "protocol": 2, "watch": True}, "protocol"),
        ({"type": "hello", "protocol": True, "watch": True}, "protocol"),
        ({"type": "hello", "protocol": 1, "token": "guess", "id": 3}, "bad-token"),
        ({"type": "hello", "protocol": 1, "token": "guess", "watch": True}, "bad-field"),
        ({"type": "hello", "protocol": 1, "watch": False}, "bad-field"),
        ({"type": "hello", "protocol": 1}, "bad-token"),
    ):
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(json.dumps(hello))
            err = json.loads(receive_text(ws))
            assert err["type"] == "error" and err["code"] == expected, (hello, err)
            assert err["ref"] == hello.get("id")
    with client.websocket_connect("/ws/nosuchtable") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "watch": True}))
        assert json.loads(receive_text(ws))["code"] == "not-found"
    for path in ("/ws/", f"/ws/{code}/more", "/elsewhere"):  # no table's websocket: refused at once
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(path) as ws:
            receive_text(ws)


def test_a_spectator_sees_no_hand_and_cannot_act(client: TestClient) -> None:
    made = create(client, game="mille", players=2, sit=0, name="Anna")
    watcher = Player(client, made["code"])
    assert watcher.welcome["seat"] is None
    assert watcher.state["view"]["hand"] == [] and watcher.state["legal"] == []
    watcher.send(type="act", move_no=0, action="discard D25")
    assert watcher.until("error")["code"] == "spectator"
    watcher.close()


def test_chat_is_kept_rate_limited_and_plain_text(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # one line an hour: the second line is refused however slowly a busy machine sends it
    monkeypatch.setattr("rallye.server.app.CHAT_RATE", 1 / 3600)
    made = create(client, game="mille", players=2, sit=0, name="<b>Anna</b>")
    anna = Player(client, made["code"], made["token"])
    anna.send(type="chat", text="hello\x07 <script>")
    line = anna.until("chat")
    assert line["name"] == "<b>Anna</b>" and line["text"] == "hello  <script>"
    anna.send(type="chat", text="again")
    assert anna.until("error")["code"] == "chat-rejected"
    anna.send(type="chat", text="")
    assert anna.until("error")["code"] == "chat-rejected"
    anna.close()
    again = Player(client, made["code"], made["token"])
    assert [c["text"] for c in again.welcome["chat"]] == ["hello  <script>"]
    again.close()


def test_bad_table_requests_name_the_field(client: TestClient) -> None:
    for body, word in (
        ({"game": "chess"}, "game"),
        ({"game": "mille", "edition": "/etc/passwd.json"}, "edition"),
        ({"game": "mille", "players": 5}, "players"),
        ({"game": "mille", "players": 2, "seats": [{"kind": "bot", "level": "godlike"}] * 2}, "level"),
        ({"game": "mille", "players": 2, "sit": 0, "name": ""}, "name"),
        ({"game": "mille", "players": 2, "turn_timer": 1}, "turn_timer"),
        ({"game": "knightrider", "players": 2, "options": {"tiles_path": "/etc/passwd"}}, "option"),
        ({"game": "knightrider", "players": 9}, "players"),
        ({"game": "knightrider", "players": 2, "seats": [{"kind": "bot", "level": "learned"}] * 2}, "level"),
        ({"game": "knightrider", "players": 2, "timer_bot": "learned"}, "timer_bot"),
        ({"game": "knightrider", "players": 2, "options": {"turn_limit": 20_000}}, "from 1 to 10000"),
        ({"game": "knightrider", "players": 2, "options": {"turn_limit": 0}}, "from 1 to 10000"),
        ({"game": "knightrider", "players": 2, "options": {"tour": 6}}, "from 0 to 5"),
    ):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, body
        assert word in r.json()["error"]["message"].lower(), (body, r.json())
    r = client.post("/api/tables", content=b"[" * 100_000, headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 413)


def test_a_knight_rider_table_sets_its_turn_limit_and_a_bad_one_is_refused_by_its_rule(client: TestClient) -> None:
    """The lobby's turn-limit field: the server says the rules' default and the range, a table
    keeps the number it was given (null: none; left out: the rules'), and a number out of
    range, or not a whole number, is refused naming the rule, so the page can say it."""
    assert client.get("/api/info").json()["knightrider"]["turn_limit"] == {"default": 500, "min": 1, "max": 10_000}
    for given, kept in ((120, 120), (10_000, 10_000), (None, None), ("absent", 500)):
        options = {"quick_build": True} if given == "absent" else {"quick_build": True, "turn_limit": given}
        made = create(client, game="knightrider", players=3, options=options)
        assert made["table"]["options"]["turn_limit"] == kept, given
    for bad in (0, -5, 10_001, 2.5, "300", True):
        r = client.post("/api/tables", json={"game": "knightrider", "players": 2, "options": {"turn_limit": bad}})
        assert r.status_code == 400, bad
        error = r.json()["error"]
        assert (error["code"], error["rule"]) == ("bad-field", "turn-limit"), (bad, error)
        assert "'turn_limit' is a whole number from 1 to 10000, or null for none" in error["message"]


def test_alone_with_bots_to_the_end_then_record_my_games_and_again(client: TestClient) -> None:
    made = create(
        client, game="mille", edition="hu", players=2,
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], sit=0, name="Anna",
    )  # fmt: skip
    code = made["code"]
    assert client.get(f"/api/tables/{code}/record").status_code == 409
    anna = Player(client, code, made["token"])
    anna.play_to_end()
    assert anna.state["table"]["status"] == "over"
    assert anna.state["view"]["winners"]
    record = client.get(f"/api/tables/{code}/record")
    assert record.status_code == 200
    replay = replay_lines(parse_jsonl(record.text))
    assert replay.finished and list(replay.final.totals) == anna.state["view"]["totals"]
    games = client.post("/api/my-games", json={"tokens": [made["token"], "nobody"]}).json()["games"]
    assert [g["code"] for g in games] == [code]
    assert games[0]["totals"] == anna.state["view"]["totals"] and games[0]["status"] == "over"
    assert [(s["kind"], s["level"]) for s in games[0]["seats"]] == [("person", None), ("bot", "easy")]
    anna.send(type="again")
    new_code = anna.until("again")["code"]
    assert new_code != code
    anna.close()
    fresh = Player(client, new_code, made["token"])
    assert fresh.welcome["seat"] == 0 and fresh.state["move_no"] == 0
    fresh.close()


def test_without_numpy_no_table_offers_the_learned_level(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a))
    assert client.get("/api/info").json()["game_levels"]["mille"] == ["easy", "medium", "hard", "expert"]
    r = client.post(
        "/api/tables", json={"game": "mille", "players": 2, "seats": [{"kind": "bot", "level": "learned"}] * 2}
    )
    assert r.status_code == 400 and "'level' is one of easy, medium, hard, expert" in r.json()["error"]["message"]


def test_a_mille_table_seats_the_learned_level(client: TestClient) -> None:
    made = create(
        client, game="mille", edition="wm2006", players=4, timer_bot="learned",
        seats=[{"kind": "person"}, *[{"kind": "bot", "level": "learned"}] * 3], sit=0, name="Anna",
    )  # fmt: skip
    anna = Player(client, made["code"], made["token"])
    for _ in range(12):  # the three bots move between Anna's turns
        st = anna.my_turn()
        anna.send(type="act", move_no=st["move_no"], action=st["legal"][0]["action"])
        anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    # Anna moved 12 times; the learned bots moved between her turns, except where a safety or a
    # coup fourre gave her the next turn (four safeties a hand at most, so at least 8 bot turns)
    assert anna.state["move_no"] >= 12 + 8
    assert [s["level"] for s in anna.state["table"]["seats"]] == [None, "learned", "learned", "learned"]
    anna.close()


def test_knight_rider_table_plays_through_the_server(client: TestClient) -> None:
    made = create(
        client, game="knightrider", players=2, options={"quick_build": True},
        seats=[{"kind": "person"}, {"kind": "bot", "level": "medium"}], sit=0, name="Anna",
    )  # fmt: skip
    anna = Player(client, made["code"], made["token"])
    assert anna.state["view"]["me"] == 0
    moves = 0
    while moves < 30:
        st = anna.my_turn()
        if st["table"]["status"] == "over":
            break
        choice = st["legal"][0]
        assert "info" in choice
        anna.send(type="act", move_no=st["move_no"], action=choice["action"])
        anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        moves += 1
    assert anna.state["move_no"] >= moves
    pieces = client.get("/api/knightrider/pieces").json()
    assert pieces["tiles"] and pieces["escape_cards"]
    anna.close()


def test_a_flood_slows_only_the_client_that_sends_it(client: TestClient) -> None:
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    bob_token = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    anna, bob = Player(client, code, made["token"]), Player(client, code, bob_token)
    for i in range(60):
        anna.send(type="ping", id=i)
    # a notice, not an error: the message is held back, and answered later
    notice = anna.until("slow-down")
    assert notice["ref"] in range(60) and notice["wait"] > 0
    bob.send(type="ping", id="b")
    assert bob.until("pong")["ref"] == "b"  # bob is answered while anna's messages wait
    assert anna.until("pong", lambda m: m["ref"] == 59)["ref"] == 59  # anna's are answered in the end
    assert not [t for t in anna.texts if '"error"' in t]  # nothing was refused
    anna.close()
    bob.close()


def test_a_turn_timer_lets_a_bot_play_for_an_absent_person(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from rallye.server import table as table_module

    monkeypatch.setattr(table_module, "TIMER_RANGE", (1, 3600))
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        try:
            made = create(c, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna",
                          turn_timer=1, timer_bot="easy")  # fmt: skip
            code = made["code"]
            c.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"})
            anna = Player(c, code, made["token"])
            assert anna.state["deadline"] is not None
            n = anna.state["move_no"]
            # nobody moves: after a second the timer's bot plays for whoever is to act
            st = anna.until("state", lambda m: m["move_no"] > n)
            assert st["log"][-1]["n"] == n + 1
        finally:
            close_all()


def test_creating_tables_is_rate_limited_by_address(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0, request_rate=1)) as c:
        codes = [c.post("/api/tables", json={"game": "mille"}).status_code for _ in range(25)]
    assert codes[:20] == [201] * 20 and codes[-1] == 429


def _creations(c: TestClient, forwarded_for: list[str]) -> list[int]:
    return [
        c.post("/api/tables", json={"game": "mille"}, headers={"X-Forwarded-For": f}).status_code for f in forwarded_for
    ]


def test_a_forwarded_header_from_an_untrusted_peer_does_not_escape_the_limit(database_url: str) -> None:
    spoofed = [f"203.0.113.{n}" for n in range(25)]
    with TestClient(create_app(database_url, bot_delay=0, request_rate=1)) as c:
        assert _creations(c, spoofed)[-5:] == [429] * 5  # one peer, whatever it writes
    # a proxy named, but this peer is not it
    with TestClient(create_app(database_url, bot_delay=0, request_rate=1, forwarded_allow_ips=["10.0.0.1"])) as c:
        assert _creations(c, spoofed)[-5:] == [429] * 5


def test_a_trusted_proxy_names_the_client(database_url: str) -> None:
    # Starlette's test client is the peer "testclient": here, the proxy
    with TestClient(create_app(database_url, bot_delay=0, request_rate=1, forwarded_allow_ips=["testclient"])) as c:
        assert _creations(c, [f"203.0.113.{n}" for n in range(25)]) == [201] * 25  # 25 clients
        # one client behind the proxy is limited; a forged entry before the proxy's own is not believed
        codes = _creations(c, [f"198.51.100.{n}, 192.0.2.7" for n in range(25)])
        assert codes[:20] == [201] * 20 and codes[-1] == 429


def test_posts_must_be_json_so_no_other_site_can_write(client: TestClient) -> None:
    """A form or text/plain POST is a "simple" request any web page may send to any server;
    application/json needs a CORS preflight the server never grants."""
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    for path, body in (
        ("/api/tables", '{"game": "mille"}'),
        (f"/api/tables/{made['code']}/join", '{"seat": 1, "name": "Eve"}'),
        ("/api/my-games", '{"tokens": []}'),
    ):
        for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
            headers = {"Content-Type": media} if media else {}
            r = client.post(path, content=body.encode(), headers=headers)
            assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported-media-type", (path, media)
        ok = client.post(path, content=body.encode(), headers={"Content-Type": "application/json; charset=utf-8"})
        assert ok.status_code in (200, 201), (path, ok.text)
    assert client.get(f"/api/tables/{made['code']}").json()["table"]["seats"][1]["name"] == "Eve"


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    code = create(client, game="mille")["code"]
    for path in ("/", f"/t/{code}", "/static/js/table.js", "/i18n/web/en.json", "/api/info", "/api/tables/nosuch"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "style-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_a_state_logs_only_the_moves_since_the_state_before(client: TestClient) -> None:
    """Issue 65, item 6: the last 30 moves were a fifth of every state; the welcome carries
    them, a state only what is new."""
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    bob_token = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    anna, bob = Player(client, code, made["token"]), Player(client, code, bob_token)
    assert anna.welcome["log"] == []
    players = {0: anna, 1: bob}
    for _ in range(35):
        st = players[anna.state["turn"]].my_turn()
        players[st["turn"]].send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
        for p in players.values():
            new = p.until("state", lambda m, n=st["move_no"]: m["move_no"] == n + 1)
            assert [e["n"] for e in new["log"]] == [st["move_no"] + 1]  # the move just played, alone
    watcher = Player(client, code)  # a newcomer is told the last 30 in its welcome
    assert [e["n"] for e in watcher.welcome["log"]] == list(range(6, 36))
    assert watcher.state["log"] == [] and watcher.state["move_no"] == 35  # nothing new since
    for p in (anna, bob, watcher):
        p.close()


def test_a_flood_of_unreadable_messages_is_held_back_too(client: TestClient) -> None:
    made = create(client, game="mille", players=2, sit=0, name="Anna")
    anna = Player(client, made["code"], made["token"])
    for _ in range(60):
        anna.ws.send_text("{not json")
    assert anna.until("slow-down")["ref"] is None
    anna.send(type="ping", id="last")
    anna.until("pong", lambda m: m["ref"] == "last")  # after every one of them was answered, in turn
    assert sum('"bad-json"' in t for t in anna.texts) == 60
    anna.close()
