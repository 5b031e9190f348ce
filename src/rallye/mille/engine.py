"""The Mille Bornes rules engine: pure functions over :class:`MilleState`.

Rule references in brackets name the clauses of ``docs/rules/mille-bornes.md``.

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
from rallye.mille.actions import ATTACK, DECLINE, DISCARD, EXTEND, PLAY, Action
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
    WorkingState,
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
    """The deck order (top first) of hand ``hand_no`` of a match with this seed.

    The last few are cached: a search's rollouts that finish a hand all deal the same next
    hand (its determinizations share one seed), a shuffle of 106 cards each time."""
    key = (id(edition), players, seed, hand_no)
    hit = _SHUFFLED.get(key)
    if hit is not None and hit[0] is edition:
        return hit[1]
    deck, _ = Rng.from_seed("mille", seed, hand_no).shuffle(edition.deck_for(players))
    if len(_SHUFFLED) >= 64:
        _SHUFFLED.clear()
    _SHUFFLED[key] = (edition, deck)
    return deck


#: (id of an edition, players, seed, hand) -> (that edition, the deck); the entry keeps the
#: edition alive, so its id cannot be reused while cached.
_SHUFFLED: dict[tuple[int, int, int, int], tuple[Edition, tuple[str, ...]]] = {}


def deal_from(deck: tuple[str, ...], players: int, dealer: int) -> tuple[tuple[str, ...], ...]:
    """Deal 6 cards each, one at a time, starting left of the dealer [core: Deal]."""
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    for _ in range(HAND_SIZE):
        for k in range(1, players + 1):
            hands[(dealer + k) % players].append(deck[pos])
            pos += 1
    return tuple(_sorted(h) for h in hands)


def start_hand(
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
    """Hand ``hand_no`` of a match, dealt (from ``deck``, else the seed's shuffle) and at
    its first turn: the player left of ``dealer`` has drawn and is to act; ``totals`` and
    ``sheets`` are the match's so far. :func:`new_match` deals the first hand with it, and
    the engine each next one."""
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
    w = WorkingState(state)
    _begin_turn(w, first, cf_turn=False)
    return w.freeze()


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
    return start_hand(ed, players, sides, side_of, seed, 0, players - 1, (0,) * len(sides), (), deck)


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
            if top is None or top not in BATTLE_HAZARDS:
                why = "no Roll card on the battle pile"
            else:
                why = f"{top} lies on the battle pile"
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


def _legal_from(hand: Sequence[str], my_side: int, tableaus: Sequence[Tableau], target: int) -> tuple[Action, ...]:
    # The rules of why_illegal_play and why_illegal_attack, inlined: this runs on every
    # decision (the tests check it against those two everywhere).
    tab = tableaus[my_side]
    battle = tab.battle
    top = battle[-1] if battle else None
    speed = tab.speed
    speed_top = speed[-1] if speed else None
    row = RIGHT_OF_WAY in tab.safeties
    rolling = (top not in BATTLE_HAZARDS) if row else (top == ROLL)
    fast = row or speed_top != SPEED_LIMIT  # not under a speed limit
    room = target - tab.km
    can_200 = tab.d200 < 2
    out: list[Action] = []
    hazards: list[str] = []
    distinct = dict.fromkeys(hand)  # the hand is sorted: its distinct cards in CARDS order
    for c in distinct:
        km = DISTANCE_KM.get(c)
        if km is not None:
            if rolling and km <= room and (km <= 50 or fast) and (km != 200 or can_200):
                out.append(PLAY[c])
        elif c in HAZARDS:
            hazards.append(c)
        elif c in SAFETIES:
            out.append(PLAY[c])
        elif c == ROLL:
            if not row and top in _ROLL_ONTO:
                out.append(PLAY[c])
        elif c == END_OF_LIMIT:
            if speed_top == SPEED_LIMIT:
                out.append(PLAY[c])
        elif top == REMEDY_FOR[c]:
            out.append(PLAY[c])
    if hazards:
        for c in hazards:
            safety = SAFETY_FOR[c]
            for s, t in enumerate(tableaus):
                if s == my_side or safety in t.safeties:
                    continue
                if c == SPEED_LIMIT:
                    if not t.speed or t.speed[-1] != SPEED_LIMIT:
                        out.append(ATTACK[(c, s)])
                    continue
                b = t.battle[-1] if t.battle else None
                if (b not in BATTLE_HAZARDS) if RIGHT_OF_WAY in t.safeties else (b == ROLL):
                    out.append(ATTACK[(c, s)])
    out += [DISCARD[c] for c in distinct]
    return tuple(out)


def legal_actions(state: MilleState | WorkingState) -> tuple[Action, ...]:
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


def explain(state: MilleState | WorkingState, action: Action) -> tuple[str, str] | None:
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
    if action.verb not in ("play", "attack", "discard"):
        return "verb", f"'{action.verb}' is not an action: play, attack, discard, extend or decline"
    if action.card is None or action.card not in state.hands[seat]:
        return "in-hand", f"{action.card} is not in P{seat + 1}'s hand"
    my_side = state.side_of[seat]
    if action.verb == "discard":
        return None
    if action.verb == "play":
        return why_illegal_play(state.tableaus[my_side], action.card, state.target)
    if action.card not in HAZARDS:
        # [core: attack] only a hazard goes onto an opposing side
        return "attack-with-hazard", f"{action.card} is not a hazard: only a hazard attacks an opposing side"
    side = action.side if action.side is not None else -1
    if not 0 <= side < len(state.sides):
        return "attack-side", f"there is no side {side + 1}; sides are 1..{len(state.sides)}"
    if side == my_side:
        return "attack-own-side", "hazards go onto an opposing side, not your own"
    return why_illegal_attack(state.tableaus[side], action.card)


def check(state: MilleState | WorkingState, action: Action) -> None:
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
        raise NotYourTurn(f"illegal '{action}' by P{player + 1}: it is P{state.current + 1}'s turn", rule="turn-order")
    return apply(state, action)


def apply(state: MilleState, action: Action) -> MilleState:
    """The state after ``action`` by the current player; ``state`` is left unchanged."""
    check(state, action)
    w = WorkingState(state)
    apply_in_place(w, action)
    return w.freeze()


def apply_in_place(w: WorkingState, action: Action) -> None:
    """``action`` by the current player, applied to the working copy ``w`` (unchecked:
    :func:`apply` checks first; the fast path :class:`rallye.mille.playout.Playout` takes
    its actions from the legal ones)."""
    seat = w.current
    if action.verb == "extend":
        side = w.side_of[seat]
        w.target = w.edition.extension.to_km
        w.extended_by = side
        w.phase = PLAY_PHASE
        _log(w, Event(seat, "extend", None, side))
        _end_turn(w, extra=False)
        return
    if action.verb == "decline":
        _log(w, Event(seat, "decline", None, w.side_of[seat]))
        _end_hand(w, completed_by=w.side_of[seat])
        return
    card = action.card
    assert card is not None  # checked (apply) or taken from the legal actions
    hands = w.hands
    w.hands = hands[:seat] + (_remove(hands[seat], card),) + hands[seat + 1 :]
    if action.verb == "discard":
        w.discard = w.discard + (card,)
        _log(w, Event(seat, "discard", card))
        _end_turn(w, extra=False)
    elif action.verb == "attack":
        assert action.side is not None
        _attack(w, seat, card, action.side)
    else:
        _play_own(w, seat, card)


def _log(w: WorkingState, event: Event) -> None:
    events = w.events + (event,)
    if len(events) > MAX_EVENTS:
        events = events[-MAX_EVENTS:]
    w.events = events


def _with_tableau(tableaus: tuple[Tableau, ...], side: int, tab: Tableau) -> tuple[Tableau, ...]:
    return tableaus[:side] + (tab,) + tableaus[side + 1 :]


def _lay_safety(tab: Tableau, card: str, discard: tuple[str, ...], coup: bool) -> tuple[Tableau, tuple[str, ...]]:
    """Put a safety on a tableau; a matching hazard on top goes to the discard pile [core: safety]."""
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


def _play_own(w: WorkingState, seat: int, card: str) -> None:
    side = w.side_of[seat]
    tab = w.tableaus[side]
    extra = False
    if card in DISTANCE_KM:
        tab = Tableau(
            tab.battle, tab.speed, tab.distance + (card,), tab.safeties, tab.coups,
            tab.km + DISTANCE_KM[card], tab.d200 + (card == D200),
        )  # fmt: skip
    elif card in SAFETIES:
        tab, w.discard = _lay_safety(tab, card, w.discard, coup=False)
        ed = w.edition
        extra = ed.extra_turn_after_safety or (w.cf_turn and ed.extra_turn_after_safety_in_coup_fourre_turn)
    elif card == END_OF_LIMIT:
        tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
    else:  # ROLL and the battle remedies
        tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
    w.tableaus = _with_tableau(w.tableaus, side, tab)
    _log(w, Event(seat, "play", card))
    if card in DISTANCE_KM and tab.km == w.target:
        _reached_target(w, seat)
    else:
        _end_turn(w, extra=extra)


def _extension_open(w: WorkingState, seat: int) -> bool:
    ex = w.edition.extension
    side = w.side_of[seat]
    return bool(
        ex.allowed
        and w.extended_by is None
        and w.target == ex.from_km
        and (not ex.alone_only or len(w.sides[side]) == 1)
        and not (ex.ends_on_empty_draw and w.draw_pos >= len(w.deck))
    )


def _reached_target(w: WorkingState, seat: int) -> None:
    """[core: end of trip] the hand ends, unless the player may extend [table: extension]."""
    if _extension_open(w, seat):
        w.phase = EXTEND_PHASE
    else:
        _end_hand(w, completed_by=w.side_of[seat])


def _attack(w: WorkingState, seat: int, card: str, side: int) -> None:
    safety = SAFETY_FOR[card]
    hands = w.hands
    defender = next((p for p in w.sides[side] if safety in hands[p]), None)
    _log(w, Event(seat, "attack", card, side))
    tab = w.tableaus[side]
    if defender is None:
        if card == SPEED_LIMIT:
            tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
        else:
            tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
        w.tableaus = _with_tableau(w.tableaus, side, tab)
        _end_turn(w, extra=False)
        return
    # [core: Coup fourré] automatic, out of turn: the hazard is discarded, the safety laid crosswise.
    hl = list(hands)
    hl[defender] = _remove(hl[defender], safety)
    w.hands = tuple(hl)
    tab, w.discard = _lay_safety(tab, safety, w.discard + (card,), coup=True)
    w.tableaus = _with_tableau(w.tableaus, side, tab)
    _log(w, Event(defender, "coup_fourre", safety, side))
    if _ends_on_empty(w) and w.ran_out_this_turn:
        # meilen: the turn that drew the last card ends the hand; the coup fourré is scored
        # but earns no turn.
        _end_hand(w, completed_by=None)
        return
    # The defender draws one to replace the safety, then takes a normal turn (draw one,
    # play one); the players between are skipped.
    w.current = defender
    w.ran_out_this_turn = False
    _draw(w, defender)
    _begin_turn(w, defender, cf_turn=True, keep_ran_out=True)


def _draw(w: WorkingState, seat: int) -> None:
    pos = w.draw_pos
    deck = w.deck
    if pos >= len(deck):
        return
    hands = list(w.hands)
    hands[seat] = _insert(hands[seat], deck[pos])
    w.hands = tuple(hands)
    w.draw_pos = pos + 1
    if pos + 1 == len(deck):
        w.ran_out_this_turn = True


def _ends_on_empty(w: WorkingState) -> bool:
    ed = w.edition
    return bool(ed.empty_draw_ends_hand or (w.extended_by is not None and ed.extension.ends_on_empty_draw))


def _begin_turn(w: WorkingState, seat: int, *, cf_turn: bool, keep_ran_out: bool = False) -> None:
    w.current = seat
    w.cf_turn = cf_turn
    w.phase = PLAY_PHASE
    if not keep_ran_out:
        w.ran_out_this_turn = False
    _draw(w, seat)
    if not w.hands[seat]:
        # [core: Empty draw pile] a player with no cards is passed over (an extra or
        # coup-fourré turn with nothing left to play included).
        _end_turn(w, extra=False)


def _end_turn(w: WorkingState, *, extra: bool) -> None:
    seat = w.current
    if w.ran_out_this_turn and _ends_on_empty(w):
        _end_hand(w, completed_by=None)
        return
    if extra:  # an extra turn after a safety: draw one, play one again
        _begin_turn(w, seat, cf_turn=w.cf_turn)
        return
    n = w.n_players
    empty_pile = w.draw_pos >= len(w.deck)
    hands = w.hands
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not empty_pile or hands[nxt]:
            _begin_turn(w, nxt, cf_turn=False)
            return
    # [core: empty draw pile, Resolution (empty draw pile)] every hand is empty: the hand ends.
    _end_hand(w, completed_by=None)


def _end_hand(w: WorkingState, *, completed_by: int | None) -> None:
    """Score the hand into ``w``; then the match is over, or ``w`` becomes the next hand's
    first turn."""
    state: MilleState = w.freeze()
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
        if len(leaders) == 1:  # [core: match, Resolution (match tie)] an exact tie plays another hand
            winners = leaders
    if winners:
        w.totals, w.sheets, w.winners, w.phase = totals, sheets, winners, OVER_PHASE
        return
    nxt = start_hand(
        ed, state.n_players, state.sides, state.side_of, state.seed, state.hand_no + 1,
        (state.dealer + 1) % state.n_players, totals, sheets,
    )  # fmt: skip
    w.load(nxt)


def winners(state: MilleState) -> tuple[int, ...]:
    """The winning side(s) once the match is over, else ``()``."""
    return state.winners


def outcome(state: MilleState) -> str | None:
    """How the match ended: ``"won"`` (one side won), ``"shared"`` (meilen: several sides
    tied closest to 1000 share the win), ``"drawn"`` (meilen: nobody drove, so every side is
    listed among ``winners`` and none won); ``None`` while it runs [table: match;
    Resolution (meilen closest)]."""
    if state.phase != OVER_PHASE:
        return None
    if len(state.winners) == 1:
        return "won"
    if all(t.km == 0 for t in state.tableaus):
        return "drawn"
    return "shared"
