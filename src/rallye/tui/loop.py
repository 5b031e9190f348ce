"""What both terminal games share: choosing the bots, the settings kept in a save file's
header, and the loop's input, saving, quitting and end of input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from rich.text import Text

from rallye.core.errors import RecordError

#: The record header field where the terminal keeps the human's seat and the bots.
HEADER_FIELD = "tui"
DEFAULT_BOT = "heuristic"


def bot_seed(seed: int, seat: int, ply: int) -> int:
    """A bot's own seed: fixed by the game seed, its seat and the move it starts at (so a
    resumed game's bots are as reproducible as a fresh game's)."""
    return (seed * 1_000_003 + seat * 10_007 + ply) % (2**32)


def resolve_bots(game: str, spec: str | None, count: int, note: Callable[[str], None], what: str = "") -> list[str]:
    """Bot names for ``count`` seats; a requested ``heuristic`` bot that is not installed is
    replaced by an available one, with a note. Unknown names raise ``ValueError``."""
    from rallye.agents.base import agent_names, parse_bots

    if count == 0:
        return []
    known = agent_names(game)
    names = [s.strip() for s in (spec or DEFAULT_BOT).split(",") if s.strip()] or [DEFAULT_BOT]
    if DEFAULT_BOT in names and DEFAULT_BOT not in known:
        fallback = "random" if "random" in known else known[0]
        note(f"the {what}{DEFAULT_BOT} bot is not available yet; using {fallback!r} instead")
        names = [fallback if n == DEFAULT_BOT else n for n in names]
    return parse_bots(game, ",".join(names), count)


def saved_settings(header: dict[str, Any], source: str | Path = "<record>") -> dict[str, Any]:
    """The terminal's settings stored in a record header (``{}`` if none or malformed); a
    human seat that is not a seat of the game is a :class:`RecordError` (for ``replay`` and
    ``--resume`` alike)."""
    raw = header.get(HEADER_FIELD)
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    seat = raw.get("human_seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        players = header.get("players")
        if isinstance(players, int) and not 0 <= seat < players:
            raise RecordError(
                f"{source}: the header's '{HEADER_FIELD}.human_seat' is {seat}, not a seat of this"
                f" {players}-player game (0..{players - 1})",
                rule="record-header",
            )
        out["human_seat"] = seat
    bots = raw.get("bots")
    if isinstance(bots, list) and all(b is None or isinstance(b, str) for b in bots):
        out["bots"] = bots
    return out


def resume_choices(
    source: str | Path,
    header: dict[str, Any],
    seat_arg: int | None,
    bots_arg: str | None,
    resolve: Callable[[str | None, int], list[str]],
) -> tuple[int | None, list[str] | None]:
    """The seat (0-based) and bots a resumed game should use: ``--seat``/``--bots`` if given,
    else what the save holds (``None`` = as saved). A saved ``heuristic`` bot is resolved again
    in case it is not installed. Bad input raises ``ValueError`` or ``RecordError``."""
    players = header.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(f"{source}: line 1: the header has no player count", rule="record-header")
    seat = None
    if seat_arg is not None:
        if not 1 <= seat_arg <= players:
            raise ValueError(f"--seat must be 1..{players}")
        seat = seat_arg - 1
    if bots_arg is not None:
        return seat, resolve(bots_arg, players - 1)
    saved = saved_settings(header, source).get("bots") or []
    if any(b == DEFAULT_BOT for b in saved):  # saved with a bot that may be gone since
        return seat, resolve(",".join(b for b in saved if b), players - 1)
    return seat, None


def choice_number(text: str) -> int | None:
    """The menu number a player typed, or ``None`` if ``text`` is not one: ASCII digits only
    (``str.isdigit`` also takes '²', which ``int`` refuses), and a number longer than any
    menu (5,000 digits would be refused by ``int`` too) stands for no choice (``0``)."""
    if not (text.isascii() and text.isdigit()):
        return None
    return int(text) if len(text) <= 9 else 0


class Quit(Exception):
    """The player left the game (after the offer to save)."""


class SavingLoop:
    """Base of a game's terminal loop: ``self.s`` is the session (it has ``save(path)``)."""

    #: the game's name in ``rallye play GAME`` (for the resume hint)
    game = ""

    def __init__(
        self,
        session: Any,
        input_fn: Callable[[str], str],
        console: Any,
        save_path: str | Path | None,
        delay: float,
        sleep: Callable[[float], None],
    ) -> None:
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
            self.say("Give a file name: save FILE", "yellow")
            return False
        try:
            self.s.save(target)
        except OSError as exc:
            self.say(f"could not save to {target}: {exc.strerror or exc}", "red")
            return False
        self.save_path = target
        if getattr(self.s, "over", False):  # nothing to resume: say how to see it instead
            self.say(f"saved to {target} (the game is over; see it with: rallye replay {target})", "green")
        else:
            self.say(f"saved to {target} (continue with: rallye play {self.game} --resume {target})", "green")
        return True

    def quit(self) -> NoReturn:
        if self.save_path is not None:
            question = f"Save the game to {self.save_path} before quitting? [Y/n or another file name] "
        else:
            question = "Save the game before quitting? Type a file name, or press Enter to quit without saving: "
        try:
            answer = self.read(question).strip()
        except EOFError:
            self.c.print()
            answer = "y" if self.save_path is not None else ""
        if self.save_path is not None:
            if answer.lower() in ("", "y", "yes"):
                self.save(None)
            elif answer.lower() not in ("n", "no"):
                self.save(answer)
        elif answer and answer.lower() not in ("n", "no"):
            self.save(answer)
        self.say("Bye.")
        raise Quit

    def on_eof(self) -> NoReturn:
        self.c.print()
        if self.save_path is not None:
            self.save(None)
        else:
            self.say("End of input; the game was not saved (give --save FILE to save on Ctrl-D).", "yellow")
        raise Quit
