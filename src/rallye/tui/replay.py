"""``rallye replay FILE``: rebuild a game record or save file, verifying every line.

The game is told by the header line's ``"game"`` field: ``mille`` is replayed by
:func:`rallye.mille.record.replay_lines`; ``knightrider`` by
``rallye.knightrider.record.replay`` (imported only then). A valid record prints a
summary and each hand's score sheet and exits 0; a broken or altered one prints the
:class:`~rallye.core.errors.RecordError` message, which names the line, and exits 2.

The summary's words come from the catalogs (:mod:`rallye.i18n`), in ``--lang`` or else
the game's language: a Mille Bornes edition's own (German for ``wm2006``, Hungarian for
``hu``), German for Knight Rider. An error keeps the engine's words.

``rallye replay FILE --step [--analysis FILE.json]`` verifies the record through the game
face (:data:`rallye.games.GAMES`) and steps through it on the game's screens
(:func:`step_command`, :mod:`rallye.tui.stepper`).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rallye.core.errors import GameError, RecordError
from rallye.core.jsonio import shown_field
from rallye.core.record import Line, iter_jsonl_file
from rallye.i18n import LANGUAGES
from rallye.tui.words import common
from rallye.tui.words import summary_row as row

KNIGHTRIDER_RECORD = "rallye.knightrider.record"


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record or save file (JSON lines)")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the summary and score sheets (default: the edition's; German for Knight Rider)",
    )
    p.add_argument("--quiet", action="store_true", help="only verify; print one line")
    p.add_argument(
        "--step",
        action="store_true",
        help="step through the game move by move on the game's screens (every hand, once the game is over)",
    )
    p.add_argument(
        "--analysis",
        metavar="FILE.json",
        default=None,
        help="an analysis of the game (rallye analyse --json): each decision's mark beside the move (implies --step)",
    )
    # served by rallye.server.replay (the command line dispatches it: the terminal may not import the server)
    p.add_argument("--web", action="store_true", help="show it in the browser: serve its replay page on 127.0.0.1")


def run_replay(args: argparse.Namespace) -> int:
    console = Console()
    if args.step or args.analysis:
        return step_command(args.file, console, console.input, lang=args.lang, analysis=args.analysis)
    return replay_command(args.file, console, lang=args.lang, quiet=args.quiet)


def step_command(
    path: str | Path,
    console: Console,
    input_fn: Callable[[str], str],
    *,
    lang: str | None = None,
    analysis: str | Path | None = None,
) -> int:
    """``rallye replay FILE --step``: verify the record, then step through it (see
    :mod:`rallye.tui.stepper`) until the person quits: 0, 130 on Ctrl-C, or 2 with the
    reason when the record (or the analysis) is refused."""
    from rallye.core.record import read_jsonl
    from rallye.games import GAMES
    from rallye.tui.loop import HEADER_FIELD, saved_humans
    from rallye.tui.stepper import AnalysisError, Stepper, load_analysis

    try:
        numbered = read_jsonl(path)
        if not numbered:
            raise RecordError(f"{path}: the file is empty; a record starts with its header line", rule="record-format")
        n, head = numbered[0]
        game = GAMES.get(head.get("game"))  # type: ignore[arg-type]
        if game is None:
            raise RecordError(
                f"{path}: line {n}: the header names no known game (field 'game' is {shown_field(head, 'game')}); "
                "expected 'mille' or 'knightrider'",
                rule="record-format",
            )
        replayed = game.replay(numbered, str(path))
        players = game.players(head)
        tags = _seat_tags(head, players, path)
        people = saved_humans(head, players, path) if HEADER_FIELD in head else ()
        stepper: Stepper[Any, Any]
        if game.key == "mille":
            from rallye.tui.mille.render import pick_language
            from rallye.tui.mille.step import MilleStepper

            edition = replayed.final.edition
            ui = summary_language(lang, edition.language)
            notes = load_analysis(analysis, game, replayed, ui) if analysis else None
            _, lang_note = pick_language(edition, lang)
            if lang_note:
                console.print(Text(lang_note, style="yellow"), soft_wrap=True)
            stepper = MilleStepper(
                replayed, console, input_fn, tags=tags, people=people, lang=lang, ui=ui, analysis=notes
            )
        else:
            from rallye.tui.knightrider.step import KRStepper

            ui = summary_language(lang, "de")  # the box is German
            notes = load_analysis(analysis, game, replayed, ui) if analysis else None
            stepper = KRStepper(replayed, console, input_fn, tags=tags, people=people, ui=ui, analysis=notes)
    except GameError as exc:
        console.print(Text(f"rallye replay: {error_text(exc)}", style="bold red"), soft_wrap=True)
        return 2
    except AnalysisError as exc:
        console.print(Text(f"rallye replay: {exc}", style="bold red"), soft_wrap=True)
        return 2
    return stepper.run()


def replay_command(path: str | Path, console: Console, *, lang: str | None = None, quiet: bool = False) -> int:
    """Verify and summarise a record; 0 if it replays, 2 (with the reason) if not."""
    try:
        lines = iter_jsonl_file(path)  # parsed as the replay reads them: a bad header stops it
        first = next(lines)
        n, head = first
        if head.get("game") not in ("mille", "knightrider"):
            raise RecordError(
                f"{path}: line {n}: the header names no known game (field 'game' is {shown_field(head, 'game')}); "
                "expected 'mille' or 'knightrider'",
                rule="record-format",
            )
        if head.get("game") == "mille":
            _mille(path, head, itertools.chain([first], lines), console, lang, quiet)
        else:
            return _knightrider(path, head, itertools.chain([first], lines), console, lang, quiet)
    except GameError as exc:
        console.print(Text(f"rallye replay: {error_text(exc)}", style="bold red"), soft_wrap=True)
        return 2
    return 0


def error_text(exc: GameError) -> str:
    """The error's text, its rule named once (a replay error wraps an engine error whose
    text already ends with the same ``[rule: …]``)."""
    tag = f"[rule: {exc.rule}]"
    return exc.message if exc.rule and exc.message.endswith(tag) else str(exc)


def summary_language(lang: str | None, default: str) -> str:
    """The summary's language: ``--lang``, else the game's own (one with catalogs, else English)."""
    return lang or (default if default in LANGUAGES else "en")


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
    from rallye.tui.mille.render import Labels, pick_language, result_text, sheet_table, totals_table

    rep = replay_lines(lines, str(path))
    final = rep.final
    ed = final.edition
    sheets = final.sheets
    ui = summary_language(lang, ed.language)
    tc = common(ui)
    status = tc("replay.finished" if rep.finished else "replay.in_progress")
    tags = _seat_tags(head, final.n_players, path)  # the people's seats, checked like --resume does
    moves = len(rep.actions)
    if quiet:
        quiet_line = tc(
            "replay.quiet", path=path, game="Mille Bornes", moves=tc.n("replay.n_moves", moves), status=status
        )
        console.print(Text(quiet_line), soft_wrap=True)
        return
    # The summary shows only what is public after the match: the score sheets and totals.
    shown_lang, lang_note = pick_language(ed, lang)
    if lang_note:
        console.print(Text(lang_note, style="yellow"), soft_wrap=True)
    labels = Labels(ed, shown_lang, final.sides, tuple(tags.get(s, "") for s in range(final.n_players)), ui=ui)
    console.print(Text(tc("replay.valid", path=path, game="Mille Bornes"), style="bold green"), soft_wrap=True)
    console.print(row(tc, "edition", f"{labels.title()} ({ed.key})"), markup=False)
    seed = final.seed if rep.finished else tc("replay.seed_hidden")
    console.print(row(tc, "players", tc("replay.players_seed", players=final.n_players, seed=seed)), markup=False)
    for i in range(len(final.sides)):
        console.print(row(tc, "", labels.side(i)), markup=False)
    hands = len(sheets) + (0 if rep.finished else 1)
    console.print(row(tc, "hands", tc("replay.hands_moves", hands=hands, moves=moves)), markup=False)
    console.print(row(tc, "status", status), markup=False)
    for sh in sheets:
        console.print(sheet_table(sh, labels))
    if sheets:
        console.print(totals_table(sheets, labels))
    if rep.finished:
        console.print(result_text(final.winners, final.totals, labels))
    else:
        resume = tc("replay.continue", game="mille", path=path)
        line = labels.t(
            "replay.in_progress",
            hand=final.hand_no + 1,
            seat=labels.seat(final.current),
            totals=", ".join(map(str, final.totals)),
            resume=resume,
        )
        console.print(Text(line), soft_wrap=True)


def _knightrider(
    path: str | Path, head: Line, lines: Iterable[tuple[int, Line]], console: Console, lang: str | None, quiet: bool
) -> int:
    tc = common(summary_language(lang, "de"))  # the box is German
    try:
        mod: Any = importlib.import_module(KNIGHTRIDER_RECORD)
    except ModuleNotFoundError as exc:
        if exc.name != KNIGHTRIDER_RECORD:
            raise
        console.print(
            Text(f"rallye replay: {tc('replay.no_module', path=path, module=KNIGHTRIDER_RECORD)}", style="bold red"),
            soft_wrap=True,
        )
        return 2
    from rallye.knightrider.view import view_for
    from rallye.tui.knightrider.render import Labels, record_summary

    actions = 0

    def counted() -> Iterator[tuple[int, Line]]:
        nonlocal actions
        for n, line in lines:
            actions += line.get("type") == "action"
            yield n, line

    final = mod.replay(counted(), source=str(path))
    view = view_for(final, 0)  # only its public parts are shown
    status = tc("replay.finished" if view.over else "replay.in_progress")
    tags = _seat_tags(head, view.players, path)  # the people's seats, checked like --resume does
    if quiet:
        quiet_line = tc(
            "replay.quiet", path=path, game="Knight Rider", moves=tc.n("replay.n_actions", actions), status=status
        )
        console.print(Text(quiet_line), soft_wrap=True)
        return 0
    console.print(Text(tc("replay.valid", path=path, game="Knight Rider"), style="bold green"), soft_wrap=True)
    console.print(record_summary(head, view, actions, Labels.for_view(view, tags, lang=tc.lang)))
    if not view.over:
        console.print(Text(tc("replay.continue", game="knightrider", path=path)), soft_wrap=True)
    return 0
