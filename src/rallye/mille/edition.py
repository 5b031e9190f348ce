"""Editions are data: one JSON file per edition, loaded into a frozen :class:`Edition`.

Every row of the table "Where the editions differ" (``docs/rules/mille-bornes.md``) is a field here, so a
house-rule table is just another data file (``load_edition(path)``). A malformed file is a
:class:`~rallye.core.errors.ConfigError` naming the file and the field. So is one that makes
no playable game: a file is read within the limits of :mod:`rallye.core.jsonio` (at most
1 MB); targets are from 1 to :data:`MAX_TARGET` km; a card appears at most
:data:`MAX_COPIES` times and the deck holds at most :data:`MAX_DECK` cards; points are at
most :data:`MAX_POINTS` and a match target from 1 to :data:`MAX_MATCH_TARGET`. A game played
with a house-rule edition carries it whole in its record (:mod:`rallye.mille.record`).

>>> get_edition("hungarian").key
'hu'
>>> get_edition("wm2006").target_for(side_size=2)
1000
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from rallye.core.errors import ConfigError
from rallye.core.jsonio import read_json
from rallye.mille.cards import CARDS, DISTANCES, SAFETIES

#: Score-sheet lines, in the order a score sheet prints them.
SCORE_LINES: tuple[str, ...] = (
    "distance",
    "safeties",
    "all_four",
    "coup_fourre",
    "trip",
    "safe_trip",
    "delayed_action",
    "shutout",
    "extension",
    "hand_penalty",
)
LANGUAGES: tuple[str, ...] = ("de", "hu", "en", "fr")
_SHUTOUT_TO = ("completer", "placed", "none")
#: The bounds of a playable edition file (the published decks have at most 14 of a card
#: and 106 cards, targets of 1,000 km, matches to 5,000 points); a house rule may go well
#: beyond, not without bound.
MAX_COPIES = 50
MAX_DECK = 300
MAX_TARGET = 10_000
MAX_POINTS = 100_000
MAX_MATCH_TARGET = 1_000_000
_FAILED_TO = ("nobody", "opponents")


@dataclass(frozen=True, slots=True)
class Scoring:
    safety: int
    all_four_bonus: int  # added on top of 4 x safety ("700 in place of 400" = +300)
    coup_fourre_bonus: int  # on top of the safety's own points
    trip: int
    safe_trip: int
    delayed_action: int
    shutout: int
    shutout_to: str  # "completer" | "placed" | "none"
    extension: int
    # hu's score sheet: a coup fourré's safety + bonus on the coup-fourré line, in place of
    # the safety's own points on the safety line (which counts the safeties laid normally);
    # the totals are the same either way. File key ``coup_fourre_in_place_of_safety``,
    # optional (default false: the safety line counts every safety).
    coup_fourre_in_place: bool = False


@dataclass(frozen=True, slots=True)
class Extension:
    allowed: bool
    alone_only: bool
    from_km: int
    to_km: int
    ends_on_empty_draw: bool
    failed_bonus_to: str  # "nobody" | "opponents"


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition's rules (all fields of the edition table) and its words."""

    key: str
    title: str
    aliases: tuple[str, ...]
    seed: str
    language: str
    deck: tuple[tuple[str, int], ...]  # (card id, count) in CARDS order
    players: tuple[int, ...]
    teams: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # players -> sides of seats
    target_alone: int
    target_team: int
    small_game_players: tuple[int, ...]
    small_game_removed: tuple[str, ...]
    extra_turn_after_safety: bool
    extra_turn_after_safety_in_coup_fourre_turn: bool
    scoring: Scoring
    extension: Extension
    empty_draw_ends_hand: bool
    closest_gets_trip_when_no_completion: bool
    subtract_distance_in_hand: bool
    match_target: int | None
    names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    score_words: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    notes: str = ""

    # -- derived look-ups -------------------------------------------------------------
    def sides_for(self, players: int) -> tuple[tuple[int, ...], ...]:
        for n, sides in self.teams:
            if n == players:
                return sides
        allowed = ", ".join(map(str, self.players))
        raise ConfigError(f"{self.key} is played by {allowed} players, not {players}", rule="players")

    def target_for(self, side_size: int) -> int:
        return self.target_alone if side_size == 1 else self.target_team

    def deck_for(self, players: int) -> tuple[str, ...]:
        """The cards in play for this player count, in canonical (CARDS) order (cached:
        bots ask for it on every decision)."""
        key = (id(self), players)
        hit = _DECK_CACHE.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        deck = self._build_deck(players)
        _DECK_CACHE[key] = (self, deck)
        return deck

    def _build_deck(self, players: int) -> tuple[str, ...]:
        removed = list(self.small_game_removed) if players in self.small_game_players else []
        out: list[str] = []
        for card, count in self.deck:
            for _ in range(count):
                if card in removed:
                    removed.remove(card)
                else:
                    out.append(card)
        return tuple(out)

    def card_name(self, card: str, lang: str | None = None) -> str:
        table = dict(dict(self.names).get(lang or self.language, ()))
        return table.get(card, card)

    def word(self, line: str, lang: str | None = None) -> str:
        table = dict(dict(self.score_words).get(lang or self.language, ()))
        return table.get(line, line)

    def languages(self) -> tuple[str, ...]:
        return tuple(lang for lang, _ in self.names)

    def to_json(self) -> dict[str, Any]:
        """The edition as an edition file's JSON: ``parse_edition(ed.to_json()) == ed``, so a
        record can carry a house-rule edition whole (see :mod:`rallye.mille.record`)."""
        sc, ex = self.scoring, self.extension
        return {
            "key": self.key,
            "title": self.title,
            "aliases": list(self.aliases),
            "seed": self.seed,
            "language": self.language,
            "deck": dict(self.deck),
            "players": list(self.players),
            "teams": {str(n): [list(side) for side in sides] for n, sides in self.teams},
            "target_alone": self.target_alone,
            "target_team": self.target_team,
            "small_game": {"players": list(self.small_game_players), "removed": list(self.small_game_removed)},
            "extra_turn_after_safety": self.extra_turn_after_safety,
            "extra_turn_after_safety_in_coup_fourre_turn": self.extra_turn_after_safety_in_coup_fourre_turn,
            "scoring": {
                "safety": sc.safety,
                "all_four_bonus": sc.all_four_bonus,
                "coup_fourre_bonus": sc.coup_fourre_bonus,
                "trip": sc.trip,
                "safe_trip": sc.safe_trip,
                "delayed_action": sc.delayed_action,
                "shutout": sc.shutout,
                "shutout_to": sc.shutout_to,
                "extension": sc.extension,
                "coup_fourre_in_place_of_safety": sc.coup_fourre_in_place,
            },
            "extension": {
                "allowed": ex.allowed,
                "alone_only": ex.alone_only,
                "from": ex.from_km,
                "to": ex.to_km,
                "ends_on_empty_draw": ex.ends_on_empty_draw,
                "failed_bonus_to": ex.failed_bonus_to,
            },
            "empty_draw_ends_hand": self.empty_draw_ends_hand,
            "closest_gets_trip_when_no_completion": self.closest_gets_trip_when_no_completion,
            "subtract_distance_in_hand": self.subtract_distance_in_hand,
            "match_target": self.match_target,
            "names": {lang: dict(table) for lang, table in self.names},
            "score_words": {lang: dict(table) for lang, table in self.score_words},
            "notes": self.notes,
        }

    @property
    def is_builtin(self) -> bool:
        """This edition is exactly the built-in one of its key (not a house file reusing
        the key with other values)."""
        return self.key in EDITION_KEYS and _builtin()[self.key] == self


