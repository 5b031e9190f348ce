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
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rallye.core.values import IdentityCache
from rallye.mille.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from rallye.mille.cards import CARD_INDEX, CARDS, DISTANCE_KM, SAFETIES
from rallye.mille.edition import Edition
from rallye.mille.engine import legal_from_view
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, PLAY_PHASE, MilleState, Tableau
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
_tableau_features = IdentityCache(_tableau_block, 4096)
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
    mine = view.current == view.seat and view.phase != OVER_PHASE
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

# Offsets inside a side block (see _tableau_block): km, the distance counts, 200s, then the
# "status" run (battle top, speed top, rolling, limited, safeties, coups), then the total.
_KM_AT, _D200_AT, _STATUS_AT = 1, 7, 8
_TOTAL_AT = SIDE_SIZE - 1
_STATUS_SIZE = _TOTAL_AT - _STATUS_AT
_DIST_LANES = tuple((_DIST_AT[d], d) for d in _DISTANCES)
_HAZARD_TOPS = frozenset(("STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"))
_TENTHS = [0.0]  # _TENTHS[k]: k distance cards as the reference writes them (0.1 added k times)


def _tenths(k: int) -> float:
    while len(_TENTHS) <= k:
        _TENTHS.append(_TENTHS[-1] + 0.1)
    return _TENTHS[k]


_tenths(64)
_StatusKey = tuple[str | None, str | None, tuple[str, ...], tuple[str, ...]]
_STATUS: dict[_StatusKey, array] = {}  # type: ignore[type-arg]


def _status(key: _StatusKey) -> array:  # type: ignore[type-arg]
    """The status run of a side block (as ``_tableau_block`` writes it), cached by
    (battle top, speed top, safeties, coups)."""
    run = _STATUS.get(key)
    if run is None:
        battle_top, speed_top, safeties, coups = key
        f = [0.0] * _STATUS_SIZE
        f[_BATTLE_AT[battle_top] - _STATUS_AT] = 1.0
        f[_SPEED_AT[speed_top] - _STATUS_AT] = 1.0
        row = "RIGHT_OF_WAY" in safeties
        f[_ROLLING_AT - _STATUS_AT] = float((battle_top not in _HAZARD_TOPS) if row else battle_top == "ROLL")
        f[_ROLLING_AT + 1 - _STATUS_AT] = float(speed_top == "SPEED_LIMIT" and not row)
        for c in safeties:
            f[_SAFETY_AT[c] - _STATUS_AT] = 1.0
        for c in coups:
            f[_SAFETY_AT[c] + 4 - _STATUS_AT] = 1.0
        if len(_STATUS) >= 4096:
            _STATUS.clear()
        run = _STATUS[key] = array("f", f)
    return run


def _repile(left: list[int], old: tuple[str, ...], new: tuple[str, ...], touched: list[int]) -> str | None:
    """A pile went from ``old`` to ``new``: take its cards off ``left`` (per card id) and
    note the card ids whose count changed. A pile usually gains or loses its top card;
    returns the card when it gained one (and nothing else changed), else ``None``."""
    k, n = len(old), len(new)
    if n == k + 1 and new[:k] == old:
        card = new[k]
        i = _INDEX[card]
        left[i] -= 1
        touched.append(i)
        return card
    if n == k - 1 and old[:n] == new:
        i = _INDEX[old[n]]
        left[i] += 1
        touched.append(i)
    else:
        for c in old:
            i = _INDEX[c]
            left[i] += 1
            touched.append(i)
        for c in new:
            i = _INDEX[c]
            left[i] -= 1
            touched.append(i)
    return None


_INDEX = CARD_INDEX


