"""Mille Bornes in the terminal: a session (the controller) and the input loop.

:class:`MilleSession` holds the match in a :class:`~rallye.mille.record.Recorder` and the
bots; it hands the terminal the human's view only (``view_for(state, human_seat)``) and asks
each bot with that bot's own view. :func:`run_session` is the loop: it renders views,
reads lines through an injectable ``input_fn`` and prints to a rich ``Console``, so tests
drive it with a list of lines and a recording console.

A save file is the game record so far (``Recorder.save``). Its header carries, besides the
edition, players and seed, a ``"tui"`` object ``{"human_seat": 0, "bots": [null, "random"]}``
(0-based seat; a bot name per seat, ``null`` for the human; with several people at one
keyboard also ``"human_seats": [0, 2]``) so ``--resume`` continues with the same seats;
``rallye replay`` verifies the game without that field (it names the seats from it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from rallye.agents.base import Agent, make_agent
from rallye.core.errors import GameError
from rallye.core.record import read_jsonl
from rallye.i18n import LANGUAGES, translator
from rallye.mille.actions import Action, parse_action
from rallye.mille.edition import EDITION_KEYS, Edition, get_edition
from rallye.mille.engine import legal_from_view, new_match
from rallye.mille.record import Recorder, Replay, replay_lines
from rallye.mille.state import Event, ScoreSheet
from rallye.mille.view import MilleView, view_for
from rallye.tui.loop import (
    HEADER_FIELD,
    Quit,
    SavingLoop,
    bot_seed,
    choice_number,
    people,
    resumed_seats,
    seat_names,
    seat_options,
    session_seats,
)
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
from rallye.tui.words import ui_language

GAME = "mille"
InputFn = Callable[[str], str]


@dataclass(frozen=True)
class Move:
    """One move as the human may learn of it: who, what, the public events it caused
    (coups fourrés included) and the score sheets of any hand it ended."""

    seat: int
    action: Action
    events: tuple[Event, ...]
    sheets: tuple[ScoreSheet, ...]


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


class MilleSession:
    """The controller of one terminal match: the record, the bots, the people's seats.

    Several people may play at one keyboard (``human_seats``); the terminal shows the view
    of the one at the keyboard (:attr:`viewer`: the person to act, else the last one who did).
    """

    def __init__(self, recorder: Recorder, human_seat: int | Sequence[int], bot_names: Sequence[str | None]) -> None:
        state = recorder.state
        humans, self.bot_names = session_seats(state.n_players, human_seat, bot_names)
        self.recorder = recorder
        self.human_seats: tuple[int, ...] = humans
        self.viewer = humans[0]
        self.edition_file: str | None = None  # the house-rule file a new game was started from
        ply = sum(1 for line in recorder.lines if line.get("type") == "action")
        self._bots: dict[int, Agent] = {}
        for seat, name in enumerate(self.bot_names):
            if name is not None:
                self._bots[seat] = make_agent(GAME, name, bot_seed(state.seed, seat, ply))
        header = recorder.lines[0]
        header[HEADER_FIELD] = {"human_seat": humans[0], "bots": list(self.bot_names)}
        if len(humans) > 1:
            header[HEADER_FIELD]["human_seats"] = list(humans)
        self._follow()

    @property
    def human_seat(self) -> int:
        """The first person's seat (the only one in a game against bots)."""
        return self.human_seats[0]

    # -- building --------------------------------------------------------------------
    @classmethod
    def new(
        cls, edition: str | Edition, players: int, seed: int, human_seat: int | Sequence[int], bots: Sequence[str]
    ) -> MilleSession:
        """A fresh match; ``bots`` names the bots of the other seats, in seat order."""
        state = new_match(edition, players, seed)
        humans = people(human_seat, players)
        session = cls(Recorder.start(state), humans, seat_names(players, humans, bots))
        if isinstance(edition, str) and edition.strip().lower().endswith(".json"):
            session.edition_file = edition
        return session

    @classmethod
    def resume(
        cls, path: str | Path, human_seat: int | Sequence[int] | None = None, bots: Sequence[str] | None = None
    ) -> tuple[MilleSession, Replay]:
        """Replay (and verify) a save file and continue it. The seats come from the file's
        header unless given; a :class:`~rallye.core.errors.RecordError` names a bad line."""
        lines = read_jsonl(path)
        replay = replay_lines(lines, str(path))
        humans, names = resumed_seats(lines[0][1], replay.initial.n_players, human_seat, bots, path)
        return cls(replay.recorder(), humans, names), replay

    # -- what the terminal may ask -------------------------------------------------------
    def _follow(self) -> None:
        """The keyboard passes to the person whose turn it is."""
        state = self.recorder.state
        if state.phase != "over" and state.current in self.human_seats:
            self.viewer = state.current

    def view(self) -> MilleView:
        """The view of the person at the keyboard: the only window the terminal has on the match."""
        return view_for(self.recorder.state, self.viewer)

    def legal(self) -> tuple[Action, ...]:
        """The legal moves of the person at the keyboard (empty when it is not their turn)."""
        return legal_from_view(self.view())

    @property
    def over(self) -> bool:
        return self.view().phase == "over"

    @property
    def human_to_act(self) -> bool:
        return self.view().is_my_turn

    def seat_tags(self) -> dict[int, str]:
        person = "you" if len(self.human_seats) == 1 else "human"
        return {s: (person if n is None else n) for s, n in enumerate(self.bot_names)}

    # -- moves -------------------------------------------------------------------------
    def _step(self, seat: int, action: Action) -> Move:
        before = self.view()
        self.recorder.step(seat, action)
        after = self.view()
        self._follow()
        return Move(seat, action, new_events(before, after, seat, action), after.sheets[len(before.sheets) :])

    def play(self, action: Action) -> Move:
        """The move of the person at the keyboard; an illegal one raises the engine's error
        and changes nothing."""
        return self._step(self.viewer, action)

    def bot_move(self) -> Move:
        """Let the bot whose turn it is choose, from its own view, and play."""
        state = self.recorder.state
        seat = state.current
        bot = self._bots.get(seat)
        if bot is None:
            raise RuntimeError(f"P{seat + 1} is a person's seat, not a bot's")
        view = view_for(state, seat)
        return self._step(seat, bot.choose(view, legal_from_view(view)))

    @property
    def seed(self) -> int:
        return self.recorder.state.seed

    def deal_options(self) -> list[str]:
        """The ``rallye play mille`` options (but ``--seed``) that deal this match again, with
        the same seats and bots."""
        state = self.recorder.state
        ed = state.edition
        builtin = ed.key in EDITION_KEYS and get_edition(ed.key) == ed
        edition = ed.key if builtin else (self.edition_file or ed.key)
        return [
            "--edition",
            edition,
            "--players",
            str(state.n_players),
            *seat_options(self.human_seats, self.bot_names),
        ]

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        self.recorder.save(p)
        return p