#: (id of an edition, players) -> (that edition, its deck); the entry keeps the edition
#: alive, so the id cannot be reused while cached.
_DECK_CACHE: dict[tuple[int, int], tuple[Edition, tuple[str, ...]]] = {}


# -- loading ---------------------------------------------------------------------------
class _Reader:
    def __init__(self, source: str, data: Any) -> None:
        self.source = source
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: the edition must be a JSON object", rule="edition-file")
        self.data: dict[str, Any] = data

    def fail(self, field: str, what: str) -> ConfigError:
        return ConfigError(f"{self.source}: field '{field}' {what}", rule="edition-file")

    def get(self, obj: dict[str, Any], field: str, path: str) -> Any:
        if field not in obj:
            raise self.fail(path, "is missing")
        return obj[field]

    def typed(self, obj: dict[str, Any], field: str, kind: type | tuple[type, ...], path: str) -> Any:
        value = self.get(obj, field, path)
        bad_bool = isinstance(value, bool) and kind in (int, (int, type(None)))
        if bad_bool or not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(path, f"must be {names}, got {json.dumps(value)[:40]}")
        return value

    def nonneg(self, obj: dict[str, Any], field: str, path: str, most: int = MAX_POINTS) -> int:
        value: int = self.typed(obj, field, int, path)
        if value < 0:
            raise self.fail(path, f"must not be negative, got {value}")
        if value > most:
            raise self.fail(path, f"must be at most {most:,}, got {value:,}")
        return value

    def positive(self, obj: dict[str, Any], field: str, path: str, most: int) -> int:
        value = self.nonneg(obj, field, path, most)
        if value == 0:
            raise self.fail(path, "must be greater than 0")
        return value


