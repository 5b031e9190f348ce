"""Stepping through a Mille Bornes record (``rallye replay FILE --step``) on the game's screens.

Each position shows the move in words (coups fourrés included, as the game announces them),
the table as the game draws it (status, tableaus, cards and totals, the last moves) and the
hands it may show side by side: every hand once the match is over, else only the people's
(see :mod:`rallye.tui.stepper`). The move that ends a hand shows that hand's score sheet and
then the next hand's deal; the last move of the match the totals and the result. ``<`` and
``>`` stop at the hands' ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from rallye.core.game import Replayed
from rallye.mille.actions import Action
from rallye.mille.game import GAME as MILLE
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView
from rallye.tui.mille.app import new_events
from rallye.tui.mille.render import (
    Labels,
    action_text,
    event_text,
    events_panel,
    pick_language,
    players_line,
    result_text,
    sheet_table,
    status_line,
    tableau_table,
    totals_table,
    turn_line,
)
from rallye.tui.stepper import Analysis, InputFn, Stepper, seat_hands_note


def hands_table(views: Sequence[MilleView], labels: Labels, title: str) -> Table:
    """Several players' hands, one row each: the seat, then its cards."""
    t = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 1))
    t.add_column(no_wrap=True, style="bold")
    t.add_column()
    for v in views:
        cards = Text()
        for i, c in enumerate(v.hand):
            if i:
                cards.append(", ")
            cards.append_text(labels.card_text(c))
        if not v.hand:
            cards.append(labels.t("hand.empty"), style="dim")
        t.add_row(labels.seat(v.seat), cards)
    return t


class MilleStepper(Stepper[MilleState, Action]):
    """A Mille Bornes record, position by position (see :class:`~rallye.tui.stepper.Stepper`)."""

    def __init__(
        self,
        replayed: Replayed[MilleState, Action],
        console: Console,
        input_fn: InputFn,
        *,
        tags: Mapping[int, str],
        people: Sequence[int],
        lang: str | None,
        ui: str,
        analysis: Analysis | None = None,
    ) -> None:
        super().__init__(MILLE, replayed, console, input_fn, ui, analysis)
        final = replayed.final
        self.over = MILLE.is_over(final)
        seats = range(final.n_players)
        self.shown_seats = tuple(seats) if self.over else tuple(s for s in seats if s in people)
        card_lang, _ = pick_language(final.edition, lang)
        self.labels = Labels(final.edition, card_lang, final.sides, tuple(tags.get(s, "") for s in seats), None, ui)
        self._sheets = tuple(len(MILLE.view_for(s, 0).sheets) for s in self.states)

    def view(self, k: int, seat: int) -> MilleView:
        return MILLE.view_for(self.states[k], seat)

    def seat_label(self, seat: int) -> str:
        return self.labels.seat(seat)

    def side_label(self, side: int) -> str:
        return self.labels.t("tableau.side", n=side + 1)

    def chapter_word(self) -> str:
        return self.labels.word("hand")

    def chapter(self, k: int) -> str:
        hand = self.view(max(0, k - 1), 0).hand_no  # the hand move k was played in
        return f"{self.labels.word('hand')} {hand + 1}"

    def stops(self) -> Sequence[int]:
        """The moves that ended a hand."""
        return [k for k in range(1, self.n + 1) if self._sheets[k] > self._sheets[k - 1]]

    def action_words(self, action: Action) -> Text:
        return action_text(action, self.labels)

    def table(self, k: int) -> Group:
        """The table at position ``k``: the game's screen, with the hands it may show."""
        state = self.states[k]
        watch = MILLE.current_player(state)
        v = self.view(k, 0 if watch is None else watch)  # the side to play is underlined
        lab = self.labels
        hands = [self.view(k, s) for s in self.shown_seats]
        parts: list[RenderableType] = [
            status_line(v, lab),
            tableau_table(v, lab),
            players_line(v, lab),
            events_panel(v, lab),
        ]
        if hands:
            parts.append(hands_table(hands, lab, self.tc("step.hands")))
        parts.append(seat_hands_note(self.tc, self.over, self.shown_seats, lab.seat))
        parts.append(turn_line(v, lab))
        return Group(*parts)

    def show_position(self, k: int) -> None:
        lab = self.labels
        self.c.rule(self.heading(k), align="left")
        if k:
            seat, action = self.moves[k - 1]
            before, after = self.view(k - 1, seat), self.view(k, seat)
            for e in new_events(before, after, seat, action):
                line = Text("  · ")
                line.append_text(event_text(e, lab))
                self.c.print(line)
            for line in self.analysis_lines(k):
                self.c.print(line)
            ended = after.sheets[len(before.sheets) :]
            for sh in ended:
                self.c.rule(Text(lab.t("hand_over", hand=lab.word("hand"), n=sh.hand + 1), style="bold"))
                self.c.print(sheet_table(sh, lab))
            if ended and not MILLE.is_over(self.states[k]):
                self.c.rule(Text(self.tc("step.next_deal", hand=lab.word("hand"), n=after.hand_no + 1)), align="left")
        self.c.print(self.table(k))
        if k == self.n and MILLE.is_over(self.states[k]):
            final = self.view(k, 0)  # (the table's last line said the match is over)
            self.c.print(totals_table(final.sheets, lab))
            self.c.print(result_text(final.winners, final.totals, lab))


__all__ = ["MilleStepper", "hands_table"]
