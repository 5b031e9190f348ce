"""The batched engine against the pure engine, step by step: the differential check.

    python -m rallye.batch.verify [--games 12] [--hands 14] [--edition KEY ...] [--players N ...] [--seed 0]

For each edition and player count, ``--games`` games play the same decks and the same
actions through :class:`~rallye.batch.mille.MilleBatch` and :mod:`rallye.mille`, until every
game slot has seen ``--hands`` hands (three times as many one-hand matches for an edition
without a match target); after every step it compares the legal actions (in order) and the
mask, whose turn, hands, tableaus, deck and draw position, discard pile, phase, target,
extension, totals, the last score sheet line by line, and at each match's end the winners.
Actions are random: mostly a play or an attack in most games (random play alone seldom
makes a trip), uniform in every fourth. It prints what was covered and exits 1 at the first
difference, naming it. ``tests/batch/test_mille_batch.py`` runs it on every configuration.

The pure engine is dealt the batch's decks: ``new_match(deck=...)`` for the first hand and,
when a hand ends and the match goes on, the engine's own ``start_hand`` with the totals and
sheets it has just scored and the batch's next deck (no monkeypatching: the engine may be the
compiled build, whose calls between its own functions a patch would not reach).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

import numpy as np

from rallye.batch.mille import MilleBatch, batch_deck
from rallye.mille import apply, decode_action, editions, engine, legal_actions, new_match
from rallye.mille.actions import Action
from rallye.mille.state import OVER_PHASE, PLAY_PHASE, MilleState


class Mismatch(AssertionError):
    """The batched engine and the pure engine disagree."""


def pure_match(edition: str, players: int, seed: int) -> MilleState:
    """The pure engine's match with the batch's first deck for this seed."""
    return new_match(edition, players, seed=seed, deck=batch_deck(edition, players, seed, 0))


def pure_apply(state: MilleState, action: Action) -> MilleState:
    """``apply``, with the next hand (if the match goes on) dealt from the batch's deck."""
    s = apply(state, action)
    if s.phase != OVER_PHASE and s.hand_no != state.hand_no:
        deck = batch_deck(s.edition, s.n_players, s.seed, s.hand_no)
        s = engine.start_hand(
            s.edition, s.n_players, s.sides, s.side_of, s.seed, s.hand_no, s.dealer, s.totals, s.sheets, deck=deck
        )
    return s


def _pick(rnd: random.Random, codes: tuple[int, ...], bias: float) -> int:
    plays = [c for c in codes if not 19 <= c < 38]
    if plays and rnd.random() < bias:
        return rnd.choice(plays)
    return rnd.choice(codes)


def _check(ok: bool, where: str, what: object) -> None:
    if not ok:
        raise Mismatch(f"{where}: {what}")


def lockstep(edition: str, players: int, games: int = 12, hands: int = 14, seed: int = 0) -> Counter[str]:
    """Play and compare (see the module); returns what was covered: steps, hands, matches,
    coups fourrés, extensions and declines, turns passed over, draw piles run out."""
    rnd = random.Random(f"batch/{edition}/{players}/{seed}")
    batch = MilleBatch(edition, players, size=games, seed=players + 1000 * seed)
    states = [pure_match(edition, players, batch.match_seed(b)) for b in range(games)]
    bias = [0.0 if b % 4 == 0 else 0.85 for b in range(games)]
    wanted = hands if states[0].edition.match_target is not None else 3 * hands
    done = [0] * games
    seen: Counter[str] = Counter()
    for b in range(games):
        _check(
            not batch.differences(b, states[b]), f"{edition}/{players} game {b} dealt", batch.differences(b, states[b])
        )
    while min(done) < wanted:
        mask = batch.legal_mask().copy()
        actions = np.full(games, -1, dtype=np.int64)
        for b, s in enumerate(states):
            legal = tuple(a.code for a in legal_actions(s))
            where = f"{edition}/{players} game {b} step {seen['steps']}"
            _check(batch.legal_actions(b) == legal, where, f"legal {batch.legal_actions(b)}, engine {legal}")
            _check(tuple(np.flatnonzero(mask[b])) == tuple(sorted(legal)), where, "the mask differs")
            actions[b] = _pick(rnd, legal, bias[b])
        flags = batch.step(actions).copy()
        seen["steps"] += games
        for b in range(games):
            before = states[b]
            states[b] = s = pure_apply(before, decode_action(int(actions[b])))
            where = f"{edition}/{players} game {b} step {seen['steps']} after {decode_action(int(actions[b]))}"
            seen["extend"] += int(actions[b] == 68)
            seen["decline"] += int(actions[b] == 69)
            seen["coups"] += sum(len(t.coups) for t in s.tableaus) > sum(len(t.coups) for t in before.tableaus)
            seen["passed"] += s.draw_count == 0 and s.phase == PLAY_PHASE and s.hand_no == before.hand_no
            seen["ran_out"] += s.ran_out_this_turn
            ended = len(s.sheets) > len(before.sheets) or s.phase == OVER_PHASE
            _check(bool(flags[b] & 1) == ended, where, f"hand-ended flag {flags[b]}")
            _check(bool(flags[b] & 2) == (s.phase == OVER_PHASE), where, f"match-ended flag {flags[b]}")
            if ended:
                done[b] += 1
                seen["hands"] += 1
                _check(
                    batch.last_sheet(b) == s.sheets[-1], where, f"sheet {batch.last_sheet(b)}, engine {s.sheets[-1]}"
                )
            if s.phase == OVER_PHASE:  # auto-reset: the result is kept, the next match dealt
                seen["matches"] += 1
                _check(batch.winners(b) == s.winners, where, f"winners {batch.winners(b)}, engine {s.winners}")
                _check(batch.result_totals(b) == s.totals, where, f"totals {batch.result_totals(b)}, engine {s.totals}")
                states[b] = s = pure_match(edition, players, batch.match_seed(b))
            diff = batch.differences(b, s)
            _check(not diff, where, "; ".join(diff[:12]))
    return seen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=12, help="games a batch (default 12)")
    p.add_argument("--hands", type=int, default=14, help="hands through each game slot (default 14)")
    p.add_argument("--edition", action="append", help="edition(s) (default: all)")
    p.add_argument("--players", type=int, action="append", help="player count(s) (default: all the edition's)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.games < 1 or args.hands < 1:
        p.error("--games and --hands must be positive")
    total: Counter[str] = Counter()
    start = time.perf_counter()
    for ed in editions():
        if args.edition and ed.key not in args.edition:
            continue
        for n in ed.players:
            if args.players and n not in args.players:
                continue
            try:
                seen = lockstep(ed.key, n, args.games, args.hands, args.seed)
            except Mismatch as exc:
                print(f"MISMATCH {exc}")
                return 1
            total += seen
            print(f"{ed.key:<9} {n} players: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items())), flush=True)
    print(
        "all equal: "
        + ", ".join(f"{k} {v}" for k, v in sorted(total.items()))
        + f" ({time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
