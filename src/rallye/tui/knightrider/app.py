"""Knight Rider in the terminal: a session (the controller) and the input loop.

:class:`KRSession` holds the game in a :class:`~rallye.knightrider.record.Recorder` and
the bots; it hands the terminal the human's view only (``view_for(state, human_seat)``)
and asks each bot with that bot's own view and the legal actions. :func:`run_session` is
the loop: it renders views, reads lines through an injectable ``input_fn`` and prints to
a rich ``Console``, so tests drive it with a list of lines and a recording console.

A save file is the game record so far (``rallye.knightrider.record``). Its header
carries, besides players, seed and options, a ``"tui"`` object
``{"human_seat": 0, "bots": [null, "random", "random"]}`` (0-based seat; a bot name per
seat, ``null`` for the human; with several people also ``"human_seats": [0, 2]``) so
``--resume`` continues with the same seats; replay verifies the game without that
field. (The record module's ``Recorder`` has no way to add header fields, so
:meth:`KRSession.lines` adds it to a copy of the header.)

The menus a person sees: while building, the placements of the drawn tile, numbered and
grouped by square (the squares are lettered on the map); in a turn, the moves sorted by
distance to the villain (the first nine shown and marked ``#1`` … ``#9`` on the map, ``all`` for the
rest), then the playable K.I.T.T. cards and ``end``; detour cards are listed per square
with ``detours X,Y`` and picked as ``d1``, ``d2``…
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from rallye.agents.base import Agent, make_agent
from rallye.core.errors import GameError
from rallye.core.record import Line, read_jsonl
from rallye.core.rng import new_seed
from rallye.i18n import translator
from rallye.knightrider.actions import Action, End, Enter, Move, Place, PlayDetour, PlayKitt, Recover, StartAt
from rallye.knightrider.actions import parse_action as _parse_action
from rallye.knightrider.engine import legal_actions
from rallye.knightrider.pieces import Pieces
from rallye.knightrider.record import Recorder, replay, save
from rallye.knightrider.state import Options
from rallye.knightrider.view import EventView, View, view_for
from rallye.tui.knightrider.render import (
    Labels,
    MoveInfo,
    action_text,
    actions_table,
    event_text,
    hand_text,
    move_infos,
    move_mark,
    moves_table,
    placements_table,
    render_screen,
    square_letters,
    variant_words,
)
from rallye.tui.loop import (
    HEADER_FIELD,
    Quit,
    SavingLoop,
    bot_seed,
    choice_number,
    human_seats_arg,
    people,
    resume_args,
    resumed_seats,
    saved_settings,
    seat_names,
    seat_options,
    session_seats,
    told,
)
from rallye.tui.loop import resolve_bots as _resolve_bots
from rallye.tui.words import common, ui_language

GAME = "knightrider"
DEFAULT_PLAYERS = 3
MOVES_SHOWN = 9
InputFn = Callable[[str], str]


def resolve_bots(spec: str | None, count: int, note: Callable[[str], None], lang: str = "en") -> list[str]:
    """Bot names for ``count`` seats (see :func:`rallye.tui.loop.resolve_bots`)."""
    return _resolve_bots(GAME, spec, count, note, lang)


@dataclass(frozen=True)
class Step:
    """One action as the human may learn of it: who, what, and the public events it caused."""

    seat: int
    action: Action
    events: tuple[EventView, ...]


class KRSession:
    """The controller of one terminal game: the record, the bots, the people's seats.

    Several people may play at one keyboard (``human_seats``); the terminal shows the view
    of the one at the keyboard (:attr:`viewer`: the person to act, else the last one who did).
    """

    def __init__(self, recorder: Recorder, human_seat: int | Sequence[int], bot_names: Sequence[str | None]) -> None:
        state = recorder.state
        humans, self.bot_names = session_seats(state.players, human_seat, bot_names)
        self.recorder = recorder
        self.human_seats: tuple[int, ...] = humans
        self.viewer = humans[0]
        self.options: Options = state.options
        self.players = state.players
        self.seed = state.seed
        ply = self.actions_played
        self._bots: dict[int, Agent] = {}
        for seat, name in enumerate(self.bot_names):
            if name is not None:
                self._bots[seat] = make_agent(GAME, name, bot_seed(state.seed, seat, ply))
        self._follow()

    @property
    def human_seat(self) -> int:
        """The first person's seat (the only one in a game against bots)."""
        return self.human_seats[0]

    # -- building --------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        human_seat: int | Sequence[int],
        bots: Sequence[str],
        options: Options | None = None,
    ) -> KRSession:
        """A fresh game; ``bots`` names the bots of the other seats, in seat order."""
        humans = people(human_seat, players)
        return cls(Recorder(players, seed, options), humans, seat_names(players, humans, bots))

    @classmethod
    def resume(
        cls, path: str | Path, human_seat: int | Sequence[int] | None = None, bots: Sequence[str] | None = None
    ) -> KRSession:
        """Replay (and verify) a save file and continue it. The seats come from the file's
        header unless given; a :class:`~rallye.core.errors.RecordError` names a bad line."""
        lines = read_jsonl(path)
        replay(lines, source=str(path))  # verifies every line, naming the first bad one
        head = lines[0][1]
        recorder = Recorder(
            head["players"], head["seed"], Options.from_json(head["options"]), rules=head.get("rules", 1)
        )  # an old save goes on with the set-up of its rules (issue #62)
        for _, line in lines[1:]:
            if line.get("type") == "action":
                recorder.play(_parse_action(line["action"]))
        humans, names = resumed_seats(head, recorder.state.players, human_seat, bots, path)
        return cls(recorder, humans, names)

    def deal_options(self) -> list[str]:
        """The ``rallye play knightrider`` options (but ``--seed``) that deal this game again
        (the variants, the piece files), with the same seats and bots."""
        o = self.options
        out = ["--players", str(self.players)]
        out += [flag for flag, on in (("--quick-build", o.quick_build), ("--rolled-start", o.rolled_start)) if on]
        out += ["--tour", str(o.tour)] if o.tour else []
        out += [flag for flag, on in (("--deal-spares", o.deal_spares), ("--shuffle-cards", o.shuffle_cards)) if on]
        out += ["--tiles", o.tiles_path] if o.tiles_path else []
        out += ["--escape-cards", o.escape_path] if o.escape_path else []
        return out + seat_options(self.human_seats, self.bot_names)

    # -- what the terminal may ask -------------------------------------------------------
    def _follow(self) -> None:
        """The keyboard passes to the person whose turn it is."""
        state = self.recorder.state
        if state.phase != "over" and state.current in self.human_seats:
            self.viewer = state.current

    def view(self) -> View:
        """The view of the person at the keyboard: the only window the terminal has on the game."""
        return view_for(self.recorder.state, self.viewer)

    def legal(self) -> tuple[Action, ...]:
        """The legal actions of the person at the keyboard (empty when it is not their turn)."""
        if not self.human_to_act:
            return ()
        return legal_actions(self.recorder.state)

    @property
    def pieces(self) -> Pieces:
        """The box's tiles and escape cards (public: printed on the pieces)."""
        return self.options.pieces()

    @property
    def over(self) -> bool:
        return self.view().over

    @property
    def human_to_act(self) -> bool:
        v = self.view()
        return not v.over and v.current == self.viewer

    @property
    def actions_played(self) -> int:
        return sum(1 for line in self.recorder.lines() if line.get("type") == "action")

    def seat_tags(self) -> dict[int, str]:
        person = "you" if len(self.human_seats) == 1 else "human"
        return {s: (person if n is None else n) for s, n in enumerate(self.bot_names)}

    # -- moves -------------------------------------------------------------------------
    def _step(self, seat: int, action: Action) -> Step:
        self.recorder.play(action)
        step = Step(seat, action, self.view().events)
        self._follow()
        return step

    def play(self, action: Action) -> Step:
        """The action of the person at the keyboard; an illegal one raises the engine's
        error and changes nothing."""
        if not self.human_to_act:
            raise RuntimeError("it is not a person's turn")
        return self._step(self.viewer, action)

    def bot_move(self) -> Step:
        """Let the bot whose turn it is choose, from its own view and the legal actions."""
        state = self.recorder.state
        seat = state.current
        bot = self._bots.get(seat)
        if bot is None:
            raise RuntimeError(f"P{seat + 1} is a person's seat, not a bot's")
        view = view_for(state, seat)
        return self._step(seat, bot.choose(view, legal_actions(state)))

    def lines(self) -> list[Line]:
        """The record so far, its header carrying the seats (``"tui"``)."""
        out = self.recorder.lines()
        tui: dict[str, object] = {"human_seat": self.human_seats[0], "bots": list(self.bot_names)}
        if len(self.human_seats) > 1:
            tui["human_seats"] = list(self.human_seats)
        out[0] = {**out[0], HEADER_FIELD: tui}
        return out

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        save(p, self.lines())
        return p


