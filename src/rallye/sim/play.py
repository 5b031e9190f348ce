"""Playing one whole match with bots into a plain, picklable result.

One loop serves both games, through the game face (:mod:`rallye.core.game`) alone: bots
get only ``view_for(state, seat)`` and the legal actions computed from that view
(``legal_from_view``); the state never leaves this module. Everything is seeded: the same
:class:`MatchJob` always gives the same :class:`MatchResult`, in any process.

What is the simulation's own per game are the statistics a match leaves
(:class:`MilleTally`: hand totals and score lines; :class:`KnightRiderTally`: turns, the
ram and oil table rolls, the start player and the town's figures).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field
from typing import Any, Generic, TypeVar

from rallye.agents.base import Agent, make_agent
from rallye.core.errors import GameError
from rallye.core.game import Game, Settings
from rallye.games import GAMES
from rallye.knightrider.state import State as KRState
from rallye.knightrider.town import town_figures
from rallye.mille.edition import SCORE_LINES, Edition
from rallye.mille.state import MilleState

#: A match that takes more decisions than this is an engine or bot bug, not a long game.
MAX_DECISIONS = 200_000

#: Knight Rider event kinds that are rows of the ram and oil tables (docs/rules/knight-rider.md).
KR_TABLE_KINDS: tuple[str, ...] = ("ram", "ram_fail", "oil")

S = TypeVar("S")
A = TypeVar("A")


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
    edition: str | Edition | None = None  # mille: an edition key or Edition
    options: dict[str, Any] = field(default_factory=dict)  # knightrider: Options fields
    rules: int | None = None  # knightrider: the rules version to play (None: today's)

    def settings(self) -> Settings:
        """The game's settings for this job: each game reads its own fields (an edition
        may be an ``Edition``, as local tools allow); a field left ``None`` takes the
        game's default."""
        fields = {"players": self.players, "edition": self.edition, "options": self.options, "rules": self.rules}
        return {k: v for k, v in fields.items() if v is not None}


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


# -- what a match leaves, per game -------------------------------------------------------
class Tally(ABC, Generic[S]):
    """A game's statistics of one match: it sees every state the match passes through (the
    first, then each after a move) and gives its :class:`MatchResult` fields at the end."""

    @abstractmethod
    def see(self, state: S) -> None: ...

    @abstractmethod
    def fields(self, final: S) -> dict[str, Any]: ...


class MilleTally(Tally[MilleState]):
    """Mille Bornes: the hands, the final and per-hand totals, each side's score lines."""

    def see(self, state: MilleState) -> None:
        pass  # the score sheets keep every hand

    def fields(self, final: MilleState) -> dict[str, Any]:
        sheets = final.sheets
        lines = tuple(
            tuple(sum(sh.rows[side][i] for sh in sheets) for i in range(len(SCORE_LINES)))
            for side in range(len(final.sides))
        )
        return {
            "hands": len(sheets),
            "totals": tuple(final.totals),
            "hand_totals": tuple(sh.hand_totals for sh in sheets),
            "lines": lines,
        }


class KnightRiderTally(Tally[KRState]):
    """Knight Rider: the chase turns, the ram and oil table rolls, the start player and
    the town as it stands when the chase starts."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, int]] = Counter()
        self.town: tuple[int, ...] = ()

    def see(self, state: KRState) -> None:
        for ev in state.events:
            if ev.kind in KR_TABLE_KINDS and isinstance(ev.value, int):
                self.counts[(ev.kind, ev.value)] += 1
        if not self.town and state.start_sq >= 0:
            self.town = tuple(astuple(town_figures(state)))

    def fields(self, final: KRState) -> dict[str, Any]:
        return {
            "hands": 1,
            "turns": final.turn,
            "table": tuple((k, v, n) for (k, v), n in sorted(self.counts.items())),
            "start_player": final.start_player,
            "town": self.town,
        }


TALLIES: dict[str, type[Tally[Any]]] = {"mille": MilleTally, "knightrider": KnightRiderTally}


# -- one match ---------------------------------------------------------------------------
def make_agents(game: str, job: MatchJob) -> list[Agent]:
    """The job's bots. Batch play is exact: a search level's CPU ceiling (``cpu_limit``,
    which keeps a person's wait within the level's limit on a slow machine) is lifted, so
    the bots play their count budgets and a job gives the same result on any machine."""
    if len(job.seat_bots) != job.players or len(job.bot_seeds) != job.players:
        raise ValueError(f"match {job.index}: need one bot and one bot seed per seat ({job.players})")
    return [make_agent(game, name, seed, exact=True) for name, seed in zip(job.seat_bots, job.bot_seeds, strict=True)]


def _choose(agent: Agent, view: object, legal: Sequence[A], seat: int, index: int) -> A:
    if not legal:
        raise SimulationError(f"match {index}: seat P{seat + 1} has no legal action but the game is not over")
    action: A = agent.choose(view, legal)
    if action not in legal:
        raise SimulationError(
            f"match {index}: bot {agent.name!r} at P{seat + 1} chose {action!s}, which is not legal here"
        )
    return action


def play(game: Game[S, A, Any], tally: Tally[S], job: MatchJob) -> MatchResult:
    """Play ``job`` to its end through ``game``'s face, the bots seeing views alone."""
    agents = make_agents(game.key, job)
    state = game.new(job.settings(), job.seed)
    tally.see(state)
    decisions = 0
    while not game.is_over(state):
        seat = game.current_player(state)
        if seat is None:  # pragma: no cover - an engine always has a player to act
            raise SimulationError(f"match {job.index}: no player to act in an unfinished match")
        view = game.view_for(state, seat)
        action = _choose(agents[seat], view, tuple(game.legal_from_view(view)), seat, job.index)
        state = game.apply(state, action)
        tally.see(state)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise SimulationError(f"match {job.index}: no end after {MAX_DECISIONS} decisions")
    outcome = game.outcome(state)
    return MatchResult(
        index=job.index,
        seed=job.seed,
        seat_bots=job.seat_bots,
        sides=outcome.sides,
        winners=outcome.winners,
        decisions=decisions,
        **tally.fields(state),
    )


def play_job(job: MatchJob) -> MatchResult:
    if job.game not in GAMES:
        raise ValueError(f"unknown game {job.game!r}; games are {', '.join(GAMES)}")
    return play(GAMES[job.game], TALLIES[job.game](), job)


def play_chunk(jobs: list[MatchJob]) -> list[MatchResult]:
    """Play several jobs in order (the unit sent to a worker process or Ray task)."""
    return [play_job(j) for j in jobs]
