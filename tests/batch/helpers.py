"""The pure engine dealt the batched engine's decks, to step both side by side.

The batch deals hand ``h`` of a match with seed ``s`` from ``batch_deck(edition, players,
s, h)``; the pure engine takes that deck for the first hand (``new_match(deck=...)``) and,
when a hand ends and the match goes on, has its next hand dealt again from the batch's deck
(the engine's own ``_start_hand``, with the totals and sheets it has just scored). No
monkeypatching: the engine may be the compiled build (``scripts/compile``), whose calls
between its own functions a patch would not reach.
"""

from __future__ import annotations

from rallye.batch import batch_deck
from rallye.mille import apply, engine, new_match
from rallye.mille.actions import Action
from rallye.mille.state import OVER_PHASE, MilleState


def pure_match(edition: str, players: int, seed: int) -> MilleState:
    return new_match(edition, players, seed=seed, deck=batch_deck(edition, players, seed, 0))


def pure_apply(state: MilleState, action: Action) -> MilleState:
    s = apply(state, action)
    if s.phase != OVER_PHASE and s.hand_no != state.hand_no:
        deck = batch_deck(s.edition, s.n_players, s.seed, s.hand_no)
        s = engine._start_hand(
            s.edition, s.n_players, s.sides, s.side_of, s.seed, s.hand_no, s.dealer, s.totals, s.sheets, deck=deck
        )
    return s
