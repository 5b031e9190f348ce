"""The Mille Bornes rules engine: pure functions over :class:`MilleState`.

Rule references in brackets name the clauses of ``shared/rules/mille-bornes.md``.

``legal_actions`` order (pinned by ``tests/data/mille_legal_order.json``):

1. in the extension phase: ``extend``, then ``decline``;
2. otherwise: every ``play`` the rules allow, by card (``CARDS`` order); then every
   ``attack``, by hazard (``CARDS`` order) then target side (ascending); then a ``discard``
   of each distinct card in hand (``CARDS`` order).

Turns: the engine draws for the player at the start of their turn (the draw is no
decision), so a player to act holds 7 cards while the draw pile lasts. A coup fourré is
declared automatically [core: Coup fourré, Resolution (declaring)]; the next hand is dealt
automatically when a hand ends and the match goes on.

>>> s = new_match("wm2006", 2, seed=1)
>>> s.current, len(s.hands[0]), s.draw_count
(0, 7, 89)
>>> a = legal_actions(s)[0]
>>> s2 = apply(s, a)
>>> s2 is not s and len(s.hands[0]) == 7
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rallye.core.errors import GameOver, IllegalAction, NotYourTurn
from rallye.core.rng import Rng
from rallye.mille.actions import ATTACK, ATTACK_HAZARDS, DECLINE, DISCARD, EXTEND, PLAY, Action
from rallye.mille.cards import (
    BATTLE_HAZARDS,
    CARD_INDEX,
    D25,
    D50,
    D200,
    DISTANCE_KM,
    END_OF_LIMIT,
    HAZARDS,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_AGAINST,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from rallye.mille.edition import Edition, get_edition
from rallye.mille.scoring import score_hand
from rallye.mille.state import (
    EXTEND_PHASE,
    OVER_PHASE,
    PLAY_PHASE,
    Event,
    MilleState,
    ScoreSheet,
    Tableau,
)

HAND_SIZE = 6
MAX_EVENTS = 24
_ROLL_ONTO = frozenset({None, STOP, "GASOLINE", "SPARE_TIRE", "REPAIRS"})
_EMPTY = Tableau()


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


def _remove(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _insert(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    k = CARD_INDEX[card]
    for i, c in enumerate(hand):
        if CARD_INDEX[c] > k:
            return hand[:i] + (card,) + hand[i:]
    return hand + (card,)


# -- dealing -------------------------------------------------------------------------
def shuffled_deck(edition: Edition, players: int, seed: int, hand_no: int) -> tuple[str, ...]:
    """The deck order (top first) of hand ``hand_no`` of a match with this seed."""
    deck, _ = Rng.from_seed("mille", seed, hand_no).shuffle(edition.deck_for(players))
    return deck


def deal_from(deck: tuple[str, ...], players: int, dealer: int) -> tuple[tuple[str, ...], ...]:
    """Deal 6 cards each, one at a time, starting left of the dealer [core: Deal]."""
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    for _ in range(HAND_SIZE):
        for k in range(1, players + 1):
            hands[(dealer + k) % players].append(deck[pos])
            pos += 1
    return tuple(_sorted(h) for h in hands)


def _start_hand(
    ed: Edition,
    players: int,
    sides: tuple[tuple[int, ...], ...],
    side_of: tuple[int, ...],
    seed: int,
    hand_no: int,
    dealer: int,
    totals: tuple[int, ...],
    sheets: tuple[ScoreSheet, ...],
    deck: tuple[str, ...] | None = None,
) -> MilleState:
    if deck is None:
        deck = shuffled_deck(ed, players, seed, hand_no)
    hands = deal_from(deck, players, dealer)
    first = (dealer + 1) % players
    target = ed.target_for(len(sides[0]))
    state = MilleState(
        edition=ed,
        n_players=players,
        sides=sides,
        side_of=side_of,
        seed=seed,
        hand_no=hand_no,
        dealer=dealer,
        deck=deck,
        draw_pos=HAND_SIZE * players,
        hands=hands,
        discard=(),
        tableaus=tuple(_EMPTY for _ in sides),
        target=target,
        current=first,
        phase=PLAY_PHASE,
        totals=totals,
        sheets=sheets,
    )
    return _begin_turn(state, first, cf_turn=False)


def new_match(
    edition: str | Edition, players: int, seed: int = 0, *, deck: tuple[str, ...] | None = None
) -> MilleState:
    """A new match; the first hand is dealt by the last seat, so seat 0 starts.

    ``deck`` replaces the seeded shuffle of the first hand (records and tests use it).
    """
    ed = get_edition(edition)
    sides = ed.sides_for(players)
    side_of = tuple(next(i for i, s in enumerate(sides) if seat in s) for seat in range(players))
    if deck is not None:
        check_deck(ed, players, deck)
    return _start_hand(ed, players, sides, side_of, seed, 0, players - 1, (0,) * len(sides), (), deck)


def check_deck(ed: Edition, players: int, deck: Sequence[str]) -> None:
    """A supplied deck order must hold exactly this game's cards."""
    if sorted(deck, key=CARD_INDEX.get) != sorted(ed.deck_for(players), key=CARD_INDEX.get):  # type: ignore[arg-type]
        raise IllegalAction(
            f"the deck order does not hold exactly the {len(ed.deck_for(players))} cards of "
            f"{ed.key} with {players} players",
            rule="deck",
        )


