"""Phase 2 set-up, ramming, oil, roof, the villain's escape, turn order."""

from __future__ import annotations

from kr_helpers import E, N, S, ScriptedRng, W, at, chase, kinds, move_to, moves, script, with_car

from rallye.knightrider import End, Enter, Options, Recover, StartAt, apply, legal_actions, new_game
from rallye.knightrider import geometry as g
from rallye.knightrider.engine import _Ev, _start_chase
from rallye.knightrider.state import evolve
from rallye.knightrider.track import road_distances

ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20


def ram(d: int, *more: int):  # type: ignore[no-untyped-def]
    """P1 at 7,1 rams P2 at 9,1 (both facing east), P2 rolls d (then more)."""
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4, dice=(d, *more))
    return move_to(s, 9, 1, E, cost=2)


# ----------------------------------------------------------------------------- set-up


def test_villain_placed_by_two_dice_tens_then_ones_reroll_absent() -> None:
    s = new_game(2, 3, Options(quick_build=True))
    absent, ax, ay, _ = s.laid[-1]  # take the last tile off the map
    board = list(s.board)
    board[g.sq_index(ax, ay)] = 0
    s = evolve(s, board=tuple(board), laid=s.laid[:-1])
    laid = {n: (x, y) for n, x, y, _ in s.laid}
    present = next(n for n in sorted(laid) if road_distances(s.links, g.middle(*laid[n])).keys() - {g.middle(*laid[n])})
    base = evolve(s, phase="build", villain=-1, start_sq=-1, cars=(), start_choices=())
    ev = _Ev(ScriptedRng(5, (absent // 10, absent % 10, present // 10, present % 10) + (1,) * 20))
    s2 = _start_chase(base, ev)
    rolls = [(e.kind, e.value) for e in ev.events if e.kind == "villain_roll"]
    assert rolls == [("villain_roll", absent), ("villain_roll", present)]
    assert g.cell_xy(s2.villain) == (3 * laid[present][0] + 1, 3 * laid[present][1] + 1)


def test_start_tile_farthest_by_road_fields_shortest_way() -> None:
    for seed in range(12):
        s = new_game(3, seed, Options(quick_build=True))
        dist = road_distances(s.links, s.villain)
        mids = {(x, y): g.middle(x, y) for _, x, y, _ in s.laid}
        far = max(dist[m] for m in mids.values() if m in dist and m != s.villain)
        if s.phase == "start":
            assert all(dist[g.middle(*g.sq_xy(sq))] == far for sq in s.start_choices)
            assert len(s.start_choices) > 1
        else:
            assert dist[g.middle(*g.sq_xy(s.start_sq))] == far


def test_start_tie_start_player_picks() -> None:
    for seed in range(200):
        s = new_game(3, seed, Options(quick_build=True))
        if s.phase == "start":
            break
    else:
        raise AssertionError("no tie among 200 seeds")
    assert s.current == s.start_player
    acts = legal_actions(s)
    assert all(isinstance(a, StartAt) for a in acts) and len(acts) == len(s.start_choices)
    s2 = apply(s, acts[-1])
    assert s2.phase == "enter" and g.sq_xy(s2.start_sq) == (acts[-1].x, acts[-1].y)  # type: ignore[union-attr]


def test_each_car_chooses_its_opening_then_start_player_begins() -> None:
    s = new_game(3, 2, Options(quick_build=True))
    while s.phase == "start":
        s = apply(s, legal_actions(s)[0])
    order = []
    while s.phase == "enter":
        order.append(s.current)
        acts = legal_actions(s)
        assert all(isinstance(a, Enter) for a in acts)
        s = apply(s, acts[-1])
    assert order == [(s.start_player + i) % 3 for i in range(3)]
    assert s.phase == "turn" and s.current == s.start_player and s.roll in range(1, 7)
    assert all(c.cell == -1 for c in s.cars)


def test_turn_order_roll_move_cards_then_escape_card_ends_turn() -> None:
    s = chase(ROAD, [((7, 1), E), ((15, 1), W)], roll=2, dice=(5,), villain=(6, 0))
    s = move_to(s, 9, 1)
    s2 = apply(s, End())
    assert kinds(s2)[0] == "escape" and s2.escape_pos == 1
    assert s2.current == 1 and s2.roll == 5 and kinds(s2)[-2:] == ["turn", "roll"]


# ----------------------------------------------------------------------------- ram table


def test_ram_table_roll_1_off_the_road_onto_roof() -> None:
    s = ram(1)
    assert s.cars[1].roof and at(s, 1) == ((9, 1), E)


def test_ram_table_roll_2_skids_two_back_and_faces_against() -> None:
    s = ram(2)
    assert at(s, 1) == ((7, 1), W)


def test_ram_table_roll_3_skids_two_back() -> None:
    s = ram(3)
    assert at(s, 1) == ((7, 1), E)


def test_ram_table_roll_4_skids_one_back() -> None:
    s = ram(4)
    assert at(s, 1) == ((8, 1), E)


def test_ram_table_roll_5_spun_round() -> None:
    s = ram(5)
    assert at(s, 1) == ((9, 1), W)


def test_ram_table_roll_6_fails_then_5_or_6_ramming_car_skids() -> None:
    for second in (5, 6):
        s = ram(6, second)
        assert at(s, 0) == ((9, 1), W) and at(s, 1) == ((9, 1), E)  # beside it, facing back
        assert s.move_done and s.used == s.pips
        assert End() in legal_actions(s)


def test_ram_table_roll_6_fails_then_1_to_4_nothing() -> None:
    s = ram(6, 4)
    assert at(s, 1) == ((9, 1), E) and not s.move_done and s.pips - s.used == 2


def test_ram_then_move_on_with_remaining_pips() -> None:
    s = ram(3)
    s2 = move_to(s, 11, 1, E)
    assert s2.move_done and s2.used == 4


def test_car_can_be_rammed_several_times_a_round() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), W), ((12, 1), W)], roll=6, dice=(5, 5))
    s = move_to(s, 9, 1, E, cost=2)  # P2 spun round: faces E
    assert at(s, 1) == ((9, 1), E)
    s = with_car(s, 0, cell=g.cell(19, 1))  # P1 drives on, out of the way
    s = evolve(s, current=2, roll=6, pips=6, used=0, moved=False, move_done=False, kitt_played=False)
    s = script(s, 5)
    s = move_to(s, 9, 1, W, cost=3)  # P3 rams P2 again
    assert "ram" in kinds(s) and at(s, 1) == ((9, 1), W)


