"""Mille Bornes games as data: JSON-lines records, save files and verified replay.

A record (format 1) is, line by line::

    {"type":"header","game":"mille","format":1,"edition":"wm2006","players":2,"seed":7}
    {"type":"deal","hand":0,"dealer":1,"deck":["D100","ROLL",...]}      top first
    {"type":"action","hand":0,"player":0,"action":"play ROLL"}          player 0-based
    ...
    {"type":"score","hand":0,"sheet":{...}}                             after each hand
    {"type":"end","winners":[0],"totals":[5125,3300],"result":"won"}    when the match is over

A game played with a house-rule edition (``--edition house.json``, or a file that reuses a
built-in key with other values) carries that edition whole in the header's
``"edition_data"`` (the edition file's JSON), so it replays and resumes without the file;
a record never names a file to read.

A save file is a record without its ``end`` line: ``replay`` rebuilds the state and play
resumes from it. ``replay`` verifies everything: each deck against the seed, each action's
legality and actor, each score sheet; the first wrong line is named in the error.

The end line's ``result`` (``engine.outcome``) tells ``won`` (one side), ``shared`` (meilen:
several sides tied closest to 1000) and ``drawn`` (meilen: nobody drove, every side listed)
apart; records written before it have no ``result`` and replay as they are (format 1
still: a reader that does not know the field ignores it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rallye.core.errors import ConfigError, GameError, RecordError
from rallye.core.jsonio import shown, shown_field
from rallye.core.record import Line, iter_jsonl, iter_jsonl_file, write_jsonl
from rallye.mille.actions import Action, parse_action
from rallye.mille.cards import CARDS
from rallye.mille.edition import SCORE_LINES, Edition, builtin_edition, parse_edition
from rallye.mille.engine import apply_as, is_over, new_match, outcome
from rallye.mille.state import MilleState, ScoreSheet

FORMAT = 1


@dataclass
class Recorder:
    """Builds a record while a match is played: ``rec.step(state, player, action)``."""

    state: MilleState
    lines: list[Line] = field(default_factory=list)

    @classmethod
    def start(cls, state: MilleState, extra: dict[str, Any] | None = None) -> Recorder:
        """Begin a record; ``extra`` adds fields to the header (e.g. seats and bots of a
        terminal game); replay ignores fields it does not know."""
        header: Line = {
            "type": "header",
            "game": "mille",
            "format": FORMAT,
            "edition": state.edition.key,
            "players": state.n_players,
            "seed": state.seed,
            **(extra or {}),
        }
        if not state.edition.is_builtin:  # a house-rule edition travels with its games
            header["edition_data"] = state.edition.to_json()
        rec = cls(state, [header])
        rec._deal_line(state)
        return rec

    def _deal_line(self, s: MilleState) -> None:
        self.lines.append({"type": "deal", "hand": s.hand_no, "dealer": s.dealer, "deck": list(s.deck)})

    def step(self, player: int, action: Action) -> MilleState:
        """Apply ``action`` by ``player`` (checked) and record it; returns the new state."""
        before = self.state
        after = apply_as(before, player, action)
        self.lines.append({"type": "action", "hand": before.hand_no, "player": player, "action": str(action)})
        for sheet in after.sheets[len(before.sheets) :]:
            self.lines.append({"type": "score", "hand": sheet.hand, "sheet": sheet.to_json()})
        if is_over(after):
            self.lines.append(
                {
                    "type": "end",
                    "winners": list(after.winners),
                    "totals": list(after.totals),
                    "result": outcome(after),
                }
            )
        elif after.hand_no != before.hand_no:
            self._deal_line(after)
        self.state = after
        return after

    def save(self, path: str | Path) -> None:
        write_jsonl(path, self.lines)


@dataclass(frozen=True)
class Replay:
    """The result of a verified replay."""

    initial: MilleState
    final: MilleState
    states: tuple[MilleState, ...]  # after each action
    actions: tuple[tuple[int, Action], ...]
    finished: bool  # the record has its end line

    def recorder(self) -> Recorder:
        """A recorder positioned at the end, to resume a saved game."""
        rec = Recorder.start(self.initial)
        for player, action in self.actions:
            rec.step(player, action)
        return rec


def _int(line: Line, name: str, where: str) -> int:
    v = line.get(name)
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError(f"{where}: field '{name}' must be an integer", rule="record-format")
    return v


def _header_edition(head: Line, name: str, where: str) -> Edition:
    """The edition a header names: a built-in one by key, or the house-rule edition the
    header carries whole in ``edition_data`` (never a file named by the record)."""
    if "edition_data" not in head:
        try:
            return builtin_edition(name)
        except ConfigError as exc:
            raise RecordError(
                f"{where}: {exc.message}; a record of a house-rule game carries its edition in 'edition_data'",
                rule="record-header",
            ) from None
    ed = parse_edition(head["edition_data"], source="field 'edition_data'")
    if ed.key != name:
        raise RecordError(
            f"{where}: field 'edition' says {name!r} but 'edition_data' holds edition {ed.key!r}",
            rule="record-header",
        )
    return ed


def replay_lines(lines: Iterable[tuple[int, Line]], source: str = "<record>") -> Replay:
    it: Iterator[tuple[int, Line]] = iter(lines)
    try:
        n, head = next(it)
    except StopIteration:
        raise RecordError(f"{source}: the record is empty", rule="record-format") from None
    where = f"{source}: line {n}"
    if head.get("type") != "header" or head.get("game") != "mille":
        raise RecordError(f"{where}: the first line must be a Mille Bornes header", rule="record-format")
    if head.get("format") != FORMAT:
        raise RecordError(
            f"{where}: unsupported record format (field 'format' is {shown_field(head, 'format')};"
            f" this rallye reads {FORMAT})",
            rule="record-format",
        )
    ed_name = head.get("edition")
    if not isinstance(ed_name, str):
        raise RecordError(f"{where}: field 'edition' must be an edition key", rule="record-format")
    try:
        ed = _header_edition(head, ed_name, where)
        players = _int(head, "players", where)
        seed = _int(head, "seed", where)
        state = new_match(ed, players, seed)
    except RecordError:
        raise
    except GameError as exc:
        raise RecordError(f"{where}: {exc.message}", rule="record-header") from None
    initial = state
    states: list[MilleState] = []
    actions: list[tuple[int, Action]] = []
    expect_deal = True
    pending_sheets: list[Any] = []
    finished = False
    for n, line in it:
        where = f"{source}: line {n}"
        kind = line["type"]
        if finished:
            raise RecordError(f"{where}: nothing may follow the end line", rule="record-format")
        if kind == "deal":
            if pending_sheets:
                raise RecordError(
                    f"{where}: the score line of hand {pending_sheets[0].hand + 1} is missing", rule="record-order"
                )
            if not expect_deal:
                raise RecordError(f"{where}: unexpected deal line", rule="record-order")
            deck = line.get("deck")
            if not isinstance(deck, list) or not all(c in CARDS for c in deck):
                raise RecordError(f"{where}: field 'deck' must be a list of card ids", rule="record-format")
            if _int(line, "hand", where) != state.hand_no or _int(line, "dealer", where) != state.dealer:
                raise RecordError(
                    f"{where}: expected hand {state.hand_no} dealt by seat {state.dealer}", rule="dealer-rotation"
                )
            if tuple(deck) != state.deck:
                raise RecordError(f"{where}: the deck order is not the one seed {seed} deals", rule="deck")
            expect_deal = False
            continue
        if expect_deal and kind not in ("score", "end"):
            raise RecordError(f"{where}: a deal line must come first in each hand", rule="record-order")
        if kind == "action":
            if pending_sheets:
                raise RecordError(f"{where}: the score line of the finished hand is missing", rule="record-order")
            player = _int(line, "player", where)
            text = line.get("action")
            if not isinstance(text, str):
                raise RecordError(f"{where}: field 'action' must be action text", rule="record-format")
            if _int(line, "hand", where) != state.hand_no:
                raise RecordError(f"{where}: the action belongs to hand {state.hand_no}", rule="record-order")
            try:
                action = parse_action(text)
                new = apply_as(state, player, action)
            except GameError as exc:
                raise RecordError(f"{where}: {exc.message}", rule=exc.rule) from None
            pending_sheets.extend(new.sheets[len(state.sheets) :])
            if new.hand_no != state.hand_no and not is_over(new):
                expect_deal = True
            state = new
            states.append(new)
            actions.append((player, action))
        elif kind == "score":
            if not pending_sheets:
                raise RecordError(f"{where}: no hand has ended here", rule="record-order")
            sheet = pending_sheets.pop(0)
            recorded = line.get("sheet")
            if recorded != sheet.to_json() and recorded != _sheet_before_hu_lines(sheet, ed):
                raise RecordError(
                    f"{where}: the score sheet of hand {sheet.hand + 1} is wrong; the rules give "
                    f"totals {list(sheet.totals)}",
                    rule="score",
                )
        elif kind == "end":
            if pending_sheets or not is_over(state):
                raise RecordError(f"{where}: the match is not over here", rule="record-order")
            if line.get("winners") != list(state.winners) or line.get("totals") != list(state.totals):
                raise RecordError(
                    f"{where}: wrong result; the rules give winners {list(state.winners)}"
                    f" and totals {list(state.totals)}",
                    rule="score",
                )
            if "result" in line and line["result"] != outcome(state):
                raise RecordError(
                    f"{where}: the end line says the match was {shown(line['result'])};"
                    f" the rules give {shown(outcome(state))}",
                    rule="score",
                )
            finished = True
        else:
            raise RecordError(f"{where}: unknown line type {kind!r}", rule="record-format")
    if pending_sheets:
        raise RecordError(f"{source}: the record ends before the score line of the last hand", rule="record-order")
    return Replay(initial, state, tuple(states), tuple(actions), finished)


def _sheet_before_hu_lines(sheet: ScoreSheet, ed: Edition) -> dict[str, object] | None:
    """The sheet as rallye wrote it before the hu score lines (issue #54), for an edition
    whose coup fourré goes on its own line in place of the safety's points: the safety line
    counted every safety and the coup-fourré line the bonus alone. Same totals; records saved
    then replay. ``None`` for the other editions."""
    sc = ed.scoring
    if not sc.coup_fourre_in_place:
        return None
    old = sheet.to_json()
    rows = []
    for row in sheet.rows:
        line = dict(zip(SCORE_LINES, row, strict=True))
        coups = line["coup_fourre"] // (sc.safety + sc.coup_fourre_bonus) if sc.safety + sc.coup_fourre_bonus else 0
        line["safeties"] += sc.safety * coups
        line["coup_fourre"] -= sc.safety * coups
        rows.append(line)
    old["rows"] = rows
    return old


def replay_text(text: str, source: str = "<record>") -> Replay:
    return replay_lines(iter_jsonl(text, source=source), source)


def replay_file(path: str | Path) -> Replay:
    return replay_lines(iter_jsonl_file(path), str(path))
