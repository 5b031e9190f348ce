"""The coach's history in a game in play (issue #61): :class:`DecisionViews` follows each
asked seat's views along the live record, reading only the moves since its last call, and
gives exactly what ``decision_views`` (the replay of the whole record) gives, so the hint is
the same; only the seat's own views, and the record read again from its start whenever it
cannot be trusted (another list: a reload, a resumed game; a line taken back or replaced)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rallye.agents.base import make_agent
from rallye.analysis import DecisionViews, decision_views
from rallye.analysis.coach import Coach
from rallye.core.record import Line, read_jsonl
from rallye.games import game_for

from .test_analysis import KR

MILLE = game_for("mille")


class Counting:
    """The Mille Bornes face, counting the views it gives and the records it replays."""

    key = "mille"

    def __init__(self) -> None:
        self.views = 0
        self.replays = 0

    def view_for(self, state: Any, seat: int) -> Any:
        self.views += 1
        return MILLE.view_for(state, seat)

    def replay(self, lines: Any, source: str = "<record>") -> Any:
        self.replays += 1
        return MILLE.replay(lines, source)

    def __getattr__(self, name: str) -> Any:
        return getattr(MILLE, name)


def _play(seed: int, players: int, each: Callable[[list[Line], Any, int], None], moves: int = 10_000) -> list[Line]:
    """A match of ``medium`` bots (to its end, or ``moves`` moves), its record kept live as
    the terminal and the server keep theirs; ``each(lines, state, seat)`` before every move."""
    state = MILLE.new(MILLE.settings({"edition": "wm2006", "players": players}), seed)
    lines = MILLE.record_start(state)
    bots = [make_agent("mille", "medium", seed * 7 + s) for s in range(players)]
    while not MILLE.is_over(state) and moves > 0:
        seat = MILLE.current_player(state)
        assert seat is not None
        each(lines, state, seat)
        state = MILLE.record_move(
            lines, state, seat, bots[seat].choose(MILLE.view_for(state, seat), MILLE.legal_actions(state))
        )
        moves -= 1
    return lines


@pytest.mark.parametrize("players", [2, 3])
def test_the_kept_views_are_the_replays_at_every_move_and_cost_the_new_moves_only(players: int) -> None:
    """Along a whole match (hands ending, new ones dealt), asked for every seat at every
    move: the views of the replay of the record, the seat's own and of the running hand;
    the record read from its start once a seat (its first ask), then only the views of the
    new moves of the seats asked about."""
    game = Counting()
    kept = DecisionViews(game)  # type: ignore[arg-type]
    moved: list[int] = []  # who made each move so far
    asked: set[int] = set()
    read = [0]  # the moves the kept views had read at the last ask
    hands = set()

    def each(lines: list[Line], state: Any, to_act: int) -> None:
        hands.add(state.hand_no)
        for seat in range(players):
            views, replays = game.views, game.replays
            got = kept.of(lines, seat)
            if game.replays == replays:  # followed: a view for each new move of a seat asked about
                assert game.views - views == sum(1 for m in moved[read[0] :] if m in asked)
            else:
                assert seat not in asked  # read from the start: a seat's first ask only
            read[0] = len(moved)
            asked.add(seat)
            if seat == to_act or len(moved) % 7 == 0:
                assert got == decision_views(MILLE, lines, seat)
            assert all(v.seat == seat and v.hand_no == state.hand_no for v in got)
        moved.append(to_act)

    lines = _play(players, players, each)
    assert MILLE.replay(lines).final.winners and len(hands) >= 2  # a whole match
    assert game.replays == kept.rebuilt == players


def test_the_hint_with_the_kept_history_is_the_hint_with_the_replayed_one() -> None:
    """At every decision of one player in a whole 2-player match (the hand tracker's case),
    the coach given the kept history (followed at every move of the match, both seats')
    hints exactly what another coach hints given the replay's."""
    replayed, followed = Coach("mille", "expert/8", 3), Coach("mille", "expert/8", 3)
    kept = DecisionViews(MILLE)
    asked = [0]

    def each(lines: list[Line], state: Any, seat: int) -> None:
        history = kept.of(lines, seat)
        kept.of(lines, 1 - seat)
        view, legal = MILLE.view_for(state, seat), MILLE.legal_actions(state)
        if seat == 0 and len(legal) > 1:
            assert followed.hint(view, legal, history) == replayed.hint(view, legal, decision_views(MILLE, lines, seat))
            asked[0] += 1

    lines = _play(5, 2, each)
    assert MILLE.replay(lines).final.winners and asked[0] > 50
    assert kept.rebuilt == 2


def test_a_record_that_cannot_be_trusted_is_read_again() -> None:
    """Another list (a reload, a resumed game), a line replaced, another game in the same
    list, a move taken back and another played in its place (the server's refused commit):
    the record is read from its start again, and the views are the record's."""
    game = Counting()
    kept = DecisionViews(game)  # type: ignore[arg-type]
    lines = _play(11, 2, lambda lines, state, seat: None, moves=60)
    first = kept.of(lines, 0)
    assert game.replays == 1 and first == decision_views(MILLE, lines, 0)
    assert kept.of(lines, 0) == first and game.replays == 1  # nothing new: nothing read

    reloaded = [dict(line) for line in lines]
    assert kept.of(reloaded, 0) == first and game.replays == 2

    reloaded[-1] = dict(reloaded[-1])  # the same text, another line
    assert kept.of(reloaded, 0) == first and game.replays == 3

    other = _play(12, 2, lambda lines, state, seat: None, moves=60)
    reloaded[:] = other  # the same list, another game in it
    assert kept.of(reloaded, 0) == decision_views(MILLE, other, 0) != first and game.replays == 4

    assert reloaded[-1]["type"] == "action"
    del reloaded[-1]
    state = MILLE.replay(reloaded).final
    seat = MILLE.current_player(state)
    assert seat is not None
    taken_back = other[-1]["action"]
    played = next(a for a in MILLE.legal_actions(state) if str(a) != taken_back)
    MILLE.record_move(reloaded, state, seat, played)
    assert kept.of(reloaded, 0) == decision_views(MILLE, reloaded, 0) and game.replays == 5
    assert kept.of(reloaded[:-1], 0) == decision_views(MILLE, reloaded[:-1], 0) and game.replays == 6


def test_knight_rider_has_no_history_to_keep() -> None:
    game = game_for("knightrider")
    kept = DecisionViews(game)
    assert kept.of([line for _, line in read_jsonl(KR)], 0) == () and kept.rebuilt == 0


def test_the_kept_history_is_the_seats_own_and_the_coach_refuses_another_seats() -> None:
    """Only the asked seat's views come out; a history holding another seat's view is
    refused by the coach, whichever way it was made."""
    lines = _play(13, 2, lambda lines, state, seat: None, moves=30)
    kept = DecisionViews(MILLE)
    mine, theirs = kept.of(lines, 0), kept.of(lines, 1)
    assert mine and theirs and {v.seat for v in mine} == {0} and {v.seat for v in theirs} == {1}
    state = MILLE.replay(lines).final
    seat = MILLE.current_player(state)
    assert seat is not None
    view, legal = MILLE.view_for(state, seat), MILLE.legal_actions(state)
    wrong = theirs if seat == 0 else mine
    with pytest.raises(ValueError, match="its own seat's earlier decisions"):
        Coach("mille", "expert/8").evaluator.evaluate(view, legal, history=wrong)


def test_a_numbered_record_is_followed_as_a_bare_one() -> None:
    """A record of numbered lines (as ``read_jsonl`` reads a file) is followed move by move
    as it grows, giving the bare record's views, read from its start once."""
    game = Counting()
    kept = DecisionViews(game)  # type: ignore[arg-type]
    bare = _play(14, 2, lambda lines, state, seat: None, moves=80)
    numbered: list[tuple[int, Line]] = []
    asked = 0
    for i, line in enumerate(bare, 1):
        numbered.append((i, line))
        if line.get("type") == "action" and i % 7 == 0:
            assert kept.of(numbered, 0) == decision_views(MILLE, bare[:i], 0)
            asked += 1
    assert asked >= 5 and game.replays == 1
