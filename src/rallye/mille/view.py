"""What one player may see: the only way secrets leave the engine [DESIGN habit 8].

A :class:`MilleView` holds the player's own hand, every side's tableau, the discard pile
(face up, so public), how many cards each player holds and the draw pile holds, whose turn
it is, this hand's public events and the score sheets. It never holds another player's
cards, nor the draw pile's order, nor the seed.

The JSON form (``to_json``; documented field by field in ``docs/view-json.md``) is what
``rallye bot`` reads, and ``MilleView.from_json(v.to_json()) == v``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rallye.core.errors import GameError, RecordError
from rallye.core.values import frozen_builder, pickled_by_fields
from rallye.mille.cards import CARDS, DISTANCE_KM
from rallye.mille.edition import SCORE_LINES, Edition, builtin_edition, parse_edition
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, PLAY_PHASE, Event, MilleState, ScoreSheet, Tableau

if TYPE_CHECKING:  # the engine's working copy (a playout) has a state's fields
    from rallye.mille.engine import _W

PHASES = (PLAY_PHASE, EXTEND_PHASE, OVER_PHASE)
#: The most cards a hand holds: six dealt, and one drawn when the turn begins.
MAX_HAND = 7

VIEW_VERSION = 1


@dataclass(frozen=True, slots=True)
class MilleView:
    edition: Edition
    n_players: int
    seat: int
    side: int
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    tableaus: tuple[Tableau, ...]
    discard: tuple[str, ...]
    draw_count: int
    deck_size: int
    current: int
    phase: str
    target: int
    cf_turn: bool
    extended_by: int | None
    hand_no: int
    dealer: int
    events: tuple[Event, ...]
    totals: tuple[int, ...]
    sheets: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]

    @property
    def my_tableau(self) -> Tableau:
        return self.tableaus[self.side]

    @property
    def is_my_turn(self) -> bool:
        return self.current == self.seat and self.phase != "over"

    def unseen_counts(self) -> dict[str, int]:
        """Cards this player has not seen: in others' hands or the draw pile (by id)."""
        left = _counts(self.edition.deck_for(self.n_players))
        for c in self.hand + self.discard:
            left[c] -= 1
        for t in self.tableaus:
            for c in t.cards():
                left[c] -= 1
        return left

    # -- JSON ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = self._json()
        if not self.edition.is_builtin:  # a house-rule edition: the whole of it
            out["edition_data"] = self.edition.to_json()
        return out

    def _json(self) -> dict[str, Any]:
        return {
            "version": VIEW_VERSION,
            "game": "mille",
            "edition": self.edition.key,
            "n_players": self.n_players,
            "seat": self.seat,
            "side": self.side,
            "sides": [list(s) for s in self.sides],
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "tableaus": [
                {
                    "battle": list(t.battle),
                    "speed": list(t.speed),
                    "distance": list(t.distance),
                    "safeties": list(t.safeties),
                    "coups": list(t.coups),
                    "km": t.km,
                    "d200": t.d200,
                }
                for t in self.tableaus
            ],
            "discard": list(self.discard),
            "draw_count": self.draw_count,
            "deck_size": self.deck_size,
            "current": self.current,
            "phase": self.phase,
            "target": self.target,
            "cf_turn": self.cf_turn,
            "extended_by": self.extended_by,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "events": [{"seat": e.seat, "kind": e.kind, "card": e.card, "side": e.side} for e in self.events],
            "totals": list(self.totals),
            "sheets": [s.to_json() for s in self.sheets],
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Any) -> MilleView:
        """Rebuild a view from its JSON form; a malformed one is a :class:`RecordError`."""
        try:
            if not isinstance(data, dict):
                raise TypeError("a view must be a JSON object")
            if data.get("game") != "mille":
                raise ValueError("field 'game' must be 'mille'")
            if data.get("version") != VIEW_VERSION:
                raise ValueError(f"field 'version' must be {VIEW_VERSION}")
            if not isinstance(data.get("edition"), str):
                raise ValueError("field 'edition' must be an edition key")
            if "edition_data" in data:
                ed = parse_edition(data["edition_data"], source="field 'edition_data'")
                if ed.key != data["edition"]:
                    raise ValueError("field 'edition_data' holds another edition than field 'edition' names")
            else:
                ed = builtin_edition(data["edition"])

            def cards(xs: Any, name: str) -> tuple[str, ...]:
                if not isinstance(xs, list) or not all(x in CARDS for x in xs):
                    raise ValueError(f"field '{name}' must be a list of card ids")
                return tuple(xs)

            def one(x: Any, name: str) -> int:
                if not isinstance(x, int) or isinstance(x, bool):
                    raise ValueError(f"field '{name}' must be an integer")
                return x

            def opt(x: Any, name: str) -> int | None:
                return None if x is None else one(x, name)

            def ints(xs: Any, name: str) -> tuple[int, ...]:
                if not isinstance(xs, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in xs):
                    raise ValueError(f"field '{name}' must be a list of integers")
                return tuple(xs)

            tabs = tuple(
                Tableau(
                    battle=cards(t["battle"], "tableaus.battle"),
                    speed=cards(t["speed"], "tableaus.speed"),
                    distance=cards(t["distance"], "tableaus.distance"),
                    safeties=cards(t["safeties"], "tableaus.safeties"),
                    coups=cards(t["coups"], "tableaus.coups"),
                    km=one(t["km"], "tableaus.km"),
                    d200=one(t["d200"], "tableaus.d200"),
                )
                for t in data["tableaus"]
            )
            sheets = tuple(
                ScoreSheet(
                    hand=one(s["hand"], "sheets.hand"),
                    dealer=one(s["dealer"], "sheets.dealer"),
                    rows=tuple(tuple(one(r[k], f"sheets.rows.{k}") for k in SCORE_LINES) for r in s["rows"]),
                    totals=ints(s["totals"], "sheets.totals"),
                    completed_by=opt(s["completed_by"], "sheets.completed_by"),
                    extended_by=opt(s["extended_by"], "sheets.extended_by"),
                )
                for s in data["sheets"]
            )
            view = cls(
                edition=ed,
                n_players=one(data["n_players"], "n_players"),
                seat=one(data["seat"], "seat"),
                side=one(data["side"], "side"),
                sides=tuple(ints(s, "sides") for s in data["sides"]),
                hand=cards(data["hand"], "hand"),
                hand_sizes=ints(data["hand_sizes"], "hand_sizes"),
                tableaus=tabs,
                discard=cards(data["discard"], "discard"),
                draw_count=one(data["draw_count"], "draw_count"),
                deck_size=one(data["deck_size"], "deck_size"),
                current=one(data["current"], "current"),
                phase=data["phase"] if isinstance(data["phase"], str) else "",
                target=one(data["target"], "target"),
                cf_turn=_flag(data["cf_turn"], "cf_turn"),
                extended_by=opt(data["extended_by"], "extended_by"),
                hand_no=one(data["hand_no"], "hand_no"),
                dealer=one(data["dealer"], "dealer"),
                events=tuple(
                    Event(one(e["seat"], "events.seat"), str(e["kind"]), e["card"], opt(e["side"], "events.side"))
                    for e in data["events"]
                ),
                totals=ints(data["totals"], "totals"),
                sheets=sheets,
                winners=ints(data["winners"], "winners"),
            )
        except KeyError as exc:
            raise RecordError(f"view JSON: missing field {exc.args[0]!r}", rule="view-json") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"view JSON: {exc}", rule="view-json") from None
        except GameError as exc:
            raise RecordError(f"view JSON: {exc.message}", rule="view-json") from None
        problem = _impossible(view)
        if problem:
            raise RecordError(f"view JSON: {problem}", rule="view-json")
        return view


