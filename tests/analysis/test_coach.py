"""The coach (issue #61, item 3): a hint from the acting player's view only (the no-leak
property, both games), its JSON contract, its reasons in every language, and the margin
said "about equal" within the standard error."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.agents.mille.helpers import hidden_twins

import rallye.analysis.coach as coach_module
from rallye.analysis import decision_views
from rallye.analysis.coach import Coach, Hint, Reason, domain_of, margin
from rallye.analysis.evaluators import Candidate, Judgement
from rallye.core.record import read_jsonl
from rallye.games import game_for
from rallye.i18n import LANGUAGES, translator

from .test_analysis import KR, MILLE_DECISIONS, NO_LEAK, TRACKED, TRACKED_GAME, _seen, hidden_twin


def _hint(coach: Coach, game: str, state: Any, seat: int) -> Hint:
    g = game_for(game)
    return coach.hint(g.view_for(state, seat), g.legal_actions(state))


def test_a_hint_names_a_legal_move_with_its_reasons_and_margin() -> None:
    coach = Coach("mille", "hard", 3)
    state, seat, _, _ = MILLE_DECISIONS[3]
    legal = game_for("mille").legal_actions(state)
    hint = _hint(coach, "mille", state, seat)
    assert hint.best in legal and hint.best_text == str(hint.best)
    assert hint.next_text is not None and hint.next_text != hint.best_text
    assert hint.margin_points is not None and hint.margin_win is not None
    assert 1 <= len(hint.reasons) <= 3
    out = hint.to_json()
    assert set(out) >= {"best", "next", "margin", "reasons"}
    assert set(out["margin"]) >= {"points", "win"}
    assert all(set(r) == {"key", "params"} and r["key"].startswith("coach.mille.") for r in out["reasons"])
    for lang in LANGUAGES:
        for r in hint.reasons:
            text = r.text(lang)
            assert text and "{" not in text


def test_the_same_view_and_seed_give_the_same_hint() -> None:
    state, seat, _, _ = MILLE_DECISIONS[10]
    a = _hint(Coach("mille", "hard", 7), "mille", state, seat)
    b = _hint(Coach("mille", "hard", 7), "mille", state, seat)
    assert a.to_json() == b.to_json()


def test_the_only_move_needs_no_search() -> None:
    game = game_for("mille")
    state, seat, _, _ = MILLE_DECISIONS[0]
    view = game.view_for(state, seat)
    only = game.legal_actions(state)[0]
    hint = Coach("mille", "hard").hint(view, [only])
    assert hint.best == only and hint.next_text is None and hint.margin_points is None
    assert [r.key for r in hint.reasons] == ["coach.mille.only_move"]


def test_no_legal_move_and_an_unknown_game_are_refused_clearly() -> None:
    game = game_for("mille")
    state, seat, _, _ = MILLE_DECISIONS[0]
    with pytest.raises(ValueError, match="nothing to hint"):
        Coach("mille", "hard").hint(game.view_for(state, seat), [])
    with pytest.raises(Exception, match="no coach for the game 'chess'"):
        Coach("chess")
    with pytest.raises(Exception, match="unknown analysis bot 'genius'"):
        Coach("mille", "genius")
    with pytest.raises(ValueError, match="the knightrider coach reads a View, not a MilleView"):
        Coach("knightrider").hint(game.view_for(state, seat), game.legal_actions(state))


def test_reason_keys_are_in_the_game_domain_and_card_names_are_the_boxs() -> None:
    r = Reason("coach.mille.keep_safety", {"safety": "RIGHT_OF_WAY", "hazard": "STOP", "count": 4, "total": 5})
    assert domain_of(r.key) == "mille" and domain_of("coach.kr.catch_now") == "kr"
    names = {"RIGHT_OF_WAY": "Right of Way", "STOP": "Stop"}
    assert r.text("en", names.__getitem__) == (
        "keep Right of Way for a coup fourré: 4 of the 5 Stop cards are still unseen"
    )
    one = Reason("coach.mille.keep_safety", {"safety": "RIGHT_OF_WAY", "hazard": "STOP", "count": 1, "total": 5})
    assert "1 of the 5 STOP cards is still unseen" in one.text("en")
    assert Reason("coach.kr.turbo", {"kitt": "TURBO1", "roll": 3, "pips": 6}).text("de").startswith("Turbo-Boost I")
    with pytest.raises(ValueError, match="not a coach reason key"):
        domain_of("rule.rolling")
    with pytest.raises(ValueError, match="no catalogs in language"):
        r.text("xx")


def test_every_reason_the_coach_gives_is_in_the_catalogs_and_no_other() -> None:
    """The keys written in the coach's modules are the ``coach.*`` messages of the game's
    catalog, in every language (the catalogs' own test checks their placeholders)."""
    src = Path(coach_module.__file__).parent
    for domain, modules in (("mille", ("coach.py", "coach_mille.py")), ("kr", ("coach.py", "coach_kr.py"))):
        written = set()
        for name in modules:
            written |= set(re.findall(rf'"(coach\.{domain}\.\w+)"', (src / name).read_text(encoding="utf-8")))
        for lang in LANGUAGES:
            catalog = {k for k in translator(lang, domain).messages if k.startswith("coach.")}
            assert len(written) >= 10 and written == catalog, (domain, lang, written ^ catalog)


def _cand(
    action: str, points: float | None, points_se: float | None, win: float | None, win_se: float | None
) -> Candidate:
    return Candidate(action, points, points_se, win, win_se)


def test_the_margin_is_about_equal_within_the_standard_error() -> None:
    best = _cand("a", 0.0, 0.0, 0.60, 0.01)
    close = Judgement("a", (best, _cand("b", -8.0, 10.0, 0.595, 0.01)), (0.6, 0.4), {})
    m = margin("mille", close)
    assert m.points == 8.0 and m.win is not None and abs(m.win - 0.005) < 1e-12 and m.equal
    clear = Judgement("a", (best, _cand("b", -80.0, 10.0, 0.50, 0.01)), (0.6, 0.4), {})
    m = margin("mille", clear)
    assert m.points == 80.0 and not m.equal
    # Knight Rider's values are exact: equal only when they agree
    kr = Judgement("a", (_cand("a", None, None, 0.3, 0.0), _cand("b", None, None, 0.3, 0.0)), (0.5, 0.5), {})
    assert margin("knightrider", kr).equal
    kr = Judgement("a", (_cand("a", None, None, 0.3, 0.0), _cand("b", None, None, 0.2, 0.0)), (0.5, 0.5), {})
    assert not margin("knightrider", kr).equal
    # nothing valued beside the best: no next best, no margin
    alone = Judgement("a", (_cand("a", None, None, None, None),), (0.5, 0.5), {})
    assert margin("knightrider", alone).next is None


# -- the no-leak property: another state behind the same view gives the same hint ---------
# (the analysis's decisions, bots and redraws: other hands and draw pile; Knight Rider:
# other hands, escape cards and dice)
COACHES: dict[str, Coach] = {}


@pytest.mark.parametrize("key", list(NO_LEAK))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 10**6), hidden=st.integers(0, 2**32))
def test_a_hint_comes_from_the_view_alone(key: str, which: int, hidden: int) -> None:
    game = game_for(key)
    decisions, bot, redraw = NO_LEAK[key]
    state, seat, _, _ = decisions[which % len(decisions)]
    view = game.view_for(state, seat)
    other = redraw(view, random.Random(hidden), state)
    assert game.view_for(other, seat) == view
    coach = COACHES.setdefault(key, Coach(key, bot, 5))
    a = coach.hint(view, game.legal_actions(state))
    b = coach.hint(game.view_for(other, seat), game.legal_actions(other))
    assert a.to_json() == b.to_json()