def test_roof_car_cannot_be_rammed_again_that_round() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4)
    s = with_car(s, 1, roof=True)
    assert (11, 1, E, 4) in {(m.x, m.y, m.heading, m.cost) for m in moves(s)}  # passed without a stop
    assert not any(m.x == 9 and m.cost < 4 for m in moves(s))  # no ram stop on the roof car
    s2 = move_to(s, 11, 1, E)
    assert "ram" not in kinds(s2)


def test_roof_turn_is_only_turning_back_no_escape_card() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=1, dice=(4,))
    s = with_car(s, 1, roof=True)
    s = evolve(s, move_done=True, moved=True)
    s = apply(s, End())
    assert s.current == 1 and s.roll == 0 and legal_actions(s) == (Recover(),)
    pos = s.escape_pos
    s2 = apply(s, Recover())
    assert not s2.cars[1].roof and s2.current == 0 and s2.escape_pos == pos
    assert kinds(s2)[0] == "recover"


# ----------------------------------------------------------------------------- oil


def oil(d: int, heading_ahead: int = E):  # type: ignore[no-untyped-def]
    """P1 at 7,1 ends (2 pips) on 9,1, directly behind P2 at 10,1."""
    s = chase(ROAD, [((7, 1), E), ((10, 1), heading_ahead)], roll=2, dice=(d,))
    return move_to(s, 9, 1, E)


def test_oil_table_roll_1_off_the_road() -> None:
    s = oil(1)
    assert "oil" in kinds(s) and s.cars[0].roof


def test_oil_table_roll_2_skids_two_back() -> None:
    assert at(oil(2), 0) == ((7, 1), E)


def test_oil_table_roll_3_skids_one_back() -> None:
    assert at(oil(3), 0) == ((8, 1), E)


def test_oil_table_roll_4_faces_against_direction() -> None:
    assert at(oil(4), 0) == ((9, 1), W)


def test_oil_table_roll_5_and_6_nothing() -> None:
    for d in (5, 6):
        s = oil(d)
        assert "oil" in kinds(s) and at(s, 0) == ((9, 1), E) and not s.cars[0].roof


def test_oil_only_behind_in_that_cars_direction() -> None:
    s = oil(1, heading_ahead=W)  # P2 faces P1: 9,1 is in front of it
    assert "oil" not in kinds(s)


