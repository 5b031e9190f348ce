"""Mille Bornes for the environments: :class:`MilleAdapter` (see :mod:`rallye.rl.games`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rallye.mille import ALL_ACTIONS, GAME, Action, Edition, MilleState, MilleView, get_edition
from rallye.mille.state import OVER_PHASE
from rallye.rl.games import EPISODES, REWARDS, GameAdapter, Rewards, check_choice, check_players
from rallye.rl.mille import encoding as menc

_N_ACTIONS = len(ALL_ACTIONS)


class MilleAdapter(GameAdapter[MilleState, Action, MilleView]):
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

    def __init__(
        self, edition: str | Edition = "wm2006", players: int = 2, episode: str = "hand", reward: str = "score"
    ) -> None:
        check_choice("episode", episode, EPISODES)
        check_choice("reward", reward, REWARDS)
        check_players(players)
        self.edition = get_edition(edition)
        self.edition.sides_for(players)  # a ConfigError naming the allowed counts
        # (an Edition in the settings: a house-rule file's edition is for local tools like this)
        super().__init__(GAME, {"edition": self.edition, "players": players})
        self.episode = episode
        self.reward = reward
        self.num_actions = GAME.num_actions
        self.obs_size = menc.OBS_SIZE
        self.obs_low, self.obs_high = menc.OBS_LOW, menc.OBS_HIGH
        # One incremental encoder per observer seat (each rewrites only what changed).
        self._encoders = [menc.ViewEncoder() for _ in range(players)]

    def __repr__(self) -> str:
        return f"MilleAdapter({self.edition.key!r}, {self.n_players}, episode={self.episode!r}, reward={self.reward!r})"

    def episode_over(self, first: MilleState, state: MilleState) -> bool:
        if self.face.is_over(state):
            return True
        return self.episode == "hand" and state.hand_no != first.hand_no

    def mask(self, state: MilleState) -> np.ndarray:
        return menc.mask_from_legal(self.face.legal_actions(state))

    def observe(self, state: MilleState, seat: int) -> np.ndarray:
        return self._encoders[seat].encode(self.face.view_for(state, seat))

    def observe_into(self, state: MilleState, seat: int, out: np.ndarray) -> np.ndarray:
        """``observe`` written into ``out`` (float32, ``obs_size``)."""
        return self._encoders[seat].encode_into(self.face.view_for(state, seat), out)

    def decode(self, state: MilleState, code: int) -> Action:
        code = int(code)
        if 0 <= code < _N_ACTIONS:  # (the face's decode_action checks the same, and names a bad code)
            return ALL_ACTIONS[code]
        return self.face.decode_action(code)

    def encode(self, state: MilleState, action: Action) -> int:
        return self.face.encode_action(action)

    def rewards(self, first: MilleState, before: MilleState, after: MilleState) -> Rewards:
        if len(after.sheets) == len(before.sheets):
            return None
        return self._scored(first, after, self.episode_over(first, after))

    def transition(self, first: MilleState, before: MilleState, after: MilleState) -> tuple[Rewards, int]:
        # On every decision: the engine state's fields read directly (the same as
        # face.is_over and face.current_player, without two calls each step).
        over = after.phase == OVER_PHASE or (self.episode == "hand" and after.hand_no != first.hand_no)
        gained = None if len(after.sheets) == len(before.sheets) else self._scored(first, after, over)
        return gained, -1 if over else after.current

    def _scored(self, first: MilleState, after: MilleState, over: bool) -> Rewards:
        """The rewards of a step that scored a hand."""
        side_of = after.side_of
        if self.reward == "score":
            side_values = _spread(after.sheets[-1].hand_totals)
            return [side_values[side_of[p]] / 1000.0 for p in range(self.n_players)]
        if not over:
            return None
        if self.episode == "match":
            won = set(self.face.outcome(after).winners)
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
    v = GAME.view_for(state, who)
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
