"""Issue 65, item 5: docs/protocol.schema.json is kept true. Every message a server test
receives is checked against it (tests/server/helpers.py); here: the schema names every
message type of docs/protocol.md, the HTTP answers match it, and whatever client message the
schema refuses, the server refuses too (an ``error`` that changes nothing)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient
from tests.server import schema
from tests.server.helpers import Player, create
from tests.server.test_protocol import BAD_FIELDS

from rallye.server.messages import FIELDS

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _documented_types(heading: str) -> list[str]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.M)


def test_the_schema_is_draft_2020_12_and_names_every_documented_message() -> None:
    Draft202012Validator.check_schema(schema.schema())
    defs = schema.schema()["$defs"]
    server_types = _documented_types("### Server → client")
    client_types = _documented_types("### Client → server")
    assert {"welcome", "state", "error", "slow-down", "pong"} <= set(server_types)
    assert set(client_types) == set(FIELDS)  # the document and the server's own list
    for kind in server_types:
        assert {"$ref": f"#/$defs/server.{kind}"} in defs["server"]["oneOf"], kind
    for kind in client_types:
        assert {"$ref": f"#/$defs/client.{kind}"} in defs["client"]["oneOf"], kind
        # the fields the server accepts are the ones the schema allows
        assert set(defs[f"client.{kind}"]["properties"]) == FIELDS[kind], kind
    # every error code the document lists is one the schema allows, and the reverse
    errors = PROTOCOL_MD.read_text(encoding="utf-8").split("### Errors (`error.code`)", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", errors)) & set(defs["error_code"]["enum"])
    assert listed == set(defs["error_code"]["enum"])


def test_the_http_answers_are_as_the_schema_says(client: TestClient) -> None:
    schema.check("http.info", client.get("/api/info").json())
    body = {"game": "mille", "players": 2, "seats": [{"kind": "person"}] * 2, "sit": 0, "name": "Anna"}
    made = client.post("/api/tables", json=body).json()
    schema.check("http.created", made)
    schema.check("http.table", client.get(f"/api/tables/{made['code']}").json())
    join = {"seat": 1, "name": "Bob"}
    schema.check("http.join.request", join)
    schema.check("http.joined", client.post(f"/api/tables/{made['code']}/join", json=join).json())
    mine = {"tokens": [made["token"]]}
    schema.check("http.my-games.request", mine)
    schema.check("http.my-games", client.post("/api/my-games", json=mine).json())
    schema.check("http.error", client.get("/api/tables/nosuchcode").json())
    kr = client.post("/api/tables", json={"game": "knightrider", "players": 3}).json()
    schema.check("http.created", kr)


def test_the_schema_refuses_the_messages_the_server_refuses_as_bad_fields() -> None:
    for bad in BAD_FIELDS:
        # a good hello is refused because it comes twice; and JSON Schema, like JSON itself,
        # has one number 1 where Python reads 1 and 1.0 (the server refuses 1.0: stricter)
        if bad["type"] != "hello" and not any(isinstance(v, float) for v in bad.values()):
            assert schema.refuses("client", bad), bad
    for good in (
        {"type": "hello", "protocol": 1, "token": "t"},
        {"type": "hello", "protocol": 1, "watch": True, "id": 1},
        {"type": "act", "move_no": 0, "action": "play D100", "id": "m0"},
        {"type": "act", "move_no": 3, "code": 12},
        {"type": "chat", "text": "hi"},
        {"type": "again"},
        {"type": "ping", "id": 2**53 - 1},
    ):
        schema.check("client", good)


_ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
_GOOD = [
    {"type": "act", "move_no": 0, "code": 1, "id": 1},
    {"type": "act", "move_no": 0, "action": "discard D25"},
    {"type": "chat", "text": "hi", "id": "c"},
    {"type": "ping", "id": "p"},
    {"type": "again"},
    {"type": "hello", "protocol": 1, "watch": True},
]
_FIELD_NAMES = st.sampled_from(
    ["type", "move_no", "action", "code", "id", "text", "protocol", "token", "watch", "seat"]
)


@st.composite
def _near_messages(draw: st.DrawFn) -> object:
    """Good messages with one thing wrong (a field dropped, added or given another value),
    and now and then anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_ANY_JSON)
    msg = dict(draw(st.sampled_from(_GOOD)))
    how = draw(st.sampled_from(["drop", "set", "add"]))
    if how == "drop":
        msg.pop(draw(st.sampled_from(sorted(msg))), None)
    else:
        msg[draw(_FIELD_NAMES) if how == "set" else draw(st.text(min_size=1, max_size=6))] = draw(_ANY_JSON)
    return msg


def test_whatever_the_schema_refuses_the_server_refuses(client: TestClient) -> None:
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}] * 2, sit=0, name="Anna")
    code = made["code"]
    bob = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    anna = Player(client, code, made["token"])
    other = Player(client, code, bob)
    me = anna if anna.state["turn"] == 0 else other
    probes = iter(range(10**6))
    tried: list[object] = []

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(_near_messages())
    def refused(msg: object) -> None:
        if not schema.refuses("client", msg):
            return  # a message the schema allows may be played: not this test's
        tried.append(msg)
        me.ws.send_text(json.dumps(msg))
        probe = f"probe{next(probes)}"
        me.send(type="ping", id=probe)
        seen = []
        while True:
            got = me.recv()
            if got["type"] == "pong" and got["ref"] == probe:
                break
            seen.append(got)
        kinds = [m["type"] for m in seen]
        assert kinds.count("error") == 1 and not {"chat", "again"} & set(kinds), (msg, kinds)
        assert all(m["move_no"] == 0 for m in seen if m["type"] == "state"), msg  # no move was played

    refused()
    assert len(tried) > 50
    assert client.get(f"/api/tables/{code}").json()["table"]["move_no"] == 0  # nothing was played
    anna.close()
    other.close()
