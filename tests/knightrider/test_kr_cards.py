"""K.I.T.T. cards and detour cards."""

from __future__ import annotations

import pytest
from kr_helpers import E, N, S, W, at, chase, kinds, move_to, moves, script, with_car

from rallye.core.errors import IllegalAction
from rallye.knightrider import End, Move, PlayDetour, PlayKitt, apply, legal_actions
from rallye.knightrider import geometry as g
from rallye.knightrider.state import evolve

ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20
T = {(2, 0): "EW", (3, 0): "ESW", (3, 1): "NS", (4, 0): "EW"}  # T at 3,0: W 9,1  mid 10,1  E 11,1  S 10,2


def dests(state):  # type: ignore[no-untyped-def]
    return {(m.x, m.y, m.heading, m.cost) for m in moves(state) if not m.jump}


# ----------------------------------------------------------------------------- Molekül-Mantel


def test_molekuel_mantel_protects_from_ram() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4)
    s = with_car(s, 1, mantle=True)
    assert (11, 1, E, 4) in dests(s)  # passed without a ram stop
    assert "ram" not in kinds(move_to(s, 11, 1, E))


def test_molekuel_mantel_protects_from_villain_ram() -> None:
    layout = dict(ROAD)
    layout[(3, -1)] = "NS"
    s = chase(layout, [((7, 1), E), ((10, -2), N)], roll=1, villain=(3, 0))
    s = with_car(s, 1, mantle=True)
    s = script(evolve(s, move_done=True), 6)
    s2 = apply(s, End())
    assert "ram" not in kinds(s2) and s2.winner is None


def test_molekuel_mantel_lasts_until_owners_next_turn() -> None:
    s = chase(ROAD, [((7, 1), E), ((19, 1), W)], roll=1, dice=(1, 1))
    s = apply(s, PlayKitt("MANTLE"))
    assert s.cars[0].mantle and s.kitt_hands[0][0] == 0 and s.played == ((0, "MANTLE"),)
    s = move_to(s, 8, 1)
    s = apply(s, End())  # P2's turn: P1 still protected
    assert s.current == 1 and s.cars[0].mantle
    s = move_to(s, 18, 1)
    s = apply(s, End())  # P1's turn again: the card is discarded
    assert s.current == 0 and not s.cars[0].mantle and "mantle_end" in kinds(s)


# ----------------------------------------------------------------------------- Turbo-Boost


def test_turbo_boost_one_doubles_roll() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=5)
    s = apply(s, PlayKitt("TURBO1"))
    assert s.pips == 10 and s.kitt_played
    assert all(m.cost == 10 for m in moves(s))
    assert (17, 1, E, 10) in dests(s)


def test_turbo_boost_two_only_on_a_rolled_one_counts_six() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=1)
    assert PlayKitt("TURBO2") in legal_actions(s)
    s2 = apply(s, PlayKitt("TURBO2"))
    assert s2.pips == 6 and (13, 1, E, 6) in dests(s2)
    s3 = chase(ROAD, [((7, 1), E), None], roll=2)
    assert PlayKitt("TURBO2") not in legal_actions(s3)
    with pytest.raises(IllegalAction, match=r"rolled 1.*\[rule: turbo2-needs-1\]"):
        apply(s3, PlayKitt("TURBO2"))


def test_turbo_boost_only_before_moving() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4, dice=(6, 1))
    s = move_to(s, 9, 1, E, cost=2)  # ram stop, move not done
    assert PlayKitt("TURBO1") not in legal_actions(s)
    with pytest.raises(IllegalAction, match=r"turbo-before-move"):
        apply(s, PlayKitt("TURBO1"))


def test_one_kitt_card_per_turn() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=3)
    s = apply(s, PlayKitt("TURBO1"))
    assert PlayKitt("MANTLE") not in legal_actions(s)
    assert not any(m.jump for m in moves(s))
    with pytest.raises(IllegalAction, match=r"\[rule: kitt-one-per-turn\]"):
        apply(s, PlayKitt("MANTLE"))


def test_card_must_be_in_hand() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=3)
    s = evolve(s, kitt_hands=((0, 0, 0, 0), (1, 1, 1, 1)))
    with pytest.raises(IllegalAction, match=r"\[rule: card-in-hand\]"):
        apply(s, PlayKitt("MANTLE"))


# ----------------------------------------------------------------------------- Blockier-Sprung


def test_blockier_sprung_jumps_two_cars() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E), ((9, 1), E)], roll=2)
    jumps = [m for m in moves(s) if m.jump]
    assert [(m.x, m.y, m.cost) for m in jumps] == [(10, 1, 2)]
    assert str(jumps[0]) == "move 8,1E 9,1E* 10,1E =2 jump"
    s2 = apply(s, jumps[0])
    assert at(s2, 0) == ((10, 1), E) and s2.kitt_hands[0][3] == 0 and s2.kitt_played
    assert s2.played[-1] == (0, "JUMP")


def test_blockier_sprung_jumped_field_costs_no_pip() -> None:
    s = chase(ROAD, [((8, 1), E), ((9, 1), E), ((9, 1), W)], roll=1)
    assert [(m.x, m.cost) for m in moves(s) if m.jump] == [(10, 1)]


def test_blockier_sprung_jumps_a_roadblock() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=2, detours=(((3, 0), "ROADBLOCK", 0),))
    assert all(m.x < 10 for m in moves(s) if not m.jump)
    assert (11, 1, 2) in {(m.x, m.y, m.cost) for m in moves(s) if m.jump}


