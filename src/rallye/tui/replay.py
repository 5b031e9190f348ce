"""``rallye replay FILE``: rebuild a game record or save file, verifying every line.

The game is told by the header line's ``"game"`` field: ``mille`` is replayed by
:func:`rallye.mille.record.replay_lines`; ``knightrider`` by
``rallye.knightrider.record.replay`` (imported only then). A valid record prints a
summary and each hand's score sheet and exits 0; a broken or altered one prints the
:class:`~rallye.core.errors.RecordError` message, which names the line, and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rallye.core.errors import GameError, RecordError
from rallye.core.record import Line, iter_jsonl_file

KNIGHTRIDER_RECORD = "rallye.knightrider.record"


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record or save file (JSON lines)")
    p.add_argument("--lang", default=None, help="language of names on the score sheets (default: the edition's)")
    p.add_argument("--quiet", action="store_true", help="only verify; print one line")


def run_replay(args: argparse.Namespace) -> int:
    return replay_command(args.file, Console(), lang=args.lang, quiet=args.quiet)


def replay_command(path: str | Path, console: Console, *, lang: str | None = None, quiet: bool = False) -> int:
    """Verify and summarise a record; 0 if it replays, 2 (with the reason) if not."""
    try:
        lines = iter_jsonl_file(path)  # parsed as the replay reads them: a bad header stops it
        first = next(lines)
        n, head = first
        if head.get("game") not in ("mille", "knightrider"):
            raise RecordError(
                f"{path}: line {n}: the header names no known game ({head.get('game')!r}); "
                "expected 'mille' or 'knightrider'",
                rule="record-format",
            )
        if head.get("game") == "mille":
            _mille(path, head, itertools.chain([first], lines), console, lang, quiet)
        else:
            return _knightrider(path, head, itertools.chain([first], lines), console, quiet)
    except GameError as exc:
        console.print(Text(f"rallye replay: {error_text(exc)}", style="bold red"), soft_wrap=True)
        return 2
    return 0


def error_text(exc: GameError) -> str:
    """The error's text, its rule named once (a replay error wraps an engine error whose
    text already ends with the same ``[rule: …]``)."""
    tag = f"[rule: {exc.rule}]"
    return exc.message if exc.rule and exc.message.endswith(tag) else str(exc)


#: What a save file's summary says instead of the seed: the seed rebuilds every hand.
SEED_HIDDEN = "(shown when the game is over)"


def _seat_tags(header: dict[str, Any], players: int, source: str | Path) -> dict[int, str]:
    """Who played each seat, from the terminal's header field: ``human`` or a bot's name.
    People's seats that are not seats of the game are a
    :class:`~rallye.core.errors.RecordError` naming ``source`` (as for ``--resume``)."""
    from rallye.tui.loop import HEADER_FIELD, saved_humans, saved_settings

    tags = {seat: "human" for seat in saved_humans(header, players, source)} if HEADER_FIELD in header else {}
    for seat, name in enumerate(saved_settings(header).get("bots") or []):
        if name:
            tags[seat] = name
    return tags


def _mille(
    path: str | Path, head: Line, lines: Iterable[tuple[int, Line]], console: Console, lang: str | None, quiet: bool
) -> None:
    from rallye.mille.record import replay_lines
    from rallye.tui.render import Labels, pick_language, result_text, sheet_table, totals_table

    rep = replay_lines(lines, str(path))
    final = rep.final
    ed = final.edition
    sheets = final.sheets
    status = "finished" if rep.finished else "in progress (a save file)"
    tags = _seat_tags(head, final.n_players, path)  # the people's seats, checked like --resume does
    if quiet:
        console.print(Text(f"{path}: valid Mille Bornes record, {len(rep.actions)} moves, {status}"), soft_wrap=True)
        return
    # The summary shows only what is public after the match: the score sheets and totals.
    shown_lang, _ = pick_language(ed, lang)
    labels = Labels(ed, shown_lang, final.sides, tuple(tags.get(s, "") for s in range(final.n_players)), ui="en")
    console.print(Text(f"{path}: a valid Mille Bornes record", style="bold green"), soft_wrap=True)
    console.print(f"edition   {ed.title} ({ed.key})", markup=False)
    console.print(f"players   {final.n_players}; seed {final.seed if rep.finished else SEED_HIDDEN}", markup=False)
    for i in range(len(final.sides)):
        console.print(f"          {labels.side(i)}", markup=False)
    hands = len(sheets) + (0 if rep.finished else 1)
    console.print(f"hands     {hands}; moves {len(rep.actions)}", markup=False)
    console.print(f"status    {status}", markup=False)
    for sh in sheets:
        console.print(sheet_table(sh, labels))
    if sheets:
        console.print(totals_table(sheets, labels))
    if rep.finished:
        console.print(result_text(final.winners, final.totals, labels))
    else:
        console.print(
            Text(
                f"in progress: hand {final.hand_no + 1}, P{final.current + 1} to play; "
                f"totals {', '.join(map(str, final.totals))} "
                f"(continue with: rallye play mille --resume {path})"
            ),
            soft_wrap=True,
        )


def _knightrider(path: str | Path, head: Line, lines: Iterable[tuple[int, Line]], console: Console, quiet: bool) -> int:
    try:
        mod: Any = importlib.import_module(KNIGHTRIDER_RECORD)
    except ModuleNotFoundError as exc:
        if exc.name != KNIGHTRIDER_RECORD:
            raise
        console.print(
            Text(
                f"rallye replay: {path} is a Knight Rider record, but Knight Rider records cannot be "
                f"replayed in this installation ({KNIGHTRIDER_RECORD} is missing)",
                style="bold red",
            ),
            soft_wrap=True,
        )
        return 2
    from rallye.knightrider.view import view_for
    from rallye.tui.knightrider_render import Labels, record_summary

    actions = 0

    def counted() -> Iterator[tuple[int, Line]]:
        nonlocal actions
        for n, line in lines:
            actions += line.get("type") == "action"
            yield n, line

    final = mod.replay(counted(), source=str(path))
    view = view_for(final, 0)  # only its public parts are shown
    status = "finished" if view.over else "in progress (a save file)"
    tags = _seat_tags(head, view.players, path)  # the people's seats, checked like --resume does
    if quiet:
        console.print(Text(f"{path}: valid Knight Rider record, {actions} actions, {status}"), soft_wrap=True)
        return 0
    console.print(Text(f"{path}: a valid Knight Rider record", style="bold green"), soft_wrap=True)
    console.print(record_summary(head, view, actions, Labels.for_view(view, tags, lang="en")))
    if not view.over:
        console.print(Text(f"continue with: rallye play knightrider --resume {path}"), soft_wrap=True)
    return 0
