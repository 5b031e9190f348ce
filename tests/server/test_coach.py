"""The coach at the table (issue #61, item 3): a seated player's hint for their own decision,
through the server. The hint is the analysis bot's, from the seat's view only (changing the
other hands and the draw pile behind the same view changes no hint); it is refused at a
table of several people whose creator did not allow it, to spectators, out of turn, for an
old move, and past the limit a seat may ask; it goes to the one who asked and plays nothing.

The tables use the ``hard`` coach (``rallye serve --coach-bot hard``): the same code as
``expert``, a fraction of the search."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.helpers import Player, close_all, create
from tests.server.test_no_leak import _kr_other_deal, _mille_other_deal

from rallye.server.app import Server, create_app
from rallye.server.store import Store
from rallye.server.table import Seat, split_coach

BOT = {"kind": "bot", "level": "easy"}
PERSON = {"kind": "person"}


def _app(url: str, **options: Any) -> TestClient:
    options = {"bot_delay": 0, "coach_bot": "hard", "hint_rate": 0, **options}
    return TestClient(create_app(url, **options))


@pytest.fixture
def coached(sqlite_url: str) -> Iterator[TestClient]:
    """The app with the cheap coach and no limit on hints."""
    with _app(sqlite_url) as c:
        try:
            yield c
        finally:
            close_all()


def _server(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def _answer(p: Player, ref: str) -> dict[str, Any]:
    """The next hint or error answering ``ref`` (other messages are read past)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        msg = p.recv(max(0.0, deadline - time.monotonic()))
        if msg["type"] == "state":
            p.state = msg
        if msg["type"] in ("hint", "error") and msg.get("ref") == ref:
            return msg
    raise AssertionError(f"no answer to {ref}")


def _hint(p: Player, ref: str = "h") -> dict[str, Any]:
    p.send(type="hint", move_no=p.state["move_no"], id=ref)
    return _answer(p, ref)


def _to_a_choice(p: Player, kinds: tuple[str, ...] = (), least: int = 3) -> dict[str, Any]:
    """Play the first legal action until this seat has ``least`` legal actions (of one of
    ``kinds``, when given) to choose from; that state."""
    for _ in range(300):
        st = p.my_turn()
        assert st["table"]["status"] != "over", "the game ended before a choice came"
        legal = st["legal"]
        if len(legal) >= least and (not kinds or any(e["info"].get("kind") in kinds for e in legal)):
            return st
        p.send(type="act", move_no=st["move_no"], code=legal[0]["code"])
        p.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    raise AssertionError("no choice came")


def _check_hint(msg: dict[str, Any], st: dict[str, Any], domain: str) -> None:
    assert msg["type"] == "hint", msg
    assert msg["move_no"] == st["move_no"]
    entry = next(e for e in st["legal"] if e["code"] == msg["code"])
    assert entry["action"] == msg["hint"]["best"]  # one of this state's legal actions
    assert 1 <= len(msg["hint"]["reasons"]) <= 3
    assert all(r["key"].startswith(f"coach.{domain}.") for r in msg["hint"]["reasons"])