def current_player(state: MilleState) -> int | None:
    return None if state.phase == OVER_PHASE else state.current


def is_over(state: MilleState) -> bool:
    return state.phase == OVER_PHASE


# -- legality ------------------------------------------------------------------------
def why_illegal_play(tab: Tableau, card: str, target: int) -> tuple[str, str] | None:
    """``(rule, reason)`` if ``card`` cannot go on this own tableau, else ``None``."""
    if card in DISTANCE_KM:
        if not tab.rolling:
            top = tab.battle_top
            why = "no Roll card on the battle pile" if top is None or top not in BATTLE_HAZARDS else f"{top} lies on the battle pile"
            return "rolling", f"distance needs a rolling side: {why}"
        if tab.limited and card not in (D25, D50):
            return "speed-limit", "under a speed limit only 25 and 50 may be played"
        if card == D200 and tab.d200 >= 2:
            return "two-200s", "two 200 km cards already played this hand"
        if tab.km + DISTANCE_KM[card] > target:
            return "exact-distance", f"{tab.km} + {DISTANCE_KM[card]} would pass the target {target}"
        return None
    if card in SAFETIES:
        return None
    if card == ROLL:
        if RIGHT_OF_WAY in tab.safeties:
            return "roll-with-right-of-way", "a side with Right of Way needs no Roll card"
        if tab.battle_top not in _ROLL_ONTO:
            return "roll-onto", f"Roll goes only on an empty pile, Stop or a remedy, not on {tab.battle_top}"
        return None
    if card == END_OF_LIMIT:
        if tab.speed_top != SPEED_LIMIT:
            return "remedy-matches", "End of Limit goes only onto a Speed Limit"
        return None
    if card in REMEDY_FOR:
        hazard = REMEDY_FOR[card]
        if tab.battle_top != hazard:
            return "remedy-matches", f"{card} goes only onto {hazard} on your own battle pile"
        return None
    return "hazard-on-opponent", f"{card} is a hazard: attack an opposing side with it"


def why_illegal_attack(tab: Tableau, card: str) -> tuple[str, str] | None:
    """``(rule, reason)`` if hazard ``card`` cannot go onto this opposing tableau."""
    safety = SAFETY_FOR[card]
    if safety in tab.safeties:
        return "attack-safety", f"that side holds {safety} on its tableau"
    if card == SPEED_LIMIT:
        if tab.speed_top == SPEED_LIMIT:
            return "attack-speed-twice", "that side is already under a speed limit"
        return None
    if not tab.rolling:
        top = tab.battle_top
        if top in BATTLE_HAZARDS:
            return "hazard-on-hazard", f"{top} already lies on that side's battle pile"
        return "attack-rolling", "that side is not rolling"
    return None