def test_blockier_sprung_cannot_jump_a_real_detour() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=4, detours=(((3, 0), "DEADEND", 270),))
    assert not any(m.x > 10 for m in moves(s))  # 10,1 only reachable from the west


def test_blockier_sprung_needs_the_card() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E), ((9, 1), W)], roll=2)
    jump = next(m for m in moves(s) if m.jump)
    s2 = evolve(s, kitt_hands=((1, 1, 1, 0),) + s.kitt_hands[1:])
    assert not any(m.jump for m in moves(s2))
    with pytest.raises(IllegalAction, match=r"\[rule: blockier-sprung\]"):
        apply(s2, jump)


# ----------------------------------------------------------------------------- detours


def lay(s, kind: str, x: int, y: int, rot: int):  # type: ignore[no-untyped-def]
    return apply(s, PlayDetour(kind, x, y, rot))


def test_detour_straight_keeps_two_opposite_openings() -> None:
    s = chase(T, [((9, 1), E), None], roll=3)
    assert (10, 2, S, 3) in dests(s)
    s2 = lay(s, "STRAIGHT", 3, 0, 90)
    assert (10, 2, S, 3) not in dests(s2) and (12, 1, E, 3) in dests(s2)


def test_detour_dead_end_reachable_from_one_opening_only() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=4)
    s2 = lay(s, "DEADEND", 3, 0, 270)  # open to the west only
    assert not any(m.x > 10 for m in moves(s2))
    s3 = evolve(s2, pips=2, roll=2)
    assert (10, 1, E, 2) in dests(s3)  # the middle is reached from the west ...
    s4 = chase(ROAD, [((12, 1), W), None], roll=2, detours=(((3, 0), "DEADEND", 270),))
    assert (10, 1, W, 2) not in dests(s4)  # ... but not from the east


def test_detour_roadblock_is_an_obstacle() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=3)
    s2 = lay(s, "ROADBLOCK", 3, 0, 0)
    assert not any(m.x >= 10 for m in moves(s2) if not m.jump)


def test_detour_right_curve() -> None:
    s = chase(T, [((12, 1), W), None], roll=3)
    assert (9, 1, W, 3) in dests(s)
    s2 = lay(s, "RIGHT", 3, 0, 0)  # driving north from the south, turning right (east): S-E
    assert not any((m.x, m.y) == (9, 1) for m in moves(s2))
    s3 = evolve(s2, pips=4, roll=4, detour_played=False)
    assert (10, 2, S, 4) in dests(s3)


def test_detour_left_curve() -> None:
    s = chase(T, [((8, 1), E), None], roll=3)
    assert (11, 1, E, 3) in dests(s)
    s2 = lay(s, "LEFT", 3, 0, 0)  # driving north from the south, turning left (west): S-W
    assert not any((m.x, m.y) == (11, 1) for m in moves(s2))
    s3 = evolve(s2, pips=4, roll=4, detour_played=False)
    assert (10, 2, S, 4) in dests(s3)


def test_detour_only_closes_connections() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=3)
    acts = [a for a in legal_actions(s) if isinstance(a, PlayDetour) and (a.x, a.y) == (3, 0)]
    assert PlayDetour("STRAIGHT", 3, 0, 0) not in acts  # north-south on an east-west road
    with pytest.raises(IllegalAction, match=r"\[rule: detour-only-closes\]"):
        lay(s, "STRAIGHT", 3, 0, 0)
    s2 = lay(s, "RIGHT", 3, 0, 90)  # W-S curve on E-W road: keeps only W
    assert s2.links[g.middle(3, 0)] & 0xF == 0b1000


def test_detour_at_most_three_per_tile() -> None:
    s = chase(
        ROAD,
        [((8, 1), E), None],
        roll=3,
        detours=(((3, 0), "STRAIGHT", 90), ((3, 0), "STRAIGHT", 90), ((3, 0), "RIGHT", 0)),
    )
    assert not any(isinstance(a, PlayDetour) and (a.x, a.y) == (3, 0) for a in legal_actions(s))
    with pytest.raises(IllegalAction, match=r"at most 3.*\[rule: detour-max-3\]"):
        lay(s, "ROADBLOCK", 3, 0, 0)


def test_detour_topmost_counts() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=3, detours=(((3, 0), "ROADBLOCK", 0),))
    assert not any(m.x >= 10 for m in moves(s) if not m.jump)
    s2 = lay(s, "STRAIGHT", 3, 0, 90)
    assert (11, 1, E, 3) in dests(s2)


def test_detour_allowed_under_a_car() -> None:
    s = chase(ROAD, [((8, 1), E), ((10, 1), E)], roll=3)
    assert PlayDetour("ROADBLOCK", 3, 0, 0) in legal_actions(s)
    s2 = lay(s, "ROADBLOCK", 3, 0, 0)
    assert at(s2, 1) == ((10, 1), E)


def test_one_detour_card_per_turn() -> None:
    s = chase(ROAD, [((8, 1), E), None], roll=3)
    s2 = lay(s, "ROADBLOCK", 5, 0, 0)
    assert not any(isinstance(a, PlayDetour) for a in legal_actions(s2))
    with pytest.raises(IllegalAction, match=r"\[rule: detour-one-per-turn\]"):
        lay(s2, "ROADBLOCK", 4, 0, 0)


def test_cards_in_any_order_around_the_move() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=2)
    s = move_to(s, 9, 1)
    s = lay(s, "ROADBLOCK", 5, 0, 0)
    s = apply(s, PlayKitt("MANTLE"))
    assert s.cars[0].mantle and End() in legal_actions(s)
    assert not any(isinstance(a, Move) for a in legal_actions(s))
