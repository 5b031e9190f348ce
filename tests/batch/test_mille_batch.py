"""The batched engine (:mod:`rallye.batch.mille`) against the pure engine: the same decks
and the same actions through both, every edition and player count, compared after every
step (legal actions and their order, the mask, whose turn, hands, tableaus, deck and draw
position, discard pile, phase, target, extension, totals, each hand's score sheet line by
line, the match's winners) [core: Coup fourré; Safeties; End of the trip; Empty draw
pile; Scoring; The match; table: extension]."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from rallye.batch import MilleBatch, batch_deck
from rallye.batch import _kernels as k
from rallye.batch.verify import Mismatch, lockstep, pure_apply
from rallye.core.errors import ConfigError, IllegalAction
from rallye.mille import apply, decode_action, editions, get_edition, legal_actions, new_match
from rallye.mille.state import MilleState

CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_batch_plays_exactly_like_the_engine(edition: str, players: int) -> None:
    """12 games, 14 hands through each (42 matches of the one-hand edition), compared after
    every step by :func:`rallye.batch.verify.lockstep`; every rule it names is reached."""
    seen = lockstep(edition, players, games=12, hands=14)
    one_hand = get_edition(edition).match_target is None
    assert seen["hands"] >= 12 * (42 if one_hand else 14) and seen["matches"] > 0, seen
    assert seen["coups"] > 0 and seen["passed"] > 0 and seen["ran_out"] > 0, seen
    if get_edition(edition).extension.allowed and players in (2, 3):
        assert seen["extend"] > 0 and seen["decline"] > 0, seen


def test_a_difference_is_caught_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a batch whose score sheets are off by one point is caught at the
    first hand's end, with the line named."""
    real = MilleBatch.step

    def off_by_one(self: MilleBatch, actions: object, *, check: bool = True) -> np.ndarray:
        flags = real(self, actions, check=check)
        for b in np.flatnonzero(flags):
            self.rows[b, k.SH_ROWS + 5] += 1  # side 0's safe-trip line
        return flags

    monkeypatch.setattr(MilleBatch, "step", off_by_one)
    with pytest.raises(Mismatch, match="sheet"):
        lockstep("wm2006", 2, games=4, hands=1)


def _same(games: MilleBatch, b: int, state: MilleState, where: str) -> None:
    diff = games.differences(b, state)
    assert not diff, f"{where}: " + "; ".join(diff[:12])


def test_batch_deck_is_what_the_engine_deals_from_it() -> None:
    deck = batch_deck("wm2006", 2, 12345, 3)
    assert sorted(deck) == sorted(editions()[0].deck_for(2)) and deck != batch_deck("wm2006", 2, 12345, 4)
    games = MilleBatch("wm2006", 2, size=1)
    games.load(0, new_match("wm2006", 2, seed=9, deck=batch_deck("wm2006", 2, 9, 0)))
    assert games.draw_pile(0) == batch_deck("wm2006", 2, 9, 0)[13:]


def test_finished_games_stay_over_without_auto_reset() -> None:
    games = MilleBatch("meilen", 3, size=5, seed=2, auto_reset=False)
    for _ in range(5000):
        if (games.current_players() < 0).all():
            break
        games.step(games.random_actions())
    assert (games.current_players() < 0).all()
    assert not games.legal_mask().any() and (games.random_actions() == -1).all()
    assert all(games.phase(b) == "over" and games.winners(b) for b in range(5))
    with pytest.raises(IllegalAction, match="match is over"):
        games.step([0, -1, -1, -1, -1])
    games.next_match(0)
    assert games.phase(0) == "play" and games.legal_actions(0)


def test_illegal_and_malformed_actions_are_refused_and_change_nothing() -> None:
    games = MilleBatch("wm2006", 2, size=3, seed=4)
    before = games.rows.copy()
    legal = [games.legal_actions(b)[0] for b in range(3)]
    bad = next(c for c in range(70) if c not in games.legal_actions(1))
    with pytest.raises(IllegalAction, match=r"game 1: action \d+ .* is not legal; legal: "):
        games.step([legal[0], bad, legal[2]])
    assert (games.rows == before).all()
    with pytest.raises(IllegalAction, match="game 2: 4294967301 is no action code"):
        games.step(np.array([legal[0], legal[1], 2**32 + 5]))
    with pytest.raises(ValueError, match="3 integer codes"):
        games.step([0, 1])
    with pytest.raises(ValueError, match="integer codes"):
        games.step(np.zeros(3))
    with pytest.raises(IndexError, match=r"not in 0\.\.2"):
        games.legal_actions(3)
    with pytest.raises(ConfigError, match="not 5"):
        MilleBatch("wm2006", 5, size=1)
    with pytest.raises(ValueError, match="positive"):
        MilleBatch("wm2006", 2, size=0)