def _legal_from(
    hand: Sequence[str], my_side: int, tableaus: Sequence[Tableau], target: int
) -> tuple[Action, ...]:
    tab = tableaus[my_side]
    distinct: list[str] = []
    for c in hand:
        if not distinct or distinct[-1] != c:
            distinct.append(c)
    plays = [PLAY[c] for c in distinct if c not in HAZARDS and why_illegal_play(tab, c, target) is None]
    attacks = [
        ATTACK[(c, s)]
        for c in distinct
        if c in HAZARDS
        for s, t in enumerate(tableaus)
        if s != my_side and why_illegal_attack(t, c) is None
    ]
    return (*plays, *attacks, *(DISCARD[c] for c in distinct))


def legal_actions(state: MilleState) -> tuple[Action, ...]:
    """Every action the player to act may take, in the documented order."""
    if state.phase == PLAY_PHASE:
        seat = state.current
        return _legal_from(state.hands[seat], state.side_of[seat], state.tableaus, state.target)
    if state.phase == EXTEND_PHASE:
        return (EXTEND, DECLINE)
    return ()


def legal_from_view(view: object) -> tuple[Action, ...]:
    """The legal actions, computed from a player's view (for bots and bot processes)."""
    from rallye.mille.view import MilleView

    if not isinstance(view, MilleView) or view.seat != view.current:
        return ()
    if view.phase == EXTEND_PHASE:
        return (EXTEND, DECLINE)
    if view.phase != PLAY_PHASE:
        return ()
    return _legal_from(view.hand, view.side, view.tableaus, view.target)


def explain(state: MilleState, action: Action) -> tuple[str, str] | None:
    """``(rule, reason)`` why ``action`` is illegal now, or ``None`` if it is legal."""
    if state.phase == OVER_PHASE:
        return "match-over", "the match is over"
    if state.phase == EXTEND_PHASE:
        if action.verb in ("extend", "decline"):
            return None
        return "extension-decision", "decide first: 'extend' the hand to 1000 or 'decline'"
    if action.verb in ("extend", "decline"):
        return "extension-decision", "no extension decision is pending"
    seat = state.current
    if action.card is None or action.card not in state.hands[seat]:
        return "in-hand", f"{action.card} is not in P{seat + 1}'s hand"
    my_side = state.side_of[seat]
    if action.verb == "discard":
        return None
    if action.verb == "play":
        return why_illegal_play(state.tableaus[my_side], action.card, state.target)
    side = action.side if action.side is not None else -1
    if not 0 <= side < len(state.sides):
        return "attack-side", f"there is no side {side + 1}; sides are 1..{len(state.sides)}"
    if side == my_side:
        return "attack-own-side", "hazards go onto an opposing side, not your own"
    return why_illegal_attack(state.tableaus[side], action.card)


def check(state: MilleState, action: Action) -> None:
    """Raise the fitting :class:`IllegalAction` if ``action`` is illegal now."""
    why = explain(state, action)
    if why is None:
        return
    rule, reason = why
    exc = GameOver if rule == "match-over" else IllegalAction
    raise exc(f"illegal '{action}' by P{state.current + 1}: {reason}", rule=rule)


# -- applying ------------------------------------------------------------------------
def apply_as(state: MilleState, player: int, action: Action) -> MilleState:
    """``apply`` on behalf of ``player``; a player out of turn gets :class:`NotYourTurn`."""
    if state.phase != OVER_PHASE and player != state.current:
        raise NotYourTurn(
            f"illegal '{action}' by P{player + 1}: it is P{state.current + 1}'s turn", rule="turn-order"
        )
    return apply(state, action)


def apply(state: MilleState, action: Action) -> MilleState:
    """The state after ``action`` by the current player; ``state`` is left unchanged."""
    check(state, action)
    seat = state.current
    if action.verb == "extend":
        ed = state.edition
        side = state.side_of[seat]
        s = _replace(state, target=ed.extension.to_km, extended_by=side, phase=PLAY_PHASE)
        s = _log(s, Event(seat, "extend", None, side))
        return _end_turn(s, extra=False)
    if action.verb == "decline":
        s = _log(state, Event(seat, "decline", None, state.side_of[seat]))
        return _end_hand(s, completed_by=state.side_of[seat])
    card = action.card
    assert card is not None  # checked above
    hands = list(state.hands)
    hands[seat] = _remove(hands[seat], card)
    if action.verb == "discard":
        s = _replace(state, hands=tuple(hands), discard=state.discard + (card,))
        return _end_turn(_log(s, Event(seat, "discard", card)), extra=False)
    if action.verb == "attack":
        assert action.side is not None
        return _attack(state, tuple(hands), seat, card, action.side)
    return _play_own(state, tuple(hands), seat, card)


