"""The Knight Rider game state: immutable values only.

A :class:`State` holds everything, including the secrets (the escape deck order, the
players' hands, the :class:`~rallye.core.rng.Rng`); only
:func:`~rallye.knightrider.view.view_for` lets them out, filtered.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from rallye.core.errors import ConfigError
from rallye.core.jsonio import shown
from rallye.core.rng import Rng
from rallye.knightrider.pieces import Pieces, load_pieces

#: The version of the rules the engine plays (``docs/rules/knight-rider.md``, *rules
#: versions*, says what each version changed); a state and a record carry the version
#: they were played under.
RULES = 3

#: The first rules version whose set-up is the one of issue #62: the quick build continues
#: roads as a person would, the villain stands on the largest road-connected piece of the
#: town and a rolled start is a tile reachable by road from it. Older versions keep the
#: set-up they were played with, so their records replay unchanged.
SETUP_BY_ROAD = 3


#: A game's phase: ``build`` (the players lay the town's tiles), ``start`` (the start player
#: picks the start tile among those equally far from the villain), ``enter`` (each player
#: picks the start tile's opening their car waits at), ``turn`` (the chase: a player's
#: turn), ``over`` (someone won, or the turn limit ended the game).
Phase = Literal["build", "start", "enter", "turn", "over"]
BUILD_PHASE: Final = "build"
START_PHASE: Final = "start"
ENTER_PHASE: Final = "enter"
TURN_PHASE: Final = "turn"
OVER_PHASE: Final = "over"
#: Every phase, in the order a game meets them.
PHASES: Final[tuple[Phase, ...]] = (BUILD_PHASE, START_PHASE, ENTER_PHASE, TURN_PHASE, OVER_PHASE)


#: Chase turns after which a game without a capture ends with no winner, the villain
#: escaped (``Options.turn_limit``; Resolution *turn limit* in docs/rules/knight-rider.md):
#: 250 rounds of two players, 100 of five, where a chase that ends lasts a median 11-13.
DEFAULT_TURN_LIMIT: Final = 500


def check_rules(rules: object) -> int:
    """``rules`` if it is a rules version this engine can play (1 to :data:`RULES`)."""
    if not isinstance(rules, int) or isinstance(rules, bool) or not 1 <= rules <= RULES:
        raise ConfigError(f"Knight Rider rules versions are 1 to {RULES}, got {rules!r}", rule="record-rules")
    return rules


@dataclass(frozen=True, slots=True)
class Options:
    """Variants and set-up choices (all off = the rulebook's basic game).

    * ``quick_build`` – the engine lays every tile itself, as a person would (each tile
      continues as many roads as it can; chance from the seed breaks ties), so the game
      starts with the chase.
    * ``rolled_start`` – variant: the start tile is rolled too (two dice, like the villain's).
    * ``tour`` – variant: this many extra target tiles are rolled; a player must have
      ended a move on each of them before catching the villain counts.
    * ``deal_spares`` – variant: with fewer than 5 players the spare cards are dealt out.
    * ``shuffle_cards`` – variant: K.I.T.T. and detour cards are shuffled and dealt round
      (each kind apart) instead of one of each per player.
    * ``turn_limit`` – the project's ruling where the rulebook is silent (Resolution
      *turn limit*): after this many chase turns without a capture the villain escapes
      and the game ends with no winner; default :data:`DEFAULT_TURN_LIMIT`, ``None`` =
      play until someone wins (detours can shut every car out of the villain's part of
      the town, and then a game never ends).
    * ``tiles_path`` / ``escape_path`` – your own piece files (see ``pieces``).
    """

    quick_build: bool = False
    rolled_start: bool = False
    tour: int = 0
    deal_spares: bool = False
    shuffle_cards: bool = False
    turn_limit: int | None = DEFAULT_TURN_LIMIT
    tiles_path: str | None = None
    escape_path: str | None = None

    def __post_init__(self) -> None:
        for name in ("quick_build", "rolled_start", "deal_spares", "shuffle_cards"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(
                    f"option {name!r} must be true or false, got {shown(getattr(self, name))}", rule="options"
                )
        for name in ("tiles_path", "escape_path"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"option {name!r} must be a file name or null, got {shown(value)}", rule="options")
        if not isinstance(self.tour, int) or isinstance(self.tour, bool) or not 0 <= self.tour <= 5:
            raise ConfigError(f"option 'tour' must be 0..5, got {shown(self.tour)}", rule="options")
        if self.turn_limit is not None and (
            not isinstance(self.turn_limit, int) or isinstance(self.turn_limit, bool) or self.turn_limit < 1
        ):
            raise ConfigError(
                f"option 'turn_limit' must be a positive integer, got {shown(self.turn_limit)}", rule="options"
            )

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        if not isinstance(data, dict):
            raise ConfigError("the options must be a JSON object", rule="options")
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ConfigError(f"unknown option(s): {', '.join(sorted(unknown))}", rule="options")
        try:
            return cls(**data)
        except TypeError as exc:
            raise ConfigError(f"bad options: {exc}", rule="options") from None

    def pieces(self) -> Pieces:
        return load_pieces(self.tiles_path, self.escape_path)


@dataclass(frozen=True, slots=True)
class Event:
    """Something the engine did by chance or by rule, for a UI to show.

    ``kind`` is one of: ``centre``, ``start_player``, ``draw``, ``return`` (a tile fits
    nowhere), ``build_end``, ``villain_roll`` / ``target_roll`` / ``start_roll`` (two dice,
    value = the tile number rolled), ``villain``, ``target``, ``start_tile``, ``enter``,
    ``turn``, ``roll``, ``turbo``, ``mantle``, ``mantle_end``, ``detour``, ``ram`` (value =
    the ram-table roll), ``ram_fail`` (the second roll), ``oil`` (the oil-table roll),
    ``skid`` (value = fields skidded), ``roof``, ``spin``, ``recover``, ``reached``,
    ``escape`` (value = card id), ``villain_move``, ``villain_stays``, ``reshuffle``,
    ``win``, ``limit``. ``text`` is an English sentence for logs and UIs.
    """

    kind: str
    player: int | None
    value: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Car:
    """A player's car. ``cell`` is -1 while it waits beside the start tile at ``side``."""

    player: int
    cell: int
    heading: int
    side: int = -1
    roof: bool = False
    mantle: bool = False
    reached: tuple[int, ...] = ()  # target squares (codes) reached, tour variant


@dataclass(frozen=True)
class State:
    players: int
    seed: int
    options: Options
    rng: Rng
    phase: Phase
    current: int
    start_player: int
    # ---- track
    board: tuple[int, ...]  # per square code: 0 empty, else number * 4 + quarter turns + 1
    laid: tuple[tuple[int, int, int, int], ...]  # (number, x, y, rot) in laying order
    pile: tuple[int, ...]  # face-down tiles still to draw (sorted; hidden which is next)
    centre: tuple[int, ...]  # the face-down centre tiles (empty once taken up)
    drawn: int  # the face-up tile the current player must lay (0 none)
    first_laid: tuple[bool, ...]
    unused: tuple[int, ...]  # tiles that fit nowhere when building ended
    links: bytes  # per cell: bit mask of road connections (0 = not a field)
    # ---- chase
    villain: int  # cell, -1 before placement
    targets: tuple[int, ...]  # tour variant: target square codes
    start_sq: int  # square code of the start tile, -1 before
    start_choices: tuple[int, ...]
    cars: tuple[Car, ...]
    detours: tuple[tuple[int, str, int, int], ...]  # (square code, kind, rot, player), in play order
    kitt_hands: tuple[tuple[int, ...], ...]  # counts per KITT_KINDS
    detour_hands: tuple[tuple[int, ...], ...]  # counts per DETOUR_KINDS
    set_aside: tuple[int, int]  # spare (K.I.T.T., detour) cards put aside
    played: tuple[tuple[int, str], ...]  # K.I.T.T. cards played, (player, kind), in order
    escape_deck: tuple[int, ...]  # card indices in pile order (secret beyond escape_pos)
    escape_pos: int  # cards turned since the last shuffle
    turn: int  # chase turns begun
    roll: int
    pips: int
    used: int
    moved: bool
    move_done: bool
    kitt_played: bool
    detour_played: bool
    winner: int | None
    events: tuple[Event, ...]  # what the last action caused
    rules: int = RULES  # the rules version the game is played under (the set-up depends on it)
    _memo: dict[str, Any] | None = field(default=None, init=False, compare=False, hash=False, repr=False)

    @property
    def pieces(self) -> Pieces:
        return self.options.pieces()


_STATE_FIELD_SET = frozenset(f.name for f in fields(State) if f.name != "_memo")


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for :class:`State`, many times faster (the hot path).

    ``State`` is a frozen dataclass without slots, so a copy is one dict update.
    """
    if not _STATE_FIELD_SET.issuperset(changes):
        raise TypeError(f"State has no field(s) {sorted(set(changes) - _STATE_FIELD_SET)}")
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    d["_memo"] = None
    return new


#: The fields no value the engine memoizes on a state depends on (legal actions, the move
#: table, the roadblocks): the chance that is still to come.
CHANCE_FIELDS = frozenset({"rng", "escape_deck"})


def evolve_chance(state: State, **changes: Any) -> State:
    """``evolve`` of the chance fields only (:data:`CHANCE_FIELDS`: the Rng, the escape
    deck's order), keeping the state's memo: the copy shares the legal actions and the move
    table already computed, as they cannot differ. For adapters that script the chance
    outcomes of a state (OpenSpiel's chance nodes) without paying for the move search again."""
    if not CHANCE_FIELDS.issuperset(changes):
        other = sorted(set(changes) - CHANCE_FIELDS)
        raise TypeError(f"evolve_chance changes only {sorted(CHANCE_FIELDS)}, not {other}")
    memo = state._memo
    if memo is None:  # (shared from now on: either state fills it for both)
        memo = {}
        object.__setattr__(state, "_memo", memo)
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new