class ViewEncoder:
    """``encode_view`` for one observer, kept up to date between calls.

    It keeps the last vector it produced and rewrites only what changed since the last view
    it was given. The engine shares every unchanged hand, pile, tableau and total between
    successive states, so "changed" is an identity test, down to a tableau's piles; a pile
    that gained or lost its top card changes one card count, and only the values of the
    card ids whose counts changed are rewritten (a hand is compared card by card). A side
    whose distance pile grew by one card gets its km, 200s and that card's count
    rewritten; a new battle or speed top or safety gets the side's status run copied from
    a small cache. Any view may be given at any time (another seat, edition or match
    starts afresh; any other change of a pile is recounted). It reads the view only, like
    ``encode_view``, which stays the reference: ``tests/rl`` checks the two agree bit for
    bit over many thousands of random decisions in every edition and player count, and
    over arbitrary changes of every pile. One encoder per observer seat keeps the most
    work shared.

    >>> from rallye import mille
    >>> s = mille.new_match("hu", 3, seed=2)
    >>> enc = ViewEncoder()
    >>> bool((enc.encode(mille.view_for(s, 1)) == encode_view(mille.view_for(s, 1))).all())
    True
    """

    __slots__ = (
        "_buf", "_discard", "_edition", "_flags", "_hand", "_hand_no", "_held", "_inverse", "_left", "_mv",
        "_n", "_order", "_pile", "_seat", "_side", "_size_at", "_sizes", "_tab_at", "_tabs", "_totals",
    )  # fmt: skip

    def __init__(self) -> None:
        self._edition: Edition | None = None
        self._n = self._seat = self._side = -1
        self._buf = np.zeros(OBS_SIZE, dtype=np.float32)
        self._mv: Any = self._buf.data  # a memoryview: item writes through it are the cheapest
        self._order: tuple[int, ...] = ()  # absolute side of each side slot
        self._size_at: tuple[tuple[int, int], ...] = ()  # (vector index, seat) of each hand size
        self._inverse: tuple[float, ...] = ()
        self._hand: tuple[str, ...] = ()
        self._tabs: tuple[Tableau, ...] | None = None
        self._totals: tuple[int, ...] | None = None
        self._discard: tuple[str, ...] = ()
        self._tab_at: list[Tableau | None] = []
        self._left: list[int] = []  # per card id: copies neither on a tableau nor discarded
        self._held: list[int] = []  # per card id: copies in my hand
        self._pile: list[int] = []  # per card id: copies on the discard pile
        self._flags: tuple[Any, ...] | None = None  # what the draw/phase values after the first two came from
        self._sizes: tuple[int, ...] | None = None
        self._hand_no = -1

    def _start(self, view: MilleView) -> None:
        """A new observer (seat, side, player count or edition): every block is rebuilt."""
        n, n_sides = view.n_players, len(view.tableaus)
        if n > MAX_SEATS or n_sides > MAX_SIDES:
            raise ValueError(f"the encoding holds at most {MAX_SEATS} seats and {MAX_SIDES} sides")
        table = _table(view.edition, n)
        my = view.side
        self._edition, self._n, self._seat, self._side = view.edition, n, view.seat, my
        self._inverse = table.inverse
        self._order = tuple((my + k) % n_sides for k in range(n_sides))
        self._size_at = tuple((_SIZES_AT + k, (view.seat + k) % n) for k in range(n))
        buf = self._buf = np.zeros(OBS_SIZE, dtype=np.float32)
        self._mv = buf.data
        buf[_MY_SIDE_AT : _MY_SIDE_AT + MAX_SIDES] = _ONE_HOT_SIDE[my]
        buf[_RULES_AT : _RULES_AT + 4] = table.flags
        buf[_MATCH_AT + 1] = table.match_target
        for k in range(n_sides):
            buf[_SIDES_AT + k * SIDE_SIZE] = 1.0  # present
        # nothing seen yet: every copy unseen (the empty hand and pile match the zero counts)
        buf[_UNSEEN_AT : _UNSEEN_AT + N_CARDS] = [k * v for k, v in zip(table.copies, table.inverse, strict=True)]
        self._left = list(table.copies)
        self._held = [0] * N_CARDS
        self._pile = [0] * N_CARDS
        self._hand = self._discard = ()
        self._tabs = self._totals = None
        self._tab_at = [None] * n_sides
        self._flags = self._sizes = None
        self._hand_no = -1

    def _rewrite_side(self, at: int, old: Tableau | None, tab: Tableau, touched: list[int]) -> None:
        """Rewrite the side block at ``at`` (less its total) from ``old`` to ``tab``."""
        mv, left = self._mv, self._left
        battle, speed, distance, safeties = tab.battle, tab.speed, tab.distance, tab.safeties
        if old is None:
            for pile in (battle, speed, distance, safeties):
                _repile(left, (), pile, touched)
            new_distance = new_status = True
        else:
            new_status = False
            if battle is not old.battle:
                _repile(left, old.battle, battle, touched)
                new_status = True
            if speed is not old.speed:
                _repile(left, old.speed, speed, touched)
                new_status = True
            if safeties is not old.safeties:
                _repile(left, old.safeties, safeties, touched)
                new_status = True
            if tab.coups is not old.coups:
                new_status = True
            new_distance = distance is not old.distance
            if new_distance:
                card = _repile(left, old.distance, distance, touched)
                if card is not None:  # one card more: only its count changes
                    mv[at + _DIST_AT[card]] = _tenths(distance.count(card))
                    new_distance = False
        if new_distance:
            for i, card in _DIST_LANES:
                mv[at + i] = _tenths(distance.count(card))
        if new_status:
            key = (battle[-1] if battle else None, speed[-1] if speed else None, safeties, tab.coups)
            mv[at + _STATUS_AT : at + _TOTAL_AT] = _status(key)
        mv[at + _KM_AT] = tab.km / 1000.0
        mv[at + _D200_AT] = tab.d200 / 2.0

    def _update(self, view: MilleView) -> np.ndarray:
        if (
            view.edition is not self._edition
            or view.seat != self._seat
            or view.n_players != self._n
            or view.side != self._side
            or len(view.tableaus) != len(self._tab_at)
        ):
            self._start(view)
        mv = self._mv
        left = self._left
        inverse = self._inverse
        touched: list[int] = []  # card ids whose unseen count may have changed
        tabs = view.tableaus
        if tabs is not self._tabs:
            tab_at = self._tab_at
            at = _SIDES_AT
            for k, s in enumerate(self._order):
                tab = tabs[s]
                old = tab_at[k]
                if tab is not old:
                    self._rewrite_side(at, old, tab, touched)
                    tab_at[k] = tab
                at += SIDE_SIZE
            self._tabs = tabs
        totals = view.totals
        if totals is not self._totals:
            at = _SIDES_AT + _TOTAL_AT
            for s in self._order:
                total = totals[s] / 1000.0 if totals else 0.0
                mv[at] = OBS_LOW if total < OBS_LOW else OBS_HIGH if total > OBS_HIGH else total
                at += SIDE_SIZE
            self._totals = totals
        pile = view.discard
        last = self._discard
        if pile is not last:
            counts = self._pile
            k = len(last)
            if len(pile) >= k and pile[:k] == last:  # the pile only grows during a hand
                for c in pile[k:]:
                    i = _INDEX[c]
                    counts[i] += 1
                    left[i] -= 1
                    mv[_DISCARD_AT + i] = counts[i] * inverse[i]
                    touched.append(i)
            else:  # a new hand, or a view of another match: count afresh
                fresh = _counts(pile)
                for i, m in enumerate(fresh):
                    d = m - counts[i]
                    if d:
                        counts[i] = m
                        left[i] -= d
                        mv[_DISCARD_AT + i] = m * inverse[i]
                        touched.append(i)
            self._discard = pile
        hand = view.hand
        old_hand = self._hand
        if hand is not old_hand:
            held = self._held
            gone = list(old_hand)
            for c in hand:
                if c in gone:
                    gone.remove(c)
                else:
                    i = _INDEX[c]
                    held[i] += 1
                    mv[_HAND_AT + i] = held[i]
                    touched.append(i)
            for c in gone:
                i = _INDEX[c]
                held[i] -= 1
                mv[_HAND_AT + i] = held[i]
                touched.append(i)
            self._hand = hand
        if touched:
            held = self._held
            for i in touched:
                mv[_UNSEEN_AT + i] = (left[i] - held[i]) * inverse[i]
        phase, draw = view.phase, view.draw_count
        mv[_DRAW_AT] = draw / (view.deck_size or 1)
        mv[_DRAW_AT + 1] = 0.0 if draw else 1.0
        # the rest of the draw and phase blocks, the hand sizes and the hand number change
        # seldom: rewritten when their inputs do
        mine = view.current == self._seat and phase != OVER_PHASE
        flags = (view.target, phase, mine, mine and view.cf_turn, view.extended_by)
        if flags != self._flags:
            self._flags = flags
            my, ext = self._side, flags[4]
            mv[_DRAW_AT + 2] = view.target / 1000.0
            mv[_DRAW_AT + 3] = 1.0 if phase == PLAY_PHASE else 0.0
            mv[_DRAW_AT + 4] = 1.0 if phase == EXTEND_PHASE else 0.0
            mv[_DRAW_AT + 5] = 1.0 if mine else 0.0
            mv[_DRAW_AT + 6] = 1.0 if flags[3] else 0.0
            mv[_DRAW_AT + 7] = 0.0 if ext is None else 1.0 if ext == my else 0.0
            mv[_DRAW_AT + 8] = 0.0 if ext is None else 0.0 if ext == my else 1.0
        sizes = view.hand_sizes
        if sizes != self._sizes:
            self._sizes = sizes
            for at, k in self._size_at:
                mv[at] = sizes[k] / 7.0
        if view.hand_no != self._hand_no:
            self._hand_no = view.hand_no
            hand_no = view.hand_no / 10.0
            mv[_MATCH_AT] = hand_no if hand_no < 1.0 else 1.0
        return self._buf

    def encode(self, view: MilleView) -> np.ndarray:
        """The observation vector of ``view`` (a new float32 array, equal to ``encode_view(view)``)."""
        return self._update(view).copy()

    def encode_into(self, view: MilleView, out: np.ndarray) -> np.ndarray:
        """``encode(view)`` written into ``out`` (float32, shape ``(OBS_SIZE,)``); returns ``out``."""
        out[:] = self._update(view)
        return out


CODE_BY_ID = {id(a): i for i, a in enumerate(ALL_ACTIONS)}


_code_of_id = CODE_BY_ID.__getitem__
_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=np.int8)


def mask_from_legal(legal: Sequence[Action]) -> np.ndarray:
    """The ``int8`` mask (:data:`NUM_ACTIONS`) with 1 at each action's code (a new array)."""
    out = _NO_ACTIONS.copy()
    m = out.data  # item writes through a memoryview are the cheapest
    try:  # the engine's own action objects (ALL_ACTIONS): their codes by identity
        for code in map(_code_of_id, map(id, legal)):
            m[code] = 1
    except KeyError:  # an equal action built elsewhere
        for a in legal:
            m[a.code] = 1
    return out


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
