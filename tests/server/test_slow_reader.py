"""A client that stops reading cannot make the server hold ever more for it (docs/server.md,
"A slow reader"): its outbox is bounded, it is closed with status 1013 ("too-slow"), the
others at its table are served on, and it reconnects to the current state.

A real server (uvicorn, as ``rallye serve`` runs it) on a socket with a small send buffer, a
real websocket client with a small receive buffer that stops reading: the bytes on their way
fill both buffers quickly, and the rest waits in the server's outbox.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.protocol import State
from websockets.sync.client import ClientConnection, connect
from websockets.uri import parse_uri

from rallye.server import app as app_module
from rallye.server.app import TOO_SLOW, create_app


class Served:
    """``rallye serve``'s app on a thread, on a listening socket whose connections have a
    small send buffer (Linux gives an accepted socket the listening socket's buffer sizes)."""

    def __init__(self, db: Path, **options: Any) -> None:
        import uvicorn

        self.app = create_app(database_url=f"sqlite:///{db}", bot_delay=0, owner="slow-tests", hint_rate=0, **options)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(self.app, ws="websockets-sansio", log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Served]:
    """The server, with the options a test gives (``indirect`` parametrisation)."""
    s = Served(tmp_path / "tables.db", **getattr(request, "param", {}))
    yield s
    s.stop()


def watch(port: int, code: str) -> ClientConnection:
    """A spectator's websocket that reads."""
    ws = connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "hello", "protocol": 1, "watch": True}))
    return ws


class Stalled:
    """A spectator that says hello and then reads nothing: the websocket protocol of the
    ``websockets`` library (sans I/O) over a socket with a receive buffer of a few KB, read
    only when the test says so."""

    def __init__(self, port: int, code: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/{code}"))
        self.proto.send_request(self.proto.connect())
        self.sock.sendall(b"".join(self.proto.data_to_send()))
        while self.proto.state is State.CONNECTING:
            self.proto.receive_data(self.sock.recv(4096))
        assert self.proto.state is State.OPEN, self.proto.handshake_exc
        self.proto.send_text(json.dumps({"type": "hello", "protocol": 1, "watch": True}).encode())
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def read_all(self) -> list[dict[str, Any]]:
        """What was on its way, until the server closes the connection."""
        out = []
        while self.proto.close_rcvd is None:
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            self.proto.receive_data(data)
            out += [
                json.loads(f.data) for f in self.proto.events_received() if getattr(f, "opcode", None) is Opcode.TEXT
            ]
        self.sock.close()
        return out


def bots_table(port: int) -> str:
    """A table where two bots play a whole match (to 5,000 points: several hundred moves) as
    fast as they can; its code."""
    body = {"game": "mille", "edition": "wm2006", "players": 2, "seats": [{"kind": "bot", "level": "easy"}] * 2}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        code: str = json.load(answer)["code"]
    return code


# a match has a few hundred moves: a state each to a spectator (rallye serve --outbox-messages 32)
@pytest.mark.parametrize("served", [{"outbox_messages": 32}], indirect=True)
def test_a_client_that_stops_reading_is_closed_the_others_play_on(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = served.app.state.server.outbox_messages
    monkeypatch.setattr(app_module, "CLOSE_SECONDS", 60.0)  # the test reads it at once, however slow the machine
    server = served.app.state.server
    code = bots_table(served.port)

    slow = Stalled(served.port, code)
    fast = watch(served.port, code)
    seen: list[dict[str, Any]] = []
    most = 0  # the most any outbox of the table held
    got: list[dict[str, Any]] | None = None
    both = False  # both spectators were at the table
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        conns = list(server.conns.get(code, []))
        most = max([most, *(c.queue.qsize() for c in conns)])
        both = both or len(conns) == 2
        if both and got is None and len(conns) == 1:
            # the slow one left the table: when it reads again, it gets what was on its way,
            # then the close that says why
            got = slow.read_all()
        msg = json.loads(fast.recv(timeout=30))
        seen.append(msg)
        if msg["type"] == "state" and msg["table"]["status"] == "over":
            break
    # the reader was served every move, to the end (its log: the welcome's, then each state's)
    moves = sorted({entry["n"] for m in seen if m["type"] in ("welcome", "state") for entry in m["log"]})
    assert moves == list(range(1, len(moves) + 1)) and len(moves) > limit
    # the slow one's outbox never held more than the limit
    assert most <= limit
    assert got is not None, "the slow client was never dropped"
    closed = slow.proto.close_rcvd
    assert closed is not None, "the slow client was not closed"
    assert (closed.code, closed.reason) == (TOO_SLOW, "too-slow")
    assert got and got[0]["type"] == "welcome"
    assert not any(m["type"] == "state" and m["table"]["status"] == "over" for m in got)  # it missed the end

    # and reconnected, it is sent the table as it is now
    again = watch(served.port, code)
    welcome = json.loads(again.recv(timeout=30))
    now = json.loads(again.recv(timeout=30))
    assert welcome["type"] == "welcome" and now["type"] == "state"
    assert now["table"]["status"] == "over" and now["move_no"] == len(moves)
    for ws in (again, fast):
        ws.close()


@pytest.mark.parametrize("served", [{"outbox_messages": 16}], indirect=True)
def test_a_client_that_never_reads_again_is_dropped_without_the_closing_frame(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closing frame waits behind what the client does not read: after CLOSE_SECONDS the
    server lets the connection go (its socket, its tasks), so nothing of it stays."""
    monkeypatch.setattr(app_module, "CLOSE_SECONDS", 0.5)
    code = bots_table(served.port)
    slow = Stalled(served.port, code)
    held = served.server.server_state.connections  # uvicorn's open connections
    deadline = time.monotonic() + 60
    while len(held) > 0:  # the table's messages pile up, the outbox overruns, the close waits, then drops
        assert time.monotonic() < deadline, "the connection that reads nothing was never let go"
        time.sleep(0.1)
    assert not served.app.state.server.conns.get(code)
    # what it reads now: what was on its way, and no closing frame (the connection was dropped)
    slow.read_all()
    assert slow.proto.close_rcvd is None


def test_the_outbox_takes_in_order_and_drops_its_backlog_past_the_limit() -> None:
    box = app_module.Outbox(200, 10_000)
    for n in range(150):  # a long backlog, taken while it grows: the order stays
        box.put_nowait(f"m{n}")
        if n % 3 == 0:
            box.get_nowait()
    taken = [box.get_nowait() for _ in range(box.qsize())]
    assert taken == [f"m{n}" for n in range(150) if n >= 50]
    box.put_nowait({"type": "pong", "ref": 1})  # a message is sent as JSON text
    assert box.get_nowait() == '{"type":"pong","ref":1}'
    for _ in range(199):
        box.put_nowait("x" * 40)
    assert not box.overrun and box.qsize() == 199
    box.put_nowait("y" * 2_200)  # over the bytes: everything waiting goes, nothing more is taken
    assert box.overrun and box.qsize() == 0
    box.put_nowait("z")
    assert box.qsize() == 0
