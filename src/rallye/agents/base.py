"""The bot contract and registry, shared by both games.

A bot is built for one game and one seat count by ``make_agent(game, name, seed)``, then
asked ``choose(view, legal)`` on each decision: ``view`` is that player's view (never a
state) and ``legal`` the legal actions (the same ones ``legal_from_view`` computes). Bots
are deterministic for a seed.

Names: concrete bots (``random``, ``heuristic``, ``ismcts``, …) and levels (``easy``,
``medium``, ``hard``, ``expert``), which map to a configured bot per game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Agent(Protocol):
    name: str

    def choose(self, view: Any, legal: Sequence[Any], /) -> Any: ...


class RandomAgent:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]


Factory = Callable[[int], Agent]
_REGISTRY: dict[tuple[str, str], Factory] = {}
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
GAMES: tuple[str, ...] = ("mille", "knightrider")
#: the levels a table offers, by game: the four above, and Mille Bornes' ``learned`` (a
#: network trained on a bot's decisions, ``rallye.agents.mille.learned``)
GAME_LEVELS: dict[str, tuple[str, ...]] = {"mille": (*LEVELS, "learned"), "knightrider": LEVELS}


def levels_for(game: str) -> tuple[str, ...]:
    """The levels a table of ``game`` offers on this install: :data:`GAME_LEVELS`, less
    ``learned`` where NumPy, which plays its network, is not installed (the server's
    install needs none)."""
    import importlib.util

    levels = GAME_LEVELS[game]
    if importlib.util.find_spec("numpy") is None:
        levels = tuple(lv for lv in levels if lv != "learned")
    return levels


def register(game: str, name: str, factory: Factory) -> None:
    """Register a bot factory ``seed -> Agent`` under a game and a name."""
    _REGISTRY[(game, name)] = factory


def _load_builtin(game: str) -> None:
    # Bot modules register themselves on import; imported lazily so the CLI starts fast.
    import importlib

    for module in _BUILTIN_MODULES.get(game, ()):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a bot module not written yet is simply absent
            if exc.name != module:
                raise


_BUILTIN_MODULES: dict[str, tuple[str, ...]] = {
    "mille": (
        "rallye.agents.mille.heuristic",
        "rallye.agents.mille.distilled",
        "rallye.agents.mille.learned",
        "rallye.agents.mille.search",
        "rallye.agents.mille.levels",
        "rallye.agents.mille.zoo",
    ),
    "knightrider": (
        "rallye.agents.knightrider.heuristic",
        "rallye.agents.knightrider.search",
        "rallye.agents.knightrider.levels",
    ),
}


def agent_names(game: str) -> tuple[str, ...]:
    _load_builtin(game)
    return tuple(sorted(n for g, n in _REGISTRY if g == game))


def make_agent(game: str, name: str, seed: int = 0, *, exact: bool = False) -> Agent:
    """A fresh bot; an unknown name raises ``ValueError`` listing the known ones.

    ``exact``: for batch play (tournaments, simulations, environments), where a seed must
    give the same games on any machine: a bot with a CPU ceiling on its search (the Mille
    Bornes search levels' ``cpu_limit``, which keeps a person's wait within the level's
    limit on a slow machine) gets it lifted and plays its whole count budget."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
    _load_builtin(game)
    factory = _REGISTRY.get((game, name))
    if factory is None:
        raise ValueError(f"unknown bot {name!r} for {game}; known: {', '.join(agent_names(game))}")
    agent = factory(seed)
    if exact and getattr(agent, "cpu_limit", None) is not None:
        agent.cpu_limit = None  # type: ignore[attr-defined]
    return agent


def parse_bots(game: str, spec: str, count: int) -> list[str]:
    """``"heuristic,random"`` → a list of ``count`` names, the last one repeated."""
    names = [s.strip() for s in spec.split(",") if s.strip()] or ["heuristic"]
    known = agent_names(game)
    for n in names:
        if n not in known:
            raise ValueError(f"unknown bot {n!r} for {game}; known: {', '.join(known)}")
    while len(names) < count:
        names.append(names[-1])
    return names[:count]


for _game in GAMES:
    register(_game, "random", lambda seed: RandomAgent(seed))