def _names_table(r: _Reader, field: str, keys: tuple[str, ...]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    raw = r.typed(r.data, field, dict, field)
    out = []
    for lang, table in raw.items():
        if not isinstance(table, dict):
            raise r.fail(f"{field}.{lang}", "must be an object of names")
        for k in keys:
            if not isinstance(table.get(k), str) or not table[k]:
                raise r.fail(f"{field}.{lang}.{k}", "is missing or empty")
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise r.fail(f"{field}.{lang}", f"has unknown keys {', '.join(map(str, unknown))}")
        out.append((lang, tuple((k, table[k]) for k in keys)))
    return tuple(out)


def parse_edition(data: Any, source: str = "<edition>") -> Edition:
    """Build an :class:`Edition` from parsed JSON, checking every field."""
    r = _Reader(source, data)
    d = r.data
    key = r.typed(d, "key", str, "key")
    aliases = r.typed(d, "aliases", list, "aliases")
    if not all(isinstance(a, str) for a in aliases):
        raise r.fail("aliases", "must be a list of strings")
    language = r.typed(d, "language", str, "language")
    deck_raw = r.typed(d, "deck", dict, "deck")
    unknown = sorted(set(deck_raw) - set(CARDS))
    if unknown:
        raise r.fail("deck", f"names unknown cards {', '.join(map(str, unknown))}")
    deck = tuple((c, r.nonneg(deck_raw, c, f"deck.{c}", MAX_COPIES)) for c in CARDS)
    if sum(k for _, k in deck) > MAX_DECK:
        raise r.fail("deck", f"must hold at most {MAX_DECK} cards, got {sum(k for _, k in deck)}")
    for s in SAFETIES:
        if dict(deck)[s] != 1:
            raise r.fail(f"deck.{s}", "must be 1: each safety exists once")
    players_raw = r.typed(d, "players", list, "players")
    if not players_raw or not all(isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 6 for p in players_raw):
        raise r.fail("players", "must be a non-empty list of player counts from 2 to 6")
    players = tuple(sorted(players_raw))
    teams_raw = r.typed(d, "teams", dict, "teams")
    teams = []
    for n in players:
        sides_raw = r.get(teams_raw, str(n), f"teams.{n}")
        path = f"teams.{n}"
        if not isinstance(sides_raw, list) or not all(
            isinstance(s, list) and s and all(isinstance(x, int) and not isinstance(x, bool) for x in s)
            for s in sides_raw
        ):
            raise r.fail(path, "must be a list of non-empty seat lists (of seat numbers)")
        seats = sorted(x for s in sides_raw for x in s)
        if seats != list(range(n)):
            raise r.fail(path, f"must place each seat 0..{n - 1} on exactly one side")
        if len(sides_raw) < 2:
            raise r.fail(path, "needs at least two sides")
        sides = tuple(tuple(s) for s in sides_raw)
        for seat in range(n):
            if seat % len(sides) != next(i for i, s in enumerate(sides) if seat in s):
                raise r.fail(path, "must seat the sides alternately around the table")
        teams.append((n, sides))
    small = r.typed(d, "small_game", dict, "small_game")
    small_players = r.typed(small, "players", list, "small_game.players")
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in small_players):
        raise r.fail("small_game.players", "must be a list of player counts")
    small_removed = r.typed(small, "removed", list, "small_game.removed")
    for c in small_removed:
        if not isinstance(c, str) or c not in CARDS:
            raise r.fail("small_game.removed", f"names unknown card {c!r}")
    sc = r.typed(d, "scoring", dict, "scoring")
    shutout_to = r.typed(sc, "shutout_to", str, "scoring.shutout_to")
    if shutout_to not in _SHUTOUT_TO:
        raise r.fail("scoring.shutout_to", f"must be one of {list(_SHUTOUT_TO)}")
    scoring = Scoring(
        safety=r.nonneg(sc, "safety", "scoring.safety"),
        all_four_bonus=r.nonneg(sc, "all_four_bonus", "scoring.all_four_bonus"),
        coup_fourre_bonus=r.nonneg(sc, "coup_fourre_bonus", "scoring.coup_fourre_bonus"),
        trip=r.nonneg(sc, "trip", "scoring.trip"),
        safe_trip=r.nonneg(sc, "safe_trip", "scoring.safe_trip"),
        delayed_action=r.nonneg(sc, "delayed_action", "scoring.delayed_action"),
        shutout=r.nonneg(sc, "shutout", "scoring.shutout"),
        shutout_to=shutout_to,
        extension=r.nonneg(sc, "extension", "scoring.extension"),
        coup_fourre_in_place=(
            r.typed(sc, "coup_fourre_in_place_of_safety", bool, "scoring.coup_fourre_in_place_of_safety")
            if "coup_fourre_in_place_of_safety" in sc
            else False
        ),
    )
    ex = r.typed(d, "extension", dict, "extension")
    failed_to = r.typed(ex, "failed_bonus_to", str, "extension.failed_bonus_to")
    if failed_to not in _FAILED_TO:
        raise r.fail("extension.failed_bonus_to", f"must be one of {list(_FAILED_TO)}")
    extension = Extension(
        allowed=r.typed(ex, "allowed", bool, "extension.allowed"),
        alone_only=r.typed(ex, "alone_only", bool, "extension.alone_only"),
        from_km=r.nonneg(ex, "from", "extension.from", MAX_TARGET),
        to_km=r.nonneg(ex, "to", "extension.to", MAX_TARGET),
        ends_on_empty_draw=r.typed(ex, "ends_on_empty_draw", bool, "extension.ends_on_empty_draw"),
        failed_bonus_to=failed_to,
    )
    if extension.allowed and extension.to_km <= extension.from_km:
        raise r.fail("extension.to", "must be greater than extension.from")
    match_target = r.typed(d, "match_target", (int, type(None)), "match_target")
    if match_target is not None and not 0 < match_target <= MAX_MATCH_TARGET:
        raise r.fail("match_target", f"must be null or from 1 to {MAX_MATCH_TARGET:,}, got {match_target:,}")
    names = _names_table(r, "names", CARDS)
    if language not in dict(names):
        raise r.fail("names", f"has no names in the edition's own language {language!r}")
    words = _names_table(r, "score_words", (*SCORE_LINES, "hand_total", "total", "hand", "side", "score_sheet"))
    if language not in dict(words):
        raise r.fail("score_words", f"has no words in the edition's own language {language!r}")
    ed = Edition(
        key=key,
        title=r.typed(d, "title", str, "title"),
        aliases=tuple(aliases),
        seed=r.typed(d, "seed", str, "seed"),
        language=language,
        deck=deck,
        players=players,
        teams=tuple(teams),
        target_alone=r.positive(d, "target_alone", "target_alone", MAX_TARGET),
        target_team=r.positive(d, "target_team", "target_team", MAX_TARGET),
        small_game_players=tuple(small_players),
        small_game_removed=tuple(small_removed),
        extra_turn_after_safety=r.typed(d, "extra_turn_after_safety", bool, "extra_turn_after_safety"),
        extra_turn_after_safety_in_coup_fourre_turn=r.typed(
            d,
            "extra_turn_after_safety_in_coup_fourre_turn",
            bool,
            "extra_turn_after_safety_in_coup_fourre_turn",
        ),
        scoring=scoring,
        extension=extension,
        empty_draw_ends_hand=r.typed(d, "empty_draw_ends_hand", bool, "empty_draw_ends_hand"),
        closest_gets_trip_when_no_completion=r.typed(
            d, "closest_gets_trip_when_no_completion", bool, "closest_gets_trip_when_no_completion"
        ),
        subtract_distance_in_hand=r.typed(d, "subtract_distance_in_hand", bool, "subtract_distance_in_hand"),
        match_target=match_target,
        names=names,
        score_words=words,
        notes=d.get("notes", "") if isinstance(d.get("notes", ""), str) else "",
    )
    for n in players:
        dealt = 6 * n
        if len(ed.deck_for(n)) <= dealt:
            raise r.fail("deck", f"has too few cards to deal 6 to {n} players")
    if not any(c in DISTANCES for c, k in deck if k):
        raise r.fail("deck", "has no distance cards")
    return ed


