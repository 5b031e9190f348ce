"""The rulebook's variants, as Options."""

from __future__ import annotations

import pytest
from kr_helpers import E, chase, kinds, move_to

from rallye.core.errors import ConfigError
from rallye.knightrider import Options, new_game
from rallye.knightrider import geometry as g
from rallye.knightrider.state import evolve

ROAD = {(x, 0): "EW" for x in range(2, 7)}


def test_basic_game_one_card_of_each_kind_spares_put_aside() -> None:
    s = new_game(3, 1)
    assert s.kitt_hands == ((1, 1, 1, 1),) * 3
    assert s.detour_hands == ((1, 1, 1, 1, 1),) * 3
    assert s.set_aside == (8, 10)


def test_variant_spare_cards_dealt_out() -> None:
    s = new_game(3, 1, Options(deal_spares=True))
    assert sum(map(sum, s.kitt_hands)) == 20 and sum(map(sum, s.detour_hands)) == 25
    assert s.set_aside == (0, 0)
    assert all(min(h) >= 1 for h in s.kitt_hands)  # everyone keeps one of each, plus spares
    assert sorted(sum(h) for h in s.kitt_hands) == [6, 7, 7]


def test_variant_cards_shuffled_and_dealt_each_kind_apart() -> None:
    hands = set()
    for seed in range(10):
        s = new_game(5, seed, Options(shuffle_cards=True))
        assert all(sum(h) == 4 for h in s.kitt_hands) and all(sum(h) == 5 for h in s.detour_hands)
        assert [sum(c) for c in zip(*s.kitt_hands, strict=False)] == [5, 5, 5, 5]
        assert [sum(c) for c in zip(*s.detour_hands, strict=False)] == [5, 5, 5, 5, 5]
        hands.add(s.kitt_hands)
    assert any(max(h) > 1 for hs in hands for h in hs)


def test_variant_start_and_target_rolled() -> None:
    for seed in range(8):
        s = new_game(2, seed, Options(quick_build=True, rolled_start=True))
        assert s.phase == "enter"
        assert "start_roll" in kinds(s)
        assert s.start_sq != g.sq_index(*g.cell_square(s.villain))


def test_variant_tour_targets_rolled() -> None:
    s = new_game(3, 4, Options(quick_build=True, tour=2))
    assert len(s.targets) == 2 and len(set(s.targets)) == 2
    assert g.sq_index(*g.cell_square(s.villain)) not in s.targets
    assert kinds(s).count("target") == 2


def test_variant_tour_all_targets_before_the_villain() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=3, villain=(3, 0), options=Options(tour=1))
    s = evolve(s, targets=(g.sq_index(5, 0),))
    s2 = move_to(s, 10, 1, E)
    assert s2.winner is None  # target not reached yet
    s = chase(ROAD, [((11, 1), E), None], roll=5, villain=(3, 0), options=Options(tour=1))
    s = evolve(s, targets=(g.sq_index(5, 0),))
    s2 = move_to(s, 16, 1, E)
    assert "reached" in kinds(s2) and s2.cars[0].reached == (g.sq_index(5, 0),)
    s3 = evolve(s2, current=0, pips=8, roll=4, used=0, moved=False, move_done=False)
    s3 = move_to(s3, 10, 1)  # U-turn on 16,1 (2), six fields back to the villain
    assert s3.winner == 0


def test_bad_options_refused() -> None:
    with pytest.raises(ConfigError, match="tour"):
        Options(tour=9)
    with pytest.raises(ConfigError, match="players"):
        new_game(6, 1)
    with pytest.raises(ConfigError, match="unknown option"):
        Options.from_json({"speed": 3})
