"""Mille Bornes in the terminal: a session (the controller) and the input loop.

:class:`MilleSession` holds the match in a :class:`~rallye.mille.record.Recorder` and the
bots; it hands the terminal the human's view only (``view_for(state, human_seat)``) and asks
each bot with that bot's own view. :func:`run_session` is the loop: it renders views,
reads lines through an injectable ``input_fn`` and prints to a rich ``Console``, so tests
drive it with a list of lines and a recording console.

A save file is the game record so far (``Recorder.save``). Its header carries, besides the
edition, players and seed, a ``"tui"`` object ``{"human_seat": 0, "bots": [null, "random"]}``
(0-based seat; a bot name per seat, ``null`` for the human) so ``--resume`` continues with
the same seats; ``rallye replay`` ignores that field.
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
from rallye.mille.actions import Action, parse_action
from rallye.mille.edition import Edition
from rallye.mille.engine import legal_from_view, new_match
from rallye.mille.record import Recorder, Replay, replay_lines
from rallye.mille.state import Event, ScoreSheet
from rallye.mille.view import MilleView, view_for
from rallye.tui.loop import HEADER_FIELD, Quit, SavingLoop, bot_seed, choice_number, saved_settings
from rallye.tui.render import (
    Labels,
    event_text,
    hand_table,
    moves_table,
    render_screen,
    result_text,
    sheet_table,
    totals_table,
)

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
    """The controller of one terminal match: the record, the bots, the human's seat."""

    def __init__(self, recorder: Recorder, human_seat: int, bot_names: Sequence[str | None]) -> None:
        state = recorder.state
        if not 0 <= human_seat < state.n_players:
            raise ValueError(f"seat {human_seat + 1} does not exist; seats are 1..{state.n_players}")
        if len(bot_names) != state.n_players:
            raise ValueError(f"need a bot name per seat ({state.n_players}), got {len(bot_names)}")
        self.recorder = recorder
        self.human_seat = human_seat
        self.bot_names: tuple[str | None, ...] = tuple(
            None if s == human_seat else bot_names[s] for s in range(state.n_players)
        )
        ply = sum(1 for line in recorder.lines if line.get("type") == "action")
        self._bots: dict[int, Agent] = {}
        for seat, name in enumerate(self.bot_names):
            if name is not None:
                self._bots[seat] = make_agent(GAME, name, bot_seed(state.seed, seat, ply))
        header = recorder.lines[0]
        header[HEADER_FIELD] = {"human_seat": human_seat, "bots": list(self.bot_names)}

    # -- building --------------------------------------------------------------------
    @classmethod
    def new(cls, edition: str | Edition, players: int, seed: int, human_seat: int, bots: Sequence[str]) -> MilleSession:
        """A fresh match; ``bots`` names the bots of the other seats, in seat order."""
        state = new_match(edition, players, seed)
        names: list[str | None] = []
        it = iter(bots)
        for seat in range(players):
            names.append(None if seat == human_seat else next(it))
        return cls(Recorder.start(state), human_seat, names)

    @classmethod
    def resume(
        cls, path: str | Path, human_seat: int | None = None, bots: Sequence[str] | None = None
    ) -> tuple[MilleSession, Replay]:
        """Replay (and verify) a save file and continue it. The seats come from the file's
        header unless given; a :class:`~rallye.core.errors.RecordError` names a bad line."""
        lines = read_jsonl(path)
        replay = replay_lines(lines, str(path))
        saved = saved_settings(lines[0][1], path)
        n = replay.initial.n_players
        seat = human_seat if human_seat is not None else saved.get("human_seat", 0)
        names: list[str | None]
        if bots is not None:
            it = iter(bots)
            names = [None if s == seat else next(it) for s in range(n)]
        else:
            saved_bots = saved.get("bots") or []
            names = [
                None if s == seat else (saved_bots[s] if s < len(saved_bots) and saved_bots[s] else "random")
                for s in range(n)
            ]
        return cls(replay.recorder(), seat, names), replay

    # -- what the terminal may ask -------------------------------------------------------
    def view(self) -> MilleView:
        """The human's view: the only window the terminal has on the match."""
        return view_for(self.recorder.state, self.human_seat)

    def legal(self) -> tuple[Action, ...]:
        """The human's legal moves (empty when it is not the human's turn)."""
        return legal_from_view(self.view())

    @property
    def over(self) -> bool:
        return self.view().phase == "over"

    @property
    def human_to_act(self) -> bool:
        return self.view().is_my_turn

    def seat_tags(self) -> dict[int, str]:
        return {s: ("you" if n is None else n) for s, n in enumerate(self.bot_names)}

    # -- moves -------------------------------------------------------------------------
    def _step(self, seat: int, action: Action) -> Move:
        before = self.view()
        self.recorder.step(seat, action)
        after = self.view()
        return Move(seat, action, new_events(before, after, seat, action), after.sheets[len(before.sheets) :])

    def play(self, action: Action) -> Move:
        """The human's move; an illegal one raises the engine's error and changes nothing."""
        return self._step(self.human_seat, action)

    def bot_move(self) -> Move:
        """Let the bot whose turn it is choose, from its own view, and play."""
        state = self.recorder.state
        seat = state.current
        bot = self._bots.get(seat)
        if bot is None:
            raise RuntimeError(f"P{seat + 1} is the human's seat, not a bot's")
        view = view_for(state, seat)
        return self._step(seat, bot.choose(view, legal_from_view(view)))

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        self.recorder.save(p)
        return p


