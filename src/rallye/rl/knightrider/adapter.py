"""Knight Rider for the environments: :class:`KnightRiderAdapter` (see :mod:`rallye.rl.games`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rallye import knightrider as kr
from rallye.core.errors import ConfigError
from rallye.knightrider import GAME, Action, State, View
from rallye.knightrider.state import OVER_PHASE
from rallye.rl.games import GameAdapter, Rewards, check_choice, check_players
from rallye.rl.knightrider import compact as kcomp
from rallye.rl.knightrider import encoding as kenc


class KnightRiderAdapter(GameAdapter[State, Action, View]):
    """Knight Rider for the environments.

    ``players`` 2..5; every other keyword is an :class:`rallye.knightrider.Options` field,
    with two defaults changed for learning: ``quick_build=True`` (the engine lays the track,
    so an episode is the chase) and ``turn_limit=200`` (an episode always ends; ``None``
    plays until someone wins).

    The episode is one game. ``reward="win"`` (the only one so far): when the game ends,
    +1 for the winner and -1/(players-1) for each other player (sums to zero); 0 for
    everyone when the turn limit ends it; 0 on every other step.

    Observations: ``obs_version=1`` (default) :mod:`rallye.rl.knightrider.encoding` (29
    planes of 48 × 48 cells, 67,005 floats); ``obs_version=2``
    :mod:`rallye.rl.knightrider.compact` (the same values on the 16 × 16 squares, 24,765
    floats). Actions: :mod:`rallye.rl.knightrider.encoding`'s compact codes
    (``NUM_ACTIONS``), which need the state to decode (a normal move's pips and a ram's
    field come from the position).
    """

    REWARDS = ("win",)
    OBS_VERSIONS = (1, 2)

    def __init__(self, players: int = 2, reward: str = "win", obs_version: int = 1, **options: Any) -> None:
        check_choice("reward", reward, self.REWARDS)
        if obs_version not in self.OBS_VERSIONS or isinstance(obs_version, bool):
            raise ValueError(f"obs_version must be 1 or 2, not {obs_version!r}")
        check_players(players)
        if not 2 <= players <= 5:
            raise ConfigError(f"Knight Rider is for 2 to 5 players, got {players}", rule="players")
        opts: dict[str, Any] = {"quick_build": True, "turn_limit": 200, **options}  # JSON-like Options fields
        self.options = kr.Options.from_json(opts)
        self.options.pieces()  # a bad piece file fails here, naming the file
        # (Options in the settings: piece files are for local tools like this)
        super().__init__(GAME, {"players": players, "options": self.options})
        self.reward = reward
        self.num_actions = kenc.NUM_ACTIONS
        self.obs_version = obs_version
        encoding = kenc if obs_version == 1 else kcomp
        self.obs_size = encoding.OBS_SIZE
        self.obs_low, self.obs_high = encoding.OBS_LOW, encoding.OBS_HIGH
        self._table_for: tuple[State | None, dict[int, Action]] = (None, {})
        self._view_for: tuple[State | None, int, View | None] = (None, -1, None)

    def __repr__(self) -> str:
        return (
            f"KnightRiderAdapter({self.n_players}, reward={self.reward!r}, obs_version={self.obs_version}, "
            f"options={self.options})"
        )

    def table(self, state: State) -> dict[int, Action]:
        """Compact code → legal action for the player to act (cached for the last state)."""
        cached_state, table = self._table_for
        if cached_state is not state:
            table = kenc.state_table(state)  # ({} once the game is over)
            self._table_for = (state, table)
        return table

    def mask(self, state: State) -> np.ndarray:
        return kenc.mask_from_table(self.table(state))

    def observe(self, state: State, seat: int) -> np.ndarray:
        if self.obs_version == 2:
            return kcomp.encode_view(self.view(state, seat), self.options)
        return kenc.encode_view(self.view(state, seat), self.options)

    def view(self, state: State, seat: int) -> View:
        """The face's ``view_for(state, seat)``, cached for the last (state, seat): a bot's
        choice and an observation of the same state share one view."""
        cached_state, cached_seat, view = self._view_for
        if cached_state is not state or cached_seat != seat or view is None:
            view = self.face.view_for(state, seat)
            self._view_for = (state, seat, view)
        return view

    def decode(self, state: State, code: int) -> Action:
        return kenc.decode(int(code), self.table(state))

    def encode(self, state: State, action: Action) -> int:
        return kenc.action_code(action, kenc.ActionContext.of_state(state))

    def rewards(self, first: State, before: State, after: State) -> Rewards:
        if not self.face.is_over(after):
            return None
        winners = self.face.outcome(after).winners  # (each side is one seat)
        if not winners:
            return None
        n = self.n_players
        return [1.0 if p in winners else -1.0 / (n - 1) for p in range(n)]

    def transition(self, first: State, before: State, after: State) -> tuple[Rewards, int]:
        # On every decision: the engine state's phase read directly (face.is_over, without a call)
        if after.phase != OVER_PHASE:
            return None, after.current
        return self.rewards(first, before, after), -1

    def render(self, state: State, seat: int | None) -> str:
        return render_knightrider(state, seat)


def render_knightrider(state: State, seat: int | None) -> str:
    """The map and a status line (from ``seat``'s view; ``None``: the acting seat)."""
    who = state.current if seat is None else seat
    v = GAME.view_for(state, who)
    to_act = "over" if v.current is None else f"P{v.current + 1} to act"
    lines = [
        f"Knight Rider, {v.phase}, turn {v.turn}, {to_act}, roll {v.roll} ({v.pips - v.used} pips left), "
        f"escape cards left {v.escape_left}" + (f", winner P{v.winner + 1}" if v.winner is not None else "")
    ]
    lines += kr.render_grid(v)
    hand = [f"{k} {n}" for k, n in zip(kr.KITT_KINDS + kr.DETOUR_KINDS, v.hand_kitt + v.hand_detour, strict=True) if n]
    lines.append(f"P{who + 1} holds: {', '.join(hand) or '-'}")
    return "\n".join(lines)
