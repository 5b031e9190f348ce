"""What both terminal games share: reading input, saving, quitting and end of input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from rich.text import Text


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