# -- the loop -------------------------------------------------------------------------------
_Quit = Quit


class _Loop(SavingLoop):
    game = GAME
    s: MilleSession

    def __init__(
        self,
        session: MilleSession,
        input_fn: InputFn,
        console: Console,
        lang: str | None,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
    ) -> None:
        ed = session.view().edition
        ui = ui_language(lang, ed.language if ed.language in LANGUAGES else "en")
        super().__init__(session, input_fn, console, save_path, delay, sleep, ui)
        self.lang = lang
        self.t = translator(ui, "mille")
        self.at_keyboard: int | None = None  # the person who saw their screen last

    def labels(self) -> Labels:
        return Labels.for_view(self.s.view(), self.s.seat_tags(), self.lang, self.ui)

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

    def announce(self, move: Move) -> None:
        lab = self.labels()
        for e in move.events:
            line = Text("  · ")
            line.append_text(event_text(e, lab))
            self.c.print(line)
        for sh in move.sheets:
            self.c.rule(Text(self.t("hand_over", hand=lab.word("hand"), n=sh.hand + 1), style="bold"))
            self.c.print(sheet_table(sh, lab))

    # -- commands ------------------------------------------------------------------------
    def command(self, line: str, *, moves: bool) -> Move | None:
        """Handle one input line; the move when one was made."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        w = word.lower()
        if w in ("help", "?", "h"):
            self.say(self.t("help", game=GAME))
        elif w == "hand":
            self.show_hand()
        elif w in ("show", "table", "board"):
            self.show()
        elif w in ("sheet", "score", "scores"):
            self.show_sheets()
        elif w == "save":
            self.save(rest.strip() or None)
        elif w in ("quit", "exit", "q"):
            self.quit()
        elif not moves:
            return None
        elif (k := choice_number(text)) is not None:
            legal = self.s.legal()
            if not 1 <= k <= len(legal):
                self.say(self.t("no_such_move", k=text[:6], n=len(legal)), "red")
                return None
            return self.move(legal[k - 1])
        else:
            try:
                action = parse_action(text)
            except GameError as exc:
                self.refuse(exc, self.t, understood=False, typed=text)
                self.say(self.t("type_a_move"), "dim")
                return None
            return self.move(action)
        return None

    def move(self, action: Action) -> Move | None:
        try:
            move = self.s.play(action)
        except GameError as exc:
            self.refuse(exc, self.t, typed=str(action))
            return None
        self.announce(move)
        return move

    # -- the game ------------------------------------------------------------------------
    def intro(self) -> None:
        v = self.s.view()
        lab = self.labels()
        self.say(f"{lab.title()} — " + self.tc.n("n_players", v.n_players), "bold")
        for i in range(len(v.sides)):
            mine = any(p in self.s.human_seats for p in v.sides[i]) and len(self.s.human_seats) == 1
            self.say(f"  {lab.side(i)}" + ("   ← " + self.t("your_side") if mine else ""))
        if len(self.s.human_seats) == 1:
            self.say(self.tc("you_play", seat=lab.seat(v.seat)), "dim")
        else:
            people = ", ".join(lab.seat(p) for p in self.s.human_seats)
            self.say(self.tc("people_play", seats=people), "dim")

    def hand_over_keyboard(self) -> None:
        """With several people at the keyboard: the pass screen before a new person's turn."""
        seat = self.s.viewer
        if len(self.s.human_seats) > 1 and seat != self.at_keyboard:
            self.pass_keyboard(self.labels().seat(seat))
        self.at_keyboard = seat

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
            if word in _INFO_COMMANDS:
                self.command(line, moves=False)
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
        self.seed_line(self.s.seed)
        if self.save_path is not None:
            self.save(None)

    def run(self) -> int:
        try:
            self.intro()
            while not self.s.over:
                if self.s.human_to_act:
                    self.hand_over_keyboard()
                    self.show()
                    move = None
                    while move is None:
                        try:
                            line = self.read(self.t("prompt") + " ")
                        except EOFError:
                            self.on_eof()
                        move = self.command(line, moves=True)
                else:
                    move = self.s.bot_move()
                    self.announce(move)
                    if self.delay:
                        self.sleep(self.delay)
                if move.sheets and not self.s.over:
                    self.between_hands()
            self.finish()
        except _Quit:
            pass
        except KeyboardInterrupt:
            return self.interrupted()
        return 0


_INFO_COMMANDS = frozenset(
    {"help", "?", "h", "hand", "show", "table", "board", "sheet", "score", "scores", "save", "quit", "exit", "q"}
)


def run_session(
    session: MilleSession,
    input_fn: InputFn,
    console: Console,
    *,
    lang: str | None = None,
    save_path: str | Path | None = None,
    delay: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Play ``session`` to its end (or until the person quits): 0 on a clean exit.

    ``input_fn(prompt)`` returns one line (raising ``EOFError`` at the end of input);
    ``console`` receives everything shown, in ``lang`` (default: the edition's language).
    ``save_path`` is where ``save``, the offer on ``quit`` and Ctrl-D save to, and where
    the finished record is written. The seed is shown only when the match is over.
    """
    return _Loop(session, input_fn, console, lang, save_path, delay, sleep).run()
