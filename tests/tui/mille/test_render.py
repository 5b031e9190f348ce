"""Rendering: only views reach the screen, and a view's screen never shows hidden cards."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from rich.console import Console

from rallye import mille
from rallye.mille.actions import parse_action
from rallye.mille.state import Event, MilleState, Tableau
from rallye.tui.mille.app import new_events
from rallye.tui.mille.render import Labels, event_text, render_screen, sheet_table, tableau_table


def text_of(renderable: object) -> str:
    c = Console(file=io.StringIO(), width=120, record=True, color_system=None)
    c.print(renderable)
    return c.export_text()


def screen(view: mille.MilleView) -> str:
    labels = Labels.for_view(view, {view.seat: "you"}, ui="en")
    return text_of(render_screen(view, labels, mille.legal_from_view(view)))


def test_a_state_is_refused_by_the_renderer() -> None:
    s = mille.new_match("wm2006", 2, seed=1)
    with pytest.raises(TypeError, match="renders a player's view"):
        render_screen(s, Labels.for_view(mille.view_for(s, 0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tableau_table(s, Labels.for_view(mille.view_for(s, 0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Labels.for_view(s)  # type: ignore[arg-type]


def test_opponent_cards_absent_from_everything_public_are_not_shown() -> None:
    for seed in range(10):
        s = mille.new_match("wm2006", 2, seed=seed)
        text = screen(mille.view_for(s, 0))
        hidden = set(s.hands[1]) - set(s.hands[0])
        assert hidden  # the check below must test something
        for card in hidden:
            assert f"({card})" not in text, (seed, card)


def _reshuffle_secrets(s: MilleState, me: int, rng: random.Random) -> MilleState:
    """The same public situation with other hands and the draw pile dealt differently."""
    pool = [c for p, h in enumerate(s.hands) if p != me for c in h] + list(s.draw_pile)
    rng.shuffle(pool)
    hands = list(s.hands)
    k = 0
    for p, h in enumerate(s.hands):
        if p != me:
            hands[p] = tuple(sorted(pool[k : k + len(h)], key=mille.actions.card_sort_key))
            k += len(h)
    deck = s.deck[: s.draw_pos] + tuple(pool[k:])
    return s._replace(hands=tuple(hands), deck=deck)


def test_the_screen_does_not_change_when_hidden_cards_do() -> None:
    # [DESIGN habit 8] the terminal sees a view: other hands and the deck order never show
    rng = random.Random(3)
    s = mille.new_match("fxschmid", 4, seed=21)
    checked = 0
    for step in range(300):
        if mille.is_over(s):
            break
        if step % 15 == 0:
            me = s.current
            other = _reshuffle_secrets(s, me, rng)
            if other == s:  # nothing hidden is left to deal differently
                continue
            assert screen(mille.view_for(s, me)) == screen(mille.view_for(other, me))
            checked += 1
        s = mille.apply(s, rng.choice(mille.legal_actions(s)))
    assert checked >= 10


def test_coup_fourre_is_announced_and_marked_on_the_tableau() -> None:
    s = mille.new_match("wm2006", 2, seed=1)
    v = mille.view_for(s, 0)
    tab = Tableau(battle=("ROLL",), safeties=("RIGHT_OF_WAY", "EXTRA_TANK"), coups=("RIGHT_OF_WAY",), km=300)
    v = dataclasses.replace(v, tableaus=(v.tableaus[0], tab))
    labels = Labels.for_view(v, {0: "you"}, ui="en")
    ev = text_of(event_text(Event(1, "coup_fourre", "RIGHT_OF_WAY", 1), labels))
    assert "COUP FOURRÉ (Blitzaktion)! P2 lays Vorfahrt (RIGHT_OF_WAY) crosswise" in ev
    table = text_of(tableau_table(v, labels))
    assert "Vorfahrt (RIGHT_OF_WAY) ✦, Tankstelle (EXTRA_TANK)" in table
    assert "300/700 km" in table


def test_extension_decision_is_shown() -> None:
    s = mille.new_match("wm2006", 2, seed=1)
    v = dataclasses.replace(mille.view_for(s, 0), phase="extend")
    text = screen(v)
    assert "extend the hand (Verlängerung)" in text and "end the hand now" in text
    assert "1  extend" in text and "2  decline" in text


def test_score_sheet_uses_the_editions_words() -> None:
    s = mille.new_match("hu", 2, seed=2)
    rng = random.Random(0)
    while not s.sheets:
        s = mille.apply(s, rng.choice(mille.legal_actions(s)))
    v = mille.view_for(s, 0)
    text = text_of(sheet_table(v.sheets[0], Labels.for_view(v)))
    for line in ("distance", "safeties", "coup_fourre", "trip", "delayed_action", "shutout", "extension"):
        assert v.edition.word(line) in text, line
    assert "Végsebesség" in text or "Durr-defekt" in text or "Hosszabbítás" in text


def test_new_events_reports_a_coup_fourre_with_the_attack() -> None:
    s = mille.new_match("wm2006", 2, seed=1)
    before = mille.view_for(s, 0)
    atk = parse_action("attack 1 STOP")
    after = dataclasses.replace(
        before, events=(Event(1, "attack", "STOP", 0), Event(0, "coup_fourre", "RIGHT_OF_WAY", 0))
    )
    assert new_events(before, after, 1, atk) == after.events
    later = dataclasses.replace(after, events=(*after.events, Event(0, "play", "D100")))
    assert new_events(after, later, 0, parse_action("play D100")) == (Event(0, "play", "D100"),)
    next_hand = dataclasses.replace(later, hand_no=1, events=())
    assert new_events(later, next_hand, 0, parse_action("play D25")) == (Event(0, "play", "D25"),)


def test_table_extension_line_only_where_an_extension_can_be_called() -> None:
    # [table: extension] wm2006 lets only a lone player (2-3 player games) extend
    for players, shown in ((2, True), (4, False)):
        s = mille.new_match("wm2006", players, seed=2)
        rng = random.Random(1)
        while not s.sheets:
            s = mille.apply(s, rng.choice(mille.legal_actions(s)))
        v = mille.view_for(s, 0)
        assert ("Verlängerung" in text_of(sheet_table(v.sheets[0], Labels.for_view(v)))) is shown
