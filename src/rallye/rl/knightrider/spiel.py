"""Knight Rider as an OpenSpiel game, ``python_rallye_knightrider``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import rallye.rl.knightrider.spiel
    game = pyspiel.load_game("python_rallye_knightrider(players=3,turn_limit=60)")

Parameters: ``players`` (2..5, default 2), ``turn_limit`` (chase turns before the game ends
without a winner, default 100; it bounds the game, which OpenSpiel needs), ``quick_build``
(default ``True``: the engine lays the track; ``False``: the players lay it, one decision
per tile), ``seeds`` (the root's outcomes, below; default 1000), and the variants
``rolled_start``, ``tour``, ``deal_spares``, ``shuffle_cards`` (as in
:class:`rallye.knightrider.Options`).

**Chance.** The engine draws all chance from the Rng in its state, inside ``apply``. Here
every draw is an explicit chance node instead:

* The **root** chance node picks the engine seed, uniformly among ``seeds`` outcomes
  (``new_game(players, seed)``): it fixes what ``new_game`` randomises — the start player,
  the hands (random only with ``shuffle_cards``), which tiles lie face down in the centre
  and the first tile drawn, and with ``quick_build`` the whole track, the villain's tile and
  the start tile. So the maps a game can have are the ``seeds`` maps those seeds build:
  a sample of the engine's maps, not all of them.
* After the root the engine's Rng is replaced by a *scripted* one that takes its values from
  chance outcomes. A decision is applied by running ``apply``; when the engine asks the Rng
  for a value the script does not hold yet, the game stops at a chance node for that value
  (a **die**: outcomes 0..5 for 1..6; a **tile draw**: an index into the face-down tiles
  still untried, uniform), then re-runs ``apply`` with the longer script (``apply`` is
  pure, so a re-run is exact). Every die the engine rolls — a turn's roll, ram and oil
  tables, the villain's ram, the villain and start-tile rolls after a manual build — is
  therefore a chance node with its true distribution, in the engine's own order.
* **Escape cards**: an ``end`` first stops at a chance node that turns the next escape card,
  uniformly among the cards not turned since the last shuffle (outcome = card index in the
  piece file); the engine's own reshuffle is replaced by this draw, so no hidden pile order
  exists. (In the rare ``end`` that wins before any card is turned the drawn card is never
  used.)

A history is thus: the seed, then decisions, each followed by the chance outcomes it needed.
Chance outcomes after the root are public (dice and cards are seen by everybody).

**Actions**: the compact codes of :mod:`rallye.rl.knightrider.encoding` (``NUM_ACTIONS``), one per
legal engine action. **Returns** (terminal only, zero-sum): +1 for the winner, -1/(players-1)
for the others; 0 for all when the turn limit ends the game.

**Observations.** The observation tensor is ``knightrider.encoding.encode_view`` of the player's
view (the game parameter ``obs_version=2``: ``knightrider.compact.encode_view``, the same values on
the 16 × 16 squares, 24,765 floats). The information-state tensor is that vector followed by a summary of the history:
per seat relative to the player, how many decisions of each kind it took (place, start,
enter, move, ram, kitt, detour, end, recover) / 50, and how often each die face came up / 50.
The information-state *string* is perfect recall: the player's observation after the root
(map, own hand), then every decision and every public chance outcome. The observation
string is the current view as text. Only the player's own private information is supported
(``IIGObservationType`` with ``private_info=SINGLE_PLAYER``). The tensors are large (67,005
floats): ``state.observation_tensor(p)`` makes pyspiel copy them into a Python list (~3 ms);
``open_spiel.python.observation.make_observation(game).set_from(state, p)`` fills a NumPy
buffer instead (~0.15 ms).

**Search.** ``resample_from_infostate(player, sampler)`` keeps everything public and deals
what ``player`` cannot know anew with a random stream seeded from ``sampler``: the other
players' hands (only with ``shuffle_cards``; otherwise every hand follows from the deal and
the cards played) keeping each hand's size, and, while the centre is still face down,
which face-down tiles lie in the centre and which in the pile. The resampled state's
``history()`` is empty (its chance outcomes were never taken); its information-state strings
are the original ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from rallye import knightrider as kr
from rallye.core.rng import Rng
from rallye.knightrider import GAME
from rallye.knightrider import geometry as g
from rallye.knightrider.state import State, evolve, evolve_chance
from rallye.rl.knightrider import compact as kcomp
from rallye.rl.knightrider import encoding as kenc
from rallye.rl.spiel_base import DecisionShortcuts, ObserverCache, SpielObserver, game_type

SHORT_NAME = "python_rallye_knightrider"
MAX_PLAYERS = 5
DECISION_KINDS = ("place", "start", "enter", "move", "ram", "kitt", "detour", "end", "recover")
HISTORY_SIZE = kenc.MAX_SEATS * len(DECISION_KINDS) + 6
_ENCODINGS: dict[int, Any] = {1: kenc, 2: kcomp}  # observation encoding by version
#: Decisions in one chase turn at most: 12 move segments (each uses a pip), a K.I.T.T.
#: card, a detour card and ``end``.
MAX_DECISIONS_PER_TURN = 15

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "turn_limit": 100,
    "quick_build": True,
    "seeds": 1000,
    "rolled_start": False,
    "tour": 0,
    "deal_spares": False,
    "shuffle_cards": False,
    "obs_version": 1,
}

_GAME_TYPE = game_type(SHORT_NAME, "Knight Rider (rallye)", MAX_PLAYERS, _DEFAULTS)


class _NeedChance(Exception):
    """Raised by the scripted Rng when ``apply`` needs a value no chance node gave yet."""

    def __init__(self, kind: str, n: int) -> None:
        super().__init__(kind, n)
        self.kind = kind
        self.n = n


@dataclass(frozen=True, slots=True)
class _ScriptRng(Rng):
    """An Rng that plays back chance outcomes and asks for more (``_NeedChance``)."""

    script: tuple[int, ...] = ()

    def die(self, sides: int = 6) -> tuple[int, Rng]:
        if not self.script:
            raise _NeedChance("die", sides)
        return self.script[0], _ScriptRng(0, self.script[1:])

    def randbelow(self, n: int) -> tuple[int, Rng]:
        if not self.script:
            raise _NeedChance("draw", n)
        v = self.script[0]
        if not 0 <= v < n:
            raise ValueError(f"scripted draw {v} outside 0..{n - 1}")
        return v, _ScriptRng(0, self.script[1:])

    def shuffle(self, items: Any) -> tuple[tuple[Any, ...], Rng]:
        # Only the escape reshuffle reaches here; cards are drawn by chance nodes instead.
        return tuple(items), self


_EMPTY_RNG = _ScriptRng(0)


class _Pending(NamedTuple):
    """A decision taken whose chance outcomes are still being drawn."""

    code: int
    action: kr.Action
    script: tuple[int, ...]
    card: int | None
    need: tuple[str, int]  # ("die" | "draw" | "card", outcomes)


class _Data(NamedTuple):
    """Everything a state holds; immutable, so ``clone`` shares it."""

    state: State | None  # the engine state (None before the root's seed)
    pending: _Pending | None
    root_obs: tuple[str, ...]  # per seat: observation string after the root
    public: tuple[str, ...]  # public record: decisions and chance outcomes
    counts: tuple[tuple[int, ...], ...]  # per seat: decisions per DECISION_KINDS
    dice: tuple[int, ...]  # how often each face came up
    returns: tuple[float, ...] | None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self


def _options(params: dict[str, Any]) -> tuple[int, kr.Options, int, int]:
    unknown = set(params) - set(_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; parameters are {sorted(_DEFAULTS)}")
    p = {**_DEFAULTS, **params}
    players = int(p["players"])
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Knight Rider is for 2 to 5 players, not {players}")
    if int(p["seeds"]) < 1:
        raise ValueError(f"seeds must be at least 1, not {p['seeds']}")
    if int(p["obs_version"]) not in (1, 2):
        raise ValueError(f"obs_version must be 1 or 2, not {p['obs_version']}")
    opts = kr.Options(
        quick_build=bool(p["quick_build"]),
        rolled_start=bool(p["rolled_start"]),
        tour=int(p["tour"]),
        deal_spares=bool(p["deal_spares"]),
        shuffle_cards=bool(p["shuffle_cards"]),
        turn_limit=int(p["turn_limit"]),
    )
    return players, opts, int(p["seeds"]), int(p["obs_version"])


class KnightRiderGame(ObserverCache, pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players, opts, seeds, obs_version = _options(params)
        assert opts.turn_limit is not None
        setup = (0 if opts.quick_build else 36) + 1 + players
        info = pyspiel.GameInfo(
            num_distinct_actions=kenc.NUM_ACTIONS,
            max_chance_outcomes=max(seeds, 36),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=setup + MAX_DECISIONS_PER_TURN * opts.turn_limit,
        )
        super().__init__(_GAME_TYPE, info, {**_DEFAULTS, **params})
        self.players = players
        self.options = opts
        self.seeds = seeds
        self.obs_version = obs_version  # the observation: encoding (version 1) or compact (2)
        self.n_cards = len(opts.pieces().escape)
        self.initial = _Data(
            state=None, pending=None, root_obs=(), public=(),
            counts=((0,) * len(DECISION_KINDS),) * players, dice=(0,) * 6, returns=None,
        )  # fmt: skip

    def new_initial_state(self, *args: Any) -> KnightRiderState:
        return KnightRiderState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KnightRiderObserver:
        return KnightRiderObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
            _ENCODINGS[self.obs_version].OBS_SIZE,
        )


_TABLES: dict[int, tuple[State, dict[int, kr.Action]]] = {}


def _table(state: State) -> dict[int, kr.Action]:
    """Compact code → legal action of the player to act (a small identity cache)."""
    hit = _TABLES.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    table = kenc.state_table(state)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[id(state)] = (state, table)
    return table


def _kind(code: int) -> str:
    if code >= kenc.RAM0:
        return "ram"
    if code >= kenc.MOVE0:
        return "move"
    if code >= kenc.DETOUR0:
        return "detour"
    if code >= kenc.START0:
        return "start"
    if code >= kenc.PLACE0:
        return "place"
    if code >= kenc.ENTER0:
        return "enter"
    if code >= kenc.KITT0:
        return "kitt"
    return "recover" if code == kenc.RECOVER_CODE else "end"


def _turned(state: State) -> tuple[int, ...]:
    return state.escape_deck[: state.escape_pos]


def _normal_deck(state: State, n_cards: int) -> tuple[int, ...]:
    """The turned cards, then the others in index order (their order is never used)."""
    turned = _turned(state)
    return turned + tuple(c for c in range(n_cards) if c not in turned)


class KnightRiderState(DecisionShortcuts, pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: KnightRiderGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._options = game.options
        self._seeds = game.seeds
        self._n_cards = game.n_cards
        self._obs_version = game.obs_version
        self._d: _Data = game.initial

    # -- OpenSpiel API -----------------------------------------------------------------
    def current_player(self) -> int:
        d = self._d
        if d.returns is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if d.state is None or d.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(d.state.current)

    def _legal_actions(self, player: int) -> list[int]:
        d = self._d
        s = d.state
        if s is None or d.pending is not None or d.returns is not None or player != s.current:
            return []
        return sorted(_table(s))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        d = self._d
        if d.state is None:
            return [(i, 1.0 / self._seeds) for i in range(self._seeds)]
        if d.pending is None:
            return []
        kind, n = d.pending.need
        if kind == "card":
            left = self._cards_left(d.state)
            return [(c, 1.0 / len(left)) for c in left]
        return [(i, 1.0 / n) for i in range(n)]

    def _cards_left(self, state: State) -> list[int]:
        turned = set(_turned(state))
        return [c for c in range(self._n_cards) if c not in turned]

    def _apply_action(self, action: int) -> None:
        d = self._d
        if d.state is None:
            self._root(int(action))
            return
        if d.pending is None:
            self._decide(int(action))
            return
        p = d.pending
        kind, n = p.need
        if kind == "card":
            if action not in self._cards_left(d.state):
                raise ValueError(f"chance outcome {action} is not an escape card still to turn")
            p = p._replace(card=int(action))
            token = f"|c{action}"
        else:
            if not 0 <= action < n:
                raise ValueError(f"chance outcome {action} outside 0..{n - 1}")
            value = action + 1 if kind == "die" else action
            p = p._replace(script=(*p.script, value))
            token = f"|d{value}" if kind == "die" else f"|t{action}"
            if kind == "die":
                dice = list(d.dice)
                dice[action] += 1
                d = d._replace(dice=tuple(dice))
        self._d = d._replace(public=(*d.public, token))
        self._resolve(p)

    def _root(self, seed: int) -> None:
        if not 0 <= seed < self._seeds:
            raise ValueError(f"chance outcome {seed} outside the seeds 0..{self._seeds - 1}")
        s = GAME.new({"players": self._players, "options": self._options}, seed)
        s = evolve_chance(s, rng=_EMPTY_RNG, escape_deck=_normal_deck(s, self._n_cards))
        self._d = self._d._replace(state=s)
        self._d = self._d._replace(root_obs=tuple(self.obs_string(p) for p in range(self._players)))

    def _decide(self, code: int) -> None:
        d = self._d
        s = d.state
        assert s is not None
        action = kenc.decode(code, _table(s))
        seat = s.current
        counts = list(d.counts)
        row = list(counts[seat])
        row[DECISION_KINDS.index(_kind(code))] += 1
        counts[seat] = tuple(row)
        self._d = d._replace(public=(*d.public, f"|P{seat}:{code}"), counts=tuple(counts))
        need: tuple[str, int] = ("card", self._n_cards) if isinstance(action, kr.End) else ("", 0)
        pending = _Pending(code, action, (), None, need)
        if need[0] == "card":
            self._d = self._d._replace(pending=pending)
            return
        self._resolve(pending)

    def _resolve(self, p: _Pending) -> None:
        d = self._d
        s = d.state
        assert s is not None
        s2 = evolve_chance(s, rng=_ScriptRng(0, p.script))
        if p.card is not None:
            turned = _turned(s)
            rest = tuple(c for c in range(self._n_cards) if c not in turned and c != p.card)
            s2 = evolve_chance(s2, escape_deck=(*turned, p.card, *rest))
        try:
            after = GAME.apply(s2, p.action)
        except _NeedChance as need:
            self._d = d._replace(pending=p._replace(need=(need.kind, need.n)))
            return
        if not isinstance(after.rng, _ScriptRng) or after.rng.script:
            raise RuntimeError("the engine left scripted chance outcomes unused")  # pragma: no cover
        deck = _normal_deck(after, self._n_cards)
        if deck != after.escape_deck:  # (keeping the same tuple keeps view_for's caches of it)
            after = evolve_chance(after, escape_deck=deck)
        returns = None
        if GAME.is_over(after):
            n = self._players
            w = after.winner
            returns = tuple(0.0 if w is None else (1.0 if q == w else -1.0 / (n - 1)) for q in range(n))
        self._d = d._replace(state=after, pending=None, returns=returns)

    def _action_to_string(self, player: int, action: int) -> str:
        d = self._d
        if player == pyspiel.PlayerId.CHANCE:
            if d.state is None:
                return f"seed {action}"
            kind = d.pending.need[0] if d.pending is not None else "die"
            if kind == "card":
                card = self._options.pieces().escape[action]
                return f"escape card {card.id} ({card.dx:+d},{card.dy:+d})"
            if kind == "draw":
                return f"draw #{action}"
            return f"roll {action + 1}"
        s = d.state
        if s is not None and d.pending is None and player == s.current:
            a = _table(s).get(int(action))
            if a is not None:
                return str(a)
        return kenc.describe_code(int(action))

    def __str__(self) -> str:
        d = self._d
        if d.state is None:
            return "choosing the seed"
        from rallye.rl.knightrider.adapter import render_knightrider

        text = render_knightrider(d.state, None)
        if d.pending is not None:
            text += f"\nresolving '{d.pending.action}': drawing a {d.pending.need[0]}"
        return text

    # -- search ------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KnightRiderState:
        """A state that ``player_id`` cannot tell from this one, hidden parts dealt anew."""
        d = self._d
        s = d.state
        if s is None:
            return self.get_game().new_initial_state()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        changes: dict[str, Any] = {}
        if self._options.shuffle_cards:
            changes["kitt_hands"] = _redeal(s.kitt_hands, player_id, rng)
            changes["detour_hands"] = _redeal(s.detour_hands, player_id, rng)
        if s.centre:
            pool = list(s.pile) + list(s.centre)
            rng.shuffle(pool)
            k = len(s.centre)
            changes["centre"] = tuple(sorted(pool[:k]))
            changes["pile"] = tuple(sorted(pool[k:]))
        out = KnightRiderState(self.get_game())
        out._d = d._replace(state=evolve(s, **changes)) if changes else d
        return out

    # -- strings and tensors used by the observer ---------------------------------------
    def info_string(self, player: int) -> str:
        d = self._d
        if d.state is None:
            return f"P{player} before the seed"
        return f"P{player} " + d.root_obs[player] + "".join(d.public)

    def obs_string(self, player: int) -> str:
        d = self._d
        if d.state is None:
            return f"P{player} before the seed"
        v = GAME.view_for(d.state, player)
        cars = " ".join(
            f"P{c.player}@{'-' if c.field is None else f'{c.field[0]},{c.field[1]}'}{g.DIRS[c.heading]}"
            + ("R" if c.roof else "")
            + ("M" if c.mantle else "")
            for c in v.cars
        )
        dets = " ".join(f"{x.kind[0]}{x.x},{x.y}/{x.rot}" for x in v.detours)
        return (
            f"P{player} {v.phase} turn {v.turn} P{v.current} to act roll {v.roll} pips {v.pips}-{v.used}"
            f" {int(v.moved)}{int(v.move_done)}{int(v.kitt_played)}{int(v.detour_played)}"
            f" | villain {v.villain} | cars {cars} | detours {dets}"
            f" | hand {v.hand_kitt} {v.hand_detour} sizes {v.hand_sizes} played {len(v.played)}"
            f" | escape {[e.id for e in v.escape_turned]} | drawn {v.drawn} face-down {v.face_down}"
            f" | tiles " + " ".join(f"{t.number}@{t.x},{t.y}/{t.rot}" for t in v.tiles)
        )

    def fill_tensor(self, player: int, out: np.ndarray, history: bool) -> None:
        d = self._d
        if d.state is None:
            out.fill(0.0)
            return
        encoding = _ENCODINGS[self._obs_version]
        size = encoding.OBS_SIZE
        encoding.encode_view_into(GAME.view_for(d.state, player), out[:size], self._options)
        if history:
            n = self._players
            block = out[size:]
            block.fill(0.0)
            k = len(DECISION_KINDS)
            for r in range(n):
                block[r * k : (r + 1) * k] = np.minimum(np.asarray(d.counts[(player + r) % n]) / 50.0, 10.0)
            block[kenc.MAX_SEATS * k :] = np.minimum(np.asarray(d.dice) / 50.0, 10.0)


def _redeal(hands: tuple[tuple[int, ...], ...], keep: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """The cards of every hand but ``keep``'s dealt anew among them, each keeping its size."""
    pool = [k for q, h in enumerate(hands) if q != keep for k, c in enumerate(h) for _ in range(c)]
    rng.shuffle(pool)
    out = []
    pos = 0
    for q, h in enumerate(hands):
        if q == keep:
            out.append(h)
            continue
        size = sum(h)
        counts = [0] * len(h)
        for k in pool[pos : pos + size]:
            counts[k] += 1
        pos += size
        out.append(tuple(counts))
    return tuple(out)


class KnightRiderObserver(SpielObserver):
    """Observation and information-state tensors and strings (PyObserver interface); the
    information state's history is ``dict["history"]`` (``HISTORY_SIZE`` floats)."""

    def __init__(self, iig_obs_type: Any, params: Any, obs_size: int = kenc.OBS_SIZE) -> None:
        super().__init__(iig_obs_type, params, SHORT_NAME, obs_size, ("history", (HISTORY_SIZE,)))


pyspiel.register_game(_GAME_TYPE, KnightRiderGame)
