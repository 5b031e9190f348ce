"""The legal-action order (engine docstring, DESIGN habit 4) is pinned by a golden file,
``tests/data/mille_legal_order.json``; regenerate it with ``tests/mille/regen_golden.py``
after an intended change. The order is also checked against its documented rule."""

from __future__ import annotations

import json

import pytest

from rallye.mille import legal_actions, parse_action
from rallye.mille.cards import CARD_INDEX

from . import regen_golden
from .conftest import ROLLING, scenario


@pytest.fixture(scope="module")
def golden():
    return json.loads(regen_golden.GOLDEN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def fresh():
    return regen_golden.generate()


def test_legal_order_matches_the_golden_file(golden, fresh):
    assert [(g["edition"], g["players"], g["seed"]) for g in golden["games"]] == list(regen_golden.GAMES)
    for old, new in zip(golden["games"], fresh["games"], strict=True):
        where = f"{old['edition']} {old['players']}p seed {old['seed']}"
        for k, (a, b) in enumerate(zip(old["steps"], new["steps"], strict=False)):
            assert a == b, f"{where}, decision {k + 1}: golden {a!r} != engine {b!r} (regen_golden.py if intended)"
        assert len(old["steps"]) == len(new["steps"]), where


def test_golden_file_covers_every_edition_and_the_extension_decision(golden):
    assert {g["edition"] for g in golden["games"]} == {"wm2006", "hu", "fxschmid", "meilen"}
    lines = [line for g in golden["games"] for line in g["steps"]]
    assert len(lines) > 500
    assert any(": extend; decline ->" in line for line in lines)
    assert any("attack" in line.split("->")[0] for line in lines)


def _order_key(text):
    a = parse_action(text)
    if a.verb in ("extend", "decline"):
        return (0, a.verb != "extend", 0, 0)
    verb = {"play": 1, "attack": 2, "discard": 3}[a.verb]
    return (verb, CARD_INDEX[a.card], a.side or 0, 0)


def test_golden_legal_lists_follow_the_documented_order(golden):
    """Plays by card, then attacks by hazard then side, then discards by card (CARDS order);
    in the extension phase: extend, then decline. No duplicates."""
    for g in golden["games"]:
        for line in g["steps"]:
            legal = line.split(": ", 1)[1].rsplit(" -> ", 1)[0].split("; ")
            assert legal == sorted(legal, key=_order_key), line
            assert len(set(legal)) == len(legal), line


def test_documented_order_on_an_exact_position():
    s = scenario(
        "wm2006", 3,
        hands={0: ["ACCIDENT", "STOP", "D200", "ROLL", "D25", "EXTRA_TANK", "STOP"]},
        tableaus={1: ROLLING, 2: ROLLING},
    )  # fmt: skip
    assert [str(a) for a in legal_actions(s)] == [
        "play ROLL", "play EXTRA_TANK",
        "attack 2 STOP", "attack 3 STOP", "attack 2 ACCIDENT", "attack 3 ACCIDENT",
        "discard D25", "discard D200", "discard ROLL", "discard STOP", "discard ACCIDENT", "discard EXTRA_TANK",
    ]  # fmt: skip
