"""The rule model's Resolutions (``docs/rules/knight-rider.md``) as scenarios, one test
or more per clause, each named after it; the engine docstring lists them (rules version 2,
issue #54)."""

from __future__ import annotations

import pytest
from kr_helpers import E, N, S, W, at, chase, kinds, move_to, moves, with_car

from rallye.core.errors import IllegalAction
from rallye.knightrider import End, Enter, Move, Options, Recover, apply, encode_action, legal_actions
from rallye.knightrider import geometry as g
from rallye.knightrider.engine import RULES
from rallye.knightrider.state import evolve

ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20; dead ends at both ends
CURVE = {(2, 0): "EW", (3, 0): "SW", (3, 1): "NS", (3, 2): "NS"}  # 9,1 -> 10,1 (curve) -> 10,2
T = {(2, 0): "EW", (3, 0): "ESW", (3, 1): "NS", (4, 0): "EW"}  # T-junction middle 10,1


def dests(state):  # type: ignore[no-untyped-def]
    return {(m.x, m.y, m.heading, m.cost) for m in moves(state)}


def test_rules_version_is_3() -> None:
    assert RULES == 3


# ------------------------------------------------------- Resolution (turning is spending)


def test_turning_is_spending_two_pips_facing_a_dead_end_turn_the_car_round() -> None:
    """ "a car facing a dead end with 2 pips turns round and stops" (the rulebook's 180° on
    a field, 2 pips); before rules 2 both pips were lost."""
    s = chase({(2, 0): "E"}, [((8, 1), E), None], roll=2)  # 8,1: the dead end, facing off the road
    assert [str(m) for m in moves(s)] == ["move 8,1W =2"]
    assert End() not in legal_actions(s)  # the pips must be spent
    s2 = move_to(s, 8, 1, W, cost=2)
    assert at(s2, 0) == ((8, 1), W) and s2.used == 2 and s2.move_done


def test_turning_is_spending_one_pip_left_on_a_curve_turns_into_it() -> None:
    """ "a car with 1 pip left on a curve field turns into the curve and stops": with 2
    pips one field before the curve, drive onto it (1) and turn (1); the 1-pip move that
    loses a pip is not offered."""
    s = chase(CURVE, [((9, 1), E), None], roll=2)
    d = dests(s)
    assert (10, 1, S, 2) in d
    assert (10, 1, E, 1) not in d and all(c == 2 for *_, c in d)
    s2 = move_to(s, 10, 1, S, cost=2)
    assert at(s2, 0) == ((10, 1), S) and s2.pips - s2.used == 0
    assert str(next(m for m in moves(s) if (m.x, m.y, m.heading) == (10, 1, S))) == "move 10,1E 10,1S =2"


def test_turning_is_spending_a_turn_paid_then_the_field_left_costs_the_same() -> None:
    """A turn is paid on its field whether or not the car then leaves it: turning on the
    curve and driving on costs 1 + 1 + 1 (as before rules 2)."""
    s = chase(CURVE, [((9, 1), E), None], roll=3)
    assert (10, 2, S, 3) in dests(s)


def test_turning_is_spending_the_heading_is_part_of_where_a_move_ends() -> None:
    """The same field with two headings is two moves (two actions, two codes)."""
    s = chase(T, [((10, 1), N), None], roll=1)  # T middle, facing the built-up north side
    ms = moves(s)
    assert {(m.x, m.y, m.heading, m.cost) for m in ms} == {(10, 1, E, 1), (10, 1, W, 1)}
    assert len({encode_action(m) for m in ms}) == 2
    for m in ms:
        assert at(apply(s, m), 0) == ((10, 1), m.heading)


def test_turning_is_spending_a_turn_only_toward_a_road() -> None:
    """A turn faces a road leaving the field ("in die neue Fahrtrichtung"): on a straight
    road 1 pip buys no turn (its 90° sides are built-up), only the step ahead."""
    s = chase(ROAD, [((10, 1), E), None], roll=1)
    assert dests(s) == {(11, 1, E, 1)}
    s2 = chase(ROAD, [((10, 1), E), None], roll=2)
    assert dests(s2) == {(12, 1, E, 2), (10, 1, W, 2)}  # two fields, or 180° where it stands


def test_turning_is_spending_one_turn_per_field_on_a_way() -> None:
    """A way turns at most once on a field (it leaves in the direction it turned to):
    4 pips cannot be burnt by turning round twice on one field."""
    s = chase({(2, 0): "E"}, [((8, 1), E), None], roll=4)  # only 8,1 and 7,1 (a dead-end tile)
    assert dests(s) == {(7, 1, W, 3)}  # turn round (2), one field (1); 8,1 W =4 would need a second turn


