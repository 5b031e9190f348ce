"""What every bot of both games promises: it is registered with the levels, it sees views only
(nothing in a view leads back to a state), and what a view hides does not change its choice."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from rallye import knightrider, mille
from rallye.agents.base import Agent, agent_names, make_agent
from rallye.agents.knightrider.search import MctsAgent
from rallye.agents.mille.search import IsmctsAgent, PimcAgent
from rallye.agents.mille.zoo import STYLES as ZOO_STYLES
from rallye.core.rng import Rng
from rallye.core.values import attributes
from rallye.knightrider import Options
from rallye.knightrider.sampling import legal_from_view as kr_legal_from_view
from rallye.knightrider.state import State
from rallye.knightrider.view import View
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

from .knightrider import helpers as kr
from .mille import helpers as mb


def _small_mille(bot: Agent) -> None:
    """Small budgets: a choice, not a strength."""
    if isinstance(bot, IsmctsAgent):
        bot.iterations, bot.rollout_plies = 12, 6
    if isinstance(bot, PimcAgent):
        bot.deals, bot.plies, bot.top_k = 3, 300, 3


def _small_kr(bot: Agent) -> None:
    if isinstance(bot, MctsAgent):
        bot.iterations = 6


def _mille_views() -> Iterator[MilleView]:
    yield from mb.views_of("wm2006", 4, seed=3, steps=60)


def _kr_views() -> Iterator[View]:
    for s in kr.random_states(3, 4, Options(quick_build=True, turn_limit=40), 60):
        yield knightrider.view_for(s, s.current)


@dataclass(frozen=True)
class GameCase:
    """One game's side of these tests."""

    key: str
    bots: tuple[str, ...]  # every one registered, the levels among them
    searched: tuple[str, ...]  # the bots whose choices are checked against hidden facts
    views: Callable[[], Iterator[Any]]
    legal: Callable[[Any], Sequence[Any]]
    view_for: Callable[[Any, int], Any]
    hidden: tuple[type, ...]  # what no view may lead to
    hidden_fields: tuple[str, ...]  # what no view may hold
    twins: Callable[[], list[tuple[Any, ...]]]  # states with one view, other hidden facts
    small: Callable[[Agent], None]


LEVELS = ("easy", "medium", "hard", "expert")
GAMES = (
    GameCase(
        key="mille",
        bots=("random", "heuristic", "tuned", "fitted", "climbed", "distilled", "learned", "ismcts", "pimc", *LEVELS),
        searched=(
            "heuristic",
            "tuned",
            "fitted",
            "climbed",
            "distilled",
            "learned",
            "ismcts",
            "pimc",
            "hard",
            *ZOO_STYLES,
        ),
        views=_mille_views,
        legal=mille.legal_from_view,
        view_for=mille.view_for,
        hidden=(MilleState,),
        hidden_fields=("deck", "hands", "draw_pile", "seed", "rng"),
        twins=mb.hidden_twins,
        small=_small_mille,
    ),
    GameCase(
        key="knightrider",
        bots=("random", "heuristic", "mcts", "lookahead", *LEVELS),
        searched=("heuristic", "mcts", "hard", "expert"),
        views=_kr_views,
        legal=kr_legal_from_view,
        view_for=knightrider.view_for,
        hidden=(State, Rng),
        hidden_fields=("escape_deck", "rng", "kitt_hands", "detour_hands"),
        twins=kr.hidden_twins,
        small=_small_kr,
    ),
)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_bots_and_levels_are_registered(game: GameCase) -> None:
    names = agent_names(game.key)
    for n in game.bots:
        assert n in names


def _reachable(obj: object, seen: set[int] | None = None) -> Iterator[object]:
    """Every object reachable from ``obj`` by attributes (slots and a compiled class's too),
    dataclass fields and container items."""
    seen = set() if seen is None else seen
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        yield o
        if isinstance(o, str | bytes | int | float | bool | type(None) | type):
            continue
        if isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        if dataclasses.is_dataclass(o):
            stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
        for name in getattr(type(o), "__slots__", ()):
            if hasattr(o, name):
                stack.append(getattr(o, name))
        if hasattr(o, "__dict__") or hasattr(type(o), "__mypyc_attrs__"):
            stack.extend(attributes(o).values())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_a_view_leads_to_no_state(game: GameCase) -> None:
    """DESIGN habit 8, views only: no attribute path from a view (or from the legal actions
    computed from it) reaches a state, an Rng or the deck order, and no view field holds
    what is hidden."""
    checked = 0
    for v in game.views():
        for o in (*_reachable(v), *_reachable(game.legal(v))):
            assert not isinstance(o, game.hidden), type(o)
        checked += 1
    assert checked >= 50
    view_type = type(next(iter(game.views())))
    assert not {f.name for f in dataclasses.fields(view_type)} & set(game.hidden_fields)


@pytest.mark.parametrize(
    ("game", "name"),
    [(g, n) for g in GAMES for n in g.searched],
    ids=lambda x: x.key if isinstance(x, GameCase) else x,
)
def test_hidden_information_does_not_change_the_choice(game: GameCase, name: str) -> None:
    """Same view, other hidden facts (Mille Bornes: the others' hands and the draw pile;
    Knight Rider: the escape deck order, the others' hands, the Rng): the same choice at the
    same seed."""
    twins = game.twins()
    assert len(twins) >= 8
    for states in twins:
        choices = []
        for s in states:
            bot = make_agent(game.key, name, seed=5, exact=True)  # (a choice, not a timing)
            game.small(bot)
            v = game.view_for(s, s.current)
            choices.append(bot.choose(v, game.legal(v)))
        assert all(c == choices[0] for c in choices), choices