def _replace(state: MilleState, **changes: object) -> MilleState:
    return state._replace(**changes)  # type: ignore[arg-type]


def _log(state: MilleState, event: Event) -> MilleState:
    events = state.events + (event,)
    if len(events) > MAX_EVENTS:
        events = events[-MAX_EVENTS:]
    return _replace(state, events=events)


def _with_tableau(tableaus: tuple[Tableau, ...], side: int, tab: Tableau) -> tuple[Tableau, ...]:
    return tableaus[:side] + (tab,) + tableaus[side + 1 :]


def _lay_safety(tab: Tableau, card: str, discard: tuple[str, ...], coup: bool) -> tuple[Tableau, tuple[str, ...]]:
    """Put a safety on a tableau; a matching hazard on top goes to the discard pile [core: Safeties]."""
    against = SAFETY_AGAINST[card]
    battle, speed = tab.battle, tab.speed
    if battle and battle[-1] in against:
        discard += (battle[-1],)
        battle = battle[:-1]
    if speed and speed[-1] in against:
        discard += (speed[-1],)
        speed = speed[:-1]
    tab = Tableau(
        battle=battle,
        speed=speed,
        distance=tab.distance,
        safeties=tab.safeties + (card,),
        coups=tab.coups + ((card,) if coup else ()),
        km=tab.km,
        d200=tab.d200,
    )
    return tab, discard


def _play_own(state: MilleState, hands: tuple[tuple[str, ...], ...], seat: int, card: str) -> MilleState:
    side = state.side_of[seat]
    tab = state.tableaus[side]
    discard = state.discard
    extra = False
    if card in DISTANCE_KM:
        tab = Tableau(
            tab.battle, tab.speed, tab.distance + (card,), tab.safeties, tab.coups,
            tab.km + DISTANCE_KM[card], tab.d200 + (card == D200),
        )  # fmt: skip
    elif card in SAFETIES:
        tab, discard = _lay_safety(tab, card, discard, coup=False)
        ed = state.edition
        extra = ed.extra_turn_after_safety or (state.cf_turn and ed.extra_turn_after_safety_in_coup_fourre_turn)
    elif card == END_OF_LIMIT:
        tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
    else:  # ROLL and the battle remedies
        tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
    s = _replace(state, hands=hands, discard=discard, tableaus=_with_tableau(state.tableaus, side, tab))
    s = _log(s, Event(seat, "play", card))
    if card in DISTANCE_KM and tab.km == state.target:
        return _reached_target(s, seat)
    return _end_turn(s, extra=extra)


def _extension_open(state: MilleState, seat: int) -> bool:
    ex = state.edition.extension
    side = state.side_of[seat]
    return (
        ex.allowed
        and state.extended_by is None
        and state.target == ex.from_km
        and (not ex.alone_only or len(state.sides[side]) == 1)
        and not (ex.ends_on_empty_draw and state.draw_count == 0)
    )


def _reached_target(state: MilleState, seat: int) -> MilleState:
    """[core: End of the trip] the hand ends, unless the player may extend [table: extension]."""
    if _extension_open(state, seat):
        return _replace(state, phase=EXTEND_PHASE)
    return _end_hand(state, completed_by=state.side_of[seat])


def _attack(state: MilleState, hands: tuple[tuple[str, ...], ...], seat: int, card: str, side: int) -> MilleState:
    safety = SAFETY_FOR[card]
    defender = next((p for p in state.sides[side] if safety in hands[p]), None)
    s = _log(state, Event(seat, "attack", card, side))
    if defender is None:
        tab = state.tableaus[side]
        if card == SPEED_LIMIT:
            tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
        else:
            tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
        s = _replace(s, hands=hands, tableaus=_with_tableau(state.tableaus, side, tab))
        return _end_turn(s, extra=False)
    # [core: Coup fourré] automatic, out of turn: the hazard is discarded, the safety laid crosswise.
    hl = list(hands)
    hl[defender] = _remove(hl[defender], safety)
    tab, discard = _lay_safety(state.tableaus[side], safety, state.discard + (card,), coup=True)
    s = _replace(s, hands=tuple(hl), discard=discard, tableaus=_with_tableau(state.tableaus, side, tab))
    s = _log(s, Event(defender, "coup_fourre", safety, side))
    if _ends_on_empty(s) and s.ran_out_this_turn:
        # meilen: the turn that drew the last card ends the hand; the coup fourré is scored
        # but earns no turn.
        return _end_hand(s, completed_by=None)
    # The defender draws one to replace the safety, then takes a normal turn (draw one,
    # play one); the players between are skipped.
    s = _replace(s, current=defender, ran_out_this_turn=False)
    s = _draw(s, defender)
    return _begin_turn(s, defender, cf_turn=True, keep_ran_out=True)


