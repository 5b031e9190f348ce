"""Helpers of the server tests: a websocket client over Starlette's test client."""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession
from tests.server import schema


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


#: seconds a test waits for a message before it fails (a healthy server answers in
#: milliseconds; a regression must fail, not hang)
WAIT = 30.0


def receive_text(ws: WebSocketTestSession, seconds: float = WAIT) -> str:
    """The next text message of a test client's websocket, or a failure after ``seconds``
    (Starlette's ``receive_text`` waits for ever: this waits on the same stream, bounded)."""

    async def bounded() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(bounded)
    except TimeoutError:
        raise AssertionError(f"no message from the server within {seconds:g} s") from None
    ws._raise_on_close(message)
    text = str(message["text"])
    schema.check("server", json.loads(text))  # every message the server sends is as documented
    return text


OPEN: list[Player] = []


def close_all() -> None:
    """Close every websocket a test left open (a failed test must not hang the app)."""
    while OPEN:
        OPEN.pop().close()


class Player:
    """One websocket, with the messages it received."""

    def __init__(self, client: TestClient, code: str, token: str | None = None) -> None:
        self.cm = client.websocket_connect(f"/ws/{code}")
        self.ws = self.cm.__enter__()
        self.closed = False
        self.texts: list[str] = []  # every message received, as sent
        OPEN.append(self)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        hello.update({"token": token} if token else {"watch": True})
        self.ws.send_text(json.dumps(hello))
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome", self.welcome
        self.state = self.until("state")

    def recv(self, seconds: float = WAIT) -> dict[str, Any]:
        text = receive_text(self.ws, seconds)
        self.texts.append(text)
        msg: dict[str, Any] = json.loads(text)
        return msg

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps(msg))

    def until(self, kind: str, pred: Any = None, seconds: float = WAIT) -> dict[str, Any]:
        """The next message of this type (that ``pred`` accepts): a failure, never a hang,
        when none comes within ``seconds``."""
        deadline = time.monotonic() + seconds
        for _ in range(10_000):
            msg = self.recv(max(0.0, deadline - time.monotonic()))
            if msg["type"] == "state":
                self.state = msg
            if msg["type"] == kind and (pred is None or pred(msg)):
                return msg
        raise AssertionError(f"no {kind} message")

    def my_turn(self) -> dict[str, Any]:
        """Wait for a state in which this seat has legal actions (or the game is over)."""
        if self.state["legal"] or self.state["table"]["status"] == "over":
            return self.state
        return self.until("state", lambda m: m["legal"] or m["table"]["status"] == "over")

    def play_to_end(self, moves: int = 3000) -> None:
        """Play this seat's first legal action each turn until the game is over."""
        for _ in range(moves):
            st = self.my_turn()
            if st["table"]["status"] == "over":
                return
            self.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
            self.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        raise AssertionError(f"the game did not end in {moves} moves")

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self in OPEN:
                OPEN.remove(self)
            self.cm.__exit__(None, None, None)