def test_skid_stops_early_at_obstacle() -> None:
    # P1 rams P2 head-on; P2 skids west towards two cars on 7,1 and stops on 8,1
    s = chase(ROAD, [((11, 1), W), ((9, 1), E), ((7, 1), E), ((7, 1), W)], roll=4, dice=(3,))
    s = move_to(s, 9, 1, W, cost=2)
    assert at(s, 1) == ((8, 1), E) and s.events[-1].value == 1


def test_skid_stops_early_at_dead_end() -> None:
    s = chase(ROAD, [((9, 1), W), ((7, 1), E)], roll=3, dice=(3,))
    s = move_to(s, 7, 1, W, cost=2)
    assert at(s, 1) == ((6, 1), E)  # 6,1 is the end of the road


def test_skid_follows_the_road_round_a_curve() -> None:
    layout = {(2, 0): "EW", (3, 0): "SW", (3, 1): "NS", (3, 2): "NS"}
    # P2 at 10,3 heading S; skidding back goes north to 10,2 then the road bends west to 10,1? no:
    # from 10,2 (the curve's S arm) back north is the curve middle 10,1, then west to 9,1
    s = chase(layout, [((10, 6), N), ((10, 3), S)], roll=5, dice=(3,))
    s = move_to(s, 10, 3, N, cost=3)
    assert at(s, 1) == ((10, 1), S)
    s = chase(layout, [((10, 6), N), ((10, 2), S)], roll=5, dice=(3,))
    s = move_to(s, 10, 2, N, cost=4)
    assert at(s, 1) == ((9, 1), E)  # round the curve: still facing along the road


# ----------------------------------------------------------------------------- the villain


def end_turn(s, *dice: int):  # type: ignore[no-untyped-def]
    s = script(evolve(s, move_done=True, moved=False), *dice)
    return apply(s, End())


def test_villain_escape_moves_by_turned_card_fixed_orientation() -> None:
    layout = dict(ROAD)
    layout[(3, -1)] = "NS"
    s = chase(layout, [((7, 1), E), ((19, 1), W)], roll=1, villain=(3, 0))
    card = s.pieces.escape[s.escape_deck[0]]
    assert (card.dx, card.dy) == (0, -1)  # card 1: one tile north (as the card lies)
    s2 = end_turn(s, 3)
    assert g.cell_xy(s2.villain) == (10, -2)  # middle of square 3,-1
    assert "villain_move" in kinds(s2)


def test_villain_escape_off_map_stays() -> None:
    s = chase(ROAD, [((7, 1), E), ((19, 1), W)], roll=1, villain=(3, 0))
    s2 = end_turn(s, 3)
    assert s2.villain == s.villain and "villain_stays" in kinds(s2)


def test_villain_unhindered_by_gaps_and_obstacles() -> None:
    layout = {(2, 0): "EW", (2, -2): "EW"}  # no road between: a gap
    s = chase(layout, [((6, 1), E), ((8, 1), W)], roll=1, villain=(2, -1))
    s = evolve(s, escape_deck=(4,) + tuple(i for i in range(11) if i != 4))  # card 5: (1,-1)
    s = evolve(s, villain=g.middle(1, -1))
    s2 = end_turn(s, 3)
    assert g.cell_xy(s2.villain) == (7, -5)


def test_villain_lands_on_car_rams_and_six_wins() -> None:
    layout = dict(ROAD)
    layout[(3, -1)] = "NS"
    s = chase(layout, [((7, 1), E), ((10, -2), N)], roll=1, villain=(3, 0))
    s2 = end_turn(s, 6)
    assert s2.phase == "over" and s2.winner == 1
    assert [e.kind for e in s2.events][-2:] == ["ram", "win"]


def test_villain_lands_on_car_rams_ram_table_applies() -> None:
    layout = dict(ROAD)
    layout[(3, -1)] = "NS"
    s = chase(layout, [((7, 1), E), ((10, -2), N)], roll=1, villain=(3, 0))
    s2 = end_turn(s, 5, 2)
    assert s2.winner is None and at(s2, 1) == ((10, -2), S)


def test_escape_deck_reshuffled_after_eleven() -> None:
    s = chase(ROAD, [((7, 1), E), ((19, 1), W)], roll=1, villain=(3, 0))
    turned = []
    for _ in range(11):
        turned.append(s.escape_deck[s.escape_pos])
        s = end_turn(s, 3)
    assert sorted(turned) == list(range(11))
    assert "reshuffle" in kinds(s) and s.escape_pos == 0 and sorted(s.escape_deck) == list(range(11))
