"""``action_info``: what a legal action means for the page (path, cost, ram, oil, win).

The effects a page announces before a move must be the ones the engine then applies, so
besides the scenarios below a test plays random games and checks every listed move's
predicted ram, oil and win against the events the engine reports when it is applied.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from rallye.core.rng import Rng
from rallye.knightrider import Move, Options, apply, legal_actions, new_game, view_for
from rallye.mille import legal_actions as mille_legal
from rallye.mille import new_match
from rallye.mille import view_for as mille_view
from rallye.server.annotate import action_info

_spec = importlib.util.spec_from_file_location(
    "kr_helpers_for_annotate", Path(__file__).resolve().parents[1] / "knightrider" / "kr_helpers.py"
)
assert _spec is not None and _spec.loader is not None
kr_helpers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = kr_helpers  # dataclasses look their module up there
_spec.loader.exec_module(kr_helpers)
chase = kr_helpers.chase
E, W = kr_helpers.E, kr_helpers.W

ROAD = {(x, 0): "EW" for x in range(2, 7)}  # fields y=1, x=6..20


def move_info(state, x: int, y: int, cost: int | None = None):  # type: ignore[no-untyped-def]
    view = view_for(state, state.current)
    for a in legal_actions(state):
        if isinstance(a, Move) and (a.x, a.y) == (x, y) and (cost is None or a.cost == cost):
            return action_info("knightrider", view, a)
    raise AssertionError(f"no move to {x},{y}")


def kinds(info) -> list[str]:  # type: ignore[no-untyped-def]
    return [e["kind"] for e in info["effects"]]


def test_mille_targets_own_side_attacked_side_or_the_discard() -> None:
    s = new_match("wm2006", 4, seed=3)
    view = mille_view(s, s.current)
    infos = {str(a): action_info("mille", view, a) for a in mille_legal(s)}
    assert infos
    for text, info in infos.items():
        verb = text.split()[0]
        assert info["verb"] == verb
        if verb == "play":
            assert info["side"] == view.side and info["card"] == text.split()[1]
        elif verb == "attack":
            assert info["side"] == int(text.split()[1]) - 1 and info["side"] != view.side
        else:
            assert info["side"] is None
    # notation and the JSON view give the same answer as the values
    text, info = next(iter(infos.items()))
    assert action_info("mille", view.to_json(), text) == info
    assert action_info("mille", view, "extend") == {"verb": "extend", "card": None, "side": None}


def test_a_ram_stop_names_the_rammed_car_and_the_pips_left() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4)
    info = move_info(s, 9, 1, cost=2)
    assert info["kind"] == "move" and info["from"] == [7, 1] and info["to"] == [9, 1]
    assert info["path"] == [[8, 1, E, False], [9, 1, E, False]]
    assert info["cost"] == 2 and info["left"] == 2 and info["heading"] == E
    assert info["effects"] == [{"kind": "ram", "player": 1}]


def test_ending_beside_a_car_or_beside_a_protected_car_is_no_ram() -> None:
    s = chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=2)
    assert "ram" not in kinds(move_info(s, 9, 1))
    s = kr_helpers.with_car(chase(ROAD, [((7, 1), E), ((9, 1), E)], roll=4), 1, mantle=True)
    assert all("ram" not in kinds(move_info(s, m.x, m.y, m.cost)) for m in kr_helpers.moves(s))


def test_ending_right_behind_a_car_is_oil_but_not_in_front_of_it() -> None:
    s = chase(ROAD, [((7, 1), E), ((10, 1), E)], roll=2)
    assert move_info(s, 9, 1)["effects"] == [{"kind": "oil", "player": 1}]
    s = chase(ROAD, [((7, 1), E), ((10, 1), W)], roll=2)
    assert move_info(s, 9, 1)["effects"] == []


def test_the_villain_field_with_the_last_pip_wins() -> None:
    s = chase(ROAD, [((7, 1), E), None], roll=3, villain=(3, 0))
    assert move_info(s, 10, 1)["effects"] == [{"kind": "win", "player": None}]


def test_build_and_card_actions_are_described() -> None:
    s = new_game(2, seed=4)
    view = view_for(s, s.current)
    place = legal_actions(s)[0]
    info = action_info("knightrider", view, place)
    assert info["kind"] == "place" and info["tile"] == view.drawn
    assert info["openings"] == Options().pieces().mask(view.drawn, info["rot"])
    assert action_info("knightrider", view.to_json(), str(place)) == info
    assert action_info("knightrider", view, "detour RIGHT at 1,-2 rot 90") == {
        "kind": "detour",
        "card": "RIGHT",
        "x": 1,
        "y": -2,
        "rot": 90,
        "sides": 0b1100,  # west and south: the right curve met driving east
    }
    assert action_info("knightrider", view, "kitt TURBO1") == {"kind": "kitt", "card": "TURBO1"}
    assert action_info("knightrider", view, "end") == {"kind": "end"}
    with pytest.raises(ValueError):
        action_info("chess", view, "end")


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_predicted_effects_are_what_the_engine_does(seed: int) -> None:
    """Every listed move of random quick-build games: ram, oil and win as foretold."""
    s = new_game(3, seed, Options(quick_build=True, turn_limit=150))
    r = Rng.from_seed("annotate", seed)
    seen: set[str] = set()
    while s.phase != "over":
        acts = legal_actions(s)
        view = view_for(s, s.current)
        for a in acts:
            info = action_info("knightrider", view, a)
            json.dumps(info)
            if not isinstance(a, Move):
                continue
            after = [e.kind for e in apply(s, a).events]
            got = set(kinds(info))
            assert ("ram" in got) == ("ram" in after), (str(a), info, after)
            if "ram" not in got:
                assert ("oil" in got) == ("oil" in after), (str(a), info, after)
                assert ("win" in got) == ("win" in after), (str(a), info, after)
            assert ("target" in got) == ("reached" in after)
            seen |= got | {"move"}
        i, r = r.randbelow(len(acts))
        s = apply(s, acts[i])
    assert {"move", "ram", "oil"} <= seen  # the check met the effects it is about


def test_a_move_in_code_form_gets_its_canonical_path() -> None:
    """``move to X,YH =C`` (no path, as a client may send it) is drawn along the engine's path."""
    s = new_game(2, 21, Options(quick_build=True))
    while not any(isinstance(a, Move) for a in legal_actions(s)):
        s = apply(s, legal_actions(s)[0])
    view = view_for(s, s.current)
    move = next(a for a in legal_actions(s) if isinstance(a, Move))
    assert action_info("knightrider", view, str(move.key())) == action_info("knightrider", view, move)
    with pytest.raises(ValueError):
        action_info("knightrider", view, f"move to {move.x},{move.y}{'NESW'[move.heading]} ={move.cost + 1}")
