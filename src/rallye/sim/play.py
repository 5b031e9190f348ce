"""Playing one whole match with bots, per game, into a plain, picklable result.

Bots get only ``view_for(state, seat)`` and the legal actions computed from that view
(``legal_from_view``); the state never leaves this module. Everything is seeded: the same
:class:`MatchJob` always gives the same :class:`MatchResult`, in any process.

The per-game parts are :func:`play_mille` and :func:`play_knightrider`; :func:`play_job`
dispatches on ``job.game``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from rallye.agents.base import Agent, make_agent
from rallye.core.errors import GameError

#: A match that takes more decisions than this is an engine or bot bug, not a long game.
MAX_DECISIONS = 200_000

#: Knight Rider event kinds that are rows of the ram and oil tables (docs/rules/knight-rider.md).
KR_TABLE_KINDS: tuple[str, ...] = ("ram", "ram_fail", "oil")


class SimulationError(GameError):
    """A match could not be played to its end (a bot broke the contract, or no end)."""

    code = "simulation"


@dataclass(frozen=True, slots=True)
class MatchJob:
    """Everything needed to play one match, identically, anywhere."""

    index: int
    game: str  # "mille" | "knightrider"
    players: int
    seat_bots: tuple[str, ...]
    seed: int  # the game's seed (duplicate matches share it)
    bot_seeds: tuple[int, ...]  # one per seat
    edition: Any = None  # mille: an edition key or Edition
    options: dict[str, Any] = field(default_factory=dict)  # knightrider: Options fields
    rules: int | None = None  # knightrider: the rules version to play (None: today's)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match. Fields that do not apply to a game are empty.

    ``winners`` are winning sides (several = a drawn result shared between them; empty =
    no result, e.g. a Knight Rider turn limit). For Knight Rider every seat is a side.
    """

    index: int
    seed: int
    seat_bots: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    decisions: int
    hands: int
    totals: tuple[int, ...] = ()  # mille: final score per side
    hand_totals: tuple[tuple[int, ...], ...] = ()  # mille: per hand, per side
    lines: tuple[tuple[int, ...], ...] = ()  # mille: per side, SCORE_LINES summed over hands
    turns: int = 0  # knightrider: chase turns played
    table: tuple[tuple[str, int, int], ...] = ()  # knightrider: (kind, roll, count), sorted
    start_player: int = 0  # knightrider: the seat that acts first in the chase (car 1)
    #: knightrider: the town once the chase starts, as ``rallye.knightrider.town.TownFigures``
    #: fields (tiles, pieces, largest, villain_piece, start_fields, start_tiles)
    town: tuple[int, ...] = ()

    @property
    def side_bots(self) -> tuple[str, ...]:
        """The bot of each side, ``a+b`` if a side's seats have different bots."""
        out = []
        for seats in self.sides:
            names = list(dict.fromkeys(self.seat_bots[s] for s in seats))
            out.append("+".join(names))
        return tuple(out)

    def side_scores(self) -> tuple[float, ...]:
        """Each side's share of the match win: 1/len(winners) to each winner; a match with
        no result is shared by every side."""
        n = len(self.sides)
        if not self.winners:
            return tuple(1.0 / n for _ in range(n))
        share = 1.0 / len(self.winners)
        return tuple(share if s in self.winners else 0.0 for s in range(n))


def make_agents(game: str, job: MatchJob) -> list[Agent]:
    """The job's bots. Batch play is exact: a search level's CPU ceiling (``cpu_limit``,
    which keeps a person's wait within the level's limit on a slow machine) is lifted, so
    the bots play their count budgets and a job gives the same result on any machine."""
    if len(job.seat_bots) != job.players or len(job.bot_seeds) != job.players:
        raise ValueError(f"match {job.index}: need one bot and one bot seed per seat ({job.players})")
    return [make_agent(game, name, seed, exact=True) for name, seed in zip(job.seat_bots, job.bot_seeds, strict=True)]


def _choose(agent: Agent, view: Any, legal: tuple[Any, ...], seat: int, index: int) -> Any:
    if not legal:
        raise SimulationError(f"match {index}: seat P{seat + 1} has no legal action but the game is not over")
    action = agent.choose(view, legal)
    if action not in legal:
        raise SimulationError(
            f"match {index}: bot {agent.name!r} at P{seat + 1} chose {action!s}, which is not legal here"
        )
    return action


