"""Phase 2 movement: pips, turns, obstacles, the max-pips Resolution, winning."""

from __future__ import annotations

import pytest
from kr_helpers import E, S, W, at, chase, move_to, moves

from rallye.core.errors import IllegalAction
from rallye.knightrider import End, Move, apply, legal_actions

ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20; dead ends at both ends
CURVE = {(2, 0): "EW", (3, 0): "SW", (3, 1): "NS", (3, 2): "NS"}


def dests(state):  # type: ignore[no-untyped-def]
    return {(m.x, m.y, m.heading, m.cost) for m in moves(state)}


def test_movement_one_pip_per_field_straight_ahead() -> None:
    s = chase(ROAD, [((7, 1), E), ((20, 1), W)], roll=3)
    assert (10, 1, E, 3) in dests(s)
    s2 = move_to(s, 10, 1, E)
    assert at(s2, 0) == ((10, 1), E) and s2.used == 3 and s2.move_done


def test_movement_cost_curve_counts_as_turn() -> None:
    # 7,1 -> 8,1 -> 9,1 -> 10,1 (curve middle) -> turn south (+1) -> 10,2
    s4 = chase(CURVE, [((7, 1), E), None], roll=4)
    assert not any(m.y >= 2 for m in moves(s4))
    s5 = chase(CURVE, [((7, 1), E), None], roll=5)
    assert (10, 2, S, 5) in dests(s5)


def test_movement_turn_90_costs_one_extra_pip() -> None:
    layout = {(2, 0): "EW", (3, 0): "ESW", (3, 1): "NS", (4, 0): "EW"}
    s = chase(layout, [((9, 1), E), None], roll=3)  # W arm of the T
    d = dests(s)
    assert (10, 2, S, 3) in d  # 1 into the middle, 1 + 1 turning south
    assert (12, 1, E, 3) in d  # straight on costs no turn


def test_u_turn_costs_two() -> None:
    s = chase(ROAD, [((10, 1), E), None], roll=3)
    assert (9, 1, W, 3) in dests(s)  # 180° on 10,1 (2) + one field (1)
    s2 = chase(ROAD, [((10, 1), E), None], roll=2)
    assert not any(m.heading == W and m.x != 10 for m in moves(s2))  # no field west with 2 pips
    assert (10, 1, W, 2) in dests(s2)  # but the 180° alone (rules 2: turning is spending)


def test_no_reversing_the_car_must_turn() -> None:
    s = chase(ROAD, [((10, 1), E), None], roll=1)
    assert dests(s) == {(11, 1, E, 1)}


def test_move_must_use_all_pips() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=4)
    assert all(m.cost == 4 for m in moves(s))
    assert End() not in legal_actions(s)
    with pytest.raises(IllegalAction, match=r"must move first.*\[rule: move-all-pips\]"):
        apply(s, End())
    with pytest.raises(IllegalAction, match=r"no legal way with 2 pips.*\[rule: movement\]"):
        apply(s, Move(9, 1, E, 2))


def test_max_pips_resolution_when_no_way_uses_all() -> None:
    # a lone dead-end tile: 7,1 (middle) and 8,1 (east arm), east of it nothing
    s = chase({(2, 0): "E"}, [((7, 1), E), None], roll=2)
    assert dests(s) == {(8, 1, E, 1)}  # the only way; a U-turn back would need 3
    s2 = move_to(s, 8, 1)
    assert s2.move_done and s2.used == 1 and End() in legal_actions(s2)


def test_max_pips_resolution_no_way_at_all_ends_without_moving() -> None:
    s = chase({(2, 0): "E"}, [((8, 1), E), None], roll=1)  # facing the dead end: turning back costs 2
    assert moves(s) == []
    assert End() in legal_actions(s)


def test_two_cars_are_an_obstacle() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E), ((9, 1), W)], roll=4)
    assert all(m.x < 9 for m in moves(s) if not m.jump)
    assert all(m.jump for m in moves(s) if m.x > 9)  # only Blockier-Sprung passes


def test_at_most_two_cars_on_a_field() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E), ((9, 1), W)], roll=2)
    assert (9, 1) not in {(m.x, m.y) for m in moves(s)}
    assert len([c for c in s.cars if c.cell == s.cars[1].cell]) == 2


def test_one_car_can_be_passed_with_a_ram_stop() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4, dice=(6, 1))
    assert (9, 1, E, 2) in dests(s)  # the ram stop: 2 pips used, 2 left
    assert not any(m.x > 9 for m in moves(s))  # passing means stopping for the ram first
    s2 = move_to(s, 9, 1, E, cost=2)
    assert [e.kind for e in s2.events] == ["ram", "ram_fail"]
    assert not s2.move_done and s2.pips - s2.used == 2
    assert (11, 1, E, 2) in dests(s2)


def test_ending_beside_a_car_makes_no_ram() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=2)
    s2 = move_to(s, 9, 1, E, cost=2)
    assert "ram" not in [e.kind for e in s2.events] and s2.move_done


def test_cars_waiting_at_start_enter_first_field_for_one_pip() -> None:
    s = chase(ROAD, [None, None], roll=1, start=(2, 0))  # waits at the W opening of (2,0)
    assert dests(s) == {(6, 1, E, 1)}


def test_win_on_villain_field_with_last_pip() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=3, villain=(3, 0))  # villain at 10,1
    s2 = move_to(s, 10, 1, E)
    assert s2.phase == "over" and s2.winner == 0
    assert legal_actions(s2) == ()


def test_passing_the_villain_does_not_win_but_may_come_back() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=4, villain=(3, 0))
    s2 = move_to(s, 11, 1, E)
    assert s2.winner is None and s2.phase == "turn"
    s3 = chase(ROAD, [((9, 1), E), None], roll=5, villain=(3, 0))
    assert (10, 1, W, 5) in dests(s3)  # pass, U-turn on 11,1, come back
    assert move_to(s3, 10, 1, W).winner == 0