def test_loaded_states_continue_like_the_engine() -> None:
    """A position from the middle of a pure match, loaded, plays on identically."""
    rnd = random.Random(3)
    s = new_match("hu", 4, seed=77)
    for _ in range(37):
        s = apply(s, rnd.choice(legal_actions(s)))
    games = MilleBatch("hu", 4, size=2, seed=1)
    games.load(1, s)
    _same(games, 1, s, "loaded")
    for step in range(400):
        code = rnd.choice(games.legal_actions(1))
        games.step([games.legal_actions(0)[0], code])
        s = pure_apply(s, decode_action(code))
        if s.phase == "over":
            break
        _same(games, 1, s, f"step {step}")


def test_random_play_and_rollouts_keep_going() -> None:
    games = MilleBatch("fxschmid", 6, size=8, seed=5)
    decisions, hands, matches = games.play_random(400)
    assert decisions == 8 * 400 and hands > 0
    assert (games.matches_finished().sum() == matches) and (games.current_players() >= 0).all()
    rows, n = MilleBatch("wm2006", 2, size=6, seed=6, auto_reset=False).rollouts(to="hand")
    assert rows.shape == (6, 2, 10) and n > 0 and (rows[:, :, 0].max(axis=1) > 0).any()


def test_without_numba_the_batch_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core needs no JIT: without numba, importing the batch names the extra."""
    import importlib
    import sys

    for name in [m for m in sys.modules if m == "rallye.batch" or m.startswith("rallye.batch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(ImportError, match=r"pip install 'rallye\[fast\]'"):
        importlib.import_module("rallye.batch")
    import rallye.mille

    assert rallye.mille.new_match("wm2006", 2).current == 0


def test_a_view_with_a_sampled_deal_loads_and_rolls_out() -> None:
    """Determinized search: a seat's view plus a deal of its hidden cards (the search's
    sampler) becomes a game of the batch, which plays it to the end of the hand."""
    from rallye.agents.mille.sampler import sample_deal, state_from_view
    from rallye.mille import view_for

    rnd = random.Random(8)
    s = new_match("wm2006", 3, seed=21)
    for _ in range(25):
        s = apply(s, rnd.choice(legal_actions(s)))
    view = view_for(s, s.current)
    games = MilleBatch("wm2006", 3, size=16, seed=2, auto_reset=False)
    for b in range(16):
        state = state_from_view(view, sample_deal(view, random.Random(b)))
        games.load(b, state)
        assert not games.differences(b, state) and games.hand(b, s.current) == s.hands[s.current]
    rows, decisions = games.rollouts(to="hand")
    assert decisions > 0 and rows.shape == (16, 3, 10)
    assert all(games.last_sheet(b) is not None and games.last_sheet(b).hand == 0 for b in range(16))
    assert (rows.sum(axis=2) == np.array([games.last_sheet(b).hand_totals for b in range(16)])).all()


def test_rollouts_to_the_end_of_the_match_and_of_nothing() -> None:
    games = MilleBatch("wm2006", 2, size=3, seed=12, auto_reset=False)
    rows, decisions = games.rollouts(to="match")
    assert decisions > 0 and all(games.phase(b) == "over" for b in range(3))
    assert [games.last_sheet(b).rows for b in range(3)] == [tuple(map(tuple, r.tolist())) for r in rows]
    rows, decisions = games.rollouts(to="hand")  # finished games: nothing to play
    assert decisions == 0 and not rows.any()
    with pytest.raises(ValueError, match="'hand' or 'match'"):
        games.rollouts(to="turn")
    with pytest.raises(ValueError, match="this batch plays wm2006 with 2 players"):
        games.load(0, new_match("hu", 2))