def test_turning_is_spending_a_turn_alone_on_the_villains_field_wins() -> None:
    """A move that is only a turn ends the move on the car's field: on the villain's, it wins."""
    s = chase(T, [((10, 1), N), None], roll=1, villain=(3, 0))
    s2 = move_to(s, 10, 1, E, cost=1)
    assert s2.phase == "over" and s2.winner == 0


def test_turning_is_spending_overshooting_the_villain_by_a_turn_wins() -> None:
    """Reaching the villain's field with a pip left, the car may spend it turning there."""
    s = chase(T, [((8, 1), E), None], roll=3, villain=(3, 0))  # 9,1 (1), 10,1 (2), turn S (3)
    s2 = move_to(s, 10, 1, S, cost=3)
    assert s2.winner == 0


def test_turning_is_spending_a_car_waiting_to_enter_cannot_turn() -> None:
    s = chase(ROAD, [None, None], roll=2, start=(2, 0))  # waits at the W opening of (2,0)
    assert dests(s) == {(7, 1, E, 2)}


# ---------------------------------------------------------- Resolution (no dodging a ram)


def test_no_dodging_a_ram_the_issue_example() -> None:
    """A on 8,1 and B on 9,1, both facing east, A rolls 5: passing B (the ram stop, then
    on) uses all 5, so the 4-pip U-turn that avoids the ram is not offered."""
    s = chase(ROAD, [((8, 1), E), ((9, 1), E)], roll=5)
    d = dests(s)
    assert (9, 1, E, 1) in d  # the ram stop
    assert (6, 1, W, 4) not in d  # the U-turn westwards, 4 pips
    assert all(c == 5 for *_, c in d - {(9, 1, E, 1)})  # (7,1 E =5: two turns round, no ram)


def test_no_dodging_a_ram_only_the_ram_stop_when_only_the_ram_way_uses_every_pip() -> None:
    """A on 7,1 behind B on 8,1, 4 pips: the ram way uses 4, every way without it at most
    3 (back to the end of the road): only the ram stop is offered."""
    s = chase(ROAD, [((7, 1), E), ((8, 1), E)], roll=4, dice=(6, 1))
    assert dests(s) == {(8, 1, E, 1)}
    assert End() not in legal_actions(s)
    with pytest.raises(IllegalAction, match=r"\[rule: movement\]"):
        apply(s, Move(6, 1, W, 3))
    s2 = move_to(s, 8, 1, E, cost=1)
    assert kinds(s2) == ["ram", "ram_fail"] and not s2.move_done
    assert dests(s2) == {(11, 1, E, 3), (9, 1, W, 3), (7, 1, W, 3)}  # the ways on: 3 pips each


def test_no_dodging_a_ram_a_ram_stop_is_a_way_like_any_other() -> None:
    """A ram stop whose ways on use fewer pips than another way is not offered: B stands
    on the road's dead end, A with 2 pips turns round instead (its ram way would use 1)."""
    s = chase(ROAD, [((19, 1), E), ((20, 1), E)], roll=2)
    assert dests(s) == {(19, 1, W, 2)}


def test_no_dodging_a_ram_ending_beside_a_car_is_no_ram() -> None:
    """Reaching the car's field with the last pip is no ram ("only then": passing)."""
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=2)
    s2 = move_to(s, 9, 1, E, cost=2)
    assert "ram" not in kinds(s2) and s2.move_done


def turn_alone_beside_a_car():  # type: ignore[no-untyped-def]
    """A and B on the dead end 8,1 (A facing off the road), two cars on 7,1 behind: A's
    3 pips buy only the 180° where it stands (2), beside B."""
    cars = [((8, 1), E), ((8, 1), W), ((7, 1), E), ((7, 1), W)]
    s = chase({(2, 0): "E"}, cars, roll=3)
    return evolve(s, kitt_hands=((1, 1, 1, 0),) + s.kitt_hands[1:])


def test_no_dodging_a_ram_a_turn_alone_beside_a_car_passes_nobody() -> None:
    s = turn_alone_beside_a_car()
    assert dests(s) == {(8, 1, W, 2)}
    s2 = move_to(s, 8, 1, W, cost=2)
    assert "ram" not in kinds(s2) and s2.move_done and s2.pips - s2.used == 1


# ------------------------------------------------------- Resolution (Blockier-Sprung)


def test_blockier_sprung_only_the_jumped_field_is_free_a_turn_on_it_costs_its_pip() -> None:
    """Two cars on the curve field 10,1: jumping it into the curve costs the turn there
    (1) and the field after (1); the jumped field itself is free."""
    three = [((9, 1), E), ((10, 1), E), ((10, 1), W)]
    s1 = chase(CURVE, three, roll=1)
    assert not any(m.jump for m in moves(s1))  # rules 1 offered 10,2 S =1 jump
    s2 = chase(CURVE, three, roll=2)
    jumps = [m for m in moves(s2) if m.jump]
    assert [(m.x, m.y, m.heading, m.cost) for m in jumps] == [(10, 2, S, 2)]
    assert str(jumps[0]) == "move 10,1E* 10,2S =2 jump"


