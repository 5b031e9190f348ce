"""Stepping through a Knight Rider record (``rallye replay FILE --step``) on the game's screens.

Each position shows the action in words and what it caused (the rolls, rams, the villain's
escape: the events the game announces), then the game's screen: status, the map, the
players and the cards it may show, every player's once the game is over, else only the
people's (see :mod:`rallye.tui.stepper`); the last position says who caught the villain.
``<`` and ``>`` stop where a turn (or a phase of the set-up) begins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from rallye.core.game import Replayed
from rallye.knightrider.actions import Action
from rallye.knightrider.game import GAME as KNIGHTRIDER
from rallye.knightrider.state import TURN_PHASE, State
from rallye.knightrider.view import View
from rallye.tui.knightrider.app import action_lines
from rallye.tui.knightrider.render import Labels, action_text, hand_text, render_screen
from rallye.tui.stepper import Analysis, InputFn, Stepper, seat_hands_note


class KRStepper(Stepper[State, Action]):
    """A Knight Rider record, position by position (see :class:`~rallye.tui.stepper.Stepper`)."""

    def __init__(
        self,
        replayed: Replayed[State, Action],
        console: Console,
        input_fn: InputFn,
        *,
        tags: Mapping[int, str],
        people: Sequence[int],
        ui: str,
        analysis: Analysis | None = None,
    ) -> None:
        super().__init__(KNIGHTRIDER, replayed, console, input_fn, ui, analysis)
        final = replayed.final
        self.over = KNIGHTRIDER.is_over(final)
        seats = range(final.players)
        self.shown_seats = tuple(seats) if self.over else tuple(s for s in seats if s in people)
        tagged = tuple(tags.get(s, "") for s in seats)
        self.labels = Labels(ui, tagged, None, final.options.pieces())
        self._where = tuple((v.phase, v.turn) for v in (self.view(k, 0) for k in range(len(self.states))))

    def view(self, k: int, seat: int) -> View:
        return KNIGHTRIDER.view_for(self.states[k], seat)

    def seat_label(self, seat: int) -> str:
        return self.labels.seat(seat)

    #: Knight Rider keeps no score: an analysis' loss is in its bot's values
    points_message = "step.analysis.loss_value"

    def side_label(self, side: int) -> str:
        return self.labels.seat(side)  # a player is a side

    def chapter_word(self) -> str:
        return self.labels.t("step.turn_word")

    def chapter(self, k: int) -> str:
        phase, turn = self._where[max(0, k - 1)]  # where move k was played
        tr = self.labels.t
        return tr("status.turn", n=turn) if phase == TURN_PHASE else tr(f"phase.{phase}")

    def stops(self) -> Sequence[int]:
        """The moves after which a turn (or a phase of the set-up) begins."""
        return [k for k in range(1, self.n + 1) if self._where[k] != self._where[k - 1]]

    def action_words(self, action: Action) -> Text:
        return Text(action_text(action, self.labels))

    def show_position(self, k: int) -> None:
        lab = self.labels
        state = self.states[k]
        said: list[RenderableType] = [Rule(self.heading(k), align="left")]
        if k:
            seat, action = self.moves[k - 1]
            said += action_lines(lab, seat, action, self.view(k, seat).events)
            said += self.analysis_lines(k)
        for line in said:
            self.c.print(line)
        watch = KNIGHTRIDER.current_player(state)
        v = self.view(k, 0 if watch is None else watch)
        hands: list[RenderableType] = [
            hand_text(self.view(k, s), lab, title=lab.seat(s) + ":") for s in self.shown_seats
        ]
        hands.append(seat_hands_note(self.tc, self.over, self.shown_seats, lab.seat))
        size = None
        if getattr(self.c, "is_terminal", False):  # the screen fits below the move's lines
            above = len(self.c.render_lines(Group(*said), self.c.options, pad=False))
            size = (self.c.width, max(10, self.c.height - above))
        self.c.print(render_screen(v, lab, hands=hands, size=size))


__all__ = ["KRStepper"]
