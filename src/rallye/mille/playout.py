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

It is the engine itself: ``apply`` is a check, then
:func:`~rallye.mille.engine.apply_in_place` on a working copy of the state, then one
freeze; a playout keeps the working copy across moves and skips the check and the freeze.
The tests step both side by side through random matches of every edition and player
count and compare the states after every step, and pin the search's decisions, which
roll out on this path.

``apply`` does not check legality unless asked (``check=True``): it is for actions taken
from :meth:`Playout.legal_actions`; anything a person or another program sends goes
through :func:`rallye.mille.engine.apply` (or ``check=True``), which names the rule an
illegal action breaks.
"""

from __future__ import annotations

from rallye.mille import engine
from rallye.mille.actions import Action
from rallye.mille.state import OVER_PHASE, MilleState, WorkingState
from rallye.mille.view import MilleView, view_for


class Playout(WorkingState):
    """One match's state, mutable: :meth:`legal_actions`, :meth:`apply` (in place),
    :meth:`state` (an immutable snapshot equal to the engine's state at this point),
    :meth:`load` (take over another state).

    It is the engine's own working copy of a state (a
    :class:`~rallye.mille.state.WorkingState`: the fields of
    :class:`~rallye.mille.state.MilleState`, each an immutable value, reassigned as play
    goes on), kept across moves instead of frozen after each."""

    __slots__ = ()

    def copy(self) -> Playout:
        """An independent copy (every field is an immutable value)."""
        return Playout(self.freeze())

    def state(self) -> MilleState:
        """The immutable state at this point (equal to the engine's)."""
        return self.freeze()

    def view(self, player: int) -> MilleView:
        """The view of seat ``player``, equal to ``view_for(self.state(), player)``."""
        return view_for(self, player)

    @property
    def over(self) -> bool:
        return self.phase == OVER_PHASE

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, in the engine's documented order."""
        return engine.legal_actions(self)

    def apply(self, action: Action, *, check: bool = False) -> None:
        """The current player takes ``action``: one of :meth:`legal_actions`, unchecked for
        speed; with ``check=True`` an illegal one raises the engine's error (naming the
        rule) and changes nothing."""
        if check:
            engine.check(self, action)
        engine.apply_in_place(self, action)