def test_blockier_sprung_straight_over_the_jumped_field_still_free() -> None:
    s = chase(ROAD, [((8, 1), E), ((9, 1), E), ((9, 1), W)], roll=1)
    assert [(m.x, m.cost) for m in moves(s) if m.jump] == [(10, 1)]


def test_blockier_sprung_a_roadblock_on_a_t_junction_turn_costs_its_pip() -> None:
    s = chase(T, [((9, 1), E), None], roll=1, detours=(((3, 0), "ROADBLOCK", 0),))
    assert {(m.x, m.y, m.heading, m.cost) for m in moves(s) if m.jump} == {(11, 1, E, 1)}
    s = chase(T, [((9, 1), E), None], roll=2, detours=(((3, 0), "ROADBLOCK", 0),))
    assert (10, 2, S, 2) in {(m.x, m.y, m.heading, m.cost) for m in moves(s) if m.jump}


# --------------------------------------------------------- Resolution (skidding)


def test_skidding_stops_at_a_junction_with_no_straight_way_on() -> None:
    """A rams B on the T's stem (10,2, facing south); B skids 2 back (ram 3): north into
    the T's middle 10,1, where no road goes straight on (north): it stops there, after 1."""
    s = chase(T, [((9, 1), E), ((10, 2), S)], roll=4, dice=(3,))
    s2 = move_to(s, 10, 2, S, cost=3)  # 10,1 (1), turn south and on to 10,2 (2): the ram stop
    assert at(s2, 1) == ((10, 1), S)
    skid = next(e for e in s2.events if e.kind == "skid")
    assert skid.value == 1


def test_skidding_goes_straight_through_a_junction_with_a_straight_way() -> None:
    """For contrast: B on the T's east arm skids west straight through the middle."""
    s = chase(T, [((13, 1), W), ((11, 1), E)], roll=3, dice=(3,))
    s2 = move_to(s, 11, 1, W, cost=2)
    assert at(s2, 1) == ((9, 1), E)


# ------------------------------------------------------------ Resolution (tour)


def _tour(cars, roll):  # type: ignore[no-untyped-def]
    s = chase(ROAD, cars, roll=roll, options=Options(tour=1), dice=(4,))
    return evolve(s, targets=(g.sq_index(4, 0),))  # the tile with fields 12,1 .. 14,1


def test_tour_driving_through_a_target_does_not_reach_it() -> None:
    s = move_to(_tour([((10, 1), E), None], 6), 16, 1, E)
    assert "reached" not in kinds(s) and s.cars[0].reached == ()


def test_tour_a_target_is_reached_by_the_end_of_a_move_on_it() -> None:
    s = move_to(_tour([((10, 1), E), None], 3), 13, 1, E)
    assert "reached" in kinds(s) and s.cars[0].reached == (g.sq_index(4, 0),)


def test_tour_a_target_is_reached_by_a_ram_stop_on_it() -> None:
    s = move_to(_tour([((10, 1), E), ((13, 1), E)], 6), 13, 1, E, cost=3)  # B rolls 4: skids
    assert kinds(s)[0] == "reached" and "ram" in kinds(s)
    assert s.cars[0].reached == (g.sq_index(4, 0),) and not s.move_done


# ------------------------------------------------------------ Resolution (on its roof)


def test_on_its_roof_the_car_turns_no_escape_card_that_turn() -> None:
    s = chase(ROAD, [((7, 1), E), None], villain=(5, 0))
    s = with_car(s, 0, roof=True)
    assert legal_actions(s) == (Recover(),)
    s2 = apply(s, Recover())
    assert s2.escape_pos == s.escape_pos and s2.villain == s.villain
    assert "escape" not in kinds(s2) and "villain_move" not in kinds(s2)
    assert not s2.cars[0].roof and s2.current == 1


# ------------------------------------------------------------ Resolution (start openings)


def test_start_cars_wait_at_any_opening_of_the_start_tile_joined_or_not() -> None:
    """The start tile (3,0) is a T (E S W); nothing lies south of it, yet its south opening
    is offered like the two joined ones, and entering there costs one pip."""
    s = chase(T, [None, None], roll=1, start=(3, 0))
    s = evolve(s, phase="enter", cars=(), current=0)
    assert legal_actions(s) == (Enter(E), Enter(S), Enter(W))
    s = apply(s, Enter(S))
    s = apply(s, Enter(E))
    s = evolve(s, roll=1, pips=1, used=0, current=0)
    assert dests(s) == {(10, 2, N, 1)}  # the south arm, facing into the tile
