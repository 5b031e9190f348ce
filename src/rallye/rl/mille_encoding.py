"""Mille Bornes encodings for learning: a view as a float32 vector, a legal-action mask,
and a separate *oracle* encoding of the full state for critics.

**Observation encoding, version** :data:`OBS_VERSION` (``encode_view``). Computed from a
:class:`~rallye.mille.view.MilleView` only, so it cannot depend on cards the player has not
seen (``tests/rl`` swaps hidden cards and checks the vector is unchanged). One fixed length,
:data:`OBS_SIZE`, for every edition and player count. Sides and seats are *relative to the
observer*: slot 0 is my side (my seat), then the other sides (seats) in seat order after
mine; slots past the table's count are zero and flagged absent. Blocks, in order (the names
and sizes are :data:`OBS_FIELDS`; ``field_slice(name)`` gives a block's slice):

=================  ====  ==============================================================
block              size  meaning
=================  ====  ==============================================================
hand               19    count of each card id (``CARDS`` order) in my hand (0..7)
unseen             19    per card id: copies I have not seen (others' hands + draw pile)
                         / copies in the deck (0..1)
discard            19    per card id: copies on the discard pile / copies in the deck
draw               3     draw pile size / deck size; draw pile empty; target km / 1000
phase              6     play phase; extension decision pending; my turn; coup-fourré
                         turn; hand extended by my side; extended by another side
my_side            6     one-hot of my *absolute* side index (attack codes use absolute
                         sides: see ``rallye.mille.actions``)
hand_sizes         6     cards held per seat / 7, my seat first then seat order
rules              4     extension allowed; empty draw pile ends the hand; extra turn
                         after a safety; this is a team game
match              2     hand number / 10 (capped at 1); match target / 10000 (0 if the
                         edition plays a single hand)
sides              6×31  per side, my side first: present; km / 1000; count of each
                         distance card played / 10 (5); 200s played / 2; battle-pile top
                         one-hot (empty, ROLL, STOP, OUT_OF_GAS, FLAT_TIRE, ACCIDENT,
                         GASOLINE, SPARE_TIRE, REPAIRS: 9); speed-pile top one-hot
                         (empty, SPEED_LIMIT, END_OF_LIMIT: 3); rolling; under a limit;
                         each safety held (4, ``RIGHT_OF_WAY EXTRA_TANK PUNCTURE_PROOF
                         DRIVING_ACE``); each of them made as a coup fourré (4); match
                         total / 1000 (clipped to ±20)
=================  ====  ==============================================================

Every value lies in ``[-20, 20]`` (the Box bounds the environments declare).

**Action space**: the engine's fixed codes, :data:`~rallye.mille.actions.NUM_ACTIONS` = 70
(``0..18`` play, ``19..37`` discard, ``38..67`` attack with an *absolute* side, ``68``
extend, ``69`` decline). ``action_mask`` is an ``int8`` vector with 1 at each legal code,
derived from the engine's ``legal_actions`` (the one source of legality).

**Oracle encoding** (``encode_oracle``; not an observation: it reads the full state and
exists to train critics): ``encode_view`` of that player, then every seat's hand as card
counts (6×19, relative seat order), the draw pile's composition (19 counts / deck copies)
and the next :data:`ORACLE_ORDER` cards of the draw pile, one-hot (``ORACLE_ORDER``×19, zero
rows past its end). Size :data:`ORACLE_SIZE`.

>>> from rallye import mille
>>> s = mille.new_match("wm2006", 2, seed=1)
>>> x = encode_view(mille.view_for(s, 0))
>>> x.shape, x.dtype.name, OBS_SIZE
((270,), 'float32', 270)
>>> int(x[field_slice("hand")].sum())   # seat 0 is to act and holds 7 cards
7
>>> m = action_mask(mille.view_for(s, 0))
>>> m.dtype.name, int(m.sum()) == len(mille.legal_actions(s))
('int8', True)
"""

from __future__ import annotations

import struct
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from rallye.mille.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from rallye.mille.cards import CARD_INDEX, CARDS, DISTANCE_KM, SAFETIES
from rallye.mille.edition import Edition
from rallye.mille.engine import legal_from_view
from rallye.mille.state import EXTEND_PHASE, PLAY_PHASE, MilleState, Tableau
from rallye.mille.view import MilleView, view_for

OBS_VERSION = 1
MAX_SIDES = 6
MAX_SEATS = 6
N_CARDS = len(CARDS)
#: Bounds of every encoded value (the environments' Box bounds).
OBS_LOW, OBS_HIGH = -20.0, 20.0