# -- the loop -------------------------------------------------------------------------------
_KITT_WORDS = {"mantle": "MANTLE", "turbo1": "TURBO1", "turbo2": "TURBO2"}
#: Events that only repeat the action line printed above them.
_SAID_BY_THE_ACTION = frozenset({"detour", "enter", "recover"})


_Quit = Quit


class _Loop(SavingLoop):
    game = GAME
    s: KRSession

    def __init__(
        self,
        session: KRSession,
        input_fn: InputFn,
        console: Console,
        lang: str,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
    ) -> None:
        super().__init__(session, input_fn, console, save_path, delay, sleep, lang)
        self.lang = lang
        self.t = translator(lang, "kr")
        self.menu: list[Action] = []
        self.dmenu: list[PlayDetour] = []
        self.letters: dict[tuple[int, int], str] = {}
        self.show_all = False
        self.infos: list[MoveInfo] = []
        self.at_keyboard: int | None = None  # the person who saw their screen last

    def labels(self) -> Labels:
        return Labels.for_view(self.s.view(), self.s.seat_tags(), self.lang, self.s.pieces)

    # -- menus -----------------------------------------------------------------------------
    def build_menu(self) -> None:
        """Number the person's choices (moves nearest the villain first)."""
        legal = self.s.legal()
        view = self.s.view()
        self.dmenu = []
        if view.phase == "turn":
            infos = move_infos(view, [a for a in legal if isinstance(a, Move)])
            menu: list[Action] = [i.move for i in infos]
            menu += [a for a in legal if isinstance(a, PlayKitt | Recover | End)]
            self.infos = infos
            self.menu = menu
        else:
            self.infos = []
            self.menu = list(legal)
        self.letters = square_letters([(a.x, a.y) for a in self.menu if isinstance(a, Place)])

    def menu_parts(self) -> tuple[list[RenderableType], dict[tuple[int, int], str]]:
        """The menu's tables, and the move marks (``#1`` … ``#9``) to put on the map."""
        view = self.s.view()
        lab = self.labels()
        parts: list[RenderableType] = []
        marks: dict[tuple[int, int], str] = {}
        if view.phase == "build":
            entries = [(n, a) for n, a in enumerate(self.menu, 1) if isinstance(a, Place)]
            parts.append(placements_table(view, lab, entries, self.letters))
        elif view.phase == "turn":
            n_moves = len(self.infos)
            shown = n_moves if self.show_all else min(n_moves, MOVES_SHOWN)
            if n_moves:
                entries_m = list(enumerate(self.infos[:shown], 1))
                parts.append(moves_table(view, lab, entries_m, n_moves - shown))
                for n, info in reversed(entries_m):
                    if move_mark(n):
                        marks[(info.move.x, info.move.y)] = move_mark(n)
            rest = [(str(n), a) for n, a in enumerate(self.menu, 1) if n > n_moves]
            if rest:
                parts.append(actions_table(self.t("menu.other"), lab, rest))
            if any(isinstance(a, PlayDetour) for a in self.s.legal()):
                parts.append(Text(self.t("menu.detour_hint"), style="dim"))
        else:
            title = self.t("menu.start") if view.phase == "start" else self.t("menu.enter")
            parts.append(actions_table(title, lab, [(str(n), a) for n, a in enumerate(self.menu, 1)]))
        return parts, marks

    def show(self) -> None:
        view = self.s.view()
        parts, marks = self.menu_parts()
        squares = {(a.x, a.y): self.letters[(a.x, a.y)] for a in self.menu if isinstance(a, Place)}
        size = (self.c.width, self.c.height) if getattr(self.c, "is_terminal", False) else None
        self.c.print(render_screen(view, self.labels(), parts, cell_marks=marks, square_marks=squares, size=size))

    def show_detours(self, arg: str) -> None:
        view = self.s.view()
        if arg:
            try:
                xs, ys = arg.replace(" ", "").split(",")
                if len(xs) > 4 or len(ys) > 4:
                    raise ValueError(arg)
                sq = (int(xs), int(ys))
            except ValueError:
                self.say(self.t("detours.not_a_square", arg=arg[:40]), "red")
                return
        elif view.villain is not None:
            sq = (view.villain[0] // 3, view.villain[1] // 3)
        else:
            self.say(self.t("detours.give_square"), "red")
            return
        lab = self.labels()
        options = [a for a in self.s.legal() if isinstance(a, PlayDetour) and (a.x, a.y) == sq]
        if not options:
            why = self.t("detours.played" if view.detour_played else "detours.none_fits")
            self.say(self.t("detours.none", square=lab.at_square(*sq), why=why), "yellow")
            self.dmenu = []
            return
        self.dmenu = options
        self.c.print(
            actions_table(
                self.t("detours.title", square=lab.at_square(*sq)),
                lab,
                [(f"d{n}", a) for n, a in enumerate(options, 1)],
            )
        )

    def announce(self, step: Step) -> None:
        lab = self.labels()
        line = Text("  ")  # every action is echoed, the person's too: a log to scroll back through
        line.append_text(lab.seat_text(step.seat))
        line.append(" " + action_text(step.action, lab))
        self.c.print(line)
        for e in step.events:
            if e.kind in _SAID_BY_THE_ACTION:
                continue  # the action line above said it (a detour with its square)
            if e.kind == "turn":
                self.c.rule(Text(event_text(e, lab).plain, style="bold"), align="left")
                continue
            line = Text("    · ")
            line.append_text(event_text(e, lab))
            self.c.print(line)

    # -- commands ------------------------------------------------------------------------------
    def command(self, line: str) -> Step | None:
        """Handle one input line; the step when an action was played."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        w = word.lower()
        if w in ("help", "?", "h"):
            self.say(self.t("help", game=GAME))
        elif w in ("show", "map", "board"):
            self.show()
        elif w in ("cards", "hand"):
            self.c.print(hand_text(self.s.view(), self.labels()))
        elif w == "all":
            self.show_all = True
            parts, _ = self.menu_parts()
            for p in parts:
                self.c.print(p)
        elif w == "detours":
            self.show_detours(rest.strip())
        elif w == "save":
            self.save(rest.strip() or None)
        elif w in ("quit", "exit", "q"):
            self.quit()
        elif (k := choice_number(text[1:] if text.startswith("#") else text)) is not None:
            digits = text.removeprefix("#")  # '#3' as the map marks move 3
            if not 1 <= k <= len(self.menu):
                self.say(self.t("no_such_choice", k=digits[:6], n=len(self.menu)), "red")
                return None
            return self.act(self.menu[k - 1])
        elif w.startswith("d") and (k := choice_number(w[1:])) is not None and not rest:
            if not 1 <= k <= len(self.dmenu):
                listed = f"d1..d{len(self.dmenu)}" if self.dmenu else self.t("detours.none_listed")
                self.say(self.t("detours.no_such_choice", choice=w[:7], listed=listed), "red")
                return None
            return self.act(self.dmenu[k - 1])
        elif w in _KITT_WORDS and not rest:
            return self.act(PlayKitt(_KITT_WORDS[w]))
        elif self.s.view().phase == "build" and text.split()[0] in self.letters.values():
            place = self._letter_place(text)
            return None if place is None else self.act(place)
        else:
            try:
                action = _parse_action(text)
            except GameError as exc:
                self.refuse(exc, self.t, understood=False, typed=text)
                self.say(self.t("type_an_action"), "dim")
                return None
            return self.act(action)
        return None

    def _letter_place(self, text: str) -> Place | None:
        """``c`` or ``c 90``: a building square by its map letter (and rotation)."""
        parts = text.split()
        by_letter = {v: k for k, v in self.letters.items()}
        if not parts or parts[0] not in by_letter or len(parts) > 2:
            return None
        sq = by_letter[parts[0]]
        places = [a for a in self.menu if isinstance(a, Place) and (a.x, a.y) == sq]
        if len(parts) == 2:
            rot = parts[1].rstrip("°")
            asked = choice_number(rot)
            asked = -1 if asked is None else asked
            return next((p for p in places if p.rot == asked), Place(sq[0], sq[1], asked))
        if len(places) == 1:
            return places[0]
        self.say(
            self.t(
                "place.which_rotation",
                letter=parts[0],
                square=self.labels().at_square(*sq),
                rots=" / ".join(f"{p.rot}" for p in places),
                example=f"{parts[0]} {places[0].rot}",
            ),
            "yellow",
        )
        return None

    def act(self, action: Action) -> Step | None:
        if isinstance(action, Place) and action.rot not in (0, 90, 180, 270):
            self.say(self.t("place.bad_rotation"), "red")
            return None
        try:
            step = self.s.play(action)
        except GameError as exc:
            self.refuse(exc, self.t, typed=str(action))
            return None
        self.announce(step)
        return step

    # -- the game -------------------------------------------------------------------------------
    def intro(self) -> None:
        v = self.s.view()
        lab = self.labels()
        opts = [self.variant(k, val) for k, val in self.s.options.to_json().items() if val not in (None, False, 0)]
        self.say(
            "Knight Rider — "
            + self.tc.n("n_players", v.players)
            + ("; " + self.t("intro.variants", names=", ".join(opts)) if opts else ""),
            "bold",
        )
        for p in range(v.players):
            line = Text("  ")
            line.append_text(lab.seat_text(p))
            if p == v.start_player:
                line.append("  " + self.t("intro.start_player"), style="dim")
            self.c.print(line)
        if len(self.s.human_seats) == 1:
            self.say(self.tc("you_play", seat=lab.seat(v.me)), "dim")
        else:
            self.say(self.tc("people_play", seats=", ".join(lab.seat(p) for p in self.s.human_seats)), "dim")
        if self.s.actions_played == 0:
            for e in v.events:
                if e.kind in ("draw", "return", "centre"):
                    continue
                line = Text("    · ")
                line.append_text(event_text(e, lab))
                self.c.print(line)

    def variant(self, key: str, value: object) -> str:
        """A variant in words (``--tour 2``: "tour: 2 target tiles"); an unknown one by its key."""
        return variant_words(self.t, key, value)

    def hand_over_keyboard(self) -> None:
        """With several people at the keyboard: the pass screen before a new person's turn."""
        seat = self.s.viewer
        if len(self.s.human_seats) > 1 and seat != self.at_keyboard:
            self.pass_keyboard(self.labels().seat(seat))
        self.at_keyboard = seat

    def finish(self) -> None:
        v = self.s.view()
        lab = self.labels()
        self.c.rule(Text(self.t("game_over"), style="bold"))
        self.c.print(render_screen(v, lab))
        if v.winner is not None and v.winner in self.s.human_seats:
            if len(self.s.human_seats) == 1:
                self.say(self.t("caught_you"), "bold green")
            else:
                self.say(self.t("caught", who=lab.seat(v.winner)), "bold green")
        self.seed_line(self.s.seed)
        if self.save_path is not None:
            self.save(None)

    def run(self) -> int:
        try:
            self.intro()
            while not self.s.over:
                if self.s.human_to_act:
                    self.hand_over_keyboard()
                    self.build_menu()
                    self.show_all = False
                    self.show()
                    step = None
                    while step is None:
                        try:
                            line = self.read(self.t("prompt") + " ")
                        except EOFError:
                            self.on_eof()
                        step = self.command(line)
                else:
                    step = self.s.bot_move()
                    self.announce(step)
                    if self.delay and not isinstance(step.action, Place | Enter | StartAt):
                        self.sleep(self.delay)
            self.finish()
        except _Quit:
            pass
        except KeyboardInterrupt:
            return self.interrupted()
        return 0


def run_session(
    session: KRSession,
    input_fn: InputFn,
    console: Console,
    *,
    lang: str = "de",
    save_path: str | Path | None = None,
    delay: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Play ``session`` to its end (or until the person quits): 0 on a clean exit.

    ``input_fn(prompt)`` returns one line (raising ``EOFError`` at the end of input);
    ``console`` receives everything shown, in ``lang`` (German by default, the box's).
    ``save_path`` is where ``save``, the offer on ``quit`` and Ctrl-D save to, and where
    the finished record is written. The seed is shown only when the game is over.
    """
    return _Loop(session, input_fn, console, lang, save_path, delay, sleep).run()


# -- the command ------------------------------------------------------------------------------
def options_from_args(args: argparse.Namespace) -> Options:
    """The variant flags of ``rallye play knightrider`` as engine options."""
    return Options(
        quick_build=bool(getattr(args, "quick_build", False)),
        rolled_start=bool(getattr(args, "rolled_start", False)),
        tour=int(getattr(args, "tour", None) or 0),
        deal_spares=bool(getattr(args, "deal_spares", False)),
        shuffle_cards=bool(getattr(args, "shuffle_cards", False)),
        turn_limit=getattr(args, "turn_limit", None),
        tiles_path=getattr(args, "tiles", None),
        escape_path=getattr(args, "escape_cards", None),
    )


_VARIANT_FLAGS = (
    ("quick_build", "--quick-build"),
    ("rolled_start", "--rolled-start"),
    ("tour", "--tour"),
    ("deal_spares", "--deal-spares"),
    ("shuffle_cards", "--shuffle-cards"),
    ("tiles", "--tiles"),
    ("escape_cards", "--escape-cards"),
)


def play_knightrider(args: argparse.Namespace, console: Any, input_fn: InputFn, *, interactive: bool = False) -> int:
    """``rallye play knightrider`` with an injectable console and input (tests use this)."""

    def note(msg: str) -> None:
        console.print(Text(msg, style="yellow"), soft_wrap=True)

    def fail(msg: str) -> int:
        console.print(Text(f"rallye play: {msg}", style="bold red"), soft_wrap=True)
        return 2

    lang = ui_language(getattr(args, "lang", None), "de")  # the box is German
    tc = common(lang)
    if getattr(args, "edition", None) is not None:
        return fail(tc("play.kr_edition"))
    try:
        if args.resume:
            clash = [f"--{k}" for k in ("players", "seed") if getattr(args, k, None) is not None]
            clash += [flag for name, flag in _VARIANT_FLAGS if getattr(args, name, None) not in (None, False, 0)]
            if clash:
                return fail(tc("play.resume_clash", flags=", ".join(clash)))
            head = read_jsonl(args.resume)[0][1]
            seats, bots = resume_args(args, head, lambda spec, n: resolve_bots(spec, n, note, lang))
            session = KRSession.resume(args.resume, seats, bots)
            if session.over:
                return fail(tc("play.game_over", path=args.resume))
            resumed = tc.n("resumed", session.actions_played, path=args.resume)
            console.print(Text(resumed, style="green"))
            save_path: str | None = args.save or args.resume
        else:
            players = args.players if args.players is not None else DEFAULT_PLAYERS
            if not 2 <= players <= 5:
                return fail(tc("play.kr_players", players=players))
            humans = human_seats_arg(args.seat, getattr(args, "humans", None), players) or (0,)
            options = options_from_args(args)
            bots = resolve_bots(args.bots, players - len(humans), note, lang)  # a bad --bots is refused first
            seed = args.seed if args.seed is not None else new_seed()
            session = KRSession.new(players, seed, humans, bots, options)
            save_path = args.save
    except (ValueError, GameError) as exc:
        return fail(told(exc, lang))
    delay = args.delay if getattr(args, "delay", None) is not None else (0.4 if interactive else 0.0)
    return run_session(session, input_fn, console, lang=lang, save_path=save_path, delay=delay)


def run_play(args: argparse.Namespace) -> int:
    """Entry point from ``rallye play knightrider`` (see :mod:`rallye.tui.play`)."""
    console = Console()
    return play_knightrider(args, console, console.input, interactive=sys.stdin.isatty())


__all__ = ["KRSession", "Step", "play_knightrider", "resolve_bots", "run_play", "run_session", "saved_settings"]
