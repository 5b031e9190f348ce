"""``research/mille_decisions.py``: the ``truehands-but-GROUP`` diagnostic hides exactly that
group's cards again and keeps every other hidden card where it truly is."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from types import ModuleType

import pytest

from benchmark_modules import load
from rallye import mille
from rallye.agents.base import make_agent


@pytest.fixture(scope="module")
def decisions() -> ModuleType:
    return load("mille_decisions")


def _midhand(seed: int) -> mille.MilleState:
    s = mille.new_match("wm2006", 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        legal = mille.legal_actions(s)
        s = mille.apply(s, legal[rng.randrange(len(legal))])
    return s


@pytest.mark.parametrize("group", ["safeties", "remedies", "hazards", "distance"])
def test_only_the_groups_cards_move(decisions: ModuleType, group: str) -> None:
    hidden = decisions.GROUPS[group]
    moved = 0
    for seed in range(6):
        s = _midhand(seed)
        me = s.current
        view = mille.view_for(s, me)
        bot = decisions.TrueButGroup.of(make_agent("mille", "hard", seed, exact=True))
        bot.state, bot.hidden = s, hidden
        t = bot._sample(view, (), ())
        assert t.hands[me] == s.hands[me]  # my own hand is mine
        assert mille.view_for(t, me) == view  # nothing I can see changes
        assert [len(h) for h in t.hands] == [len(h) for h in s.hands]
        opp = 1 - me
        before = Counter(s.hands[opp]) + Counter(s.deck[s.draw_pos :])
        after = Counter(t.hands[opp]) + Counter(t.deck[t.draw_pos :])
        assert after == before  # the same hidden cards
        # one trade a hidden copy of the group: each moves at most one card out of the hand,
        # so the true hand's other cards leave it at most that often
        lost = Counter(s.hands[opp]) - Counter(t.hands[opp])
        copies = sum(n for c, n in before.items() if c in hidden)
        assert sum(n for c, n in lost.items() if c not in hidden) <= copies
        moved += sum(lost.values())
    assert moved > 0  # the diagnostic does hide something


def test_specs_name_the_cheat_and_refuse_an_unknown_group(decisions: ModuleType) -> None:
    assert decisions._cheat("expert") == ("", None, "expert")
    assert decisions._cheat("truehands:expert") == ("truehands", None, "expert")
    head, hidden, inner = decisions._cheat("truehands-but-safeties:pimc/deals=8")
    assert (head, inner) == ("truehands-but-safeties", "pimc/deals=8") and "RIGHT_OF_WAY" in hidden
    with pytest.raises(ValueError, match="no card group 'wheels'"):
        decisions._cheat("truehands-but-wheels:expert")


def test_positions_carry_their_seats_earlier_views_for_a_bot_that_follows_the_hand(decisions: ModuleType) -> None:
    played = decisions.positions_with_history(1, 3, 5)
    assert played and [p for p, _ in played] == decisions.positions(1, 3, 5)  # the same games
    for (state, view, _legal), earlier in played:
        assert all(v.seat == view.seat and v.hand_no == view.hand_no for v in earlier)
        seq = (*earlier, view)  # in the order of the hand
        assert all(a.draw_count >= b.draw_count for a, b in itertools.pairwise(seq))  # (0 once it is empty)
        assert mille.view_for(state, view.seat) == view
    data = [(s, v, legal, {a: 0.0 for a in legal}) for (s, v, legal), _ in played[:2]]
    with pytest.raises(ValueError, match="histories"):
        decisions.gains_of("pimc/deals=2/plies=40/track=5", data)
    gains, _, _ = decisions.gains_of("pimc/deals=2/plies=40/track=5", data, [h for _, h in played[:2]])
    assert gains == [0.0, 0.0]


def test_pairs_group_the_oracles_preference_over_the_styles_move(decisions: ModuleType) -> None:
    """``--pairs``: every other candidate's oracle value minus the style's own move's, under
    (that move's kind, the candidate's kind); positions whose move the oracle did not value
    are left out."""
    from rallye.agents.mille.heuristic import FITTED, rank_actions

    data = []
    want: dict[tuple[str, str], list[float]] = {}
    for seed in range(8):
        s = _midhand(seed)
        v = mille.view_for(s, s.current)
        legal = tuple(mille.legal_from_view(v))
        ranked = [a for _, a in rank_actions(v, legal, FITTED)]
        if len(ranked) < 3:
            continue
        values = {a: 10.0 * i + seed for i, a in enumerate(ranked[:3])}
        data.append((s, v, legal, values))
        for i, a in enumerate(ranked[1:3], start=1):
            want.setdefault((decisions.move_kind(ranked[0]), decisions.move_kind(a)), []).append(10.0 * i)
        data.append((s, v, legal, {a: 1.0 for a in ranked[1:3]}))  # the style's move not valued
    assert len(data) >= 8
    assert decisions.pair_differences(data, FITTED) == want
    assert decisions.move_kind(ranked[0]).split()[0] == ranked[0].verb


def test_the_oracle_continues_the_deciding_side_in_its_own_style(decisions: ModuleType) -> None:
    """``--own STYLE``: after the move, the deciding side's turns are the heuristic's in that
    style and every other seat's the classic heuristic's, to the end of the hand."""
    from rallye.agents.mille.heuristic import CLASSIC, FITTED, best_action
    from rallye.agents.mille.search import hand_outcome, pile_counts

    def reference(s: mille.MilleState, side: int, own: object) -> tuple[float, list[object]]:
        moves = []
        while s.phase != "over" and not s.sheets:
            style = own if s.side_of[s.current] == side else CLASSIC
            a = best_action(mille.view_for(s, s.current), mille.legal_actions(s), style)
            moves.append(a)
            s = mille.apply(s, a)
        return hand_outcome(s, side, 0, 1500.0), moves

    differ = 0
    for seed in range(10):
        s = _midhand(seed)
        side = s.side_of[s.current]
        piles = pile_counts(s.deck, s.draw_pos)  # as oracle() calls it, and without the counts
        for own in (CLASSIC, FITTED):
            want = reference(s, side, own)[0]
            assert decisions._to_end(s, side, own, piles, s.draw_pos) == want
            assert decisions._to_end(s, side, own) == want
        differ += reference(s, side, CLASSIC)[1] != reference(s, side, FITTED)[1]
    assert differ > 0  # the style does play differently


def test_the_oracle_values_every_legal_move_with_zero_candidates(decisions: ModuleType) -> None:
    from rallye.agents.mille.heuristic import rank_actions

    s = _midhand(3)
    v = mille.view_for(s, s.current)
    legal = tuple(mille.legal_from_view(v))
    every = decisions.oracle(((s, v, legal), 4, 0, 1, "fitted"))
    assert set(every) == set(legal) and len(set(legal)) > 6
    top = decisions.oracle(((s, v, legal), 4, 6, 1, "classic"))
    assert list(top) == [a for _, a in rank_actions(v, legal)][:6]


def test_a_negative_number_of_candidates_is_refused(
    decisions: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["mille_decisions.py", "--candidates", "-1", "--hands", "1"])
    with pytest.raises(SystemExit):
        decisions.main()
    assert "--candidates is a number of moves, 0 for every legal move" in capsys.readouterr().err
