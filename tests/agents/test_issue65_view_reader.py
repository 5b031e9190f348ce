"""The bot's view reader (issue 65, item 8): a wrong field is named, never told in Python's
words, and views no game reaches are refused rather than answered."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.process import answer
from rallye.knightrider import Options, new_game, view_for
from rallye.knightrider.engine import apply, legal_actions
from rallye.mille.edition import SCORE_LINES

#: Python's own words for an exception: none may reach the bot's answer.
PYTHON_WORDS = re.compile(
    r"object is not|indices must be|index out of range|NoneType|subscriptable|iterable|unhashable|"
    r"tuple\.index|shift count|not in tuple|invalid literal|KeyError|\(\d+, \d+\)"
)


def mille_view() -> dict[str, Any]:
    return mille.view_for(mille.new_match("wm2006", 2, seed=3), 0).to_json()  # type: ignore[no-any-return]


def kr_view() -> dict[str, Any]:
    state = new_game(3, seed=7, options=Options(quick_build=True))
    rng = random.Random(1)
    for _ in range(8):
        state = apply(state, rng.choice(legal_actions(state)))
    return view_for(state, state.current).to_json()  # type: ignore[no-any-return]


def paths(o: Any, p: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if p:
        yield p
    if isinstance(o, dict):
        for k, x in o.items():
            yield from paths(x, (*p, k))
    elif isinstance(o, list):
        for i, x in enumerate(o[:2]):
            yield from paths(x, (*p, i))


def changed(view: dict[str, Any], path: tuple[Any, ...], value: Any) -> str:
    out = copy.deepcopy(view)
    at = out
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return json.dumps(out)


@pytest.mark.parametrize(("game", "make"), [("mille", mille_view), ("knightrider", kr_view)])
def test_a_wrong_field_is_named_never_told_in_pythons_words(game: str, make: Callable[[], dict[str, Any]]) -> None:
    view = make()
    agent = make_agent(game, "random", 0)
    refused = 0
    for path in paths(view):
        for value in (None, "x", -1, 10**6, [], {}, [None], 1.5, True, [[1, 2]]):
            out = answer(agent, changed(view, path, value), game)
            assert not PYTHON_WORDS.search(out), (path, value, out)
            refused += out.startswith("error:")
    assert refused > 300


def test_a_missing_field_is_named_by_its_path() -> None:
    agent = make_agent("mille", "random", 0)
    view = mille_view()
    del view["tableaus"][1]["km"]
    assert answer(agent, json.dumps(view)) == "error: view JSON: missing field 'tableaus[1].km' [rule: view-json]"
    view = mille_view()
    view["sheets"] = [{"hand": 0}]
    assert "missing field 'sheets[0].rows'" in answer(agent, json.dumps(view))
    kr = kr_view()
    del kr["cars"][1]["heading"]
    assert "missing field 'cars[1].heading'" in answer(
        make_agent("knightrider", "random", 0), json.dumps(kr), "knightrider"
    )


def mille_impossible() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def negative_totals(v: dict[str, Any]) -> None:
        v["totals"] = [-50, 0]

    def winners_in_play(v: dict[str, Any]) -> None:
        v["winners"] = [0]

    def winner_twice(v: dict[str, Any]) -> None:
        v["winners"] = [0, 0]

    def sheet_without_hand(v: dict[str, Any]) -> None:
        rows = [dict.fromkeys(SCORE_LINES, 0) for _ in range(2)]
        v["sheets"] = [
            {"hand": 0, "dealer": 0, "rows": rows, "totals": [0, 0], "completed_by": None, "extended_by": None}
        ]

    return [
        ("negative totals", negative_totals, "field 'totals' is [-50, 0], but the score sheets add up to [0, 0]"),
        ("winners in phase play", winners_in_play, "field 'winners' lists sides while the match goes on"),
        ("a winner listed twice", winner_twice, "field 'winners' must list sides, each once"),
        ("a sheet for a hand not played", sheet_without_hand, "field 'sheets' holds 1 score sheets, but 0 hands"),
    ]


@pytest.mark.parametrize(("name", "change", "said"), mille_impossible(), ids=[c[0] for c in mille_impossible()])
def test_impossible_mille_views_are_refused(name: str, change: Callable[[dict[str, Any]], None], said: str) -> None:
    view = mille_view()
    assert not answer(make_agent("mille", "random", 0), json.dumps(view)).startswith("error")  # answered as it is
    change(view)
    out = answer(make_agent("mille", "random", 0), json.dumps(view))
    assert out.startswith("error: view JSON: ") and said in out, out


def test_a_negative_sheet_line_is_refused() -> None:
    from rallye.mille.view import MilleView

    state = mille.new_match("wm2006", 2, seed=3)
    view = mille.view_for(state, 0).to_json()
    rows = [dict.fromkeys(SCORE_LINES, 0) for _ in range(2)]
    rows[0]["safeties"] = -100
    view["sheets"] = [
        {"hand": 0, "dealer": 0, "rows": rows, "totals": [-100, 0], "completed_by": None, "extended_by": None}
    ]
    view["hand_no"], view["totals"] = 1, [-100, 0]
    out = answer(make_agent("mille", "random", 0), json.dumps(view))
    assert "field 'sheets[0].rows[0].safeties' is -100: it cannot be below 0" in out
    rows[0]["safeties"], rows[0]["hand_penalty"] = 0, -100  # wm2006 subtracts nothing
    assert "wm2006 subtracts nothing" in answer(make_agent("mille", "random", 0), json.dumps(view))
    assert MilleView.from_json(mille.view_for(state, 0).to_json())  # the view as it was is read


def kr_impossible() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def tile_twice(v: dict[str, Any]) -> None:
        v["tiles"].append(dict(v["tiles"][0]))

    def two_tiles_on_a_square(v: dict[str, Any]) -> None:
        v["tiles"][1]["x"], v["tiles"][1]["y"] = v["tiles"][0]["x"], v["tiles"][0]["y"]

    def winner_in_play(v: dict[str, Any]) -> None:
        v["winner"] = 0

    def car_twice(v: dict[str, Any]) -> None:
        v["cars"][1] = dict(v["cars"][0])

    def detour_off_the_track(v: dict[str, Any]) -> None:
        v["detours"].append({"x": 7, "y": 7, "kind": "STRAIGHT", "rot": 0, "player": 0})

    return [
        ("a tile listed twice", tile_twice, "is listed twice"),
        ("two tiles on one square", two_tiles_on_a_square, "holds two tiles"),
        ("a winner while the chase goes on", winner_in_play, "field 'winner' names a seat only when the game is over"),
        ("a car listed twice", car_twice, "field 'cars' must hold at most one car per seat"),
        ("a detour on no tile", detour_off_the_track, "square 7,7 holds no tile"),
    ]


@pytest.mark.parametrize(("name", "change", "said"), kr_impossible(), ids=[c[0] for c in kr_impossible()])
def test_impossible_knight_rider_views_are_refused(
    name: str, change: Callable[[dict[str, Any]], None], said: str
) -> None:
    view = kr_view()
    agent = make_agent("knightrider", "random", 0)
    assert not answer(agent, json.dumps(view), "knightrider").startswith("error")
    change(view)
    out = answer(agent, json.dumps(view), "knightrider")
    assert out.startswith("error: view JSON: ") and said in out, out
