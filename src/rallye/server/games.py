"""What the server keeps of each game: its JSON, and a match's record.

The rules are the game's face (:class:`rallye.core.game.Game`, by key from
:func:`rallye.games.game_for`): a table checks settings, deals, applies, views, records and
replays through it alone. What is the server's own is here:

* :class:`Match` – a match in play: its state, its record lines (the same JSON lines
  ``rallye replay`` verifies) and its move number; built new or from a stored record;
* :class:`GameJson` – one small class a game, generic over the game's types: a seat's view
  as JSON, the spectator's (what the rules make public), the result, the legal actions with
  their codes and what each means for a page (:mod:`rallye.server.annotate`), and the
  settings a table's summary shows;
* :func:`lobby_info` – what a lobby offers.

Nothing here knows a transport or a database; :mod:`rallye.server.table` is the authority
that calls it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rallye.core.game import Game, Settings
from rallye.core.record import Line
from rallye.knightrider.actions import Action as KRAction
from rallye.knightrider.game import GAME as KNIGHTRIDER
from rallye.knightrider.game import MAX_PLAYERS, MIN_PLAYERS, TABLE_OPTIONS, TABLE_RANGES
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.knightrider.state import State as KRState
from rallye.knightrider.view import View as KRView
from rallye.mille.actions import Action as MilleAction
from rallye.mille.edition import LANGUAGES, SCORE_LINES, editions
from rallye.mille.game import GAME as MILLE
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView
from rallye.server.annotate import kr_info, mille_info


class JsonView(Protocol):
    """A view: an immutable value that writes itself as JSON."""

    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", bound=JsonView)


@dataclass
class Match(Generic[S]):
    """A match in play: its current state, its record lines and its accepted actions so far
    (the move number)."""

    state: S
    lines: list[Line]
    actions: int

    @classmethod
    def new(cls, game: Game[S, Any, Any], settings: Settings, seed: int) -> Match[S]:
        state = game.new(settings, seed)
        return cls(state, game.record_start(state), 0)

    @classmethod
    def restore(cls, game: Game[S, Any, Any], lines: Sequence[Line], source: str) -> Match[S]:
        """The match a stored record holds, replayed and verified (a
        :class:`~rallye.core.errors.RecordError` naming the line otherwise)."""
        replayed = game.replay(lines, source)
        return cls(replayed.final, list(lines), len(replayed.moves))

    def step(self, game: Game[S, A, Any], seat: int, action: A) -> None:
        """Apply ``action`` by ``seat`` (checked by the rules) and extend the record."""
        self.state = game.record_move(self.lines, self.state, seat, action)
        self.actions += 1


class GameJson(ABC, Generic[S, A, V]):
    """A game's JSON for the server's messages (docs/protocol.md)."""

    game: Game[S, A, V]

    def view_json(self, view: V) -> dict[str, Any]:
        """A seat's view as JSON."""
        return view.to_json()

    @abstractmethod
    def spectator_json(self, state: S) -> dict[str, Any]:
        """What the rules make public: a view with no seat's hidden cards."""

    def views_json(self, state: S, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """Each seat's view as JSON (``None``: the spectator's), as :meth:`view_json` and
        :meth:`spectator_json` give them one by one."""
        game = self.game
        return {s: self.spectator_json(state) if s is None else self.view_json(game.view_for(state, s)) for s in seats}

    @abstractmethod
    def stage(self, state: S) -> int:
        """The game's stretch ``state`` is in: a Mille Bornes hand, a Knight Rider turn
        (a replay's page jumps between them)."""

    @abstractmethod
    def full_json(self, state: S) -> dict[str, Any]:
        """The whole state as a picture, every hand open (a finished game's replay only):
        the spectator's view and ``hands``, one entry a seat."""

    @abstractmethod
    def result_json(self, state: S) -> dict[str, Any]:
        """The outcome of a finished match (totals, winners, score sheets) as JSON."""

    @abstractmethod
    def info(self, view: V, action: A) -> dict[str, Any]:
        """What ``action`` means for the seat whose ``view`` this is (:mod:`~rallye.server.annotate`)."""

    def legal_json(self, view: V, legal: Sequence[A]) -> list[dict[str, Any]]:
        """The legal actions as the ``state`` message lists them: code, notation, meaning."""
        game = self.game
        return [
            {"code": game.encode_action(a), "action": game.format_action(a), "info": self.info(view, a)} for a in legal
        ]

    @abstractmethod
    def settings_json(self, settings: Settings) -> dict[str, Any]:
        """The game's own settings in a table's summary."""


class MilleJson(GameJson[MilleState, MilleAction, MilleView]):
    game = MILLE

    def spectator_json(self, state: MilleState) -> dict[str, Any]:
        data = self.view_json(self.game.view_for(state, 0))
        data.update(seat=None, side=None, hand=[])
        return data

    def views_json(self, state: MilleState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        # A Mille view differs between seats only in whose it is and that seat's hand: the
        # rest is built once for all seats (a broadcast after every move wants them all).
        public = self.spectator_json(state)
        return {
            s: public if s is None else dict(public, seat=s, side=state.side_of[s], hand=list(state.hands[s]))
            for s in seats
        }

    def stage(self, state: MilleState) -> int:
        return state.hand_no

    def full_json(self, state: MilleState) -> dict[str, Any]:
        return dict(self.spectator_json(state), hands=[list(h) for h in state.hands])

    def result_json(self, state: MilleState) -> dict[str, Any]:
        outcome = self.game.outcome(state)
        return {
            "totals": list(outcome.totals),
            "winners": list(outcome.winners),
            "sheets": [s.to_json() for s in state.sheets],
        }

    def info(self, view: MilleView, action: MilleAction) -> dict[str, Any]:
        return mille_info(view, action)

    def settings_json(self, settings: Settings) -> dict[str, Any]:
        return {"edition": settings["edition"]}


class KnightRiderJson(GameJson[KRState, KRAction, KRView]):
    game = KNIGHTRIDER

    def spectator_json(self, state: KRState) -> dict[str, Any]:
        data = self.view_json(self.game.view_for(state, 0))
        data.update(me=None, hand_kitt=[0 for _ in data["hand_kitt"]], hand_detour=[0 for _ in data["hand_detour"]])
        return data

    def stage(self, state: KRState) -> int:
        return state.turn

    def full_json(self, state: KRState) -> dict[str, Any]:
        views = [self.game.view_for(state, s) for s in range(state.players)]
        hands = [{"kitt": list(v.hand_kitt), "detour": list(v.hand_detour)} for v in views]
        return dict(self.spectator_json(state), hands=hands)

    def result_json(self, state: KRState) -> dict[str, Any]:
        return {"winner": state.winner, "winners": list(self.game.outcome(state).winners), "turns": state.turn}

    def info(self, view: KRView, action: KRAction) -> dict[str, Any]:
        return kr_info(view, action)

    def settings_json(self, settings: Settings) -> dict[str, Any]:
        return {"options": dict(settings["options"])}


#: the game a table request without ``"game"`` plays (docs/protocol.md)
DEFAULT_GAME = MILLE.key

#: each game's JSON, by the game's key
JSON: dict[str, GameJson[Any, Any, Any]] = {j.game.key: j for j in (MilleJson(), KnightRiderJson())}


def lobby_info() -> dict[str, Any]:
    """What a lobby offers: the editions with their player counts, teams, card names and
    score words; Knight Rider's player counts and variants; the bot levels (``levels``: every game's;
    ``game_levels``: each game's on this install, Mille Bornes' with ``learned`` where NumPy
    is installed); the languages."""
    from rallye.agents.base import GAME_LEVELS, LEVELS, levels_for

    out = []
    words = (*SCORE_LINES, "hand_total", "total", "hand", "side", "score_sheet")
    for ed in editions():
        cards = sorted(set(ed.deck_for(ed.players[0])))
        langs = {lang: lang if lang in ed.languages() else ed.language for lang in LANGUAGES}
        out.append(
            {
                "key": ed.key,
                "title": ed.title,
                "language": ed.language,
                # the languages the box itself names its cards in ("names" has all four: a
                # language the box lacks holds the box's own names)
                "languages": list(ed.languages()),
                "players": list(ed.players),
                "teams": {str(n): [list(s) for s in ed.sides_for(n)] for n in ed.players},
                "names": {lang: {c: ed.card_name(c, src) for c in cards} for lang, src in langs.items()},
                "score_words": {lang: {w: ed.word(w, src) for w in words} for lang, src in langs.items()},
                "target": ed.target_alone,
                "match_target": ed.match_target,
            }
        )
    return {
        "editions": out,
        "knightrider": {
            "players": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            "options": list(TABLE_OPTIONS),
            # the chase turns before the villain escapes: the rules' default and the range a
            # table may set (null: no limit)
            "turn_limit": {
                "default": DEFAULT_TURN_LIMIT,
                "min": TABLE_RANGES["turn_limit"][0],
                "max": TABLE_RANGES["turn_limit"][1],
            },
            "language": "de",
        },
        "levels": list(LEVELS),
        "game_levels": {game: list(levels_for(game)) for game in GAME_LEVELS},
        "languages": list(LANGUAGES),
    }


__all__ = ["DEFAULT_GAME", "JSON", "GameJson", "KnightRiderJson", "Match", "MilleJson", "lobby_info"]
