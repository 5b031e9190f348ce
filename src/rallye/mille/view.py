"""What one player may see: the only way secrets leave the engine [DESIGN habit 8].

A :class:`MilleView` holds the player's own hand, every side's tableau, the discard pile
(face up, so public), how many cards each player holds and the draw pile holds, whose turn
it is, this hand's public events and the score sheets. It never holds another player's
cards, nor the draw pile's order, nor the seed.

The JSON form (``to_json``; documented field by field in ``docs/view-json.md``) is what
``rallye bot`` reads, and ``MilleView.from_json(v.to_json()) == v``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from rallye.core.errors import GameError, RecordError
from rallye.core.values import frozen_builder, pickled_by_fields
from rallye.mille.cards import CARDS, DISTANCE_KM
from rallye.mille.edition import SCORE_LINES, Edition, builtin_edition, parse_edition
from rallye.mille.state import OVER_PHASE, PHASES, Event, MilleState, Phase, ScoreSheet, Tableau, WorkingState

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
    phase: Phase
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
        return self.current == self.seat and self.phase != OVER_PHASE

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

            def obj(x: Any, name: str) -> dict[str, Any]:
                if not isinstance(x, dict):
                    raise ValueError(f"field '{name}' must be an object")
                return x

            def items(x: Any, name: str) -> list[Any]:
                if not isinstance(x, list):
                    raise ValueError(f"field '{name}' must be a list")
                return x

            def get(d: Any, key: str, path: str = "") -> Any:
                where = f"{path}.{key}" if path else key
                if key not in obj(d, path or "view"):
                    raise ValueError(f"missing field '{where}'")
                return d[key]

            def tableau(t: Any, at: str) -> Tableau:
                piles = {
                    k: cards(get(t, k, at), f"{at}.{k}") for k in ("battle", "speed", "distance", "safeties", "coups")
                }
                return Tableau(
                    **piles, km=one(get(t, "km", at), f"{at}.km"), d200=one(get(t, "d200", at), f"{at}.d200")
                )

            def sheet(sh: Any, at: str) -> ScoreSheet:
                rows = tuple(
                    tuple(one(get(r, k, f"{at}.rows[{j}]"), f"{at}.rows[{j}].{k}") for k in SCORE_LINES)
                    for j, r in enumerate(items(get(sh, "rows", at), f"{at}.rows"))
                )
                return ScoreSheet(
                    hand=one(get(sh, "hand", at), f"{at}.hand"),
                    dealer=one(get(sh, "dealer", at), f"{at}.dealer"),
                    rows=rows,
                    totals=ints(get(sh, "totals", at), f"{at}.totals"),
                    completed_by=opt(get(sh, "completed_by", at), f"{at}.completed_by"),
                    extended_by=opt(get(sh, "extended_by", at), f"{at}.extended_by"),
                )

            def event(e: Any, at: str) -> Event:
                kind, card = get(e, "kind", at), get(e, "card", at)
                if not isinstance(kind, str):
                    raise ValueError(f"field '{at}.kind' must be a string")
                if card is not None and card not in CARDS:
                    raise ValueError(f"field '{at}.card' must be a card id or null")
                return Event(one(get(e, "seat", at), f"{at}.seat"), kind, card, opt(get(e, "side", at), f"{at}.side"))

            tabs = tuple(tableau(t, f"tableaus[{i}]") for i, t in enumerate(items(get(data, "tableaus"), "tableaus")))
            sheets = tuple(sheet(sh, f"sheets[{i}]") for i, sh in enumerate(items(get(data, "sheets"), "sheets")))
            events = tuple(event(e, f"events[{i}]") for i, e in enumerate(items(get(data, "events"), "events")))
            phase = get(data, "phase")
            if not isinstance(phase, str):
                raise ValueError("field 'phase' must be a string")

            def top(name: str, read: Callable[[Any, str], Any] = one) -> Any:
                return read(get(data, name), name)

            view = cls(
                edition=ed,
                n_players=top("n_players"),
                seat=top("seat"),
                side=top("side"),
                sides=tuple(ints(x, f"sides[{i}]") for i, x in enumerate(items(get(data, "sides"), "sides"))),
                hand=top("hand", cards),
                hand_sizes=top("hand_sizes", ints),
                tableaus=tabs,
                discard=top("discard", cards),
                draw_count=top("draw_count"),
                deck_size=top("deck_size"),
                current=top("current"),
                phase=cast(Phase, phase),  # one of PHASES: _impossible refuses any other
                target=top("target"),
                cf_turn=top("cf_turn", _flag),
                extended_by=top("extended_by", opt),
                hand_no=top("hand_no"),
                dealer=top("dealer"),
                events=events,
                totals=top("totals", ints),
                sheets=sheets,
                winners=top("winners", ints),
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
    if any(w < 0 or w >= len(v.sides) for w in v.winners) or len(set(v.winners)) != len(v.winners):
        return "field 'winners' must list sides, each once"
    if v.winners and v.phase != OVER_PHASE:
        return f"field 'winners' lists sides while the match goes on (phase '{v.phase}')"
    return _impossible_scores(v) or _impossible_cards(v)


def _impossible_scores(v: MilleView) -> str | None:
    """What makes a view's score sheets impossible: a sheet per hand played, in order, its
    running totals the sum of its hands, no negative line but the distance left in hand
    (and that only in an edition that subtracts it), the totals those of the last sheet."""
    sides = len(v.sides)
    played = v.hand_no + (1 if v.phase == OVER_PHASE else 0)  # the last hand's sheet ends the match
    if len(v.sheets) != played:
        return f"field 'sheets' holds {len(v.sheets)} score sheets, but {played} hands have been scored"
    penalty = SCORE_LINES.index("hand_penalty")
    running = [0] * sides
    for i, sh in enumerate(v.sheets):
        at = f"sheets[{i}]"
        if sh.hand != i or len(sh.rows) != sides or len(sh.totals) != sides:
            return f"field '{at}' must be hand {i}'s sheet, with a row and a total per side"
        if not 0 <= sh.dealer < v.n_players:
            return f"field '{at}.dealer' must be a seat"
        for j, row in enumerate(sh.rows):
            for k, value in enumerate(row):
                if value > 0 if k == penalty else value < 0:
                    way = "above" if value > 0 else "below"
                    return f"field '{at}.rows[{j}].{SCORE_LINES[k]}' is {value}: it cannot be {way} 0"
            if row[penalty] and not v.edition.subtract_distance_in_hand:
                return f"field '{at}.rows[{j}].hand_penalty' is {row[penalty]}; {v.edition.key} subtracts nothing"
        running = [t + sum(row) for t, row in zip(running, sh.rows, strict=True)]
        if list(sh.totals) != running:
            return f"field '{at}.totals' is {list(sh.totals)}; its hands add up to {running}"
        for name, who in (("completed_by", sh.completed_by), ("extended_by", sh.extended_by)):
            if who is not None and not 0 <= who < sides:
                return f"field '{at}.{name}' must be a side or null"
    if list(v.totals) != running:
        return f"field 'totals' is {list(v.totals)}, but the score sheets add up to {running}"
    return None


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


def view_for(state: MilleState | WorkingState, player: int) -> MilleView:
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
