"""``rallye replay FILE --step``: step through a game record on the game's own screens.

A :class:`Stepper` holds a replayed record (the face's :meth:`~rallye.core.game.Game.replay`:
the state before the first move and every move) and the state after each move, and shows
one position at a time: "move k of n", who played what (in words), the table with every
hand it may show, at a hand's end its score sheet (Mille Bornes) and at the end the result.
A game's stepper (:mod:`rallye.tui.mille.step`, :mod:`rallye.tui.knightrider.step`) gives
the screens and its chapters (Mille Bornes' hands, Knight Rider's turns); this module
gives the commands, read through an injectable ``input_fn`` and printed on a rich
``Console`` like the game loops, so tests drive it with scripted lines.

What is shown: a finished game hides nothing, so every hand is on the table. A save file
of a game still on keeps its secrets as ``rallye replay`` does (it hides the seed): only
the hands of the people who played at this keyboard (the header's ``"tui"`` seats) are
shown, never a bot's; the draw pile and the escape cards are never shown.

An analysis of the game (``--analysis FILE.json``, the JSON of ``rallye analyse --json``,
its contract in ``docs/analysis.md``) adds each decision's mark and the preferred move beside
the move. It is read defensively, as any file from outside: one that is not JSON, of
another format, game or record (a different number of moves, a decision whose seat or
move is not the record's) is refused with a message naming what is wrong
(:class:`AnalysisError`).
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from rich.console import Console
from rich.text import Text

from rallye.core.errors import GameError
from rallye.core.game import Game, Replayed
from rallye.core.jsonio import shown
from rallye.i18n import Translator
from rallye.tui.loop import choice_number, clear_screen
from rallye.tui.words import bot_name, common

S = TypeVar("S")
A = TypeVar("A")

InputFn = Callable[[str], str]

#: the analysis JSON format this terminal reads
ANALYSIS_FORMAT = 1
MARKS = ("inaccuracy", "mistake", "blunder")

_NEXT = frozenset({"", "n", "next", "+"})
_PREV = frozenset({"p", "prev", "previous", "back", "b", "-"})
_FIRST = frozenset({"first", "start", "f"})
_LAST = frozenset({"last", "end", "l"})
_NEXT_STOP = frozenset({">", "]", "nh", "nt"})
_PREV_STOP = frozenset({"<", "[", "ph", "pt"})
_QUIT = frozenset({"q", "quit", "exit"})
_HELP = frozenset({"help", "?", "h"})
_SHOW = frozenset({"show", "s"})


class AnalysisError(ValueError):
    """An analysis file refused; its text (in the screen's language) names the file and
    what is wrong."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of an analysis: what the bot prefers beside what was played."""

    move: int  # 1-based
    seat: int
    best: str  # the preferred move in the game's notation
    best_is_played: bool
    mark: str | None
    loss_points: float | None
    loss_win: float | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the stepper shows of an analysis: the bot, each decision by its move, and each
    side's estimated match-win chance after each move (``graph``; empty if not given)."""

    bot: str
    decisions: Mapping[int, Decision]
    graph: tuple[tuple[float, ...], ...] = ()


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_analysis(path: str | Path, game: Game[Any, A, Any], replayed: Replayed[Any, A], lang: str = "en") -> Analysis:
    """The analysis in ``path`` of the game ``replayed`` (a record of ``game``), checked
    against the record; an :class:`AnalysisError` names (in ``lang``) what is wrong."""
    tc = common(lang)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise AnalysisError(tc("step.analysis.unreadable", path=path, reason=exc.strerror or exc)) from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise AnalysisError(tc("step.analysis.not_json", path=path, error=str(exc)[:120])) from None
    return read_analysis(data, game, replayed, str(path), lang)


def read_analysis(
    data: object, game: Game[Any, A, Any], replayed: Replayed[Any, A], source: str, lang: str = "en"
) -> Analysis:
    """The analysis JSON ``data`` checked against the record (see :func:`load_analysis`)."""
    tc = common(lang)

    def bad(msg_id: str, **params: object) -> AnalysisError:
        return AnalysisError(tc(msg_id, path=source, **params))

    def field(obj: Mapping[str, Any], name: str, ok: Callable[[object], bool], expected: str, where: str) -> Any:
        value = obj.get(name)
        if not ok(value):
            raise bad("step.analysis.field", where=where, field=name, value=shown(value), expected=expected)
        return value

    if not isinstance(data, dict):
        raise bad("step.analysis.not_object")
    if data.get("format") != ANALYSIS_FORMAT:
        raise bad("step.analysis.format", value=shown(data.get("format")), format=ANALYSIS_FORMAT)
    if data.get("game") != game.key:
        raise bad("step.analysis.game", value=shown(data.get("game")), game=game.key)
    n = len(replayed.moves)
    top = tc("step.analysis.top")
    moves = field(data, "moves", _whole, tc("step.expect.whole"), top)
    if moves != n:
        raise bad("step.analysis.moves", value=moves, moves=n)
    bot = field(data, "bot", lambda v: isinstance(v, str) and 0 < len(v) <= 80, tc("step.expect.bot"), top)
    items = field(data, "decisions", lambda v: isinstance(v, list), tc("step.expect.list"), top)
    notation = tc("step.expect.notation")
    decisions: dict[int, Decision] = {}
    where_of: dict[int, str] = {}
    for i, item in enumerate(items, 1):
        where = tc("step.analysis.decision", i=i)
        if not isinstance(item, dict):
            expected = tc("step.expect.object")
            raise bad("step.analysis.field", where=where, field="", value=shown(item), expected=expected)
        move = field(
            item, "move", lambda v: isinstance(v, int) and _whole(v) and 1 <= v <= n, tc("step.expect.move", n=n), where
        )
        if move in decisions:
            raise bad("step.analysis.twice", where=where, move=move)
        seat, action = replayed.moves[move - 1]
        if field(item, "seat", _whole, tc("step.expect.whole"), where) != seat:
            raise bad("step.analysis.seat", where=where, move=move, value=item["seat"] + 1, seat=seat + 1)
        played = _action(game, field(item, "played", _text, notation, where), bad, where)
        if played != action:
            raise bad(
                "step.analysis.played",
                where=where,
                move=move,
                value=shown(item["played"]),
                record=game.format_action(action),
            )
        best = _action(game, field(item, "best", _text, notation, where), bad, where)
        mark = field(item, "mark", lambda v: v is None or v in MARKS, "null, " + ", ".join(MARKS), where)
        loss_points = field(item, "loss_points", _loss, tc("step.expect.loss"), where)
        loss_win = field(item, "loss_win", lambda v: v is None or _loss(v), "null, " + tc("step.expect.loss"), where)
        decisions[move] = Decision(move, seat, game.format_action(best), best == action, mark, loss_points, loss_win)
        where_of[move] = where
    # each preferred move is legal where it is preferred (else the analysis is of another game)
    state = replayed.initial
    last = max(decisions, default=0)
    for k, (seat, action) in enumerate(replayed.moves[:last], 1):
        d = decisions.get(k)
        if d is not None and not d.best_is_played and game.parse_action(d.best) not in game.legal_actions(state):
            raise bad("step.analysis.illegal", where=where_of[k], move=k, value=d.best)
        state = game.apply(state, action, seat)
    graph: tuple[tuple[float, ...], ...] = ()
    if data.get("graph") is not None:
        sized = tc("step.expect.graph", n=n + 1)
        points = field(data, "graph", lambda v: isinstance(v, list) and len(v) == n + 1, sized, top)
        for k, point in enumerate(points):
            if not (isinstance(point, list) and point and all(_number(x) and 0 <= x <= 1 for x in point)):
                raise bad("step.analysis.graph", k=k, value=shown(point))
        graph = tuple(tuple(float(x) for x in p) for p in points)
    return Analysis(bot, decisions, graph)


def _text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 200


def _loss(value: object) -> bool:
    return _number(value) and float(value) >= 0  # type: ignore[arg-type]


def _action(game: Game[Any, A, Any], text: str, bad: Callable[..., AnalysisError], where: str) -> A:
    try:
        return game.parse_action(text)
    except GameError:
        raise bad("step.analysis.notation", where=where, value=shown(text)) from None


class Stepper(ABC, Generic[S, A]):
    """Steps through a replayed game: the position ``k`` is the state after ``k`` moves
    (0: before the first). A game's stepper gives :meth:`show_position`, :meth:`stops`,
    :meth:`chapter` and :meth:`action_words`."""

    def __init__(
        self,
        game: Game[S, A, Any],
        replayed: Replayed[S, A],
        console: Console,
        input_fn: InputFn,
        ui: str,
        analysis: Analysis | None = None,
    ) -> None:
        self.game = game
        self.moves = replayed.moves
        self.c = console
        self.input_fn = input_fn
        self.ui = ui
        self.tc = common(ui)
        self.analysis = analysis
        states = [replayed.initial]
        for seat, action in replayed.moves:
            states.append(game.apply(states[-1], action, seat))
        self.states: tuple[S, ...] = tuple(states)
        self.k = 0

    # -- what a game's stepper gives ------------------------------------------------------
    @abstractmethod
    def show_position(self, k: int) -> None:
        """Print the screen of position ``k``: the move that led to it and the table."""

    @abstractmethod
    def stops(self) -> Sequence[int]:
        """The positions ``<`` and ``>`` stop at: hands' ends, turns' starts (ascending)."""

    @abstractmethod
    def chapter(self, k: int) -> str:
        """Where position ``k`` is, in words: ``hand 2``, ``turn 5``."""

    @abstractmethod
    def action_words(self, action: A) -> Text:
        """A move in words (the preferred move of an analysis)."""

    @abstractmethod
    def seat_label(self, seat: int) -> str: ...

    @abstractmethod
    def side_label(self, side: int) -> str:
        """A side as the screen names it (an analysis' chances are per side)."""

    #: what an analysis' ``loss_points`` are in this game (a message of the common catalog)
    points_message = "step.analysis.loss_points"

    # -- shared ---------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.moves)

    @property
    def state(self) -> S:
        """The state at the position shown (for tests and tools, never for a screen)."""
        return self.states[self.k]

    def say(self, text: str, style: str = "") -> None:
        self.c.print(Text(text, style=style), soft_wrap=True)

    def heading(self, k: int) -> Text:
        """``Move 5 of 212 · hand 1`` (``Start …`` before the first move)."""
        if k == 0:
            text = self.tc("step.start", moves=self.tc.n("replay.n_moves", self.n))
        else:
            text = self.tc("step.move", k=k, n=self.n)
        return Text(f"{text} · {self.chapter(k)}", style="bold")

    def analysis_lines(self, k: int) -> list[Text]:
        """The analysis of move ``k`` (its mark, the preferred move and what was given up)
        and each side's estimated match-win chance after it; nothing without an analysis."""
        a = self.analysis
        if a is None or k == 0:
            return []
        out: list[Text] = []
        d = a.decisions.get(k)
        tc = self.tc
        bot = bot_name(self.ui, a.bot)
        if d is None:
            out.append(Text("  " + tc("step.analysis.no_choice", bot=bot), style="dim"))
        elif d.best_is_played:
            out.append(Text("  " + tc("step.analysis.agrees", bot=bot), style="green"))
        else:
            mark = tc(f"step.mark.{d.mark}") if d.mark else tc("step.mark.none")
            style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(d.mark or "", "")
            line = Text("  ")
            line.append(mark, style=style or "dim")
            line.append(" · " + tc("step.analysis.prefers", bot=bot) + " ")
            line.append(d.best, style="bold")
            line.append(" (")
            line.append_text(self.action_words(self.game.parse_action(d.best)))
            line.append(")")
            out.append(line)
            lost = []
            if d.loss_points is not None:
                lost.append(tc(self.points_message, points=f"{d.loss_points:.1f}"))
            if d.loss_win is not None:
                lost.append(tc("step.analysis.loss_win", pct=f"{100 * d.loss_win:.1f}"))
            if lost:
                out.append(Text("    " + tc("step.analysis.gives_up", what=", ".join(lost)), style="dim"))
        if a.graph:
            chances = ", ".join(
                tc("step.analysis.side_chance", side=self.side_label(i), pct=f"{100 * p:.0f}")
                for i, p in enumerate(a.graph[k])
            )
            out.append(Text("    " + tc("step.analysis.chances", chances=chances), style="dim"))
        return out

    def go(self, k: int) -> None:
        self.k = max(0, min(self.n, k))
        clear_screen(self.c)  # only in a terminal: a recording console keeps every screen
        self.show_position(self.k)

    def next_stop(self) -> int:
        return next((s for s in self.stops() if s > self.k), self.n)

    def previous_stop(self) -> int:
        return next((s for s in reversed(self.stops()) if s < self.k), 0)

    def command(self, line: str) -> bool:
        """One line typed; ``False`` when the person leaves."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        w = word.lower()
        if w in ("go", "g") and rest.strip():
            w, text = rest.strip(), rest.strip()
        if w in _NEXT and not rest:
            if self.k == self.n:
                self.say(self.tc("step.at_end", n=self.n), "yellow")
            else:
                self.go(self.k + 1)
        elif w in _PREV and not rest:
            if self.k == 0:
                self.say(self.tc("step.at_start"), "yellow")
            else:
                self.go(self.k - 1)
        elif w in _NEXT_STOP and not rest:
            self.go(self.next_stop())
        elif w in _PREV_STOP and not rest:
            self.go(self.previous_stop())
        elif w in _FIRST and not rest:
            self.go(0)
        elif w in _LAST and not rest:
            self.go(self.n)
        elif w in _SHOW and not rest:
            self.go(self.k)
        elif w in _HELP and not rest:
            self.say(self.tc("step.help", chapter=self.chapter_word(), n=self.n))
        elif w in _QUIT and not rest:
            return False
        elif (k := choice_number(text)) is not None:
            if k > self.n or len(text) > 9:  # (choice_number takes a longer one for 0)
                self.say(self.tc("step.no_such_move", typed=text[:12], n=self.n), "red")
            else:
                self.go(k)
        else:
            typed = text[:40] + ("…" if len(text) > 40 else "")
            self.say(self.tc("step.unknown", typed=typed), "red")
        return True

    @abstractmethod
    def chapter_word(self) -> str:
        """What ``<`` and ``>`` skip by: ``hand``, ``turn`` (for the help)."""

    def run(self) -> int:
        """Step until the person quits (or the input ends): 0, or 130 on Ctrl-C."""
        try:
            self.go(self.k)
            self.say(self.tc("step.hint", chapter=self.chapter_word()), "dim")
            while True:
                try:
                    line = self.input_fn(self.tc("step.prompt", k=self.k, n=self.n) + " ")
                except EOFError:
                    self.c.print()
                    return 0
                if not self.command(line):
                    return 0
        except KeyboardInterrupt:
            self.c.print()
            self.say(self.tc("interrupted"))
            return 130


def seat_hands_note(tc: Translator, over: bool, shown_seats: Sequence[int], label: Callable[[int], str]) -> Text:
    """What the hands on screen are: every hand (the game is over), or only the people's."""
    if over:
        return Text(tc("step.hands_all"), style="dim")
    if shown_seats:
        return Text(tc("step.hands_people", seats=", ".join(label(s) for s in shown_seats)), style="dim")
    return Text(tc("step.hands_none"), style="dim")


__all__ = ["Analysis", "AnalysisError", "Decision", "Stepper", "load_analysis", "read_analysis", "seat_hands_note"]
