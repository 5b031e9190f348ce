"""Mille Bornes state values: a side's tableau, public events, score sheets, the state, and
the engine's mutable working copy of a state.

The values are all frozen, all tuples: equal states compare and hash equal, and ``apply``
returns a new state without touching the old one. :class:`WorkingState` is the one mutable
thing: what ``apply`` changes on its way from one state to the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Final, Literal, NamedTuple

from rallye.core.values import pickled_by_fields
from rallye.mille.cards import BATTLE_HAZARDS, RIGHT_OF_WAY, ROLL, SPEED_LIMIT
from rallye.mille.edition import SCORE_LINES, Edition

#: A match's phase: ``play`` (the player to act decides on a card), ``extend`` (the player
#: who reached the target decides to extend the hand or not), ``over`` (the match ended).
Phase = Literal["play", "extend", "over"]
PLAY_PHASE: Final = "play"
EXTEND_PHASE: Final = "extend"
OVER_PHASE: Final = "over"
#: Every phase, in the order a match meets them.
PHASES: Final[tuple[Phase, ...]] = (PLAY_PHASE, EXTEND_PHASE, OVER_PHASE)


class Tableau(NamedTuple):
    """One side's cards on the table (piles bottom first). Immutable (a named tuple: the
    engine's hot path builds many of them)."""

    battle: tuple[str, ...] = ()
    speed: tuple[str, ...] = ()
    distance: tuple[str, ...] = ()
    safeties: tuple[str, ...] = ()
    coups: tuple[str, ...] = ()  # those safeties laid crosswise, as coups fourrés
    km: int = 0
    d200: int = 0

    @property
    def battle_top(self) -> str | None:
        return self.battle[-1] if self.battle else None

    @property
    def speed_top(self) -> str | None:
        return self.speed[-1] if self.speed else None

    @property
    def rolling(self) -> bool:
        """Rule model, core "Rolling": ROLL on top, or RIGHT_OF_WAY and no hazard on top."""
        top = self.battle[-1] if self.battle else None
        if RIGHT_OF_WAY in self.safeties:
            return top not in BATTLE_HAZARDS
        return top == ROLL

    @property
    def limited(self) -> bool:
        """Under a speed limit (only 25 and 50 may be played)."""
        return bool(self.speed) and self.speed[-1] == SPEED_LIMIT and RIGHT_OF_WAY not in self.safeties

    def cards(self) -> tuple[str, ...]:
        return self.battle + self.speed + self.distance + self.safeties


class Event(NamedTuple):
    """A public happening of the current hand, for logs and the terminal's "last moves"."""

    seat: int
    kind: str  # play | attack | discard | coup_fourre | extend | decline | passed
    card: str | None = None
    side: int | None = None  # target side of an attack / side that benefits

    def __str__(self) -> str:
        who = f"P{self.seat + 1}"
        if self.kind == "attack":
            return f"{who} attack {(self.side or 0) + 1} {self.card}"
        if self.kind == "coup_fourre":
            return f"{who} coup fourré {self.card}"
        if self.card is None:
            return f"{who} {self.kind}"
        return f"{who} {self.kind} {self.card}"


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One hand's score lines per side (``rows[side][i]`` is ``SCORE_LINES[i]``)."""

    hand: int
    dealer: int
    rows: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]  # running totals after this hand
    completed_by: int | None  # side that completed the trip, if any
    extended_by: int | None  # side that called an extension, if any

    @property
    def hand_totals(self) -> tuple[int, ...]:
        return tuple(sum(r) for r in self.rows)

    def line(self, side: int, name: str) -> int:
        return self.rows[side][SCORE_LINES.index(name)]

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "dealer": self.dealer,
            "rows": [dict(zip(SCORE_LINES, r, strict=True)) for r in self.rows],
            "hand_totals": list(self.hand_totals),
            "totals": list(self.totals),
            "completed_by": self.completed_by,
            "extended_by": self.extended_by,
        }


class MilleState(NamedTuple):
    """The whole truth of a Mille Bornes match at one decision point.

    Immutable and compared by value (a named tuple, the cheapest immutable record in
    CPython: the engine builds one per decision).

    The draw pile is ``deck[draw_pos:]`` (top first); ``deck`` is this hand's dealt order,
    kept so a record can store it.
    """

    edition: Edition
    n_players: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    seed: int
    hand_no: int
    dealer: int
    deck: tuple[str, ...]
    draw_pos: int
    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    tableaus: tuple[Tableau, ...]
    target: int
    current: int
    phase: Phase
    cf_turn: bool = False  # the current turn is a coup-fourré turn (or extra turn from one)
    ran_out_this_turn: bool = False  # the draw pile ran out during the current turn
    extended_by: int | None = None
    events: tuple[Event, ...] = ()
    totals: tuple[int, ...] = ()
    sheets: tuple[ScoreSheet, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def draw_count(self) -> int:
        return len(self.deck) - self.draw_pos

    @property
    def draw_pile(self) -> tuple[str, ...]:
        return self.deck[self.draw_pos :]

    def tableau_of(self, seat: int) -> Tableau:
        return self.tableaus[self.side_of[seat]]


_FIELDS = MilleState._fields
_get_all = attrgetter(*_FIELDS)


class WorkingState:
    """A mutable working copy of a :class:`MilleState`: the same fields, each an immutable
    value, reassigned as the engine applies an action (``rallye.mille.engine.apply_in_place``).

    :func:`rallye.mille.engine.apply` makes one from a state, applies the action to it and
    freezes it again; it never escapes ``apply``. :class:`rallye.mille.playout.Playout` is
    one kept across moves (the fast path for simulation). The engine's rules and views read
    either this or a state (the fields are the same)."""

    __slots__ = _FIELDS
    edition: Edition
    n_players: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    seed: int
    hand_no: int
    dealer: int
    deck: tuple[str, ...]
    draw_pos: int
    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    tableaus: tuple[Tableau, ...]
    target: int
    current: int
    phase: Phase
    cf_turn: bool
    ran_out_this_turn: bool
    extended_by: int | None
    events: tuple[Event, ...]
    totals: tuple[int, ...]
    sheets: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]

    def __init__(self, state: MilleState) -> None:
        self.load(state)

    # ``load`` unpacks the state into the slots in one statement (a loop of setattr calls
    # was the engine's single largest cost); the targets are the fields in order
    # (``tests/mille/test_playout.py`` checks them against ``MilleState._fields``). It is
    # not ``__init__`` called again on a working copy in use: compiled (scripts/compile),
    # ``__init__``'s assignments take the slots for empty and do not release what they
    # held, so every state taken over that way would leak.
    def load(self, state: MilleState) -> None:
        """Take over ``state`` (play then continues from it)."""
        (
            self.edition,
            self.n_players,
            self.sides,
            self.side_of,
            self.seed,
            self.hand_no,
            self.dealer,
            self.deck,
            self.draw_pos,
            self.hands,
            self.discard,
            self.tableaus,
            self.target,
            self.current,
            self.phase,
            self.cf_turn,
            self.ran_out_this_turn,
            self.extended_by,
            self.events,
            self.totals,
            self.sheets,
            self.winners,
        ) = state

    def freeze(self) -> MilleState:
        """The immutable state these fields make now."""
        state: MilleState = MilleState._make(_get_all(self))
        return state

    @property
    def draw_count(self) -> int:
        return len(self.deck) - self.draw_pos


#: pickling of the frozen values once compiled (scripts/compile)
pickled_by_fields(ScoreSheet)
