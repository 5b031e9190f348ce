"""Rich rendering of what one Mille Bornes player may see, and of score sheets.

Everything here takes a :class:`~rallye.mille.view.MilleView` (or only public parts of
one: the edition, sides and score sheets), never a state: the terminal cannot show what a
player may not see [DESIGN habit 8]. Passing a state is a ``TypeError``.

>>> import io
>>> from rallye import mille
>>> from rich.console import Console
>>> v = mille.view_for(mille.new_match("wm2006", 2, seed=1), 0)
>>> c = Console(file=io.StringIO(), width=100, record=True, color_system=None)
>>> c.print(render_screen(v, Labels.for_view(v, {0: "you"}, ui="en")))
>>> "target 700 km" in c.export_text()
True
>>> c.print(render_screen(v, Labels.for_view(v, {0: "you"})))  # wm2006 speaks German
>>> "Ziel 700 km" in c.export_text()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rallye.i18n import LANGUAGES, Translator, translator
from rallye.mille.actions import Action
from rallye.mille.cards import kind
from rallye.mille.edition import SCORE_LINES, Edition
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, Event, ScoreSheet, Tableau
from rallye.mille.view import MilleView
from rallye.tui.words import bot_name, compose

#: Style per card kind (distance green, hazards red, remedies cyan, safeties yellow).
_KIND_STYLE = {"distance": "green", "hazard": "red", "remedy": "cyan", "safety": "yellow"}


def _require_view(view: object) -> MilleView:
    if not isinstance(view, MilleView):
        raise TypeError(f"the terminal renders a player's view (view_for(state, seat)), not {type(view).__name__}")
    return view


def pick_language(edition: Edition, lang: str | None) -> tuple[str, str | None]:
    """The language to show card names in, and a note (in ``lang``) if the wanted one is
    not in the edition: the screen's own words are in ``lang`` all the same.

    >>> from rallye.mille import get_edition
    >>> pick_language(get_edition("wm2006"), None)
    ('de', None)
    >>> pick_language(get_edition("wm2006"), "hu")
    ('en', 'A(z) wm2006 kiadásban nincsenek hu nyelvű kártyanevek (van: de, en, fr); a kártyák en nyelven szerepelnek.')
    """
    if lang is None:
        return edition.language, None
    have = edition.languages()
    if lang in have:
        return lang, None
    fallback = "en" if "en" in have else edition.language
    t = translator(lang if lang in LANGUAGES else "en", "mille")
    note = t("note.no_card_names", edition=edition.key, lang=lang, have=", ".join(have), fallback=fallback)
    return fallback, note


def edition_title(edition: Edition, lang: str) -> str:
    """A box's title in ``lang``: a title that describes the box in words (``1000 Kilométer
    (Hungarian edition)``) is translated; a house-rule edition's own title is kept.

    >>> from rallye.mille import get_edition
    >>> edition_title(get_edition("hu"), "hu")
    '1000 Kilométer (magyar kiadás)'
    """
    from rallye.mille.edition import EDITION_KEYS, get_edition

    t = translator(lang if lang in LANGUAGES else "en", "mille")
    key = f"edition_title.{edition.key}"
    if t.has(key) and edition.key in EDITION_KEYS and get_edition(edition.key).title == edition.title:
        return t(key)
    return edition.title


@dataclass(frozen=True)
class Labels:
    """How seats and sides are called on screen, the language of card names (``lang``)
    and of every other word (``ui``, the edition's language unless chosen)."""

    edition: Edition
    lang: str
    sides: tuple[tuple[int, ...], ...]
    seat_tags: tuple[str, ...]  # e.g. ("you", "random") per seat
    me: int | None = None  # the seat watching, if any
    ui: str = ""
    t: Translator = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        ui = self.ui or (self.edition.language if self.edition.language in LANGUAGES else "en")
        object.__setattr__(self, "ui", ui)
        object.__setattr__(self, "t", translator(ui, "mille"))

    @classmethod
    def for_view(
        cls, view: MilleView, tags: Mapping[int, str] | None = None, lang: str | None = None, ui: str | None = None
    ) -> Labels:
        """``lang`` is the wanted language (``--lang``): the screen's words are in it, the
        card names too if the edition has them (else in English)."""
        v = _require_view(view)
        card_lang, _ = pick_language(v.edition, lang)
        tags = tags or {}
        tagged = tuple(tags.get(s, "") for s in range(v.n_players))
        return cls(v.edition, card_lang, v.sides, tagged, v.seat, ui or lang or "")

    def card(self, card: str | None) -> str:
        """``Grüne Welle (ROLL)``; ``–`` for an empty pile."""
        if card is None:
            return "–"
        name = self.edition.card_name(card, self.lang)
        return name if name == card else f"{name} ({card})"

    def card_text(self, card: str | None) -> Text:
        if card is None:
            return Text("–", style="dim")
        return Text(self.card(card), style=_KIND_STYLE.get(kind(card), ""))

    def tag(self, tag: str) -> str:
        """A seat's tag on screen: ``you``/``human`` or a bot's name, in the screen's language."""
        return self.t(f"tag.{tag}") if tag in ("you", "human") else bot_name(self.ui, tag)

    def title(self) -> str:
        """The edition's title in the screen's language (see :func:`edition_title`)."""
        return edition_title(self.edition, self.ui)

    def seat(self, seat: int) -> str:
        tag = self.seat_tags[seat] if seat < len(self.seat_tags) else ""
        name = self.t("seat", n=seat + 1)
        return f"{name} ({self.tag(tag)})" if tag else name

    def side(self, side: int) -> str:
        members = " + ".join(self.seat(p) for p in self.sides[side])
        return self.t("side_members", n=side + 1, members=members)

    def word(self, line: str) -> str:
        return self.edition.word(line, self.lang)


# -- one line per event / action --------------------------------------------------------
def event_text(event: Event, labels: Labels) -> Text:
    """A public event in words, with card names: ``P2 (random) attacks side 1 with Stop (STOP)``."""
    t = labels.t
    who = labels.seat(event.seat)
    card = labels.card_text(event.card)
    if event.kind in ("play", "discard"):
        return compose(t.raw(f"event.{event.kind}"), who=who, card=card)
    if event.kind == "attack":
        side = event.side if event.side is not None else 0
        mine = labels.me is not None and labels.me in labels.sides[side]
        return compose(t.raw("event.attack_you" if mine else "event.attack"), who=who, side=side + 1, card=card)
    if event.kind == "coup_fourre":
        return compose(t.raw("event.coup_fourre"), "bold magenta", word=labels.word("coup_fourre"), who=who, card=card)
    if event.kind == "extend":
        return Text(t("event.extend", who=who, word=labels.word("extension")), style="bold")
    if event.kind == "decline":
        return Text(t("event.decline", who=who), style="bold")
    if event.kind == "passed":
        return Text(t("event.passed", who=who), style="dim")
    return Text(str(event))


def action_text(action: Action, labels: Labels) -> Text:
    """What a legal action means, in card names: ``attack 2 STOP`` → ``Stop (STOP) → side 2: P2``."""
    t = labels.t
    card = labels.card_text(action.card)
    if action.verb == "play":
        return compose(t.raw("action.play"), card=card, where=Text(t("action.your_side"), style="dim"))
    if action.verb == "attack":
        return compose(t.raw("action.play"), card=card, where=Text(labels.side(action.side or 0), style="dim"))
    if action.verb == "discard":
        return compose(t.raw("action.play"), card=card, where=Text(t("action.discard_pile"), style="dim"))
    if action.verb == "extend":
        return Text(t("action.extend", word=labels.word("extension")))
    if action.verb == "decline":
        return Text(t("action.decline"))
    return Text(str(action))


# -- the screen -------------------------------------------------------------------------
def _safeties(tab: Tableau, labels: Labels) -> Text:
    t = Text()
    for i, s in enumerate(tab.safeties):
        if i:
            t.append(", ")
        t.append_text(labels.card_text(s))
        if s in tab.coups:
            t.append(" ✦", style="bold magenta")
    if not tab.safeties:
        t.append("–", style="dim")
    return t


def _status(tab: Tableau, labels: Labels) -> Text:
    word = ("status.rolling" if tab.rolling else "status.stopped") + ("_limit" if tab.limited else "")
    return Text(labels.t(word), style="green" if tab.rolling else "red")


def _bar(km: int, target: int, width: int = 10) -> str:
    full = min(width, km * width // target) if target else 0
    return "▰" * full + "▱" * (width - full)


def tableau_table(view: MilleView, labels: Labels) -> Panel:
    """Every side's tableau: pile tops, distance, 200s, safeties (coups fourrés marked ✦)."""
    v = _require_view(view)
    t = labels.t
    rows: list[RenderableType] = []
    for i, tab in enumerate(v.tableaus):
        mine = i == v.side
        head = Text(t("tableau.side", n=i + 1), style="bold underline" if mine else "bold")
        head.append(": " + " + ".join(labels.seat(p) for p in v.sides[i]), style="bold" if mine else "")
        head.append("  ")
        head.append_text(_status(tab, labels))
        head.append(f"  {_bar(tab.km, v.target)} {tab.km}/{v.target} km", style="green" if tab.km else "")
        head.append("  " + t("tableau.d200", n=tab.d200), style="dim" if not tab.d200 else "")
        piles = Table.grid(padding=(0, 1))
        piles.add_column(no_wrap=True)
        piles.add_column()
        piles.add_column(no_wrap=True)
        piles.add_column()
        piles.add_row(
            "   " + t("tableau.battle"),
            labels.card_text(tab.battle_top),
            "  " + t("tableau.speed"),
            labels.card_text(tab.speed_top),
        )
        safe = Text("   " + t("tableau.safeties") + " ")
        safe.append_text(_safeties(tab, labels))
        rows += [head, piles, safe]
    return Panel(Group(*rows), title=t("tableau.title"), title_align="left", expand=False)


def hand_table(view: MilleView, labels: Labels) -> Table:
    """The player's own hand, numbered."""
    v = _require_view(view)
    t = Table(title=labels.t.n("hand.title", len(v.hand)), title_justify="left", show_header=False, box=None)
    t.add_column(justify="right", style="dim")
    t.add_column()
    for i, c in enumerate(v.hand, start=1):
        t.add_row(f"{i}.", labels.card_text(c))
    if not v.hand:
        t.add_row("", Text(labels.t("hand.empty"), style="dim"))
    return t


def moves_table(legal: Sequence[Action], labels: Labels) -> Table:
    """The legal moves, numbered from 1: a number typed at the prompt picks one."""
    t = Table(title=labels.t("moves.title"), title_justify="left", show_header=False, box=None)
    t.add_column(justify="right", style="bold")
    t.add_column(style="bold")
    t.add_column()
    for i, a in enumerate(legal, start=1):
        t.add_row(f"{i}", str(a), action_text(a, labels))
    return t


def status_line(view: MilleView, labels: Labels) -> Text:
    v = _require_view(view)
    tr = labels.t
    t = Text()
    t.append(labels.title(), style="bold")
    t.append(f" · {labels.word('hand')} {v.hand_no + 1} · " + tr("status.target", km=v.target))
    if v.extended_by is not None:
        t.append(" " + tr("status.extended_by", word=labels.word("extension"), n=v.extended_by + 1))
    t.append(" · " + tr("status.draw_pile", n=v.draw_count))
    t.append(" · " + tr("status.discard_pile", n=len(v.discard)))
    if v.discard:
        t.append(" ")
        t.append_text(compose(tr.raw("status.top"), card=labels.card_text(v.discard[-1])))
    return t


def turn_line(view: MilleView, labels: Labels) -> Text:
    v = _require_view(view)
    tr = labels.t
    if v.phase == OVER_PHASE:
        return Text(tr("turn.over"), style="bold")
    mine = v.current == v.seat and labels.me == v.seat  # "your turn" only to the player watching
    who = tr("turn.yours") if mine else tr("turn.theirs", who=labels.seat(v.current))
    t = Text(f"▶ {who}", style="bold reverse" if mine else "bold")
    if v.phase == EXTEND_PHASE:
        t.append("  — " + tr("turn.extend", km=v.target), style="bold")
    elif v.cf_turn and mine:
        t.append("  " + tr("turn.coup_fourre"), style="magenta")
    return t


def players_line(view: MilleView, labels: Labels) -> Text:
    v = _require_view(view)
    tr = labels.t
    t = Text(tr("players.cards") + " ", style="dim")
    t.append(", ".join(f"{labels.seat(p)} {n}" for p, n in enumerate(v.hand_sizes)))
    t.append(" · " + tr("players.totals") + " ", style="dim")
    t.append(", ".join(tr("players.side_total", n=i + 1, total=tot) for i, tot in enumerate(v.totals)))
    return t


def events_panel(view: MilleView, labels: Labels, last: int = 8) -> Panel:
    v = _require_view(view)
    lines = [event_text(e, labels) for e in v.events[-last:]]
    body: RenderableType = Group(*lines) if lines else Text(labels.t("events.none"), style="dim")
    return Panel(body, title=labels.t("events.title"), title_align="left", expand=False)


def render_screen(view: MilleView, labels: Labels, legal: Sequence[Action] = ()) -> Group:
    """The whole screen for the player of ``view``: status, tableaus, last moves, hand, moves."""
    v = _require_view(view)
    parts: list[RenderableType] = [
        status_line(v, labels),
        tableau_table(v, labels),
        players_line(v, labels),
        events_panel(v, labels),
        hand_table(v, labels),
    ]
    if legal:
        parts.append(moves_table(legal, labels))
    parts.append(turn_line(v, labels))
    return Group(*parts)


# -- score sheets -------------------------------------------------------------------------
def scored_lines(edition: Edition, sides: Sequence[Sequence[int]] = ()) -> tuple[str, ...]:
    """The score lines this edition can give points on (the box's score pad rows); with
    ``sides``, an extension only lone players may call is left out of a game of teams."""
    sc = edition.scoring
    ex = edition.extension
    extension_possible = ex.allowed and not (ex.alone_only and sides and all(len(s) > 1 for s in sides))
    on = {
        "distance": True,
        "safeties": sc.safety > 0,
        "all_four": sc.all_four_bonus > 0,
        "coup_fourre": sc.coup_fourre_bonus > 0,
        "trip": sc.trip > 0,
        "safe_trip": sc.safe_trip > 0,
        "delayed_action": sc.delayed_action > 0,
        "shutout": sc.shutout > 0 and sc.shutout_to != "none",
        "extension": extension_possible and (sc.extension > 0 or ex.failed_bonus_to == "opponents"),
        "hand_penalty": edition.subtract_distance_in_hand,
    }
    return tuple(line for line in SCORE_LINES if on[line])


def sheet_table(sheet: ScoreSheet, labels: Labels) -> Table:
    """One hand's score sheet: every score line in the edition's words, per side, and totals."""
    if not isinstance(sheet, ScoreSheet):
        raise TypeError(f"expected a ScoreSheet, got {type(sheet).__name__}")
    tr = labels.t
    title = f"{labels.word('score_sheet')} — {labels.word('hand')} {sheet.hand + 1}"
    t = Table(title=title, title_justify="left")
    t.add_column(labels.word("side"))
    for s in range(len(sheet.rows)):
        t.add_column(labels.side(s), justify="right")
    shown = set(scored_lines(labels.edition, labels.sides))
    for i, line in enumerate(SCORE_LINES):
        values = [r[i] for r in sheet.rows]
        if line not in shown and not any(values):
            continue
        t.add_row(labels.word(line), *(str(x) if x else "·" for x in values))
    t.add_section()
    t.add_row(Text(labels.word("hand_total"), style="bold"), *(str(x) for x in sheet.hand_totals))
    t.add_row(Text(labels.word("total"), style="bold"), *(Text(str(x), style="bold") for x in sheet.totals))
    notes = []
    closest = [s for s, row in enumerate(sheet.rows) if row[SCORE_LINES.index("trip")] > 0]
    if sheet.completed_by is not None:
        notes.append(tr("sheet.completed_by", n=sheet.completed_by + 1))
    elif closest:  # meilen: nobody made it exactly; the trip line went to the closest
        notes.append(tr("sheet.closest", sides=tr("result.and").join(tr("tableau.side", n=s + 1) for s in closest)))
    else:
        notes.append(tr("sheet.not_completed"))
    if sheet.extended_by is not None:
        notes.append(tr("sheet.extended_by", word=labels.word("extension"), n=sheet.extended_by + 1))
    t.caption = "; ".join(notes)
    t.caption_justify = "left"
    return t


def totals_table(sheets: Sequence[ScoreSheet], labels: Labels) -> Table:
    """Running totals after every hand (one row per hand)."""
    hands = f"{labels.word('hand')} 1–{len(sheets)}" if len(sheets) > 1 else f"{labels.word('hand')} {len(sheets)}"
    t = Table(title=f"{labels.word('total')} ({hands})", title_justify="left")
    t.add_column(labels.word("hand"), justify="right")
    n = len(sheets[0].rows) if sheets else len(labels.sides)
    for s in range(n):
        t.add_column(labels.side(s), justify="right")
    for sh in sheets:
        cells = (f"{tot} ({h:+d})" for tot, h in zip(sh.totals, sh.hand_totals, strict=True))
        t.add_row(str(sh.hand + 1), *cells)
    return t


def result_text(winners: Sequence[int], totals: Sequence[int], labels: Labels) -> Text:
    tr = labels.t
    if not winners:
        return Text(tr("result.none"), style="dim")
    names = tr("result.and").join(labels.side(w) for w in winners)
    t = Text(tr.n("result.win", len(winners), names=names, points=max(totals)), style="bold green")
    if labels.me is not None and any(labels.me in labels.sides[w] for w in winners):
        t.append(" — " + tr("result.congratulations"), style="bold green")
    return t