# -- Mille Bornes ----------------------------------------------------------------------
def play_mille(job: MatchJob) -> MatchResult:
    from rallye import mille
    from rallye.mille.edition import SCORE_LINES

    agents = make_agents("mille", job)
    state = mille.new_match(job.edition, job.players, seed=job.seed)
    decisions = 0
    while not mille.is_over(state):
        seat = mille.current_player(state)
        if seat is None:  # pragma: no cover - the engine always has a player to act
            raise SimulationError(f"match {job.index}: no player to act in an unfinished match")
        view = mille.view_for(state, seat)
        action = _choose(agents[seat], view, mille.legal_from_view(view), seat, job.index)
        state = mille.apply(state, action)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise SimulationError(f"match {job.index}: no end after {MAX_DECISIONS} decisions")
    sheets = state.sheets
    n_sides = len(state.sides)
    lines = tuple(
        tuple(sum(sh.rows[side][i] for sh in sheets) for i in range(len(SCORE_LINES))) for side in range(n_sides)
    )
    return MatchResult(
        index=job.index,
        seed=job.seed,
        seat_bots=job.seat_bots,
        sides=state.sides,
        winners=tuple(mille.winners(state)),
        decisions=decisions,
        hands=len(sheets),
        totals=tuple(state.totals),
        hand_totals=tuple(sh.hand_totals for sh in sheets),
        lines=lines,
    )


# -- Knight Rider ----------------------------------------------------------------------
def knightrider_module() -> ModuleType:
    """The Knight Rider engine, or a clear error if this install does not have it (yet)."""
    try:
        kr = importlib.import_module("rallye.knightrider")
    except ImportError as exc:
        raise SimulationError(f"the Knight Rider engine is not available: {exc}") from None
    missing = [
        f
        for f in ("new_game", "legal_actions", "apply", "view_for", "current_player", "is_over", "winner")
        if not hasattr(kr, f)
    ]
    if missing:
        raise SimulationError(
            "the Knight Rider engine is not available: rallye.knightrider lacks " + ", ".join(missing)
        )
    return kr


def _kr_options(kr: ModuleType, options: dict[str, Any]) -> Any:
    cls = getattr(kr, "Options", None)
    if cls is None:
        cls = importlib.import_module("rallye.knightrider.state").Options
    return cls.from_json(dict(options)) if hasattr(cls, "from_json") else cls(**options)


def _count_table(events: Any, counts: Counter[tuple[str, int]]) -> None:
    for ev in events or ():
        kind = getattr(ev, "kind", None)
        value = getattr(ev, "value", None)
        if kind in KR_TABLE_KINDS and isinstance(value, int):
            counts[(kind, value)] += 1


def play_knightrider(job: MatchJob) -> MatchResult:
    kr = knightrider_module()
    agents = make_agents("knightrider", job)
    legal_from_view = getattr(kr, "legal_from_view", None)
    rules = {} if job.rules is None else {"rules": job.rules}
    state = kr.new_game(job.players, job.seed, _kr_options(kr, job.options), **rules)
    counts: Counter[tuple[str, int]] = Counter()
    _count_table(getattr(state, "events", ()), counts)
    decisions = 0
    town: tuple[int, ...] = ()
    while not kr.is_over(state):
        if not town and state.start_sq >= 0:
            town = _town(state)
        seat = kr.current_player(state)
        if seat is None:
            raise SimulationError(f"match {job.index}: no player to act in an unfinished game")
        view = kr.view_for(state, seat)
        # The legal actions are public; computed from the view when the engine offers it.
        legal = tuple(legal_from_view(view) if legal_from_view is not None else kr.legal_actions(state))
        action = _choose(agents[seat], view, legal, seat, job.index)
        state = kr.apply(state, action)
        _count_table(getattr(state, "events", ()), counts)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise SimulationError(f"match {job.index}: no end after {MAX_DECISIONS} decisions")
    winner = kr.winner(state)
    return MatchResult(
        index=job.index,
        seed=job.seed,
        seat_bots=job.seat_bots,
        sides=tuple((s,) for s in range(job.players)),
        winners=() if winner is None else (int(winner),),
        decisions=decisions,
        hands=1,
        turns=int(getattr(state, "turn", 0)),
        table=tuple((k, v, n) for (k, v), n in sorted(counts.items())),
        start_player=int(state.start_player),
        town=town or (_town(state) if state.start_sq >= 0 else ()),
    )


def _town(state: Any) -> tuple[int, ...]:
    from dataclasses import astuple

    from rallye.knightrider.town import town_figures

    return tuple(astuple(town_figures(state)))


PLAYERS = {"mille": play_mille, "knightrider": play_knightrider}


def play_job(job: MatchJob) -> MatchResult:
    try:
        play = PLAYERS[job.game]
    except KeyError:
        raise ValueError(f"unknown game {job.game!r}; games are {', '.join(PLAYERS)}") from None
    return play(job)


def play_chunk(jobs: list[MatchJob]) -> list[MatchResult]:
    """Play several jobs in order (the unit sent to a worker process or Ray task)."""
    return [play_job(j) for j in jobs]
