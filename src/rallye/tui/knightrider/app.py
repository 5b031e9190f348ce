"""Knight Rider in the terminal: its session and its loop's screens, menus and commands.

:class:`KRSession` is the one terminal controller (:class:`rallye.tui.session.GameSession`)
on Knight Rider's game face, with the game's own ways to start (players, the variants) and
the ``rallye play knightrider`` options that deal a game again. :func:`run_session` is the
loop: it renders the view of the person at the keyboard, reads lines through an injectable
``input_fn`` and prints to a rich ``Console``, so tests drive it with a list of lines and a
recording console.

A save file is the game record so far (``rallye.knightrider.record``): its header carries
players, seed, rules and options and the terminal's ``"tui"`` object (the seats, see
:mod:`rallye.tui.session`) so ``--resume`` continues with the same seats; replay verifies
the game without that field.

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
from pathlib import Path
from typing import Protocol

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from rallye.core.errors import GameError
from rallye.core.record import read_jsonl
from rallye.core.rng import new_seed
from rallye.i18n import translator
from rallye.knightrider.actions import Action, End, Enter, Move, Place, PlayDetour, PlayKitt, Recover, StartAt
from rallye.knightrider.actions import parse_action as _parse_action
from rallye.knightrider.game import GAME as KNIGHTRIDER
from rallye.knightrider.state import BUILD_PHASE, DEFAULT_TURN_LIMIT, START_PHASE, TURN_PHASE, Options, State
from rallye.knightrider.view import EventView, View
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
    GameLoop,
    choice_number,
    coach_wanted,
    human_seats_arg,
    play_failed,
    play_note,
    resume_args,
    saved_settings,
    told,
)
from rallye.tui.loop import resolve_bots as _resolve_bots
from rallye.tui.session import GameSession, Played, Session
from rallye.tui.words import common, ui_language

GAME = "knightrider"
DEFAULT_PLAYERS = 3
MOVES_SHOWN = 9
InputFn = Callable[[str], str]
#: a Knight Rider action as the person at the keyboard learns of it (its events: ``after.events``)
KRPlayed = Played[Action, View]


def resolve_bots(spec: str | None, count: int, note: Callable[[str], None], lang: str = "en") -> list[str]:
    """Bot names for ``count`` seats (see :func:`rallye.tui.loop.resolve_bots`)."""
    return _resolve_bots(GAME, spec, count, note, lang)


class KRTable(Session[Action, View], Protocol):
    """A Knight Rider game for the loop: the session, and the variants it is played with."""

    @property
    def options(self) -> Options: ...


class KRSession(GameSession[State, Action, View]):
    """A Knight Rider game at this keyboard (see :class:`~rallye.tui.session.GameSession`)."""

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
        settings = {"players": players, "options": options or Options()}
        return cls.start(KNIGHTRIDER, settings, seed, human_seat, bots)

    @classmethod
    def resume(
        cls, path: str | Path, human_seat: int | Sequence[int] | None = None, bots: Sequence[str] | None = None
    ) -> KRSession:
        """Replay (and verify) a save file and continue it, with the set-up of its rules
        (issue #62). The seats come from the file's header unless given; a
        :class:`~rallye.core.errors.RecordError` names a bad line."""
        return cls.load(KNIGHTRIDER, path, human_seat, bots)

    @property
    def options(self) -> Options:
        """The variants and the box (public: the table's settings)."""
        return self.state.options

    def deal_options(self) -> list[str]:
        """The ``rallye play knightrider`` options (but ``--seed``) that deal this game again
        (the variants, the piece files), with the same seats and bots."""
        o = self.options
        out = ["--players", str(self.players)]
        out += [flag for flag, on in (("--quick-build", o.quick_build), ("--rolled-start", o.rolled_start)) if on]
        out += ["--tour", str(o.tour)] if o.tour else []
        out += [flag for flag, on in (("--deal-spares", o.deal_spares), ("--shuffle-cards", o.shuffle_cards)) if on]
        out += [] if o.turn_limit == DEFAULT_TURN_LIMIT else ["--turn-limit", str(o.turn_limit or 0)]
        out += ["--tiles", o.tiles_path] if o.tiles_path else []
        out += ["--escape-cards", o.escape_path] if o.escape_path else []
        return out + self.seat_options()


# -- the loop -------------------------------------------------------------------------------
def action_lines(lab: Labels, seat: int, action: Action, events: Sequence[EventView]) -> list[RenderableType]:
    """An action in words (``P2 (random) moves 4 fields …``) and the events it caused, a
    new turn as a rule."""
    line = Text("  ")
    line.append_text(lab.seat_text(seat))
    line.append(" " + action_text(action, lab))
    out: list[RenderableType] = [line]
    for e in events:
        if e.kind in _SAID_BY_THE_ACTION:
            continue  # the action line above said it (a detour with its square)
        if e.kind == "turn":
            out.append(Rule(Text(event_text(e, lab).plain, style="bold"), align="left"))
            continue
        line = Text("    · ")
        line.append_text(event_text(e, lab))
        out.append(line)
    return out


_KITT_WORDS = {"mantle": "MANTLE", "turbo1": "TURBO1", "turbo2": "TURBO2"}
#: Events that only repeat the action line printed above them.
_SAID_BY_THE_ACTION = frozenset({"detour", "enter", "recover"})


class _Loop(GameLoop[Action, View]):
    game = GAME
    s: KRTable

    def __init__(
        self,
        session: KRTable,
        input_fn: InputFn,
        console: Console,
        lang: str,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
    ) -> None:
        super().__init__(session, input_fn, console, save_path, delay, sleep, lang, translator(lang, "kr"))
        self.lang = lang
        self.menu: list[Action] = []
        self.dmenu: list[PlayDetour] = []
        self.letters: dict[tuple[int, int], str] = {}
        self.show_all = False
        self.infos: list[MoveInfo] = []

    def labels(self) -> Labels:
        return Labels.for_view(self.s.view(), self.s.seat_tags(), self.lang, self.s.options.pieces())

    def seat_label(self, seat: int) -> str:
        return self.labels().seat(seat)

    # -- menus -----------------------------------------------------------------------------
    def build_menu(self) -> None:
        """Number the person's choices (moves nearest the villain first)."""
        legal = self.s.legal()
        view = self.s.view()
        self.dmenu = []
        if view.phase == TURN_PHASE:
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
        if view.phase == BUILD_PHASE:
            entries = [(n, a) for n, a in enumerate(self.menu, 1) if isinstance(a, Place)]
            parts.append(placements_table(view, lab, entries, self.letters))
        elif view.phase == TURN_PHASE:
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
            title = self.t("menu.start") if view.phase == START_PHASE else self.t("menu.enter")
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

    def announce(self, played: KRPlayed) -> None:
        # every action is echoed, the person's too: a log to scroll back through
        for line in action_lines(self.labels(), played.seat, played.action, played.after.events):
            self.c.print(line)

    def menu_number(self, action: Action) -> int | None:
        return self.menu.index(action) + 1 if action in self.menu else None

    # -- commands ------------------------------------------------------------------------------
    def game_command(self, text: str, w: str, rest: str) -> KRPlayed | None:
        if w in ("show", "map", "board"):
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
        elif self.s.view().phase == BUILD_PHASE and text.split()[0] in self.letters.values():
            place = self._letter_place(text)
            return None if place is None else self.act(place)
        elif (action := self.typed(text, _parse_action, "type_an_action")) is not None:
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

    def act(self, action: Action) -> KRPlayed | None:
        if isinstance(action, Place) and action.rot not in (0, 90, 180, 270):
            self.say(self.t("place.bad_rotation"), "red")
            return None
        return self.move(action)

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
        self.who_plays()
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

    def new_turn(self) -> None:
        self.build_menu()
        self.show_all = False

    def pause_after(self, played: KRPlayed) -> bool:
        return not isinstance(played.action, Place | Enter | StartAt)  # the set-up goes at once

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
        self.ended()


def run_session(
    session: KRTable,
    input_fn: InputFn,
    console: Console,
    *,
    lang: str = "de",
    save_path: str | Path | None = None,
    delay: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
    coach: bool = False,
) -> int:
    """Play ``session`` (a game here, or at an online table) to its end (or until the person
    quits): 0 on a clean exit, 130 on Ctrl-C.

    ``input_fn(prompt)`` returns one line (raising ``EOFError`` at the end of input);
    ``console`` receives everything shown, in ``lang`` (German by default, the box's).
    ``save_path`` is where ``save``, the offer on ``quit`` and Ctrl-D save to, and where
    the finished record is written. The seed is shown only when the game is over.
    ``coach``: ``hint`` shows the coach's hint (from the view of the person to act).
    """
    loop = _Loop(session, input_fn, console, lang, save_path, delay, sleep)
    loop.coach_on = coach
    return loop.run()


# -- the command ------------------------------------------------------------------------------
def turn_limit_from(flag: int | None) -> int | None:
    """``--turn-limit N``: the default limit when absent, none for 0."""
    if flag is None:
        return DEFAULT_TURN_LIMIT
    return flag or None


def options_from_args(args: argparse.Namespace) -> Options:
    """The variant flags of ``rallye play knightrider`` as engine options."""
    return Options(
        quick_build=bool(getattr(args, "quick_build", False)),
        rolled_start=bool(getattr(args, "rolled_start", False)),
        tour=int(getattr(args, "tour", None) or 0),
        deal_spares=bool(getattr(args, "deal_spares", False)),
        shuffle_cards=bool(getattr(args, "shuffle_cards", False)),
        turn_limit=turn_limit_from(getattr(args, "turn_limit", None)),
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


def play_knightrider(
    args: argparse.Namespace, console: Console, input_fn: InputFn, *, interactive: bool = False
) -> int:
    """``rallye play knightrider`` with an injectable console and input (tests use this)."""

    def note(msg: str) -> None:
        play_note(console, msg)

    def fail(msg: str) -> int:
        return play_failed(console, msg)

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
    coach = coach_wanted(args, session.human_seats)
    return run_session(session, input_fn, console, lang=lang, save_path=save_path, delay=delay, coach=coach)


def run_play(args: argparse.Namespace) -> int:
    """Entry point from ``rallye play knightrider`` (see :mod:`rallye.tui.play`)."""
    console = Console()
    return play_knightrider(args, console, console.input, interactive=sys.stdin.isatty())


__all__ = [
    "KRSession",
    "KRTable",
    "action_lines",
    "play_knightrider",
    "resolve_bots",
    "run_play",
    "run_session",
    "saved_settings",
]