_DISTANCES = tuple(DISTANCE_KM)  # D25 .. D200
_BATTLE_TOPS = (None, "ROLL", "STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT", "GASOLINE", "SPARE_TIRE", "REPAIRS")
_SPEED_TOPS = (None, "SPEED_LIMIT", "END_OF_LIMIT")
_SAFETY_ORDER = ("RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE")
assert set(_SAFETY_ORDER) == SAFETIES  # module invariant, not a game rule
SIDE_SIZE = 1 + 1 + len(_DISTANCES) + 1 + len(_BATTLE_TOPS) + len(_SPEED_TOPS) + 2 + 4 + 4 + 1

#: ``(name, size)`` of each block of the observation, in order.
OBS_FIELDS: tuple[tuple[str, int], ...] = (
    ("hand", N_CARDS),
    ("unseen", N_CARDS),
    ("discard", N_CARDS),
    ("draw", 3),
    ("phase", 6),
    ("my_side", MAX_SIDES),
    ("hand_sizes", MAX_SEATS),
    ("rules", 4),
    ("match", 2),
    ("sides", MAX_SIDES * SIDE_SIZE),
)
OBS_SIZE = sum(n for _, n in OBS_FIELDS)
ORACLE_ORDER = 12
ORACLE_SIZE = OBS_SIZE + MAX_SEATS * N_CARDS + N_CARDS + ORACLE_ORDER * N_CARDS


def field_slice(name: str) -> slice:
    """The slice of block ``name`` (see :data:`OBS_FIELDS`) in an observation vector."""
    start = 0
    for n, size in OBS_FIELDS:
        if n == name:
            return slice(start, start + size)
        start += size
    raise KeyError(f"no observation block {name!r}; blocks are {', '.join(n for n, _ in OBS_FIELDS)}")


class _Table:
    """Per (edition, player count) constants of the encoding."""

    def __init__(self, edition: Edition, players: int) -> None:
        c = Counter(edition.deck_for(players))
        self.edition = edition  # kept so the id used as a cache key stays this object's
        self.copies = tuple(c[card] for card in CARDS)
        self.inverse = tuple(1.0 / k if k else 0.0 for k in self.copies)
        team = any(len(s) > 1 for s in edition.sides_for(players))
        self.flags = (
            float(edition.extension.allowed),
            float(edition.empty_draw_ends_hand),
            float(edition.extra_turn_after_safety),
            float(team),
        )
        self.match_target = (edition.match_target or 0) / 10000.0


_TABLES: dict[tuple[int, int], _Table] = {}


def _table(edition: Edition, players: int) -> _Table:
    # Keyed by identity: hashing a frozen Edition hashes every field, on every step.
    t = _TABLES.get((id(edition), players))
    if t is None or t.edition is not edition:
        t = _TABLES[(id(edition), players)] = _Table(edition, players)
    return t


def _counts(cards: Iterable[str]) -> list[int]:
    out = [0] * N_CARDS
    for c in cards:
        out[CARD_INDEX[c]] += 1
    return out


class _IdentityCache:
    """Values computed from immutable objects, looked up by identity (the engine shares
    unchanged hands, piles and tableaus between successive states, so hits are the rule;
    hashing them by value would cost more than the lookup saves)."""

    def __init__(self, fn: Callable[[Any], Any], size: int = 4096) -> None:
        self.fn = fn
        self.size = size
        self.data: dict[int, tuple[Any, Any]] = {}

    def __call__(self, obj: Any) -> Any:
        hit = self.data.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        if len(self.data) >= self.size:
            self.data.clear()
        value = self.fn(obj)
        self.data[id(obj)] = (obj, value)
        return value


_DIST_AT = {d: 2 + i for i, d in enumerate(_DISTANCES)}
_BATTLE_AT = {t: 8 + i for i, t in enumerate(_BATTLE_TOPS)}
_SPEED_AT = {t: 8 + len(_BATTLE_TOPS) + i for i, t in enumerate(_SPEED_TOPS)}
_ROLLING_AT = 8 + len(_BATTLE_TOPS) + len(_SPEED_TOPS)
_SAFETY_AT = {c: _ROLLING_AT + 2 + i for i, c in enumerate(_SAFETY_ORDER)}