# -- the loop -------------------------------------------------------------------------------
HELP = """\
Moves: type the number of a move from the list, or its notation:
  play D100        put a card on your own side (distance, remedy, safety)
  attack 2 STOP    put a hazard on opposing side 2
  discard ROLL     discard a card
  extend / decline after reaching the target alone: extend the hand, or end it
Commands:
  help             this text
  hand             your hand and your moves
  show             the whole table again
  sheet            the score sheets so far
  save [FILE]      save the game (resume with: rallye play mille --resume FILE)
  quit             leave (you are offered to save first)
Ctrl-D saves to the --save file (if you gave one) and leaves."""

PROMPT = "your move> "


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
        super().__init__(session, input_fn, console, save_path, delay, sleep)
        self.lang = lang

    def labels(self) -> Labels:
        return Labels.for_view(self.s.view(), self.s.seat_tags(), self.lang)

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
            self.say("No hand has been scored yet.", "dim")
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
            self.c.rule(Text(f"{lab.word('hand')} {sh.hand + 1} is over", style="bold"))
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
            self.say(HELP)
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
                self.say(f"there is no move {k}; the moves are numbered 1..{len(legal)}", "red")
                return None
            return self.move(legal[k - 1])
        else:
            try:
                action = parse_action(text)
            except GameError as exc:
                self.say(f"not understood: {exc}", "red")
                self.say("type a move number, a move like 'play D100', or 'help'", "dim")
                return None
            return self.move(action)
        return None

    def move(self, action: Action) -> Move | None:
        try:
            move = self.s.play(action)
        except GameError as exc:
            self.say(f"refused: {exc}", "red")
            return None
        self.announce(move)
        return move

    # -- the game ------------------------------------------------------------------------
    def intro(self) -> None:
        v = self.s.view()
        lab = self.labels()
        self.say(f"{v.edition.title} — {v.n_players} players", "bold")
        for i in range(len(v.sides)):
            self.say(f"  {lab.side(i)}" + ("   ← your side" if i == v.side else ""))
        self.say(f"You play {lab.seat(v.seat)}. Type 'help' for the commands.", "dim")

    def between_hands(self) -> None:
        """A pause after a hand's score sheet: Enter goes on; a typed move is not taken for
        Enter (it would be lost), the player is told the hand is over."""
        while True:
            try:
                line = self.read("Enter: next hand (or: sheet, save, quit)> ")
            except EOFError:
                self.on_eof()
            word = line.strip().split(" ")[0].lower()
            if not word:
                return
            if word in _INFO_COMMANDS:
                self.command(line, moves=False)
            else:
                self.say(
                    f"The hand is over, so {line.strip()!r} is not played: press Enter for the next hand.", "yellow"
                )

    def finish(self) -> None:
        v = self.s.view()
        lab = self.labels()
        self.c.rule(Text("The match is over", style="bold"))
        self.c.print(totals_table(v.sheets, lab))
        self.c.print(result_text(v.winners, v.totals, lab))
        if self.save_path is not None:
            self.save(None)

    def run(self) -> int:
        self.intro()
        try:
            while not self.s.over:
                if self.s.human_to_act:
                    self.show()
                    move = None
                    while move is None:
                        try:
                            line = self.read(PROMPT)
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
    ``console`` receives everything shown. ``save_path`` is where ``save``, the offer on
    ``quit`` and Ctrl-D save to, and where the finished record is written.
    """
    return _Loop(session, input_fn, console, lang, save_path, delay, sleep).run()