def load_edition(path: str | Path) -> Edition:
    """Load an edition (or a house-rule table) from a JSON file."""
    p = Path(path)
    data = read_json(p, what="edition file")
    return parse_edition(data, source=str(p))


_BUILTIN: dict[str, Edition] = {}
EDITION_KEYS: tuple[str, ...] = ("wm2006", "hu", "fxschmid", "meilen")


def _builtin() -> dict[str, Edition]:
    if not _BUILTIN:
        folder = resources.files("rallye.mille") / "editions"
        for key in EDITION_KEYS:
            res = folder / f"{key}.json"
            data = json.loads(res.read_text(encoding="utf-8"))
            _BUILTIN[key] = parse_edition(data, source=f"rallye/mille/editions/{key}.json")
    return _BUILTIN


def editions() -> tuple[Edition, ...]:
    """The built-in editions, in a fixed order."""
    b = _builtin()
    return tuple(b[k] for k in EDITION_KEYS)


def builtin_edition(name: str) -> Edition:
    """A built-in edition by key or alias (case-insensitive); never reads a file, so it is
    the look-up for names that come from records and views."""
    wanted = name.strip().lower()
    for ed in editions():
        if wanted == ed.key or wanted in (a.lower() for a in ed.aliases):
            return ed
    known = ", ".join(f"{e.key} ({', '.join(e.aliases)})" for e in editions())
    raise ConfigError(f"unknown edition {name!r}; known: {known}", rule="edition")


def get_edition(name: str | Edition) -> Edition:
    """Find an edition by key or alias (case-insensitive), or load it from a ``.json`` path."""
    if isinstance(name, Edition):
        return name
    if name.strip().lower().endswith(".json"):
        try:
            return builtin_edition(name)
        except ConfigError:
            return load_edition(name)
    return builtin_edition(name)