def _tableau_block(tab: Tableau) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(the side block less its match total, the card counts on this tableau)."""
    f = [0.0] * (SIDE_SIZE - 1)
    f[0] = 1.0
    f[1] = tab.km / 1000.0
    for d in tab.distance:
        f[_DIST_AT[d]] += 0.1
    f[7] = tab.d200 / 2.0
    f[_BATTLE_AT[tab.battle[-1] if tab.battle else None]] = 1.0
    f[_SPEED_AT[tab.speed[-1] if tab.speed else None]] = 1.0
    f[_ROLLING_AT] = float(tab.rolling)
    f[_ROLLING_AT + 1] = float(tab.limited)
    for c in tab.safeties:
        f[_SAFETY_AT[c]] = 1.0
    for c in tab.coups:
        f[_SAFETY_AT[c] + 4] = 1.0
    return tuple(f), tuple(_counts(tab.cards()))


class _DiscardCounts:
    """Card counts of the discard pile, updated from the last pile seen when the new one
    extends it (the pile only grows during a hand)."""

    def __init__(self) -> None:
        self.last: tuple[str, ...] = ()
        self.counts: list[int] = [0] * N_CARDS

    def __call__(self, pile: tuple[str, ...]) -> list[int]:
        last = self.last
        if pile is not last:
            k = len(last)
            if len(pile) >= k and pile[:k] == last:
                counts = self.counts[:]
                for c in pile[k:]:
                    counts[CARD_INDEX[c]] += 1
            else:
                counts = _counts(pile)
            self.last, self.counts = pile, counts
        return self.counts


_discard_counts = _DiscardCounts()
_tableau_features = _IdentityCache(_tableau_block)
_ZERO_SIDE = (0.0,) * SIDE_SIZE
_PACK = struct.Struct(f"{OBS_SIZE}f")
_ONE_HOT_SIDE = tuple(tuple(float(i == k) for i in range(MAX_SIDES)) for k in range(MAX_SIDES))


class _PublicCache:
    """The public part of the encoding (sides block, discard block, and the copies not on
    the table nor the discard pile), keyed by the identity of the view's tableaus, totals
    and discard tuples and the observer's side: it changes only when one of them does."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.data: dict[tuple[int, int, int, int, int], tuple[tuple[Any, ...], Any]] = {}

    def get(self, view: MilleView, table: _Table) -> tuple[tuple[float, ...], list[float], list[int]]:
        tabs, totals, discard = view.tableaus, view.totals, view.discard
        key = (id(tabs), id(totals), id(discard), id(table), view.side)
        hit = self.data.get(key)
        if hit is not None:
            keep, value = hit
            if keep[0] is tabs and keep[1] is totals and keep[2] is discard and keep[3] is table:
                return value  # type: ignore[no-any-return]
        if len(self.data) >= self.size:
            self.data.clear()
        value = _public(view, table)
        self.data[key] = ((tabs, totals, discard, table), value)
        return value


def _public(view: MilleView, table: _Table) -> tuple[tuple[float, ...], list[float], list[int]]:
    n_sides = len(view.tableaus)
    my = view.side
    totals = view.totals
    sides: tuple[float, ...] = ()
    left = list(table.copies)
    for k in range(n_sides):
        s = (my + k) % n_sides
        feats, tcounts = _tableau_features(view.tableaus[s])
        total = totals[s] / 1000.0 if totals else 0.0
        sides += (*feats, OBS_LOW if total < OBS_LOW else OBS_HIGH if total > OBS_HIGH else total)
        left = [a - b for a, b in zip(left, tcounts, strict=True)]
    sides += _ZERO_SIDE * (MAX_SIDES - n_sides)
    disc = _discard_counts(view.discard)
    left = [a - b for a, b in zip(left, disc, strict=True)]
    return sides, [d * i for d, i in zip(disc, table.inverse, strict=True)], left


_public_cache = _PublicCache()


