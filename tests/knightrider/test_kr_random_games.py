"""Conformance: thousands of random games with invariants checked after every step.

Random bots can trap their own cars for ever (two cars walled in by detours never meet
the villain), so these games run with a ``turn_limit``; a game ends by a win or by the
limit. The long run, 2,000 full games played to a capture with the invariants checked,
is ``python benchmarks/kr_soak.py``.
"""

from __future__ import annotations

import time

from rallye.core.rng import Rng
from rallye.knightrider import Options, apply, encode_action, is_over, legal_actions, new_game, view_for
from rallye.knightrider import geometry as g
from rallye.knightrider.state import State

VARIANTS = (
    Options(quick_build=True),
    Options(quick_build=True, deal_spares=True),
    Options(quick_build=True, shuffle_cards=True),
    Options(quick_build=True, rolled_start=True),
    Options(quick_build=True, tour=2),
    Options(quick_build=True, deal_spares=True, shuffle_cards=True, tour=1, rolled_start=True),
)


def check_invariants(s: State, *, codes: bool = True) -> None:
    assert len(s.laid) + len(s.unused) + len(s.pile) + len(s.centre) + (1 if s.drawn else 0) == 36
    assert sorted(s.escape_deck) == list(range(11))
    assert 0 <= s.escape_pos < 11 or (s.phase == "over" and s.escape_pos == 11)
    kitt_total = sum(map(sum, s.kitt_hands)) + len(s.played) + s.set_aside[0]
    detour_total = sum(map(sum, s.detour_hands)) + len(s.detours) + s.set_aside[1]
    assert (kitt_total, detour_total) == (20, 25), "cards are conserved"
    assert all(n >= 0 for h in s.kitt_hands + s.detour_hands for n in h)
    per_tile: dict[int, int] = {}
    for sq, *_ in s.detours:
        per_tile[sq] = per_tile.get(sq, 0) + 1
        assert s.board[sq], "detours lie on tiles"
    assert all(n <= 3 for n in per_tile.values()), "at most 3 detours per tile"
    occ: dict[int, int] = {}
    for c in s.cars:
        if c.cell >= 0:
            assert s.links[c.cell] & 0x10, "cars stand on road fields"
            occ[c.cell] = occ.get(c.cell, 0) + 1
    assert all(n <= 2 for n in occ.values()), "at most two cars on a field"
    if s.villain >= 0:
        x, y = g.cell_square(s.villain)
        assert s.board[g.sq_index(x, y)] and g.middle(x, y) == s.villain
    for sq in (g.sq_index(x, y) for x, y in g.CENTRE):
        assert not s.board[sq], "the centre stays empty"
    if s.phase == "turn":
        assert [c.player for c in s.cars] == list(range(s.players))
        assert 0 <= s.used <= s.pips <= 12
    if s.phase == "over":
        assert legal_actions(s) == ()
    else:
        acts = legal_actions(s)
        assert acts, "a player to act always has an action"
        if codes:
            nums = [encode_action(a) for a in acts]
            assert len(set(nums)) == len(nums)


def run(players: int, seed: int, opts: Options, bot_seed: int, *, check: bool, start: State | None = None) -> State:
    s = start if start is not None else new_game(players, seed, opts)
    r = Rng.from_seed("random-bot", bot_seed)
    steps = 0
    while not is_over(s):
        acts = legal_actions(s)
        i, r = r.randbelow(len(acts))
        s = apply(s, acts[i])
        steps += 1
        if check:
            check_invariants(s, codes=steps % 16 == 0)
        assert steps < 200_000
    return s


def test_two_thousand_random_games_end_with_invariants() -> None:
    """400 maps (players 2..5 × 6 variant sets) × 5 random bots = 2,000 games, 15 turns each at most."""
    t0 = time.perf_counter()
    games = wins = 0
    for i in range(400):
        players = 2 + i % 4
        base = VARIANTS[i % len(VARIANTS)]
        opts = Options(**{**base.to_json(), "turn_limit": 15})
        start = new_game(players, 10_000 + i, opts)
        check_invariants(start)
        for b in range(5):
            s = run(players, 10_000 + i, opts, 1000 * i + b, check=True, start=start)
            games += 1
            wins += s.winner is not None
            view_for(s, 0)
    assert games == 2000
    assert wins > 0
    print(f"\n2000 random games: {wins} won within 15 turns; {time.perf_counter() - t0:.1f}s")


def test_full_random_games_end_by_a_win() -> None:
    """Full games to the end (safety cap 4,000 turns): most end with a winner."""
    wins = 0
    for i in range(12):
        opts = Options(**{**VARIANTS[i % len(VARIANTS)].to_json(), "turn_limit": 4000})
        s = run(2 + i % 4, 500 + i, opts, i, check=i < 4)
        wins += s.winner is not None
    assert wins >= 6  # random bots sometimes wall their own cars in with detours