def _flag(x: Any, name: str) -> bool:
    if not isinstance(x, bool):
        raise ValueError(f"field '{name}' must be true or false")
    return x


def _impossible(v: MilleView) -> str | None:
    """What makes a well-typed view impossible, if anything."""
    n = v.n_players
    if n not in v.edition.players:
        return f"{v.edition.key} is not played by {n} players"
    if v.sides != v.edition.sides_for(n):
        return f"field 'sides' is not {v.edition.key}'s layout for {n} players"
    if not 0 <= v.seat < n or not 0 <= v.current < n or not 0 <= v.dealer < n:
        return f"seat, current and dealer must be seats 0..{n - 1}"
    if not 0 <= v.side < len(v.sides) or v.seat not in v.sides[v.side]:
        return f"field 'side' is not seat {v.seat}'s side"
    if len(v.hand_sizes) != n or v.hand_sizes[v.seat] != len(v.hand):
        return "field 'hand_sizes' does not fit the players and the hand"
    if len(v.tableaus) != len(v.sides):
        return "one tableau per side is needed"
    if len(v.totals) != len(v.sides):
        return "one running total per side is needed"
    if v.phase not in PHASES:
        return f"field 'phase' must be one of {list(PHASES)}"
    if v.extended_by is not None and not (isinstance(v.extended_by, int) and 0 <= v.extended_by < len(v.sides)):
        return "field 'extended_by' must be a side or null"
    if not 0 <= v.draw_count <= v.deck_size:
        return "field 'draw_count' must lie between 0 and deck_size"
    if v.hand_no < 0 or any(h < 0 for h in v.hand_sizes):
        return "counts must not be negative"
    for e in v.events:
        if e.card is not None and e.card not in CARDS:
            return f"event card {e.card!r} is not a card id"
        if not 0 <= e.seat < n:
            return f"event seat {e.seat} is not a seat"
    if any(w < 0 or w >= len(v.sides) for w in v.winners):
        return "field 'winners' must list sides"
    return _impossible_cards(v)


