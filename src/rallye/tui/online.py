"""``rallye join URL``: sit at an online table from the terminal, on the same screen as a
terminal game against bots.

The terminal loops of both games (:mod:`rallye.tui.mille.app`, :mod:`rallye.tui.knightrider.app`)
drive a :class:`~rallye.tui.session.Session`; here the session is the server
(:class:`RemoteSession`): the view comes from the last ``state`` message, a move is an
``act`` message, and "the bot's move" is whatever the next state shows another seat did.
No rule is checked here: the server's answer is the rule. When the connection drops, the
client reconnects with its seat token by itself.

A seat's token is kept in the user's data directory (``tokens.json``), so running the same
command again returns to the same seat; ``--token`` takes a token from another device.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rallye.core.errors import ConfigError, IllegalAction
from rallye.tui.session import Played

if TYPE_CHECKING:
    from rich.console import Console

    from rallye.core.game import Game
    from rallye.knightrider.actions import Action as KRAction
    from rallye.knightrider.state import Options
    from rallye.knightrider.view import View

A = TypeVar("A")
V = TypeVar("V")

PROTOCOL = 1
RETRIES = 30


class ServerError(ConfigError):
    """The server refused a request, or cannot be reached."""


def parse_table_url(url: str) -> tuple[str, str]:
    """``http://host:port/t/CODE`` (or ``.../ws/CODE``) → (base URL, code)."""
    parts = urllib.parse.urlsplit(url.strip())
    bits = [b for b in parts.path.split("/") if b]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(bits) < 2 or bits[-2] not in ("t", "ws"):
        raise ServerError(f"{url!r} is not a table's address; it looks like http://host:8000/t/CODE", rule="join")
    return f"{parts.scheme}://{parts.netloc}", bits[-1]


def _http(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return json.loads(raw) if r.headers.get_content_type() == "application/json" else raw.decode()
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read())["error"]
            raise ServerError(err["message"], rule=err.get("code")) from None
        except (ValueError, KeyError, TypeError):
            raise ServerError(f"the server answered {exc.code}", rule="join") from None
    except OSError as exc:
        raise ServerError(f"cannot reach {base}: {getattr(exc, 'reason', exc)}", rule="join") from None


def _token_file() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("rallye", appauthor=False)) / "tokens.json"


def saved_token(base: str, code: str) -> str | None:
    try:
        data = json.loads(_token_file().read_text(encoding="utf-8"))
        token = data.get(f"{base}/t/{code}")
        return token if isinstance(token, str) else None
    except (OSError, ValueError, AttributeError):
        return None


def save_token(base: str, code: str, token: str) -> None:
    path = _token_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[f"{base}/t/{code}"] = token
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.chmod(0o600)
    tmp.replace(path)


