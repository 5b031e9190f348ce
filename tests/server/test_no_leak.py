"""Server authority and no leaks (issue 52, item 4): everything the server sends seat s is a
function of s's view. Whole games are played through the table authority for every edition
and player count and for Knight Rider; after each move, the hidden part of the state (the
other hands, the draw pile's order, the seed, the random state) is replaced by another
deal consistent with s's view, and the message for s must not change."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rallye import knightrider as kr
from rallye.mille.edition import editions
from rallye.mille.state import MilleState
from rallye.server.app import encode
from rallye.server.store import Store
from rallye.server.table import Table


def _mille_other_deal(state: MilleState, seat: int, rng: random.Random) -> MilleState:
    """The same public position and the same hand for ``seat``; all else dealt anew."""
    pile = list(state.deck[state.draw_pos :])
    others = [s for s in range(state.n_players) if s != seat]
    pool = pile + [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(sorted(pool[: len(hands[s])])), pool[len(hands[s]) :]
    dealt = list(state.deck[: state.draw_pos])
    rng.shuffle(dealt)
    return state._replace(hands=tuple(hands), deck=tuple(dealt + pool), seed=rng.randrange(1, 2**31))


def _kr_other_deal(state: kr.State, seat: int, rng: random.Random) -> kr.State:
    return kr.sample_state(kr.view_for(state, seat), rng)


def _check_every_seat(table: Table, rng: random.Random) -> None:
    real = table.match.state
    seats = [None, *range(len(table.seats))]
    # a broadcast builds every seat's view at once: each is the seat's own view, nothing else
    js = table.json
    one_by_one = {
        s: js.spectator_json(real) if s is None else js.view_json(table.game.view_for(real, s)) for s in seats
    }
    assert js.views_json(real, seats) == one_by_one
    assert table.states_for(seats) == {s: table.state_for(s) for s in seats}
    for msg in table.states_for(seats).values():
        assert json.loads(encode(msg)) == msg  # what is sent: JSON the standard library reads back the same
    for seat in seats:
        msg = table.state_for(seat)
        for _ in range(2):
            if table.game.key == "mille":
                other = _mille_other_deal(real, 0 if seat is None else seat, rng)
            else:
                other = _kr_other_deal(real, 0 if seat is None else seat, rng)
            table.match.state = other
            try:
                again = table.state_for(seat)
            finally:
                table.match.state = real
            assert again == msg, f"seat {seat}: the message depends on hidden information"
        text = repr(msg)
        assert f"'seed': {table.match.lines[0]['seed']}," not in text


def _play(table: Table, rng: random.Random, check_every: int, limit: int) -> int:
    moves = 0
    while not table.over and moves < limit:
        seat = table.current()
        assert seat is not None
        legal = table.game.legal_actions(table.match.state)
        table.submit(seat, table.move_no, rng.choice(legal).__str__())
        moves += 1
        if moves % check_every == 0:
            _check_every_seat(table, rng)
    return moves


CASES = [(ed.key, n) for ed in editions() for n in ed.players]


@pytest.mark.parametrize(("edition", "players"), CASES)
def test_mille_messages_depend_on_the_seats_view_only(edition: str, players: int, sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.upgrade()
    rng = random.Random(f"{edition}-{players}")
    request: dict[str, Any] = {
        "game": "mille",
        "edition": edition,
        "players": players,
        "seats": [{"kind": "bot", "level": "easy"}] * players,
    }
    table, _, _ = Table.create(store, request, owner="test")
    moves = _play(table, rng, check_every=7, limit=400)
    assert moves > 20
    _check_every_seat(table, rng)
    store.close()


@pytest.mark.parametrize("players", [2, 3, 5])
def test_knight_rider_messages_depend_on_the_seats_view_only(players: int, sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.upgrade()
    rng = random.Random(players)
    request = {
        "game": "knightrider",
        "players": players,
        "options": {"turn_limit": 12},
        "seats": [{"kind": "bot", "level": "easy"}] * players,
    }
    table, _, _ = Table.create(store, request, owner="test")
    moves = _play(table, rng, check_every=5, limit=300)
    assert moves > 20
    store.close()