def test_a_person_alone_with_bots_gets_the_hint_and_nothing_is_played(coached: TestClient) -> None:
    made = create(coached, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna")
    assert made["table"]["coach"] is True  # one person with bots: on by default
    anna = Player(coached, made["code"], made["token"])
    st = _to_a_choice(anna)
    msg = _hint(anna)
    _check_hint(msg, st, "mille")
    assert msg["hint"]["next"] is not None and msg["hint"]["next"] != msg["hint"]["best"]
    # asked again: the same answer, from the one search made
    assert _hint(anna, "again")["hint"] == msg["hint"]
    # the hint played nothing: the move is still Anna's to make
    anna.send(type="ping", id="p")
    anna.until("pong")
    assert _server(coached).tables[made["code"]].move_no == st["move_no"]
    # one coach a game for the process: another table's hint is made by the same one
    other = create(coached, game="mille", players=3, seats=[PERSON, BOT, BOT], sit=0, name="Bea")
    bea = Player(coached, other["code"], other["token"])
    bea_state = _to_a_choice(bea)
    _check_hint(_hint(bea), bea_state, "mille")
    assert _server(coached).coaching.coaches.built == 1


def test_knight_rider_hints_name_a_legal_move(coached: TestClient) -> None:
    made = create(
        coached,
        game="knightrider",
        players=2,
        options={"quick_build": True},
        seats=[PERSON, BOT],
        sit=0,
        name="Anna",
    )
    anna = Player(coached, made["code"], made["token"])
    st = _to_a_choice(anna, kinds=("move",), least=2)
    _check_hint(_hint(anna), st, "kr")


def _swap_and_ask(client: TestClient, p: Player, code: str, seat: int, other: Any, ref: str) -> dict[str, Any]:
    """The hint for ``p`` with the table's state replaced by ``other`` (the same view for
    ``seat``, other hidden cards); the real state is put back after."""
    server = _server(client)
    table = server.tables[code]
    real = table.match.state
    assert table.game.view_for(other, seat) == table.game.view_for(real, seat)
    table.match.state = other
    try:
        server.coaching.forget()  # search again: no answer made for the real state is reused
        out = _hint(p, ref)
    finally:
        table.match.state = real
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_other_hidden_cards_change_no_hint_mille(sqlite_url: str, seed: int) -> None:
    with _app(sqlite_url) as client:
        try:
            made = create(
                client, game="mille", edition="wm2006", players=3, seats=[PERSON, BOT, BOT], sit=0, name="Anna"
            )
            anna = Player(client, made["code"], made["token"])
            rng = random.Random(seed)
            for _ in range(seed):  # a few different decisions
                _to_a_choice(anna)
                st = anna.state
                anna.send(type="act", move_no=st["move_no"], code=st["legal"][-1]["code"])
                anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
            _to_a_choice(anna)
            table = _server(client).tables[made["code"]]
            real = table.match.state
            _server(client).coaching.forget()
            first = _hint(anna, "real")
            for k in range(3):
                other = _mille_other_deal(real, 0, rng)
                assert other.hands[1:] != real.hands[1:] or other.deck != real.deck  # hidden cards differ
                again = _swap_and_ask(client, anna, made["code"], 0, other, f"other{k}")
                assert again["hint"] == first["hint"] and again["code"] == first["code"]
        finally:
            close_all()


@pytest.mark.parametrize("seed", [1, 2])
def test_other_hidden_cards_change_no_hint_knight_rider(sqlite_url: str, seed: int) -> None:
    with _app(sqlite_url) as client:
        try:
            made = create(
                client,
                game="knightrider",
                players=3,
                options={"quick_build": True, "shuffle_cards": True},
                seats=[PERSON, BOT, BOT],
                sit=0,
                name="Anna",
            )
            anna = Player(client, made["code"], made["token"])
            _to_a_choice(anna, kinds=("move",), least=2)
            table = _server(client).tables[made["code"]]
            real = table.match.state
            first = _hint(anna, "real")
            rng = random.Random(seed)
            for k in range(3):
                other = _kr_other_deal(real, 0, rng)
                again = _swap_and_ask(client, anna, made["code"], 0, other, f"other{k}")
                assert again["hint"] == first["hint"] and again["code"] == first["code"]
        finally:
            close_all()


def test_a_table_of_people_has_no_coach_unless_its_creator_allows_it(coached: TestClient) -> None:
    made = create(coached, game="mille", players=2, seats=[PERSON, PERSON], sit=0, name="Anna")
    assert made["table"]["coach"] is False
    bob_seat = coached.post(f"/api/tables/{made['code']}/join", json={"seat": 1, "name": "Bob"}).json()
    anna = Player(coached, made["code"], made["token"])
    bob = Player(coached, made["code"], bob_seat["token"])
    mover = anna if anna.state["turn"] == 0 else bob
    mover.my_turn()
    refused = _hint(mover, "no")
    assert refused["type"] == "error" and refused["code"] == "coach-off", refused
    # allowed by the creator: the same table of people gets hints, and says so to everyone
    made = create(coached, game="mille", players=2, seats=[PERSON, PERSON], sit=0, name="Anna", coach=True)
    assert made["table"]["coach"] is True
    bob_seat = coached.post(f"/api/tables/{made['code']}/join", json={"seat": 1, "name": "Bob"}).json()
    assert bob_seat["table"]["coach"] is True
    anna = Player(coached, made["code"], made["token"])
    bob = Player(coached, made["code"], bob_seat["token"])
    mover = anna if anna.state["turn"] == 0 else bob
    _check_hint(_hint(mover, "yes"), mover.my_turn(), "mille")
    # a person alone may turn the coach off; a bad value is named
    off = create(coached, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna", coach=False)
    assert off["table"]["coach"] is False
    bad = coached.post("/api/tables", json={"game": "mille", "coach": "yes"})
    assert bad.status_code == 400 and "coach" in bad.json()["error"]["message"]


def test_spectators_the_other_seat_and_old_moves_are_refused(coached: TestClient) -> None:
    made = create(coached, game="mille", players=2, seats=[PERSON, PERSON], sit=0, name="Anna", coach=True)
    bob_seat = coached.post(f"/api/tables/{made['code']}/join", json={"seat": 1, "name": "Bob"}).json()
    anna = Player(coached, made["code"], made["token"])
    bob = Player(coached, made["code"], bob_seat["token"])
    watcher = Player(coached, made["code"])
    watcher.send(type="hint", move_no=watcher.state["move_no"], id="w")
    assert _answer(watcher, "w")["code"] == "spectator"
    mover, waiter = (anna, bob) if anna.state["turn"] == 0 else (bob, anna)
    mover.my_turn()
    assert _hint(waiter, "not-mine")["code"] == "not-your-turn"
    st = mover.state
    mover.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
    mover.until("state", lambda m: m["move_no"] > st["move_no"])
    mover.send(type="hint", move_no=st["move_no"], id="old")
    answer = _answer(mover, "old")
    assert answer["code"] in ("stale", "not-your-turn"), answer  # the move was played already
    waiter.until("state", lambda m: m["move_no"] > st["move_no"])
    waiter.send(type="hint", move_no=st["move_no"], id="old")
    assert _answer(waiter, "old")["code"] == "stale"
    waiter.send(type="hint", move_no=st["move_no"] + 5, id="future")
    assert _answer(waiter, "future")["code"] == "future-move"
    # nobody but the one who asked heard of any of it
    assert not [t for p in (anna, bob, watcher) for t in p.texts if '"type":"hint"' in t]


def test_a_seat_asking_too_often_is_refused(sqlite_url: str) -> None:
    with _app(sqlite_url, hint_rate=1 / 60, hint_burst=2) as client:  # two, then one an hour
        try:
            made = create(client, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna")
            anna = Player(client, made["code"], made["token"])
            _to_a_choice(anna)
            assert _hint(anna, "1")["type"] == "hint"
            assert _hint(anna, "2")["type"] == "hint"
            refused = _hint(anna, "3")
            assert refused["type"] == "error" and refused["code"] == "rate-limited"
        finally:
            close_all()


def test_a_hint_that_comes_after_the_move_is_dropped(coached: TestClient) -> None:
    """The hint is searched off the event loop: the player moves meanwhile, and the answer,
    now about a decision that is gone, is not sent."""
    server = _server(coached)
    started, go = threading.Event(), threading.Event()
    real = server.coaching.coaches.hint

    def slow(*args: Any) -> dict[str, Any]:
        started.set()
        assert go.wait(30)
        return real(*args)

    server.coaching.coaches.hint = slow  # type: ignore[method-assign]
    made = create(coached, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna")
    anna = Player(coached, made["code"], made["token"])
    st = _to_a_choice(anna, least=2)
    anna.send(type="hint", move_no=st["move_no"], id="late")
    assert started.wait(30)
    # the connection reads on while the coach thinks: the move is accepted at once
    anna.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
    anna.until("state", lambda m: m["move_no"] > st["move_no"])
    go.set()
    deadline = time.monotonic() + 30
    while server.coaching.tasks:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    anna.send(type="ping", id="after")
    anna.until("pong")
    assert not [t for t in anna.texts if '"type":"hint"' in t]


def test_the_setting_is_stored_with_the_table_and_kept_by_play_again(sqlite_url: str) -> None:
    with _app(sqlite_url) as client:
        made = create(client, game="mille", players=2, seats=[PERSON, PERSON], sit=0, name="Anna", coach=True)
        plain = create(client, game="mille", players=2, seats=[PERSON, PERSON], sit=0, name="Anna")
        mine = client.post("/api/my-games", json={"tokens": [made["token"], plain["token"]]}).json()["games"]
        assert {g["code"]: g["coach"] for g in mine} == {made["code"]: True, plain["code"]: False}
    with _app(sqlite_url) as client:  # the server again: the tables come back from the database
        assert client.get(f"/api/tables/{made['code']}").json()["table"]["coach"] is True
        assert client.get(f"/api/tables/{plain['code']}").json()["table"]["coach"] is False
    store = Store(sqlite_url)
    stored = store.load(made["code"])
    store.close()
    assert stored is not None and stored.settings["coach"] is True
    # the game's own settings do not carry it (they make the deal)
    assert split_coach(stored.settings, stored.seats) == ({"edition": "wm2006", "players": 2}, True)
    # a table stored before the option: on for one person with bots, off for people
    alone = [Seat(0, "person", None, "A", None), Seat(1, "bot", "easy", None, None)]
    people = [Seat(0, "person", None, "A", None), Seat(1, "person", None, "B", None)]
    assert split_coach({"edition": "wm2006"}, alone) == ({"edition": "wm2006"}, True)
    assert split_coach({"edition": "wm2006"}, people) == ({"edition": "wm2006"}, False)


def test_play_again_keeps_the_coach_setting(coached: TestClient) -> None:
    made = create(
        coached, game="mille", edition="meilen", players=2, seats=[PERSON, BOT], sit=0, name="Anna", coach=False
    )
    anna = Player(coached, made["code"], made["token"])
    anna.play_to_end()
    anna.send(type="again")
    new = anna.until("again")["code"]
    assert coached.get(f"/api/tables/{new}").json()["table"]["coach"] is False


def test_the_coach_is_given_the_seats_earlier_views_of_the_hand(coached: TestClient) -> None:
    """Besides the view, the coach gets the seat's views at its earlier decisions of the hand
    (what that player saw before: expert's hand tracker follows the opponent's hand through
    them), read from the table's record: those, in order, and no other seat's."""
    from rallye.games import game_for

    server = _server(coached)
    asked: list[tuple[Any, tuple[Any, ...]]] = []
    real = server.coaching.coaches.hint

    def spy(game: Any, view: Any, legal: Any, history: Any = ()) -> dict[str, Any]:
        asked.append((view, tuple(history)))
        return real(game, view, legal, history)

    server.coaching.coaches.hint = spy  # type: ignore[method-assign]
    made = create(coached, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna")
    anna = Player(coached, made["code"], made["token"])
    for _ in range(3):  # a few decisions of Anna's first
        st = anna.my_turn()
        anna.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
        anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    st = _to_a_choice(anna, least=2)
    _check_hint(_hint(anna), st, "mille")
    ((view, history),) = asked
    game = game_for("mille")
    rep = game.replay(server.tables[made["code"]].match.lines)
    state, want = rep.initial, []
    for seat, action in rep.moves:
        if seat == 0 and state.hand_no == view.hand_no:
            want.append(game.view_for(state, 0))
        state = game.apply(state, action, seat)
    assert game.view_for(state, 0) == view
    assert len(history) >= 3 and history == tuple(want)


def test_the_tables_history_is_kept_from_one_hint_to_the_next(coached: TestClient) -> None:
    """Hint after hint along a game, the coach gets the views the replay of the table's
    record gives, and the table reads its record from the start once, at the first hint:
    the later ones read only the moves since (``DecisionViews``)."""
    from rallye.analysis import decision_views
    from rallye.games import game_for

    server = _server(coached)
    asked: list[tuple[Any, ...]] = []
    real = server.coaching.coaches.hint

    def spy(game: Any, view: Any, legal: Any, history: Any = ()) -> dict[str, Any]:
        asked.append(tuple(history))
        return real(game, view, legal, history)

    server.coaching.coaches.hint = spy  # type: ignore[method-assign]
    made = create(coached, game="mille", players=2, seats=[PERSON, BOT], sit=0, name="Anna")
    anna = Player(coached, made["code"], made["token"])
    table = server.tables[made["code"]]
    for n in range(4):
        st = _to_a_choice(anna, least=2)
        _check_hint(_hint(anna, f"h{n}"), st, "mille")
        assert asked[-1] == decision_views(game_for("mille"), table.match.lines, 0)
        anna.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
        anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    assert len(asked) == 4 and len(asked[-1]) >= 3
    assert table._coach_views is not None and table._coach_views.rebuilt == 1