def test_a_hint_comes_from_the_view_alone_along_a_three_player_wm2006_game() -> None:
    """Pairs of states along a 3-player wm2006 game with the same view for the player to
    act but other hands and draw pile (the bots' tests' twins): the same hint."""
    game = game_for("mille")
    coach = Coach("mille", "hard", 2)
    pairs = hidden_twins()
    for a, b in pairs[::2]:
        seat = game.current_player(a)
        assert seat is not None
        one = coach.hint(game.view_for(a, seat), game.legal_actions(a))
        two = coach.hint(game.view_for(b, seat), game.legal_actions(b))
        assert one.to_json() == two.to_json()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(upto=st.integers(16, 47), hidden=st.integers(0, 2**32))
def test_a_hint_comes_from_the_seats_views_now_and_before(upto: int, hidden: int) -> None:
    """Two deals that show the player the same views at every decision of the hand and now,
    other hidden cards behind them: the same hint, with expert's tracker following the
    opponent's hand through those views (one coach answers both, its trackers kept)."""
    game = game_for("mille")
    initial, moves = TRACKED_GAME.initial, TRACKED_GAME.moves[:upto]
    seat = TRACKED_GAME.moves[upto][0]
    twin = hidden_twin(initial, moves, seat, random.Random(hidden))
    coach = COACHES.setdefault("expert/8", Coach("mille", "expert/8", 5))
    hints = []
    for start in (initial, twin):
        *history, view = _seen(start, moves, seat)
        hints.append(coach.hint(view, game.legal_from_view(view), history).to_json())
    assert hints[0] == hints[1]


def test_the_hint_in_play_takes_the_players_earlier_views_from_the_record() -> None:
    """``decision_views`` of a game in play: the seat's views at its decisions of the running
    hand, as the terminal and the server give them to the coach."""
    game = game_for("mille")
    for seat in (0, 1):
        *want, _ = _seen(TRACKED_GAME.initial, TRACKED_GAME.moves, seat)
        assert decision_views(game, TRACKED, seat) == tuple(want)
    assert decision_views(game_for("knightrider"), read_jsonl(KR), 0) == ()
