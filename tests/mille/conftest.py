"""Shared helpers for the Mille Bornes tests: build exact scenario states, apply notation.

A scenario starts from ``new_match(...)`` and replaces the parts a test cares about
(``MilleState`` is a named tuple, so ``state._replace`` gives a new value). Hands are kept
sorted in the ``CARDS`` order, as the engine keeps them. The draw pile is given top first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rallye.mille import MilleState, ScoreSheet, Tableau, apply, apply_as, new_match, parse_action
from rallye.mille.cards import CARD_INDEX, D200, DISTANCE_KM
from rallye.mille.state import PLAY_PHASE

#: Six harmless cards for a hand a scenario does not care about (no safety: no coup fourré,
#: no distance: nothing for meilen's hand penalty).
FILLER: tuple[str, ...] = ("END_OF_LIMIT", "GASOLINE", "GASOLINE", "SPARE_TIRE", "REPAIRS", "REPAIRS")
#: A draw pile a scenario does not care about (remedies: never a coup fourré, never distance).
FILLER_DRAW: tuple[str, ...] = ("REPAIRS",) * 20


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


def tab(
    battle: Iterable[str] = (),
    speed: Iterable[str] = (),
    distance: Iterable[str] = (),
    safeties: Iterable[str] = (),
    coups: Iterable[str] = (),
) -> Tableau:
    """A tableau; ``km`` and ``d200`` follow from the distance cards."""
    dist = tuple(distance)
    return Tableau(
        battle=tuple(battle),
        speed=tuple(speed),
        distance=dist,
        safeties=tuple(safeties),
        coups=tuple(coups),
        km=sum(DISTANCE_KM[c] for c in dist),
        d200=dist.count(D200),
    )


ROLLING = tab(battle=["ROLL"])


def km_cards(km: int) -> tuple[str, ...]:
    """Distance cards (D100s, then one D75/D50/D25) adding up to ``km`` (no D200)."""
    out: list[str] = []
    left = km
    while left >= 100:
        out.append("D100")
        left -= 100
    for card, value in (("D75", 75), ("D50", 50), ("D25", 25)):
        if left >= value:
            out.append(card)
            left -= value
    if left:
        raise ValueError(f"{km} km is not a sum of distance cards")
    return tuple(out)


def driving(km: int, *, safeties: Iterable[str] = (), coups: Iterable[str] = ()) -> Tableau:
    """A rolling tableau with ``km`` on it."""
    return tab(battle=["ROLL"], distance=km_cards(km), safeties=safeties, coups=coups)


def scenario(
    edition: str,
    players: int,
    *,
    hands: Mapping[int, Iterable[str]] | None = None,
    draw: Iterable[str] | None = None,
    discard: Iterable[str] = (),
    tableaus: Mapping[int, Tableau] | None = None,
    current: int = 0,
    target: int | None = None,
    totals: Iterable[int] | None = None,
    dealer: int | None = None,
    extended_by: int | None = None,
    phase: str = PLAY_PHASE,
    cf_turn: bool = False,
    seed: int = 0,
) -> MilleState:
    """An exact position: seats not in ``hands`` hold :data:`FILLER`, sides not in
    ``tableaus`` are empty, the draw pile is ``draw`` (top first; default 20 filler cards)."""
    base = new_match(edition, players, seed)
    pile = tuple(FILLER_DRAW if draw is None else draw)
    given = dict(hands or {})
    all_hands = tuple(sort_cards(given.get(seat, FILLER)) for seat in range(players))
    tabs = tuple((tableaus or {}).get(side, Tableau()) for side in range(len(base.sides)))
    return base._replace(
        deck=pile,
        draw_pos=0,
        hands=all_hands,
        discard=tuple(discard),
        tableaus=tabs,
        current=current,
        target=base.target if target is None else target,
        totals=base.totals if totals is None else tuple(totals),
        dealer=(current - 1) % players if dealer is None else dealer,
        extended_by=extended_by,
        phase=phase,
        cf_turn=cf_turn,
        events=(),
        ran_out_this_turn=False,
    )


def do(state: MilleState, *actions: str) -> MilleState:
    """Apply each action (notation) by the player to act."""
    for text in actions:
        state = apply(state, parse_action(text))
    return state


def do_as(state: MilleState, player: int, text: str) -> MilleState:
    return apply_as(state, player, parse_action(text))


def sheet(state: MilleState) -> ScoreSheet:
    """The score sheet of the hand that just ended."""
    assert state.sheets, "no hand has ended yet"
    return state.sheets[-1]


def hand_ended(before: MilleState, after: MilleState) -> bool:
    return len(after.sheets) > len(before.sheets) or after.phase == "over"
