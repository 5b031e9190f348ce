"""What an environment needs to know about a game: one small adapter per game.

The PettingZoo, Gymnasium and OpenSpiel adapters in this package are written against
:class:`GameAdapter` (states in, numbers out) and never against one game's engine, so a new
game is one more adapter class here (plus its encoding module) and a thin module naming it.

An adapter owns the *episode* (one hand or a whole match), the *reward* (documented on each
adapter) and the *encoding* (a view-only observation and a legal-action mask). States stay
the engine's immutable values; the environments hold the current one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from rallye import mille
from rallye.mille.state import MilleState
from rallye.rl import mille_encoding as menc

EPISODES = ("hand", "match")
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

    def decode(self, code: int) -> Any: ...

    def encode(self, action: Any) -> int: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def rewards(self, first: Any, before: Any, after: Any) -> list[float] | None: ...

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
        return menc.encode_view(mille.view_for(state, seat))

    def view(self, state: MilleState, seat: int) -> mille.MilleView:
        return mille.view_for(state, seat)

    def decode(self, code: int) -> mille.Action:
        return mille.decode_action(int(code))

    def encode(self, action: mille.Action) -> int:
        return mille.encode_action(action)

    def apply(self, state: MilleState, action: mille.Action) -> MilleState:
        return mille.apply(state, action)

    def rewards(self, first: MilleState, before: MilleState, after: MilleState) -> list[float] | None:
        """Per-seat rewards earned by the step ``before -> after`` (``None``: all zero)."""
        if len(after.sheets) == len(before.sheets):
            return None
        over = self.episode_over(first, after)
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
        return [
            (1.0 if n_top == 1 else 0.0) if pts[side_of[p]] == top else -1.0 for p in range(self.n_players)
        ]

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
        f"{v.edition.key} hand {v.hand_no + 1}, target {v.target} km, draw pile {v.draw_count}, "
        f"P{v.current + 1} to act"
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


def make_adapter(game: str, **options: Any) -> GameAdapter:
    """The adapter for ``game`` ("mille"; "knightrider" once its engine exists)."""
    if game == "mille":
        return MilleAdapter(**options)
    raise ValueError(f"no environment adapter for game {game!r}; adapters exist for: mille")
