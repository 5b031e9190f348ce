"""What the server needs to know about each game: one small adapter per game.

A :class:`Game` builds a new match from a table's settings, keeps its record (the same
JSON lines ``rallye replay`` verifies), rebuilds a match from a stored record, and turns a
state into what one seat may see: its view as JSON, the legal actions with their codes, a
spectator's view. Nothing here knows a transport or a database; :mod:`rallye.server.table`
is the authority that calls it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rallye import knightrider as kr
from rallye.core.errors import ConfigError
from rallye.core.record import Line
from rallye.knightrider import engine as kr_engine
from rallye.knightrider import record as krec
from rallye.mille import record as mrec
from rallye.mille.actions import encode_action as mille_code
from rallye.mille.actions import parse_action as mille_parse
from rallye.mille.edition import LANGUAGES, SCORE_LINES, editions, get_edition
from rallye.mille.engine import current_player as mille_current
from rallye.mille.engine import is_over as mille_over
from rallye.mille.engine import legal_actions as mille_legal
from rallye.mille.engine import new_match
from rallye.mille.state import MilleState
from rallye.mille.view import view_for as mille_view
from rallye.server.annotate import action_info

#: The Knight Rider options a table may set (never a file path: a client names no file).
KR_OPTIONS = ("quick_build", "rolled_start", "tour", "deal_spares", "shuffle_cards", "turn_limit")
#: the whole-number options' ranges (``tour``: the rules' 0 to 5 target tiles; ``turn_limit``:
#: chase turns before a draw, or null for none)
KR_RANGES = {"tour": (0, 5), "turn_limit": (1, 10_000)}


@dataclass
class Match:
    """A match in play: its record lines and current state (the game's own types)."""

    game: str
    state: Any
    lines: list[Line]
    actions: int  # accepted actions so far (the move number)


class Game:
    """The game-specific half of a table."""

    key = ""

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover - abstract
        """Check a client's table settings; the normalised settings or a ConfigError."""
        raise NotImplementedError

    def players(self, settings: dict[str, Any]) -> int:
        return int(settings["players"])

    def sides(self, settings: dict[str, Any]) -> list[list[int]]:  # pragma: no cover - abstract
        raise NotImplementedError

    def new(self, settings: dict[str, Any], seed: int) -> Match:  # pragma: no cover - abstract
        raise NotImplementedError

    def restore(self, lines: Sequence[Line], source: str) -> Match:  # pragma: no cover - abstract
        raise NotImplementedError

    def current(self, state: Any) -> int | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def over(self, state: Any) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def legal(self, state: Any) -> Sequence[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def code(self, action: Any) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse(self, text: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def step(self, match: Match, seat: int, action: Any) -> None:  # pragma: no cover - abstract
        """Apply ``action`` by ``seat`` (checked by the engine) and extend the record."""
        raise NotImplementedError

    def view(self, state: Any, seat: int) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def view_json(self, view: Any) -> dict[str, Any]:
        data: dict[str, Any] = view.to_json()
        return data

    def spectator_json(self, state: Any) -> dict[str, Any]:  # pragma: no cover - abstract
        """What the rules make public: a view with no seat's hidden cards."""
        raise NotImplementedError

    def views_json(self, state: Any, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """Each seat's view as JSON (``None``: the spectator's), as :meth:`view_json` and
        :meth:`spectator_json` give them one by one."""
        return {s: self.spectator_json(state) if s is None else self.view_json(self.view(state, s)) for s in seats}

    def result(self, state: Any) -> dict[str, Any]:  # pragma: no cover - abstract
        """The outcome of a finished match (totals, winners, score sheets) as JSON."""
        raise NotImplementedError

    def legal_json(self, view: Any, legal: Sequence[Any]) -> list[dict[str, Any]]:
        return [{"code": self.code(a), "action": str(a), "info": action_info(self.key, view, a)} for a in legal]


class MilleGame(Game):
    key = "mille"

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        edition = raw.get("edition", "wm2006")
        players = raw.get("players", 2)
        if not isinstance(edition, str) or len(edition) > 40:
            raise ConfigError("'edition' must be an edition key", rule="table-settings")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("'players' must be a whole number", rule="table-settings")
        wanted = edition.strip().lower()
        found = [e for e in editions() if wanted == e.key or wanted in (a.lower() for a in e.aliases)]
        if not found:  # never get_edition(): it would read a client-named file
            known = ", ".join(e.key for e in editions())
            raise ConfigError(f"unknown edition {edition!r}; a table plays one of {known}", rule="table-settings")
        ed = found[0]
        ed.sides_for(players)
        return {"edition": ed.key, "players": players}

    def sides(self, settings: dict[str, Any]) -> list[list[int]]:
        return [list(s) for s in get_edition(settings["edition"]).sides_for(settings["players"])]

    def new(self, settings: dict[str, Any], seed: int) -> Match:
        rec = mrec.Recorder.start(new_match(settings["edition"], settings["players"], seed))
        return Match(self.key, rec.state, rec.lines, 0)

    def restore(self, lines: Sequence[Line], source: str) -> Match:
        replay = mrec.replay_lines(list(enumerate(lines, start=1)), source)
        return Match(self.key, replay.final, list(lines), len(replay.actions))

    def current(self, state: MilleState) -> int | None:
        return mille_current(state)

    def over(self, state: MilleState) -> bool:
        return mille_over(state)

    def legal(self, state: MilleState) -> Sequence[Any]:
        return mille_legal(state)

    def code(self, action: Any) -> int:
        return mille_code(action)

    def parse(self, text: str) -> Any:
        return mille_parse(text)

    def step(self, match: Match, seat: int, action: Any) -> None:
        rec = mrec.Recorder(match.state, match.lines)
        match.state = rec.step(seat, action)
        match.actions += 1

    def view(self, state: MilleState, seat: int) -> Any:
        return mille_view(state, seat)

    def spectator_json(self, state: MilleState) -> dict[str, Any]:
        data = mille_view(state, 0).to_json()
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

    def result(self, state: MilleState) -> dict[str, Any]:
        return {
            "totals": list(state.totals),
            "winners": list(state.winners),
            "sheets": [s.to_json() for s in state.sheets],
        }


class KnightRiderGame(Game):
    key = "knightrider"

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        players = raw.get("players", 2)
        options = raw.get("options") or {}
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("'players' must be a whole number", rule="table-settings")
        if not isinstance(options, dict):
            raise ConfigError("'options' must be an object", rule="table-settings")
        unknown = sorted(set(options) - set(KR_OPTIONS))
        if unknown:
            raise ConfigError(
                f"unknown Knight Rider option(s) {', '.join(map(repr, unknown))}; a table may set"
                f" {', '.join(KR_OPTIONS)}",
                rule="table-settings",
            )
        for name in ("quick_build", "rolled_start", "deal_spares", "shuffle_cards"):
            if name in options and not isinstance(options[name], bool):
                raise ConfigError(f"option '{name}' must be true or false", rule="table-settings")
        for name, (lo, hi) in KR_RANGES.items():
            v = options.get(name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi):
                raise ConfigError(
                    f"option '{name}' is a whole number from {lo} to {hi}, not {str(v)[:20]}", rule="table-settings"
                )
        opts = kr.Options.from_json(dict(options))
        kr.new_game(players, 0, opts)  # the engine's own checks (player count, tour range)
        return {"players": players, "options": {k: v for k, v in opts.to_json().items() if k in KR_OPTIONS}}

    def sides(self, settings: dict[str, Any]) -> list[list[int]]:
        return [[s] for s in range(settings["players"])]

    def _options(self, settings: dict[str, Any]) -> kr.Options:
        return kr.Options.from_json(dict(settings["options"]))

    def new(self, settings: dict[str, Any], seed: int) -> Match:
        rec = krec.Recorder(settings["players"], seed, self._options(settings))
        return Match(self.key, rec.state, rec.lines(), 0)

    def restore(self, lines: Sequence[Line], source: str) -> Match:
        state = krec.replay(list(enumerate(lines, start=1)), source=source)
        actions = sum(1 for line in lines if line.get("type") == "action")
        return Match(self.key, state, list(lines), actions)

    def current(self, state: kr.State) -> int | None:
        return kr.current_player(state)

    def over(self, state: kr.State) -> bool:
        return kr.is_over(state)

    def legal(self, state: kr.State) -> Sequence[Any]:
        return kr.legal_actions(state)

    def code(self, action: Any) -> int:
        return kr.encode_action(action)

    def parse(self, text: str) -> Any:
        return kr.parse_action(text)

    def step(self, match: Match, seat: int, action: Any) -> None:
        before = match.state
        after = kr.apply(before, action, player=seat)
        match.actions += 1
        match.lines.append(krec.action_line(match.actions, before, action, after))
        if kr.is_over(after):
            match.lines.append(krec.result_line(after))
        match.state = after

    def view(self, state: kr.State, seat: int) -> Any:
        return kr.view_for(state, seat)

    def spectator_json(self, state: kr.State) -> dict[str, Any]:
        data: dict[str, Any] = kr.view_for(state, 0).to_json()
        data.update(me=None, hand_kitt=[0 for _ in data["hand_kitt"]], hand_detour=[0 for _ in data["hand_detour"]])
        return data

    def result(self, state: kr.State) -> dict[str, Any]:
        return {"winner": state.winner, "winners": [] if state.winner is None else [state.winner], "turns": state.turn}


GAMES: dict[str, Game] = {g.key: g for g in (MilleGame(), KnightRiderGame())}


def game_for(key: object) -> Game:
    if not isinstance(key, str) or key not in GAMES:
        raise ConfigError(f"'game' must be one of {', '.join(GAMES)}", rule="table-settings")
    return GAMES[key]


def lobby_info() -> dict[str, Any]:
    """What a lobby offers: the editions with their player counts, teams, card names and
    score words; Knight Rider's player counts and variants; the bot levels; the languages."""
    from rallye.agents.base import LEVELS

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
            "players": list(range(kr_engine.MIN_PLAYERS, kr_engine.MAX_PLAYERS + 1)),
            "options": list(KR_OPTIONS),
            "language": "de",
        },
        "levels": list(LEVELS),
        "languages": list(LANGUAGES),
    }