class Connection:
    """One seat's websocket: the newest state, the moves since, reconnection."""

    def __init__(self, base: str, code: str, token: str, sleep: Callable[[float], None] = time.sleep) -> None:
        self.base, self.code, self.token = base, code, token
        self.sleep = sleep
        self.ws: Any = None
        self.state: dict[str, Any] = {}
        self.seat: int | None = None
        self.table: dict[str, Any] = {}
        self.log: list[dict[str, Any]] = []  # the last 30 moves (a state brings the new ones)
        self._connect()

    def _connect(self) -> None:
        from websockets.sync.client import connect

        ws_base = "ws" + self.base[len("http") :]
        last: Exception | None = None
        for attempt in range(RETRIES):
            try:
                self.ws = connect(f"{ws_base}/ws/{self.code}", open_timeout=10, max_size=2**22, legacy=True)
                self.ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": self.token}))
                welcome = json.loads(self.ws.recv(timeout=30))
                if welcome["type"] == "error":
                    raise ServerError(welcome["message"], rule=welcome["code"])
                self.seat, self.table = welcome["seat"], welcome["table"]
                self.log = welcome.get("log", [])
                self._until(lambda m: m["type"] == "state")
                return
            except ServerError:
                raise
            except (OSError, TimeoutError, ValueError, KeyError) as exc:
                last = exc
                self.sleep(min(5.0, 0.5 * (attempt + 1)))
        raise ServerError(f"lost the connection to {self.base} and could not get it back ({last})", rule="join")

    def _recv(self) -> dict[str, Any]:
        while True:
            try:
                msg: dict[str, Any] = json.loads(self.ws.recv())
            except (OSError, TimeoutError, ValueError, EOFError) as exc:
                if type(exc).__name__ == "ConnectionClosedOK" and self.over:
                    raise
                self._connect()  # the server went away: back with the same token
                return self.state
            except Exception as exc:  # websockets' ConnectionClosed family
                if "ConnectionClosed" not in type(exc).__name__:
                    raise
                self._connect()
                return self.state
            if msg.get("type") == "state":
                # its log is the moves since the state before: kept whole here (the last 30)
                last = self.log[-1]["n"] if self.log else 0
                self.log = (self.log + [e for e in msg["log"] if e["n"] > last])[-30:]
                msg["log"] = self.log
                self.state = msg
                self.table = msg["table"]
            return msg

    def _until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            msg = self._recv()
            if pred(msg):
                return msg

    @property
    def over(self) -> bool:
        return bool(self.state) and self.state["table"]["status"] == "over"

    def act(self, notation: str) -> None:
        """Send a move; return when the state shows it, or raise the server's refusal."""
        n = self.state["move_no"]
        for _ in range(RETRIES):
            try:
                self.ws.send(json.dumps({"type": "act", "move_no": n, "action": notation, "id": f"m{n}"}))
                break
            except Exception as exc:  # the server went away (websockets' ConnectionClosed, OSError)
                if not isinstance(exc, OSError) and "ConnectionClosed" not in type(exc).__name__:
                    raise
                self._connect()
                if self.state["move_no"] > n:  # it was accepted before the connection dropped
                    return
        while True:
            msg = self._recv()
            if msg.get("type") == "error" and msg.get("ref") in (f"m{n}", None):  # the answer to this move
                raise IllegalAction(msg["message"], rule=msg.get("rule") or msg.get("code"))
            if msg.get("type") == "state" and msg["move_no"] > n:
                return

    def next_move(self) -> dict[str, Any]:
        """Wait for the next move by another seat; its public log entry."""
        n = self.state["move_no"]
        self._until(lambda m: m.get("type") == "state" and m["move_no"] > n)
        log: list[dict[str, Any]] = self.state["log"]
        done = [e for e in log if e["n"] == n + 1]
        return done[0] if done else log[-1]

    def record(self) -> str:
        text: str = _http(self.base, f"/api/tables/{self.code}/record")
        return text

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()


class RemoteSession(Generic[A, V]):
    """A game at an online table, as the terminal loops see a game (a
    :class:`~rallye.tui.session.Session`): the server keeps the game and checks the moves."""

    #: the server keeps the game: leaving (Ctrl-C too) loses nothing
    kept_by_server = True

    def __init__(self, conn: Connection, game: Game[Any, A, V], view_of: Callable[[dict[str, Any]], V]) -> None:
        self.conn = conn
        self.game = game
        self._view_of = view_of
        assert conn.seat is not None
        self.viewer = conn.seat
        self.human_seats: tuple[int, ...] = (conn.seat,)
        self._seed: int | None = None

    @property
    def human_seat(self) -> int:
        return self.viewer

    @property
    def bot_names(self) -> tuple[str | None, ...]:
        return tuple(
            None if s["seat"] == self.viewer else (s["level"] if s["kind"] == "bot" else (s["name"] or "?"))
            for s in self.conn.table["seats"]
        )

    def seat_tags(self) -> dict[int, str]:
        return {s: ("you" if n is None else n) for s, n in enumerate(self.bot_names)}

    @property
    def over(self) -> bool:
        return self.conn.over

    @property
    def human_to_act(self) -> bool:
        return bool(self.conn.state["legal"])

    @property
    def actions_played(self) -> int:
        return int(self.conn.state["move_no"])

    @property
    def seed(self) -> int | None:
        """The deal's seed: the server tells it (in the record) once the game is over."""
        if self._seed is None and self.over:
            try:
                head = json.loads(self.conn.record().splitlines()[0])
                self._seed = int(head["seed"])
            except (ServerError, ValueError, KeyError, IndexError):
                return None
        return self._seed

    def view(self) -> V:
        return self._view_of(self.conn.state["view"])

    def legal(self) -> tuple[A, ...]:
        return tuple(self.game.parse_action(e["action"]) for e in self.conn.state["legal"])

    def play(self, action: A) -> Played[A, V]:
        before = self.view()
        self.conn.act(self.game.format_action(action))
        return Played(self.viewer, action, before, self.view())

    def bot_move(self) -> Played[A, V]:
        before = self.view()
        entry = self.conn.next_move()
        return Played(entry["seat"], self.game.parse_action(entry["action"]), before, self.view())

    def deal_options(self) -> list[str]:
        """None: the server dealt (the seed line names the seed alone)."""
        return []

    def save(self, path: str | Path) -> Path:
        if not self.over:
            raise OSError("an online game is kept by the server; come back with the same rallye join command")
        p = Path(path)
        p.write_text(self.conn.record(), encoding="utf-8")
        return p