def _view_list(view: MilleView) -> list[float]:
    ed = view.edition
    n = view.n_players
    if n > MAX_SEATS or len(view.tableaus) > MAX_SIDES:
        raise ValueError(f"the encoding holds at most {MAX_SEATS} seats and {MAX_SIDES} sides")
    table = _table(ed, n)
    sides, disc_block, left = _public_cache.get(view, table)
    hand = _counts(view.hand)
    my = view.side
    out: list[float] = [float(h) for h in hand]
    out += [(c - h) * i for c, h, i in zip(left, hand, table.inverse, strict=True)]
    out += disc_block
    deck_size = view.deck_size or 1
    ext = view.extended_by
    mine = view.current == view.seat and view.phase != "over"
    sizes = view.hand_sizes
    seat = view.seat
    out += (
        view.draw_count / deck_size,
        float(view.draw_count == 0),
        view.target / 1000.0,
        float(view.phase == PLAY_PHASE),
        float(view.phase == EXTEND_PHASE),
        float(mine),
        float(view.cf_turn and mine),
        float(ext is not None and ext == my),
        float(ext is not None and ext != my),
    )
    out += _ONE_HOT_SIDE[my]
    out += [sizes[(seat + k) % n] / 7.0 if k < n else 0.0 for k in range(MAX_SEATS)]
    out += table.flags
    out.append(min(view.hand_no / 10.0, 1.0))
    out.append(table.match_target)
    out += sides
    return out


def encode_view(view: MilleView) -> np.ndarray:
    """The observation vector (float32, :data:`OBS_SIZE`) of a player's view."""
    buf = bytearray(_PACK.size)
    _PACK.pack_into(buf, 0, *_view_list(view))
    return np.frombuffer(buf, dtype=np.float32)


