"""Mille Bornes in the terminal: its session and its loop's screens and commands.

:class:`MilleSession` is the one terminal controller (:class:`rallye.tui.session.GameSession`)
on Mille Bornes' game face, with the game's own ways to start (an edition, a player count)
and the ``rallye play mille`` options that deal a match again. :func:`run_session` is the
loop: it renders the view of the person at the keyboard, reads lines through an injectable
``input_fn`` and prints to a rich ``Console``, so tests drive it with a list of lines and a
recording console.

A save file is the game record so far; its header carries the edition, players and seed and
the terminal's ``"tui"`` object (the seats, see :mod:`rallye.tui.session`) so ``--resume``
continues with the same seats; ``rallye replay`` verifies the game without that field.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from rallye.i18n import LANGUAGES, translator
from rallye.mille.actions import Action, parse_action
from rallye.mille.edition import EDITION_KEYS, Edition, get_edition
from rallye.mille.game import GAME as MILLE
from rallye.mille.state import Event, MilleState, ScoreSheet
from rallye.mille.view import MilleView
from rallye.tui.loop import GameLoop, choice_number
from rallye.tui.mille.render import (
    Labels,
    event_text,
    hand_table,
    moves_table,
    render_screen,
    result_text,
    sheet_table,
    totals_table,
)
from rallye.tui.session import GameSession, Played, Session
from rallye.tui.words import ui_language

GAME = "mille"
InputFn = Callable[[str], str]
#: a Mille Bornes move as the person at the keyboard learns of it
MillePlayed = Played[Action, MilleView]


def new_events(before: MilleView, after: MilleView, seat: int, action: Action) -> tuple[Event, ...]:
    """The public events between two views of the same player after ``action`` by ``seat``.

    A view keeps the current hand's last events only, so when the move ended the hand (a
    new one was dealt) the move itself is the event.
    """
    if after.hand_no != before.hand_no:
        return (Event(seat, action.verb, action.card, action.side),)
    old, new = before.events, after.events
    for n in range(1, len(new) + 1):
        combined = old + new[len(new) - n :]
        if combined[len(combined) - len(new) :] == new:
            return new[len(new) - n :]
    return new


def events_of(played: MillePlayed) -> tuple[Event, ...]:
    """The public events a move caused (coups fourrés included)."""
    return new_events(played.before, played.after, played.seat, played.action)


def sheets_of(played: MillePlayed) -> tuple[ScoreSheet, ...]:
    """The score sheets of the hands a move ended."""
    return played.after.sheets[len(played.before.sheets) :]


class MilleSession(GameSession[MilleState, Action, MilleView]):
    """A Mille Bornes match at this keyboard (see :class:`~rallye.tui.session.GameSession`)."""

    #: the house-rule file a new game was started from (``rallye play mille --edition FILE``)
    edition_file: str | None = None

    @classmethod
    def new(
        cls, edition: str | Edition, players: int, seed: int, human_seat: int | Sequence[int], bots: Sequence[str]
    ) -> MilleSession:
        """A fresh match; ``bots`` names the bots of the other seats, in seat order."""
        session = cls.start(MILLE, {"edition": edition, "players": players}, seed, human_seat, bots)
        if isinstance(edition, str) and edition.strip().lower().endswith(".json"):
            session.edition_file = edition
        return session

    @classmethod
    def resume(
        cls, path: str | Path, human_seat: int | Sequence[int] | None = None, bots: Sequence[str] | None = None
    ) -> MilleSession:
        """Replay (and verify) a save file and continue it. The seats come from the file's
        header unless given; a :class:`~rallye.core.errors.RecordError` names a bad line."""
        return cls.load(MILLE, path, human_seat, bots)

    def deal_options(self) -> list[str]:
        """The ``rallye play mille`` options (but ``--seed``) that deal this match again, with
        the same seats and bots."""
        view = self.view()
        ed = view.edition
        builtin = ed.key in EDITION_KEYS and get_edition(ed.key) == ed
        edition = ed.key if builtin else (self.edition_file or ed.key)
        return ["--edition", edition, "--players", str(view.n_players), *self.seat_options()]


# -- the loop -------------------------------------------------------------------------------
class _Loop(GameLoop[Action, MilleView]):
    game = GAME

    def __init__(
        self,
        session: Session[Action, MilleView],
        input_fn: InputFn,
        console: Console,
        lang: str | None,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
    ) -> None:
        ed = session.view().edition
        ui = ui_language(lang, ed.language if ed.language in LANGUAGES else "en")
        super().__init__(session, input_fn, console, save_path, delay, sleep, ui, translator(ui, "mille"))
        self.lang = lang

    def labels(self) -> Labels:
        return Labels.for_view(self.s.view(), self.s.seat_tags(), self.lang, self.ui)

    def seat_label(self, seat: int) -> str:
        return self.labels().seat(seat)

    # -- printing ------------------------------------------------------------------------
    def show(self) -> None:
        self.c.print(render_screen(self.s.view(), self.labels(), self.s.legal()))

    def show_hand(self) -> None:
        lab = self.labels()
        self.c.print(hand_table(self.s.view(), lab))
        legal = self.s.legal()
        if legal:
            self.c.print(moves_table(legal, lab))

    def show_sheets(self) -> None:
        v = self.s.view()
        lab = self.labels()
        if not v.sheets:
            self.say(self.t("sheet.none_yet"), "dim")
            return
        for sh in v.sheets:
            self.c.print(sheet_table(sh, lab))
        self.c.print(totals_table(v.sheets, lab))

    def announce(self, played: MillePlayed) -> None:
        lab = self.labels()
        for e in events_of(played):
            line = Text("  · ")
            line.append_text(event_text(e, lab))
            self.c.print(line)
        for sh in sheets_of(played):
            self.c.rule(Text(self.t("hand_over", hand=lab.word("hand"), n=sh.hand + 1), style="bold"))
            self.c.print(sheet_table(sh, lab))

    def coach_names(self) -> Callable[[str], str]:
        lab = self.labels()
        return lambda card: lab.edition.card_name(card, lab.lang)

    def coach_who(self, kind: str, index: int) -> str:
        """A one-player side by its player's label, a team by its number ("Side 2"): the
        side's full label has a colon of its own, which a reason's own colon would double."""
        labels = self.labels()
        if kind != "side":
            return self.seat_label(index)
        members = labels.sides[index]
        return self.seat_label(members[0]) if len(members) == 1 else labels.t("tableau.side", n=index + 1)

    def menu_number(self, action: Action) -> int | None:
        legal = self.s.legal()
        return legal.index(action) + 1 if action in legal else None

    # -- commands ------------------------------------------------------------------------
    def game_command(self, text: str, w: str, rest: str) -> MillePlayed | None:
        if w == "hand":
            self.show_hand()
        elif w in ("show", "table", "board"):
            self.show()
        elif w in ("sheet", "score", "scores"):
            self.show_sheets()
        elif (k := choice_number(text)) is not None:
            legal = self.s.legal()
            if not 1 <= k <= len(legal):
                self.say(self.t("no_such_move", k=text[:6], n=len(legal)), "red")
                return None
            return self.move(legal[k - 1])
        elif (action := self.typed(text, parse_action, "type_a_move")) is not None:
            return self.move(action)
        return None

    # -- the game ------------------------------------------------------------------------
    def intro(self) -> None:
        v = self.s.view()
        lab = self.labels()
        self.say(f"{lab.title()} — " + self.tc.n("n_players", v.n_players), "bold")
        for i in range(len(v.sides)):
            mine = any(p in self.s.human_seats for p in v.sides[i]) and len(self.s.human_seats) == 1
            self.say(f"  {lab.side(i)}" + ("   ← " + self.t("your_side") if mine else ""))
        self.who_plays()

    def after_move(self, played: MillePlayed) -> None:
        if sheets_of(played) and not self.s.over:
            self.between_hands()

    def between_hands(self) -> None:
        """A pause after a hand's score sheet: Enter goes on; a typed move is not taken for
        Enter (it would be lost), the player is told the hand is over."""
        while True:
            try:
                line = self.read(self.t("next_hand_prompt") + " ")
            except EOFError:
                self.on_eof()
            word = line.strip().split(" ")[0].lower()
            if not word:
                return
            if word in _INFO_COMMANDS:  # never a move
                self.command(line)
            else:
                self.say(self.t("hand_over_not_played", typed=repr(line.strip()[:40])), "yellow")

    def finish(self) -> None:
        v = self.s.view()
        lab = self.labels()
        if len(self.s.human_seats) > 1:
            lab = Labels(lab.edition, lab.lang, lab.sides, lab.seat_tags, None, lab.ui)
        self.c.rule(Text(self.t("match_over"), style="bold"))
        self.c.print(totals_table(v.sheets, lab))
        self.c.print(result_text(v.winners, v.totals, lab))
        self.ended()


_INFO_COMMANDS = frozenset(
    {"help", "?", "h", "hand", "show", "table", "board", "sheet", "score", "scores", "save", "quit", "exit", "q"}
)


def run_session(
    session: Session[Action, MilleView],
    input_fn: InputFn,
    console: Console,
    *,
    lang: str | None = None,
    save_path: str | Path | None = None,
    delay: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
    coach: bool = False,
) -> int:
    """Play ``session`` (a match here, or at an online table) to its end (or until the
    person quits): 0 on a clean exit, 130 on Ctrl-C.

    ``input_fn(prompt)`` returns one line (raising ``EOFError`` at the end of input);
    ``console`` receives everything shown, in ``lang`` (default: the edition's language).
    ``save_path`` is where ``save``, the offer on ``quit`` and Ctrl-D save to, and where
    the finished record is written. The seed is shown only when the match is over.
    ``coach``: ``hint`` shows the coach's hint (from the view of the person to act).
    """
    loop = _Loop(session, input_fn, console, lang, save_path, delay, sleep)
    loop.coach_on = coach
    return loop.run()