def _draw(state: MilleState, seat: int) -> MilleState:
    if state.draw_pos >= len(state.deck):
        return state
    card = state.deck[state.draw_pos]
    hands = list(state.hands)
    hands[seat] = _insert(hands[seat], card)
    pos = state.draw_pos + 1
    return _replace(
        state, hands=tuple(hands), draw_pos=pos, ran_out_this_turn=state.ran_out_this_turn or pos == len(state.deck)
    )


def _ends_on_empty(state: MilleState) -> bool:
    ed = state.edition
    return ed.empty_draw_ends_hand or (state.extended_by is not None and ed.extension.ends_on_empty_draw)


def _begin_turn(state: MilleState, seat: int, *, cf_turn: bool, keep_ran_out: bool = False) -> MilleState:
    s = _replace(
        state,
        current=seat,
        cf_turn=cf_turn,
        phase=PLAY_PHASE,
        ran_out_this_turn=state.ran_out_this_turn if keep_ran_out else False,
    )
    s = _draw(s, seat)
    if not s.hands[seat]:
        # [core: Empty draw pile] a player with no cards is passed over (an extra or
        # coup-fourré turn with nothing left to play included).
        return _end_turn(s, extra=False)
    return s


def _end_turn(state: MilleState, *, extra: bool) -> MilleState:
    seat = state.current
    if _ends_on_empty(state) and state.ran_out_this_turn:
        return _end_hand(state, completed_by=None)
    if extra:  # an extra turn after a safety: draw one, play one again
        return _begin_turn(state, seat, cf_turn=state.cf_turn)
    n = state.n_players
    empty_pile = state.draw_pos >= len(state.deck)
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not empty_pile or state.hands[nxt]:
            return _begin_turn(state, nxt, cf_turn=False)
    # [core: Empty draw pile, Resolution] every hand is empty: the hand ends.
    return _end_hand(state, completed_by=None)


def _end_hand(state: MilleState, *, completed_by: int | None) -> MilleState:
    rows = score_hand(state, completed_by)
    totals = tuple(t + sum(r) for t, r in zip(state.totals, rows, strict=True))
    sheet = ScoreSheet(
        hand=state.hand_no,
        dealer=state.dealer,
        rows=rows,
        totals=totals,
        completed_by=completed_by,
        extended_by=state.extended_by,
    )
    sheets = state.sheets + (sheet,)
    ed = state.edition
    winners: tuple[int, ...] = ()
    if ed.match_target is None:
        # one hand: the seed's winner is who made the trip, else every side tied closest.
        if completed_by is not None:
            winners = (completed_by,)
        else:
            best = max(t.km for t in state.tableaus)
            winners = tuple(i for i, t in enumerate(state.tableaus) if t.km == best)
            # (if nobody drove at all, every side ties: a drawn game)
    elif max(totals) >= ed.match_target:
        top = max(totals)
        leaders = tuple(i for i, t in enumerate(totals) if t == top)
        if len(leaders) == 1:  # [core: The match, Resolution] an exact tie plays another hand
            winners = leaders
    if winners:
        return _replace(state, totals=totals, sheets=sheets, winners=winners, phase=OVER_PHASE)
    return _start_hand(
        ed, state.n_players, state.sides, state.side_of, state.seed, state.hand_no + 1,
        (state.dealer + 1) % state.n_players, totals, sheets,
    )  # fmt: skip


def winners(state: MilleState) -> tuple[int, ...]:
    """The winning side(s) once the match is over, else ``()``."""
    return state.winners