def encode_view_into(view: MilleView, out: np.ndarray) -> np.ndarray:
    """``encode_view`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
    out[:] = _view_list(view)
    return out


# ----------------------------------------------------------------------------- incremental

_HAND_AT, _UNSEEN_AT, _DISCARD_AT = 0, N_CARDS, 2 * N_CARDS
_DRAW_AT = 3 * N_CARDS  # the draw (3) and phase (6) blocks: 9 values in a row
_MY_SIDE_AT = _DRAW_AT + 9
_SIZES_AT = _MY_SIDE_AT + MAX_SIDES
_RULES_AT = _SIZES_AT + MAX_SEATS
_MATCH_AT = _RULES_AT + 4
_SIDES_AT = _MATCH_AT + 2
assert _SIDES_AT + MAX_SIDES * SIDE_SIZE == OBS_SIZE  # module invariant
_ZEROS = bytes(4 * OBS_SIZE)

# Card counts packed into one integer, 16 bits a card id (CARDS order, lowest first), so
# that adding or removing a pile's counts is one integer operation. Differences are taken
# over a bias of 2**14 in every lane: with fewer than 2**11 cards in each of the (at most
# 8) piles a view holds, no lane can borrow from the next. A view past that limit (no game
# makes one) is encoded by the reference encoder instead.
_LANE = {c: 1 << (16 * i) for i, c in enumerate(CARDS)}
_BIAS = 1 << 14
_BIASES = sum(_BIAS << (16 * i) for i in range(N_CARDS))
_CLEAR = tuple(~(0xFFFF << (16 * i)) for i in range(N_CARDS))
_LANE_LIMIT = 1 << 11  # cards per pile: 8 piles of them stay within the bias


class _TooMany(Exception):
    """A view holds more cards than the packed counts allow (see ``_LANE_LIMIT``)."""


def _packed(cards: Iterable[str]) -> int:
    return sum(map(_LANE.__getitem__, cards))


def _side_block(tab: Tableau) -> tuple[array, int]:  # type: ignore[type-arg]
    """(the side block less its match total as float32 values, the packed card counts)."""
    feats, counts = _tableau_block(tab)
    if max(counts) >= _LANE_LIMIT:
        raise _TooMany
    return array("f", feats), _packed(tab.cards())


_side_blocks = _IdentityCache(_side_block)


class ViewEncoder:
    """``encode_view`` for one observer, kept up to date between calls.

    It keeps the last vector it produced and rewrites only the blocks whose inputs changed
    since the last view it was given: the engine shares every unchanged hand, pile, tableau
    and total between successive states, so "changed" is an identity test, and card counts
    are kept packed in one integer so a changed pile costs one addition. A typical decision
    rewrites the hand, the unseen counts, one or two sides, the discard and the scalars.
    Any view may be given at any time (another seat, edition or match starts afresh). It
    reads the view only, like ``encode_view``, which stays the reference: ``tests/rl``
    checks the two agree bit for bit over many thousands of random decisions in every
    edition and player count. One encoder per observer seat keeps the most work shared.

    >>> from rallye import mille
    >>> s = mille.new_match("hu", 3, seed=2)
    >>> enc = ViewEncoder()
    >>> bool((enc.encode(mille.view_for(s, 1)) == encode_view(mille.view_for(s, 1))).all())
    True
    """

    __slots__ = (
        "_arr", "_discard", "_edition", "_hand", "_hand_packed", "_inverse", "_left", "_n", "_order",
        "_pile_packed", "_seat", "_side", "_tab_at", "_tab_packed", "_tabs", "_totals",
    )  # fmt: skip

    def __init__(self) -> None:
        self._edition: Edition | None = None
        self._n = self._seat = self._side = -1
        self._arr = array("f", _ZEROS)
        self._order: tuple[int, ...] = ()
        self._inverse: tuple[float, ...] = ()
        self._hand: tuple[str, ...] | None = None
        self._tabs: tuple[Tableau, ...] | None = None
        self._totals: tuple[int, ...] | None = None
        self._discard: tuple[str, ...] | None = None
        self._tab_at: list[Tableau | None] = []
        self._tab_packed: list[int] = []
        self._hand_packed = self._pile_packed = self._left = 0

    def _start(self, view: MilleView) -> None:
        """A new observer (seat, player count or edition): every block is rebuilt."""
        n, n_sides = view.n_players, len(view.tableaus)
        if n > MAX_SEATS or n_sides > MAX_SIDES:
            raise ValueError(f"the encoding holds at most {MAX_SEATS} seats and {MAX_SIDES} sides")
        table = _table(view.edition, n)
        self._edition, self._n, self._seat, self._side = view.edition, n, view.seat, view.side
        self._inverse = table.inverse
        my = view.side
        self._order = tuple((my + k) % n_sides for k in range(n_sides))
        arr = self._arr = array("f", _ZEROS)
        arr[_MY_SIDE_AT : _MY_SIDE_AT + MAX_SIDES] = array("f", _ONE_HOT_SIDE[my])
        arr[_RULES_AT : _RULES_AT + 4] = array("f", table.flags)
        arr[_MATCH_AT + 1] = table.match_target
        self._hand = self._tabs = self._totals = self._discard = None
        self._tab_at = [None] * n_sides
        self._tab_packed = [0] * n_sides
        self._hand_packed = self._pile_packed = 0
        # copies not on the table nor the discard pile yet, biased (see _LANE); the unseen
        # block is written for it now, so later calls rewrite only the lanes that change
        self._left = _BIASES + sum(k << (16 * i) for i, k in enumerate(table.copies))
        arr[_UNSEEN_AT : _UNSEEN_AT + N_CARDS] = array(
            "f", [k * v for k, v in zip(table.copies, table.inverse, strict=True)]
        )

    def _update(self, view: MilleView) -> array:  # type: ignore[type-arg]
        if view.edition is not self._edition or view.seat != self._seat or view.n_players != self._n:
            self._start(view)
        arr = self._arr
        left = self._left
        tabs = view.tableaus
        if tabs is not self._tabs:
            tab_at, tab_packed = self._tab_at, self._tab_packed
            for k, s in enumerate(self._order):
                tab = tabs[s]
                if tab is not tab_at[k]:
                    feats, packed = _side_blocks(tab)
                    at = _SIDES_AT + k * SIDE_SIZE
                    arr[at : at + SIDE_SIZE - 1] = feats
                    left += tab_packed[k] - packed
                    tab_at[k], tab_packed[k] = tab, packed
            self._tabs = tabs
        totals = view.totals
        if totals is not self._totals:
            at = _SIDES_AT + SIDE_SIZE - 1
            for s in self._order:
                total = totals[s] / 1000.0 if totals else 0.0
                arr[at] = OBS_LOW if total < OBS_LOW else OBS_HIGH if total > OBS_HIGH else total
                at += SIDE_SIZE
            self._totals = totals
        inverse = self._inverse
        pile = view.discard
        last = self._discard
        if pile is not last:
            k = len(last) if last is not None else 0
            if last is not None and len(pile) >= k and pile[:k] == last:
                added = _packed(pile[k:])  # the pile only grows during a hand
            else:  # a new hand, or a view of another match: count afresh
                if len(pile) >= _LANE_LIMIT:
                    raise _TooMany
                added = _packed(pile) - self._pile_packed
            if added:
                old = self._pile_packed
                new = self._pile_packed = old + added
                left -= added
                x = old ^ new
                while x:  # rewrite the lanes that changed
                    i = ((x & -x).bit_length() - 1) >> 4
                    arr[_DISCARD_AT + i] = ((new >> (16 * i)) & 0xFFFF) * inverse[i]
                    x &= _CLEAR[i]
            self._discard = pile
        hand = view.hand
        old_hand = self._hand_packed
        if hand is not self._hand:
            if len(hand) >= _LANE_LIMIT:
                raise _TooMany
            hp = self._hand_packed = _packed(hand)
            x = old_hand ^ hp
            while x:
                i = ((x & -x).bit_length() - 1) >> 4
                arr[_HAND_AT + i] = (hp >> (16 * i)) & 0xFFFF
                x &= _CLEAR[i]
            self._hand = hand
        else:
            hp = old_hand
        old_left = self._left
        if left != old_left or hp != old_hand:
            self._left = left
            unseen = left - hp
            x = (old_left - old_hand) ^ unseen
            while x:
                i = ((x & -x).bit_length() - 1) >> 4
                arr[_UNSEEN_AT + i] = (((unseen >> (16 * i)) & 0xFFFF) - _BIAS) * inverse[i]
                x &= _CLEAR[i]
        my, seat, n = self._side, self._seat, self._n
        phase, ext, draw = view.phase, view.extended_by, view.draw_count
        mine = view.current == seat and phase != "over"
        at = _DRAW_AT
        arr[at] = draw / (view.deck_size or 1)
        arr[at + 1] = draw == 0
        arr[at + 2] = view.target / 1000.0
        arr[at + 3] = phase == PLAY_PHASE
        arr[at + 4] = phase == EXTEND_PHASE
        arr[at + 5] = mine
        arr[at + 6] = view.cf_turn and mine
        arr[at + 7] = ext is not None and ext == my
        arr[at + 8] = ext is not None and ext != my
        sizes = view.hand_sizes
        at = _SIZES_AT - seat
        for k in range(seat, n):
            arr[at + k] = sizes[k] / 7.0
        at += n
        for k in range(seat):
            arr[at + k] = sizes[k] / 7.0
        arr[_MATCH_AT] = min(view.hand_no / 10.0, 1.0)
        return arr

    def _values(self, view: MilleView) -> array:  # type: ignore[type-arg]
        try:
            return self._update(view)
        except _TooMany:
            self._edition = None  # start afresh next time
            return array("f", _view_list(view))

    def encode(self, view: MilleView) -> np.ndarray:
        """The observation vector of ``view`` (a new float32 array, equal to ``encode_view(view)``)."""
        return np.frombuffer(bytearray(self._values(view)), dtype=np.float32)

    def encode_into(self, view: MilleView, out: np.ndarray) -> np.ndarray:
        """``encode(view)`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
        out[:] = np.frombuffer(self._values(view), dtype=np.float32)
        return out


_CODE_BY_ID = {id(a): i for i, a in enumerate(ALL_ACTIONS)}


def mask_from_legal(legal: Sequence[Action]) -> np.ndarray:
    """The ``int8`` mask (:data:`NUM_ACTIONS`) with 1 at each action's code."""
    m = bytearray(NUM_ACTIONS)
    by_id = _CODE_BY_ID
    for a in legal:
        code = by_id.get(id(a))
        m[a.code if code is None else code] = 1
    return np.frombuffer(m, dtype=np.int8)  # writable: it owns the bytearray


def action_mask(view: MilleView) -> np.ndarray:
    """The legal-action mask of this view (all zeros when it is not this player's turn)."""
    return mask_from_legal(legal_from_view(view))


def encode_oracle(state: MilleState, player: int) -> np.ndarray:
    """The *oracle* vector (float32, :data:`ORACLE_SIZE`): full state seen from ``player``.

    Reads every hand and the draw pile's order: for training critics only, never as an
    observation for a policy that plays.
    """
    out: list[float] = _view_list(view_for(state, player))
    n = state.n_players
    for k in range(MAX_SEATS):
        out += _counts(state.hands[(player + k) % n]) if k < n else [0] * N_CARDS
    pile = state.draw_pile
    out += [c * i for c, i in zip(_counts(pile), _table(state.edition, n).inverse, strict=True)]
    for k in range(ORACLE_ORDER):
        row = [0.0] * N_CARDS
        if k < len(pile):
            row[CARD_INDEX[pile[k]]] = 1.0
        out += row
    return np.array(out, dtype=np.float32)


def describe(vector: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation vector into its named blocks (for debugging and tests)."""
    if vector.shape[-1] != OBS_SIZE:
        raise ValueError(f"an observation has {OBS_SIZE} values, not {vector.shape[-1]}")
    return {name: vector[..., field_slice(name)] for name, _ in OBS_FIELDS}
