"""A mutable fast path of the Mille Bornes engine, for simulation (random playouts, search
rollouts, training): the same rules as :mod:`rallye.mille.engine`, applied in place.

:func:`rallye.mille.engine.apply` builds a new immutable :class:`~rallye.mille.state.MilleState`
for every decision, so that states can be kept, compared and shared; that copy is most of
its cost. A :class:`Playout` holds one match's state and updates it in place:

>>> from rallye import mille
>>> p = Playout(mille.new_match("wm2006", 2, seed=1))
>>> a = p.legal_actions()[0]
>>> p.apply(a)
>>> p.state() == mille.apply(mille.new_match("wm2006", 2, seed=1), a)
True

It plays the common moves itself (driving, remedies, Roll, End of Limit, discards, an attack
without a coup fourré, the turn order with the draw pile empty) and hands every rare one
to the engine (safeties, a coup fourré, reaching the target, the extension decision, the
end of a hand and the next deal), so the engine stays the one statement of those rules.
The tests step both side by side through random matches of every edition and player
count and compare the states after every step, and pin the search's decisions, which
roll out on this path.

``apply`` does **not** check legality: it is for actions taken from :meth:`Playout.legal_actions`
(use :func:`rallye.mille.engine.apply`, which names the rule an illegal action breaks,
for anything a person or another program sends).
"""

from __future__ import annotations

from rallye.mille import engine
from rallye.mille.actions import DECLINE, EXTEND, Action
from rallye.mille.cards import D200, DISTANCE_KM, END_OF_LIMIT, SAFETIES, SAFETY_FOR, SPEED_LIMIT
from rallye.mille.engine import _W, _insert, _log, _remove
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, PLAY_PHASE, Event, MilleState, Tableau
from rallye.mille.view import MilleView, view_for


class Playout(_W):
    """One match's state, mutable: :meth:`legal_actions`, :meth:`apply` (in place),
    :meth:`state` (an immutable snapshot equal to the engine's state at this point).

    It is the engine's own working copy of a state (the fields of
    :class:`~rallye.mille.state.MilleState`, each an immutable value, reassigned as play
    goes on), kept across moves instead of frozen after each."""

    __slots__ = ()

    def load(self, state: MilleState) -> None:
        """Take over ``state`` (the playout then continues from it)."""
        _W.__init__(self, state)

    def copy(self) -> Playout:
        """An independent copy (every field is an immutable value)."""
        return Playout(self.freeze())

    def state(self) -> MilleState:
        """The immutable state at this point (equal to the engine's)."""
        return self.freeze()

    def view(self, player: int) -> MilleView:
        """The view of seat ``player``, equal to ``view_for(self.state(), player)``."""
        return view_for(self, player)  # type: ignore[arg-type]  # the same fields as a MilleState

    @property
    def over(self) -> bool:
        return self.phase == OVER_PHASE

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, in the engine's documented order."""
        if self.phase == PLAY_PHASE:
            seat = self.current
            return engine._legal_from(self.hands[seat], self.side_of[seat], self.tableaus, self.target)
        if self.phase == EXTEND_PHASE:
            return (EXTEND, DECLINE)
        return ()

    # -- applying ----------------------------------------------------------------------
    def _delegate(self, action: Action) -> None:
        self.load(engine.apply(self.freeze(), action))

    def _take(self, seat: int, card: str) -> None:
        hands = self.hands
        self.hands = hands[:seat] + (_remove(hands[seat], card),) + hands[seat + 1 :]

    def _lay(self, side: int, tab: Tableau) -> None:
        tabs = self.tableaus
        self.tableaus = tabs[:side] + (tab,) + tabs[side + 1 :]

    def apply(self, action: Action) -> None:
        """The current player takes ``action`` (one of :meth:`legal_actions`; unchecked)."""
        verb = action.verb
        card = action.card
        if verb == "discard":
            assert card is not None
            seat = self.current
            self._take(seat, card)
            self.discard += (card,)
            _log(self, Event(seat, "discard", card))
            self._end_turn()
            return
        if verb == "play":
            assert card is not None
            if card in SAFETIES:
                self._delegate(action)
                return
            seat = self.current
            side = self.side_of[seat]
            tab = self.tableaus[side]
            km = DISTANCE_KM.get(card)
            if km is not None:
                if tab.km + km == self.target:
                    self._delegate(action)  # the trip is made: extension or the end of the hand
                    return
                tab = Tableau(
                    tab.battle, tab.speed, tab.distance + (card,), tab.safeties, tab.coups,
                    tab.km + km, tab.d200 + (card == D200),
                )  # fmt: skip
            elif card == END_OF_LIMIT:
                tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
            else:  # ROLL and the battle remedies
                tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
            self._take(seat, card)
            self._lay(side, tab)
            _log(self, Event(seat, "play", card))
            self._end_turn()
            return
        if verb == "attack":
            assert card is not None and action.side is not None
            side = action.side
            safety = SAFETY_FOR[card]
            hands = self.hands
            if any(safety in hands[p] for p in self.sides[side]):
                self._delegate(action)  # a coup fourré
                return
            seat = self.current
            self._take(seat, card)
            _log(self, Event(seat, "attack", card, side))
            tab = self.tableaus[side]
            if card == SPEED_LIMIT:
                tab = Tableau(tab.battle, tab.speed + (card,), tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
            else:
                tab = Tableau(tab.battle + (card,), tab.speed, tab.distance, tab.safeties, tab.coups, tab.km, tab.d200)
            self._lay(side, tab)
            self._end_turn()
            return
        self._delegate(action)  # extend, decline (or anything else: the engine names the rule)

    def _end_turn(self) -> None:
        """The engine's ``_end_turn`` without an extra turn: the next player with cards
        (or the end of the hand, handed to the engine)."""
        if self.ran_out_this_turn and engine._ends_on_empty(self):
            self._end_hand()
            return
        n = self.n_players
        seat = self.current
        while True:
            deck = self.deck
            pos = self.draw_pos
            empty_pile = pos >= len(deck)
            hands = self.hands
            for k in range(1, n + 1):
                nxt = (seat + k) % n
                if not empty_pile or hands[nxt]:
                    break
            else:
                self._end_hand()  # every hand is empty
                return
            # the engine's _begin_turn
            self.current = nxt
            self.cf_turn = False
            self.phase = PLAY_PHASE
            self.ran_out_this_turn = False
            if not empty_pile:
                self.hands = hands[:nxt] + (_insert(hands[nxt], deck[pos]),) + hands[nxt + 1 :]
                self.draw_pos = pos + 1
                if pos + 1 == len(deck):
                    self.ran_out_this_turn = True
            if self.hands[nxt]:
                return
            # a player with no cards is passed over: the engine's _end_turn again
            if self.ran_out_this_turn and engine._ends_on_empty(self):
                self._end_hand()
                return
            seat = nxt

    def _end_hand(self) -> None:
        """The hand ends with the trip not made (the engine scores it and deals the next)."""
        self.load(engine._end_hand(self, completed_by=None))
