"""What both terminal games share: choosing the bots, the settings kept in a save file's
header, and the loop: its turns, input, saving, quitting and end of input
(:class:`GameLoop`; a game's loop adds its screens and its commands)."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from rich.console import Console
from rich.text import Text

from rallye.core.errors import GameError, RecordError
from rallye.core.jsonio import shown
from rallye.i18n import Translator, translator
from rallye.tui.words import common

if TYPE_CHECKING:
    from rallye.analysis.analyse import DecisionViews
    from rallye.analysis.coach import Coach
    from rallye.tui.session import Played, Session

A = TypeVar("A")
V = TypeVar("V")

#: The record header field where the terminal keeps the human's seat and the bots.
HEADER_FIELD = "tui"
DEFAULT_BOT = "heuristic"


def bot_seed(seed: int, seat: int, ply: int) -> int:
    """A bot's own seed: fixed by the game seed, its seat and the move it starts at (so a
    resumed game's bots are as reproducible as a fresh game's)."""
    return (seed * 1_000_003 + seat * 10_007 + ply) % (2**32)


class UsageError(ValueError):
    """A mistake in ``rallye play``'s options, told in the player's language: the message
    ``msg_id`` of the common catalog (the exception's own text is its English words)."""

    def __init__(self, msg_id: str, **params: object) -> None:
        super().__init__(common("en")(msg_id, **params))
        self.msg_id = msg_id
        self.params = params

    def told(self, lang: str) -> str:
        return common(lang)(self.msg_id, **self.params)


def told(exc: Exception, lang: str) -> str:
    """An error's words for the player: a :class:`UsageError` in ``lang``, any other (the
    engine's, a bot's, a record's) as it is."""
    return exc.told(lang) if isinstance(exc, UsageError) else str(exc)


def resolve_bots(game: str, spec: str | None, count: int, note: Callable[[str], None], lang: str = "en") -> list[str]:
    """Bot names for ``count`` seats; a requested ``heuristic`` bot that is not installed is
    replaced by an available one, with a note in ``lang``. Unknown names raise ``ValueError``."""
    from rallye.agents.base import agent_names, parse_bots

    if count == 0:
        return []
    known = agent_names(game)
    names = [s.strip() for s in (spec or DEFAULT_BOT).split(",") if s.strip()] or [DEFAULT_BOT]
    unknown = next((n for n in names if n not in known and n != DEFAULT_BOT), None)
    if unknown is not None:
        raise UsageError("play.unknown_bot", bot=shown(unknown), known=", ".join(known))
    if DEFAULT_BOT in names and DEFAULT_BOT not in known:
        fallback = "random" if "random" in known else known[0]
        msg_id = "play.kr_bot_missing" if game == "knightrider" else "play.bot_missing"
        note(common(lang)(msg_id, bot=DEFAULT_BOT, fallback=fallback))
        names = [fallback if n == DEFAULT_BOT else n for n in names]
    return parse_bots(game, ",".join(names), count)


def saved_settings(header: dict[str, Any]) -> dict[str, Any]:
    """The terminal's settings stored in a record header (``{}`` if none or malformed); the
    people's seats are checked by :func:`saved_humans`."""
    raw = header.get(HEADER_FIELD)
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    seat = raw.get("human_seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        out["human_seat"] = seat
    bots = raw.get("bots")
    if isinstance(bots, list) and all(b is None or isinstance(b, str) for b in bots):
        out["bots"] = bots
    return out


def parse_humans(spec: str, players: int) -> tuple[int, ...]:
    """The seats people play at one keyboard (``--humans 1,3``), 0-based and in order.

    >>> parse_humans("3, 1", 4)
    (0, 2)
    >>> parse_humans("1,5", 4)
    Traceback (most recent call last):
    ...
    rallye.tui.loop.UsageError: --humans: seat 5 does not exist; seats are 1..4
    """
    seats: list[int] = []
    for part in spec.split(","):
        word = part.strip()
        if not word:
            continue
        if not (word.isascii() and word.isdigit()) or len(word) > 3:  # not "²"
            raise UsageError("play.humans_not_number", word=repr(word[:20]))
        seat = int(word)
        if not 1 <= seat <= players:
            raise UsageError("play.humans_no_seat", seat=seat, players=players)
        if seat - 1 in seats:
            raise UsageError("play.humans_twice", seat=seat)
        seats.append(seat - 1)
    if not seats:
        raise UsageError("play.humans_none")
    return tuple(sorted(seats))


def human_seats_arg(seat_arg: int | None, humans_arg: str | None, players: int) -> tuple[int, ...] | None:
    """The people's seats from ``--seat`` or ``--humans`` (``None``: neither was given)."""
    if seat_arg is not None and humans_arg is not None:
        raise UsageError("play.seat_or_humans")
    if humans_arg is not None:
        return parse_humans(humans_arg, players)
    if seat_arg is not None:
        if not 1 <= seat_arg <= players:
            raise UsageError("play.seat_range", seat=seat_arg, players=players)
        return (seat_arg - 1,)
    return None


def saved_humans(header: dict[str, Any], players: int, source: str | Path | None = None) -> tuple[int, ...]:
    """The people's seats a save file names (``human_seats``, else ``human_seat``; seat 1
    when it names none). Seats that do not exist raise a
    :class:`~rallye.core.errors.RecordError` naming ``source``; without a ``source``
    (a summary, not a resume) they are left out."""
    raw = header.get(HEADER_FIELD)
    if not isinstance(raw, dict) or ("human_seats" not in raw and "human_seat" not in raw):
        return (0,)
    wanted = raw.get("human_seats", [raw.get("human_seat")])
    seats = wanted if isinstance(wanted, list) else [wanted]
    good = [s for s in seats if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players]
    if seats and len(good) == len(seats) and len(set(good)) == len(good):
        return tuple(sorted(good))
    if source is None:
        return tuple(sorted(set(good)))
    said = ", ".join(shown(s, 12) for s in seats[:5]) or "none"
    raise RecordError(
        f"{source}: line 1: the terminal's seats for people ({said}, 0-based) are not seats of a "
        f"{players}-player game; choose with --seat or --humans",
        rule="record-header",
    )


def resume_choices(
    source: str | Path,
    header: dict[str, Any],
    seat_arg: int | None,
    bots_arg: str | None,
    resolve: Callable[[str | None, int], list[str]],
    humans_arg: str | None = None,
) -> tuple[tuple[int, ...] | None, list[str] | None]:
    """The people's seats (0-based) and bots a resumed game should use: ``--seat``,
    ``--humans`` and ``--bots`` if given, else what the save holds (``None`` = as saved). A
    saved ``heuristic`` bot is resolved again in case it is not installed. Bad input raises
    ``ValueError`` or ``RecordError``."""
    players = header.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(f"{source}: line 1: the header has no player count", rule="record-header")
    seats = human_seats_arg(seat_arg, humans_arg, players)
    if bots_arg is not None:
        return seats, resolve(bots_arg, players - 1)
    saved = saved_settings(header).get("bots") or []
    if any(b == DEFAULT_BOT for b in saved):  # saved with a bot that may be gone since
        return seats, resolve(",".join(b for b in saved if b), players - 1)
    return seats, None


def seat_options(humans: Sequence[int], bot_names: Sequence[str | None]) -> list[str]:
    """The ``rallye play`` options that seat the people and bots as ``humans`` and
    ``bot_names`` say (none for the defaults: seat 1 and the heuristic bot).

    >>> seat_options((1,), ["easy", None, "random", "random"])
    ['--seat', '2', '--bots', 'easy,random']
    >>> seat_options((0, 2), [None, "heuristic", None])
    ['--humans', '1,3']
    """
    out: list[str] = []
    if len(humans) > 1:
        out += ["--humans", ",".join(str(s + 1) for s in humans)]
    elif tuple(humans) != (0,):
        out += ["--seat", str(humans[0] + 1)]
    bots = [b for b in bot_names if b is not None]
    while len(bots) > 1 and bots[-1] == bots[-2]:  # --bots repeats its last name
        bots.pop()
    if any(b != DEFAULT_BOT for b in bots):
        out += ["--bots", ",".join(bots)]
    return out


def seat_names(n_players: int, humans: Sequence[int], bots: Sequence[str]) -> list[str | None]:
    """A bot name per seat (``None`` for a person), ``bots`` naming the other seats in order."""
    it = iter(bots)
    names: list[str | None] = []
    for seat in range(n_players):
        if seat in humans:
            names.append(None)
        else:
            name = next(it, None)
            if name is None:
                raise ValueError(f"need a bot name for each of the {n_players - len(humans)} bot seats")
            names.append(name)
    return names


def people(human_seat: int | Sequence[int], players: int) -> tuple[int, ...]:
    """The people's seats (one seat or several), sorted and checked (0-based)."""
    humans = (human_seat,) if isinstance(human_seat, int) else tuple(sorted(set(human_seat)))
    if not humans:
        raise ValueError("at least one seat must be a person's")
    for seat in humans:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat + 1} does not exist; seats are 1..{players}")
    return humans


def session_seats(
    players: int, human_seat: int | Sequence[int], bot_names: Sequence[str | None]
) -> tuple[tuple[int, ...], tuple[str | None, ...]]:
    """A session's people and its bot name per seat (``None`` for a person), checked."""
    humans = people(human_seat, players)
    if len(bot_names) != players:
        raise ValueError(f"need a bot name per seat ({players}), got {len(bot_names)}")
    names = tuple(None if s in humans else bot_names[s] for s in range(players))
    if any(names[s] is None for s in range(players) if s not in humans):
        raise ValueError("every seat that is not a person's needs a bot name")
    return humans, names


def resumed_seats(
    header: dict[str, Any],
    players: int,
    human_seat: int | Sequence[int] | None,
    bots: Sequence[str] | None,
    source: str | Path = "the save file",
) -> tuple[tuple[int, ...], list[str | None]]:
    """The people and bots of a resumed game: as given, else as the save's header says
    (a seat saved without a bot name gets the random bot)."""
    humans = saved_humans(header, players, source) if human_seat is None else people(human_seat, players)
    if bots is not None:
        return humans, seat_names(players, humans, bots)
    saved = saved_settings(header).get("bots") or []
    names: list[str | None] = [
        None if s in humans else (saved[s] if s < len(saved) and saved[s] else "random") for s in range(players)
    ]
    return humans, names


def resume_args(
    args: argparse.Namespace, header: dict[str, Any], resolve: Callable[[str | None, int], list[str]]
) -> tuple[tuple[int, ...] | None, list[str] | None]:
    """:func:`resume_choices` for ``rallye play``'s parsed arguments."""
    return resume_choices(args.resume, header, args.seat, args.bots, resolve, getattr(args, "humans", None))


def coach_wanted(args: argparse.Namespace, humans: Sequence[int]) -> bool:
    """Whether ``hint`` works: ``--coach`` / ``--no-coach``, else on for one person alone
    with bots (several people at one keyboard would see each other's hints)."""
    wanted: bool | None = getattr(args, "coach", None)
    return len(humans) == 1 if wanted is None else wanted


def play_note(console: Console, msg: str) -> None:
    """A note of ``rallye play`` before the game (a bot replaced, a language missing)."""
    console.print(Text(msg, style="yellow"), soft_wrap=True)


def play_failed(console: Console, msg: str) -> int:
    """``rallye play`` refuses to start: the reason, and exit status 2."""
    console.print(Text(f"rallye play: {msg}", style="bold red"), soft_wrap=True)
    return 2


def clear_screen(console: Console) -> None:
    """Clear the terminal, its scrollback too, so the last player's hand cannot be read."""
    console.clear()
    if getattr(console, "is_terminal", False):
        console.file.write("\x1b[3J")
        console.file.flush()


def choice_number(text: str) -> int | None:
    """The menu number a player typed, or ``None`` if ``text`` is not one: ASCII digits only
    (``str.isdigit`` also takes '²', which ``int`` refuses), and a number longer than any
    menu (5,000 digits would be refused by ``int`` too) stands for no choice (``0``)."""
    if not (text.isascii() and text.isdigit()):
        return None
    return int(text) if len(text) <= 9 else 0


class Quit(Exception):
    """The player left the game (after the offer to save)."""


class SavingLoop(Generic[A, V]):
    """Base of a game's terminal loop: ``self.s`` is the session, ``self.c`` the console."""

    #: the game's name in ``rallye play GAME`` (for the resume hint)
    game = ""

    def __init__(
        self,
        session: Session[A, V],
        input_fn: Callable[[str], str],
        console: Console,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
        ui: str = "en",
        words: Translator | None = None,
    ) -> None:
        self.ui = ui
        self.tc = common(ui)
        self.t = words if words is not None else self.tc  # the game's words (its catalog)
        self.s = session
        self.input_fn = input_fn
        self.c = console
        self.save_path = Path(save_path) if save_path else None
        self.delay = delay
        self.sleep = sleep

    def say(self, text: str, style: str = "") -> None:
        self.c.print(Text(text, style=style), soft_wrap=True)

    def read(self, prompt: str) -> str:
        return self.input_fn(prompt)

    def save(self, path: str | Path | None) -> bool:
        target = Path(path) if path else self.save_path
        if target is None:
            self.say(self.tc("save.give_name"), "yellow")
            return False
        try:
            self.s.save(target)
        except OSError as exc:
            self.say(self.tc("save.failed", path=target, reason=exc.strerror or exc), "red")
            return False
        self.save_path = target
        done = "save.done_over" if self.s.over else "save.done"  # a finished game is not resumed
        self.say(self.tc(done, path=target, game=self.game), "green")
        return True

    def quit(self) -> NoReturn:
        if self.save_path is not None:
            question = self.tc("quit.save_to", path=self.save_path) + " "
        else:
            question = self.tc("quit.save_where") + " "
        try:
            answer = self.read(question).strip()
        except EOFError:
            self.c.print()
            answer = "y" if self.save_path is not None else ""
        yes = {"y", "yes", *self.tc("answer.yes").split(",")}
        no = {"n", "no", *self.tc("answer.no").split(",")}
        if self.save_path is not None:
            if answer.lower() in yes or not answer:
                self.save(None)
            elif answer.lower() not in no:
                self.save(answer)
        elif answer and answer.lower() not in no:
            self.save(answer)
        self.say(self.tc("bye"))
        raise Quit

    def on_eof(self) -> NoReturn:
        self.c.print()
        if self.save_path is not None:
            self.save(None)
        else:
            self.say(self.tc("eof.not_saved"), "yellow")
        raise Quit

    def interrupted(self) -> int:
        """Ctrl-C: the game is saved when it has a save file (``--save``/``--resume``), else
        the player is told how to keep a game next time. Exit status 130, as for any Ctrl-C."""
        self.c.print()
        if self.save_path is not None:
            if not self.s.over:  # a finished game was saved as it ended
                self.save(None)
        elif not self.s.kept_by_server:
            self.say(self.tc("interrupt.not_saved", game=self.game), "yellow")
        self.say(self.tc("interrupted"))
        return 130

    def refuse(
        self, exc: GameError, game_words: Translator, *, understood: bool = True, typed: str | None = None
    ) -> None:
        """An engine's refusal, in the screen's language only: what was typed (or the move's
        notation) and the rule broken. The engine's own English line (which says ``P1``
        where the screen may say ``S1``) is not shown; a rule the catalogs do not know is
        named by its code."""
        key = f"rule.{exc.rule}"
        prefix = "refused" if understood else "not_understood"
        words = game_words
        if not game_words.has(key):  # a table server's refusal (rallye join): its code, in the pages' words
            words, key = translator(self.ui, "web"), f"code.{exc.rule}"
        reason = words(key) if exc.rule and words.has(key) else self.tc("refused.rule", rule=exc.rule or exc.code)
        if typed:
            text = typed.strip()
            reason = self.tc("refused.typed", typed=text[:40] + ("…" if len(text) > 40 else ""), reason=reason)
        self.say(self.tc(prefix, error=reason), "red")

    def pass_keyboard(self, seat_label: str) -> None:
        """Between two people's turns: clear the screen and wait until the next one is at
        the keyboard (Enter), so nobody sees another's hand. ``save`` and ``quit`` work."""
        clear_screen(self.c)
        self.say(self.tc("pass.screen", who=seat_label), "bold reverse")
        while True:
            try:
                line = self.read(self.tc("pass.prompt", who=seat_label) + " ")
            except EOFError:
                self.on_eof()
            word, _, rest = line.strip().partition(" ")
            if not word:
                clear_screen(self.c)
                return
            if word.lower() in ("quit", "exit", "q"):
                self.quit()
            elif word.lower() == "save":
                self.save(rest.strip() or None)
            else:
                self.say(self.tc("pass.only_enter", who=seat_label), "yellow")

    def seed_line(self, seed: int | None) -> None:
        """At the end, and only then: the seed that rebuilds every hand, in a command that
        carries every option the deal needs (the session's ``deal_options()``)."""
        words = ["rallye", "play", self.game, *self.s.deal_options(), "--seed", str(seed)]
        command = " ".join(shlex.quote(w) for w in words)
        self.say(self.tc("seed.at_end", seed=seed, command=command), "dim")


class GameLoop(SavingLoop[A, V]):
    """A game's terminal loop: the people's turns (the pass screen between two people at one
    keyboard, the screen, the prompt and the commands) and the bots' moves, to the end.

    A game's loop gives its words (``self.t``, its catalog), its screens (:meth:`show`,
    :meth:`announce`, :meth:`intro`, :meth:`finish`) and its commands (:meth:`game_command`)."""

    #: the person who saw their screen last
    at_keyboard: int | None = None
    #: whether ``hint`` shows the coach's hint (``rallye play``: one person with bots, or ``--coach``)
    coach_on: bool = False
    #: the coach, made at the first hint (:class:`rallye.analysis.coach.Coach`)
    coach: Coach | None = None
    #: the people's views at their decisions, followed along the record from one hint to
    #: the next (:class:`rallye.analysis.analyse.DecisionViews`, made at the first hint)
    coach_views: DecisionViews | None = None

    # -- what a game's loop gives ------------------------------------------------------------
    def seat_label(self, seat: int) -> str:
        """A seat as the screen names it."""
        raise NotImplementedError

    def intro(self) -> None:
        raise NotImplementedError

    def show(self) -> None:
        """The screen of the person to act."""
        raise NotImplementedError

    def new_turn(self) -> None:
        """Before a person's screen: the game's menus for the new turn."""

    def game_command(self, text: str, word: str, rest: str) -> Played[A, V] | None:
        """The game's commands and moves (``word``: the first of ``text``, in lower case;
        ``rest``: what follows it); the move when one was made."""
        raise NotImplementedError

    def announce(self, played: Played[A, V]) -> None:
        raise NotImplementedError

    def coach_names(self) -> Callable[[str], str] | None:
        """How the coach's reasons name the game's cards (Mille Bornes: the box's names)."""
        return None

    def coach_who(self, kind: str, index: int) -> str:
        """How the coach's reasons name a side or a player (``kind``: "side", "player"; from
        0): as this screen names them (default: the seat's label)."""
        return self.seat_label(index)

    def menu_number(self, action: A) -> int | None:
        """The number the screen's list gives ``action`` (None: not listed)."""
        return None

    def pause_after(self, played: Played[A, V]) -> bool:
        """Whether a bot's move is followed by the pause (``--delay``)."""
        return True

    def after_move(self, played: Played[A, V]) -> None:
        """After any move (a pause between hands, for one)."""

    def finish(self) -> None:
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------------------
    def command(self, line: str) -> Played[A, V] | None:
        """Handle one input line: ``help``, ``save [FILE]`` and ``quit`` here, the rest the
        game's; the move when one was made."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        if self.shared_command(word.lower(), rest):
            return None
        return self.game_command(text, word.lower(), rest)

    def typed(self, text: str, parse: Callable[[str], A], hint: str) -> A | None:
        """An action typed in the game's notation; one not understood is told, with the
        game's ``hint`` message on how to type one."""
        try:
            return parse(text)
        except GameError as exc:
            self.refuse(exc, self.t, understood=False, typed=text)
            self.say(self.t(hint), "dim")
            return None

    def move(self, action: A) -> Played[A, V] | None:
        """The person's move, announced; a refused one is told (in the screen's words) and
        changes nothing."""
        try:
            played = self.s.play(action)
        except GameError as exc:
            self.refuse(exc, self.t, typed=str(action))
            return None
        self.announce(played)
        return played

    def shared_command(self, word: str, rest: str) -> bool:
        """``help``, ``save [FILE]`` and ``quit``: whether ``word`` was one of them."""
        if word in ("help", "?", "h"):
            self.say(self.t("help", game=self.game))
        elif word == "save":
            self.save(rest.strip() or None)
        elif word in ("quit", "exit", "q"):
            self.quit()
        elif word == "hint":
            self.show_hint()
        else:
            return False
        return True

    def show_hint(self) -> None:
        """The coach's hint for the person to act, from their view (shown, not played)."""
        if not self.coach_on:
            self.say(self.tc("hint.online" if self.s.kept_by_server else "hint.off"), "yellow")
            return
        from rallye.analysis.coach import Coach
        from rallye.tui.coach import hint_lines

        if self.coach is None:
            self.coach = Coach(self.game)
        try:
            hint = self.coach.hint(self.s.view(), self.s.legal(), self.coach_history())
        except (ValueError, GameError) as exc:  # a position the coach cannot read: the game goes on
            self.say(self.tc("hint.failed", error=str(exc)[:200]), "yellow")
            return
        lines = hint_lines(hint, self.ui, self.coach_names(), self.menu_number(hint.best), self.coach_who)
        for i, line in enumerate(lines):
            self.say(line, "bold cyan" if i == 0 else "cyan")

    def coach_history(self) -> tuple[Any, ...]:
        """The person's views at their earlier decisions, from the game's record (what they
        saw before: the coach's hand tracker follows the opponent's hand through them); the
        record is read from its start at the first hint only, then move by move."""
        from rallye.analysis.analyse import DecisionViews
        from rallye.games import game_for

        lines = getattr(self.s, "lines", None)
        if lines is None:  # a session without a record here: the view alone
            return ()
        if self.coach_views is None:
            self.coach_views = DecisionViews(game_for(self.game))
        return self.coach_views.of(lines, self.s.viewer)

    def who_plays(self) -> None:
        """The intro's last line: the seat of the person at the keyboard, or the people's."""
        if len(self.s.human_seats) == 1:
            self.say(self.tc("you_play", seat=self.seat_label(self.s.viewer)), "dim")
        else:
            seats = ", ".join(self.seat_label(p) for p in self.s.human_seats)
            self.say(self.tc("people_play", seats=seats), "dim")

    def hand_over_keyboard(self) -> None:
        """With several people at the keyboard: the pass screen before a new person's turn."""
        seat = self.s.viewer
        if len(self.s.human_seats) > 1 and seat != self.at_keyboard:
            self.pass_keyboard(self.seat_label(seat))
        self.at_keyboard = seat

    def ended(self) -> None:
        """The end's last lines: the seed (and the finished game saved, with a save file)."""
        self.seed_line(self.s.seed)
        if self.save_path is not None:
            self.save(None)

    def run(self) -> int:
        """Play to the end (or until the person quits): 0 on a clean exit, 130 on Ctrl-C."""
        try:
            self.intro()
            while not self.s.over:
                played: Played[A, V] | None
                if self.s.human_to_act:
                    self.hand_over_keyboard()
                    self.new_turn()
                    self.show()
                    played = None
                    while played is None:
                        try:
                            line = self.read(self.t("prompt") + " ")
                        except EOFError:
                            self.on_eof()
                        played = self.command(line)
                else:
                    played = self.s.bot_move()
                    self.announce(played)
                    if self.delay and self.pause_after(played):
                        self.sleep(self.delay)
                self.after_move(played)
            self.finish()
        except Quit:
            pass
        except KeyboardInterrupt:
            return self.interrupted()
        return 0