if TYPE_CHECKING:
    _RemoteKR = RemoteSession[KRAction, View]
else:
    _RemoteKR = RemoteSession


class RemoteKRSession(_RemoteKR):
    """A Knight Rider game at an online table: the session and the table's variants."""

    @property
    def options(self) -> Options:
        from rallye.knightrider.state import Options

        return Options.from_json(dict(self.conn.table["options"]))


def add_join_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", help="the table's invite link, e.g. http://192.168.1.20:8000/t/k7dq2m9xha")
    p.add_argument("--name", default=None, help="your display name at the table (asked for if not given)")
    p.add_argument("--seat", type=int, default=None, help="the seat to take, 1-based (default: the first free one)")
    p.add_argument("--token", default=None, help="your seat's token (from another device) to return to your seat")
    p.add_argument("--lang", choices=("de", "hu", "en", "fr"), default=None, help="language (default: the game's)")


def run_join(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console()
    return join(args, console, console.input)


def join(args: argparse.Namespace, console: Console, input_fn: Callable[[str], str]) -> int:
    """``rallye join`` with an injectable console and input (tests use this)."""
    base, code = parse_table_url(args.url)
    token = args.token or saved_token(base, code)
    if token is None:
        table = _http(base, f"/api/tables/{code}")["table"]
        free = [s["seat"] for s in table["seats"] if s["kind"] == "person" and not s["taken"]]
        if args.seat is not None:
            seat = args.seat - 1
            if seat not in free:
                raise ServerError(f"seat {args.seat} is not free at this table", rule="join")
        elif free:
            seat = free[0]
        else:
            raise ServerError("every seat at this table is taken (watch it in the browser)", rule="join")
        name = args.name
        while not name:
            try:
                name = input_fn("Your name at the table: ").strip()
            except EOFError:
                return 2
        token = _http(base, f"/api/tables/{code}/join", {"seat": seat, "name": name})["token"]
        save_token(base, code, token)
    conn = Connection(base, code, token)
    try:
        if conn.table["game"] == "mille":
            from rallye.mille.game import GAME as MILLE
            from rallye.mille.view import MilleView
            from rallye.tui.mille.app import run_session as mille_run
            from rallye.tui.mille.render import pick_language

            remote = RemoteSession(conn, MILLE, MilleView.from_json)
            lang, _ = pick_language(remote.view().edition, args.lang)
            return mille_run(remote, input_fn, console, lang=lang)
        from rallye.knightrider.game import GAME as KNIGHTRIDER
        from rallye.knightrider.view import View
        from rallye.tui.knightrider.app import run_session as kr_run

        return kr_run(RemoteKRSession(conn, KNIGHTRIDER, View.from_json), input_fn, console, lang=args.lang or "de")
    finally:
        conn.close()


__all__ = ["Connection", "RemoteKRSession", "RemoteSession", "ServerError", "join", "parse_table_url"]
