"""Mille Bornes (one hand) as an OpenSpiel game, ``python_rallye_mille``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import rallye.rl.mille.spiel
    game = pyspiel.load_game("python_rallye_mille(edition=hu,players=3)")

Parameters: ``edition`` (an edition key or alias, default ``wm2006``) and ``players``
(default 2). The game is **one hand**: it ends when the engine scores the first hand.

**Chance.** The hand's deck order is dealt by chance nodes, one per deck position, before
the first decision: each outcome is a card id (0..18, ``CARDS`` order) with probability
proportional to the copies of it not dealt yet. The engine then deals and draws from that
order exactly as it does from its own shuffle (``mille.new_match(..., deck=...)``). So a
history is the deck (``deck_size`` chance outcomes) followed by the decisions.

**Actions**: the engine's 70 codes (``rallye.mille.actions``; attack codes name absolute
sides). **Returns** (terminal only, zero-sum): each side's hand points minus the mean of the
other sides' hand points, / 1000; every seat gets its side's value.

**Observations.** The observation tensor is ``rallye.rl.mille.encoding.encode_view`` of the
player's view. The information-state tensor is that vector followed by, for each seat
relative to the player (own seat first), how many times each action code has been taken
this hand / 10 (6 × 70): a summary of the public history, not its order. The
information-state *string* is perfect recall: the player's dealt hand, then every decision
(seat and action, with any coup fourré it provoked) and the player's hand after it. The
observation string is the current view as text. Only the player's own private information
is supported (``IIGObservationType`` with ``private_info=SINGLE_PLAYER``).

**Search.** ``resample_from_infostate(player, sampler)`` deals the cards ``player`` has not
seen (the others' hands and the draw pile) uniformly at random, keeping every hand's size,
with a random stream seeded from ``sampler``. The resampled state's ``history()`` is empty
(its chance outcomes were never taken); other seats' information-state strings in it are
their current observation string after ``resampled|``.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from rallye import mille
from rallye.mille import GAME
from rallye.mille.cards import CARD_INDEX, CARDS
from rallye.mille.edition import Edition
from rallye.mille.state import OVER_PHASE, MilleState
from rallye.rl.mille import encoding as menc
from rallye.rl.mille.encoding import CODE_BY_ID
from rallye.rl.spiel_base import DecisionShortcuts, ObserverCache, SpielObserver, game_type

SHORT_NAME = "python_rallye_mille"
MAX_PLAYERS = 6
_UTILITY_BOUND = 10.0  # |returns| < 10: hand points are below ~5000 apart

_GAME_TYPE = game_type(SHORT_NAME, "Mille Bornes (rallye, one hand)", MAX_PLAYERS, {"edition": "wm2006", "players": 2})


class _Move(NamedTuple):
    """One decision, linked to the one before it (a persistent list: appending is O(1) and
    clones share it). The strings and counts the observers need are built from it only
    when asked for."""

    prev: _Move | None
    seat: int
    action: int
    before: MilleState
    after: MilleState


class _Data(NamedTuple):
    """Everything a state holds; immutable, so ``clone`` (a deepcopy of the state's
    attributes) shares it instead of copying the edition and the engine state."""

    edition: Edition
    players: int
    deck: tuple[int, ...]  # card ids dealt by chance so far (deck positions)
    left: tuple[int, ...]  # copies of each card id not dealt yet
    state: MilleState | None  # the engine state once the deck is complete
    dealt: MilleState | None  # the engine state right after the deal
    last: _Move | None  # the last decision (None: none yet)
    resampled: tuple[bool, ...]  # per seat: its private record was lost by a resample
    returns: tuple[float, ...] | None  # set when the hand is over

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self

    def moves(self) -> list[_Move]:
        """The decisions so far, first first."""
        out: list[_Move] = []
        m = self.last
        while m is not None:
            out.append(m)
            m = m.prev
        out.reverse()
        return out


class MilleGame(ObserverCache, pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        edition = mille.get_edition(str(params.get("edition", "wm2006")))
        players = int(params.get("players", 2))
        edition.sides_for(players)  # a ConfigError naming the allowed player counts
        deck = edition.deck_for(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=mille.NUM_ACTIONS,
            max_chance_outcomes=len(CARDS),
            num_players=players,
            min_utility=-_UTILITY_BOUND,
            max_utility=_UTILITY_BOUND,
            utility_sum=0.0,
            max_game_length=2 * len(deck) + 4,  # every decision but extend/decline spends a card
        )
        super().__init__(_GAME_TYPE, info, {"edition": edition.key, "players": players})
        self.edition = edition
        self.players = players
        left = [0] * len(CARDS)
        for c in deck:
            left[CARD_INDEX[c]] += 1
        self.initial = _Data(
            edition=edition, players=players, deck=(), left=tuple(left), state=None, dealt=None,
            last=None, resampled=(False,) * players, returns=None,
        )  # fmt: skip

    def new_initial_state(self, *args: Any) -> MilleSpielState:
        return MilleSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MilleObserver:
        return MilleObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class MilleSpielState(DecisionShortcuts, pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: MilleGame) -> None:
        super().__init__(game)
        self._d: _Data = game.initial

    # -- OpenSpiel API -----------------------------------------------------------------
    def current_player(self) -> int:
        d = self._d
        if d.returns is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if d.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(d.state.current)

    def _legal_actions(self, player: int) -> list[int]:
        s = self._d.state
        if s is None or player != s.current:
            return []
        code = CODE_BY_ID
        return sorted([code[id(a)] for a in GAME.legal_actions(s)])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._d.left
        total = sum(left)
        return [(i, k / total) for i, k in enumerate(left) if k]

    def _apply_action(self, action: int) -> None:
        d = self._d
        if d.state is None:
            if not 0 <= action < len(CARDS) or not d.left[action]:
                raise ValueError(f"chance outcome {action} is not a card id still in the deck")
            left = list(d.left)
            left[action] -= 1
            deck = (*d.deck, action)
            if sum(left):
                self._d = d._replace(deck=deck, left=tuple(left))
                return
            # (the engine's own new_match: the face deals from a seed, here chance dealt the deck)
            state = mille.new_match(d.edition, d.players, 0, deck=tuple(CARDS[i] for i in deck))
            self._d = d._replace(deck=deck, left=tuple(left), state=state, dealt=state)
            return
        s = d.state
        after = GAME.apply(s, GAME.decode_action(int(action)))
        returns = None
        if after.hand_no != s.hand_no or after.phase == OVER_PHASE:
            pts = after.sheets[0].hand_totals
            n = len(pts)
            total = sum(pts)
            side_value = [(p - (total - p) / (n - 1)) / 1000.0 for p in pts]
            returns = tuple(side_value[after.side_of[p]] for p in range(d.players))
        self._d = d._replace(state=after, last=_Move(d.last, s.current, int(action), s, after), returns=returns)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{CARDS[action]}"
        return GAME.format_action(GAME.decode_action(int(action)))

    def __str__(self) -> str:
        d = self._d
        if d.state is None:
            return f"dealing: {len(d.deck)} of {len(d.deck) + sum(d.left)} cards"
        from rallye.rl.mille.adapter import render_mille

        return render_mille(d.state, None) + "\n" + " ".join(str(e) for e in d.state.events[-6:])

    # -- search ------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MilleSpielState:
        """A state that ``player_id`` cannot tell from this one, the hidden cards dealt anew."""
        d = self._d
        s = d.state
        if s is None:
            return self.get_game().new_initial_state()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        n = d.players
        hidden: list[str] = list(s.draw_pile)
        for p in range(n):
            if p != player_id:
                hidden += s.hands[p]
        rng.shuffle(hidden)
        hands = list(s.hands)
        pos = 0
        for p in range(n):
            if p != player_id:
                k = len(s.hands[p])
                hands[p] = tuple(sorted(hidden[pos : pos + k], key=CARD_INDEX.__getitem__))
                pos += k
        pile = tuple(hidden[pos:])
        new = s._replace(deck=s.deck[: s.draw_pos] + pile, hands=tuple(hands))
        out = MilleSpielState(self.get_game())
        out._d = d._replace(
            state=new,
            resampled=tuple(r or p != player_id for p, r in enumerate(d.resampled)),
        )
        return out

    # -- strings used by the observer ----------------------------------------------------
    def info_string(self, player: int) -> str:
        d = self._d
        if d.state is None or d.dealt is None:
            return f"P{player} dealing {len(d.deck)}"
        if d.resampled[player]:
            return "resampled|" + self.obs_string(player)
        parts = [f"P{player} deal {_hand_token(d.dealt, player)}"]
        for m in d.moves():
            token = f"|P{m.seat}:{m.action}"
            b, a = m.before, m.after
            if a.hand_no == b.hand_no and sum(len(t.coups) for t in a.tableaus) > sum(len(t.coups) for t in b.tableaus):
                token += "!cf"
            parts.append(token + " " + _hand_token(a, player))
        return "".join(parts)

    def obs_string(self, player: int) -> str:
        d = self._d
        if d.state is None:
            return f"P{player} dealing {len(d.deck)}"
        v = GAME.view_for(d.state, player)
        tabs = " ".join(
            f"[S{i + 1} {t.km} {'/'.join(t.battle[-1:]) or '-'} {'/'.join(t.speed[-1:]) or '-'} "
            f"{','.join(t.safeties)} {','.join(t.coups)} {'|'.join(t.distance)}]"
            for i, t in enumerate(v.tableaus)
        )
        return (
            f"P{player} {v.phase} P{v.current} to act, target {v.target}, draw {v.draw_count}, "
            f"hands {v.hand_sizes}, ext {v.extended_by}, cf {v.cf_turn} | hand {' '.join(v.hand)} | "
            f"{tabs} | discard {' '.join(v.discard)}"
        )

    def fill_tensor(self, player: int, out: np.ndarray, history: bool, encoder: menc.ViewEncoder | None = None) -> None:
        """The observation (and with ``history`` the action counts) of ``player`` into ``out``;
        ``encoder`` (that player's) makes the observation incremental."""
        d = self._d
        obs = out[: menc.OBS_SIZE]
        if d.state is None:
            out.fill(0.0)
            return
        view = GAME.view_for(d.state, player)
        if encoder is not None:
            encoder.encode_into(view, obs)
        else:
            menc.encode_view_into(view, obs)
        if history:
            n = d.players
            counts = np.zeros((menc.MAX_SEATS, mille.NUM_ACTIONS), np.float32)
            for m in d.moves():
                counts[(m.seat - player) % n, m.action] += 1.0
            out[menc.OBS_SIZE :] = (counts / 10.0).ravel()


def _hand_token(state: MilleState, seat: int) -> str:
    return "(" + " ".join(state.hands[seat]) + ")"


class MilleObserver(SpielObserver):
    """Observation and information-state tensors and strings (PyObserver interface); the
    information state's history is ``dict["action_counts"]`` (seats × action codes)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        super().__init__(
            iig_obs_type, params, SHORT_NAME, menc.OBS_SIZE, ("action_counts", (menc.MAX_SEATS, mille.NUM_ACTIONS))
        )
        self._encoders = [menc.ViewEncoder() for _ in range(MAX_PLAYERS)]

    def set_from(self, state: MilleSpielState, player: int) -> None:  # type: ignore[override]
        state.fill_tensor(player, self.tensor, self.perfect_recall, self._encoders[player])


pyspiel.register_game(_GAME_TYPE, MilleGame)
