"""What an environment needs to know about a game: one small adapter per game.

The PettingZoo, Gymnasium and OpenSpiel adapters in this package are written against
:class:`GameAdapter` (states in, numbers out) and never against one game's engine, so a new
game is one more adapter class here (plus its encoding module) and a thin module naming it.

An adapter owns the *episode* (one hand or a whole match), the *reward* (documented on each
adapter) and the *encoding* (a view-only observation and a legal-action mask). States stay
the engine's immutable values; the environments hold the current one. ``decode`` and
``encode`` take the state the code is meant for: a game whose compact action codes depend on
the position (Knight Rider's moves) needs it; Mille Bornes ignores it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from rallye import knightrider as kr
from rallye import mille
from rallye.core.errors import ConfigError
from rallye.mille.actions import ALL_ACTIONS as _MILLE_ACTIONS
from rallye.mille.state import OVER_PHASE, MilleState
from rallye.rl.knightrider import compact as kcomp
from rallye.rl.knightrider import encoding as kenc
from rallye.rl.mille import encoding as menc

EPISODES = ("hand", "match")
_N_MILLE = len(_MILLE_ACTIONS)
REWARDS = ("score", "win")


class GameAdapter(Protocol):
    """The game-specific half of every environment."""

    game: str  # the key of rallye.agents.base.GAMES ("mille", "knightrider")
    n_players: int
    num_actions: int
    obs_size: int
    obs_low: float
    obs_high: float

    def new_state(self, seed: int) -> Any: ...

    def current_player(self, state: Any) -> int | None: ...

    def episode_over(self, first: Any, state: Any) -> bool: ...

    def legal_actions(self, state: Any) -> Sequence[Any]: ...

    def mask(self, state: Any) -> np.ndarray: ...

    def observe(self, state: Any, seat: int) -> np.ndarray: ...

    def view(self, state: Any, seat: int) -> Any: ...

    def decode(self, state: Any, code: int) -> Any: ...

    def encode(self, state: Any, action: Any) -> int: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def rewards(self, first: Any, before: Any, after: Any) -> list[float] | None: ...

    def transition(self, first: Any, before: Any, after: Any) -> tuple[list[float] | None, int]:
        """``(rewards(first, before, after), seat to act)`` of one step, the seat ``-1``
        when ``episode_over(first, after)``: what the environments need after each
        ``apply``, in one call."""
        ...

    def render(self, state: Any, seat: int | None) -> str: ...


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")


class MilleAdapter:
    """Mille Bornes for the environments.

    ``episode``: ``"hand"`` (default) ends the episode when the first hand is scored (or the
    match ends, for a one-hand edition such as ``meilen``); ``"match"`` plays until the
    match is over.

    ``reward`` (per seat; team mates get their side's value):

    * ``"score"`` (default): each time a hand is scored, the side's hand points minus the
      mean hand points of the other sides, divided by 1000 (for two sides: the score
      difference / 1000). Zero on every other step. Sums to zero over the sides.
    * ``"win"``: at the end of the episode only. Hand episode: +1 if the side scored the
      most points of the hand alone, 0 if it tied for the most, -1 otherwise. Match
      episode: +1 for the match winner, -1 for the others (the engine plays on after an
      exact tie, so there is always one winner).

    When a hand ends the engine deals the next one at once, so the last observation of a
    ``"hand"`` episode of a match edition already shows the next hand's deal.
    """

    game = "mille"

    def __init__(self, edition: str = "wm2006", players: int = 2, episode: str = "hand", reward: str = "score"):
        _check_choice("episode", episode, EPISODES)
        _check_choice("reward", reward, REWARDS)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, not {players!r}")
        self.edition = mille.get_edition(edition)
        self.edition.sides_for(players)  # a ConfigError naming the allowed counts
        self.n_players = players
        self.episode = episode
        self.reward = reward
        self.num_actions = mille.NUM_ACTIONS
        self.obs_size = menc.OBS_SIZE
        self.obs_low, self.obs_high = menc.OBS_LOW, menc.OBS_HIGH
        # One incremental encoder per observer seat (each rewrites only what changed).
        self._encoders = [menc.ViewEncoder() for _ in range(players)]

    def __repr__(self) -> str:
        return f"MilleAdapter({self.edition.key!r}, {self.n_players}, episode={self.episode!r}, reward={self.reward!r})"

    def new_state(self, seed: int) -> MilleState:
        return mille.new_match(self.edition, self.n_players, seed)

    def current_player(self, state: MilleState) -> int | None:
        return mille.current_player(state)

    def episode_over(self, first: MilleState, state: MilleState) -> bool:
        if mille.is_over(state):
            return True
        return self.episode == "hand" and state.hand_no != first.hand_no

    def legal_actions(self, state: MilleState) -> Sequence[mille.Action]:
        return mille.legal_actions(state)

    def mask(self, state: MilleState) -> np.ndarray:
        return menc.mask_from_legal(mille.legal_actions(state))

    def observe(self, state: MilleState, seat: int) -> np.ndarray:
        return self._encoders[seat].encode(mille.view_for(state, seat))

    def observe_into(self, state: MilleState, seat: int, out: np.ndarray) -> np.ndarray:
        """``observe`` written into ``out`` (float32, ``obs_size``)."""
        return self._encoders[seat].encode_into(mille.view_for(state, seat), out)

    def view(self, state: MilleState, seat: int) -> mille.MilleView:
        return mille.view_for(state, seat)

    def decode(self, state: MilleState, code: int) -> mille.Action:
        code = int(code)
        if 0 <= code < _N_MILLE:  # (decode_action checks the same, and names a bad code)
            return _MILLE_ACTIONS[code]
        return mille.decode_action(code)

    def encode(self, state: MilleState, action: mille.Action) -> int:
        return mille.encode_action(action)

    def apply(self, state: MilleState, action: mille.Action) -> MilleState:
        return mille.apply(state, action)

    def rewards(self, first: MilleState, before: MilleState, after: MilleState) -> list[float] | None:
        """Per-seat rewards earned by the step ``before -> after`` (``None``: all zero)."""
        if len(after.sheets) == len(before.sheets):
            return None
        return self._scored(first, after, self.episode_over(first, after))

    def transition(self, first: MilleState, before: MilleState, after: MilleState) -> tuple[list[float] | None, int]:
        over = after.phase == OVER_PHASE or (self.episode == "hand" and after.hand_no != first.hand_no)
        gained = None if len(after.sheets) == len(before.sheets) else self._scored(first, after, over)
        return gained, -1 if over else after.current

    def _scored(self, first: MilleState, after: MilleState, over: bool) -> list[float] | None:
        """The rewards of a step that scored a hand."""
        side_of = after.side_of
        if self.reward == "score":
            side_values = _spread(after.sheets[-1].hand_totals)
            return [side_values[side_of[p]] / 1000.0 for p in range(self.n_players)]
        if not over:
            return None
        if self.episode == "match":
            won = set(after.winners)
            return [1.0 if side_of[p] in won else -1.0 for p in range(self.n_players)]
        pts = after.sheets[len(first.sheets)].hand_totals
        top = max(pts)
        n_top = pts.count(top)
        return [(1.0 if n_top == 1 else 0.0) if pts[side_of[p]] == top else -1.0 for p in range(self.n_players)]

    def render(self, state: MilleState, seat: int | None) -> str:
        return render_mille(state, seat)


def _spread(points: Sequence[int]) -> list[float]:
    """Each side's points minus the mean of the other sides' points."""
    n = len(points)
    total = sum(points)
    return [p - (total - p) / (n - 1) for p in points]


def render_mille(state: MilleState, seat: int | None) -> str:
    """A short text picture of the table (from ``seat``'s view; ``None``: the acting seat)."""
    who = state.current if seat is None else seat
    v = mille.view_for(state, who)
    lines = [
        f"{v.edition.key} hand {v.hand_no + 1}, target {v.target} km, draw pile {v.draw_count}, P{v.current + 1} to act"
    ]
    for s, tab in enumerate(v.tableaus):
        seats = ",".join(f"P{p + 1}" for p in v.sides[s])
        top = tab.battle[-1] if tab.battle else "-"
        speed = "limit" if tab.limited else "free"
        safe = " ".join(tab.safeties) or "-"
        total = v.totals[s] if v.totals else 0
        lines.append(f"side {s + 1} ({seats}): {tab.km} km, battle {top}, {speed}, safeties {safe}, total {total}")
    lines.append(f"P{who + 1} holds: {' '.join(v.hand)}")
    return "\n".join(lines)


class KnightRiderAdapter:
    """Knight Rider for the environments.

    ``players`` 2..5; every other keyword is an :class:`rallye.knightrider.Options` field,
    with two defaults changed for learning: ``quick_build=True`` (the engine lays the track,
    so an episode is the chase) and ``turn_limit=200`` (an episode always ends; ``None``
    plays until someone wins).

    The episode is one game. ``reward="win"`` (the only one so far): when the game ends,
    +1 for the winner and -1/(players-1) for each other player (sums to zero); 0 for
    everyone when the turn limit ends it; 0 on every other step.

    Observations: ``obs_version=1`` (default) :mod:`rallye.rl.knightrider.encoding` (29 planes of
    48 × 48 cells, 67,005 floats); ``obs_version=2`` :mod:`rallye.rl.knightrider.compact` (the same
    values on the 16 × 16 squares, 24,765 floats). Actions: :mod:`rallye.rl.knightrider.encoding`'s
    compact codes (``NUM_ACTIONS``), which need the state to decode (a normal move's pips
    and a ram's field come from the position).
    """

    game = "knightrider"
    REWARDS = ("win",)
    OBS_VERSIONS = (1, 2)

    def __init__(self, players: int = 2, reward: str = "win", obs_version: int = 1, **options: Any) -> None:
        _check_choice("reward", reward, self.REWARDS)
        if obs_version not in self.OBS_VERSIONS or isinstance(obs_version, bool):
            raise ValueError(f"obs_version must be 1 or 2, not {obs_version!r}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, not {players!r}")
        if not 2 <= players <= 5:
            raise ConfigError(f"Knight Rider is for 2 to 5 players, got {players}", rule="players")
        opts: dict[str, Any] = {"quick_build": True, "turn_limit": 200, **options}
        self.options = kr.Options.from_json(opts)
        self.options.pieces()  # a bad piece file fails here, naming the file
        self.n_players = players
        self.reward = reward
        self.num_actions = kenc.NUM_ACTIONS
        self.obs_version = obs_version
        encoding = kenc if obs_version == 1 else kcomp
        self.obs_size = encoding.OBS_SIZE
        self.obs_low, self.obs_high = encoding.OBS_LOW, encoding.OBS_HIGH
        self._table_for: tuple[kr.State | None, dict[int, kr.Action]] = (None, {})
        self._view_for: tuple[kr.State | None, int, kr.View | None] = (None, -1, None)

    def __repr__(self) -> str:
        return (
            f"KnightRiderAdapter({self.n_players}, reward={self.reward!r}, obs_version={self.obs_version}, "
            f"options={self.options})"
        )

    def new_state(self, seed: int) -> kr.State:
        return kr.new_game(self.n_players, seed, self.options)

    def current_player(self, state: kr.State) -> int | None:
        return kr.current_player(state)

    def episode_over(self, first: kr.State, state: kr.State) -> bool:
        return kr.is_over(state)

    def legal_actions(self, state: kr.State) -> Sequence[kr.Action]:
        return kr.legal_actions(state)

    def table(self, state: kr.State) -> dict[int, kr.Action]:
        """Compact code → legal action for the player to act (cached for the last state)."""
        cached_state, table = self._table_for
        if cached_state is not state:
            table = kenc.state_table(state)  # ({} once the game is over)
            self._table_for = (state, table)
        return table

    def mask(self, state: kr.State) -> np.ndarray:
        return kenc.mask_from_table(self.table(state))

    def observe(self, state: kr.State, seat: int) -> np.ndarray:
        if self.obs_version == 2:
            return kcomp.encode_view(self.view(state, seat), self.options)
        return kenc.encode_view(self.view(state, seat), self.options)

    def view(self, state: kr.State, seat: int) -> kr.View:
        """``view_for(state, seat)``, cached for the last (state, seat): a bot's choice and
        an observation of the same state share one view."""
        cached_state, cached_seat, view = self._view_for
        if cached_state is not state or cached_seat != seat or view is None:
            view = kr.view_for(state, seat)
            self._view_for = (state, seat, view)
        return view

    def decode(self, state: kr.State, code: int) -> kr.Action:
        return kenc.decode(int(code), self.table(state))

    def encode(self, state: kr.State, action: kr.Action) -> int:
        return kenc.action_code(action, kenc.ActionContext.of_state(state))

    def apply(self, state: kr.State, action: kr.Action) -> kr.State:
        return kr.apply(state, action)

    def rewards(self, first: kr.State, before: kr.State, after: kr.State) -> list[float] | None:
        """Per-seat rewards earned by the step ``before -> after`` (``None``: all zero)."""
        if not kr.is_over(after) or after.winner is None:
            return None
        n = self.n_players
        return [1.0 if p == after.winner else -1.0 / (n - 1) for p in range(n)]

    def transition(self, first: kr.State, before: kr.State, after: kr.State) -> tuple[list[float] | None, int]:
        if after.phase != "over":
            return None, after.current
        return self.rewards(first, before, after), -1

    def render(self, state: kr.State, seat: int | None) -> str:
        return render_knightrider(state, seat)


def render_knightrider(state: kr.State, seat: int | None) -> str:
    """The map and a status line (from ``seat``'s view; ``None``: the acting seat)."""
    who = state.current if seat is None else seat
    v = kr.view_for(state, who)
    to_act = "over" if v.current is None else f"P{v.current + 1} to act"
    lines = [
        f"Knight Rider, {v.phase}, turn {v.turn}, {to_act}, roll {v.roll} ({v.pips - v.used} pips left), "
        f"escape cards left {v.escape_left}" + (f", winner P{v.winner + 1}" if v.winner is not None else "")
    ]
    lines += kr.render_grid(v)
    hand = [f"{k} {n}" for k, n in zip(kr.KITT_KINDS + kr.DETOUR_KINDS, v.hand_kitt + v.hand_detour, strict=True) if n]
    lines.append(f"P{who + 1} holds: {', '.join(hand) or '-'}")
    return "\n".join(lines)


def make_adapter(game: str, **options: Any) -> GameAdapter:
    """The adapter for ``game`` ("mille" or "knightrider")."""
    if game == "mille":
        return MilleAdapter(**options)
    if game == "knightrider":
        return KnightRiderAdapter(**options)
    raise ValueError(f"no environment adapter for game {game!r}; adapters exist for: mille, knightrider")
