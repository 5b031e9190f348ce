"""Knight Rider games as data: JSON-lines records, replay, save and resume.

A record is::

    {"type": "header", "game": "knightrider", "version": 1, "rules": 2, "players": 3,
     "seed": 7, "options": {...}}
    {"type": "action", "n": 1, "player": 0, "action": "enter N", "events": ["..."]}
    ...
    {"type": "result", "winner": 1, "turns": 57}          (only once the game is over)

``events`` (the chance outcomes and rule effects the action caused, as text) are
optional when writing by hand; when present, replay checks them. :func:`replay` rebuilds
the game from the header's seed and options and verifies every line, raising
:class:`~rallye.core.errors.RecordError` naming the line and what is wrong. A record of
an unfinished game is a save; :func:`load` resumes it.

``version`` is the record format; ``rules`` the version of the rules the game was played
under (:data:`~rallye.knightrider.state.RULES`; a header without it is rules 1, from
before the rules on turning, rams and Blockier-Sprung of issue #54). The record holds
the seed, not the town: replay builds the town again, so an old record is replayed with
the set-up of its rules version (rules 1 and 2: the quick build at random and the
villain on any piece of two tiles or more; rules 3, issue #62: the quick build that
continues roads and the villain on the largest piece, see
:data:`~rallye.knightrider.state.SETUP_BY_ROAD`) and the chase under today's rules: most
rules-1 records replay, and one that does not is refused naming the rules version it was
played under. A record of newer rules than this rallye's is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rallye.core.errors import GameError, RecordError
from rallye.core.jsonio import shown, shown_field
from rallye.core.record import Line, iter_field, iter_jsonl, iter_jsonl_file, write_jsonl
from rallye.knightrider.actions import Action, parse_action
from rallye.knightrider.engine import apply, is_over, new_game
from rallye.knightrider.state import RULES, Options, State

GAME = "knightrider"
VERSION = 1


def header(players: int, seed: int, options: Options | None = None, rules: int = RULES) -> Line:
    return {
        "type": "header",
        "game": GAME,
        "version": VERSION,
        "rules": rules,
        "players": players,
        "seed": seed,
        "options": (options or Options()).to_json(),
    }


def action_line(n: int, before: State, action: Action, after: State) -> Line:
    return {
        "type": "action",
        "n": n,
        "player": before.current,
        "action": str(action),
        "events": [e.text for e in after.events],
    }


def result_line(state: State) -> Line:
    return {"type": "result", "winner": state.winner, "turns": state.turn}


class Recorder:
    """Plays a game and keeps its record: ``rec.play(action)``; ``rec.lines()``. ``rules``
    (default today's) continues a game of older rules with the set-up it was played with."""

    def __init__(self, players: int, seed: int, options: Options | None = None, *, rules: int = RULES) -> None:
        self.state = new_game(players, seed, options, rules=rules)
        self._lines: list[Line] = [header(players, seed, options, rules)]

    def play(self, action: Action) -> State:
        before = self.state
        self.state = apply(before, action)
        self._lines.append(action_line(len(self._lines), before, action, self.state))
        return self.state

    def lines(self) -> list[Line]:
        out = list(self._lines)
        if is_over(self.state):
            out.append(result_line(self.state))
        return out


def record_game(players: int, seed: int, options: Options | None, actions: Iterable[Action]) -> list[Line]:
    rec = Recorder(players, seed, options)
    for a in actions:
        rec.play(a)
    return rec.lines()


def replay(lines: Sequence[Line] | Iterable[tuple[int, Line]], *, source: str = "<record>") -> State:
    """Rebuild and verify a game from its record lines; returns the final state. The lines
    are read one at a time: a bad header is refused before the rest is parsed."""
    numbered = _numbered(lines)
    first = next(numbered, None)
    if first is None:
        raise RecordError(f"{source}: the record is empty", rule="record-format")
    n0, head = first
    where = f"{source}: line {n0}"
    if head.get("type") != "header":
        raise RecordError(f"{where}: the first line must be the header", rule="record-header")
    if head.get("game") != GAME:
        raise RecordError(
            f"{where}: not a Knight Rider record (field 'game' is {shown_field(head, 'game')})", rule="record-header"
        )
    if head.get("version") != VERSION:
        raise RecordError(
            f"{where}: unsupported record version (field 'version' is {shown_field(head, 'version')};"
            f" this rallye reads {VERSION})",
            rule="record-header",
        )
    rules = head.get("rules", 1)
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 1:
        raise RecordError(f"{where}: field 'rules' must be a rules version (1, 2, ...)", rule="record-header")
    if rules > RULES:
        raise RecordError(
            f"{where}: the game was played under Knight Rider rules {rules}; this rallye plays rules {RULES}",
            rule="record-rules",
        )
    try:
        return _replay_body(numbered, head, where, source, rules)
    except RecordError as exc:
        if rules == RULES:
            raise
        raise RecordError(
            f"{exc.message} (the record was played under Knight Rider rules {rules}, before {_CHANGES[rules]}; "
            f"this rallye plays rules {RULES})",
            rule="record-rules",
        ) from None


#: Per old rules version: what the next versions changed (for the message that refuses a
#: record of those rules which no longer replays).
_CHANGES = {
    1: "rules 2 (issue #54: a move may end with a turn on its last field, no dodging a ram,"
    " a turn on a field jumped with Blockier-Sprung costs its pips)",
    2: "rules 3 (issue #62: the quick build continues roads, the villain stands on the largest"
    " road-connected piece, a rolled start is reachable by road; replay keeps a rules-2 set-up)",
}


def _replay_body(numbered: Iterator[tuple[int, Line]], head: Line, where: str, source: str, rules: int) -> State:
    players = iter_field(head, "players", int, where=where)
    seed = iter_field(head, "seed", int, where=where)
    opts_raw: Any = iter_field(head, "options", dict, where=where)
    try:
        state = new_game(players, seed, Options.from_json(opts_raw), rules=rules)
    except GameError as exc:
        raise RecordError(f"{where}: bad header: {exc}", rule="record-header") from None
    expect_n = 1
    ended = False
    for n, line in numbered:
        where = f"{source}: line {n}"
        kind = line.get("type")
        if ended:
            raise RecordError(f"{where}: nothing may follow the result line", rule="record-format")
        if kind == "result":
            if not is_over(state):
                raise RecordError(f"{where}: result line but the game is not over", rule="record-result")
            if line.get("winner") != state.winner:
                raise RecordError(
                    f"{where}: result says winner {shown_field(line, 'winner')}"
                    f" but the game gives {shown(state.winner)}",
                    rule="record-result",
                )
            if "turns" in line and line["turns"] != state.turn:
                raise RecordError(
                    f"{where}: result says {line['turns']} turns, the game took {state.turn}", rule="record-result"
                )
            ended = True
            continue
        if kind != "action":
            raise RecordError(f"{where}: unknown line type {kind!r}", rule="record-format")
        if iter_field(line, "n", int, where=where) != expect_n:
            raise RecordError(
                f"{where}: action number {line['n']} out of sequence (expected {expect_n})", rule="record-sequence"
            )
        player = iter_field(line, "player", int, where=where)
        text = iter_field(line, "action", str, where=where)
        try:
            action = parse_action(text)
            new = apply(state, action, player=player)
        except GameError as exc:
            raise RecordError(
                f"{where}: action {text!r} by P{player + 1} does not replay: {exc}", rule="record-action"
            ) from None
        if "events" in line:
            got = [e.text for e in new.events]
            if line["events"] != got:
                raise RecordError(
                    f"{where}: the recorded chance outcomes/events differ from the replay:"
                    f" recorded {shown(line['events'], 200)}, replay {shown(got, 200)}",
                    rule="record-events",
                )
        state = new
        expect_n += 1
    return state


def _numbered(lines: Sequence[Line] | Iterable[tuple[int, Line]]) -> Iterator[tuple[int, Line]]:
    item: Any
    for i, item in enumerate(lines, start=1):
        yield (int(item[0]), item[1]) if isinstance(item, tuple) else (i, item)


def loads(text: str, *, source: str = "<record>") -> State:
    return replay(iter_jsonl(text, source=source), source=source)


def save(path: str | Path, lines: Iterable[Line]) -> None:
    write_jsonl(path, lines)


def load(path: str | Path) -> State:
    """Resume a saved game (or check a finished one): the replayed state."""
    return replay(iter_jsonl_file(path), source=str(path))