def _impossible_cards(v: MilleView) -> str | None:
    """What makes a view's cards impossible: more than a hand can hold, more of a card than
    the deck has, cards that do not add up to the deck, a distance that is not its pile's."""
    ed, n = v.edition, v.n_players
    for seat, size in enumerate(v.hand_sizes):
        if size > MAX_HAND:
            return f"P{seat + 1} holds {size} cards; a hand holds at most {MAX_HAND} (6 dealt and 1 drawn)"
    deck = ed.deck_for(n)
    if v.deck_size != len(deck):
        return f"field 'deck_size' is {v.deck_size}; the {ed.key} deck for {n} players has {len(deck)} cards"
    left = v.unseen_counts()
    for card in CARDS:
        if left[card] < 0:
            return (
                f"the view shows {deck.count(card) - left[card]} {card}; the {ed.key} deck for {n} players"
                f" has {deck.count(card)}"
            )
    hidden = sum(size for seat, size in enumerate(v.hand_sizes) if seat != v.seat) + v.draw_count
    if sum(left.values()) != hidden:
        return (
            f"the cards do not add up to the deck: {sum(left.values())} unseen, but the others' hands and the draw"
            f" pile hold {hidden}"
        )
    targets = (ed.target_for(len(v.sides[0])),) + ((ed.extension.to_km,) if ed.extension.allowed else ())
    if v.target not in targets:
        return f"field 'target' is {v.target}; {ed.key} plays to {' or '.join(map(str, targets))} km"
    for i, t in enumerate(v.tableaus):
        if t.km > v.target:
            return f"side {i}'s 'km' is {t.km}, beyond the target of {v.target}"
        km = sum(DISTANCE_KM.get(c, 0) for c in t.distance)
        if any(c not in DISTANCE_KM for c in t.distance) or t.km != km:
            return f"side {i}'s 'km' is {t.km}, but its distance pile adds up to {km}"
        if t.d200 != t.distance.count("D200") or t.d200 > 2:
            return f"side {i}'s 'd200' is {t.d200}; its distance pile holds {t.distance.count('D200')} (at most 2)"
        if any(c not in t.safeties for c in t.coups):
            return f"side {i}'s 'coups' must be some of its 'safeties'"
    return None


def _counts(cards: tuple[str, ...]) -> dict[str, int]:
    out = dict.fromkeys(CARDS, 0)
    for c in cards:
        out[c] += 1
    return out


#: ``MilleView(*fields)`` (positional, in field order) without the frozen ``__init__``'s
#: cost: bots and the RL encoders ask for a view on every decision.
_build = frozen_builder(MilleView)


def view_for(state: MilleState | _W, player: int) -> MilleView:
    """The view of seat ``player`` (0-based) of a state (or of a playout: the same fields)."""
    n = state.n_players
    if not 0 <= player < n:
        raise ValueError(f"no seat {player}; seats are 0..{n - 1}")
    hands = state.hands
    deck = state.deck
    view: MilleView = _build(
        state.edition,
        n,
        player,
        state.side_of[player],
        state.sides,
        hands[player],
        tuple(map(len, hands)),
        state.tableaus,
        state.discard,
        len(deck) - state.draw_pos,
        len(deck),
        state.current,
        state.phase,
        state.target,
        state.cf_turn,
        state.extended_by,
        state.hand_no,
        state.dealer,
        state.events,
        state.totals,
        state.sheets,
        state.winners,
    )
    return view


#: pickling of the frozen values once compiled (scripts/compile)
pickled_by_fields(MilleView)
